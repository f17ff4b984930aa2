#!/bin/sh
# smr.sh - the smr test live in the dashboard on a direct-io loop over
# ds-faultdev with a media cache (full after 16 MB of random writes, then
# every I/O held 2 s out of every 4 s): the running screen shows the drive
# writing, then at 0 MB/s during a stall, and the result view carries the
# DM-SMR verdict with its stalls table.  "During a stall" is read from the
# device's counters (writes stop), not from a clock.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/../fault/lib.sh"
ds_need_fault

fault_start --size 128M --fill random
fault_loop 0
L=$FLOOP
N=${L#/dev/}
fault_ctl "mcache 16 2 4"

ds_start 140 45 -- "--no-ata smr $L --bs 64k --qd 4 --time 10 --destroy-data $L"
ds_wait 'smr running' "the running test"
ds_wait "$N .*[1-9][0-9.]* MB/s" "$N writing"
ds_wait "$N +0\\.0 MB/s" "$N at 0 MB/s during a stall"
ds_wait "!!!" "the stall marker under the curve"
[ -n "$SMR_SHOW" ] && ds_screen
ds_wait 'Result: smr' "the result view"
ds_wait 'DM-SMR likely' "the verdict"
ds_wait 'stall every' "the stall period in the verdict"
[ -n "$SMR_SHOW" ] && ds_screen
ds_keys q
st=$(ds_wait_exit)
[ "$st" = 0 ] || ds_fail "exit status $st"
fault_ctl "mcache off"
echo "smr in the dashboard ok"
