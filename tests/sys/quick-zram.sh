#!/bin/sh
# quick-zram: the quick grid on a block device through the guard.
#   diskscope run quick /dev/zramN --destroy-data=/dev/zramN --loops 1 --time 1 --interval 0
# Without --destroy-data the guard refuses (exit 3, no step ran); with it
# the device's first --file-size bytes (here all its 128M) are written once,
# then every cell is measured on them; the result names the device (a
# compressed RAM disk), the span in LBA, and says it measures memory.
DS=${DISKSCOPE:-build/diskscope}
[ -x "$DS" ] || { echo "SKIP: $DS not built"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (zram)"; exit 77; }
[ -e /sys/class/zram-control/hot_add ] || modprobe zram num_devices=0 2>/dev/null
[ -e /sys/class/zram-control/hot_add ] || { echo "SKIP: no zram"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: needs python3"; exit 77; }
T=$(mktemp -d /tmp/ds-quick-zram-XXXXXX)
Z=
cleanup() {
  [ -n "$Z" ] && echo "$Z" > /sys/class/zram-control/hot_remove 2>/dev/null
  rm -rf "$T"
}
trap cleanup EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
Z=$(cat /sys/class/zram-control/hot_add) || { Z=; echo "SKIP: zram hot_add failed"; exit 77; }
echo 128M > /sys/block/zram$Z/disksize || { echo "SKIP: zram disksize"; exit 77; }
DEV=/dev/zram$Z

"$DS" run quick $DEV --loops 1 --time 1 --interval 0 --json "$T/no.json" >"$T/no.out" 2>"$T/no.err"
rc=$?
[ $rc -eq 3 ] || fail "without --destroy-data: exit $rc, want 3 ($(cat "$T/no.err"))"
# the JSON records the refusal: nothing ran
python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["run"]; sys.exit(0 if not r["steps"] else 1)' "$T/no.json" ||
  fail "a refused run has steps in its JSON"
[ "$(wc -l <"$T/no.err")" -le 2 ] || fail "refusal not one clear line: $(cat "$T/no.err")"
echo "ok: refused without --destroy-data: $(head -1 "$T/no.err")"

"$DS" run quick $DEV --destroy-data=$DEV --loops 1 --time 1 --interval 0 --json "$T/z.json" >"$T/z.out" 2>"$T/z.err" ||
  fail "exit $? ($(tail -3 "$T/z.err"))"
cat "$T/z.out"
LB=$(cat /sys/block/zram$Z/queue/logical_block_size)
python3 - "$T/z.json" "$DEV" "$(( (128 << 20) / LB - 1 ))" <<'PY' || fail "result"
import json, sys
r = json.load(open(sys.argv[1]))["run"]
dev, last = sys.argv[2], sys.argv[3]
bad = []
g = [t for t in r["tables"] if t["name"] == "grid"][0]
cols = [c["name"] for c in g["columns"]]
for row in g["rows"]:
    c = dict(zip(cols, row))
    for k in ("read_best_mbps", "write_best_mbps"):
        if not (c[k] and c[k] > 0):
            bad.append(f"{c['test']} {k} = {c[k]}")
d = [t for t in r["tables"] if t["name"] == "device"][0]
dc = dict(zip([c["name"] for c in d["columns"]], d["rows"][0]))
if dc["kind"] != "block device" or dc["device"] != dev or "RAM" not in (dc["model"] or ""):
    bad.append(f"device table {dc}")
v = [v for v in r["verdicts"] if v["kind"] == "quick"][0]
if v["level"] != "info" or not any(dev in e for e in v["evidence"]) \
   or not any("measure memory" in e for e in v["evidence"]):
    bad.append(f"verdict {v}")
# the span (the whole 128M device here) is written once before the reads
solo = r["solo"]
if len(solo) != 1 or solo[0]["bytes"] != 128 << 20:
    bad.append(f"prepare pass: {[(s['target'], s['bytes']) for s in solo]}")
if not any(f"LBA 0-{last} " in e and "written in full" in e for e in v["evidence"]):
    bad.append(f"span evidence {v['evidence']}")
if any(v["level"] == "fail" for v in r["verdicts"]):
    bad.append("a failing verdict on a healthy device")
for b in bad:
    print("bad:", b)
sys.exit(1 if bad else 0)
PY
echo "quick-zram ok"
