#!/bin/sh
# quick.sh - the quick grid fills live: a sim SSD in real time, one loop per
# cell and a long idle interval, so after the first cell the run waits with
# the grid showing exactly one measured cell (SEQ1M Q8T1 read) and the others
# "-"; stopping then shows the partial grid in the result view.  Then on a
# scratch file, Ctrl-C mid-run: exit 130 and no scratch file left.  No timing
# is asserted: the interval only holds the state still while it is looked at.
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

# a scratch file in a directory: Ctrl-C in the dashboard mid-run exits 130
# and leaves no scratch file behind
D=$(mktemp -d /dev/shm/ds-quick-ui-XXXXXX 2>/dev/null || mktemp -d "$FIX/dir-XXXXXX")
qdir=$D
trap 'rm -rf "$qdir"; ds_cleanup' EXIT INT TERM
ds_start 120 40 -- "$DEMO quick $D --loops 1 --time 1 --interval 600 --file-size 8M"
ds_wait 'idle 600s before SEQ1M Q1T1 read #1' "the scratch-file run idling after its first cell"
# the scratch file has no name (O_TMPFILE): some process holds it open in $D
held=
for f in /proc/[0-9]*/fd/*; do
  case $(readlink "$f" 2>/dev/null) in "$D"/*) held=$f; break ;; esac
done
[ -n "$held" ] || ds_fail "no scratch file held open in $D while running"
ds_keys C-c
st=$(ds_wait_exit)
[ "$st" = 130 ] || ds_fail "Ctrl-C: exit status $st, want 130"
[ -z "$(ls "$D")" ] || ds_fail "left behind after Ctrl-C: $(ls "$D")"
echo "quick ok"
