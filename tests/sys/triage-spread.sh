#!/bin/sh
# triage-spread.sh - quick triage samples each drive over its own capacity:
#  1. sim drives of 2 TB and 8 TB in one run (virtual time): the quick pass
#     reads both up to > 90 % of their own size (not the 8 TB drive's first
#     2 TB only), the same number of blocks on each;
#  2. loop devices over a 64 MB and a 1 GB sparse file: the same (the 64 MB
#     one read whole, 64 blocks, fewer than --samples 100);
#  3. --mode full on a 64 MB and a 256 MB loop device: the run ends, each
#     drive read exactly once over its whole size (the small one is not
#     re-read while the large one goes on).
. "$(dirname "$0")/../lib/loop.sh"
DS=${DISKSCOPE:-build/diskscope}
[ -x "$DS" ] || { echo "SKIP: $DS not built"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: needs python3 to read the JSON"; exit 77; }
"$DS" run triage --help >/dev/null 2>&1 || { echo "SKIP: $DS has no triage test"; exit 77; }
T=$(mktemp -d /tmp/ds-triage-spread-XXXXXX)
LOOPS=""
cleanup() {
	for l in $LOOPS; do loop_detach "$l"; done
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
fail() { echo "FAIL: $*"; exit 1; }

# check JSON STEP-LABEL same|any: every drive's reads in that step reach
# > 90 % of its own size (same: the same number of blocks on each)
check() {
	python3 - "$@" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["run"]
label, how = sys.argv[2], sys.argv[3]
st = [s for s in r["steps"] if s["label"] == label]
assert len(st) == 1, [s["label"] for s in r["steps"]]
res = st[0]["results"]
assert len(res) == len(r["targets"]), res
ios = set()
for t in res:
    pos = [p for p in t["series"]["pos"] if p is not None]
    top = max(pos)
    print("%s: %d I/Os, %d bytes, reads up to %.1f %% of it"
          % (t["target"], t["ios"], t["bytes"], 100 * top))
    assert top > 0.9, (t["target"], top)
    ios.add(t["ios"])
if how == "same":
    assert len(ios) == 1, ("not the same number of samples on each drive", ios)
PY
}

# 1. sim drives, 2 TB and 8 TB
"$DS" triage sim:WD20EFRX sim:WD80PUZX --samples 200 --json "$T/sim.json" >"$T/out" 2>&1 ||
	fail "quick triage of two sim drives: exit $?: $(tail -3 "$T/out")"
check "$T/sim.json" "quick read, all drives" same || fail "sim drives of 2 and 8 TB not each sampled over itself"

# 2. and 3. need loop devices
if [ "$(id -u)" != 0 ] || ! command -v losetup >/dev/null; then
	echo "SKIP (loop part): needs root and losetup"
	echo PASS
	exit 0
fi
for f in small:64M big:1G mid:256M; do
	truncate -s "${f#*:}" "$T/${f%%:*}" || fail "sparse file ${f%%:*}"
done
for f in small big mid; do
	loop_new l "$T/$f" || fail "losetup $f"
	LOOPS="$LOOPS $l"
	eval "L_$f=\$l"
done
# shellcheck disable=SC2154
"$DS" run triage "$L_small" "$L_big" --samples 100 --json "$T/loop.json" >"$T/out" 2>&1 ||
	fail "quick triage of 64 MB and 1 GB loop devices: exit $?: $(tail -3 "$T/out")"
check "$T/loop.json" "quick read, all drives" any || fail "loop devices of 64 MB and 1 GB not each sampled over itself"

# shellcheck disable=SC2154
"$DS" run triage "$L_small" "$L_mid" --mode full --json "$T/full.json" >"$T/out" 2>&1 ||
	fail "full triage of 64 MB and 256 MB loop devices: exit $?: $(tail -3 "$T/out")"
loop_check $LOOPS || fail "not judged"
python3 - "$T/full.json" <<'PY' || fail "full triage of mixed sizes"
import json, sys
r = json.load(open(sys.argv[1]))["run"]
st = [s for s in r["steps"] if s["label"] == "full read, all drives"]
assert len(st) == 1, [s["label"] for s in r["steps"]]
want = {0: 64 << 20, 1: 256 << 20}
for i, t in enumerate(st[0]["results"]):
    print("%s: %d bytes read in the full pass" % (t["target"], t["bytes"]))
    assert t["bytes"] == want[i], (t["target"], t["bytes"], want[i])
assert not r["interrupted"]
PY
echo PASS
