#!/bin/sh
# triage-wear-sim.sh - one SSD wear figure per drive, computed in the core
# (inventory/wear.c), in triage's evidence and its "health" table, on sim
# drives (tests/fixtures/sim/triage-wear.rig):
#   sim0, a SATA SSD whose SMART 231 (SSD life left) is 63 and 241 (total LBAs
#        written) 2e11: "wear: 37% used (SMART 231 SSD life left), 102.4 TB written";
#   sim1, the worn NVMe PM981WORN (percentage used 100, 585937500 data units):
#        "wear: 100% used (NVMe percentage used), 300.0 TB written".
DS=${DISKSCOPE:-build/diskscope}
[ -x "$DS" ] || { echo "SKIP: $DS not built"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: needs python3 to read the JSON"; exit 77; }
T=$(mktemp -d /tmp/ds-triage-wear-XXXXXX)
trap 'rm -rf "$T"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
F=$(dirname "$0")/../fixtures/sim
SIM="--sim-model $F/SSDWEAR.drive --rig $F/triage-wear.rig"

# shellcheck disable=SC2086
"$DS" --no-history $SIM triage sim0 sim1 --region 0:2000000 --seed 3 --json "$T/r.json" >"$T/out" 2>&1
[ $? -eq 1 ] || fail "exit $?, want 1 (sim1 FAILs): $(tail -3 "$T/out")"
grep -- "- wear:" "$T/out"
python3 - "$T/r.json" <<'PY' || fail "wear"
import json, sys
r = json.load(open(sys.argv[1]))["run"]
v = [x for x in r["verdicts"] if x["kind"] == "triage"]
assert "wear: 37% used (SMART 231 SSD life left), 102.4 TB written" in v[0]["evidence"], v[0]["evidence"]
assert "wear: 100% used (NVMe percentage used), 300.0 TB written" in v[1]["evidence"], v[1]["evidence"]
ht = [t for t in r["tables"] if t["name"] == "health"][0]
names = [c["name"] if isinstance(c, dict) else c for c in ht["columns"]]
rows = [dict(zip(names, row)) for row in ht["rows"]]
a, n = rows
assert (a["target"], a["class"], a["wear_pct"], a["wear_source"], a["bytes_written"]) == \
    ("sim:sim0", "ata", 37, "SMART 231 SSD life left", 200000000000 * 512), a
assert a["critical_warning"] is None and a["percent_used"] is None, a   # not this class's
assert (n["class"], n["wear_pct"], n["data_units_written"], n["bytes_written"]) == \
    ("nvme", 100, 585937500, 585937500 * 512000), n
assert n["reallocated"] is None, n
PY
echo PASS
