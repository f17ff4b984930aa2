#!/bin/sh
# smr-fault.sh - the smr test on a real block device: a loop device over the
# fault device, taught a drive-managed SMR media cache (full after 16 MB of
# random writes, then every I/O held 1 s out of every 3 s).  The test must
# find DM-SMR-like stalls with the configured length, period and cache size,
# and the same device without the media cache must show none.  The device
# can be slower than its model on a busy machine, never faster: the bounds
# are the model's, with room for that.
. "$(dirname "$0")/../fault/lib.sh"
fault_need
"$DS" run --help >/dev/null 2>&1 || fault_skip "$DS has no working 'run' command yet"

fault_start --size 256M --fill random
fault_loop 0
L=$FLOOP

run() {	# NAME ARGS...: a run that must succeed, its JSON in $FT/NAME.json
	n=$1
	shift
	"$DS" run "$@" --json "$FT/$n.json" >"$FT/out" 2>"$FT/err"
	rc=$?
	cat "$FT/out" "$FT/err"
	[ $rc -eq 0 ] || fault_fail "$n: exit $rc, want 0"
	fault_json "$FT/$n.json"
}

# 1. the media cache: stalls found, with their length, period and the cache
fault_ctl "mcache 16 1 3"
run mc smr "$L" --bs 64k --qd 8 --time 10 --trim yes --destroy-data "$L"
fault_ctl "mcache off"
python3 - "$FT/mc.json" <<'PY' || fault_fail "media cache not found as DM-SMR"
import json, sys
run = json.load(open(sys.argv[1]))["run"]
v = [x for x in run["verdicts"] if x["kind"] == "smr"]
assert len(v) == 1, run["verdicts"]
v = v[0]
assert v["level"] == "warn", v
assert "DM-SMR" in v["text"] and "keep it out of a ZFS/RAID pool" in v["text"], v["text"]
t = next(t for t in run["tables"] if t["name"] == "smr")
row = dict(zip([c["name"] for c in t["columns"]], t["rows"][0]))
print("media cache: %s" % v["text"])
# 10 s with a stall every 3 s: at least two ended ones
assert row["stalls"] >= 2, row
assert 0.95 <= row["stall_s"] <= 2.0, row         # configured 1 s (a busy machine adds, never takes)
assert 2.5 <= row["period_s"] <= 4.0, row         # configured 3 s
assert 15 <= row["cache_mb"] <= 16 + 8 * 0.0656 + 1, row   # 16 MB + what was in flight
assert any("TRIM of the tested span" in e for e in v["evidence"]), v["evidence"]
s = next(t for t in run["tables"] if t["name"] == "stalls")
assert len(s["rows"]) >= 2, s
PY

# 2. the same device, no media cache: no stall (a stall here would need the
# machine to stop us for 2 s)
run plain smr "$L" --bs 64k --qd 8 --time 3 --stall 2s --destroy-data "$L"
python3 - "$FT/plain.json" <<'PY' || fault_fail "plain loop device"
import json, sys
run = json.load(open(sys.argv[1]))["run"]
v = next(x for x in run["verdicts"] if x["kind"] == "smr")
print("plain: %s" % v["text"])
assert v["level"] == "info", v
assert "no stalls in 3.00 s" in v["text"] and "DM-SMR" in v["text"] and "unknown" in v["text"], v
t = next(t for t in run["tables"] if t["name"] == "smr")
row = dict(zip([c["name"] for c in t["columns"]], t["rows"][0]))
assert row["stalls"] == 0, row
PY
echo PASS
