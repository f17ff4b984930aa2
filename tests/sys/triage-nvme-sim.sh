#!/bin/sh
# triage-nvme-sim.sh - triage's NVMe health rules end to end on sim drives in
# virtual time (tests/fixtures/sim/triage-nvme.rig, the worn SSD
# src/sim/models/PM981WORN.drive): the NVMe health reaches
# triage through the sim drive's source, as a real drive's through the
# inventory's.
#   sim0, a healthy WD40EZRX: PASS;
#   sim1, a worn NVMe SSD (critical warning 0x05, spare 5 % under a 10 %
#        threshold, 100 % used, 12 media errors growing by 3 during the run):
#        FAIL with each reason and its evidence; exit 1.
#   Then with --nvme-critical off --nvme-spare warn --nvme-media-errors warn
#   --max-wear 0: WARN (spare, media errors), no critical-warning reason.
DS=${DISKSCOPE:-build/diskscope}
[ -x "$DS" ] || { echo "SKIP: $DS not built"; exit 77; }
"$DS" run triage --help 2>/dev/null | grep -q -- "--nvme-critical" || { echo "SKIP: $DS triage has no --nvme-critical"; exit 77; }
T=$(mktemp -d /tmp/ds-triage-nvme-XXXXXX)
trap 'rm -rf "$T"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
F=$(dirname "$0")/../fixtures/sim
SIM="--rig $F/triage-nvme.rig"

# shellcheck disable=SC2086
"$DS" $SIM triage sim0 sim1 --region 0:2000000 --seed 3 --json "$T/r.json" >"$T/out" 2>&1
rc=$?
grep -E "^(triage: sim|summary)" "$T/out"
[ $rc -eq 1 ] || fail "exit $rc, want 1: $(tail -5 "$T/out")"
python3 - "$T/r.json" <<'PY' || fail "defaults"
import json, sys
r = json.load(open(sys.argv[1]))["run"]
v = [x for x in r["verdicts"] if x["kind"] == "triage"]
assert [x["level"] for x in v] == ["pass", "fail"], [x["text"] for x in v]
t = v[1]["text"]
for want in ("NVMe critical warning 0x05: spare below threshold, reliability degraded (--nvme-critical)",
             "NVMe available spare 5% below its threshold 10% (--nvme-spare)",
             "NVMe percentage used 100% (--max-wear 100%)",
             "NVMe media errors grew by 3 during the test (--nvme-media-errors)"):
    assert want in t, (want, t)
ev = v[1]["evidence"]
assert "NVMe health: critical warning 0x05 (spare below threshold, reliability degraded), available spare 5% " \
    "(threshold 10%), percentage used 100%, media errors 15" in ev, ev
assert "NVMe media errors before -> after: 12->15" in ev, ev
assert "temperature: 41 C (limit 55 C)" in ev, ev
assert not any("no SMART rule applied" in e for e in ev), ev
assert not any("NVMe" in e for e in v[0]["evidence"]), v[0]["evidence"]
PY

# shellcheck disable=SC2086
"$DS" $SIM triage sim0 sim1 --region 0:2000000 --seed 3 --nvme-critical off --nvme-spare warn \
    --nvme-media-errors warn --max-wear 0 --json "$T/w.json" >"$T/out" 2>&1
rc=$?
grep -E "^triage: sim:sim1" "$T/out"
[ $rc -eq 1 ] || [ $rc -eq 0 ] || fail "rules off: exit $rc: $(tail -5 "$T/out")"
python3 - "$T/w.json" <<'PY' || fail "rules warn/off"
import json, sys
r = json.load(open(sys.argv[1]))["run"]
v = [x for x in r["verdicts"] if x["kind"] == "triage"]
assert [x["level"] for x in v] == ["pass", "warn"], [x["text"] for x in v]
t = v[1]["text"]
assert "critical warning" not in t and "percentage used" not in t, t
assert "NVMe available spare 5% below its threshold 10% (--nvme-spare)" in t, t
assert "NVMe media errors grew by 3 during the test (--nvme-media-errors)" in t, t
PY
echo PASS
