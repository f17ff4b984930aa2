#!/bin/sh
# glyphs.sh - --glyphs overrides the automatic choice: braille by default in
# a UTF-8 locale, block elements with --glyphs block (what TERM=linux gets),
# plain ASCII with --glyphs ascii; frames follow (no line drawing in ASCII).
. "$(dirname "$0")/lib.sh"
ds_need_tmux
ds_need_bin

ctrl=$(ds_run $DEMO list | awk '/88SE9485/ {sub("ctrl", "ctrl:", $1); print $1; exit}')
[ -n "$ctrl" ] || ds_fail "no 88SE9485 in the demo rig"
# Byte patterns (C locale): braille is E2 A0..A3 xx; the blocks ▀ ▄ █.
braille=$(printf '\342[\240-\243]')
has() { ds_screen | LC_ALL=C grep -q "$1"; }
has_blocks() { ds_screen | grep -qF -e "$(printf '\342\226\200')" -e "$(printf '\342\226\204')" \
	-e "$(printf '\342\226\210')"; }

run() {	# run GLYPH-ARGS: a saturate run until the plots have data
	ds_start 100 30 -- "$DEMO --sim-speed 10 $1 saturate $ctrl"
	ds_wait 'step [2-8]/8' "a plot with data ($1)"
}

run ""
has "$braille" || ds_fail "no braille in the default UTF-8 plots"

run "--glyphs block"
has "$braille" && ds_fail "braille with --glyphs block"
has_blocks || ds_fail "no block elements with --glyphs block"

run "--glyphs ascii"
ds_screen | LC_ALL=C grep -q '[^[:print:][:space:]]' && ds_fail "non-ASCII bytes with --glyphs ascii"
ds_screen | grep -q '^+- Throughput' || ds_fail "no ASCII frame"
ds_screen | grep -qE "[.:']{3}" || ds_fail "no ASCII plot dots"

# TERM=linux picks block elements by itself.
ds_start 100 30 TERM=linux -- "$DEMO --sim-speed 10 saturate $ctrl"
ds_wait 'step [2-8]/8' "a plot with data (TERM=linux)"
has "$braille" && ds_fail "braille on TERM=linux"
has_blocks || ds_fail "no block elements on TERM=linux"
ds_keys q y
ds_wait_exit >/dev/null
echo "glyphs ok"
