#!/bin/sh
# run-window: a target that stops early (256 errors in a row) is marked, and
# the step's aggregate covers only the window in which all targets ran; the
# errors of a ramp-up are reported apart.  Sim drives, virtual time.
DS=${DISKSCOPE:-build/diskscope}
[ -x "$DS" ] || { echo "SKIP: $DS not built"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: needs python3 to read the JSON"; exit 77; }
T=$(mktemp -d /tmp/ds-window-XXXXXX)
trap 'rm -rf "$T"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
M=tests/fixtures/sim/dies-early.drive

# dies-early reads well for ~0.7 s from LBA 1800000, then fails every I/O
"$DS" --sim-model "$M" run seqread sim:dies-early sim:WD40EZRX --region 1800000:100000000 \
  --time 10 --qd 1 --seed 1 --json "$T/w.json" >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 1 ] || fail "exit $rc, want 1 (errors found): $(tail -3 "$T/err")"
grep -q "stopped early" "$T/out" || fail "the text does not say which target stopped early: $(cat "$T/out")"
grep -q "over the 0.[0-9] s all ran" "$T/out" || fail "the aggregate does not name its window: $(cat "$T/out")"
python3 - "$T/w.json" <<'PY' || fail "window figures"
import json, sys
st = json.load(open(sys.argv[1]))["run"]["steps"][0]
res = {r["target"]: r for r in st["results"]}
d, w = res["sim:dies-early"], res["sim:WD40EZRX"]
assert d["stopped_early"] is True and w["stopped_early"] is False, (d["stopped_early"], w["stopped_early"])
assert 0.5 < st["window_s"] < 1.0, st["window_s"]
# over the window both drives read at ~150 MB/s: ~300, and the aggregate is not
# a sum of rates over different times
assert 280 < st["aggregate_mbps"] < 310, st["aggregate_mbps"]
assert st["aggregate_mbps"] != round(d["mbps"] + w["mbps"], 2)
print("window %.3f s, aggregate %.1f MB/s; dies-early %.1f MB/s for %.2f s" %
      (st["window_s"], st["aggregate_mbps"], d["mbps"], d["seconds"]))
PY
echo PASS
