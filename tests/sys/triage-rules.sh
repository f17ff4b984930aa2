#!/bin/sh
# triage-rules.sh - triage's per-drive fail rules on real I/O: four peer
# disks on ds-faultdev (direct-io loop devices, one head-rate curve), full
# read pass.  disk1 reads at half its peers' rate: --fail-below 70 fails it
# alone and leaves it out of the read pass.  disk2 has 16 MiB unreadable at
# LBA 196608 (96 MiB): --max-bad 4 ends its job at the 4th failed block
# while disk0 and disk3 read on to the end of their full pass.  Without the
# rule (--max-bad 0) the same disk reads on past the extent and all of it
# is listed.
. "$(dirname "$0")/../fault/lib.sh"
fault_need
"$DS" run triage --help 2>/dev/null | grep -q -- "--max-bad" || fault_skip "$DS triage has no --max-bad"

fault_start --disks 4 --size 256M --fill random -c "rate 0:60 1:50" -c "disk1 rate 0:30 1:25" \
	-c "disk2 eio 196608 229375 read"
for d in 0 1 2 3; do
	fault_loop $d
	eval "L$d=\$FLOOP"
done

"$DS" run triage "$L0" "$L1" "$L2" "$L3" --mode full --solo-time 1s --slow-below 80 --fail-below 70 \
	--max-bad 4 --json "$FT/t.json" >"$FT/out" 2>"$FT/err"
rc=$?
grep -E "^(triage: |summary)" "$FT/out"
[ $rc -eq 1 ] || fault_fail "triage with failing drives: exit $rc, want 1: $(tail -3 "$FT/err")"
fault_json "$FT/t.json"
python3 - "$FT/t.json" "$L0" "$L1" "$L2" "$L3" <<'PY' || fault_fail "fail rules"
import json, sys
r = json.load(open(sys.argv[1]))["run"]
names = [n.split("/")[-1] for n in sys.argv[2:]]
t = {x["name"]: x for x in r["tables"]}["triage"]
keys = [c["name"] for c in t["columns"]]
rows = [dict(zip(keys, row)) for row in t["rows"]]
assert [x["verdict"] for x in rows] == ["PASS", "FAIL", "FAIL", "PASS"], rows
slow, bad = rows[1], rows[2]
assert "stopped: slow: alone" in slow["reasons"] and "(--fail-below 70 %)" in slow["reasons"], slow
assert "bad blocks: 4 (4 unreadable, 0 failed writes, 0 mismatched), the last at LBA 202752 (0.104 GB) " \
    "(--max-bad 4)" in bad["reasons"], bad
assert "unreadable at LBA 196608-204799 (0.101 GB)" in bad["reasons"], bad
full = [s for s in r["steps"] if s["label"] == "full read, all drives"]
assert len(full) == 1, [s["label"] for s in r["steps"]]
got = {x["target"]: x for x in full[0]["results"]}
# the slow drive was left out; the rule stopped disk2 at its 4th bad block
assert names[1] not in got, got.keys()
for n in (names[0], names[3]):
    assert got[n]["bytes"] == 256 << 20, (n, got[n]["bytes"])
assert got[names[2]]["bytes"] <= (96 << 20) + (1 << 20), got[names[2]]["bytes"]
assert got[names[2]]["bytes"] < got[names[0]]["bytes"] // 2
print({n: got[n]["bytes"] for n in got})
PY

# the same flawed disk without the rule: read to the end, the whole extent listed
"$DS" run triage "$L0" "$L2" --mode full --solo-time 1s --max-bad 0 --json "$FT/n.json" >"$FT/out" 2>"$FT/err"
rc=$?
grep -E "^(triage: |summary)" "$FT/out"
[ $rc -eq 1 ] || fault_fail "triage without the rule: exit $rc, want 1"
python3 - "$FT/n.json" "$L2" <<'PY' || fault_fail "no rule: the pass goes on"
import json, sys
r = json.load(open(sys.argv[1]))["run"]
v = [x for x in r["verdicts"] if x["kind"] == "triage"]
assert "unreadable at LBA 196608-229375 (0.101 GB)" in v[1]["text"] and "stopped" not in v[1]["text"], v[1]
full = [s for s in r["steps"] if s["label"] == "full read, all drives"][0]
b = {x["target"]: x["bytes"] for x in full["results"]}
assert b[sys.argv[2].split("/")[-1]] == (256 - 16) << 20, b
PY
echo PASS
