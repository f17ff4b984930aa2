#!/bin/sh
# asan.sh - the dashboard built with AddressSanitizer and UBSan (`make asan`)
# runs a few hundred frames on the demo rig: home screen, picker, a saturate
# run, resizes, help and themes; any sanitizer report or leak fails.
. "$(dirname "$0")/lib.sh"
ds_need_tmux
[ -n "${DS_SKIP_ASAN:-}" ] && ds_skip "DS_SKIP_ASAN set"
echo "building build-asan/diskscope (make asan)..."
make -s asan >"$FIX/make.log" 2>&1 || { tail -30 "$FIX/make.log"; ds_fail "make asan failed"; }
BIN="$ds_top/build-asan/diskscope"
ds_need_bin

ctrl=$(ds_run $DEMO list | awk '/88SE9485/ {sub("ctrl", "ctrl:", $1); print $1; exit}')
[ -n "$ctrl" ] || ds_fail "no 88SE9485 in the demo rig"
SAN="ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:log_path=$FIX/asan"
SAN="$SAN UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:log_path=$FIX/ubsan"

# 1: straight into a test, 300 frames (30 s at 10 Hz), resized on the way.
ds_start 100 30 $SAN -- "$DEMO --sim-speed 10 --frames 300 saturate $ctrl"
ds_wait 'Controller saturation' "the live view"
for size in "140 45" "59 15" "80 24" "200 60" "100 30"; do
	set -- $size
	T resize-window -t "$S" -x "$1" -y "$2"
	ds_wait "too small|Throughput|Result" "a redraw at $1x$2"
done
ds_keys '?'
ds_keys x T T
st=$(ds_wait_exit)
[ "$st" = 0 ] || ds_fail "exit status $st (sanitizer?)"

# 2: the home screen, picker, filter and help by keys, 200 frames.
ds_start 120 40 $SAN -- "$DEMO --frames 200"
ds_wait '88SE9485' "the inventory"
ds_keys j j j / 9 2 Enter Escape t Tab Down Right Right Left Tab Space Space Escape '?' x T G g
st=$(ds_wait_exit)
[ "$st" = 0 ] || ds_fail "exit status $st (sanitizer?)"

if ls "$FIX"/asan* "$FIX"/ubsan* >/dev/null 2>&1; then
	cat "$FIX"/asan* "$FIX"/ubsan* 2>/dev/null | head -60
	ds_fail "sanitizer reports"
fi
echo "asan/ubsan ok: 500 frames, no reports"
