#!/bin/sh
# filemix-zram: random vs zeros on ext4 over a zram device.
#   diskscope run filemix DIR --size 64M --data both
# --data both runs the mixed-size test twice (random, then zeros: test 3)
# and the "compression" verdict compares their write rates: "differ by X %"
# only when measured, "no difference measured" otherwise.  ext4 itself does
# not compress; zram below it does (zero pages cost nothing), so whatever is
# seen here is the device's doing.  The test asserts the comparison is made
# from measured rates and stated one way or the other (no direction or size
# of the difference is asserted: the machine is shared).
DS=${DISKSCOPE:-build/diskscope}
[ -x "$DS" ] || { echo "SKIP: $DS not built"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (zram, mount)"; exit 77; }
command -v mkfs.ext4 >/dev/null || { echo "SKIP: no mkfs.ext4"; exit 77; }
[ -e /sys/class/zram-control/hot_add ] || modprobe zram num_devices=0 2>/dev/null
[ -e /sys/class/zram-control/hot_add ] || { echo "SKIP: no zram"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: needs python3"; exit 77; }
T=$(mktemp -d /tmp/ds-filemix-zram-XXXXXX)
Z=
cleanup() {
  mountpoint -q "$T/mnt" 2>/dev/null && umount "$T/mnt"
  [ -n "$Z" ] && echo "$Z" > /sys/class/zram-control/hot_remove 2>/dev/null
  rm -rf "$T"
}
trap cleanup EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
Z=$(cat /sys/class/zram-control/hot_add) || { Z=; echo "SKIP: zram hot_add failed"; exit 77; }
# 2 GiB of address space (RAM only as written): room above the 1 GiB margin
echo 2G > /sys/block/zram$Z/disksize || { echo "SKIP: zram disksize"; exit 77; }
mkfs.ext4 -q /dev/zram$Z || fail "mkfs.ext4"
mkdir "$T/mnt" && mount /dev/zram$Z "$T/mnt" || fail "mount"
"$DS" run filemix "$T/mnt" --size 64M --data both --json "$T/z.json" >"$T/z.out" 2>"$T/z.err" ||
  fail "exit $? ($(tail -3 "$T/z.err"))"
grep -A12 '^classes' "$T/z.out"; grep -E '^(filemix|compression):' "$T/z.out"
python3 - "$T/z.json" <<'PY' || fail "result"
import json, re, sys
r = json.load(open(sys.argv[1]))["run"]
v = [v for v in r["verdicts"] if v["kind"] == "compression"]
assert len(v) == 1 and v[0]["level"] == "info", v
t = v[0]["text"]
m = re.search(r"([+-]\d+) %.*?(\d+\.\d) vs (\d+\.\d) MB/s", t)
assert m and float(m.group(2)) > 0 and float(m.group(3)) > 0, t
d = abs(int(m.group(1)))
assert ("differ by" in t) == (d >= 25) and ("no difference measured" in t) == (d < 25), t
assert "differ by" not in t or "ext4 does not compress" in t, t
f = [t for t in r["tables"] if t["name"] == "files"][0]
assert {row[0] for row in f["rows"]} == {1, 2, 3}, "test 3 (zeros) missing"
PY
[ -z "$(ls -A "$T/mnt" | grep -vx lost+found)" ] || fail "left: $(ls -A "$T/mnt")"
echo "ok: compared random vs zeros on ext4 over zram, nothing left"
