#!/bin/sh
# run-position: a positional test (seqread) keeps rate and worst latency by
# position across the region: the failing 250 GB sim drive (FLAWED250) reads
# 70 MB/s outside, 40 inside, slower in its weak zone at ~30 %, with a
# multi-second completion at its unreadable sectors.  A random test has none.
DS=${DISKSCOPE:-build/diskscope}
[ -x "$DS" ] || { echo "SKIP: $DS not built"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: needs python3 to read the JSON"; exit 77; }
T=$(mktemp -d /tmp/ds-pos-XXXXXX)
trap 'rm -rf "$T"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }

"$DS" run seqread sim:FLAWED250 --time 0 --json "$T/s.json" >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 1 ] || fail "seqread over the flawed drive: exit $rc, want 1 ($(tail -2 "$T/err"))"
"$DS" run randread sim:FLAWED250 --time 1 --json "$T/r.json" >/dev/null 2>&1 || fail "randread"
python3 - "$T/s.json" "$T/r.json" <<'PY' || fail "by_position"
import json, sys
t = json.load(open(sys.argv[1]))["run"]["steps"][0]["results"][0]
b = t["by_position"]
m, lat = b["mbps"], b["max_lat_us"]
assert len(m) == 200 and len(lat) == 200, len(m)
assert abs(m[0] - 70) < 5 and abs(m[-1] - 40) < 5, (m[0], m[-1])
# LBA 146000000 of 488397168 is slice 59: the weak zone (rate x 0.54 over a
# sixth of the slice) pulls that slice below its neighbours
weak = min(x for x in m[58:61] if x is not None)
assert weak < 0.92 * min(m[55], m[64]), (weak, m[55], m[64])
# the unreadable sectors (LBA 300000000, slice 122) took seconds
assert max(x for x in lat[121:124] if x is not None) > 1e6, lat[121:124]
r = json.load(open(sys.argv[2]))["run"]["steps"][0]["results"][0]
assert r["by_position"] is None, "a random test has no position curve"
print("by position: %.1f -> %.1f MB/s, weak zone %.1f MB/s" % (m[0], m[-1], weak))
PY
echo PASS
