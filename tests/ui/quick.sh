#!/bin/sh
# quick.sh - the quick grid fills live: a sim SSD in real time, one loop per
# cell and a long idle interval, so after the first cell the run waits with
# the grid showing exactly one measured cell (SEQ1M Q8T1 read) and the others
# "-"; stopping then shows the partial grid in the result view.  No timing is
# asserted: the interval only holds the state still while it is looked at.
. "$(dirname "$0")/lib.sh"
ds_need_tmux
ds_need_bin

ds_start 120 40 -- "$DEMO --sim-speed 1 quick sim:SSD860EVO --loops 1 --time 1 --interval 600 --seed 3"
ds_wait 'idle 600s before SEQ1M Q1T1 read #1' "the interval after the first cell"
ds_wait 'default grid' "the live table"
scr=$(ds_screen)
# SEQ1M Q8T1: read best measured (a number), write best not yet ("-")
echo "$scr" | grep -Eq '^[|│] +SEQ1M Q8T1 +[0-9]+\.[0-9] +[0-9]+\.[0-9] +- +- ' ||
	ds_fail "the first cell is not filled alone"
echo "$scr" | grep -Eq '^[|│] +RND4K Q1T1 +- +- +- +- ' || ds_fail "a later cell is already filled"
ds_keys s
ds_wait 'Result: quick' "the result view"
ds_wait '^[|│] +SEQ1M Q8T1 +[0-9]+\.[0-9] ' "the grid in the result view"
ds_wait 'quick: sim:SSD860EVO: SEQ1M Q8T1 read [0-9.]+ MB/s, write not measured' "the partial verdict"
ds_keys q
ds_wait_exit >/dev/null
echo "quick ok"
