#!/bin/sh
# align-fault.sh - the alignment probe on real block devices built on the
# fault device (tests/fault): a direct-io loop with 512-byte sectors over a
# disk whose writes not aligned to 4096 bytes cost 2 ms more is found to
# behave as 4096 (it reports 512/512: "hides its 4K sectors"), and its
# partition at LBA 63 is called misaligned, the one at 2048 aligned; the same
# disk without the rule shows no penalty; a loop with 4096-byte logical
# sectors starts its rows at 4096; no write without --destroy-data (exit 3),
# and --rw read needs none.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/fault/lib.sh
fault_need
fault_start --disks 2 --size 64M
fail() { fault_fail "$@"; }

# an MBR: partition 1 at LBA 63 (the old DOS start), partition 2 at 2048
python3 - "$FMNT/disk0" <<'P' || fail "partition table"
import struct, sys
with open(sys.argv[1], "r+b") as f:
    mbr = bytearray(512)
    for i, (start, n) in enumerate(((63, 1985), (2048, 4096))):
        struct.pack_into("<B3sB3sII", mbr, 446 + 16 * i, 0, b"\0\0\0", 0x83, b"\0\0\0", start, n)
    mbr[510:512] = b"\x55\xaa"
    f.write(mbr)
P
loop_new L "$FMNT/disk0" -P --direct-io=on || fail "losetup -P"
FLOOPS="$FLOOPS $L"
n=${L#/dev/}
i=0; while [ ! -e /sys/block/$n/${n}p2/start ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
parts=1
[ "$(cat /sys/block/$n/${n}p1/start 2>/dev/null)" = 63 ] ||
  { parts=0; echo "note: this kernel shows no partitions on $L (no MSDOS partition support): partition verdicts not checked"; }

# no confirmation: refused before any I/O; reading needs none
"$DS" run align "$L" --max 8k --count 20 >"$FT/r.out" 2>&1
rc=$?; [ $rc -eq 3 ] || fail "align without --destroy-data: exit $rc, want 3 ($(tail -1 "$FT/r.out"))"
"$DS" run align "$L" --rw read --max 8k --count 20 --json "$FT/read.json" >"$FT/read.out" 2>&1 ||
  fail "align --rw read: exit $? ($(tail -2 "$FT/read.out"))"

# rows of at most 400 writes or 0.1 s: an aligned row of 50 (a millisecond
# or two) read as slow whenever a busy spell of the shared machine fell in
# it, and two such rows of seven hid the penalty; 400 average a spell out,
# and the 2 ms rows stop at 0.1 s
fault_ctl "disk0 rmw 4096 2"
"$DS" run align "$L" --destroy-data="$L" --max 16k --count 400 --row-time 0.1 --json "$FT/rmw.json" >"$FT/rmw.out" 2>&1 ||
  fail "align with rmw: exit $? ($(tail -3 "$FT/rmw.out"))"
sed -n '/^align: loop/,$p' "$FT/rmw.out"
fault_ctl "disk0 rmw off"
"$DS" run align "$L" --destroy-data="$L" --max 16k --count 400 --row-time 0.1 --json "$FT/none.json" >"$FT/none.out" 2>&1 ||
  fail "align without rmw: exit $? ($(tail -3 "$FT/none.out"))"
sed -n '/^align: loop/,$p' "$FT/none.out"

# 4096-byte logical sectors: nothing smaller is tried
loop_new L4 "$FMNT/disk1" --direct-io=on --sector-size 4096 || fail "losetup --sector-size 4096"
FLOOPS="$FLOOPS $L4"
fault_ctl "disk1 rmw 4096 2"
"$DS" run align "$L4" --destroy-data="$L4" --count 400 --row-time 0.1 --json "$FT/l4.json" >"$FT/l4.out" 2>&1 ||
  fail "align on 4096-byte sectors: exit $? ($(tail -3 "$FT/l4.out"))"
sed -n '/^align: loop/,$p' "$FT/l4.out"

# judged only if both are still the loops this test made (a re-bound number
# measures another test's device)
loop_check "$L" "$L4" || fail "the runs above did not all read this test's devices"
python3 - "$FT" "$parts" <<'PY' || fail "verdicts"
import json, sys
d, parts = sys.argv[1], sys.argv[2] == "1"
def run(x):
    return json.load(open("%s/%s.json" % (d, x)))["run"]
def verdicts(r, kind):
    return [v for v in r["verdicts"] if v["kind"] == kind]
def rows(r):
    t = [t for t in r["tables"] if t["name"] == "align"][0]
    cols = [c["name"] for c in t["columns"]]
    return [dict(zip(cols, x)) for x in t["rows"]]
r = run("rmw")
v = verdicts(r, "align")
assert len(v) == 1 and "behaves as 4096-byte physical sectors" in v[0]["text"], v
assert "drive hides its 4 KiB sectors" in v[0]["text"] and "512 logical / 512 physical (sysfs)" in v[0]["text"], v[0]["text"]
p = {x["text"].split("partition ")[1][:1]: x for x in verdicts(r, "partition")}
assert parts or not p, p
if parts:
  assert "starts at LBA 63: misaligned for 4096-byte sectors" in p["1"]["text"] and p["1"]["level"] == "warn", p
  assert "starts at LBA 2048: aligned" in p["2"]["text"] and p["2"]["level"] == "pass", p
for x in ("none", "read"):
    v = verdicts(run(x), "align")
    assert len(v) == 1 and "no alignment penalty measured" in v[0]["text"], (x, v)
    assert not verdicts(run(x), "partition"), x	# judged only against a measured or reported sector
assert run("read")["params"]["read_pct"] == 100
r = run("l4")
rs = rows(r)
assert rs[0]["size"] == 4096 and all(x["offset"] % 4096 == 0 and x["size"] >= 4096 for x in rs), rs[:3]
assert max(x["size"] for x in rs) == 32768, max(x["size"] for x in rs)
v = verdicts(r, "align")[0]
assert "no alignment penalty measured" in v["text"] and "of 4096 bytes" in v["text"], v["text"]
assert any("4096 logical" in e for e in v["evidence"]), v["evidence"]
assert any("smallest I/O it takes" in e for e in v["evidence"]), v["evidence"]
print("ok")
PY
echo PASS
