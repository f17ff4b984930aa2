#!/bin/sh
# signals.sh - the dashboard killed by a signal gives the terminal back:
# SIGQUIT, SIGHUP, SIGTERM (during a live test) end it cleanly with exit
# 128+sig; SIGSEGV and SIGABRT (a crash) still leave the alternate screen,
# echo and canonical mode restored before the process dies of that signal.
# Checked after the program is gone: tmux's #{alternate_on} and `stty -a`.
. "$(dirname "$0")/lib.sh"
ds_need_tmux
ds_need_bin
command -v pgrep >/dev/null 2>&1 || ds_skip "pgrep (procps) not installed"
REAL_BIN=$BIN
BIN="ulimit -c 0; $REAL_BIN"	# a crash here is on purpose: no core file

ctrl=$(cd "$FIX" && "$REAL_BIN" $DEMO list | awk '/88SE9485/ {sub("ctrl", "ctrl:", $1); print $1; exit}')
[ -n "$ctrl" ] || ds_fail "no 88SE9485 in the demo rig"

# The program's pid: the child of the pane's shell (run.sh).
ds_pid() {
	pp=$(T display -p -t "$S" '#{pane_pid}')
	pgrep -P "$pp" | head -1
}

# one SIG WANT_EXIT [live]: start, wait for the screen, kill, check.
one() {
	sig=$1 want=$2
	if [ "${3:-}" = live ]; then
		ds_start 100 30 -- "$DEMO --sim-speed 5 saturate $ctrl"
		ds_wait 'step [2-8]/8' "a live test"
	else
		ds_start 100 30 -- "$DEMO"
		ds_wait '88SE9485' "the dashboard"
	fi
	[ "$(T display -p -t "$S" '#{alternate_on}')" = 1 ] || ds_fail "$sig: dashboard not on the alternate screen"
	pid=$(ds_pid)
	[ -n "$pid" ] || ds_fail "$sig: no program pid"
	kill -"$sig" "$pid" || ds_fail "kill -$sig $pid"
	st=$(ds_wait_exit)
	[ "$st" = "$want" ] || ds_fail "SIG$sig: exit $st, want $want"
	[ "$(T display -p -t "$S" '#{alternate_on}')" = 0 ] || ds_fail "SIG$sig: still on the alternate screen"
	ds_screen | grep -q '^\[tty isig icanon echo' || ds_fail "SIG$sig: terminal left raw or without echo"
	echo "ok: SIG$sig -> exit $st, alternate screen left, tty isig icanon echo"
}

one QUIT 131
one HUP 129
one TERM 143 live
one SEGV 139
one ABRT 134
echo "signals ok: the terminal restored after 5 signals"
