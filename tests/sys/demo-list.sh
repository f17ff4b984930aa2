#!/bin/sh
# demo-list: `diskscope --demo list` shows the simulated rig like real
# hardware (controllers with links, drives with IDENTIFY facts, SMART and
# SMR/AF hints); --check-model names the bad line (exit 2).
DS=${DISKSCOPE:-build/diskscope}
[ -x "$DS" ] || { echo "SKIP: $DS not built"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: needs python3 to read the JSON"; exit 77; }
T=$(mktemp -d /tmp/ds-demo-list-XXXXXX)
trap 'rm -rf "$T"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }

"$DS" --demo list --json >"$T/l.json" 2>"$T/l.err" || fail "--demo list --json: $(cat "$T/l.err")"
grep -q '"sim0"' "$T/l.json" || { echo "SKIP: --demo adds no simulated rig yet (main.c/inventory not wired)"; exit 77; }
python3 - "$T/l.json" <<'PY' || fail "--demo list --json content"
import json, sys
inv = json.load(open(sys.argv[1]))["inventory"]
ctrl = {(c["vendor_id"], c["device_id"]): c for c in inv["controllers"]}
c = ctrl[("1b4b", "9485")]
assert c["link"]["known"] and c["link"]["cap_width"] == 8 and c["link"]["sta_gts"] == 5.0, c["link"]
assert abs(c["link"]["ceiling_mbps"] - 4000) < 1, c["link"]
assert len(c["drives"]) == 8, c["drives"]
assert abs(ctrl[("1b4b", "9215")]["link"]["ceiling_mbps"] - 500) < 1
assert not ctrl[("8086", "1e02")]["link"]["known"]	# onboard: link n/a
assert ("1000", "0072") in ctrl
c30 = ctrl[("1b4b", "9230")]	# the x2 card that does not saturate
assert c30["link"]["sta_width"] == 2 and len(c30["drives"]) == 4, c30
drv = {d["name"]: d for d in inv["drives"]}
sims = [d for d in inv["drives"] if d["transport"] == "sim"]
assert len(sims) == 30, len(sims)	# sim24: the worn NVMe SSD; sim25..27: the SAS pulls; sim28, sim29
assert [drv[n]["model"] for n in ("sim25", "sim26", "sim27")] == ["SEAGATE ST4000NM0023"] * 3
d = drv["sim0"]
assert d["model"] == "WDC WD40EZRX-00SPEB0", d["model"]
assert d["sectors"]["physical"] == 4096 and d["sectors"]["source"] == "identify", d["sectors"]
assert d["rotation_rpm"] == 5400
assert len({x["id"] for x in sims}) == 30	# every drive its own identity
assert drv["sim28"]["provenance"]["known"] is True, drv["sim28"].get("provenance")
by = {d["model"]: d for d in sims}
efax = by["WDC WD20EFAX-68FB5N0"]
assert efax["trim"]["supported"] is True and efax["smr"]["verdict"] == "likely", efax["smr"]
ssd = by["Samsung SSD 860 EVO 1TB"]
assert ssd["ssd"] is True and ssd["trim"]["zeroed"] is True
fl = by["Hitachi HDS722525VLSA80"]
assert fl["smart"]["pending"] == 8 and fl["smart"]["reallocated"] == 24, fl["smart"]
print("controllers:", ", ".join("%s %s" % (c["id"], c["name"][:40]) for c in inv["controllers"] if c["address"].startswith("0051:")))
PY
"$DS" --demo list >"$T/l.txt" 2>&1 || fail "--demo list"
grep -q "WD40EZRX" "$T/l.txt" || fail "text list lacks the rig's drives"
grep -q "88SE9485" "$T/l.txt" || fail "text list lacks the 88SE9485"
# every column has a header: the one after TMP (virtual, or why not opened) is ACCESS (issue 20)
grep -qE "^  DRIVE .* TMP ACCESS$" "$T/l.txt" || fail "no ACCESS header after TMP: $(grep -m1 DRIVE "$T/l.txt")"
# whole names: a model is never cut short silently, a long controller name
# folds at a space onto the next line instead of losing its end
grep -q "WDC WD40EZRX-00SPEB0 " "$T/l.txt" || fail "text list cuts the model WDC WD40EZRX-00SPEB0"
grep -q "^ *\[AHCI mode\]$" "$T/l.txt" || fail "the Intel controller's name lost its end: $(grep 'C210' "$T/l.txt")"

# --check-model: one line naming file and line; exit 2 (bad input)
"$DS" --check-model tests/fixtures/sim/bad-inner-above-outer.drive >"$T/c.out" 2>"$T/c.err"
rc=$?
[ $rc -eq 2 ] || fail "--check-model on a bad file: exit $rc, want 2"
grep -q "bad-inner-above-outer.drive:12: .*inner rate 200 MB/s above outer rate 100 MB/s" "$T/c.err" \
  || fail "--check-model message: $(cat "$T/c.err")"
[ "$(wc -l <"$T/c.err")" -eq 1 ] || fail "--check-model: more than one line: $(cat "$T/c.err")"
"$DS" --check-model src/sim/models/seed-bench.rig >/dev/null 2>&1 || fail "--check-model on the shipped rig"
"$DS" --check-model src/sim/models/WD20EFAX.drive >/dev/null 2>&1 || fail "--check-model on a shipped drive"

echo PASS
