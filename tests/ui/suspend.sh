#!/bin/sh
# suspend.sh - Ctrl-Z leaves the dashboard with the terminal back to normal
# (the shell's screen, its job message), `fg` brings it back whole and
# answering keys; a test keeps its data across the suspension.
. "$(dirname "$0")/lib.sh"
ds_need_tmux
ds_need_bin
command -v bash >/dev/null 2>&1 || ds_skip "bash (job control) not installed"

ds_new_server
T start-server \; set-option -g history-limit 0 \; new-session -d -s "$S" -x 100 -y 30 \
	"env -i PATH=\"$PATH\" HOME=/nonexistent LANG=C.UTF-8 TERM=tmux-256color PS1='ds\$ ' \
bash --norc --noprofile -i" || ds_fail "tmux new-session"
ds_wait '^ds\$' "the shell prompt"
ds_keys "cd $FIX && $BIN $DEMO" Enter
ds_wait '88SE9485' "the dashboard"
[ "$(T display -p -t "$S" '#{alternate_on}')" = 1 ] || ds_fail "dashboard not on the alternate screen"

ds_keys C-z
ds_wait 'Stopped' "the shell's job message"
[ "$(T display -p -t "$S" '#{alternate_on}')" = 0 ] || ds_fail "suspended but still on the alternate screen"
ds_screen | grep -q 'Inventory' && ds_fail "dashboard still drawn while suspended"

ds_keys fg Enter
ds_wait 'Inventory' "the dashboard after fg"
ds_wait 'F1 Help' "the footer after fg"
[ "$(T display -p -t "$S" '#{alternate_on}')" = 1 ] || ds_fail "resumed off the alternate screen"
ds_keys j
ds_wait 'SMR assessment' "an answer to a key after fg"
ds_keys q
ds_wait '^ds\$ *$' "the prompt after quitting"
ds_keys 'echo "[status $?]"' Enter
ds_wait '^\[status 0\]' "exit status 0"
echo "suspend/resume ok"
