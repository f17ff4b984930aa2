#!/bin/sh
# fault-eio.sh - reads over unreadable sectors of a real block device (a
# direct-io loop over ds-faultdev): every failed I/O counted as EIO, the
# first and last failed bytes exactly where the bad ranges are, the run
# going on past them, exit 1 ("test ran but found problems"); random reads
# into a bad range the same; writes failing only where writes were told to.
. "$(dirname "$0")/../fault/lib.sh"
fault_need

SIZE=$((64 << 20))
# two bad ranges: 256 sectors at 10 MiB (32 4-KiB blocks), 8 sectors at 32 MiB
A0=20480 A1=20735 B0=65536 B1=65543
fault_start --size 64M --fill random -c "eio $A0 $A1" -c "eio $B0 $B1 read"
fault_loop 0
L=$FLOOP

# 1. one sequential pass, QD1, 4 KiB: 33 failed blocks, all the rest read
"$DS" run seqread "$L" --bs 4k --qd 1 --time 0 --json "$FT/seq.json" >"$FT/out" 2>"$FT/err"
rc=$?
cat "$FT/out" "$FT/err"
[ $rc -eq 1 ] || fault_fail "seqread over bad sectors: exit $rc, want 1"
fault_json "$FT/seq.json"
python3 - "$FT/seq.json" $SIZE $A0 $A1 $B0 $B1 <<'PY' || fault_fail "seqread JSON"
import json, sys
size, a0, a1, b0, b1 = map(int, sys.argv[2:])
r = json.load(open(sys.argv[1]))["run"]
t = r["steps"][0]["results"][0]
e = t["errors"]
bad = ((a1 - a0 + 1) + (b1 - b0 + 1)) * 512 // 4096
assert e["count"] == bad, (e, bad)
assert e["by_errno"] == {"EIO": bad}, e
# the first failed byte is the first bad sector; the last failed block
# starts 4 KiB before the end of the last bad range
assert e["first_offset"] == a0 * 512, e
assert e["last_offset"] == (b1 + 1) * 512 - 4096, e
# the pass went on past both ranges: every good block read
assert t["bytes"] == size - bad * 4096, (t["bytes"], size - bad * 4096)
assert t["note"] is None, t["note"]
v = [x for x in r["verdicts"] if x["kind"] == "errors"]
assert len(v) == 1 and "%d EIO" % bad in v[0]["text"], r["verdicts"]
assert str(a0 * 512) in v[0]["text"], v[0]["text"]
print("seq: %d EIO, first %d, last %d" % (e["count"], e["first_offset"], e["last_offset"]))
PY
grep -q "errors: .*33 I/O errors" "$FT/out" "$FT/err" || fault_fail "the text output does not report the 33 errors"

# 2. random reads over a region a third of which is bad: errors counted, all
# inside the bad range, good reads still measured
R0=$((A0 - 256)) R1=$((A1 + 257))
"$DS" run randread "$L" --bs 4k --qd 4 --time 2 --region "$R0:$R1" --seed 7 --json "$FT/rand.json" \
	>"$FT/out" 2>"$FT/err"
rc=$?
cat "$FT/out" "$FT/err"
[ $rc -eq 1 ] || fault_fail "randread over bad sectors: exit $rc, want 1"
fault_json "$FT/rand.json"
python3 - "$FT/rand.json" $A0 $A1 <<'PY' || fault_fail "randread JSON"
import json, sys
a0, a1 = map(int, sys.argv[2:])
t = json.load(open(sys.argv[1]))["run"]["steps"][0]["results"][0]
e = t["errors"]
assert e["count"] > 0 and e["by_errno"] == {"EIO": e["count"]}, e
for k in ("first_offset", "last_offset"):
    assert a0 * 512 <= e[k] <= (a1 + 1) * 512 - 4096, (k, e[k])
    assert e[k] % 4096 == 0, (k, e[k])
assert t["ios"] > 0 and t["iops"] > 0, t
assert t["note"] is None, t["note"]
print("rand: %d EIO beside %d good reads, first %d, last %d" % (e["count"], t["ios"], e["first_offset"], e["last_offset"]))
PY

# 3. the second range fails reads only: a write pass over it succeeds (through
# the guard, on this test's own loop device), the first range fails writes
"$DS" run seqwrite "$L" --bs 4k --qd 1 --time 0 --region "$((B0 - 64)):$((B1 + 65))" \
	--destroy-data "$L" --json "$FT/w1.json" >"$FT/out" 2>"$FT/err"
rc=$?
cat "$FT/out" "$FT/err"
[ $rc -eq 0 ] || fault_fail "seqwrite over a read-only bad range: exit $rc, want 0"
"$DS" run seqwrite "$L" --bs 4k --qd 1 --time 0 --region "$((A0 - 64)):$((A1 + 65))" \
	--destroy-data "$L" --json "$FT/w2.json" >"$FT/out" 2>"$FT/err"
rc=$?
cat "$FT/out" "$FT/err"
[ $rc -eq 1 ] || fault_fail "seqwrite over a bad range: exit $rc, want 1"
fault_json "$FT/w2.json"
python3 - "$FT/w2.json" $A0 $A1 <<'PY' || fault_fail "seqwrite JSON"
import json, sys
a0, a1 = map(int, sys.argv[2:])
e = json.load(open(sys.argv[1]))["run"]["steps"][0]["results"][0]["errors"]
n = (a1 - a0 + 1) * 512 // 4096
assert e["count"] == n and e["by_errno"] == {"EIO": n}, e
assert e["first_offset"] == a0 * 512 and e["last_offset"] == (a1 + 1) * 512 - 4096, e
print("write: %d EIO, first %d, last %d" % (e["count"], e["first_offset"], e["last_offset"]))
PY
# 4. nothing but bad sectors: the worker gives up with a reason (no option
# sets the limit today; it is 256 failed I/Os in a row)
"$DS" run randread "$L" --bs 4k --qd 1 --time 30 --region "$A0:$((A1 + 1))" --json "$FT/all.json" \
	>"$FT/out" 2>"$FT/err"
rc=$?
cat "$FT/out" "$FT/err"
[ $rc -eq 1 ] || fault_fail "randread over bad sectors only: exit $rc, want 1"
fault_json "$FT/all.json"
python3 - "$FT/all.json" <<'PY' || fault_fail "all-bad JSON"
import json, sys
r = json.load(open(sys.argv[1]))["run"]
t = r["steps"][0]["results"][0]
assert t["errors"]["count"] >= 256 and t["ios"] == 0, t["errors"]
assert "256 failed I/Os in a row" in (t["note"] or ""), t["note"]
assert r["steps"][0]["seconds"] < 30, r["steps"][0]["seconds"]
print("all bad:", t["note"])
PY
grep -q "failed 0 " "$FMNT/.ctl" && fault_fail "the daemon counted no failed I/O"
echo PASS
