#!/bin/sh
# triage-sim.sh - bench triage on sim drives in virtual time: five peers of one
# model on one controller (tests/fixtures/sim/triage.rig), three healthy, one
# weak unit (its rate curve 40 % lower) and one flawed unit (an unreadable
# band at 400 GB).  Each drive gets its verdict: PASS, PASS, WARN slow alone
# and together, PASS, FAIL with the band's first block; the summary counts
# them; exit 1.  The healthy drives alone: every one passes, exit 0.
DS=${DISKSCOPE:-build/diskscope}
[ -x "$DS" ] || { echo "SKIP: $DS not built"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: needs python3 to read the JSON"; exit 77; }
"$DS" run triage --help >/dev/null 2>&1 || { echo "SKIP: $DS has no triage test"; exit 77; }
T=$(mktemp -d /tmp/ds-triage-sim-XXXXXX)
trap 'rm -rf "$T"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
F=$(dirname "$0")/../fixtures/sim
SIM="--sim-model $F/WD40EZRX-WEAK.drive --sim-model $F/WD40EZRX-FLAWED.drive --rig $F/triage.rig"

# shellcheck disable=SC2086
"$DS" $SIM triage ctrl1 --seed 3 --json "$T/bench.json" >"$T/out" 2>&1
rc=$?
grep -E "^(triage: sim|summary)" "$T/out"
[ $rc -eq 1 ] || fail "triage with a flawed drive: exit $rc, want 1: $(tail -5 "$T/out")"
python3 - "$T/bench.json" <<'PY' || fail "triage verdicts"
import json, sys
r = json.load(open(sys.argv[1]))["run"]
t = {x["name"]: x for x in r["tables"]}["triage"]
keys = [c["name"] for c in t["columns"]]
rows = [dict(zip(keys, row)) for row in t["rows"]]
got = [(x["serial"], x["verdict"]) for x in rows]
want = [("WD-WCC4ESIM0000", "PASS"), ("WD-WCC4ESIM0001", "PASS"), ("WD-WCC4EWEAK002", "WARN"),
        ("WD-WCC4ESIM0003", "PASS"), ("WD-WCC4EFLAW004", "FAIL")]
assert got == want, got
weak, flaw = rows[2], rows[4]
# 40 % slower alone: 60 % of the peers' median, to the percent
assert 58 <= weak["solo_peer_pct"] <= 62, weak
assert weak["shared_peer_pct"] < 92 and "SLOW alone" in weak["reasons"] and "SLOW together" in weak["reasons"], weak
for x in rows[:2] + rows[3:4]:
    assert 92 <= x["solo_peer_pct"] <= 107 and 92 <= x["shared_peer_pct"] <= 107, x
    assert x["extents"] == 0 and x["controller"] and x["port"] and x["model"] == "WDC WD40EZRX-00SPEB0", x
# the band 781250000-797250000 (model file): the sampled blocks inside it fail
assert flaw["extents"] >= 1 and "unreadable at LBA 781312000-" in flaw["reasons"], flaw
v = [x for x in r["verdicts"] if x["kind"] == "triage"]
assert [x["level"] for x in v] == ["pass", "pass", "warn", "pass", "fail"], v
assert any("unreadable: LBA 781312000-781314047" in e for e in v[4]["evidence"]), v[4]
s = [x for x in r["verdicts"] if x["kind"] == "summary"]
assert len(s) == 1 and s[0]["text"].startswith("5 drives: 3 pass, 1 warn, 1 fail: ") \
    and "unreadable at LBA 781312000-781314047" in s[0]["text"], s
# the array these five would make: every member at the slowest solo rate
e = {x["name"]: x for x in r["tables"]}["estimate"]
ek = [c["name"] for c in e["columns"]]
er = {row[ek.index("layout")]: dict(zip(ek, row)) for row in e["rows"]}
slow = min(x["solo_mbps"] for x in rows)
r5 = er["raid5"]["read_mbps"]
assert er["raid5"]["drives"] == 5 and abs(r5 - 4 * slow) <= 0.01 * 4 * slow + 1, (er["raid5"], slow)
print("verdicts", got, "raid5 read", r5)
PY

# shellcheck disable=SC2086
"$DS" $SIM triage sim0 sim1 sim3 --json "$T/good.json" >"$T/out" 2>&1
rc=$?
grep -E "^summary" "$T/out"
[ $rc -eq 0 ] || fail "three healthy peers: exit $rc, want 0: $(tail -5 "$T/out")"
grep -q "^summary: 3 drives: 3 pass, 0 warn, 0 fail$" "$T/out" || fail "summary of three healthy drives"
# SMART before and after comes from the rig's drives as `list` shows them
grep -q "temperature: 31 C (limit 55 C)" "$T/out" || fail "no temperature from the rig's SMART: $(grep -i smart "$T/out" | head -3)"
grep -q "SMART delta: none of 5, 187, 188, 196, 197, 198, 199 grew" "$T/out" || fail "no SMART delta on the rig"
echo PASS
