#!/bin/sh
# lib.sh - what the fault scenarios share (sourced by tests/sys/fault-*.sh
# and tests/ui/fault-*.sh): start ds-faultdev in a temp dir, put loop devices
# on its disks, send it commands, and undo all of it on exit, failed or not.
#
#   fault_need                       skip (77) without root, /dev/fuse, the build
#   fault_start [DAEMON-ARGS...]     mount in $FT/mnt (sets FT, FMNT, FPID)
#   fault_loop N                     a loop device over disk N in $FLOOP (direct-io)
#   fault_ctl COMMAND...             one command to MOUNT/.ctl; fails the test if refused
#   fault_run NAME ARGS...           `diskscope run ARGS` that must exit 0, its
#                                    output shown, its JSON checked in $FT/NAME.json
#   fault_cleanup                    loops detached, mount gone, daemon ended
#
# After sourcing, a scenario that also sources tests/ui/lib.sh must call
# fault_trap again (that file sets its own trap).

fault_top=$(cd "$(dirname "$0")/../.." && pwd)
. "$fault_top/tests/lib/loop.sh"
FAULTDEV=${DS_FAULTDEV:-$fault_top/build/tests/ds-faultdev}
DS=${DISKSCOPE:-$fault_top/build/diskscope}
FT=""
FMNT=""
FPID=""
FLOOPS=""
FLOOP=""
fault_extra_cleanup=${fault_extra_cleanup:-}

fault_skip() { echo "SKIP: $*"; exit 77; }

fault_need() {
	[ "$(id -u)" = 0 ] || fault_skip "needs root (FUSE mount, loop devices)"
	[ -c /dev/fuse ] || fault_skip "no /dev/fuse (modprobe fuse)"
	[ -x "$FAULTDEV" ] || fault_skip "$FAULTDEV not built (make build/tests/ds-faultdev)"
	[ -x "$DS" ] || fault_skip "$DS not built (make)"
	command -v losetup >/dev/null 2>&1 || fault_skip "no losetup"
	command -v python3 >/dev/null 2>&1 || fault_skip "no python3"
	"$DS" run --help >/dev/null 2>&1 || fault_skip "$DS has no working 'run' command"
}

# fault_ours DEV: DEV is still a loop device over our mount, on the same
# file (a detached one's number may already serve another test: never touch
# that); loops made with a plain losetup are checked by their path
fault_ours() {
	loop_mine "$1" && return 0
	[ -n "$FT" ] && case "$(cat "/sys/block/${1#/dev/}/loop/backing_file" 2>/dev/null)" in
	"$FT"/*) return 0 ;;
	esac
	return 1
}

fault_cleanup() {
	for l in $FLOOPS; do fault_ours "$l" && losetup -d "$l" 2>/dev/null; done
	if [ -n "$FMNT" ] && mountpoint -q "$FMNT" 2>/dev/null; then
		umount -l "$FMNT" 2>/dev/null || fusermount3 -uz "$FMNT" 2>/dev/null
	fi
	if [ -n "$FPID" ]; then
		kill "$FPID" 2>/dev/null
		i=0
		while kill -0 "$FPID" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
		kill -9 "$FPID" 2>/dev/null
	fi
	[ -n "$FT" ] && rm -rf "$FT"
	FLOOPS="" FMNT="" FPID="" FT=""
}

fault_trap() {
	# the program under test first (it holds the loop devices), then ours
	trap 'eval "${fault_extra_cleanup:-:}"; fault_cleanup' EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
}
fault_trap

fault_fail() {
	echo "FAIL: $*"
	[ -n "$FT" ] && [ -f "$FT/daemon.log" ] && { echo "---- daemon log ----"; tail -20 "$FT/daemon.log"; }
	exit 1
}

fault_start() {
	FT=$(mktemp -d /tmp/ds-fault-XXXXXX) || fault_fail "mktemp"
	FMNT="$FT/mnt"
	mkdir "$FMNT"
	"$FAULTDEV" "$@" "$FMNT" >"$FT/daemon.log" 2>&1 &
	FPID=$!
	i=0
	while ! [ -e "$FMNT/.ctl" ]; do
		kill -0 "$FPID" 2>/dev/null || { FPID=""; fault_fail "ds-faultdev did not start: $(cat "$FT/daemon.log")"; }
		[ $i -ge 100 ] && fault_fail "ds-faultdev did not mount in 10 s"
		sleep 0.1
		i=$((i + 1))
	done
}

# direct-io over FUSE works on the kernels tried (6.x); where it is refused the
# loop device falls back to buffered I/O, which still reaches the daemon
# because every file is in FUSE direct_io mode: say which one we got.
fault_loop() {
	loop_new FLOOP "$FMNT/disk$1" --direct-io=on 2>/dev/null ||
		loop_new FLOOP "$FMNT/disk$1" || fault_fail "losetup on disk$1"
	FLOOPS="$FLOOPS $FLOOP"
	[ "$(cat "/sys/block/${FLOOP#/dev/}/loop/dio" 2>/dev/null)" = 1 ] ||
		echo "note: $FLOOP is a buffered loop (direct-io refused); FUSE direct_io still passes every I/O"
}

# fault_loops N: loop devices on disk0..disk(N-1): L0.. their paths, N0.. their
# kernel names
fault_loops() {
	_fl_i=0
	while [ $_fl_i -lt "$1" ]; do
		fault_loop $_fl_i
		eval "L$_fl_i=\$FLOOP N$_fl_i=\${FLOOP#/dev/}"
		_fl_i=$((_fl_i + 1))
	done
}

fault_ctl() {
	echo "$*" >"$FMNT/.ctl" 2>/dev/null || fault_fail "ds-faultdev refused '$*': $(tail -1 "$FT/daemon.log")"
}

# fault_json FILE: fails the test unless FILE is valid JSON (python3 -m
# json.tool, and strictly: NaN and Infinity are not JSON)
fault_json() {
	python3 -m json.tool "$1" >/dev/null || fault_fail "$1 is not valid JSON"
	python3 -c 'import json, sys
def bad(c): raise ValueError("non-standard JSON constant " + c)
json.load(open(sys.argv[1]), parse_constant=bad)' "$1" || fault_fail "$1 holds NaN or Infinity"
}

fault_run() {
	fault_run_name=$1
	shift
	"$DS" run "$@" --json "$FT/$fault_run_name.json" >"$FT/out" 2>"$FT/err"
	fault_run_rc=$?
	cat "$FT/out" "$FT/err"
	[ $fault_run_rc -eq 0 ] || fault_fail "$fault_run_name: exit $fault_run_rc, want 0"
	fault_json "$FT/$fault_run_name.json"
}
