#!/bin/sh
# guard.sh - every refusal path of the write guard (DESIGN.md "Safety") on
# real loop devices, as figures: each scenario runs `diskscope run seqwrite`
# against a device (or file) it must not write, wants exit 3 and the rule's
# one sentence, and compares every byte of the devices and files involved
# before and after (sha256 shown, bytes counted with cmp).  Ends with
# "N scenarios refused, 0 bytes changed" and fails if any byte changed.
# Then an unmounted, confirmed device is written (the guard is no wall).
#
# The swapped-device scenarios use the guard's test hook
# DISKSCOPE_TEST_PAUSE_BEFORE_WRITE (io/guard.h): diskscope pauses between
# the confirmation and the exclusive open while the test re-attaches the
# same /dev/loopN to another backing file (11), or to another file put at
# the confirmed file's path (11b moved aside, 11c deleted and made again:
# the same path, refused by inode and birth time).
set -u
cd "$(dirname "$0")/../.." || exit 1

if [ "$(id -u)" != 0 ]; then echo "SKIP: guard.sh needs root (loop devices, mounts)"; exit 77; fi
for c in losetup addpart delpart blockdev mountpoint mkfs.ext4 sha256sum cmp python3; do
  command -v $c >/dev/null 2>&1 || { echo "SKIP: $c not installed"; exit 77; }
done
[ -e /dev/loop-control ] || { echo "SKIP: no loop device support"; exit 77; }
DS=${DISKSCOPE:-build/diskscope}
[ -x $DS ] || { echo "SKIP: build/diskscope is not built"; exit 77; }

D=$(mktemp -d /tmp/ds-guardsys.XXXXXX)
# Loop devices are listed in a file: newloop runs in a $(...) subshell.
: > "$D/loops"
MOUNTS="" HOLDER="" DM="" SWAP="" BG=""
cleanup() {
  [ -n "$BG" ] && kill "$BG" 2>/dev/null && wait "$BG" 2>/dev/null
  [ -n "$HOLDER" ] && kill "$HOLDER" 2>/dev/null && wait "$HOLDER" 2>/dev/null
  [ -n "$DM" ] && dmsetup remove "$DM" 2>/dev/null
  [ -n "$SWAP" ] && swapoff "$SWAP" 2>/dev/null
  for m in $MOUNTS; do umount "$m" 2>/dev/null; done
  for l in $(cat "$D/loops"); do ours "$l" && { dropparts "$l"; losetup -d "$l" 2>/dev/null; }; done
  rm -rf "$D"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

# ours /dev/loopN: still on one of our backing files (a loop device given
# back during the swap scenario may have been taken by someone else since)
ours() {
  case $(cat "/sys/block/${1#/dev/}/loop/backing_file" 2>/dev/null) in "$D"/*) return 0 ;; esac
  return 1
}
# Partitions added by BLKPG outlive losetup -d (no partition scan to undo
# them): remove them, or the next user of that loopN inherits them.
dropparts() {
  n=${1#/dev/}
  for p in /sys/block/"$n"/"$n"p*; do
    [ -e "$p" ] && delpart "$1" "${p##*p}" 2>/dev/null
  done
}
newloop() {	# newloop NAME SIZE [losetup options] -> prints /dev/loopN
  [ -e "$D/$1.img" ] || truncate -s "$2" "$D/$1.img"
  f=$1; shift 2
  l=$(losetup -f --show --direct-io=on "$@" "$D/$f.img") || return 1
  echo "$l" >> "$D/loops"
  echo "$l"
}
# random bytes at the start of an image, so a write of any pattern shows
mark() { head -c 1048576 /dev/urandom | dd of="$1" conv=notrunc status=none; }

# must WHAT COMMAND...: a set-up step; its failure fails the test (never
# attempt a write on a device whose refusal reason was not set up).
must() {
  what=$1; shift
  "$@" || { echo "FAIL: set-up for $what: $*"; exit 1; }
}
# KiB the kernel has swapped out to DEV (0 when it is not active swap)
swap_used() {
  awk -v d="$1" '$1 == d { print $4; f = 1 } END { if (!f) print 0 }' /proc/swaps
}

fails=0 nref=0 changed=0 unchecked=0
# take PATH...: keep a copy of each (the first MiB only for a device larger
# than 256 MiB: the root disk; a seqwrite begins at offset 0)
# (a path that cannot be read at all is reported, and counts as unchecked)
take() {
  i=0 UNREAD=""
  for p in "$@"; do
    i=$((i+1))
    sz=$(blockdev --getsize64 "$p" 2>/dev/null || stat -c %s "$p")
    if [ "$sz" -gt 268435456 ]; then head -c 1048576 "$p" > "$D/snap.$i" 2>/dev/null
    else cat "$p" > "$D/snap.$i" 2>/dev/null; fi || UNREAD="$UNREAD $p"
  done
}
# diff_bytes PATH...: sets NCHG (bytes that differ from the copies) and SUMS
diff_bytes() {
  i=0 NCHG=0 SUMS=""
  for p in "$@"; do
    i=$((i+1))
    len=$(stat -c %s "$D/snap.$i")
    c=$(head -c "$len" "$p" 2>/dev/null | cmp -l "$D/snap.$i" - 2>/dev/null | wc -l)
    SUMS="$SUMS $(basename "$p")=$(head -c "$len" "$p" 2>/dev/null | sha256sum | cut -c1-12)"
    NCHG=$((NCHG + c))
  done
}
# refused WHAT "SENTENCE PART" "PATHS TO WATCH" ARGS...: run
# `diskscope run seqwrite ARGS --time 1`; want exit 3 and the sentence.
refused() {
  what=$1 want=$2 watch=$3; shift 3
  # shellcheck disable=SC2086
  take $watch
  OUT=$($DS run seqwrite "$@" --time 1 2>&1 >/dev/null); RC=$?
  report "$what" "$want" "$watch"
}
report() {	# report WHAT WANT WATCH (after RC, OUT are set)
  what=$1 want=$2 watch=$3
  # shellcheck disable=SC2086
  diff_bytes $watch
  n=$NCHG
  line=$(printf '%s\n' "$OUT" | grep 'refused:' | head -1 | sed 's/^diskscope: //')
  if [ "$n" -gt 0 ] && [ -n "$SWAP" ] && [ "$(swap_used "$SWAP")" -gt 0 ] &&
     [ "$(head -c 4096 "$SWAP" | cmp -l "$D/snap.1" - 2>/dev/null | wc -l)" -eq 0 ]; then
    # an active swap device is the kernel's to write (past its 4 KiB
    # header); a seqwrite would have begun at offset 0
    echo "note: $what: the kernel paged out $(swap_used "$SWAP") KiB to the swap device meanwhile; its header is unchanged"
    n=0
  fi
  changed=$((changed + n))
  if [ $RC -ne 3 ]; then
    echo "FAIL: $what: exit $RC, want 3 ($OUT)"; fails=$((fails+1))
  elif ! printf '%s\n' "$line" | grep -qF -- "$want"; then
    echo "FAIL: $what: refusal '$line' does not say '$want'"; fails=$((fails+1))
  elif [ "$n" -gt 0 ]; then
    echo "FAIL: $what: $n bytes changed although refused"; fails=$((fails+1))
  elif [ -n "$UNREAD" ]; then
    nref=$((nref+1))
    echo "refused: $what: $line [not checksummed:$UNREAD cannot be read here; nothing was opened for writing]"
    unchecked=$((unchecked+1))
  else
    nref=$((nref+1))
    echo "refused: $what: $line [sha256$SUMS, 0 bytes changed]"
  fi
}

# 1. A mounted ext4 filesystem (whole device).
L1=$(newloop ext4 64M) || { echo "SKIP: losetup failed"; exit 77; }
must "mounted ext4" mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$L1"
must "mounted ext4" mkdir "$D/m1"
must "mounted ext4" mount "$L1" "$D/m1"
MOUNTS="$D/m1"
echo data > "$D/m1/file" && sync
refused "mounted file system" "refused: $L1 is mounted on $D/m1" "$L1" "$L1" --destroy-data="$L1"

# 2. A mounted partition of the device.
truncate -s 64M "$D/part.img"
mark "$D/part.img"
L2=$(newloop part 64M) || { echo "FAIL: losetup"; exit 1; }
# This kernel has no partition-table parser: add the partitions by BLKPG,
# as partx does (1 MiB..32 MiB, 32..64 MiB).
must "mounted partition" addpart "$L2" 1 2048 63488
must "mounted partition" addpart "$L2" 2 65536 65536
must "mounted partition" mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "${L2}p1"
must "mounted partition" mkdir "$D/m2"
must "mounted partition" mount "${L2}p1" "$D/m2"
MOUNTS="$D/m2 $MOUNTS"
sync
refused "mounted partition" "refused: ${L2}p1 is mounted on $D/m2" "$L2" "$L2" --destroy-data="$L2"

# 3. Held open O_EXCL by another program.
L3=$(newloop excl 16M)
mark "$L3"
python3 -c 'import os,sys,time
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL)
print("held", flush=True)
time.sleep(120)' "$L3" > "$D/held" &
HOLDER=$!
i=0; while ! grep -q held "$D/held" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
refused "O_EXCL holder" "refused: $L3 is in use by another program" "$L3" "$L3" --destroy-data="$L3"
kill $HOLDER; wait $HOLDER 2>/dev/null; HOLDER=""

# 4. A device-mapper holder (when this kernel has device-mapper).
L4=$(newloop dm 16M)
mark "$L4"
if command -v dmsetup >/dev/null 2>&1 &&
   dmsetup create "ds-guard-$$" --table "0 $(blockdev --getsz "$L4") linear $L4 0" 2>/dev/null; then
  DM="ds-guard-$$"
  refused "dm holder" "refused: $L4 is held by dm-" "$L4" "$L4" --destroy-data="$L4"
  dmsetup remove "$DM" && DM=""
else
  echo "note: no device-mapper here: dm holder scenario not run (test_guard covers holders/ on a fixture)"
fi

# 5. In use as swap.
if command -v mkswap >/dev/null 2>&1 && mkswap "$L4" >/dev/null 2>&1 && swapon "$L4" 2>/dev/null; then
  SWAP=$L4
  refused "swap" "refused: $L4 is in use as swap" "$L4" "$L4" --destroy-data="$L4"
  swapoff "$L4" && SWAP=""
else
  echo "note: swapon unavailable, swap scenario not run"
fi

# 6. More partitions than the guard can check: refused, never half-checked.
L6=$(newloop many 16M)
mark "$L6"
i=1
while [ $i -le 129 ]; do
  must "129 partitions" addpart "$L6" $i $((4096 + i * 8)) 8
  i=$((i+1))
done
refused "129 partitions (fail closed)" "refused: $L6 has more than 128 partitions" "$L6" "$L6" --destroy-data="$L6"
dropparts "$L6"

# 7. The disk holding / (no --destroy-data: nothing is opened at all; only
#    its first MiB is compared: it is large, and a seqwrite begins at 0).
rootdev=$(findmnt -n -o SOURCE / 2>/dev/null)
rootmm=$(mountpoint -d / 2>/dev/null)
if [ -n "$rootmm" ] && [ -e "/sys/dev/block/$rootmm" ]; then
  rootname=$(basename "$(readlink -f "/sys/dev/block/$rootmm")")
  [ -e "/sys/dev/block/$rootmm/partition" ] &&
    rootname=$(basename "$(readlink -f "/sys/dev/block/$rootmm/..")")
  rootdisk=/dev/$rootname
  refused "root device" "refused: $rootdisk holds /" "$rootdisk" "$rootdisk"
else
  echo "note: / is not on a block device here ($rootdev), root scenario not run"
fi

# 8-10. Confirmations: missing, naming another device, one of two targets.
L5=$(newloop free 16M)
L7=$(newloop free2 16M)
mark "$L5"; mark "$L7"
refused "missing confirmation" "refused: writing $L5 needs --destroy-data=$L5" "$L5" "$L5"
refused "wrong confirmation" "refused: --destroy-data=$L7 does not name $L5" "$L5 $L7" "$L5" --destroy-data="$L7"
refused "one confirmation for two targets" "does not name $L7" "$L5 $L7" "$L5" "$L7" --destroy-data="$L5"

# 11. The device swapped for another between confirmation and write: the
#     same /dev/loopN re-attached to another backing file (a hot-swap bench
#     where sdb changes hands).
mark "$D/free.img"
truncate -s 16M "$D/other.img"
mark "$D/other.img"
take "$D/free.img" "$D/other.img"
DISKSCOPE_TEST_PAUSE_BEFORE_WRITE=15 $DS run seqwrite "$L5" --time 1 --destroy-data="$L5" \
  > /dev/null 2> "$D/swap.out" &
BG=$!
i=0; while ! grep -q "test hook" "$D/swap.out" && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done
grep -q "test hook" "$D/swap.out" || { echo "FAIL: the test hook never paused: $(cat "$D/swap.out")"; exit 1; }
must "swapped device" losetup -d "$L5"
i=0; while [ -e "/sys/block/${L5#/dev/}/loop/backing_file" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
must "swapped device" losetup --direct-io=on "$L5" "$D/other.img"
# still paused, so the swap happened between confirmation and open
kill -0 $BG 2>/dev/null || { echo "FAIL: set-up for swapped device: the swap took longer than the 15 s pause"; exit 1; }
wait $BG; RC=$?; BG=""
OUT=$(cat "$D/swap.out")
report "device swapped after confirmation" \
  "refused: $L5 is now another drive: backing file $D/other.img, you confirmed $D/free.img" \
  "$D/free.img $D/other.img"
# back to its first backing file for what follows
losetup -d "$L5"; i=0
while [ -e "/sys/block/${L5#/dev/}/loop/backing_file" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
must "re-attach" losetup --direct-io=on "$L5" "$D/free.img"

# 11b, 11c. The same path, another file: detached, another file put at the
#     confirmed file's path, attached again.  The path is the same; the file
#     is not: 11b moves the confirmed file aside (another inode), 11c deletes
#     it and creates a new one (on ext4 the new file gets the freed inode
#     number: its birth time tells them apart).
# same_path WHAT MODE: MODE "move" keeps the confirmed file as free.confirmed
same_path() {
  what=$1 mode=$2
  DISKSCOPE_TEST_PAUSE_BEFORE_WRITE=30 $DS run seqwrite "$L5" --time 1 --destroy-data="$L5" \
    > /dev/null 2> "$D/same.out" &
  BG=$!
  i=0; while ! grep -q "test hook" "$D/same.out" && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done
  grep -q "test hook" "$D/same.out" || { echo "FAIL: the test hook never paused: $(cat "$D/same.out")"; exit 1; }
  ino0=$(stat -c %i "$D/free.img")
  must "$what" losetup -d "$L5"
  i=0; while [ -e "/sys/block/${L5#/dev/}/loop/backing_file" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
  if [ "$mode" = move ]; then must "$what" mv "$D/free.img" "$D/free.confirmed"
  else must "$what" rm "$D/free.img"; fi
  truncate -s 16M "$D/free.img"
  mark "$D/free.img"
  must "$what" losetup --direct-io=on "$L5" "$D/free.img"
  [ "$(cat "/sys/block/${L5#/dev/}/loop/backing_file")" = "$D/free.img" ] ||
    { echo "FAIL: set-up for $what: $L5 is not on $D/free.img"; exit 1; }
  [ "$(stat -c %i "$D/free.img")" = "$ino0" ] && echo "note: $what: the new file got the old one's inode $ino0"
  # diskscope has opened nothing yet (paused before the open): these are
  # the bytes before any write could happen
  watch="$D/free.img"; [ "$mode" = move ] && watch="$watch $D/free.confirmed"
  # shellcheck disable=SC2086
  take $watch
  kill -0 $BG 2>/dev/null || { echo "FAIL: set-up for $what: the swap took longer than the 30 s pause"; exit 1; }
  wait $BG; RC=$?; BG=""
  OUT=$(cat "$D/same.out")
  report "$what" "refused: $L5 is now another drive: backing file $D/free.img is another file" "$watch"
  losetup -d "$L5"; i=0
  while [ -e "/sys/block/${L5#/dev/}/loop/backing_file" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
  [ "$mode" = move ] && must "re-attach" mv "$D/free.confirmed" "$D/free.img"
  must "re-attach" losetup --direct-io=on "$L5" "$D/free.img"
}
same_path "same path, another file (moved aside, re-attached)" move
same_path "same path, a new file (deleted, made again, re-attached)" recreate

# 12. A file diskscope did not create (scratch files are its own, always new).
head -c 4194304 /dev/urandom > "$D/precious.bin"
refused "file diskscope did not create" "refused: $D/precious.bin is a file diskscope did not create" \
  "$D/precious.bin" "$D/precious.bin"

[ $unchecked -eq 0 ] || echo "note: $unchecked refused scenario(s) on a device this machine does not let us read"
echo "$nref scenarios refused, $changed bytes changed"

# The guard is no wall: unmounted devices, each with its own confirmation
# (the short name too), are written.
b5=$(sha256sum < "$L5") b7=$(sha256sum < "$L7")
OUT=$($DS run seqwrite "$L5" "$L7" --time 1 --destroy-data="$(basename "$L5")" \
  --destroy-data="$L7" 2>&1 >/dev/null); RC=$?
if [ $RC -ne 0 ]; then
  echo "FAIL: unmounted + confirmed: exit $RC ($OUT)"; fails=$((fails+1))
elif [ "$b5" = "$(sha256sum < "$L5")" ] || [ "$b7" = "$(sha256sum < "$L7")" ]; then
  echo "FAIL: unmounted + confirmed: not both written"; fails=$((fails+1))
else
  echo "ok: $L5 and $L7, each with its --destroy-data: allowed and both written"
fi

[ $changed -eq 0 ] || { echo "FAIL: $changed bytes changed on refused devices"; exit 1; }
[ $fails -eq 0 ] || { echo "$fails guard scenario(s) failed"; exit 1; }
exit 0
