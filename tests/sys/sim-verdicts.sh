#!/bin/sh
# sim-verdicts.sh - surface, align and smr give the verdict each shipped drive
# model is built to produce, on every model (virtual time, fixed seed): the
# flawed drive fails its surface scan and every other model is healthy; the
# SSDs (SSD860EVO, the NVMe PM981WORN and PM981NOST) and the flawed drive show no alignment penalty and every other model
# behaves as 4096-byte sectors, except the 512n SAS drives (no penalty); the
# three DM-SMR models are confirmed, the SSDs are "does not apply" and every
# other model reads as CMR; the SAS drive formatted to 520-byte blocks
# (ST4000NM0023-520) reads but is refused both writing tests (rule "format").
DS=${DISKSCOPE:-build/diskscope}
[ -x "$DS" ] || { echo "SKIP: $DS not built"; exit 77; }
T=$(mktemp -d /tmp/ds-simv-XXXXXX)
trap 'rm -rf "$T"' EXIT INT TERM
M=$(dirname "$0")/../../src/sim/models
fails=0
for f in "$M"/*.drive; do
	m=$(basename "$f" .drive)
	for t in surface align smr; do
		"$DS" run $t "sim:$m" --seed 1 --json "$T/$m-$t.json" >"$T/out" 2>&1
		echo "$? $m $t" >>"$T/rc"
	done
done
python3 - "$T" <<'PY' || fails=1
import json, os, sys
d = sys.argv[1]
rc = {}
for line in open(os.path.join(d, "rc")):
    code, m, t = line.split()
    rc[(m, t)] = int(code)
smr_models = {"WD20EFAX", "WD20EZAZ", "ST2000DM008"}
bad = []
refused_520 = "ST4000NM0023-520"
def refused(m, t):
    r = json.load(open(os.path.join(d, f"{m}-{t}.json")))["run"]
    return rc[(m, t)] == 3 and (r.get("refused") or {}).get("rule") == "format" and not r["verdicts"]
def verdict(m, t):
    r = json.load(open(os.path.join(d, f"{m}-{t}.json")))["run"]
    v = [x for x in r["verdicts"] if x["kind"] == t]
    assert v, (m, t, r["verdicts"])
    order = {"fail": 0, "warn": 1, "info": 2, "pass": 3}
    return sorted(v, key=lambda x: order[x["level"]])[0]	# the worst one
for m in sorted({m for m, _ in rc}):
    s = verdict(m, "surface")
    if m == "FLAWED250":
        ok = s["level"] == "fail" and "unreadable at LBA 300000000-300000015" in s["text"] \
            and "LBA 400123456-400123463" in s["text"] and rc[(m, "surface")] == 1
    else:
        ok = s["level"] == "pass" and "healthy" in s["text"] and rc[(m, "surface")] == 0
    ok or bad.append(("surface", m, s["level"], s["text"]))
    if m == refused_520:
        for t in ("align", "smr"):
            refused(m, t) or bad.append((t, m, "not refused", rc[(m, t)]))
        print(f"{m:14} surface {s['level']:5} align refused smr refused")
        continue
    a = verdict(m, "align")
    if m in ("FLAWED250", "SSD860EVO", "PM981WORN", "ST4000NM0023", "ST4000NM0023FAIL", "PM981NOST"):
        ok = "no alignment penalty measured" in a["text"]
    else:
        ok = "behaves as 4096-byte physical sectors" in a["text"]
    ok or bad.append(("align", m, a["level"], a["text"]))
    v = verdict(m, "smr")
    if m in smr_models:
        ok = "DM-SMR confirmed" in v["text"] and v["level"] == "warn"
    elif m in ("SSD860EVO", "PM981WORN", "PM981NOST"):
        ok = "does not apply" in v["text"]
    else:
        ok = ": CMR" in v["text"] and v["level"] == "pass"
    ok or bad.append(("smr", m, v["level"], v["text"]))
    print(f"{m:14} surface {s['level']:5} align {a['level']:5} smr {v['level']}")
for b in bad:
    print("FAIL:", *b)
sys.exit(1 if bad else 0)
PY
[ $fails = 0 ] && echo PASS
exit $fails
