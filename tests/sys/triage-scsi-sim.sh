#!/bin/sh
# triage-scsi-sim.sh - triage's SCSI health rules and the 520-byte format
# rule end to end on sim SAS drives in virtual time
# (tests/fixtures/sim/triage-scsi.rig): the log pages reach triage through the
# sim drive's source, as a real drive's through the inventory's.
#   sim0, a healthy SAS drive: PASS;
#   sim1, failing (612 grown defects growing by 9, uncorrected read errors
#        growing by 2, failure prediction 5D/10 raised): FAIL with each
#        reason; exit 1.  With the rules relaxed (--scsi-ie warn
#        --scsi-defects warn --scsi-errors off): WARN.
#   sim2, formatted to 520-byte blocks: WARN "needs a low-level format",
#        with the fix; the history keeps the drives' SCSI health; a write
#        test on it is refused (exit 3, "refused"
#        rule "format" in the JSON) and a read test is not.
DS=${DISKSCOPE:-build/diskscope}
[ -x "$DS" ] || { echo "SKIP: $DS not built"; exit 77; }
"$DS" run triage --help 2>/dev/null | grep -q -- "--scsi-ie" || { echo "SKIP: $DS triage has no --scsi-ie"; exit 77; }
T=$(mktemp -d /tmp/ds-triage-scsi-XXXXXX)
trap 'rm -rf "$T"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
export HOME="$T"	# the history spool of this run stays here
F=$(dirname "$0")/../fixtures/sim
SIM="--rig $F/triage-scsi.rig"

# shellcheck disable=SC2086
"$DS" $SIM triage sim0 sim1 sim2 --region 0:2000000 --seed 3 --json "$T/r.json" >"$T/out" 2>&1
rc=$?
grep -E "^(triage: sim|summary)" "$T/out"
[ $rc -eq 1 ] || fail "exit $rc, want 1: $(tail -5 "$T/out")"
python3 - "$T/r.json" <<'PY' || fail "defaults"
import json, sys
r = json.load(open(sys.argv[1]))["run"]
v = [x for x in r["verdicts"] if x["kind"] == "triage"]
assert [x["level"] for x in v] == ["pass", "fail", "warn"], [x["text"] for x in v]
t = v[1]["text"]
for want in ("informational exception 5D/10: failure prediction threshold exceeded (--scsi-ie)",
             "grown defects +9 during the test, now 621 (--scsi-defects)",
             "uncorrected read errors +2 during the test (--scsi-errors)"):
    assert want in t, (want, t)
ev = v[1]["evidence"]
assert "SCSI grown defects before -> after: 612->621" in ev, ev
assert "SCSI grown defects 621 over --max-grown-defects 100" in ev, ev
assert "temperature: 39 C (limit 55 C)" in ev, ev
assert not any("health not read" in e for e in [v[1]["text"]]), v[1]["text"]
assert "520-byte logical blocks: needs a low-level format to 512 before use" in v[2]["text"], v[2]["text"]
assert any("fix: sg_format --format --size=512" in e and "about 7.4 h" in e for e in v[2]["evidence"]), v[2]["evidence"]
assert not any("grown defects +" in x["text"] for x in (v[0], v[2]))
PY

# the history keeps each drive's SCSI health with the run
"$DS" history >"$T/hist" 2>&1 || fail "history: $(tail -3 "$T/hist")"
grep -q "health (scsi): grown defects 621, read uncorrected 6, write uncorrected 0" "$T/hist" ||
	fail "history has no SCSI health of sim1: $(grep -A2 Z1Z0SIMF "$T/hist")"

# shellcheck disable=SC2086
"$DS" $SIM triage sim1 --region 0:2000000 --seed 3 --scsi-ie warn --scsi-defects warn --scsi-errors off \
    --json "$T/w.json" >"$T/out" 2>&1
rc=$?
grep -E "^triage: sim" "$T/out"
[ $rc -eq 0 ] || fail "relaxed: exit $rc, want 0: $(tail -3 "$T/out")"
python3 - "$T/w.json" <<'PY' || fail "relaxed rules"
import json, sys
v = [x for x in json.load(open(sys.argv[1]))["run"]["verdicts"] if x["kind"] == "triage"]
assert v[0]["level"] == "warn", v[0]
assert "(--scsi-ie)" in v[0]["text"] and "(--scsi-defects)" in v[0]["text"], v[0]["text"]
assert "uncorrected" not in v[0]["text"], v[0]["text"]
PY

# a write test on the 520-byte drive: refused before any I/O
# shellcheck disable=SC2086
"$DS" $SIM run seqwrite sim2 --time 1 --json "$T/s.json" >"$T/out" 2>&1
rc=$?
[ $rc -eq 3 ] || fail "seqwrite on the 520-byte drive: exit $rc, want 3: $(tail -3 "$T/out")"
grep -q "refused: sim:sim2 needs a low-level format to 512 before use: its logical blocks are 520 bytes" "$T/out" ||
	fail "no refusal sentence: $(cat "$T/out")"
python3 - "$T/s.json" <<'PY' || fail "refused JSON"
import json, sys
r = json.load(open(sys.argv[1]))["run"]
assert r["failed"] is True and r["refused"]["rule"] == "format", r.get("refused")
assert not r.get("steps"), r.get("steps")
PY
# the same write on the healthy drive of the same model starts; a read of the 520 one too
# shellcheck disable=SC2086
"$DS" $SIM run seqwrite sim0 --time 1 >"$T/out" 2>&1 || fail "seqwrite on sim0: $(tail -3 "$T/out")"
# shellcheck disable=SC2086
"$DS" $SIM run seqread sim2 --time 1 >"$T/out" 2>&1 || fail "seqread on sim2: $(tail -3 "$T/out")"
echo "PASS: SCSI health rules and the 520-byte format rule on sim SAS drives"
