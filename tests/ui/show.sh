#!/bin/sh
# show.sh - `diskscope show RESULT.json` opens a saved run in the result
# view with the same panels (curves from the saved series); two files side
# by side compare them.  The runs are made headless in virtual time with a
# fixed seed; the golden screens mask the figures and plot dots (the core
# owns the numbers: tests/sys), the layout and texts must match.
. "$(dirname "$0")/lib.sh"
ds_need_tmux
ds_need_bin

ctrl=$(ds_run $DEMO list | awk '/88SE9485/ {sub("ctrl", "ctrl:", $1); print $1; exit}')
[ -n "$ctrl" ] || ds_fail "no 88SE9485 in the demo rig"
ds_run $DEMO run saturate "$ctrl" --time 2 --seed 7 --json sat.json >/dev/null 2>&1 ||
	ds_fail "headless saturate run failed"
ds_run $DEMO run seqread sim:sim8 --time 2 --seed 7 --json seq.json >/dev/null 2>&1 ||
	ds_fail "headless seqread run failed"

ds_start 120 40 -- show sat.json
ds_wait 'Result: saturate' "the saved run"
ds_wait 'knee: 4 drives' "the knee in the saved saturation plot"
ds_screen | grep -q 'saturates at 4 drives' || ds_fail "no verdict in the saved run"
ds_screen | grep -q 'saved run: saturate' || ds_fail "header does not say it is a saved run"
ds_screen | grep -q 'Throughput' || ds_fail "no throughput panel from the saved series"
ds_golden show-saturate-utf8 masked
ds_keys q
st=$(ds_wait_exit)
[ "$st" = 0 ] || ds_fail "exit status $st"

ds_start 140 40 LANG=C -- show sat.json seq.json
ds_wait 'Result 2: seqread' "two runs side by side"
ds_screen | grep -q 'Result 1: saturate' || ds_fail "first run missing"
ds_golden show-compare-ascii masked
ds_keys q
ds_wait_exit >/dev/null
echo "show ok"
