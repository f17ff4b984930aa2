#!/bin/sh
# loop.sh - loop devices a test owns (sourced by tests that attach them).
# A loop device's number is free for anyone the moment it is detached: a
# cleanup that detaches by number after its own detach, or a judgement made
# after the number changed hands, acts on another test's device (align-fault
# once judged a loop that another test had re-bound: size 0).  So every loop
# a test makes is recorded with its backing file's device and inode, and
# only a loop still backed by that same file is judged or detached.
#
#   loop_new VAR FILE [LOSETUP-OPTIONS...]  attach, record, set VAR to the device
#   loop_adopt DEV FILE                     record one attached another way
#   loop_mine DEV                           still backed by the file it was made on
#   loop_check DEV... || fail ...           each of them still ours and not empty
#   loop_detach DEV...                      detach those still ours (a no-op otherwise)
#
# The record is a shell variable ("DEV=MAJ:MIN:INODE ..."), so loop_new is
# called as a command, not inside $(...).

LOOP_OWN=""

loop_id() { stat -L -c '%Hd:%Ld:%i' "$1" 2>/dev/null; }

loop_new() {
	_lo_v=$1 _lo_f=$2
	shift 2
	_lo_d=$(losetup -f --show "$@" "$_lo_f") || return 1
	loop_adopt "$_lo_d" "$_lo_f"
	eval "$_lo_v=\$_lo_d"
}

loop_adopt() {
	LOOP_OWN="$LOOP_OWN $1=$(loop_id "$2")"
}

loop_mine() {
	_lo_want=""
	for _lo_e in $LOOP_OWN; do
		[ "${_lo_e%%=*}" = "$1" ] && _lo_want=${_lo_e#*=}	# the newest record counts
	done
	[ -n "$_lo_want" ] || return 1
	_lo_have=$(losetup -n -O BACK-MAJ:MIN,BACK-INO "$1" 2>/dev/null | awk '{ print $1 ":" $2 }')
	[ "$_lo_have" = "$_lo_want" ]
}

loop_check() {
	for _lo_d in "$@"; do
		if ! loop_mine "$_lo_d"; then
			_lo_b=$(losetup -n -O BACK-FILE "$_lo_d" 2>/dev/null)
			echo "FAIL: $_lo_d is no longer this test's loop device (backing now '${_lo_b:-none}'):" \
				"another process detached or re-bound it, so its results are not judged"
			return 1
		fi
		[ "$(blockdev --getsize64 "$_lo_d" 2>/dev/null || echo 0)" -gt 0 ] ||
			{ echo "FAIL: $_lo_d has size 0"; return 1; }
	done
}

loop_detach() {
	for _lo_d in "$@"; do
		[ -n "$_lo_d" ] && loop_mine "$_lo_d" && losetup -d "$_lo_d" 2>/dev/null
	done
	return 0
}
