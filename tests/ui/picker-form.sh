#!/bin/sh
# picker-form.sh - the picker's parameters take typed values checked by the
# command line's own parsers (a 20 s duration, a 12k block size; "3x" is
# refused with run's message), Enter on the test list starts the test, and
# the run uses what was typed (the exported JSON says so).  On this machine's
# own drives: the root disk (or one that cannot be opened) under the cursor
# is not pre-selected.
. "$(dirname "$0")/lib.sh"
ds_need_tmux
ds_need_bin

ds_start 120 40 -- "$DEMO --sim-speed 0"
ds_wait '88SE9485' "the demo rig"
ds_keys j
ds_wait 'path +sim:sim0' "sim0 selected"
ds_keys t
ds_wait 'Test picker'
ds_screen | grep -qE '^│ +\[x\] sim0 ' || ds_fail "sim0 not preselected"
ds_keys Tab j j
ds_keys Enter
ds_wait 'duration: type e.g.' "the typed field's hint"
ds_keys 2 0 Enter
ds_wait 'duration +\[20\]' "the typed duration"
ds_keys k k Enter 3 x Enter
ds_wait 'bs 3x: block size must be' "run's own refusal of 3x"
ds_screen | grep -qE 'block size +\[3x_\]' || ds_fail "the refused value left the field"
ds_keys BSpace BSpace 1 2 k Enter
ds_wait 'block size +\[12k\]' "the typed block size"
# Left/Right still walk the presets (queue depth), from the default 8
ds_keys j Right
ds_wait 'queue depth +< 16 >' "the next preset"
ds_keys BTab
ds_keys Enter
ds_wait 'Result: seqread' "the result after Enter on the test list"
ds_screen | grep -q '20.0s measured' || ds_fail "the run did not use the typed 20 s"
ds_keys e
ds_wait 'exported|wrote|diskscope-seqread' "the export"
json=$(ls "$FIX"/diskscope-seqread-*.json 2>/dev/null | head -1)
[ -n "$json" ] || ds_fail "no exported JSON"
python3 - "$json" <<'PY' || ds_fail "exported parameters differ from the form"
import json, sys
p = json.load(open(sys.argv[1]))["run"]["params"]
assert p["bs"] == 12288, p
assert p["qd"] == 16, p
assert abs(p["seconds"] - 20) < 1e-9, p
PY
ds_keys q
ds_wait_exit >/dev/null

# This machine: the root disk is never pre-selected.
root=$(findmnt -n -o SOURCE / 2>/dev/null)
root=$(lsblk -n -d -o PKNAME "$root" 2>/dev/null | head -1)
[ -n "$root" ] || root=$(findmnt -n -o SOURCE / 2>/dev/null | sed 's|^/dev/||')
[ -n "$root" ] && [ -e "/sys/block/$root" ] || { echo "note: no root disk in /sys/block; the picker part on real drives skipped"; echo "picker form ok"; exit 0; }
ds_start 120 40 -- "--no-ata"
ds_wait "$root" "the root disk in the inventory"
ds_keys / "$root" Enter
ds_wait "Inventory \\[/$root\\]" "the filter"
row=$(ds_screen | grep -n "│  $root " | head -1 | cut -d: -f1)
[ -n "$row" ] || ds_fail "no row for $root"
ds_click 10 $((row - 1))
ds_keys t
ds_wait 'Test picker'
ds_wait "$root (holds /|cannot be opened): not pre-selected" "the reason it is not pre-selected"
ds_screen | grep -qE "^│ +\\[ \\] $root " || ds_fail "$root is pre-selected"
ds_keys Escape q
ds_wait_exit >/dev/null
echo "picker form ok"
