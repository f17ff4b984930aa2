#!/bin/sh
# virtual.sh - the dashboard on the demo rig in virtual time with a fixed
# seed (--sim-speed 0): started straight into `saturate` on the 88SE9485, the
# run ends at once and its result screen must equal the golden file exactly,
# figures included (same seed, same bytes).  Then the same through the
# picker, in ASCII.
. "$(dirname "$0")/lib.sh"
ds_need_tmux
ds_need_bin

ctrl=$(ds_run $DEMO list | awk '/88SE9485/ {sub("ctrl", "ctrl:", $1); print $1; exit}')
[ -n "$ctrl" ] || ds_fail "no 88SE9485 in the demo rig"

ds_start 120 40 -- "$DEMO --sim-speed 0 saturate $ctrl --seed 5 --time 2"
ds_wait 'Result: saturate' "the result view"
ds_wait 'saturates at 4 drives' "the verdict"
ds_wait 'knee: 4 drives' "the knee label"
ds_screen | grep -q '(virtual time)' || ds_fail "header does not say virtual time"
ds_golden virtual-saturate-utf8
ds_keys q
st=$(ds_wait_exit)
[ "$st" = 0 ] || ds_fail "exit status $st"

ds_start 100 30 LANG=C -- "$DEMO --sim-speed 0"
ds_wait '88SE9485' "the 88SE9485 controller"
ds_keys / 9485 Enter
ds_wait 'Inventory \[/9485\]' "the filter"
ds_keys t
ds_wait 'Test picker'
ds_pick_walk saturate
ds_keys Enter
ds_wait 'Result: saturate' "the result view"
ds_wait 'saturates at 4 drives' "the verdict"
ds_golden virtual-picker-saturate-ascii
ds_keys q
ds_wait_exit >/dev/null
echo "virtual ok"
