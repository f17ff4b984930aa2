#!/bin/sh
# tree-text.sh - the home tree shortens a long controller name, never its
# ceiling (the 88SE9230 line keeps "1000 MB/s" at any width the tree shows);
# the details panel wraps long text at words, never mid-word.
. "$(dirname "$0")/lib.sh"
ds_need_tmux
ds_need_bin

for cols in 160 120 100 80; do
	ds_start "$cols" 40 -- "$DEMO"
	ds_wait '88SE9485' "the tree at $cols columns"
	ds_keys G	# the 88SE9230 is the last controller
	ds_wait '88SE9230' "the 88SE9230 controller at $cols columns"
	line=$(ds_screen | grep -E '^│ctrl[0-9]+ [^│]*88SE9230' | head -1)
	echo "$line" | grep -qE '(ceiling )?1000 MB/s' || ds_fail "$cols columns: the 88SE9230 line lost its ceiling: $line"
	for c in $(ds_screen | sed -nE 's/^│(ctrl[0-9]+) .*/\1/p'); do
		ds_screen | grep -E "^│$c " | grep -qE 'MB/s|ceiling \?|[ ]\?' ||
			ds_fail "$cols columns: $c has no ceiling: $(ds_screen | grep -E "^│$c ")"
	done
	ds_keys q
	ds_wait_exit >/dev/null
done

# The note under the first controller's details is long: every line of the
# details ends at a word's end (the next line starts a word, or is blank).
ds_start 120 40 -- "$DEMO"
ds_wait 'note: pci dump' "the inventory note"
det=$(ds_screen | sed -nE 's/^.*││ (.*[^ ]) *│$/\1/p')
echo "$det" | tr '\n' ' ' | tr -s ' ' | grep -q 'no PCI functions in it (expected `lspci -xxx` hex dump lines)' ||
	ds_fail "the note is not whole once its lines are joined: $det"
echo "$det" | tr '\n' ' ' | tr -s ' ' | grep -q 'Marvell Technology Group Ltd. 88SE9485 SAS/SATA 6Gb/s controller' || ds_fail "the title lost words"
ds_screen | grep -qE '││ .*[A-Za-z]│$' && ds_fail "a details line runs into the border (cut mid-word)"
ds_keys q
ds_wait_exit >/dev/null
echo "tree and details text ok"
