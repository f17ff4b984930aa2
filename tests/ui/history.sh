#!/bin/sh
# history.sh - the dashboard's details panel shows a drive's bench history:
# its rate among the drives of its model recorded here, and its last runs
# (issue 14: "the dashboard's details panel shows the drive's last runs and
# its percentile among peers").  Three WD40EZRX peers are recorded into a
# database of the test's own; sim0, re-tested, sits among the other two.
. "$(dirname "$0")/lib.sh"
ds_need_tmux
ds_need_bin

DB="$FIX/h.db"
for d in sim0 sim1 sim2 sim0; do
	# shellcheck disable=SC2086
	ds_run --db "$DB" $DEMO run seqread "$d" --time 1 >/dev/null 2>&1 || ds_fail "recording seqread $d"
done
n=$(ds_run --db "$DB" history sim0 --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["history"]["drives"][0]["runs"]))') \
	|| ds_fail "history sim0 --json"
[ "$n" -eq 2 ] || ds_fail "sim0 has $n runs recorded, want 2"

ds_start 200 50 -- --db "$DB" "$DEMO"
ds_wait '88SE9485' "the home screen"
row=$(ds_screen | grep -n '│  sim0 ' | cut -d: -f1)
[ -n "$row" ] || ds_fail "no sim0 row"
ds_click 10 $((row - 1))
ds_wait 'path +sim:sim0' "sim0's details"
ds_wait 'History: reads 1[0-9][0-9] MB/s, [0-9]+(st|nd|rd|th) percentile of 2 WDC WD40EZRX-00SPEB0' \
	"sim0's rate among its 2 recorded peers"
[ "$(ds_screen | grep -cE '│   [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2} seqread 1[0-9]{2}\.[0-9] MB/s +│')" -eq 2 ] ||
	ds_fail "sim0's two runs not listed: $(ds_screen | grep -A4 History)"
# a drive never tested here says so, not a rate of 0
row=$(ds_screen | grep -n '│  sim5 ' | cut -d: -f1)
ds_click 10 $((row - 1))
ds_wait 'path +sim:sim5' "sim5's details"
ds_wait 'History: no run of this drive recorded yet' "sim5 has no history"
ds_keys q
ds_wait_exit 0
echo PASS
