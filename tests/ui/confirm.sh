#!/bin/sh
# confirm.sh - a test that writes, aimed at a real block device (a loop
# device this test creates), first shows what would be destroyed (model,
# serial, size, partitions, mounts) and wants the device name typed: a wrong
# name is refused, Esc cancels with nothing written, the right name starts.
. "$(dirname "$0")/../lib/loop.sh"
. "$(dirname "$0")/lib.sh"
ds_need_tmux
ds_need_bin
[ "$(id -u)" = 0 ] || ds_skip "needs root for a loop device"
command -v losetup >/dev/null 2>&1 || ds_skip "losetup not installed"

img="$FIX/disk.img"
truncate -s 64M "$img"
loop_new dev "$img" 2>/dev/null || ds_skip "no loop device available"
name=${dev#/dev/}
trap 'loop_detach "$dev"; ds_cleanup' EXIT INT TERM
# A marker at the start of the image shows whether anything was written.
printf 'DISKSCOPE-MARKER' | dd of="$dev" conv=notrunc status=none
sync

ds_start 120 40 -- "--no-ata"
ds_wait "$name" "the loop device in the inventory"
ds_keys / "$name" Enter
ds_wait "Inventory \\[/$name\\]" "the filter"
ds_keys t
ds_wait 'Test picker'
ds_screen | grep -qE "^│ +\\[x\\] $name " || ds_fail "$name not preselected"
ds_pick_walk seqwrite
ds_keys Enter
ds_wait 'DESTROYS the data' "the confirmation"
ds_screen | grep -q "$dev" || ds_fail "confirmation does not name $dev"
ds_screen | grep -qE 'size +67.1 MB' || ds_fail "confirmation does not show the size"
ds_screen | grep -q 'partitions' || ds_fail "confirmation does not show partitions"
ds_screen | grep -q 'mounted' || ds_fail "confirmation does not show mounts"
ds_keys "wrong" Enter
ds_wait "type $name exactly" "the refusal of a wrong name"
ds_keys Escape
ds_wait 'cancelled: nothing was written' "the cancel notice"
head -c 16 "$dev" | grep -q DISKSCOPE-MARKER || ds_fail "the device was written after a cancel"

ds_keys Enter
ds_wait 'DESTROYS the data' "the confirmation again"
ds_keys "$name" Enter
ds_wait "seqwrite.* (running|done)|Result: seqwrite|refused|guard" "the start (or the guard's word)"
if ds_screen | grep -qE 'refused|guard'; then
	echo "note: the guard refused: $(ds_screen | tail -1)"
else
	ds_keys s
	ds_wait 'Result: seqwrite' "the result after stop"
fi
ds_keys q
st=$(ds_wait_exit)
# a run stopped before its end ends the dashboard as an interrupted run would
[ "$st" = 0 ] || [ "$st" = 130 ] || ds_fail "exit status $st"
echo "destroy confirmation ok ($dev)"
