#!/bin/sh
# board-fail.sh - a fail rule on the bench board, live: three peer disks on
# ds-faultdev (direct-io loop devices, 10 MB/s each so the full pass lasts),
# disk1 with 16 MiB unreadable at LBA 20480 (10 MiB).  --max-bad 4 ends
# disk1's read at its 4th bad block: its board row shows FAIL with the
# rule's reason while disk0 and disk2 still read; after the run the board
# and the summary show it FAIL, the others not, exit 1.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/../fault/lib.sh"
ds_need_fault
"$BIN" run triage --help 2>/dev/null | grep -q -- "--max-bad" || ds_skip "$BIN triage has no --max-bad"

fault_start --disks 3 --size 256M --fill random -c "rate 0:10 1:10" -c "disk1 eio 20480 53247 read"
for d in 0 1 2; do
	fault_loop $d
	eval "L$d=\$FLOOP"
done
N0=${L0#/dev/} N1=${L1#/dev/} N2=${L2#/dev/}

ds_start 200 50 -- "--no-ata triage $L0 $L1 $L2 --mode full --solo-time 1s --max-bad 4"
ds_wait 'triage.* running' "the run shown live"
ds_wait 'Board +3 drives' "the board"
# (the verdict column holds the reason's start: "FAIL: bad blocks: 4 (4 unreadable, ...")
ds_wait "$N1 .*FAIL: bad blocks: 4 " "$N1's row: FAIL with the rule's reason, live"
# read after FAIL showed: the others are still at it (28 s of reading left)
scr=$(ds_screen)
echo "$scr" | grep -q 'triage.* running' || ds_fail "the run ended with the fail rule"
for n in $N0 $N2; do
	echo "$scr" | grep -E "$n " | grep -q 'reading' || ds_fail "$n not reading while $N1 shows FAIL"
done
ds_wait 'Result: triage' "the result after the run"
ds_wait "$N1 .*FAIL: " "$N1 FAIL on the board after the run"
# the others are judged on their reads (a busy machine may give one a slow
# range: WARN); only the rule's drive fails
for n in $N0 $N2; do
	ds_wait " $n +[?] +[?] .*(PASS|WARN)" "$n judged after the run"
	ds_screen | grep -E " $n +[?] +[?] " | grep -q FAIL && ds_fail "$n FAIL on the board"
done
ds_wait "summary: 3 drives: [0-9] pass, [0-9] warn, 1 fail: $N1 unreadable at LBA 20480-" "the summary: $N1 the one FAIL"
ds_keys q
st=$(ds_wait_exit)
[ "$st" = 1 ] || ds_fail "exit status $st, want 1"
echo "board fail ok"
