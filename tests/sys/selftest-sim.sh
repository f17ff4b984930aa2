#!/bin/sh
# selftest-sim.sh - drive self-tests orchestrated across sim drives
# (tests/fixtures/sim/selftest.rig): `run selftest` in virtual time
#   sim0, a healthy WD40EZRX: its self-test passes (PASS);
#   sim1, WD40EZRXSTFAIL: its self-test fails at LBA 3907029168 -> FAIL with
#        the LBA and its GB, exit 1;
#   sim2, PM981NOST, an NVMe SSD without Device Self-test: "self-test not
#        supported (OACS)", INFO, not a failure.
# --self-test-timeout bounds a long one (timed out: WARN); triage --self-test
# short puts the result in each drive's verdict (off by default).  Then paced (real
# time, inside a pty so the progress line shows): once both self-tests are
# seen running, SIGINT aborts them on every drive and the run records
# "aborted" (exit 130, interrupted).  It waits on what it can see, never a
# fixed sleep.
DS=${DISKSCOPE:-build/diskscope}
[ -x "$DS" ] || { echo "SKIP: $DS not built"; exit 77; }
"$DS" run selftest --help >/dev/null 2>&1 || { echo "SKIP: $DS has no selftest test"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
T=$(mktemp -d /tmp/ds-selftest-XXXXXX)
P=""
cleanup() { [ -n "$P" ] && kill "$P" 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
F=$(cd "$(dirname "$0")/../fixtures/sim" && pwd)
DSA=$(cd "$(dirname "$DS")" && pwd)/$(basename "$DS")

"$DSA" --rig "$F/selftest.rig" run selftest sim0 sim1 sim2 --kind short --json "$T/r.json" >"$T/out" 2>&1
rc=$?
grep -E "^(selftest: sim|summary)" "$T/out"
[ $rc -eq 1 ] || fail "exit $rc, want 1: $(tail -5 "$T/out")"
python3 - "$T/r.json" <<'PY' || fail "pass, fail with its LBA, not supported"
import json, sys
r = json.load(open(sys.argv[1]))["run"]
assert r["virtual_time"] is True and r["interrupted"] is False
v = [x for x in r["verdicts"] if x["kind"] == "selftest"]
assert [x["level"] for x in v] == ["pass", "fail", "info"], [x["text"] for x in v]
assert v[0]["text"] == "sim:sim0: PASS: short self-test passed", v[0]["text"]
assert "short self-test failed at LBA 3907029168 (2000.399 GB): completed: read failure" in v[1]["text"], v[1]["text"]
assert v[2]["text"] == "sim:sim2: INFO: no short self-test: self-test not supported (OACS)", v[2]["text"]
t = [x for x in r["tables"] if x["name"] == "selftest"][0]
rows = [dict(zip([c["name"] for c in t["columns"]], row)) for row in t["rows"]]
assert [x["result"] for x in rows] == ["passed", "failed", "not supported"], rows
assert rows[1]["failing_lba"] == 3907029168 and abs(rows[1]["failing_gb"] - 2000.399) < 0.001, rows[1]
assert rows[0]["failing_lba"] is None and rows[0]["percent_done"] == 100, rows[0]
# the failing drive stopped where its bad sector is: half way through a short test of 120 s
assert 55 < rows[1]["seconds"] < 65 and rows[0]["seconds"] >= 120, rows
PY
echo "ok: virtual time: pass, FAIL at LBA 3907029168 (2000.399 GB), NVMe without self-test (OACS) is INFO"

"$DSA" --rig "$F/selftest.rig" run selftest sim0 --kind long --self-test-timeout 10m --json "$T/t.json" >"$T/out" 2>&1
rc=$?
[ $rc -eq 0 ] || fail "timeout: exit $rc: $(tail -3 "$T/out")"
python3 - "$T/t.json" <<'PY' || fail "timeout"
import json, sys
r = json.load(open(sys.argv[1]))["run"]
v = [x for x in r["verdicts"] if x["kind"] == "selftest"]
assert v[0]["level"] == "warn" and "long self-test timed out: still running after 600 s: aborted" in v[0]["text"], v
PY
echo "ok: --self-test-timeout 10m aborts a long self-test still running (WARN)"

# triage --self-test short: the self-test after the reads, in each drive's verdict
"$DSA" --rig "$F/selftest.rig" triage sim0 sim1 sim2 --region 0:2000000 --seed 3 --self-test short \
    --json "$T/tr.json" >"$T/out" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "triage --self-test: exit $rc, want 1: $(tail -5 "$T/out")"
python3 - "$T/tr.json" <<'PY' || fail "triage --self-test"
import json, sys
r = json.load(open(sys.argv[1]))["run"]
v = [x for x in r["verdicts"] if x["kind"] == "triage"]
assert [x["level"] for x in v] == ["pass", "fail", "pass"], [x["text"] for x in v]
assert v[1]["text"] == "sim:sim1: FAIL: short self-test failed at LBA 3907029168 (2000.399 GB): completed: read failure", v[1]["text"]
assert "short self-test passed" in v[0]["evidence"], v[0]["evidence"]
assert "no short self-test: self-test not supported (OACS)" in v[2]["evidence"], v[2]["evidence"]
assert r["steps"][-1]["label"] == "short self-test", [s["label"] for s in r["steps"]]
PY
"$DSA" --rig "$F/selftest.rig" triage sim0 sim1 --region 0:2000000 --seed 3 --json "$T/tn.json" >"$T/out" 2>&1
[ $? -eq 0 ] || fail "triage without --self-test: $(tail -3 "$T/out")"
python3 - "$T/tn.json" <<'PY' || fail "triage without --self-test runs none"
import json, sys
r = json.load(open(sys.argv[1]))["run"]
assert all("self-test" not in s["label"] for s in r["steps"]), [s["label"] for s in r["steps"]]
PY
echo "ok: triage --self-test short: FAIL with the LBA in the verdict, not supported as evidence; off by default"

# Paced: the progress line at a terminal (script gives the run a pty)
command -v script >/dev/null || { echo "SKIP: no script(1) for a pty: the SIGINT part not run"; echo PASS; exit 0; }
script -qefc "sh -c 'echo \$\$ >$T/pid; exec $DSA --sim-speed 100 --rig $F/selftest.rig run selftest sim0 sim1 sim2 --kind long --json $T/i.json >$T/iout'" "$T/tty" >/dev/null 2>&1 &
S=$!
P=$S
i=0
until grep -q "sim:sim1 long self-test [0-9]*%" "$T/tty" 2>/dev/null; do
	i=$((i + 1))
	[ $i -lt 300 ] || fail "the self-tests never showed running: $(tail -c 300 "$T/tty")"
	kill -0 $S 2>/dev/null || fail "the run ended before the signal: $(tail -c 300 "$T/tty")"
	sleep 0.1
done
kill -INT "$(cat "$T/pid")"
i=0
while kill -0 $S 2>/dev/null; do
	i=$((i + 1))
	[ $i -lt 300 ] || fail "SIGINT: did not stop"
	sleep 0.1
done
wait $S
P=""
grep -q 'COMMAND_EXIT_CODE="130"' "$T/tty" || fail "SIGINT: not exit 130: $(tail -c 300 "$T/tty")"
python3 - "$T/i.json" <<'PY' || fail "SIGINT: aborted"
import json, sys
r = json.load(open(sys.argv[1]))["run"]
assert r["interrupted"] is True
v = [x for x in r["verdicts"] if x["kind"] == "selftest"]
assert [x["level"] for x in v] == ["info", "info", "info"], [x["text"] for x in v]
for x in v[:2]:
    assert "long self-test aborted: aborted by the host" in x["text"], x["text"]
t = [x for x in r["tables"] if x["name"] == "selftest"][0]
res = [row[[c["name"] for c in t["columns"]].index("result")] for row in t["rows"]]
assert res == ["aborted", "aborted", "not supported"], res
s = [x for x in r["verdicts"] if x["kind"] == "summary"][0]
assert "stopped: the self-tests were aborted" in s["text"], s["text"]
PY
echo "ok: SIGINT while both run: aborted on every drive, exit 130, the run records aborted"
echo PASS
