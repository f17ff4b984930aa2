#!/bin/sh
# estimate.sh - the array estimate covers the drives it measured, at their
# sustained rate, with the drives' capacity (issue 17 item 5):
#  - a single-drive surface of a loop device: no estimate (one drive, no
#    count), the reason in the notes; `estimate` refuses it without --drives
#    (exit 2) and with --drives 4 uses the scan's rate, not the burst's;
#  - a quick surface of sim:WD40EZRX (1 GB sampled of 4 TB): the identity's
#    4 TB capacity, a RAID5 rebuild of hours, not minutes;
#  - a triage of unlike sim drives (250 GB .. 8 TB): no estimate, the reason
#    said; like drives (the demo's WD40EZRX) still get theirs.
set -u
cd "$(dirname "$0")/../.." || exit 1
DS=${DISKSCOPE:-build/diskscope}
[ -x "$DS" ] || { echo "SKIP: $DS not built"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: needs python3 to read the JSON"; exit 77; }
T=$(mktemp -d /tmp/ds-estimate-XXXXXX)
L=
cleanup() {
	[ -n "$L" ] && ours && losetup -d "$L" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
fail() { echo "FAIL: $*"; exit 1; }
# ours: $L is still on our image (same inode), not re-bound by someone else
ours() {
	[ "$(losetup -n -O BACK-INO "$L" 2>/dev/null | tr -d ' ')" = "$(stat -c %i "$T/img" 2>/dev/null)" ]
}
json() { python3 - "$@" || fail "$1"; }

# 1. one loop device, full surface
if [ "$(id -u)" = 0 ] && command -v losetup >/dev/null && [ -e /dev/loop-control ]; then
	dd if=/dev/urandom of="$T/img" bs=1M count=64 status=none conv=fsync || fail "image"
	L=$(losetup -f --show --direct-io=on "$T/img") || fail "losetup"
	"$DS" run surface "$L" --json "$T/loop.json" >"$T/out" 2>&1
	rc=$?
	ours || fail "$L was re-bound by another process during the run: no verdict"
	[ $rc -eq 0 ] || fail "surface $L: exit $rc: $(tail -3 "$T/out")"
	json "$T/loop.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["run"]
names = [t["name"] for t in r["tables"]]
assert "estimate" not in names, ("an estimate of drives not measured", names)
assert any(n.startswith("estimate: left out: one drive measured") for n in r["notes"]), r["notes"]
print("loop: no estimate:", [n for n in r["notes"] if "left out" in n][0])
PY
	"$DS" estimate "$T/loop.json" >"$T/e.out" 2>"$T/e.err"
	rc=$?
	[ $rc -eq 2 ] || fail "estimate of one drive without --drives: exit $rc, want 2"
	grep -q "no estimate: one drive measured" "$T/e.err" || fail "no reason: $(cat "$T/e.err")"
	"$DS" estimate "$T/loop.json" --drives 4 --layout raid5 --json "$T/e4.json" >"$T/e.out" 2>&1 ||
		fail "estimate --drives 4: exit $?: $(cat "$T/e.out")"
	json "$T/loop.json" "$T/e4.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["run"]
e = json.load(open(sys.argv[2]))["run"]
t = {x["name"]: x for x in r["tables"]}["surface"]
avg = t["rows"][0][[c["name"] for c in t["columns"]].index("avg_mbps")]
burst = [s for s in r["steps"] if s["label"] == "burst"][0]["aggregate_mbps"]
est = {x["name"]: x for x in e["tables"]}["estimate"]
row = dict(zip([c["name"] for c in est["columns"]], est["rows"][0]))
assert row["layout"] == "raid5" and row["drives"] == 4, row
# 3 data drives at the scan's average (the table rounds to 1 decimal)
assert abs(row["read_mbps"] - 3 * avg) <= 0.01 * 3 * avg + 1, (row, avg, burst)
print("loop: --drives 4 raid5 %.0f MB/s = 3 x the scan's %.0f (burst %.0f)" % (row["read_mbps"], avg, burst))
PY
else
	echo "note: no root or no loop devices: the loop part is skipped"
fi

# 2. quick surface of a 4 TB sim drive: the capacity is the drive's
"$DS" run surface sim:WD40EZRX --mode quick --json "$T/q.json" >"$T/out" 2>&1 ||
	fail "quick surface: exit $?: $(tail -3 "$T/out")"
"$DS" estimate "$T/q.json" --drives 4 --layout raid5 --json "$T/q4.json" >"$T/e.out" 2>&1 ||
	fail "estimate --drives 4: exit $?: $(cat "$T/e.out")"
json "$T/q.json" "$T/q4.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["run"]
e = json.load(open(sys.argv[2]))["run"]
cap = r["identity"]["targets"][0]["capacity_bytes"]
assert cap == 4000787030016, ("capacity of sim:WD40EZRX", cap)
est = {x["name"]: x for x in e["tables"]}["estimate"]
row = dict(zip([c["name"] for c in est["columns"]], est["rows"][0]))
rate = row["write_mbps"] / 3	# one member's: 3 data drives of 4
want = cap / (rate * 1e6) / 60
assert abs(row["rebuild_min"] - want) <= 0.02 * want + 1 and row["rebuild_min"] > 300, (row, want)
assert not any("bytes the surface scan covered" in n for n in e["notes"]), e["notes"]
assert any("the rate of a quick scan" in n for n in e["notes"]), e["notes"]
print("quick 4 TB: raid5 x4 rebuild %.0f min (4 TB at %.0f MB/s)" % (row["rebuild_min"], rate))
PY

# 3. unlike drives: no estimate, the reason; like drives: theirs
"$DS" run triage sim:FLAWED250 sim:WD40EZRX sim:ST8000VN0002 sim:WD20EFRX --json "$T/mix.json" >"$T/out" 2>&1
rc=$?
[ $rc -le 1 ] || fail "triage of a mixed bench: exit $rc: $(tail -3 "$T/out")"
grep "^note: estimate" "$T/out"
json "$T/mix.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["run"]
assert "estimate" not in [t["name"] for t in r["tables"]], "an estimate of unlike drives"
n = [x for x in r["notes"] if x.startswith("estimate: left out: the 4 drives are not alike")]
assert n and "250 GB to 8.00 TB" in n[0], r["notes"]
PY
"$DS" estimate "$T/mix.json" >"$T/e.out" 2>"$T/e.err"
rc=$?
[ $rc -eq 2 ] || fail "estimate of unlike drives: exit $rc, want 2"
grep -q "no estimate: the 4 drives are not alike" "$T/e.err" || fail "no reason: $(cat "$T/e.err")"
"$DS" --demo run triage sim0 sim1 sim2 --json "$T/like.json" >"$T/out" 2>&1 ||
	fail "triage of three like drives: exit $?: $(tail -3 "$T/out")"
json "$T/like.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["run"]
est = {x["name"]: x for x in r["tables"]}["estimate"]
rows = [dict(zip([c["name"] for c in est["columns"]], x)) for x in est["rows"]]
r5 = [x for x in rows if x["layout"] == "raid5"][0]
assert r5["drives"] == 3 and r5["rebuild_min"] > 300, r5
print("3 like drives: raid5 %.0f MB/s, rebuild %.0f min" % (r5["read_mbps"], r5["rebuild_min"]))
PY
echo PASS
