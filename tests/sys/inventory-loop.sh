#!/bin/sh
# inventory-loop.sh - `diskscope list --json` against real block devices made
# here: loop devices (direct I/O, 4096-byte sectors, partitioned + mounted),
# a dm-linear holder when device-mapper exists, our own zram devices (sized
# and unsized), and the machine's /dev/vda (open refused even to root).
# Everything created is removed on exit, also on failure.
. "$(dirname "$0")/../lib/loop.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
bin="${DISKSCOPE:-$top/build/diskscope}"	# DISKSCOPE= to test another build

[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (loop devices, mount)"; exit 77; }
[ -x "$bin" ] || { echo "SKIP: $bin not built (run make)"; exit 77; }
for t in losetup mkfs.ext4 mount umount python3; do
	command -v $t >/dev/null 2>&1 || { echo "SKIP: $t not installed"; exit 77; }
done
[ -e /dev/loop-control ] || { echo "SKIP: no loop device support (/dev/loop-control)"; exit 77; }

tmp=$(mktemp -d /tmp/ds-invloop.XXXXXX)
loops="" dm="" mnt="" zrams=""
cleanup() {
	[ -n "$mnt" ] && umount "$mnt" 2>/dev/null
	[ -n "$dm" ] && dmsetup remove "$dm" 2>/dev/null
	for l in $loops; do loop_detach "$l"; done
	for z in $zrams; do echo "$z" > /sys/class/zram-control/hot_remove 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

fail() { echo "FAIL: $*"; exit 1; }


truncate -s 64M "$tmp/a.img" "$tmp/b.img" "$tmp/c.img"
loop_new la "$tmp/a.img" --direct-io=on || fail "losetup (direct I/O)"
loops="$loops $la"
loop_new lb "$tmp/b.img" --direct-io=on --sector-size 4096 || fail "losetup --sector-size 4096"
loops="$loops $lb"

# One MBR partition from 1 MiB to the end, type 83 (no sfdisk needed).
python3 - "$tmp/c.img" <<'EOF' || fail "writing the partition table"
import struct, sys
with open(sys.argv[1], "r+b") as f:
    size = f.seek(0, 2) // 512
    start = 2048
    entry = struct.pack("<B3sB3sII", 0, b"\0\0\0", 0x83, b"\0\0\0", start, size - start)
    f.seek(446); f.write(entry + b"\0" * 48 + b"\x55\xaa")
EOF
loop_new lc "$tmp/c.img" --direct-io=on --partscan || fail "losetup --partscan"
loops="$loops $lc"
# The partition table is read during LOOP_CONFIGURE; a kernel without
# MSDOS partition support (this machine's) shows none: then the whole
# device carries the file system, and the partition is checked by the
# sysfs fixture test instead.
part="${lc}p1"
i=0
while [ ! -b "$part" ] && [ $i -lt 10 ]; do sleep 0.1; i=$((i+1)); done
if [ -b "$part" ] && [ -e "/sys/block/$(basename "$lc")/$(basename "$part")/partition" ]; then
	fsdev=$part
else
	echo "NOTE: the kernel read no partition table on $lc (no MSDOS partition support?): mounting the whole device"
	part=""
	fsdev=$lc
fi
mkfs.ext4 -q -F "$fsdev" || fail "mkfs.ext4 $fsdev"
mkdir -p "$tmp/mnt point"
mount "$fsdev" "$tmp/mnt point" || fail "mount $fsdev"
mnt="$tmp/mnt point"

# A dm-linear device holding loop a, when device-mapper is there.
dmname=""
if command -v dmsetup >/dev/null 2>&1 && dmsetup version >/dev/null 2>&1; then
	sz=$(blockdev --getsz "$la")
	if echo "0 $sz linear $la 0" | dmsetup create "ds-inv-$$"; then
		dm="ds-inv-$$"
		dmname=$(basename "$(readlink -f "/dev/mapper/$dm")")
	fi
fi
[ -n "$dmname" ] || echo "NOTE: device-mapper not available here: holder check skipped"

# Our own zram devices: one sized (listed), one never sized (absent).
zsized="" zempty=""
if [ -w /sys/class/zram-control/hot_add ]; then
	zs=$(cat /sys/class/zram-control/hot_add) && zrams="$zrams $zs" && zsized="zram$zs"
	ze=$(cat /sys/class/zram-control/hot_add) && zrams="$zrams $ze" && zempty="zram$ze"
	if [ -n "$zsized" ]; then
		echo 32M > "/sys/block/$zsized/disksize" || zsized=""
	fi
else
	echo "NOTE: no zram-control: zram checks skipped"
fi

# Unbound loops before and after the listing: those unbound in both were
# unbound while it ran (other tests bind loops at the same time).
unbound() { for d in /sys/block/loop*; do [ -e "$d/loop/backing_file" ] || basename "$d"; done; }
unbound > "$tmp/unbound.before"
"$bin" list --json > "$tmp/list.json" 2> "$tmp/list.err"
rc=$?
unbound > "$tmp/unbound.after"
cat "$tmp/list.err"
[ $rc -eq 0 ] || fail "diskscope list --json exited $rc"

python3 - "$tmp/list.json" "$la" "$lb" "$lc" "$part" "$mnt" "$dmname" "$zsized" "$zempty" \
	"$tmp/unbound.before" "$tmp/unbound.after" <<'EOF'
import errno, json, os, sys
doc_file, la, lb, lc, part, mnt, dmname, zsized, zempty, ub0, ub1 = sys.argv[1:]
doc = json.load(open(doc_file))
bad = []
def check(cond, what):
    if not cond:
        bad.append(what)
    print(("ok   " if cond else "FAIL ") + what)

assert doc.get("schema") == 1, "schema is not 1"
drives = {d["name"]: d for d in doc["inventory"]["drives"]}
base = os.path.basename

for dev, logical in ((la, 512), (lb, 4096), (lc, 512)):
    n = base(dev)
    d = drives.get(n)
    check(d is not None, f"{n} listed")
    if not d:
        continue
    check(d["path"] == dev, f"{n} path {d['path']} == {dev}")
    check(d["transport"] == "loop", f"{n} transport {d['transport']} == loop")
    check(d["virtual"] is True, f"{n} virtual")
    check(d["sectors"]["logical"] == logical, f"{n} logical {d['sectors']['logical']} == {logical}")
    check(d["capacity_bytes"] == 64 << 20, f"{n} capacity {d['capacity_bytes']} == {64 << 20}")
    check(d["access"] == "ok", f"{n} access {d['access']!r} == 'ok'")
    check(not any("direct I/O" in w for w in d["warnings"]), f"{n} no direct-I/O warning")

dc = drives.get(base(lc))
if dc and part:
    p1 = base(part)
    check(dc["partitions"] == [p1], f"{base(lc)} partitions {dc['partitions']} == [{p1}]")
    want = f"{p1} {mnt}"
    check(want in dc["mounts"], f"{base(lc)} mounts {dc['mounts']} has {want!r}")
    check(p1 not in drives, f"partition {p1} is not a drive")
elif dc:
    check(dc["partitions"] == [], f"{base(lc)} partitions {dc['partitions']} == []")
    want = f"{base(lc)} {mnt}"
    check(want in dc["mounts"], f"{base(lc)} mounts {dc['mounts']} has {want!r}")
for n in (la, lb):
    d = drives.get(base(n))
    check(d is None or d["mounts"] == [], f"{base(n)} has no mounts")

if dmname:
    da = drives.get(base(la))
    check(da is not None and dmname in da["holders"],
          f"{base(la)} holders {da and da['holders']} has {dmname}")
    check(dmname not in drives, f"{dmname} is not a drive")

if zsized:
    z = drives.get(zsized)
    check(z is not None and z["transport"] == "zram" and z["virtual"] is True,
          f"{zsized} (32M) listed as virtual zram")
    check(z is not None and z["capacity_bytes"] == 32 << 20, f"{zsized} capacity 32 MiB")
if zempty:
    check(zempty not in drives, f"{zempty} (disksize 0) absent")

never = set(open(ub0).read().split()) & set(open(ub1).read().split())
listed = sorted(n for n in never if n in drives)
check(not listed, f"unbound loops absent (listed: {listed})")
check(all(d.get("backing_file") for n, d in drives.items() if d["transport"] == "loop"),
      "every listed loop has a backing file")

if os.path.exists("/dev/vda"):
    try:
        os.close(os.open("/dev/vda", os.O_RDONLY | os.O_NONBLOCK))
        want = "ok"
    except OSError as e:
        want = f"no access ({errno.errorcode[e.errno]})"
    v = drives.get("vda")
    check(v is not None, "vda listed")
    if v:
        check(v["access"] == want, f"vda access {v['access']!r} == {want!r}")
        check(v["transport"] == "virtio", f"vda transport {v['transport']} == virtio")
        check(v["virtual"] is False, "vda not virtual")
sys.exit(1 if bad else 0)
EOF
[ $? -eq 0 ] || fail "inventory does not match the devices made here"
echo "PASS"
