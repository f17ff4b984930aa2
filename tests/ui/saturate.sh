#!/bin/sh
# saturate.sh - the presenter's path: filter the inventory to the 88SE9485,
# open the picker, choose `saturate`, start it; the saturation plot fills
# step by step, the knee label appears, the result view shows the verdict.
# (Where the knee lies is the core's business: tests/sys check it in
# virtual time; here the sim runs in real time.)
# Sim drives run at --sim-speed 10 (a 10 s step takes about 1 s).
. "$(dirname "$0")/lib.sh"
ds_need_tmux
ds_need_bin

ds_start 120 40 -- "$DEMO --sim-speed 10"
ds_wait '88SE9485' "the 88SE9485 controller"
ds_keys / 9485 Enter
ds_wait 'Inventory \[/9485\]' "the filter"
ds_screen | grep -q '88SE9215' && ds_fail "filter left another controller"
ds_keys t
ds_wait 'Test picker'
ds_screen | grep -qE '^│ \[x\] Marvell 88SE9485' || ds_fail "the controller is not preselected"
ds_golden picker-utf8
# Walk the test list to `saturate` (its place comes from the core's table).
ds_pick_walk saturate
ds_keys Enter
ds_wait 'Controller saturation' "the live view"
ds_wait 'saturate.* running' "the header saying it runs"
# Filled step by step: while step 2 runs no knee can be known yet.
ds_wait 'step 2/8' "the second step"
ds_screen | grep -q 'knee:' && ds_fail "knee labelled before the drives saturate"
ds_wait 'knee: [0-9]+ drives?' "the knee label"
ds_wait 'Result: saturate' "the result view"
ds_wait 'saturates at [0-9]+ drives?' "the verdict"
ds_screen | grep -qE '^│ 8 +8 +[0-9]+ MB/s' || ds_fail "no 8-drive step in the result table"
ds_screen | grep -qE 'knee: [0-9]+ drive' || ds_fail "result view lost the knee label"
ds_keys q
st=$(ds_wait_exit)
[ "$st" = 0 ] || ds_fail "exit status $st"
echo "saturate ok"
