#!/bin/sh
# fault-drive.sh - the drive behaviours ds-faultdev gives the drive tests,
# seen through diskscope on a real block device: a rate curve (150 MB/s at
# the start falling to 70 at the end), a read-modify-write penalty for writes
# not aligned to a 4 KiB physical sector, a media cache that stalls after
# 8 MB of random writes.  Only bounds the device guarantees are asserted
# (it can be slower on a busy machine, never faster).
. "$(dirname "$0")/../fault/lib.sh"
fault_need

fault_start --size 128M --fill random
fault_loop 0
L=$FLOOP

# 1. the rate curve: one sequential pass, rate by position never above the
# curve (a flat rate would break it at the inner end); that the outer part
# is faster is printed, not asserted: a busy machine can slow either part
fault_ctl "rate 0:150 1:70"
fault_run curve seqread "$L" --bs 256k --qd 1 --time 0
fault_ctl "rate off"
python3 - "$FT/curve.json" <<'PY' || fault_fail "rate curve"
import json, sys
t = json.load(open(sys.argv[1]))["run"]["steps"][0]["results"][0]
s = t["series"]
pts = [(p, m) for p, m in zip(s["pos"], s["mbps"]) if m is not None]
assert len(pts) >= 5, pts
# an interval (100 ms) ends at pos and counts whole I/Os: allowed over the
# curve at its start are 5 % and two 256 KiB I/Os
slack = 2 * 0.262144 / (s["interval_ms"] / 1000)
assert t["mbps"] <= 150 * 1.05, t["mbps"]
for p, m in pts:
    assert m <= (150 - 80 * max(0.0, p - 0.1)) * 1.05 + slack, (p, m)
outer = [m for p, m in pts if p < 0.35]
inner = [m for p, m in pts if p > 0.65]
assert outer and inner, pts
print("rate curve: %.0f MB/s overall, outer max %.0f, inner max %.0f" % (t["mbps"], max(outer), max(inner)))
PY

# 2. read-modify-write: 4 KiB writes at a 512-byte offset pay 2 ms each,
# aligned ones nothing
fault_ctl "rmw 4096 2"
fault_run aligned randwrite "$L" --bs 4k --qd 1 --time 1 --destroy-data "$L"
fault_run misaligned randwrite "$L" --bs 4k --qd 1 --time 1 --pattern stride --stride 4k \
	--region "1:$((64 << 11))" --destroy-data "$L"
fault_ctl "rmw off"
python3 - "$FT/aligned.json" "$FT/misaligned.json" <<'PY' || fault_fail "RMW penalty"
import json, sys
a, m = (json.load(open(f))["run"]["steps"][0]["results"][0] for f in sys.argv[1:])
assert a["errors"]["count"] == 0 and m["errors"]["count"] == 0
assert m["lat_us"]["min"] >= 2000, m["lat_us"]
assert m["iops"] <= 500 * 1.05, m["iops"]
assert a["lat_us"]["p50"] < m["lat_us"]["p50"], (a["lat_us"], m["lat_us"])
print("rmw: aligned %.0f IOPS, misaligned %.0f IOPS (%.1fx)" % (a["iops"], m["iops"], a["iops"] / m["iops"]))
PY

# 3. the media cache: full after 8 MB of random writes, then every I/O held
# 1 s out of every 2 s: intervals with no completed write, a latency of a
# whole stall
fault_ctl "mcache 8 1 2"
fault_run smr randwrite "$L" --bs 4k --qd 1 --time 5 --destroy-data "$L"
fault_ctl "mcache off"
python3 - "$FT/smr.json" <<'PY' || fault_fail "media cache stalls"
import json, sys
t = json.load(open(sys.argv[1]))["run"]["steps"][0]["results"][0]
iops = t["series"]["iops"]
first = next(i for i, v in enumerate(iops) if v)
zero = sum(1 for v in iops[first:] if not v)
assert zero >= 5, iops
assert t["lat_us"]["max"] >= 0.9e6, t["lat_us"]
print("media cache: %d of %d intervals without a write, max latency %.2f s" % (zero, len(iops), t["lat_us"]["max"] / 1e6))
PY
echo PASS
