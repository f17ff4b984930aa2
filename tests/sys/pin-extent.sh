#!/bin/sh
# pin-extent.sh - an unreadable 1 MiB extent (2,048 sectors, across two scan
# blocks) on a ds-faultdev loop device whose failed reads are slow (a delay
# rule, as a drive that retries): the surface scan pins it exactly to the
# sector with at most 2 log2(2048) + 16 failed reads of that range (the
# device counts them; re-reading it sector by sector took 2,048), the pin
# step's time is its real time (at least its failed reads' delay, not "0.0
# s"), the scan of the rest unchanged (every block read, two failed).  Then
# triage (full) pins it the same way.
. "$(dirname "$0")/../fault/lib.sh"
fault_need

E0=300000 E1=302047 MS=50
fault_start --size 256M -c "eio $E0 $E1 read" -c "delay $E0 $E1 $MS read"
fault_loop 0
L=$FLOOP
served() { sed -nE "s/^disk0 eio $E0 $E1 read failed-reads ([0-9]+)$/\1/p" "$FMNT/.ctl"; }
[ "$(served)" = 0 ] || fault_fail ".ctl has no failed-reads counter for the range: $(cat "$FMNT/.ctl")"

"$DS" run surface "$L" --json "$FT/s.json" >"$FT/out" 2>"$FT/err"
rc=$?
grep "unreadable\|pinning" "$FT/out"
[ $rc -eq 1 ] || { cat "$FT/err"; fault_fail "surface over the extent: exit $rc, want 1"; }
fault_json "$FT/s.json"
n=$(served)
echo "failed reads served by the range (scan and pinning): $n"
python3 - "$FT/s.json" $E0 $E1 "$n" $MS <<'PY' || fault_fail "surface JSON"
import json, sys
e0, e1, n, ms = map(int, sys.argv[2:])
r = json.load(open(sys.argv[1]))["run"]
tb = {t["name"]: t for t in r["tables"]}
def rows(name):
    t = tb[name]
    keys = [c["name"] for c in t["columns"]]
    return [dict(zip(keys, row)) for row in t["rows"]]
ext = [(e["first_lba"], e["last_lba"], e["resolution"]) for e in rows("extents")]
assert ext == [(e0, e1, "sector")], ext
b = {x["time"]: x["blocks"] for x in rows("blocks")}
# the kernel may serve a failed 1 MiB read of the scan as two 512 KiB ones
assert n <= 2 * 11 + 16 + b["error"], "%d failed reads of a 2048-sector extent, want <= 38 + %d" % (n, b["error"])
assert b["error"] == 2 and sum(b.values()) == 256, b      # the rest of the scan as before
pin = [s for s in r["steps"] if s["label"].startswith("pin ")]
assert len(pin) == 1, [s["label"] for s in r["steps"]]
sec = pin[0]["results"][0]["seconds"]
# its failed reads (all but the scan's, served once or twice) each took the delay at least
assert sec >= (n - 2 * b["error"]) * ms / 1000.0 * 0.9, (sec, n)
fail = [v for v in r["verdicts"] if v["level"] == "fail"]
assert len(fail) == 1 and "LBA %d-%d" % (e0, e1) in fail[0]["text"], fail
assert any("pinned to the sector" in e for e in fail[0]["evidence"]), fail[0]["evidence"]
print("pinned", ext, "pin step %.2f s" % sec)
PY

before=$(served)
"$DS" run triage "$L" --mode full --json "$FT/t.json" >"$FT/out" 2>"$FT/err"
rc=$?
[ $rc -eq 1 ] || { cat "$FT/out" "$FT/err"; fault_fail "triage over the extent: exit $rc, want 1"; }
fault_json "$FT/t.json"
n=$(( $(served) - before ))
echo "triage: failed reads served: $n"
python3 - "$FT/t.json" $E0 $E1 "$n" <<'PY' || fault_fail "triage JSON"
import json, sys
e0, e1, n = map(int, sys.argv[2:])
r = json.load(open(sys.argv[1]))["run"]
t = [x for x in r["tables"] if x["name"] == "triage"][0]
keys = [c["name"] for c in t["columns"]]
row = dict(zip(keys, t["rows"][0]))
assert row["verdict"] == "FAIL" and "unreadable at LBA %d-%d" % (e0, e1) in row["reasons"], row
assert row["extents"] == 1, row
v = [x for x in r["verdicts"] if x["kind"] == "triage"][0]
assert any("LBA %d-%d" % (e0, e1) in e and "pinned to the sector" in e for e in v["evidence"]), v["evidence"]
# the solo sample reads the drive over and over for its time, so the
# device's count is more than pinning's own: pinning says its failed reads,
# at most 2 log2(2048) + 16 of them, and the device served at least that many
import re
m = [re.search(r"^pinning: (\d+) reads \((\d+) failed\)", e) for e in v["evidence"]]
m = [x for x in m if x]
assert len(m) == 1, v["evidence"]
pf = int(m[0].group(2))
assert 0 < pf <= 2 * 11 + 16 and pf <= n, (pf, n)
print("triage pinned:", row["reasons"], "with", pf, "failed reads")
PY
echo PASS
