#!/bin/sh
# board.sh - the bench board (`diskscope triage` in a terminal): five
# WD40EZRX peers (tests/fixtures/sim/triage.rig) where sim2 is the weak unit
# and sim4 the flawed one.  Live: a row per drive with its slot, progress and
# strip; Enter opens a drive's detail and Esc comes back without stopping the
# run; the flawed unit's read errors show as they happen and put it first in
# the order by verdict.  Finished: each row's verdict (sim2 WARN, sim4 FAIL,
# the others PASS), o orders by verdict (the FAIL row first), Enter on it
# shows its evidence, Esc goes back; a click selects a row.  In ASCII the
# strip is ASCII.
. "$(dirname "$0")/lib.sh"
ds_need_tmux
ds_need_bin
F=$(cd "$(dirname "$0")/../fixtures/sim" && pwd)
RIG="--sim-model $F/WD40EZRX-WEAK.drive --sim-model $F/WD40EZRX-FLAWED.drive --rig $F/triage.rig"
ROW='port[0-9] +sim:sim[0-9]'	# a board row: the slot's port, then the drive

# The board's rows, in screen order, as "simN VERDICT".
rows() {
	ds_screen | grep -E "$ROW" | sed -E 's/.*(sim:sim[0-9]) .*(PASS|WARN|FAIL).*/\1 \2/' | grep -E '^sim:sim[0-9] '
}

# The first words of the rows: which drive, in screen order.
rows_live() {
	ds_screen | grep -E "$ROW" | sed -E 's/.*(sim:sim[0-9]) .*/\1/'
}

# ---- live ----
ds_start 200 60 -- "$DEMO $RIG --sim-speed 1 triage sim0 sim1 sim2 sim3 sim4 --solo-time 1"
ds_wait 'triage.* running' "the run shown live"
ds_wait 'Board +5 drives, by slot' "the board"
ds_wait 'Slot +Drive +Model +Serial +Done +Now +Temp +ms/MB by position +Verdict' "the board's columns"
for i in 0 1 2 3 4; do
	ds_wait "03:00.0 port$i +sim:sim$i +WDC WD40EZRX" "sim$i's row with its slot and model"
done
ds_wait "$ROW .*[0-9.]+ MB/s .*reading" "a drive reading, with its rate"
n=$(ds_screen | grep -cE "$ROW")
[ "$n" = 5 ] || ds_fail "$n board rows, want 5"
ds_keys Enter
ds_wait 'Board: sim:sim0 +\(Esc back\)' "sim0's detail"
ds_wait 'Read rate by position' "its curve"
ds_wait 'WD-WCC4ESIM0000' "its serial"
ds_keys Escape
ds_wait 'Board +5 drives' "the board again after Esc"
ds_screen | grep -q 'triage.* running' || ds_fail "Esc on the detail stopped the run"
# the flawed unit's band (at 10 % of the drive) shows live as read errors,
# and the order by verdict puts it first while the others read on
ds_wait 'WD-WCC4EFLAW004 .*read errors: [0-9]+' "the flawed unit's live errors"
ds_keys o
ds_wait 'Board +5 drives, by verdict' "the order by verdict, live"
first=$(rows_live | head -1)
[ "$first" = "sim:sim4" ] || ds_fail "live by verdict: first row $first, want sim:sim4"
ds_keys s
ds_wait 'Result: triage' "the result after stop"
ds_keys q
ds_wait_exit >/dev/null

# ---- finished ----
ds_start 200 60 -- "$DEMO $RIG --sim-speed 0 triage sim0 sim1 sim2 sim3 sim4"
ds_wait 'Result: triage' "the result view"
ds_wait 'Board +5 drives' "the board after the run"
ds_wait 'WD-WCC4EWEAK002 .*WARN: SLOW' "the weak unit's row: WARN"
ds_wait 'WD-WCC4EFLAW004 .*FAIL: unreadable at LBA' "the flawed unit's row: FAIL"
got=$(rows | tr '\n' ' ')
want="sim:sim0 PASS sim:sim1 PASS sim:sim2 WARN sim:sim3 PASS sim:sim4 FAIL "
[ "$got" = "$want" ] || ds_fail "by slot: rows '$got', want '$want'"
ds_keys o
ds_wait 'Board +5 drives, by verdict' "the order by verdict"
got=$(rows | tr '\n' ' ')
want="sim:sim4 FAIL sim:sim2 WARN sim:sim0 PASS sim:sim1 PASS sim:sim3 PASS "
[ "$got" = "$want" ] || ds_fail "by verdict: rows '$got', want '$want'"
ds_keys Home Enter
ds_wait 'Board: sim:sim4 +\(Esc back\)' "the FAIL row's detail"
ds_wait 'unreadable: LBA 781312000-781314047' "its unreadable extent"
ds_wait 'SMART' "its SMART line"
# every figure of the test's table with its unit (issue 20)
ds_wait 'Solo: [0-9.]+ MB/s' "the solo rate in MB/s"
ds_wait 'Slowest read: [0-9.]+ ms' "the slowest read in ms"
ds_wait 'Temp: [0-9.]+°C' "the temperature in °C"
ds_keys Escape
ds_wait 'Board +5 drives, by verdict' "back on the board"
ds_keys o
ds_wait 'Board +5 drives, by slot' "back to the order by slot"
# a click selects a row (the board starts on screen row 1: frame, header,
# then sim0..sim4 from row 3), Enter opens that one
ds_click 40 6
ds_keys Enter
ds_wait 'Board: sim:sim3 +\(Esc back\)' "the clicked row's detail"
ds_keys Escape
ds_wait 'Board +5 drives' "the board after the clicked detail"
ds_keys q
st=$(ds_wait_exit)
[ "$st" = 1 ] || ds_fail "exit status $st, want 1"

# ---- ASCII: the strip in plain characters ----
ds_start 200 60 -- "$DEMO $RIG --glyphs ascii --sim-speed 0 triage sim0 sim1 sim2 sim3 sim4"
ds_wait 'Result: triage' "the result view (ascii)"
ds_wait "$ROW .*[_.=*#-]{16,} +(PASS|WARN|FAIL)" "an ASCII strip"
ds_screen | grep -E "$ROW" | LC_ALL=C grep -q "$(printf '[\200-\377]')" && ds_fail "non-ASCII on a board row"
ds_keys q
ds_wait_exit >/dev/null
echo "board ok"
