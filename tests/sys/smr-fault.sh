#!/bin/sh
# smr-fault.sh - the smr test on a real block device: a loop device over the
# fault device, taught a drive-managed SMR media cache (full after 96 MB of
# random writes, then every I/O held 1 s out of every 3 s).  The test must
# find DM-SMR-like stalls with the configured length, period and cache size,
# and the same device without the media cache must show none.  Two probes
# back to back: the second meets the cache still full, and must say so (no
# cache size from it) with how long to idle.  The device can be slower than
# its model on a busy machine, never faster: the bounds are the model's,
# with room for that.
. "$(dirname "$0")/../fault/lib.sh"
fault_need

fault_start --size 256M --fill random
fault_loop 0
L=$FLOOP

# 1. the media cache: stalls found, with their length, period and the cache
fault_ctl "mcache 96 1 3"
fault_run mc smr "$L" --bs 64k --qd 8 --time 10 --trim yes --destroy-data "$L"
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
assert 95 <= row["cache_mb"] <= 96 + 8 * 0.0656 + 1, row   # 96 MB + what was in flight
assert row["cache_at_start"] == "empty" and row["idle_min"] is None, row
assert any("TRIM of the tested span" in e for e in v["evidence"]), v["evidence"]
s = next(t for t in run["tables"] if t["name"] == "stalls")
assert len(s["rows"]) >= 2, s
PY

# 2. the same device, no media cache: no stall (a stall here would need the
# machine to stop us for 2 s)
fault_run plain smr "$L" --bs 64k --qd 8 --time 3 --stall 2s --destroy-data "$L"
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
assert row["cache_at_start"] is None, row          # no stall: nothing to say of the cache
PY

# 3. two probes back to back.  The head at 40 MB/s and a cache that cleans
# 5 s of every 6 s: a probe meeting it full writes at most 40 MB (1 s free)
# before its first stall; it is emptied only after 11 s without writes.
fault_ctl "rate 0:40 1:40"
fault_ctl "mcache 96 5 6"
fault_run first smr "$L" --bs 64k --qd 8 --time 8 --destroy-data "$L"
fault_run second smr "$L" --bs 64k --qd 8 --time 8 --destroy-data "$L"
fault_ctl "mcache off"
fault_ctl "rate off"
python3 - "$FT/first.json" "$FT/second.json" <<'PY' || fault_fail "a second probe at once"
import json, sys
rows = []
for f in sys.argv[1:]:
    run = json.load(open(f))["run"]
    t = next(t for t in run["tables"] if t["name"] == "smr")
    rows.append((dict(zip([c["name"] for c in t["columns"]], t["rows"][0])),
                 next(x for x in run["verdicts"] if x["kind"] == "smr")))
(a, va), (b, vb) = rows
print("first: %s" % va["text"])
print("second: %s" % vb["text"])
assert a["cache_at_start"] == "empty" and 95 <= a["cache_mb"] <= 98, a
assert b["cache_at_start"] == "not empty", b
assert b["cache_mb"] is None, b                    # no cache size from a full cache
assert b["idle_min"] >= 1, b
assert "not empty at the start" in vb["text"] and "idle the drive ~" in vb["text"], vb["text"]
assert "media cache ~" not in vb["text"], vb["text"]
assert any(e.startswith("idle ~") for e in vb["evidence"]), vb["evidence"]
PY
echo PASS
