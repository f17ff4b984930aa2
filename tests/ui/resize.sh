#!/bin/sh
# resize.sh - a resize storm while a test runs: every size re-lays out (or
# says "terminal too small"), the run goes on, nothing drawn is lost, and the
# program never dies.  Started straight into the test from the command line.
# First a storm of 100 resizes between 20x6 and 300x100 with no waiting (the
# program must survive every SIGWINCH mid-frame), then sizes checked one by one.
. "$(dirname "$0")/lib.sh"
ds_need_tmux
ds_need_bin

ctrl=$(ds_run $DEMO list | awk '/88SE9485/ {sub("ctrl", "ctrl:", $1); print $1; exit}')
[ -n "$ctrl" ] || ds_fail "no 88SE9485 in the demo rig"
ds_start 100 30 -- "$DEMO --sim-speed 5 saturate $ctrl"
ds_wait 'Controller saturation' "the live view"
ds_wait 'step [2-8]/8' "a second step"
before=$(ds_screen | sed -nE 's/.*step ([0-9]+)\/8.*/\1/p' | head -1)

# The storm: a fixed pseudo-random walk over sizes, corners included.
awk 'BEGIN { srand(42); print "20 6"; print "300 100"; print "300 6"; print "20 100";
	     for (i = 4; i < 100; i++) printf "%d %d\n", 20 + int(rand() * 281), 6 + int(rand() * 95) }' >"$FIX/storm"
[ "$(wc -l <"$FIX/storm")" -eq 100 ] || ds_fail "storm list"
n=0
while read -r c r; do
	T resize-window -t "$S" -x "$c" -y "$r" || ds_fail "tmux resize-window $c $r (after $n)"
	n=$((n + 1))
done <"$FIX/storm"
ds_alive
ds_exited && ds_fail "the program exited during the resize storm"
T resize-window -t "$S" -x 100 -y 30
ds_wait 'Controller saturation|Result: saturate' "the view after $n resizes"
echo "storm: $n resizes between 20x6 and 300x100 survived"

for size in "60 16" "59 16" "60 15" "200 60" "20 6" "80 24" "300 100" "61 17" "40 10" \
	    "120 40" "100 30" "75 20" "160 48" "100 30"; do
	set -- $size
	T resize-window -t "$S" -x "$1" -y "$2" || ds_fail "tmux resize-window $1 $2"
	if [ "$1" -lt 60 ] || [ "$2" -lt 16 ]; then
		ds_wait "too small: $1x$2" "the too-small line at $1x$2"
		[ "$(ds_screen | grep -c .)" -le 1 ] || ds_fail "more than one line at $1x$2"
	else
		ds_wait "Throughput|Result" "the layout at $1x$2"
		ds_screen | grep -q 'too small' && ds_fail "too-small shown at $1x$2"
		# Every line fits the new width.
		w=$(ds_screen | LC_ALL=C.UTF-8 wc -L)
		[ "$w" -le "$1" ] || ds_fail "a line of $w columns at width $1"
	fi
done
ds_wait 'Controller saturation' "the saturation panel after the storm"
after=$(ds_screen | sed -nE 's/.*step ([0-9]+)\/8.*/\1/p' | head -1)
[ -n "$after" ] && [ "$after" -ge "$before" ] || ds_fail "steps went back: $before -> $after"
# The run finishes with its data: the knee found before and during the storm.
ds_wait 'knee: [0-9]+ drives?' "the knee label"
ds_wait 'Result: saturate' "the result view"
ds_keys q
st=$(ds_wait_exit)
[ "$st" = 0 ] || ds_fail "exit status $st"
echo "resize storm ok (steps $before -> $after)"
