#!/bin/sh
# quick-fault.sh - the quick grid over unreadable sectors of a real block
# device (a direct-io loop over ds-faultdev, 8 sectors at 1 MiB that fail
# reads): the grid is still measured and its verdict stays info, but the
# errors get a fail verdict naming EIO and the bad byte, and the exit status
# is 1.  The prepare pass writes the span first and those writes succeed.
. "$(dirname "$0")/../fault/lib.sh"
fault_need

B0=2048 B1=2055
fault_start --size 64M --fill random -c "eio $B0 $B1 read"
fault_loop 0
L=$FLOOP

"$DS" run quick "$L" --destroy-data="$L" --loops 1 --time 1 --interval 0 --file-size 32M \
	--json "$FT/q.json" >"$FT/out" 2>"$FT/err"
rc=$?
cat "$FT/out" "$FT/err"
[ $rc -eq 1 ] || fault_fail "quick over bad sectors: exit $rc, want 1"
fault_json "$FT/q.json"
python3 - "$FT/q.json" $B0 $B1 <<'PY' || fault_fail "quick JSON"
import json, sys
b0, b1 = map(int, sys.argv[2:])
r = json.load(open(sys.argv[1]))["run"]
bad = []
# the prepare pass wrote the whole 32M span without an error
solo = r["solo"]
if len(solo) != 1 or solo[0]["bytes"] != 32 << 20 or solo[0]["errors"]["count"]:
    bad.append(f"prepare pass {solo}")
q = [v for v in r["verdicts"] if v["kind"] == "quick"]
if len(q) != 1 or q[0]["level"] != "info":
    bad.append(f"quick verdict {q}")
e = [v for v in r["verdicts"] if v["kind"] == "errors"]
if not e or any(v["level"] != "fail" for v in e) or not all("EIO" in v["text"] for v in e):
    bad.append(f"errors verdicts {e}")
# every failed read lies in the bad range
for s in r["steps"]:
    er = s["results"][0]["errors"]
    if er["count"]:
        if not (b0 * 512 - 4096 < er["first_offset"] and er["last_offset"] <= b1 * 512):
            bad.append(f"{s['label']}: errors at {er['first_offset']}..{er['last_offset']}")
        if "write" in s["label"]:
            bad.append(f"{s['label']}: a write failed")
# the sequential read cells ran into the bad range from the start of the span
if not any(s["results"][0]["errors"]["count"] for s in r["steps"] if s["label"].startswith("SEQ1M")):
    bad.append("no sequential read reached the bad sectors")
d = [t for t in r["tables"] if t["name"] == "device"][0]
dc = dict(zip([c["name"] for c in d["columns"]], d["rows"][0]))
if not (dc["model"] or "").endswith("/mnt/disk0"):
    bad.append(f"the loop device's backing file is not named: {dc}")
g = [t for t in r["tables"] if t["name"] == "grid"][0]
for row in g["rows"]:
    if row[1] is None or row[3] is None:
        bad.append(f"grid row not measured: {row}")
for b in bad:
    print("bad:", b)
sys.exit(1 if bad else 0)
PY
echo "quick-fault ok"
