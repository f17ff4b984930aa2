#!/bin/sh
# report-html.sh - `diskscope report` on real results from the sim rigs, in
# virtual time: a triage of five drives (one weak, one flawed), a saturate
# run on the demo 88SE9485, a surface scan of FLAWED250.  Each page: no
# script, no reference out of the page, every chart line holds exactly the
# points of its result (tests/fixtures/report/check_html.py); the batch page
# lists every drive with its verdict.  Headless Chromium (Debian's chromium,
# installed by tools/deps.sh) renders them: no console message, a PDF of a
# page per drive, a screenshot in which every chart has ink, no page wider
# than a 1200 px window, and the triage table's every column header in the
# PDF's text (pdftotext, poppler-utils).  Controls: a
# chart emptied must fail the ink check, a point dropped the count check, an
# outside image must show in the console.  Bad input: exit 2, one line,
# nothing written.
DS=${DISKSCOPE:-build/diskscope}
[ -x "$DS" ] || { echo "SKIP: $DS not built"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: needs python3 to read the pages"; exit 77; }
"$DS" report --help >/dev/null 2>&1 || { echo "SKIP: $DS has no report command"; exit 77; }
HERE=$(dirname "$0")
CHECK=$HERE/../fixtures/report/check_html.py
F=$HERE/../fixtures/sim
if ! command -v chromium >/dev/null; then
	sh "$HERE/../../tools/deps.sh" >/dev/null 2>&1
	command -v chromium >/dev/null || { echo "SKIP: chromium is not installed and tools/deps.sh could not install it"; exit 77; }
fi
T=$(mktemp -d /tmp/ds-report-html-XXXXXX)
trap 'rm -rf "$T"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
# Chromium as root needs --no-sandbox; its own profile in $T, nothing shared
chrome() {
	timeout -k 5 300 chromium --headless --no-sandbox --disable-gpu --disable-extensions --no-first-run \
		--user-data-dir="$T/profile" --force-device-scale-factor=1 --hide-scrollbars \
		--force-color-profile=srgb --enable-logging=stderr --v=0 "$@" >"$T/chrome.out" 2>"$T/chrome.err"
}
console() { grep -a ':CONSOLE' "$T/chrome.err"; }

# ---- results ----
SIM="--sim-model $F/WD40EZRX-WEAK.drive --sim-model $F/WD40EZRX-FLAWED.drive --rig $F/triage.rig"
# shellcheck disable=SC2086
"$DS" $SIM triage ctrl1 --seed 3 --json "$T/triage.json" >"$T/out" 2>&1
[ $? -eq 1 ] || fail "triage: $(tail -3 "$T/out")"
A=$("$DS" --demo list --json | python3 -c 'import json,sys; print([c["address"] for c in json.load(sys.stdin)["inventory"]["controllers"] if c.get("device_id") == "9485"][0])') \
	|| fail "no demo 88SE9485"
"$DS" --demo run saturate "ctrl:$A" --json "$T/sat.json" >"$T/out" 2>&1 || fail "saturate: $(tail -3 "$T/out")"
"$DS" run surface sim:FLAWED250 --seed 5 --json "$T/surf.json" >"$T/out" 2>&1
[ $? -eq 1 ] || fail "surface: $(tail -3 "$T/out")"

# ---- reports: the default name beside the result, -o FILE, -o - ----
"$DS" report "$T/triage.json" 2>"$T/err" || fail "report triage: $(cat "$T/err")"
[ -s "$T/triage.html" ] || fail "report triage.json wrote no triage.html beside it"
grep -q "^report: $T/triage.html$" "$T/err" || fail "report names its output: $(cat "$T/err")"
"$DS" report "$T/sat.json" -o "$T/sat.html" 2>"$T/err" || fail "report sat: $(cat "$T/err")"
"$DS" report "$T/surf.json" -o - >"$T/surf.html" 2>"$T/err" || fail "report -o -: $(cat "$T/err")"
[ ! -s "$T/err" ] || fail "report -o - said something on stderr: $(cat "$T/err")"
"$DS" report "$T/triage.json" "$T/sat.json" "$T/surf.json" -o "$T/batch.html" 2>"$T/err" || fail "batch: $(cat "$T/err")"
ls "$T"/*.tmp* 2>/dev/null && fail "a temporary left behind"

for p in triage sat surf; do
	python3 "$CHECK" static "$T/$p.html" "$T/$p.json" || fail "$p.html"
done
python3 "$CHECK" static "$T/batch.html" "$T/triage.json" "$T/sat.json" "$T/surf.json" || fail "batch.html"
# every drive of the batch with its verdict: 5 + 8 + 1 rows
python3 "$CHECK" summary "$T/batch.html" triage/sim:sim0=PASS triage/sim:sim1=PASS triage/sim:sim2=WARN \
	triage/sim:sim3=PASS triage/sim:sim4=FAIL saturate/sim:sim7=INFO surface/sim:FLAWED250=FAIL || fail "batch summary"
[ "$(grep -c '<td><a href="#d' "$T/batch.html")" -eq 14 ] || fail "batch summary: not 14 drives"
grep -q 'unreadable at LBA 781312000-781314047' "$T/batch.html" || fail "the flawed drive's first reason"
grep -q '<caption>Bench triage: one row per drive</caption>' "$T/triage.html" || fail "triage table missing"
grep -q 'class="chart saturation"' "$T/sat.html" || fail "no saturation chart"
grep -q 'data-source="by_position" data-points="200"' "$T/surf.html" || fail "no rate-by-position line of 200 slices"
# the control: a point dropped must fail the count
sed '0,/<polyline points="[0-9.]*,[0-9.]* /s//<polyline points="/' "$T/surf.html" >"$T/dropped.html"
cmp -s "$T/surf.html" "$T/dropped.html" && fail "control: no point dropped"
python3 "$CHECK" static "$T/dropped.html" "$T/surf.json" >/dev/null && fail "a dropped point passed the count check"

# hostile strings in a result file (a drive's model, a verdict, a table
# cell, a target name) stay text: no tag, no script, no reference comes through
python3 - "$T/sat.json" "$T/hostile.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = d["run"]
evil = '</style><script>alert(1)</script><img src="http://evil.invalid/x">\u202e&amp;\x01'
r["identity"]["targets"][0]["model"] = evil
r["verdicts"][0]["text"] = evil
r["verdicts"][0]["evidence"].append(evil)
r["tables"][0]["title"] = evil
r["notes"].append(evil)
r["steps"][0]["label"] = evil[:40]
json.dump(d, open(sys.argv[2], "w"))
PY
"$DS" report "$T/hostile.json" -o "$T/hostile.html" 2>"$T/err" || fail "hostile.json: $(cat "$T/err")"
grep -q '&lt;/style&gt;&lt;script&gt;alert(1)&lt;/script&gt;' "$T/hostile.html" || fail "the hostile model is not shown escaped"
python3 "$CHECK" static "$T/hostile.html" "$T/hostile.json" >"$T/o" && fail "hostile.html passed: the check cannot see a URL in text?"
grep -q 'external references' "$T/o" || fail "hostile.html: $(grep PROBLEM "$T/o")"
[ "$(grep -c PROBLEM "$T/o")" -eq 1 ] || fail "hostile.html: more than the escaped URL: $(grep PROBLEM "$T/o")"

# --title heads the page, with the bench and the version
"$DS" report "$T/triage.json" --title 'RMA 4711 <ACME>' -o "$T/titled.html" 2>"$T/err" || fail "--title: $(cat "$T/err")"
grep -q '<h1>RMA 4711 &lt;ACME&gt;</h1>' "$T/titled.html" || fail "--title is not the page's heading"
grep -q '<tr><th>by</th><td>diskscope ' "$T/titled.html" || fail "the header does not name the diskscope version"
grep -q '<tr><th>bench</th><td>' "$T/titled.html" || fail "the header does not name the bench"

# ---- bad input: one line, exit 2, nothing written ----
echo '<p>old</p>' >"$T/keep.html"
echo '{"schema": 1, "tool": {"name": "other"}}' >"$T/other.json"
for bad in "$T/missing.json" "$T/other.json" "$T/out" 0123456789abcdef0123456789abcdef; do
	"$DS" report "$bad" -o "$T/keep.html" >"$T/o" 2>"$T/err"
	rc=$?
	[ $rc -eq 2 ] || fail "report $bad: exit $rc, want 2"
	[ "$(wc -l <"$T/err")" -eq 1 ] || fail "report $bad: not one line: $(cat "$T/err")"
	grep -q "$(basename "$bad")" "$T/err" || fail "report $bad: the line does not name it: $(cat "$T/err")"
	[ "$(cat "$T/keep.html")" = "<p>old</p>" ] || fail "report $bad: the output was touched"
	[ -s "$T/o" ] && fail "report $bad: wrote to stdout"
	echo "bad input: $(cat "$T/err")"
done
"$DS" report "$T/missing.json" 2>/dev/null
[ -e "$T/missing.html" ] && fail "a failed report left missing.html"
"$DS" report "$T/sat.json" -o "$T/sat.json" 2>"$T/err" && fail "report over its own input"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$T/sat.json" || fail "the input was overwritten"
"$DS" report 2>/dev/null; [ $? -eq 2 ] || fail "report without input: want exit 2"
"$DS" report --batch 2026-12-01 -o "$T/keep.html" 2>"$T/err"
rc=$?
[ $rc -eq 2 ] || fail "--batch of a day with no runs: exit $rc, want 2"
[ "$(wc -l <"$T/err")" -eq 1 ] || fail "--batch: not one line: $(cat "$T/err")"
grep -q 2026-12-01 "$T/err" || fail "--batch: the line does not name the day: $(cat "$T/err")"
[ "$(cat "$T/keep.html")" = "<p>old</p>" ] || fail "--batch: the output was touched"

# ---- from the history: a RUN-ID (or its 8-digit prefix) and --batch DAY ----
H="--db $T/h.db"
# shellcheck disable=SC2086
"$DS" $H $SIM triage ctrl1 --seed 3 --json "$T/rec.json" >"$T/out" 2>&1
[ $? -eq 1 ] || fail "triage recorded: $(tail -3 "$T/out")"
ID=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["run"]["identity"]["run_id"])' "$T/rec.json")
# shellcheck disable=SC2086
"$DS" $H report "$(echo "$ID" | cut -c1-8)" -o "$T/id.html" 2>"$T/err" || fail "report RUN-ID: $(cat "$T/err")"
grep -q "$ID" "$T/id.html" || fail "report RUN-ID: the page lacks the run id $ID"
python3 "$CHECK" summary "$T/id.html" triage/sim:sim0=PASS triage/sim:sim2=WARN triage/sim:sim4=FAIL \
	|| fail "report RUN-ID summary"
# shellcheck disable=SC2086
"$DS" $H --demo run seqread sim0 --time 1 >/dev/null 2>&1 || fail "seqread recorded"
# shellcheck disable=SC2086
"$DS" $H report --batch "$(date +%F)" -o "$T/day.html" 2>"$T/err" || fail "report --batch today: $(cat "$T/err")"
[ "$(grep -c '<td><a href="#d' "$T/day.html")" -eq 6 ] || fail "--batch today: not the 5 + 1 drives of its two runs"
grep -q 'unreadable at LBA 781312000-' "$T/day.html" || fail "--batch today: the flawed drive's reason"

# ---- Chromium ----
# the saturate page whole (10 charts: saturation, step by step, 8 histograms): no console message, every chart inked
chrome --window-size=1200,11000 --screenshot="$T/sat.png" "file://$T/sat.html"
[ -s "$T/sat.png" ] || fail "chromium wrote no screenshot: $(tail -3 "$T/chrome.err")"
console && fail "console messages on sat.html"
python3 "$CHECK" png "$T/sat.png" "$T/sat.html" || fail "sat.png"
# the batch to PDF: a page per drive at least (print rules), no console message
chrome --no-pdf-header-footer --print-to-pdf="$T/batch.pdf" "file://$T/batch.html"
console && fail "console messages on batch.html"
python3 "$CHECK" pdf "$T/batch.pdf" 14 || fail "batch.pdf"
# a 1200 px window holds every page: no horizontal overflow (a copy with a
# measuring script, the CSP that forbids it taken out: --dump-dom after load)
fits() {	# PAGE: the document's scrollWidth in a 1200 px window
	python3 "$CHECK" measure "$1" "$T/measure.html" || return 1
	chrome --window-size=1200,900 --dump-dom "file://$T/measure.html"
	cp "$T/chrome.out" "$T/dom.html"
	python3 "$CHECK" overflow "$T/dom.html" 1200
}
for p in triage sat surf batch; do
	fits "$T/$p.html" || fail "$p.html is wider than a 1200 px window"
done
# the control: an element wider than the window must be seen
sed 's|<h1>|<div style="width:1500px">wide</div><h1>|' "$T/triage.html" >"$T/wide.html"
fits "$T/wide.html" >"$T/o" && fail "control: a 1500 px element passed the width check"
grep -q "px wide in a 1200 px window" "$T/o" || fail "control: $(tail -2 "$T/o")"
# printed, the triage table keeps every column: each header in pdftotext's text
if command -v pdftotext >/dev/null || sh "$HERE/../../tools/deps.sh" >/dev/null 2>&1; then
	chrome --no-pdf-header-footer --print-to-pdf="$T/triage.pdf" "file://$T/triage.html"
	pdftotext "$T/triage.pdf" "$T/triage.txt" || fail "pdftotext triage.pdf"
	python3 "$CHECK" headers "$T/triage.txt" "$T/triage.json" triage || fail "triage.pdf"
	# the control: a header the table does not have must be missed
	python3 - "$T/triage.json" "$T/extra.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t = [t for t in d["run"]["tables"] if t["name"] == "triage"][0]
t["columns"].append({"name": "nowhere", "title": "Nowhere to be seen", "type": "string"})
json.dump(d, open(sys.argv[2], "w"))
PY
	python3 "$CHECK" headers "$T/triage.txt" "$T/extra.json" triage >"$T/o" && fail "control: a missing header passed"
	grep -q "Nowhere to be seen" "$T/o" || fail "control: $(tail -2 "$T/o")"
else
	echo "note: pdftotext (poppler-utils) missing: the PDF's column headers not checked"
fi

# the controls: the surface page with its lines and bars taken out and an
# outside image put in: the ink check must fail, the console must complain
python3 - "$T/surf.html" "$T/empty.html" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
s = re.sub(r'(<g class="series[^>]*>).*?</g>', r'\1</g>', s, flags=re.S)
s = s.replace("<h1>", '<img src="https://example.invalid/x.png" alt=""><h1>', 1)
open(sys.argv[2], "w").write(s)
PY
chrome --window-size=1200,1500 --screenshot="$T/empty.png" "file://$T/empty.html"
console | grep -q "example.invalid" || fail "control: an outside image did not show in the console"
python3 "$CHECK" png "$T/empty.png" "$T/empty.html" 2 >"$T/o" && fail "control: empty charts passed the ink check"
grep -q "is blank" "$T/o" || fail "control: $(tail -2 "$T/o")"
chrome --window-size=1200,1500 --screenshot="$T/surf.png" "file://$T/surf.html"
console && fail "console messages on surf.html"
python3 "$CHECK" png "$T/surf.png" "$T/surf.html" 2 || fail "surf.png"
echo PASS
