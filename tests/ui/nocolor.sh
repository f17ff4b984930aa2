#!/bin/sh
# nocolor.sh - NO_COLOR: the dashboard draws without a single colour escape
# (attributes such as reverse video remain); the same screen without
# NO_COLOR does carry colours, so the check can tell the difference.
. "$(dirname "$0")/lib.sh"
ds_need_tmux
ds_need_bin

# The SGR parameters of every escape on screen, one per line.
sgr_params() {
	ds_screen_e | grep -oE "$(printf '\033')\\[[0-9;:]*m" | sed -E 's/^.\[//; s/m$//' | tr ';:' '\n\n'
}
# Colour parameters: 30-38, 40-48, 90-97, 100-107 (38/48 start 256/RGB);
# 39 and 49 are "default colour", which tmux writes after every reset.
has_colour() { sgr_params | grep -qxE '3[0-8]|4[0-8]|9[0-7]|10[0-7]'; }

ds_start 100 30 -- "$DEMO"
ds_wait '88SE9485' "the inventory"
has_colour || ds_fail "no colour escapes without NO_COLOR: the check would prove nothing"
ds_keys q
ds_wait_exit >/dev/null

ds_start 100 30 NO_COLOR=1 -- "$DEMO"
ds_wait '88SE9485' "the inventory under NO_COLOR"
if has_colour; then
	echo "colour parameters seen:"
	sgr_params | sort | uniq -c
	ds_fail "colour escapes under NO_COLOR"
fi
sgr_params | grep -qx 7 || ds_fail "no reverse video: the selection is invisible without colour"
# A theme with colours changes nothing under NO_COLOR.
ds_keys T
ds_wait 'theme: ' "the theme notice"
has_colour && ds_fail "colour escapes under NO_COLOR after T"
ds_keys q
st=$(ds_wait_exit)
[ "$st" = 0 ] || ds_fail "exit status $st"
echo "NO_COLOR ok"
