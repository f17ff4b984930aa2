#!/bin/sh
# fault-stall.sh - a 30-second stall in the dashboard (a direct-io loop over
# ds-faultdev that stops answering): the screen shows the drive at 0 MB/s and
# 0 IOPS, keys still redraw it (help opens and closes), and `s` stops the run
# within the I/O timeout, before the drive answers again.  "Before the stall
# ended" is read from the device (.ctl still says "stall"), not a clock.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/../fault/lib.sh"
ds_need_fault

IOT=""
"$BIN" run --help 2>&1 | grep -q -- --io-timeout && IOT="--io-timeout 10"
fault_start --size 64M --fill random
fault_loop 0
L=$FLOOP
N=${L#/dev/}
stalled() { grep -q '^stall' "$FMNT/.ctl"; }

ds_start 120 40 -- "--no-ata seqread $L --bs 64k --time 300 $IOT"
ds_wait 'seqread running' "the running test"
ds_wait "$N .*[1-9][0-9.]* MB/s" "$N reading"
fault_ctl stall 30
ds_wait "$N +0\\.0 MB/s" "$N at 0 MB/s"
ds_wait 'IOPS +0 ' "0 IOPS in the stats"
ds_keys F1
ds_wait 'Help: keys' "the help overlay during the stall"
ds_keys Escape
ds_wait_gone 'Help: keys'
ds_screen | grep -q 'seqread running' || ds_fail "the run is not shown running during the stall"
stalled || ds_fail "the stall ended before the dashboard answered two keys"
[ -n "$IOT" ] || ds_skip "needs --io-timeout (branch io) for stop within the I/O timeout; the stall showed and keys redrew"
ds_keys s
ds_wait 'Result: seqread' "the result after stop"
stalled || ds_fail "stop took effect only when the drive answered again (--io-timeout 10, stall 30 s)"
ds_keys q
st=$(ds_wait_exit)
[ "$st" = 130 ] || ds_fail "exit status $st, want 130 (stopped before its end, as run)"
fault_ctl stall 0
echo "stall in the dashboard ok"
