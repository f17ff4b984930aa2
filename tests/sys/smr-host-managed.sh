#!/bin/sh
# smr-host-managed.sh - the smr test reads the inventory before it writes:
# on a drive whose kernel reports host-managed zones it refuses the random
# writes with one sentence and exit 3, and nothing runs (the JSON records a
# failed run with 0 bytes).  A plain drive-managed model still runs.
DS=${DISKSCOPE:-build/diskscope}
[ -x "$DS" ] || { echo "SKIP: $DS not built"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: needs python3 to read the JSON"; exit 77; }
F=$(cd "$(dirname "$0")/../fixtures/sim" && pwd)
T=$(mktemp -d /tmp/ds-smr-hm-XXXXXX)
trap 'rm -rf "$T"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }

"$DS" --sim-model "$F/host-managed.drive" run smr sim:host-managed --time 5 \
	--json "$T/hm.json" >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 3 ] || fail "host-managed: exit $rc, want 3 (refused): $(cat "$T/err")"
[ "$(wc -l <"$T/err")" -eq 1 ] || fail "want one line on stderr: $(cat "$T/err")"
grep -q 'host-managed zones.*random writes of this test are refused' "$T/err" ||
	fail "no reason: $(cat "$T/err")"
if [ -s "$T/hm.json" ]; then
	python3 - "$T/hm.json" <<'PY' || fail "the JSON claims writes"
import json, sys
run = json.load(open(sys.argv[1]))["run"]
for s in run.get("steps", []):
    for r in s.get("targets", s.get("results", [])):
        assert not r.get("bytes"), r
PY
fi
# the same drive without the zoned report runs
sed '/^zoned/d' "$F/host-managed.drive" >"$T/cmr.drive"
"$DS" --sim-model "$T/cmr.drive" run smr sim:cmr --time 5 >"$T/out" 2>"$T/err"
rc=$?
[ $rc -le 1 ] || fail "without zones: exit $rc: $(cat "$T/err")"
echo "smr host-managed: refused with exit 3 before any write"
