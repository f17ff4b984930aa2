#!/bin/sh
# fault-slow.sh - a slow band on a real block device (a direct-io loop over
# ds-faultdev, reads in LBA 65536..98303 held 20 ms each): random reads in
# the band show the delay in their latency, sequential reads over it a lower
# rate than beside it, and nothing is counted as an error.  Bounds only:
# the delay is a floor the device guarantees, the rest is a comparison.
. "$(dirname "$0")/../fault/lib.sh"
fault_need

S0=65536 S1=98303 MS=20
fault_start --size 64M --fill random -c "delay $S0 $S1 $MS read"
fault_loop 0
L=$FLOOP

fault_run rslow randread "$L" --bs 4k --qd 1 --time 1 --region "$S0:$((S1 + 1))"
fault_run rfast randread "$L" --bs 4k --qd 1 --time 1 --region "0:$S0"
fault_run sslow seqread "$L" --bs 1M --qd 1 --time 0 --region "$S0:$((S1 + 1))"
fault_run sfast seqread "$L" --bs 1M --qd 1 --time 0 --region "0:$S0"
python3 - "$FT" $MS <<'PY' || fault_fail "the slow band does not show"
import json, sys
d, ms = sys.argv[1], float(sys.argv[2])
def res(n):
    return json.load(open("%s/%s.json" % (d, n)))["run"]["steps"][0]["results"][0]
rs, rf, ss, sf = (res(n) for n in ("rslow", "rfast", "sslow", "sfast"))
for t in (rs, rf, ss, sf):
    assert t["errors"]["count"] == 0, t["errors"]
# every read in the band waited at least the delay
assert rs["lat_us"]["min"] >= ms * 1000, rs["lat_us"]
assert rs["lat_us"]["p50"] > rf["lat_us"]["p50"], (rs["lat_us"], rf["lat_us"])
assert rs["iops"] <= 1000 / ms * 1.05, rs["iops"]
# 1 MiB reads held 20 ms: at most ~52 MB/s in the band, whatever the machine
assert ss["mbps"] <= 1.048576 / (ms / 1000) * 1.05, ss["mbps"]
assert ss["mbps"] < sf["mbps"], (ss["mbps"], sf["mbps"])
print("slow band: randread p50 %.0f us (beside it %.0f us), seqread %.1f MB/s (beside it %.1f MB/s)"
      % (rs["lat_us"]["p50"], rf["lat_us"]["p50"], ss["mbps"], sf["mbps"]))
PY
echo PASS
