#!/bin/sh
# home.sh - the home screen lists the demo rig (every controller and drive
# that `list` shows), the help overlay comes from the key table, `q` quits
# with the terminal restored; golden screens in UTF-8 and in ASCII mode, at
# 120x50 so that every drive of the rig fits the tree.
. "$(dirname "$0")/lib.sh"
ds_need_tmux
ds_need_bin

# shellcheck disable=SC2086
list=$(ds_run $DEMO list) || ds_fail "list failed"
ndrv=$(echo "$list" | grep -cE '^  sim[0-9]+ ')
[ "$ndrv" -ge 8 ] || ds_fail "demo rig has only $ndrv drives"

ds_start 120 50 -- "$DEMO"
ds_wait '88SE9485' "the 88SE9485 controller"
for d in $(echo "$list" | awk '/^  sim[0-9]+ / {print $1}'); do
	ds_screen | grep -qE "│  $d +" || ds_fail "drive $d not in the inventory tree"
done
for c in $(echo "$list" | awk '/^ctrl[0-9]+ / {print $1}'); do
	ds_screen | grep -qE "│$c " || ds_fail "controller $c not in the tree"
done
ds_screen | grep -q 'Details' || ds_fail "no details panel"
ds_golden home-utf8

# The details follow the selection: a drive shows its SMR evidence.
ds_keys j
ds_wait 'SMR assessment' "drive details"
ds_keys g
ds_wait 'PCIe link' "controller details"

# A mouse click selects: the line of sim8 (below ctrl0, 8 drives, ctrl1).
row=$(ds_screen | grep -n '│  sim8 ' | cut -d: -f1)
ds_click 10 $((row - 1))
ds_wait 'path +sim:sim8' "sim8's details after a click"

ds_keys g
ds_keys '?'
ds_wait 'Help: keys' "the help overlay"
ds_golden help-utf8
ds_keys x
ds_wait_gone 'Help: keys'

ds_keys q
st=$(ds_wait_exit)
[ "$st" = 0 ] || ds_fail "exit status $st after q"
ds_screen | grep -q '^\[tty isig icanon echo' || ds_fail "terminal modes not restored"

# ASCII: a non-UTF-8 locale gets plain characters only.
ds_start 120 50 LANG=C -- "$DEMO"
ds_wait '88SE9485' "the 88SE9485 controller (ASCII)"
ds_screen | LC_ALL=C grep -q '[^[:print:][:space:]]' && ds_fail "non-ASCII bytes in ASCII mode"
ds_golden home-ascii
ds_keys q
ds_wait_exit >/dev/null
echo "home screen ok: $ndrv drives listed"
