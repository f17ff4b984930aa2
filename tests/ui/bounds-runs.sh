#!/bin/sh
# bounds-runs.sh - file descriptors and threads are released after each
# run: one dashboard session on the demo rig in virtual time (--sim-speed 0)
# starts a test from the picker RUNS times (default 200); /proc/PID/fd and
# /proc/PID/task are counted after the first run and after the last, and
# must be equal (tolerance 0: every run ends with all its workers joined and
# every descriptor it opened closed).  Then the same with a real device:
# a direct-io loop device of the test's own, read by the io_uring engine
# for 200 ms a run (root only; the target's descriptor, the ring's, and the
# worker threads all come and go with each run).
. "$(dirname "$0")/../lib/loop.sh"
. "$(dirname "$0")/lib.sh"
ds_need_tmux
ds_need_bin
RUNS=${RUNS:-200}

ds_start 120 40 -- "$DEMO --sim-speed 0"
ds_wait '88SE9485' "the demo rig"
ds_keys j
ds_wait 'path +sim:sim0' "sim0 selected"
ppid=$(T list-panes -t "$S" -F '#{pane_pid}')
pid=$(pgrep -P "$ppid" -x diskscope | head -1)
[ -n "$pid" ] || ds_fail "no diskscope under the pane's shell ($ppid)"

one_run() {
	ds_keys t
	ds_wait 'Test picker'
	ds_screen | grep -q 'Result: ' && ds_fail "the last result still on screen under the picker"
	ds_keys Enter
	ds_wait 'Result: [a-z]+' "the result of run $1"
}
counts() { echo "$(ls /proc/"$pid"/fd | wc -l) $(ls /proc/"$pid"/task | wc -l)"; }

one_run 1
c1=$(counts)
n=2
while [ $n -le "$RUNS" ]; do
	one_run $n
	n=$((n + 1))
done
c2=$(counts)
ds_alive
ds_keys q
ds_wait_exit >/dev/null
[ "$c1" = "$c2" ] || ds_fail "sim: after 1 run: fds threads = $c1; after $RUNS runs: $c2"
echo "sim, virtual time: fds and threads after run 1 and run $RUNS: $c1 (fds threads), equal"

[ "$(id -u)" = 0 ] || { echo "SKIP: the loop-device half needs root (the sim half passed)"; exit 77; }
truncate -s 64M "$FIX/l.img" || ds_fail "loop image"
loop_new L "$FIX/l.img" --direct-io=on || ds_fail "losetup"
trap 'ds_cleanup; loop_detach "$L"' EXIT
N=${L#/dev/}
ds_start 120 40 -- "--no-ata"
ds_wait " $N " "$N in the inventory"
ds_keys / "$N" Enter
ds_wait "Inventory \\[/$N\\]" "the filter"
ds_keys j
ds_keys t
ds_wait 'Test picker'
# one target, ours; a 200 ms duration typed once (the picker keeps it)
[ "$(ds_screen | grep -cE '^│ +\[x\] +loop')" = 1 ] || ds_fail "not exactly one loop device selected"
ds_screen | grep -qE "^│ +\[x\] +$N " || ds_fail "$N not selected"
ds_keys Tab j j Enter 2 0 0 m s Enter BTab
ds_wait 'duration +\[200ms\]' "the typed duration"
ds_keys Escape
ds_wait_gone 'Test picker'
pid=$(pgrep -P "$(T list-panes -t "$S" -F '#{pane_pid}')" -x diskscope | head -1)
[ -n "$pid" ] || ds_fail "no diskscope under the pane's shell"
one_run 1
c1=$(counts)
n=2
while [ $n -le "$RUNS" ]; do
	one_run $n
	n=$((n + 1))
done
c2=$(counts)
ds_alive
ds_keys q
ds_wait_exit >/dev/null
[ "$c1" = "$c2" ] || ds_fail "$N: after 1 run: fds threads = $c1; after $RUNS runs: $c2"
echo "$N, io_uring: fds and threads after run 1 and run $RUNS: $c1 (fds threads), equal"
