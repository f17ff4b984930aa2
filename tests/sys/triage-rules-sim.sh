#!/bin/sh
# triage-rules-sim.sh - triage's per-drive fail rules on sim drives in virtual
# time (tests/fixtures/sim/triage-rules.rig): five WD40EZRX peers, a full read
# of LBA 780000000-790000000 (5 GB across the flawed unit's band at 781250000).
#   sim1 (40 % slower): --fail-below 70 fails it alone, not read together;
#   sim2 (unreadable band): --max-bad 8 stops it at its 8th bad block, its
#        peers read all 5 GB;
#   sim3 (61 C in SMART): over --max-temp 55, not read at all;
#   sim2's self-test log gains a failed extended test during the run: FAIL
#        "new failed self-test at LBA 781250123";
#   sim5 marks 8 sectors pending during the run: FAIL by --new-sectors
#        (WARN with --new-sectors warn; off: only "SMART 197 is 8" warns);
#   sim0, sim4: PASS.  Exit 1.  Then without the rules (--max-bad 0,
#   --fail-below 0, --max-temp 70) sim1 and sim3 are read and sim2 reads on
#   through the band to the end of the region.
DS=${DISKSCOPE:-build/diskscope}
[ -x "$DS" ] || { echo "SKIP: $DS not built"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: needs python3 to read the JSON"; exit 77; }
"$DS" run triage --help 2>/dev/null | grep -q -- "--max-bad" || { echo "SKIP: $DS triage has no --max-bad"; exit 77; }
T=$(mktemp -d /tmp/ds-triage-rules-XXXXXX)
trap 'rm -rf "$T"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
F=$(dirname "$0")/../fixtures/sim
SIM="--sim-model $F/WD40EZRX-WEAK.drive --sim-model $F/WD40EZRX-FLAWED.drive --sim-model $F/WD40EZRX-HOT.drive"
SIM="$SIM --sim-model $F/WD40EZRX-GROWING.drive"
SIM="$SIM --rig $F/triage-rules.rig"
REG="--mode full --region 780000000:790000000 --seed 3"

# shellcheck disable=SC2086
"$DS" $SIM triage ctrl1 $REG --max-bad 8 --fail-below 70 --json "$T/r.json" >"$T/out" 2>&1
rc=$?
grep -E "^(triage: sim|summary)" "$T/out"
[ $rc -eq 1 ] || fail "rules: exit $rc, want 1: $(tail -5 "$T/out")"
python3 - "$T/r.json" <<'PY' || fail "rules"
import json, sys
r = json.load(open(sys.argv[1]))["run"]
v = [x for x in r["verdicts"] if x["kind"] == "triage"]
assert [x["level"] for x in v] == ["pass", "fail", "fail", "fail", "pass", "fail"], [x["text"] for x in v]
assert "SMART 197 grew by 8 during the test (pending sectors) (--new-sectors)" in v[5]["text"], v[5]
assert "stopped: slow: alone 60 % of its peers' median" in v[1]["text"] and "(--fail-below 70 %)" in v[1]["text"], v[1]
assert "stopped: bad blocks: 8 (8 unreadable, 0 failed writes, 0 mismatched), the last at LBA 781263616 " \
    "(400.007 GB) (--max-bad 8)" in v[2]["text"], v[2]
assert "unreadable at LBA 781249280-781265663 (400.000 GB)" in v[2]["text"], v[2]
assert "not read: too warm before any read: 61 C (--max-temp 55 C)" in v[3]["text"], v[3]
# the self-test log: the flawed unit's extended test failed during the run
t = {x["name"]: x for x in r["tables"]}["triage"]
rows = [dict(zip([c["name"] for c in t["columns"]], row)) for row in t["rows"]]
assert "new failed self-test at LBA 781250123 (400.000 GB): completed: read failure" in rows[2]["reasons"], rows[2]
assert "self-test logged during the run: extended, completed: read failure, at 7871 h, first failing " \
    "LBA 781250123 (400.000 GB)" in v[2]["evidence"], v[2]["evidence"]
assert "SMART self-test log: empty" in v[0]["evidence"], v[0]["evidence"]
assert "self-test" not in rows[0]["reasons"] and "self-test" not in rows[4]["reasons"], rows
steps = {s["label"]: {x["target"]: x["bytes"] for x in s["results"]} for s in r["steps"]}
assert "solo sim:sim3" not in steps and "solo sim:sim1" in steps, list(steps)
full = steps["full read, all drives"]
assert sorted(full) == ["sim:sim0", "sim:sim2", "sim:sim4", "sim:sim5"], full
span = (790000000 - 780000000) * 512 // (1 << 20) * (1 << 20)	# whole 1 MiB blocks
assert full["sim:sim0"] == span and full["sim:sim4"] == span, (full, span)
# to the 8th bad block: the good part before the band and 8 MiB of it
assert full["sim:sim2"] < span // 5, full
print("read together:", full)
PY

# shellcheck disable=SC2086
"$DS" $SIM triage ctrl1 $REG --max-bad 0 --fail-below 0 --max-temp 70 --json "$T/n.json" >"$T/out" 2>&1
rc=$?
grep -E "^(triage: sim|summary)" "$T/out"
[ $rc -eq 1 ] || fail "no rules: exit $rc, want 1 (the unreadable band)"
python3 - "$T/n.json" <<'PY' || fail "without the rules"
import json, sys
r = json.load(open(sys.argv[1]))["run"]
v = [x for x in r["verdicts"] if x["kind"] == "triage"]
assert [x["level"] for x in v] == ["pass", "warn", "fail", "pass", "pass", "fail"], [x["text"] for x in v]
assert "stopped" not in v[2]["text"], v[2]
full = {x["target"]: x["bytes"] for s in r["steps"] if s["label"] == "full read, all drives" for x in s["results"]}
assert len(full) == 6, full
# through the band (781250000-797250000) to the end of the region: all but the failed blocks
span = (790000000 - 780000000) * 512 // (1 << 20) * (1 << 20)
bad = (790000000 - 781249280) * 512 // (1 << 20) * (1 << 20)
assert abs(full["sim:sim2"] - (span - bad)) <= (1 << 20), (full["sim:sim2"], span - bad)
PY
# --new-sectors: the drive that marked 8 sectors pending meanwhile fails by
# default, warns with warn; off leaves only the pending count's own warning
for rule in warn off; do
	# shellcheck disable=SC2086
	"$DS" $SIM triage sim0 sim5 --seed 3 --new-sectors $rule --json "$T/s$rule.json" >"$T/out" 2>&1
	rc=$?
	grep -E "^triage: sim:sim5" "$T/out"
	[ $rc -eq 0 ] || fail "--new-sectors $rule: exit $rc, want 0"
	python3 - "$T/s$rule.json" "$rule" <<'PY' || fail "--new-sectors $rule"
import json, sys
r = json.load(open(sys.argv[1]))["run"]
v = [x for x in r["verdicts"] if x["kind"] == "triage"][1]
assert v["level"] == "warn", v
grew = "SMART 197 grew by 8 during the test (pending sectors) (--new-sectors)" in v["text"]
assert grew == (sys.argv[2] == "warn"), v
assert "SMART 197 is 8 (pending sectors)" in v["text"], v
assert any("197: 0->8" in e for e in v["evidence"]), v["evidence"]
PY
done
echo PASS
