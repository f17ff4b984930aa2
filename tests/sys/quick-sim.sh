#!/bin/sh
# quick-sim: the quick grid on sim drives in virtual time.
#   diskscope run quick sim:SSD860EVO --loops 2 --time 2 --seed 7
# The SSD orders as a SATA SSD does in CrystalDiskMark: SEQ1M above RND4K,
# RND4K Q32 above RND4K Q1, read and write; the CMR hard disk's sequential
# rate is many times its random rate; the grid is the same for the same
# seed; best >= average in every cell; the verdict is info and names the
# drive; the nvme preset labels the row it cannot run as CrystalDiskMark does.
DS=${DISKSCOPE:-build/diskscope}
[ -x "$DS" ] || { echo "SKIP: $DS not built"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: needs python3 to read the JSON"; exit 77; }
T=$(mktemp -d /tmp/ds-quick-sim-XXXXXX)
trap 'rm -rf "$T"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }

run() {	# run NAME ARGS...: JSON into $T/NAME.json, exit status checked
	n=$1
	shift
	"$DS" run quick "$@" --json "$T/$n.json" >"$T/$n.out" 2>"$T/$n.err"
	rc=$?
	[ $rc -eq 0 ] || fail "quick $*: exit $rc ($(tail -3 "$T/$n.err"))"
}
run ssd sim:SSD860EVO --loops 2 --time 2 --seed 7 --csv "$T/ssd.csv"
run ssd2 sim:SSD860EVO --loops 2 --time 2 --seed 7
run hdd sim:ST2000DM001 --loops 1 --time 2 --seed 7
run nvme sim:SSD860EVO --loops 1 --time 1 --preset nvme
cat "$T/ssd.out"

python3 - "$T" <<'PY' || fail "grid figures"
import json, sys
d = sys.argv[1]
def load(n):
    return json.load(open(f"{d}/{n}.json"))["run"]
def grid(r):
    t = [t for t in r["tables"] if t["name"] == "grid"][0]
    cols = [c["name"] for c in t["columns"]]
    return {row[0]: dict(zip(cols, row)) for row in t["rows"]}
bad = []
ssd, ssd2, hdd, nvme = load("ssd"), load("ssd2"), load("hdd"), load("nvme")
g = grid(ssd)
want = ["SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T1", "RND4K Q1T1"]
if list(g) != want:
    bad.append(f"rows {list(g)}, want {want}")
for rw in ("read", "write"):
    b = lambda k: g[k][f"{rw}_best_mbps"]
    if not b("SEQ1M Q8T1") > b("RND4K Q32T1") > b("RND4K Q1T1"):
        bad.append(f"SSD {rw}: SEQ1M Q8T1 {b('SEQ1M Q8T1')} > RND4K Q32T1 {b('RND4K Q32T1')} > RND4K Q1T1 {b('RND4K Q1T1')} fails")
    if not g["RND4K Q32T1"][f"{rw}_iops"] > 2 * g["RND4K Q1T1"][f"{rw}_iops"]:
        bad.append(f"SSD {rw}: Q32 IOPS not well above Q1")
    for k, row in g.items():
        if row["loops"] != 2:
            bad.append(f"{k}: {row['loops']} loops, want 2")
        if not row[f"{rw}_best_mbps"] >= row[f"{rw}_avg_mbps"] > 0:
            bad.append(f"{k} {rw}: best {row[f'{rw}_best_mbps']} < avg {row[f'{rw}_avg_mbps']}")
    # latency only where CrystalDiskMark shows it: the Q1 rows
    if g["RND4K Q1T1"][f"{rw}_lat_us"] is None or g["RND4K Q32T1"][f"{rw}_lat_us"] is not None:
        bad.append(f"{rw} latency: Q1 rows only")
# each cell x loop is its own step, labelled
labels = [s["label"] for s in ssd["steps"]]
if len(labels) != 16 or labels[0] != "SEQ1M Q8T1 read #1" or labels[1] != "SEQ1M Q8T1 read #2" \
   or labels[8] != "SEQ1M Q8T1 write #1":
    bad.append(f"step labels {labels}")
# ... and carries its own parameters (JSON and the CSV's bs, qd columns)
s4 = ssd["steps"][4]
if (s4["label"], s4["bs"], s4["qd"], s4["pattern"], s4["read_pct"]) != ("RND4K Q32T1 read #1", 4096, 32, "rand", 100):
    bad.append(f"step 5 parameters {s4}")
csv = [l.split(",") for l in open(f"{d}/ssd.csv").read().split("\n\n")[0].splitlines()]
h = csv[0]
rows = {int(c[h.index("step")]): (int(c[h.index("bs")]), int(c[h.index("qd")])) for c in csv[1:]}
if rows.get(5) != (4096, 32) or rows.get(16) != (4096, 1) or rows.get(1) != (1 << 20, 8):
    bad.append(f"CSV bs/qd per step {rows}")
if ssd["tables"] != ssd2["tables"]:
    bad.append("the same seed gave a different grid")
h = grid(hdd)
for rw in ("read", "write"):
    if not h["SEQ1M Q8T1"][f"{rw}_best_mbps"] > 20 * h["RND4K Q1T1"][f"{rw}_best_mbps"]:
        bad.append(f"HDD {rw}: SEQ not far above RND")
v = [v for v in ssd["verdicts"] if v["kind"] == "quick"]
if len(v) != 1 or v[0]["level"] != "info" or "SSD860EVO" not in " ".join(v[0]["evidence"]):
    bad.append(f"verdict {v}")
n = grid(nvme)
if list(n) != ["SEQ1M Q8T1", "SEQ128K Q32T1", "RND4K Q32T1", "RND4K Q1T1"]:
    bad.append(f"nvme rows {list(n)}")
if not any("Q32T16" in x for x in nvme["notes"]):
    bad.append("nvme preset: no note on Q32T16")
for b in bad:
    print("bad:", b)
sys.exit(1 if bad else 0)
PY

# bad input: one line, exit 2, nothing written
"$DS" run quick sim:SSD860EVO --loops 0 --json "$T/bad.json" >"$T/bad.out" 2>"$T/bad.err"
rc=$?
[ $rc -eq 2 ] || fail "--loops 0: exit $rc, want 2"
grep -q -- '--loops 0: loops must be 1..9' "$T/bad.err" || fail "--loops 0: $(cat "$T/bad.err")"
[ ! -e "$T/bad.json" ] || fail "--loops 0 wrote a JSON file"
echo "quick-sim ok"
