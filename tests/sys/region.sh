#!/bin/sh
# region.sh - a region given in LBAs is honoured to the byte: `--region 1:9
# --bs 4k` on 512-byte sectors writes one 4 KiB block at byte 512 (it was
# rounded up to 4096, found empty, and the run failed with exit 1); a region
# or --size that holds no whole block is refused with exit 2 before any I/O.
. "$(dirname "$0")/../lib/loop.sh"
set -u
cd "$(dirname "$0")/../.." || exit 1
DS=${DISKSCOPE:-build/diskscope}
[ -x "$DS" ] || { echo "SKIP: $DS not built"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

# refusals, on a sim drive (no I/O at all)
"$DS" run seqread sim:WD20EFRX --region 1:8 --bs 4k >/dev/null 2>"/tmp/ds-region-$$.err"
rc=$?; msg=$(cat "/tmp/ds-region-$$.err"); rm -f "/tmp/ds-region-$$.err"
[ $rc -eq 2 ] || fail "--region 1:8 --bs 4k: exit $rc, want 2 ($msg)"
echo "$msg" | grep -q "holds no 4096-byte block" || fail "message: $msg"
msg=$("$DS" run seqread sim:WD20EFRX --size 1 2>&1 >/dev/null); rc=$?
[ $rc -eq 2 ] || fail "--size 1: exit $rc, want 2 ($msg)"
echo "$msg" | grep -q "smaller than one 1048576-byte block" || fail "message: $msg"
"$DS" run seqread sim:WD20EFRX --region 1:9 --bs 4k --time 0.1 >/dev/null 2>&1 || fail "--region 1:9 --bs 4k on a sim drive: exit $?"

# the write lands at byte 512 of a real device
if [ "$(id -u)" != 0 ] || ! command -v losetup >/dev/null || [ ! -e /dev/loop-control ]; then
  echo "SKIP: the loop-device half needs root and losetup"; exit 77
fi
T=$(mktemp -d /tmp/ds-region-XXXXXX)
L=
cleanup() { [ -n "$L" ] && loop_detach "$L"; rm -rf "$T"; }
trap cleanup EXIT INT TERM
truncate -s 16M "$T/img"
loop_new L "$T/img" --direct-io=on || { echo "SKIP: losetup failed"; exit 77; }
"$DS" run seqwrite "$L" --region 1:9 --bs 4k --size 4k --destroy-data="$L" >"$T/out" 2>&1 \
  || fail "seqwrite --region 1:9 --bs 4k: exit $? ($(tail -2 "$T/out"))"
losetup -d "$L"; L=
# every 512-byte sector written carries its own byte offset in its first 8 bytes
python3 - "$T/img" <<'P' || fail "the block is not at byte 512"
import struct, sys
d = open(sys.argv[1], "rb").read(16384)
assert d[:512] == bytes(512), "sector 0 was written"
for off in range(512, 4608, 512):
    assert struct.unpack_from("<Q", d, off)[0] == off, (off, d[off:off+8])
assert d[4608:8192] == bytes(8192 - 4608), "written past the region"
print("one 4 KiB block at byte 512, sectors 1-8")
P
echo PASS
