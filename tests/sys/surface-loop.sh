#!/bin/sh
# surface-loop.sh - the surface scan on plain devices that have nothing wrong
# with them: a direct-io loop device over a file and a zram device, both
# RAM-fast and noisy on a shared machine.  Each must pass: every block read,
# no unreadable extent, no slow range invented from the noise, exit 0.
. "$(dirname "$0")/../lib/loop.sh"
set -u
cd "$(dirname "$0")/../.." || exit 1
DS=${DISKSCOPE:-build/diskscope}
[ -x "$DS" ] || { echo "SKIP: $DS not built"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (loop, zram)"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: needs python3"; exit 77; }
command -v losetup >/dev/null || { echo "SKIP: no losetup"; exit 77; }
"$DS" run surface --help >/dev/null 2>&1 || { echo "SKIP: $DS has no surface test"; exit 77; }
T=$(mktemp -d /tmp/ds-surface-loop-XXXXXX)
L=
Z=
cleanup() {
	[ -n "$L" ] && loop_detach "$L"
	[ -n "$Z" ] && { echo 1 > /sys/block/zram$Z/reset 2>/dev/null; echo "$Z" > /sys/class/zram-control/hot_remove 2>/dev/null; }
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
fail() { echo "FAIL: $*"; exit 1; }

dd if=/dev/urandom of="$T/img" bs=1M count=256 status=none conv=fsync || fail "image"
loop_new L "$T/img" --direct-io=on || fail "losetup"
DEVS=$L
[ -e /sys/class/zram-control/hot_add ] || modprobe zram num_devices=0 2>/dev/null
if [ -e /sys/class/zram-control/hot_add ] && Z=$(cat /sys/class/zram-control/hot_add) &&
	echo 256M > /sys/block/zram$Z/disksize; then
	# random content: zram keeps zero pages as flags, which would flatter reads
	dd if=/dev/urandom of=/dev/zram$Z bs=1M count=256 oflag=direct status=none || fail "zram fill"
	DEVS="$DEVS /dev/zram$Z"
else
	echo "note: no zram here, the loop device only"
fi

for d in $DEVS; do
	n=$(basename "$d")
	"$DS" run surface "$d" --json "$T/$n.json" >"$T/out" 2>&1
	rc=$?
	grep "^surface: " -A1 "$T/out"
	[ $rc -eq 0 ] || fail "$d: exit $rc, want 0: $(grep -v ' % ' "$T/out" | tail -5)"
	loop_check "$L" || fail "$d: not judged"
	python3 - "$T/$n.json" <<'PY' || fail "$d verdict"
import json, sys
r = json.load(open(sys.argv[1]))["run"]
assert [v["level"] for v in r["verdicts"]] == ["pass"], r["verdicts"]
t = {x["name"]: x for x in r["tables"]}
assert t["extents"]["rows"] == [], t["extents"]
assert not [x for x in t["slow"]["rows"] if x[-1] == "slow"], t["slow"]
blocks = {row[1]: row[2] for row in t["blocks"]["rows"]}
assert blocks["error"] == 0 and sum(blocks.values()) == 256, blocks
s = t["surface"]["rows"][0]
print("%s: %d blocks, avg %.0f MB/s, %d candidate ranges dismissed as noise" % (s[0], sum(blocks.values()), s[4], len(t["slow"]["rows"])))
PY
done
echo PASS
