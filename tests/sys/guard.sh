#!/bin/sh
# guard.sh - the write guard on real loop devices.  Every scenario DESIGN.md
# "Safety" names is refused with exit 3 and its one sentence, and the refused
# device's sha256 is unchanged afterwards; an unmounted device with the right
# --destroy-data is written.  Driven through `diskscope run seqwrite DEV
# --time 1` when the run command exists, else through the guard driver in
# build/tests/test_guard (--try-write DEV [CONFIRM]), which calls the same
# target_open() the runner calls.
set -u
cd "$(dirname "$0")/../.." || exit 1

if [ "$(id -u)" != 0 ]; then echo "SKIP: guard.sh needs root (loop devices, mounts)"; exit 77; fi
for c in losetup addpart mkfs.ext4 sha256sum python3; do
  command -v $c >/dev/null 2>&1 || { echo "SKIP: $c not installed"; exit 77; }
done
[ -e /dev/loop-control ] || { echo "SKIP: no loop device support"; exit 77; }

DS=build/diskscope
DRV=build/tests/test_guard
if [ -x $DS ] && ! $DS run seqwrite /nonexistent-guard-probe 2>&1 | grep -q "unknown command"; then
  MODE=cli
elif [ -x $DRV ]; then
  MODE=driver
else
  echo "SKIP: neither build/diskscope run nor build/tests/test_guard is built"; exit 77
fi
echo "mode: $MODE"

D=$(mktemp -d /tmp/ds-guardsys.XXXXXX)
# Loop devices are listed in a file: newloop runs in a $(...) subshell.
: > "$D/loops"
MOUNTS="" HOLDER="" DM="" SWAP=""
cleanup() {
  [ -n "$HOLDER" ] && kill "$HOLDER" 2>/dev/null && wait "$HOLDER" 2>/dev/null
  [ -n "$DM" ] && dmsetup remove "$DM" 2>/dev/null
  [ -n "$SWAP" ] && swapoff "$SWAP" 2>/dev/null
  for m in $MOUNTS; do umount "$m" 2>/dev/null; done
  for l in $(cat "$D/loops"); do losetup -d "$l" 2>/dev/null; done
  rm -rf "$D"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

newloop() {	# newloop NAME SIZE [losetup options] -> prints /dev/loopN
  [ -e "$D/$1.img" ] || truncate -s "$2" "$D/$1.img"
  f=$1; shift 2
  l=$(losetup -f --show --direct-io=on "$@" "$D/$f.img") || return 1
  echo "$l" >> "$D/loops"
  echo "$l"
}

fails=0
# must WHAT COMMAND...: a set-up step; its failure fails the test (never
# attempt a write on a device whose refusal reason was not set up).
must() {
  what=$1; shift
  "$@" || { echo "FAIL: set-up for $what: $*"; exit 1; }
}
# attempt DEV [CONFIRM]: try to write DEV; sets RC and OUT.
attempt() {
  if [ $MODE = cli ]; then
    if [ $# -ge 2 ]; then
      OUT=$($DS run seqwrite "$1" --time 1 --destroy-data="$2" 2>&1 >/dev/null); RC=$?
    else
      OUT=$($DS run seqwrite "$1" --time 1 2>&1 >/dev/null); RC=$?
    fi
  else
    OUT=$($DRV --try-write "$@" 2>&1); RC=$?
  fi
}
# KiB the kernel has swapped out to DEV (0 when it is not active swap)
swap_used() {
  awk -v d="$1" '$1 == d { print $4; f = 1 } END { if (!f) print 0 }' /proc/swaps
}
# refused WHAT DEV EXPECTED-SENTENCE-PART [CONFIRM]
refused() {
  what=$1 dev=$2 want=$3; shift 3
  before=$(sha256sum < "$dev")
  attempt "$dev" "$@"
  after=$(sha256sum < "$dev")
  line=$(printf '%s\n' "$OUT" | grep 'refused:' | head -1)
  if [ $RC -ne 3 ]; then
    echo "FAIL: $what: exit $RC, want 3 ($OUT)"; fails=$((fails+1))
  elif ! printf '%s\n' "$line" | grep -qF -- "$want"; then
    echo "FAIL: $what: refusal '$line' does not say '$want'"; fails=$((fails+1))
  elif [ "$before" != "$after" ] && [ "$(swap_used "$dev")" -gt 0 ]; then
    # an active swap device is the kernel's to write: it paged out to it meanwhile
    echo "ok: $what: $line (note: the kernel wrote $(swap_used "$dev") KiB of swap to it meanwhile)"
  elif [ "$before" != "$after" ]; then
    echo "FAIL: $what: $dev changed although refused"; fails=$((fails+1))
  else
    echo "ok: $what: $line"
  fi
}

# 1. A mounted ext4 filesystem (whole device).
L1=$(newloop ext4 64M) || { echo "SKIP: losetup failed"; exit 77; }
must "mounted ext4" mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$L1"
must "mounted ext4" mkdir "$D/m1"
must "mounted ext4" mount "$L1" "$D/m1"
MOUNTS="$D/m1"
echo data > "$D/m1/file" && sync
refused "mounted ext4" "$L1" "refused: $L1 is mounted on $D/m1" "$L1"

# 2. A mounted partition of the device (losetup -P).
truncate -s 64M "$D/part.img"
# A DOS partition table (two Linux partitions, 1 MiB..32 MiB, 32..64 MiB),
# written directly so the test needs no partitioning tool.
python3 -c 'import struct,sys
mbr = bytearray(512)
for i, (start, count) in enumerate(((2048, 63488), (65536, 65536))):
    mbr[446 + 16 * i:462 + 16 * i] = struct.pack("<B3sB3sII", 0, b"\xfe\xff\xff", 0x83, b"\xfe\xff\xff", start, count)
mbr[510:512] = b"\x55\xaa"
with open(sys.argv[1], "r+b") as f:
    f.write(mbr)' "$D/part.img"
L2=$(newloop part 64M -P) || { echo "FAIL: losetup -P"; exit 1; }
i=0; while [ ! -b "${L2}p1" ] && [ $i -lt 20 ]; do sleep 0.1; i=$((i+1)); done
# A kernel without partition-table parsers (this one) finds none: add them
# by BLKPG, as partx does.
if [ ! -b "${L2}p1" ]; then
  must "mounted partition" addpart "$L2" 1 2048 63488
  must "mounted partition" addpart "$L2" 2 65536 65536
fi
must "mounted partition" mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "${L2}p1"
must "mounted partition" mkdir "$D/m2"
must "mounted partition" mount "${L2}p1" "$D/m2"
MOUNTS="$D/m2 $MOUNTS"
sync
refused "mounted partition" "$L2" "refused: ${L2}p1 is mounted on $D/m2" "$L2"

# 3. Held open O_EXCL by another program.
L3=$(newloop excl 16M)
python3 -c 'import os,sys,time
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL)
print("held", flush=True)
time.sleep(120)' "$L3" > "$D/held" &
HOLDER=$!
i=0; while ! grep -q held "$D/held" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
refused "O_EXCL holder" "$L3" "refused: $L3 is in use by another program" "$L3"
kill $HOLDER; wait $HOLDER 2>/dev/null; HOLDER=""

# 4. A device-mapper holder (when dmsetup works here).
L4=$(newloop dm 16M)
if command -v dmsetup >/dev/null 2>&1 &&
   dmsetup create "ds-guard-$$" --table "0 $(blockdev --getsz "$L4") linear $L4 0" 2>/dev/null; then
  DM="ds-guard-$$"
  refused "dm holder" "$L4" "refused: $L4 is held by dm-" "$L4"
  dmsetup remove "$DM" && DM=""
else
  echo "note: dmsetup unavailable, dm holder scenario not run"
fi

# 5. In use as swap (when swapon works here).
if command -v mkswap >/dev/null 2>&1 && mkswap "$L4" >/dev/null 2>&1 && swapon "$L4" 2>/dev/null; then
  SWAP=$L4
  refused "swap" "$L4" "refused: $L4 is in use as swap" "$L4"
  swapoff "$L4" && SWAP=""
else
  echo "note: swapon unavailable, swap scenario not run"
fi

# 6. Missing and wrong --destroy-data, then the right one.
L5=$(newloop free 16M)
refused "missing --destroy-data" "$L5" "refused: writing $L5 needs --destroy-data=$L5"
refused "wrong --destroy-data" "$L5" "refused: --destroy-data=$L3 does not name $L5" "$L3"
refused "wrong short --destroy-data" "$L5" "does not name $L5" "$(basename "$L3")"
before=$(sha256sum < "$L5")
attempt "$L5" "$(basename "$L5")"
after=$(sha256sum < "$L5")
if [ $RC -ne 0 ]; then
  echo "FAIL: unmounted + right confirmation: exit $RC ($OUT)"; fails=$((fails+1))
elif [ "$before" = "$after" ]; then
  echo "FAIL: unmounted + right confirmation: nothing was written"; fails=$((fails+1))
else
  echo "ok: unmounted + --destroy-data=$(basename "$L5") allowed and written"
fi

# 7. The disk holding / (never with --destroy-data: should the root rule
#    ever break, the confirmation rule still refuses before any open).
rootdev=$(findmnt -n -o SOURCE / 2>/dev/null)
if [ -b "$rootdev" ]; then
  rootdisk=/dev/$(lsblk -n -o PKNAME "$rootdev" 2>/dev/null | head -1)
  [ -b "$rootdisk" ] || rootdisk=$rootdev
  attempt "$rootdisk"
  if [ $RC -eq 3 ] && printf '%s\n' "$OUT" | grep -qF "refused: $rootdisk holds /"; then
    echo "ok: root disk: $(printf '%s\n' "$OUT" | grep refused:)"
  else
    echo "FAIL: root disk $rootdisk: exit $RC ($OUT)"; fails=$((fails+1))
  fi
else
  echo "note: / is not on a block device here ($rootdev), root scenario not run"
fi

[ $fails -eq 0 ] || { echo "$fails guard scenario(s) failed"; exit 1; }
echo "all guard scenarios passed"
