#!/bin/sh
# triage-provenance-sim.sh - triage's provenance rules end to end on sim
# drives in virtual time (tests/fixtures/sim/triage-provenance.rig, the used
# drive src/sim/models/ST8000USED.drive): the FARM log and the hidden
# capacity reach triage through the inventory, as a real drive's do.
#   sim0, a healthy WD40EZRX without a FARM log: PASS, no provenance line;
#   sim1, SMART 9 reset to 212 h, FARM 23,114 h, 2,097,152 sectors behind
#        an HPA: WARN with both reasons and their figures, evidence lines.
#   Then with --provenance off: PASS, the figures still in the evidence.
DS=${DISKSCOPE:-build/diskscope}
[ -x "$DS" ] || { echo "SKIP: $DS not built"; exit 77; }
"$DS" run triage --help 2>/dev/null | grep -q -- "--provenance" || { echo "SKIP: $DS triage has no --provenance"; exit 77; }
T=$(mktemp -d /tmp/ds-triage-prov-XXXXXX)
trap 'rm -rf "$T"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
F=$(dirname "$0")/../fixtures/sim
SIM="--rig $F/triage-provenance.rig"

# shellcheck disable=SC2086
"$DS" $SIM triage sim0 sim1 --region 0:2000000 --seed 3 --json "$T/r.json" >"$T/out" 2>&1
rc=$?
grep -E "^(triage: sim|summary)" "$T/out"
[ $rc -eq 0 ] || fail "exit $rc, want 0 (a WARN): $(tail -5 "$T/out")"
python3 - "$T/r.json" <<'PY' || fail "defaults"
import json, sys
r = json.load(open(sys.argv[1]))["run"]
v = [x for x in r["verdicts"] if x["kind"] == "triage"]
assert [x["level"] for x in v] == ["pass", "warn"], [x["text"] for x in v]
t = v[1]["text"]
for want in ("FARM mismatch: SMART 9 says 212 h, FARM says 23,114 h (--provenance)",
             "hidden capacity: 2097152 sectors (1.07 GB) by HPA: the test scans only the "
             "15628053168 sectors the drive shows (--provenance)"):
    assert want in t, (want, t)
ev = v[1]["evidence"]
assert any(e.startswith("FARM (sim model): power-on 23,114 h, spindle unknown, head flight unknown, "
                        "serial ZA1USE") for e in ev), ev
assert "FARM mismatch: SMART 9 says 212 h, FARM says 23,114 h" in ev, ev
assert "hidden capacity: 2097152 sectors (1.07 GB) by HPA" in ev, ev
assert not any("FARM" in e or "hidden capacity" in e for e in v[0]["evidence"]), v[0]["evidence"]
PY

# shellcheck disable=SC2086
"$DS" $SIM triage sim0 sim1 --region 0:2000000 --seed 3 --provenance off --json "$T/o.json" >"$T/out" 2>&1
rc=$?
grep -E "^triage: sim:sim1" "$T/out"
[ $rc -eq 0 ] || fail "--provenance off: exit $rc: $(tail -5 "$T/out")"
python3 - "$T/o.json" <<'PY' || fail "--provenance off"
import json, sys
r = json.load(open(sys.argv[1]))["run"]
v = [x for x in r["verdicts"] if x["kind"] == "triage"]
assert [x["level"] for x in v] == ["pass", "pass"], [x["text"] for x in v]
assert "FARM mismatch: SMART 9 says 212 h, FARM says 23,114 h" in v[1]["evidence"], v[1]["evidence"]
PY

# list: the JSON keys (null where a drive was not asked) and the text lines
# shellcheck disable=SC2086
"$DS" $SIM list --json >"$T/l.json" 2>"$T/l.err" || fail "list --json: $(cat "$T/l.err")"
python3 - "$T/l.json" <<'PY' || fail "list --json"
import json, sys
d = {x["name"]: x for x in json.load(open(sys.argv[1]))["inventory"]["drives"]}
assert d["sim0"]["provenance"] is None and d["sim0"]["hidden_capacity"] is None, d["sim0"]
p, h = d["sim1"]["provenance"], d["sim1"]["hidden_capacity"]
assert p["known"] and p["power_on_hours"] == 23114 and p["smart_power_on_hours"] == 212, p
assert p["mismatch"] == "SMART 9 says 212 h, FARM says 23,114 h", p
assert h["known"] and h["hidden_sectors"] == 2097152 and h["source"] == "HPA", h
assert h["reported_sectors"] == 15628053168 and h["native_sectors"] == 15630150320, h
PY
# shellcheck disable=SC2086
"$DS" $SIM list >"$T/l.txt" 2>&1 || fail "list: $(cat "$T/l.txt")"
grep -q "^    FARM 23,114 h (sim model), mismatch: SMART 9 says 212 h, FARM says 23,114 h$" "$T/l.txt" ||
	fail "list text: no FARM line: $(cat "$T/l.txt")"
grep -q "^    hidden capacity: 2097152 sectors (1.07 GB) by HPA$" "$T/l.txt" ||
	fail "list text: no hidden capacity line: $(cat "$T/l.txt")"
[ "$(grep -c "FARM\|hidden capacity" "$T/l.txt")" -eq 2 ] || fail "list text: provenance lines for sim0 too"
echo PASS
