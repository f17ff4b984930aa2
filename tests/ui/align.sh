#!/bin/sh
# align.sh - the alignment probe in the dashboard, started from the command
# line on the demo rig's sim:sim0 (a WD40EZRX, AF 512e) in real time: the live
# view runs it row by row (step N/63), then the result view shows the AF
# verdict and the phybs table (size, offset, tps) rendered generically.
. "$(dirname "$0")/lib.sh"
ds_need_tmux
ds_need_bin

ds_start 120 40 -- "$DEMO --sim-speed 2 align sim:sim0 --max 16k"
ds_wait 'align.* running' "the header saying it runs"
ds_wait 'step [0-9]+/63' "the rows as steps"
ds_wait 'Result: align' "the result view"
ds_wait 'behaves as 4096-byte physical sectors' "the AF verdict"
ds_screen | grep -q 'drive hides' && ds_fail "WD40EZRX reports its 4K sectors: not hidden"
# the generic table: its title and header, somewhere in the view
i=0
while ! ds_screen | grep -qE 'count +size +offset +step +msec +tps +kBps' && [ $i -lt 30 ]; do
	ds_keys j j j j j j j j j j; i=$((i + 1)); sleep 0.1
done
ds_screen | grep -qE 'count +size +offset +step +msec +tps +kBps' || { ds_screen; ds_fail "no phybs table in the result view"; }
ds_keys q
st=$(ds_wait_exit)
[ "$st" = 0 ] || ds_fail "exit status $st"
echo "align ok"
