#!/bin/sh
# cmdline-write.sh - `diskscope seqwrite DEV --destroy-data=DEV` starts the
# dashboard straight into the write test: the command line's confirmation
# is the confirmation (no refusal), the device is written.  A test picked
# afterwards in the picker runs on the targets picked there, not on the
# command line's.
. "$(dirname "$0")/../lib/loop.sh"
. "$(dirname "$0")/lib.sh"
ds_need_tmux
ds_need_bin
[ "$(id -u)" = 0 ] || ds_skip "needs root for loop devices"
command -v losetup >/dev/null 2>&1 || ds_skip "losetup not installed"

truncate -s 64M "$FIX/a.img" "$FIX/b.img"
loop_new deva "$FIX/a.img" 2>/dev/null || ds_skip "no loop device available"
loop_new devb "$FIX/b.img" 2>/dev/null || { losetup -d "$deva"; ds_skip "no second loop device"; }
trap 'loop_detach "$deva"; loop_detach "$devb"; ds_cleanup' EXIT INT TERM
namea=${deva#/dev/} nameb=${devb#/dev/}
printf 'DISKSCOPE-MARKER' | dd of="$deva" conv=notrunc status=none
sync

ds_start 120 40 -- "--no-ata seqwrite $deva --destroy-data=$deva --time 1"
ds_wait 'Result: seqwrite|refused|needs --destroy-data' "the write test's result"
ds_screen | grep -qE 'refused|needs --destroy-data' && ds_fail "the command line's confirmation was not used"
ds_screen | grep -qE "^│ +$namea +[0-9]" || ds_fail "the result table has no row for $namea"
head -c 16 "$deva" | grep -q DISKSCOPE-MARKER && ds_fail "$deva was not written"

# Now pick seqread on the other loop device in the picker.
ds_keys Escape
ds_keys / "$nameb" Enter
ds_wait "Inventory \\[/$nameb\\]" "the filter"
# TRIM: the details panel says what `list` and `list --json` say
ds_wait 'TRIM +(yes|no|unknown)' "the details of $nameb"
want=$(ds_run --no-ata list --json 2>/dev/null | python3 -c 'import json,sys
n=sys.argv[1]; t=[d["trim"]["supported"] for d in json.load(sys.stdin)["inventory"]["drives"] if d["name"]==n][0]
print({True:"yes",False:"no",None:"unknown"}[t])' "$nameb")
ds_screen | grep -qE "TRIM +$want" || ds_fail "details TRIM differs from list --json ($want)"
ds_keys t
ds_wait 'Test picker'
ds_screen | grep -qE "^│ +\\[x\\] $nameb " || ds_fail "$nameb not preselected"
ds_keys g Enter
ds_wait 'Result: seqread' "the picked test's result"
ds_screen | grep -qE "^│ +$nameb +[0-9]" || ds_fail "the picked run is not on $nameb"
ds_screen | grep -qE "^│ +$namea +[0-9]" && ds_fail "the picked run still uses the command line's $namea"
ds_keys q
st=$(ds_wait_exit)
[ "$st" = 0 ] || ds_fail "exit status $st"
echo "command-line write test ok ($deva, then $devb)"
