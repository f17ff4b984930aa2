#!/bin/sh
# history: runs of the demo rig are recorded into --db FILE, and `diskscope
# history` answers per drive (its runs, its place among the drives of its
# model, its trend) as text, JSON and CSV.  A database that cannot be opened
# keeps the run in the spool (exit code unchanged) and the next run imports
# it; two runs recording at once both land; --no-history records nothing;
# a bad postgresql:// URL is refused with exit 2; a CSV field with a comma
# or a quote is quoted (RFC 4180); a dashboard run is recorded.
# HISTORY_DB=URL runs the same suite against a PostgreSQL database
# (tests/sys/history-pg.sh starts a throwaway server and sets it).
DS=${DISKSCOPE:-build/diskscope}
[ -x "$DS" ] || { echo "SKIP: $DS not built"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: needs python3 to read the JSON"; exit 77; }
T=$(mktemp -d /tmp/ds-history-XXXXXX)
trap 'rm -rf "$T"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
XDG_DATA_HOME=$T/data; export XDG_DATA_HOME
DB=${HISTORY_DB:-$T/h.db}
run() { "$DS" --demo run seqread "$@" --time 2 --db "$DB" >/dev/null 2>"$T/err"; }
js() {	# PYTHON-EXPR on the document d, from stdin
  python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"
}

for s in 1 2 3; do run sim:WD40EZRX --seed $s || fail "run seed $s: exit $?"; done
[ -n "${HISTORY_DB:-}" ] || [ -s "$DB" ] || fail "--db $DB not created"
[ -e "$XDG_DATA_HOME/diskscope/history.db" ] && fail "--db given, the default database was written too"
"$DS" history sim:WD40EZRX --db "$DB" > "$T/out" || fail "history: exit $?"
cat "$T/out"
[ "$(grep -c ' seqread ' "$T/out")" = 3 ] || fail "3 runs of sim:WD40EZRX expected"
grep -q 'trend: ' "$T/out" || fail "no trend line"
n=$("$DS" history sim:WD40EZRX --json --db "$DB" | js 'len(d["history"]["drives"][0]["runs"])')
[ "$n" = 3 ] || fail "JSON: $n runs, 3 expected"

# four drives of one model: where does sim1 stand among the others
for d in sim0 sim1 sim2 sim3; do run "$d" || fail "run $d: exit $?"; done
"$DS" history sim1 --db "$DB" > "$T/out" || fail "history sim1: exit $?"
cat "$T/out"
grep -Eq 'sim:sim1 reads [0-9]+ MB/s: [0-9]+(st|nd|rd|th) percentile of 3 WDC WD40EZRX-00SPEB0 tested here' "$T/out" ||
  fail "no percentile line among 3 others"
"$DS" history WD-WCC4ESIM0002 --json --db "$DB" > "$T/j" || fail "history by serial: exit $?"
[ "$(js 'd["history"]["drives"][0]["target"], d["history"]["drives"][0]["peers"]["others"]' < "$T/j")" = "sim:sim2 3" ] ||
  fail "by serial: $(cat "$T/j")"
n=$("$DS" history --model 'WDC WD40EZRX-00SPEB0' --json --db "$DB" | js 'len(d["history"]["drives"])')
[ "$n" = 4 ] || fail "--model: $n drives, 4 expected"
n=$("$DS" history --since 2999-01-01 --json --db "$DB" | js 'len(d["history"]["drives"])')
[ "$n" = 0 ] || fail "--since in the future: $n drives"
"$DS" history --since yesterday --db "$DB" 2>/dev/null; [ $? = 2 ] || fail "--since yesterday: exit 2 expected"
"$DS" history --csv "$T/h.csv" --db "$DB" >"$T/h.out" 2>"$T/h.err" || fail "--csv: exit $?"
[ -s "$T/h.out" ] && fail "--csv FILE also printed the text history: $(head -2 "$T/h.out")"
grep -qx "history: $T/h.csv" "$T/h.err" || fail "--csv FILE does not say where it wrote: $(cat "$T/h.err")"
[ "$(head -1 "$T/h.csv" | cut -d, -f1-3)" = "target,model,serial" ] || fail "CSV header: $(head -1 "$T/h.csv")"
[ "$(wc -l < "$T/h.csv")" = 8 ] || fail "CSV: $(wc -l < "$T/h.csv") lines, 1 + 7 runs expected"

# --no-history: nothing recorded
"$DS" --demo run seqread sim0 --time 2 --no-history --db "$DB" >/dev/null 2>&1 || fail "--no-history run failed"
n=$("$DS" history sim0 --json --db "$DB" | js 'len(d["history"]["drives"][0]["runs"])')
[ "$n" = 1 ] || fail "--no-history: sim0 has $n runs"

# a bad PostgreSQL URL is refused in one line, nothing runs
"$DS" --demo run seqread sim0 --time 2 --db 'postgresql://bench/h?nosuch=1' >"$T/out" 2>"$T/err"
[ $? = 2 ] || fail "bad postgresql:// URL: exit 2 expected"
[ "$(wc -l < "$T/err")" = 1 ] && grep -q 'not a PostgreSQL URL' "$T/err" || fail "bad URL: $(cat "$T/err")"
[ -s "$T/out" ] && fail "bad URL: the run ran"
n=$("$DS" history sim0 --json --db "$DB" | js 'len(d["history"]["drives"][0]["runs"])')
[ "$n" = 1 ] || fail "bad URL: sim0 has $n runs"

# a database that cannot be opened: the run still exits 0, its JSON is spooled
: > "$T/file"
"$DS" --demo run seqread sim5 --time 2 --db "$T/file/h.db" >/dev/null 2>"$T/err" || fail "unwritable db changed the exit code"
cat "$T/err"
grep -q 'history: .*kept in' "$T/err" || fail "no spool notice"
[ "$(ls "$XDG_DATA_HOME/diskscope/spool" | wc -l)" = 1 ] || fail "spool: $(ls "$XDG_DATA_HOME/diskscope/spool")"
run sim6 || fail "run sim6: exit $?"
grep -q 'imported 1 spooled run' "$T/err" || fail "no import notice: $(cat "$T/err")"
[ "$(ls "$XDG_DATA_HOME/diskscope/spool" | wc -l)" = 0 ] || fail "spool not emptied"
"$DS" history sim5 --db "$DB" | grep -q ' seqread ' || fail "the spooled run is not in the history"

# two processes recording into one database at once both land
run sim7 & p1=$!
"$DS" --demo run seqread sim7 --time 2 --db "${HISTORY_DB:-sqlite:$DB}" >/dev/null 2>"$T/err2" & p2=$!
wait $p1 || fail "concurrent run 1: exit $?"
wait $p2 || fail "concurrent run 2: exit $? $(cat "$T/err2")"
n=$("$DS" history sim7 --json --db "$DB" | js 'len(d["history"]["drives"][0]["runs"])')
[ "$n" = 2 ] || fail "concurrent: sim7 has $n runs, 2 expected"
# CSV per RFC 4180: a model name with a comma and a quote is one quoted field
python3 - tests/fixtures/history/seqread-sdb.json "$XDG_DATA_HOME/diskscope/spool/c5c5.json" <<'PY' || fail "spool fixture"
import json, os, sys
d = json.load(open(sys.argv[1]))
d["run"]["identity"]["run_id"] = "c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5"
d["run"]["identity"]["targets"][0]["model"] = 'ACME, "Fast" 4TB'
d["run"]["identity"]["targets"][0]["serial"] = "CSV-1"
os.makedirs(os.path.dirname(sys.argv[2]), exist_ok=True)
json.dump(d, open(sys.argv[2], "w"))
PY
"$DS" history CSV-1 --csv "$T/c.csv" --db "$DB" >/dev/null 2>&1 || fail "--csv CSV-1: exit $?"
python3 -c "import csv,sys; r=list(csv.reader(open(sys.argv[1]))); assert len(r)==2 and r[1][1]=='ACME, \"Fast\" 4TB' and r[1][2]=='CSV-1', r" "$T/c.csv" ||
  fail "CSV quoting: $(cat "$T/c.csv")"
grep -q '^sdb,"ACME, ""Fast"" 4TB",CSV-1,' "$T/c.csv" || fail "CSV field not quoted: $(cat "$T/c.csv")"
# a run the dashboard finishes is recorded too (quietly: curses owns the terminal)
if command -v script >/dev/null; then
  TERM=xterm script -qc "'$DS' --demo --sim-speed 0 --frames 100 --db '$DB' seqread sim4 --time 2" /dev/null >/dev/null 2>&1 ||
    fail "dashboard run: exit $?"
  "$DS" history sim4 --db "$DB" | grep -q ' seqread ' || fail "the dashboard's run is not in the history"
fi
# triage's verdict and SMART after each run, per drive: the SMART trend over
# re-tests (the growing unit marks 8 sectors pending during each run)
F=tests/fixtures/sim
TR="--sim-model $F/WD40EZRX-WEAK.drive --sim-model $F/WD40EZRX-FLAWED.drive --sim-model $F/WD40EZRX-HOT.drive"
TR="$TR --sim-model $F/WD40EZRX-GROWING.drive --rig $F/triage-rules.rig"
for i in 1 2; do
  # shellcheck disable=SC2086
  "$DS" $TR triage sim4 sim5 --db "$DB" >/dev/null 2>"$T/err"
  [ $? -le 1 ] || fail "triage sim4 sim5: $(cat "$T/err")"
done
"$DS" history WD-WCC4EGROW005 --db "$DB" >"$T/out" || fail "history of the growing unit: exit $?"
cat "$T/out"
[ "$(grep -c ' triage .* FAIL: SMART 197 grew' "$T/out")" = 2 ] || fail "the growing unit's two triage runs lack their FAIL verdict"
grep -q "SMART (after each triage): reallocated 0 -> 0, pending 8 -> 8 over 2 runs" "$T/out" ||
  fail "no SMART trend for the growing unit"
"$DS" history WD-WCC4EGROW005 --json --db "$DB" >"$T/j" || fail "history --json of the growing unit"
[ "$(js 'd["history"]["drives"][0]["runs"][0]["pending"]' <"$T/j")" = 8 ] || fail "per-run pending not in the JSON"
[ "$(js 'd["history"]["drives"][0]["smart_trend"]["pending"]["last"]' <"$T/j")" = 8 ] || fail "smart_trend not in the JSON"
echo "history: ok"
