#!/bin/sh
# pin-zone.sh - a 1 GiB unreadable zone (a dead head) on a 3 GiB ds-faultdev
# loop device whose failed reads are slow, and a small extent past it: the
# surface scan jumps over the zone (after 8 failed blocks in a row, the jump
# doubling up to 1 % of the capacity), pins both to the sector (the zone's
# edges by bisection, its inside and the skipped gaps sampled), with a
# bounded count of failed reads of the zone (the device counts them: the scan
# alone used to read its 1,025 blocks, then re-read 4,096 sectors), and the
# rest read as before: every block outside the zone read, the small extent
# found.  Then triage (full) crosses it the same way.  The disk image is
# sparse (untouched pages cost no memory).
. "$(dirname "$0")/../fault/lib.sh"
fault_need

Z0=2100000 Z1=4197151 X0=5000000 X1=5000015 MS=10
fault_start --size 3G -c "rate 0:2000 1:1000" -c "eio $Z0 $Z1 read" -c "delay $Z0 $Z1 $MS read" -c "eio $X0 $X1 read"
fault_loop 0
L=$FLOOP
served() { sed -nE "s/^disk0 eio $1 $2 read failed-reads ([0-9]+)$/\1/p" "$FMNT/.ctl"; }

"$DS" run surface "$L" --json "$FT/s.json" >"$FT/out" 2>"$FT/err"
rc=$?
grep "unreadable\|pinning\|skip-ahead" "$FT/out"
[ $rc -eq 1 ] || { cat "$FT/err"; fault_fail "surface over the zone: exit $rc, want 1"; }
fault_json "$FT/s.json"
n=$(served $Z0 $Z1)
echo "failed reads served by the zone: $n"
python3 - "$FT/s.json" $Z0 $Z1 $X0 $X1 "$n" <<'PY' || fault_fail "surface JSON"
import json, sys
z0, z1, x0, x1, n = map(int, sys.argv[2:])
r = json.load(open(sys.argv[1]))["run"]
tb = {t["name"]: t for t in r["tables"]}
def rows(name):
    t = tb[name]
    keys = [c["name"] for c in t["columns"]]
    return [dict(zip(keys, row)) for row in t["rows"]]
ext = [(e["first_lba"], e["last_lba"], e["resolution"]) for e in rows("extents")]
assert ext == [(z0, z1, "sector"), (x0, x1, "sector")], ext
# 1,025 blocks touch the zone: 8 read in a row, then ~40 landings, ~16 bisection
# probes, ~50 samples (8 + one per gap)
assert n <= 200, "%d failed reads of the zone" % n
b = {x["time"]: x["blocks"] for x in rows("blocks")}
bs = 1 << 20
touch = (z1 * 512 + 511) // bs - z0 * 512 // bs + 1
good = sum(v for k, v in b.items() if k != "error")
assert good == 3072 - touch - 1, (good, touch, b)   # every block outside the zone and the extent read
fail = [v for v in r["verdicts"] if v["level"] == "fail"][0]
assert any(e.startswith("skip-ahead:") for e in fail["evidence"]), fail["evidence"]
print("extents", ext, "good blocks", good, "of", 3072)
PY

before=$(served $Z0 $Z1)
"$DS" run triage "$L" --mode full --max-bad 0 --json "$FT/t.json" >"$FT/out" 2>"$FT/err"
rc=$?
[ $rc -eq 1 ] || { cat "$FT/out" "$FT/err"; fault_fail "triage over the zone: exit $rc, want 1"; }
fault_json "$FT/t.json"
n=$(( $(served $Z0 $Z1) - before ))
echo "triage: failed reads served by the zone: $n"
python3 - "$FT/t.json" $Z0 $Z1 $X0 $X1 "$n" <<'PY' || fault_fail "triage JSON"
import json, sys
z0, z1, x0, x1, n = map(int, sys.argv[2:])
r = json.load(open(sys.argv[1]))["run"]
t = [x for x in r["tables"] if x["name"] == "triage"][0]
keys = [c["name"] for c in t["columns"]]
row = dict(zip(keys, t["rows"][0]))
assert row["verdict"] == "FAIL" and "unreadable at LBA %d-%d" % (z0, z1) in row["reasons"], row
assert row["extents"] == 2, row
v = [x for x in r["verdicts"] if x["kind"] == "triage"][0]
assert any("LBA %d-%d" % (x0, x1) in e and "pinned to the sector" in e for e in v["evidence"]), v["evidence"]
assert any("skip-ahead:" in e for e in v["evidence"]), v["evidence"]
# the solo sample reads for its time (3 s) without skipping, so the device's
# count is more: the full pass's failed reads and pinning's are each bounded
shared = [s for s in r["steps"] if s["label"].startswith("full read")][0]["results"][0]
assert shared["errors"]["count"] <= 60, shared["errors"]
import re
m = [re.search(r"^pinning: (\d+) reads \((\d+) failed\)", e) for e in v["evidence"]]
m = [x for x in m if x]
assert len(m) == 1 and int(m[0].group(2)) <= 150, v["evidence"]
print("triage:", row["reasons"], "; full pass failed reads", shared["errors"]["count"], "; pinning", m[0].group(0))
PY
echo PASS
