#!/bin/sh
# resize.sh - a resize storm while a test runs: every size re-lays out (or
# says "terminal too small"), the run goes on, nothing drawn is lost, and the
# program never dies.  Started straight into the test from the command line.
. "$(dirname "$0")/lib.sh"
ds_need_tmux
ds_need_bin

ctrl=$(ds_run $DEMO list | awk '/88SE9485/ {sub("ctrl", "ctrl:", $1); print $1; exit}')
[ -n "$ctrl" ] || ds_fail "no 88SE9485 in the demo rig"
ds_start 100 30 -- "$DEMO --sim-speed 5 saturate $ctrl"
ds_wait 'Controller saturation' "the live view"
ds_wait 'step [2-8]/8' "a second step"
before=$(ds_screen | sed -nE 's/.*step ([0-9]+)\/8.*/\1/p' | head -1)

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
