#!/bin/sh
# run-identity: a run's identity block (unique run id, host, version, each
# drive as the inventory saw it, unknown as null), the test's table and
# verdict level in JSON, the table in CSV, --text like stdout.  Demo rig,
# virtual time.  (The loader's side: test_framework's round trip.)
DS=${DISKSCOPE:-build/diskscope}
[ -x "$DS" ] || { echo "SKIP: $DS not built"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: needs python3 to read the JSON"; exit 77; }
T=$(mktemp -d /tmp/ds-ident-XXXXXX)
trap 'rm -rf "$T"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }

"$DS" --demo list --json >"$T/list.json" 2>/dev/null || fail "--demo list --json"
A=$(python3 -c 'import json,sys; c=[c for c in json.load(open(sys.argv[1]))["inventory"]["controllers"] if c.get("device_id")=="9215"]; print(c[0]["address"] if c else "")' "$T/list.json")
[ -n "$A" ] || { echo "SKIP: no simulated 88SE9215 in the demo rig"; exit 77; }
for n in 1 2; do
  "$DS" --demo run saturate "ctrl:$A" --time 0.5 --json "$T/r$n.json" --csv "$T/r$n.csv" \
    --text "$T/r$n.txt" >"$T/out$n" 2>"$T/err$n" || fail "run $n: exit $? ($(tail -2 "$T/err$n"))"
done
cmp -s "$T/out1" "$T/r1.txt" || fail "--text differs from stdout"
grep -q "^drive sim:sim16: Hitachi" "$T/out1" || fail "no drive identity line: $(cat "$T/out1")"
python3 - "$T/r1.json" "$T/r2.json" "$A" <<'PY' || fail "identity / tables / verdicts"
import json, re, sys
a = json.load(open(sys.argv[1]))["run"]; b = json.load(open(sys.argv[2]))["run"]
ia, ib = a["identity"], b["identity"]
assert re.fullmatch(r"[0-9a-f]{32}", ia["run_id"]), ia["run_id"]
assert ia["run_id"] != ib["run_id"], "two runs, one id"
assert ia["version"] and ia["host"]
t = ia["targets"]
assert len(t) == 4, t
for d in t:
    assert d["model"] and d["serial"] and d["firmware"], d
    assert d["controller"] == sys.argv[3], d
    assert d["port"], d
    assert d["capacity_bytes"] > 0 and d["sectors"]["logical"] in (512, 4096), d
    assert d["wwn"] is None, d            # the sim drives have none: unknown is null, not ""
tab = [x for x in a["tables"] if x["name"] == "scaling"]
assert tab and len(tab[0]["rows"]) == 4, a["tables"]
assert [c["type"] for c in tab[0]["columns"]][:2] == ["int", "double"], tab[0]["columns"]
assert tab[0]["rows"][0][4] is None        # no gain for the first step: null
lv = {v["kind"]: v["level"] for v in a["verdicts"]}
assert lv.get("saturation") in ("info", "pass", "warn"), lv
print("run id", ia["run_id"], "; drives:", ", ".join(d["model"] for d in t))
PY
grep -q "^table,scaling$" "$T/r1.csv" || fail "CSV: no scaling table"
echo PASS
