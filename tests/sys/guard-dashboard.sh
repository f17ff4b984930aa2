#!/bin/sh
# guard-dashboard.sh - the dashboard's confirmation of a writing test on two
# real devices (loop devices this test creates): ONE dialog lists both, each
# with its model and serial line, and wants each name typed in turn.  The
# guard then compares each drive it opens with the one the inventory showed:
# after /dev/loopA is re-attached to another backing file behind the user's
# back, the start is refused ("... is now another drive: backing file X, you
# confirmed Y") with 0 bytes changed in any backing file; once loopA is back
# on its own file, the same two typed names start the run and both are
# written.
. "$(dirname "$0")/../ui/lib.sh"
ds_need_tmux
ds_need_bin
[ "$(id -u)" = 0 ] || ds_skip "needs root for loop devices"
command -v losetup >/dev/null 2>&1 || ds_skip "losetup not installed"

for f in a b other; do
	truncate -s 32M "$FIX/$f.img"
	head -c 1048576 /dev/urandom | dd of="$FIX/$f.img" conv=notrunc status=none
	cp "$FIX/$f.img" "$FIX/$f.orig"
done
A=$(losetup -f --show "$FIX/a.img") || ds_skip "no loop device available"
B=$(losetup -f --show "$FIX/b.img") || { losetup -d "$A"; ds_skip "no second loop device"; }
a=${A#/dev/} b=${B#/dev/}
# detach only what is still on our files (loopA is given back for a moment)
ours() {
	case $(cat "/sys/block/${1#/dev/}/loop/backing_file" 2>/dev/null) in "$FIX"/*) return 0 ;; esac
	return 1
}
trap 'for l in "$A" "$B"; do ours "$l" && losetup -d "$l"; done; ds_cleanup' EXIT INT TERM

# reattach DEV FILE: the same /dev/loopN on another backing file
reattach() {
	losetup -d "$1"
	i=0
	while [ -e "/sys/block/${1#/dev/}/loop/backing_file" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	losetup "$1" "$2" || ds_fail "losetup $1 $2"
}
changed() {	# bytes of FILE that differ from its copy
	cmp -l "$FIX/$1.orig" "$FIX/$1.img" 2>/dev/null | wc -l
}

ds_start 200 40 -- "--no-ata"
ds_wait "$a " "loop device $a in the inventory"
ds_keys / "$a" Enter
ds_wait "Inventory \\[/$a\\]" "the filter"

# pick seqwrite, then also loopB in the target list
pick() {
	ds_keys t
	ds_wait 'Test picker'
	idx=$(ds_screen | sed -nE 's/^│ [> ] ([a-z]+) .*/\1/p' | grep -nx seqwrite | cut -d: -f1)
	[ -n "$idx" ] || ds_fail "seqwrite not offered"
	cur=$(ds_screen | sed -nE 's/^│ ([> ]) ([a-z]+) .*/\1/p' | grep -n '>' | cut -d: -f1)
	while [ "$cur" -lt "$idx" ]; do ds_keys Down; cur=$((cur + 1)); done
	while [ "$cur" -gt "$idx" ]; do ds_keys Up; cur=$((cur - 1)); done
	ds_wait '^│ > seqwrite' "seqwrite chosen"
	ds_keys Tab Tab	# to the targets, the cursor on loopA (Enter here would start)
	ra=$(ds_screen | grep -nE "\\[.\\] $a " | cut -d: -f1)
	rb=$(ds_screen | grep -nE "\\[.\\] $b " | cut -d: -f1)
	[ -n "$ra" ] && [ -n "$rb" ] || ds_fail "$a and $b not both in the target list"
	if ! ds_screen | grep -qE "\\[x\\] $b "; then
		if [ "$rb" -gt "$ra" ]; then k=Down n=$((rb - ra)); else k=Up n=$((ra - rb)); fi
		while [ "$n" -gt 0 ]; do ds_keys "$k"; n=$((n - 1)); done
		ds_keys Space
	fi
	ds_wait "\\[x\\] $b " "$b selected"
	ds_screen | grep -qE "\\[x\\] $a " || ds_fail "$a not selected"
	[ "$(ds_screen | grep -cE '^│ +\[x\] [a-z0-9]+ +[0-9.]+ [kMGT]?B')" = 2 ] ||
		ds_fail "more drives than $a and $b selected"
	ds_keys Enter
	ds_wait 'DESTROYS the data' "the confirmation"
}

pick
# one dialog, both devices, model/serial line each, the first name asked
ds_screen | grep -q "$A" || ds_fail "confirmation does not list $A"
ds_screen | grep -q "$B" || ds_fail "confirmation does not list $B"
[ "$(ds_screen | grep -c 'serial .* size ')" = 2 ] || ds_fail "not one serial/size line per device"
ds_wait "Device 1 of 2: type $a" "the first name asked"
ds_keys "$b" Enter
ds_wait "type $a exactly" "a name out of turn refused"
ds_keys C-u 2>/dev/null
i=0; while [ $i -lt 8 ]; do ds_keys BSpace; i=$((i + 1)); done
ds_keys "$a" Enter
ds_wait "Device 2 of 2: type $b" "the second name asked"

# Behind the user's back loopA changes hands: the inventory showed a.img.
reattach "$A" "$FIX/other.img"
ds_keys "$b" Enter
ds_wait "refused: $A is now another drive: backing file $FIX/other.img, you confirmed $FIX/a.img" \
	"the guard's refusal of the swapped device"
for f in a b other; do
	[ "$(changed $f)" = 0 ] || ds_fail "$f.img changed although refused"
done
echo "$(ds_screen | grep -o "refused: $A is now another drive.*img") [0 bytes changed in a.img, b.img, other.img]"

# loopA back on its own file: the two typed names start the run.
reattach "$A" "$FIX/a.img"
ds_keys Escape
ds_wait_gone 'Test picker'
pick
ds_keys "$a" Enter
ds_wait "Device 2 of 2: type $b" "the second name asked"
ds_keys "$b" Enter
ds_wait "seqwrite started on 2 targets|seqwrite.* (running|done)|Result: seqwrite" "the start"
ds_screen | grep -q refused && ds_fail "refused: $(ds_screen | grep refused)"
ds_keys s
ds_wait 'Result: seqwrite' "the result after stop"
ds_keys q
st=$(ds_wait_exit)
# 130 when s stopped it, 0 when it had already ended (as run would)
[ "$st" = 130 ] || [ "$st" = 0 ] || ds_fail "exit status $st"
[ "$(changed a)" -gt 0 ] && [ "$(changed b)" -gt 0 ] || ds_fail "confirmed devices not both written"
[ "$(changed other)" = 0 ] || ds_fail "other.img written"
echo "dashboard confirmation ok: one dialog for $A and $B, each name typed; swap refused, 0 bytes changed"
