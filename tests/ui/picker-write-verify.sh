#!/bin/sh
# picker-write-verify.sh - triage's --write-verify on from the dashboard's
# picker: triage does not always write, but with "write-verify=on" typed in
# the test options the picker asks for the confirmation every writing test
# gets (the device, its size, its name typed).  Esc cancels and not one byte
# of the loop device's file changes (checksums before and after); the name
# typed starts the run, which writes its pattern (each sector's LBA, read
# back from the file) and passes.  A bad option word is refused with one line.
. "$(dirname "$0")/../lib/loop.sh"
. "$(dirname "$0")/lib.sh"
ds_need_tmux
ds_need_bin
[ "$(id -u)" = 0 ] || ds_skip "needs root for a loop device"
command -v losetup >/dev/null 2>&1 || ds_skip "losetup not installed"
command -v sha256sum >/dev/null 2>&1 || ds_skip "no sha256sum"
command -v python3 >/dev/null 2>&1 || ds_skip "no python3"
"$BIN" run triage --help 2>/dev/null | grep -q -- "--write-verify" || ds_skip "$BIN triage has no --write-verify"

img="$FIX/disk.img"
head -c 64M /dev/urandom >"$img" || ds_fail "the image"
loop_new dev "$img" 2>/dev/null || ds_skip "no loop device available"
name=${dev#/dev/}
trap 'ds_cleanup_loop' EXIT INT TERM
ds_cleanup_loop() {
	T kill-server >/dev/null 2>&1	# the dashboard holds the device
	loop_detach "$dev"
	ds_cleanup
}
sum() { sync; sha256sum "$img" | cut -d' ' -f1; }
before=$(sum)

ds_start 140 45 -- "--no-ata"
ds_wait "$name" "the loop device in the inventory"
ds_keys / "$name" Enter
ds_wait "Inventory \\[/$name\\]" "the filter"
ds_keys t
ds_wait 'Test picker'
ds_screen | grep -qE "^│ +\\[x\\] $name " || ds_fail "$name not preselected"
ds_pick_walk triage
# the test options: the last parameter field
ds_keys Tab j j j j j j Enter
ds_wait 'test options: type e.g.' "the test options field's hint"
ds_keys "write-verify" Enter
ds_wait 'options: write-verify: not NAME=VALUE' "the refusal of a word without a value"
ds_keys "=maybe" Enter
ds_wait 'write-verify maybe: ' "triage's own refusal of 'maybe'"
ds_keys BSpace BSpace BSpace BSpace BSpace "on" Enter
ds_wait 'test options +\[write-verify=on\]' "the typed option"
ds_keys BTab
ds_keys Enter
ds_wait 'DESTROYS the data' "the confirmation for triage with write-verify on"
ds_screen | grep -q "$dev" || ds_fail "the confirmation does not name $dev"
ds_screen | grep -qE 'size +67.1 MB' || ds_fail "the confirmation does not show the size"
ds_keys Escape
ds_wait 'cancelled: nothing was written' "the cancel notice"
[ "$(sum)" = "$before" ] || ds_fail "the file changed after Esc"

ds_keys Enter
ds_wait 'DESTROYS the data' "the confirmation again"
ds_keys "$name" Enter
ds_wait 'Result: triage' "the result of triage with write-verify"
ds_wait "triage: $name: PASS" "its PASS verdict"
ds_screen | grep -q 'refused' && ds_fail "the guard refused the confirmed device"
ds_keys q
st=$(ds_wait_exit)
[ "$st" = 0 ] || ds_fail "exit status $st, want 0"
[ "$(sum)" != "$before" ] || ds_fail "write-verify wrote nothing"
python3 - "$img" <<'PY' || ds_fail "the pattern on the device"
import struct, sys
with open(sys.argv[1], "rb") as f:
    for lba in (0, 1000, 131071):
        f.seek(lba * 512)
        lb, sd = struct.unpack("<QQ", f.read(16))
        assert lb == lba, (lba, lb)
PY
echo "write-verify from the picker ok ($dev)"
