#!/bin/sh
# dash-outputs.sh - a test given on the command line that opens the
# dashboard (`diskscope triage sim18 sim19 --json F --csv G` in a terminal)
# writes every output option when its run ends: the same JSON document and
# the same CSV as `diskscope run` (run id and clock aside).  Quit while it
# runs: the partial result, interrupted, as an interrupted `run` writes.  An
# output that cannot be honoured (stdout, which the dashboard draws on; a
# directory that does not exist; two outputs on one file) is refused before
# the dashboard starts: one line, exit 2.  Waits on the result view (it
# stays) and on the program's exit, never on a passing screen.
. "$(dirname "$0")/lib.sh"
ds_need_tmux
ds_need_bin
command -v python3 >/dev/null 2>&1 || ds_skip "no python3"

# ds_refused ARGS WHAT: the dashboard never starts; one line, exit 2.
ds_refused() {
	ds_start 120 30 -- "$DEMO --no-history $1 2>err.txt"
	i=0
	until ds_exited || ds_screen | grep -q '^ diskscope [0-9.]* |'; do
		[ $i -ge $((WAIT * 10)) ] && ds_fail "neither the dashboard nor an exit for $2"
		sleep 0.1
		i=$((i + 1))
	done
	ds_exited || ds_fail "the dashboard started with $2"
	st=$(ds_wait_exit)
	[ "$st" = 2 ] || ds_fail "exit $st with $2, want 2"
	[ "$(wc -l <"$FIX/err.txt")" = 1 ] || ds_fail "not one line for $2: $(cat "$FIX/err.txt")"
	grep -q -- "$3" "$FIX/err.txt" || ds_fail "the line for $2 does not say '$3': $(cat "$FIX/err.txt")"
}

args="triage sim18 sim19 --seed 7"
# shellcheck disable=SC2086
ds_run $DEMO --no-history run $args --json head.json --csv head.csv >/dev/null 2>"$FIX/head.err"
[ -s "$FIX/head.json" ] && [ -s "$FIX/head.csv" ] || ds_fail "headless run wrote no outputs: $(cat "$FIX/head.err")"

ds_start 200 60 -- "$DEMO --no-history --sim-speed 0 $args --json dash.json --csv dash.csv"
# the result view shows the result the outputs were written from (the
# backend writes them when it first hands the result over)
ds_wait 'Result: triage' "the result view"
[ -s "$FIX/dash.json" ] || ds_fail "the run ended and --json dash.json was not written"
[ -s "$FIX/dash.csv" ] || ds_fail "the run ended and --csv dash.csv was not written"
ds_keys q
st=$(ds_wait_exit)
want=$(python3 -c 'import json,sys; print(1 if any(v["level"]=="fail" for v in json.load(open(sys.argv[1]))["run"]["verdicts"]) else 0)' "$FIX/head.json")
[ "$st" = "$want" ] || ds_fail "exit $st after the run, want $want (as run)"

python3 - "$FIX/head.json" "$FIX/dash.json" "$FIX/head.csv" "$FIX/dash.csv" <<'PY' || ds_fail "the dashboard's outputs differ from run's"
import json, sys
h, d = (json.load(open(f)) for f in sys.argv[1:3])
# what differs between any two runs of the same test (two headless runs
# too): the run id and the wall clock (the host's time, a step's seconds and
# CPU time); everything else is the same document
volatile = {".host.time", ".run.started", ".run.identity.run_id", ".run.seconds"}
bad = []
def walk(a, b, path):
    if path in volatile or (path.startswith(".run.steps[") and path.rsplit(".", 1)[1] in ("seconds", "cpu")):
        return
    if type(a) != type(b):
        bad.append("%s: run %s, dashboard %s" % (path, json.dumps(a)[:200], json.dumps(b)[:200]))
    elif isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            walk(a.get(k), b.get(k), path + "." + k)
    elif isinstance(a, list):
        if len(a) != len(b):
            bad.append("%s: %d entries from run, %d from the dashboard" % (path, len(a), len(b)))
        for i, (x, y) in enumerate(zip(a, b)):
            walk(x, y, "%s[%d]" % (path, i))
    elif a != b:
        bad.append("%s: run %s, dashboard %s" % (path, json.dumps(a)[:200], json.dumps(b)[:200]))
walk(h, d, "")
hc, dc = (open(f).read() for f in sys.argv[3:5])
if hc != dc:
    bad.append("CSV differs:\n" + hc[:400] + "\n---\n" + dc[:400])
if bad:
    print("\n".join(bad[:30]))
    sys.exit(1)
print("same document: %d verdicts, %d csv lines" % (len(h["run"]["verdicts"]), hc.count("\n")))
PY

# quit while it runs (real time: minutes): the partial result, interrupted
rm -f "$FIX/dash.json"
ds_start 200 60 -- "$DEMO --no-history --sim-speed 1 $args --json dash.json"
ds_wait 'triage.* running' "the running test"
ds_keys q
ds_wait 'Stop it and quit\?' "the quit question"
ds_keys y
st=$(ds_wait_exit)
[ "$st" = 130 ] || ds_fail "exit $st after q y, want 130"
[ -s "$FIX/dash.json" ] || ds_fail "no JSON after quitting the running test"
python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["run"]; assert r["interrupted"] is True and r["test"] == "triage", r' \
	"$FIX/dash.json" || ds_fail "the partial JSON is not an interrupted triage"

ds_refused "$args --json -" "--json -" "--json -: the dashboard draws on stdout"
ds_refused "$args --csv -" "--csv -" "--csv -: the dashboard draws on stdout"
ds_refused "$args --json /nonexistent/d/x.json" "a missing directory" "--json /nonexistent/d/x.json"
ds_refused "$args --json same.out --csv same.out" "one file twice" "name the same file"

# a write the guard refuses (no --destroy-data), started from the command
# line: exit 3, and every output says so as run's do (failed, refused: rule)
if [ "$(id -u)" = 0 ] && command -v losetup >/dev/null 2>&1; then
	. "$ds_top/tests/lib/loop.sh"
	truncate -s 64M "$FIX/w.img"
	loop_new LW "$FIX/w.img" || ds_fail "losetup"
	trap 'loop_detach "$LW"; ds_cleanup' EXIT INT TERM
	ds_start 160 30 -- "--no-ata --no-history seqwrite $LW --time 1 --json refused.json --csv refused.csv"
	ds_wait 'refused: writing' "the guard's refusal"
	ds_keys q
	st=$(ds_wait_exit)
	[ "$st" = 3 ] || ds_fail "a refused write from the command line: exit $st, want 3"
	python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["run"]
assert r["failed"] is True and r["refused"]["rule"] == "confirmation" and not r["steps"], r' \
		"$FIX/refused.json" || ds_fail "the refused run's JSON does not say failed and refused"
	grep -q refused "$FIX/refused.csv" || ds_fail "the refused run's CSV does not say refused"
else
	echo "note: no root or losetup: the guard's refusal from the dashboard not checked"
fi
echo "dashboard outputs ok"
