#!/bin/sh
# fault-device.sh - the fault device itself, before any scenario trusts it:
# bytes written are read back, a bad range fails at exactly its first and
# last sector (512-byte reads either side succeed), read-only and write-only
# rules, a rule for one disk leaves the other alone, vanish gives ENODEV
# through the loop device and clear brings it back, bad commands are refused
# with their reason and change nothing; "vanish unmount" takes the mount away.
. "$(dirname "$0")/../fault/lib.sh"
fault_need

fault_start --disks 2 --size 16M
fault_loops 2

# io DEV r|w LBA: one 512-byte direct I/O; prints the errno name or "ok"
io() {
	python3 - "$@" <<'PY'
import errno, mmap, os, sys
dev, op, lba = sys.argv[1], sys.argv[2], int(sys.argv[3])
fd = os.open(dev, (os.O_RDONLY if op == "r" else os.O_WRONLY) | os.O_DIRECT)
buf = mmap.mmap(-1, 4096)
buf.write(b"%-512d" % lba)
try:
    n = os.preadv(fd, [memoryview(buf)[:512]], lba * 512) if op == "r" else \
        os.pwritev(fd, [memoryview(buf)[:512]], lba * 512)
    print("ok" if n == 512 else "short")
except OSError as e:
    print(errno.errorcode.get(e.errno, e.errno))
PY
}
want() {	# WANT DEV OP LBA
	got=$(io "$2" "$3" "$4")
	[ "$got" = "$1" ] || fault_fail "$3 of LBA $4 on $2: $got, want $1 (rules: $(cat "$FMNT/.ctl"))"
}

# the backing store keeps what is written
dd if=/dev/urandom of="$FT/pat" bs=64k count=16 status=none
dd if="$FT/pat" of="$L0" bs=64k seek=7 oflag=direct status=none || fault_fail "write to $L0"
dd if="$L0" of="$FT/back" bs=64k skip=7 count=16 iflag=direct status=none || fault_fail "read of $L0"
cmp -s "$FT/pat" "$FT/back" || fault_fail "data read back differs from what was written"

# exact edges, reads and writes
fault_ctl disk0 eio 1000 1999
for l in 999 2000; do want ok "$L0" r $l; want ok "$L0" w $l; done
for l in 1000 1500 1999; do want EIO "$L0" r $l; want EIO "$L0" w $l; done
want ok "$L1" r 1000
fault_ctl clear
fault_ctl disk1 eio 10 10 read
want EIO "$L1" r 10
want ok "$L1" w 10
want ok "$L1" r 9
want ok "$L0" r 10
fault_ctl clear
fault_ctl eio 20 20 write
want ok "$L0" r 20
want EIO "$L0" w 20

# vanish: ENODEV through the loop device at once, one disk only; clear undoes it
fault_ctl disk0 vanish
want ENODEV "$L0" r 0
want ENODEV "$L0" w 4000
want ok "$L1" r 0
grep -q '^disk0 .* vanished$' "$FMNT/.ctl" || fault_fail ".ctl does not say disk0 vanished"
fault_ctl disk0 clear
want ok "$L0" r 0

# refused: the write fails, the reason is logged, nothing changes
before=$(cat "$FMNT/.ctl")
for bad in "bogus" "eio 5 2" "eio 99999999 99999999" "delay 1 2" "rate 0:10 0:20" "rate 0.5" \
	"rmw 4000 1" "mcache 8 3 2" "stall -1" "disk7 vanish" "vanish now"; do
	echo "$bad" >"$FMNT/.ctl" 2>/dev/null && fault_fail "'$bad' accepted"
	tail -1 "$FT/daemon.log" | grep -q '^ds-faultdev: .ctl: ' || fault_fail "no reason logged for '$bad'"
done
[ "$(cat "$FMNT/.ctl")" = "$before" ] || fault_fail "a refused command changed the rules"
echo "refused, e.g.: $(tail -1 "$FT/daemon.log")"

# bad start-up options: exit 2 and one line naming the option
for opt in "--size 1000" "--disks 9" "--fill ones" "-c bogus"; do
	# shellcheck disable=SC2086
	"$FAULTDEV" $opt "$FT/none" >"$FT/o" 2>&1
	rc=$?
	[ $rc -eq 2 ] || fault_fail "ds-faultdev $opt: exit $rc, want 2"
	grep -q "^ds-faultdev: " "$FT/o" || fault_fail "ds-faultdev $opt: no reason ($(cat "$FT/o"))"
done
# vanish unmount: the mount goes away, the daemon ends, the loop devices
# (still attached) fail every I/O with EIO
fault_ctl vanish unmount
i=0
while mountpoint -q "$FMNT" || kill -0 "$FPID" 2>/dev/null; do
	[ $i -ge 100 ] && fault_fail "still mounted or running 10 s after 'vanish unmount'"
	sleep 0.1
	i=$((i + 1))
done
want EIO "$L0" r 0
want EIO "$L1" w 0
losetup -d "$L0" "$L1" || fault_fail "detach after unmount"
FLOOPS=""
echo PASS
