#!/bin/sh
# loop-own.sh - the tests' loop-device bookkeeping (tests/lib/loop.sh): a
# loop whose number another process re-bound after ours was detached is not
# ours any more: loop_check refuses to judge it, loop_detach leaves it alone;
# our own loop is judged and detached.
. "$(dirname "$0")/../lib/loop.sh"
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (loop devices)"; exit 77; }
command -v losetup >/dev/null || { echo "SKIP: no losetup"; exit 77; }
T=$(mktemp -d /tmp/ds-loopown-XXXXXX)
OTHER=""
cleanup() {
	loop_detach "$L"
	# the stranger's loop: ours to remove only if still on a file of ours
	[ -n "$OTHER" ] && case "$(losetup -n -O BACK-FILE "$OTHER" 2>/dev/null)" in
	"$T"/*) losetup -d "$OTHER" ;;
	esac
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
fail() { echo "FAIL: $*"; exit 1; }

truncate -s 8M "$T/mine.img" "$T/stranger.img"
loop_new L "$T/mine.img" || fail "losetup"
loop_mine "$L" || fail "a loop just made is not ours"
loop_check "$L" || fail "our own loop not judged"

# another process takes the number: detach ours, attach a different file
# at the same device (what a sloppy cleanup elsewhere plus a new test do).
# On a busy machine another test may take the number first: that is the
# same case, with its device instead of our stranger file.
losetup -d "$L" || fail "detach"
losetup "$L" "$T/stranger.img" 2>/dev/null && OTHER=$L
[ -n "$OTHER" ] || echo "note: $L was taken by another process first: checked against its device"
loop_mine "$L" && fail "a re-bound (or freed) number still counts as ours"
out=$(loop_check "$L") && fail "loop_check judged a re-bound device"
echo "$out" | grep -q "no longer this test's loop device" || fail "loop_check said: $out"
before=$(losetup -n -O BACK-FILE "$L" 2>/dev/null)
loop_detach "$L"
[ "$(losetup -n -O BACK-FILE "$L" 2>/dev/null)" = "$before" ] ||
	fail "loop_detach detached a device that was not ours"
[ -n "$OTHER" ] || { echo PASS; exit 0; }

# the same path, a new file (inode): not ours either
losetup -d "$L" || fail "detach the stranger"
OTHER=""
mv "$T/stranger.img" "$T/mine.img"	# mine.img is now a different inode
losetup "$L" "$T/mine.img" 2>/dev/null && OTHER=$L
[ -n "$OTHER" ] && { loop_mine "$L" && fail "a new file at the same path counts as ours"; }
echo PASS
