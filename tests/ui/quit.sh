#!/bin/sh
# quit.sh - `q` while a test runs asks first; "n" keeps it running, "y"
# stops it and quits; the terminal is restored (modes, main screen, cursor).
# F10 asks the same.
. "$(dirname "$0")/lib.sh"
ds_need_tmux
ds_need_bin

ctrl=$(ds_run $DEMO list | awk '/88SE9485/ {sub("ctrl", "ctrl:", $1); print $1; exit}')
[ -n "$ctrl" ] || ds_fail "no 88SE9485 in the demo rig"
ds_start 100 30 -- "$DEMO saturate $ctrl"
ds_wait 'saturate.* running' "the running test"
[ "$(T display -p -t "$S" '#{alternate_on}')" = 1 ] || ds_fail "dashboard not on the alternate screen"

ds_keys q
ds_wait 'Stop it and quit\?' "the quit question"
ds_keys n
ds_wait_gone 'Stop it and quit\?'
ds_screen | grep -q 'saturate.* running' || ds_fail "test no longer running after 'n'"
ds_exited && ds_fail "quit although told not to"

ds_keys F10
ds_wait 'Stop it and quit\?' "the question again (F10)"
ds_keys y
st=$(ds_wait_exit)
# stopped before its end: interrupted, as a headless run would say (130)
[ "$st" = 130 ] || ds_fail "exit status $st after q, y, want 130"
ds_screen | grep -q '^\[tty isig icanon echo' || ds_fail "terminal modes not restored"
[ "$(T display -p -t "$S" '#{alternate_on}')" = 0 ] || ds_fail "still on the alternate screen"
[ "$(T display -p -t "$S" '#{cursor_flag}')" = 1 ] || ds_fail "cursor left hidden"
echo "quit ok"

# Ctrl-C and SIGTERM: the run is stopped, the terminal restored, 130 / 143.
ds_start 100 30 -- "$DEMO saturate $ctrl"
ds_wait 'saturate.* running' "the running test"
ds_keys C-c
st=$(ds_wait_exit)
[ "$st" = 130 ] || ds_fail "exit status $st after Ctrl-C, want 130"
ds_screen | grep -q '^\[tty isig icanon echo' || ds_fail "terminal modes not restored after Ctrl-C"
[ "$(T display -p -t "$S" '#{alternate_on}')" = 0 ] || ds_fail "alternate screen left on after Ctrl-C"

ds_start 100 30 -- "$DEMO saturate $ctrl"
ds_wait 'saturate.* running' "the running test"
sh_pid=$(T display -p -t "$S" '#{pane_pid}')
pid=$(pgrep -P "$sh_pid" | head -1)
[ -n "$pid" ] || ds_fail "no dashboard process under the pane's shell"
kill -TERM "$pid"
st=$(ds_wait_exit)
[ "$st" = 143 ] || ds_fail "exit status $st after SIGTERM, want 143"
ds_screen | grep -q '^\[tty isig icanon echo' || ds_fail "terminal modes not restored after SIGTERM"
echo "signals ok"
