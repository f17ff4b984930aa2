#!/bin/sh
# surface-sim.sh - the surface scan on sim drives in virtual time: on
# FLAWED250 the verdict names exactly the unreadable ranges of its model file
# (pinned sector by sector) and its slow regions (to within one 1 MiB block,
# the scan's resolution), exit 1; the access time and burst rate come out as
# the model says; the same seed gives the same result; healthy models pass
# with exit 0; quick mode runs and judges what it sampled.
DS=${DISKSCOPE:-build/diskscope}
[ -x "$DS" ] || { echo "SKIP: $DS not built"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: needs python3 to read the JSON"; exit 77; }
"$DS" run surface --help >/dev/null 2>&1 || { echo "SKIP: $DS has no surface test"; exit 77; }
T=$(mktemp -d /tmp/ds-surface-sim-XXXXXX)
trap 'rm -rf "$T"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
MODEL=src/sim/models/FLAWED250.drive
[ -f "$MODEL" ] || MODEL=$(dirname "$0")/../../src/sim/models/FLAWED250.drive

for n in 1 2; do
	"$DS" run surface sim:FLAWED250 --seed 5 --json "$T/f$n.json" >"$T/out" 2>&1
	rc=$?
	[ $rc -eq 1 ] || fail "FLAWED250: exit $rc, want 1: $(tail -5 "$T/out")"
done
grep "^surface: sim" -A3 "$T/out"
python3 - "$T/f1.json" "$T/f2.json" "$MODEL" <<'PY' || fail "FLAWED250 findings"
import json, re, sys
r = json.load(open(sys.argv[1]))["run"]
r2 = json.load(open(sys.argv[2]))["run"]
bad, slow = [], []
for line in open(sys.argv[3]):
    m = re.match(r"\s*(unreadable|slow)\s*=\s*(\d+)-(\d+)", line)
    if m:
        (bad if m.group(1) == "unreadable" else slow).append((int(m.group(2)), int(m.group(3))))
assert bad and slow, (bad, slow)
tb = {t["name"]: t for t in r["tables"]}
def rows(name, t=tb):
    keys = [c["name"] for c in t[name]["columns"]]
    return [dict(zip(keys, row)) for row in t[name]["rows"]]
ext = [(e["first_lba"], e["last_lba"]) for e in rows("extents")]
assert ext == bad, (ext, bad)
assert all(e["resolution"] == "sector" for e in rows("extents")), rows("extents")
got = [(s["first_lba"], s["last_lba"]) for s in rows("slow") if s["status"] == "slow"]
assert len(got) == len(slow), (got, slow)
for (g0, g1), (s0, s1) in zip(got, slow):
    assert abs(g0 - s0) < 2048 and abs(g1 - s1) < 2048, ((g0, g1), (s0, s1))
fail = [v for v in r["verdicts"] if v["level"] == "fail"]
assert len(fail) == 1, r["verdicts"]
for a, b in bad:
    assert "LBA %d-%d (%.1f GB)" % (a, b, a * 512 / 1e9) in fail[0]["text"], fail[0]["text"]
warn = [v for v in r["verdicts"] if v["level"] == "warn"]
assert len(warn) == 1 and warn[0]["text"].count("LBA ") == len(slow), warn
s = rows("surface")[0]
# the model: access 19.7 ms (random 4K over the whole drive), burst 157 MB/s
assert 15 <= s["access_ms"] <= 25, s
assert 140 <= s["burst_mbps"] <= 160, s
assert s["min_mbps"] < s["avg_mbps"] < s["max_mbps"] <= 71, s
assert r["tables"] == r2["tables"] and r["verdicts"] == r2["verdicts"], "not deterministic"
print("FLAWED250: extents", ext, "slow", got, "access %.1f ms burst %.0f MB/s" % (s["access_ms"], s["burst_mbps"]))
PY

for m in ST2000DM001 SSD860EVO; do
	"$DS" run surface sim:$m --json "$T/$m.json" >"$T/out" 2>&1
	rc=$?
	grep "^surface: sim" "$T/out"
	[ $rc -eq 0 ] || fail "$m: exit $rc, want 0"
	python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["run"]
assert [v["level"] for v in r["verdicts"]] == ["pass"], r["verdicts"]
assert "healthy" in r["verdicts"][0]["text"], r["verdicts"]
t = {x["name"]: x for x in r["tables"]}
assert t["extents"]["rows"] == [] and t["slow"]["rows"] == [], t["slow"]
' "$T/$m.json" || fail "$m verdict"
done

"$DS" run surface sim:FLAWED250 --mode quick --samples 200 --json "$T/q.json" >"$T/out" 2>&1
rc=$?
grep "^surface: sim" "$T/out"
python3 - "$T/q.json" $rc <<'PY' || fail "quick mode"
import json, sys
r = json.load(open(sys.argv[1]))["run"]
rc = int(sys.argv[2])
t = {x["name"]: x for x in r["tables"]}
blocks = sum(row[2] for row in t["blocks"]["rows"])
assert blocks == 200, blocks
assert t["surface"]["rows"][0][1] == "quick", t["surface"]["rows"]
lv = [v["level"] for v in r["verdicts"]]
assert (rc == 1) == ("fail" in lv), (rc, lv)
PY
echo PASS
