#!/bin/sh
# demo-saturate: the demo rig end to end, in virtual time.
#   diskscope --demo run saturate ctrl:<the 88SE9485>
# reproduces the seed figure 150, 273, 430, 544, 573, 593, 623, 640 MB/s
# within 5 % with the knee at 4 drives; the 88SE9230 (one chip, four drives,
# --rig) shows no knee; the x1 88SE9215 is reported as link-limited.
DS=${DISKSCOPE:-build/diskscope}
[ -x "$DS" ] || { echo "SKIP: $DS not built"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: needs python3 to read the JSON"; exit 77; }
"$DS" run --help >/dev/null 2>&1 || { echo "SKIP: $DS has no working 'run' command yet"; exit 77; }
T=$(mktemp -d /tmp/ds-demo-sat-XXXXXX)
trap 'rm -rf "$T"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }

"$DS" --demo list --json >"$T/list.json" 2>"$T/list.err" || fail "--demo list --json: $(cat "$T/list.err")"
# the controller's address, found by its PCI ids as a user would
addr() {
  python3 - "$T/list.json" "$1" <<'PY'
import json, sys
inv = json.load(open(sys.argv[1]))["inventory"]
dev = sys.argv[2]
c = [c for c in inv["controllers"] if c.get("vendor_id") == "1b4b" and c.get("device_id") == dev]
print(c[0]["address"] if c else "")
PY
}
A9485=$(addr 9485)
[ -n "$A9485" ] || { echo "SKIP: --demo list shows no simulated 88SE9485 yet (main.c not wired?)"; exit 77; }

# check FILE FIGURE... : the steps' aggregates against a figure, +-5 %
start=$(date +%s)
"$DS" --demo run saturate "ctrl:$A9485" --json "$T/9485.json" >"$T/9485.out" 2>"$T/9485.err"
rc=$?
end=$(date +%s)
cat "$T/9485.out"
[ $rc -eq 0 ] || fail "88SE9485: exit $rc ($(tail -3 "$T/9485.err"))"
echo "88SE9485 saturate took $((end - start)) s of real time"
python3 - "$T/9485.json" <<'PY' || fail "88SE9485 figures"
import json, sys
r = json.load(open(sys.argv[1]))["run"]
fig = [150, 273, 430, 544, 573, 593, 623, 640]	# DESIGN.md "Reference figures"
steps = r["steps"]
assert len(steps) == 8, len(steps)
for s, f in zip(steps, fig):
    a = s["aggregate_mbps"]
    print("%d drives: %6.1f MB/s (figure %d)" % (s["index"], a, f))
    assert abs(a - f) <= 0.05 * f, (s["index"], a, f)
sat = [v for v in r["verdicts"] if v["kind"] == "saturation"]
assert len(sat) == 1, r["verdicts"]
print("verdict:", sat[0]["text"])
assert sat[0]["knee_drives"] == 4, sat[0]
assert "chip" in sat[0]["text"], sat[0]["text"]	# 544 MB/s is 14 % of an x8 5 GT/s link
PY

# the 88SE9230: one chip, four drives, no knee
"$DS" --demo --rig tests/fixtures/sim/one-9230.rig list --json >"$T/l9230.json" 2>/dev/null || fail "--rig list"
A9230=$(python3 -c 'import json,sys; print([c["address"] for c in json.load(open(sys.argv[1]))["inventory"]["controllers"] if c.get("device_id") == "9230"][0])' "$T/l9230.json") \
  || fail "no 88SE9230 with --rig"
"$DS" --demo --rig tests/fixtures/sim/one-9230.rig run saturate "ctrl:$A9230" --json "$T/9230.json" >"$T/9230.out" 2>"$T/9230.err" \
  || fail "88SE9230: $(tail -3 "$T/9230.err")"
python3 - "$T/9230.json" <<'PY' || fail "88SE9230 must not saturate"
import json, sys
r = json.load(open(sys.argv[1]))["run"]
for s in r["steps"]:
    print("%d drives: %6.1f MB/s (ideal %6.1f)" % (s["index"], s["aggregate_mbps"], s["ideal_mbps"]))
    assert s["aggregate_mbps"] >= 0.95 * s["ideal_mbps"]
sat = [v for v in r["verdicts"] if v["kind"] == "saturation"][0]
print("verdict:", sat["text"])
assert sat["knee_drives"] == 0 and sat["text"].startswith("no saturation"), sat
PY

# the x1 88SE9215: four drives ask for ~670 MB/s, the link gives 500
A9215=$(addr 9215)
"$DS" --demo run saturate "ctrl:$A9215" --json "$T/9215.json" >"$T/9215.out" 2>"$T/9215.err" \
  || fail "88SE9215: $(tail -3 "$T/9215.err")"
python3 - "$T/9215.json" <<'PY' || fail "88SE9215 must be link-limited"
import json, sys
r = json.load(open(sys.argv[1]))["run"]
last = r["steps"][-1]
print("4 drives: %.1f MB/s, ideal %.1f" % (last["aggregate_mbps"], last["ideal_mbps"]))
assert 475 <= last["aggregate_mbps"] <= 501, last["aggregate_mbps"]
assert last["ideal_mbps"] > 550
sat = [v for v in r["verdicts"] if v["kind"] == "saturation"][0]
print("verdict:", sat["text"])
assert sat["knee_drives"] > 0 and "link (slot) is the limit" in sat["text"], sat
PY
echo PASS
