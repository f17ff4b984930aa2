#!/bin/sh
# fault-vanish.sh - a drive vanishing mid-test in the dashboard: two direct-io
# loop devices over ds-faultdev read at once; disk0 vanishes (every I/O
# ENODEV) and its loop device is detached.  The dashboard stays up and keeps
# drawing, the other drive keeps reading, the errors show, the result names
# the vanished drive and ENODEV, and the worker's message is on screen.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/../fault/lib.sh"
ds_need_fault

fault_start --disks 2 --size 64M --fill random
fault_loops 2

ds_start 120 40 -- "--no-ata seqread $L0 $L1 --bs 64k --time 120"
ds_wait 'seqread running' "the running test"
ds_wait "$N0 .*[0-9] MB/s" "$N0 reading"
fault_ctl disk0 vanish
losetup -d "$L0" || ds_fail "losetup -d $L0"
ds_wait 'errors   [1-9]' "the errors counted"
ds_alive
ds_screen | grep -q 'seqread running' || ds_fail "the run did not go on after $N0 vanished"
# the live per-drive row: the worker's state and reason, not its last rate
ds_wait "$N0 .*No such device.* stopped" \
	"$N0 shown stopped with its reason"
ds_screen | grep -E "^│ +$N0 " | grep -q 'MB/s' && ds_fail "$N0 still shows a rate: $(ds_screen | grep -E "$N0 ")"
# the other drive still reads: its counter at the daemon keeps rising
r1() { sed -nE 's/^disk1 .*reads ([0-9]+).*/\1/p' "$FMNT/.ctl"; }
a=$(r1)
i=0
while [ "$(r1)" -le "$a" ]; do
	[ $i -ge $((WAIT * 10)) ] && ds_fail "$N1 stopped reading after $N0 vanished"
	sleep 0.1
	i=$((i + 1))
done
# the dashboard still answers keys
ds_keys F1
ds_wait 'Help: keys' "the help overlay"
ds_keys Escape
ds_wait_gone 'Help: keys'
live=$(ds_screen)
ds_keys s
ds_wait 'Result: seqread' "the result after stop"
ds_wait "errors: $N0: [0-9]+ I/O errors \\([0-9]+ ENODEV" "the vanished drive's errors in the result"
ds_screen | grep -E "^│ +$N1 " | grep -q 'stopped' && ds_fail "$N1 shown stopped in the result"
grep -q '^disk1 .* failed 0 ' "$FMNT/.ctl" || ds_fail "disk1 failed I/O: $(cat "$FMNT/.ctl")"
shown=$(printf '%s\n%s\n' "$live" "$(ds_screen)" | grep -E "$N0: stopped after|$N0.*(vanished|No such device)")
ds_keys q
st=$(ds_wait_exit)
[ "$st" = 130 ] || ds_fail "exit status $st, want 130 (stopped before its end, as run)"
fault_ours "$L0" && ds_fail "$L0 still attached after the dashboard let go"
[ -n "$shown" ] || ds_fail "the dashboard does not show why $N0 stopped"
echo "vanish in the dashboard ok: $shown"
