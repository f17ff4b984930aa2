#!/bin/sh
# saturate over four loop devices (one backing disk) and a zram device:
# every step reported with per-drive and aggregate MB/s, the ideal line, and
# a saturation sentence that agrees with the numbers (the knee, when there is
# one, must be reported, never hidden).
. "$(dirname "$0")/../lib/loop.sh"
DS=${DISKSCOPE:-build/diskscope}
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (loop, zram)"; exit 77; }
[ -e /sys/class/zram-control/hot_add ] || { echo "SKIP: no zram-control (modprobe zram)"; exit 77; }
"$DS" run --help >/dev/null 2>&1 || { echo "SKIP: $DS has no working 'run' command yet"; exit 77; }
T=$(mktemp -d /tmp/ds-saturate-XXXXXX)
LOOPS=""
Z=""
cleanup() {
  for l in $LOOPS; do loop_detach "$l"; done
  [ -n "$Z" ] && { echo 1 > /sys/block/zram$Z/reset 2>/dev/null; echo "$Z" > /sys/class/zram-control/hot_remove 2>/dev/null; }
  rm -rf "$T"
}
trap cleanup EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }

for i in 1 2 3 4; do
  dd if=/dev/urandom of="$T/img$i" bs=1M count=96 status=none || fail "dd"
  loop_new l "$T/img$i" --direct-io=on || fail "losetup"
  LOOPS="$LOOPS $l"
done
Z=$(cat /sys/class/zram-control/hot_add) || fail "zram hot_add"
echo 256M > /sys/block/zram$Z/disksize || fail "zram disksize"
dd if=/dev/urandom of=/dev/zram$Z bs=1M count=256 oflag=direct status=none || fail "fill zram"
set -- $LOOPS /dev/zram$Z
"$DS" run saturate "$@" --time 1.5 --ramp 0.3 --json "$T/s.json" >"$T/out" 2>"$T/err"
rc=$?
cat "$T/out"
[ $rc -eq 0 ] || fail "exit $rc ($(cat "$T/err"))"
loop_check $LOOPS || fail "not judged"
python3 - "$T/s.json" "$@" <<'PY' || fail "JSON"
import json, sys
r = json.load(open(sys.argv[1]))["run"]
drives = sys.argv[2:]
steps = r["steps"]
assert len(steps) == len(drives), len(steps)
names = [d.rsplit("/", 1)[-1] for d in drives]
for i, s in enumerate(steps):
    assert s["index"] == i + 1
    assert s["active"] == names[: i + 1], (s["active"], names)
    assert len(s["results"]) == i + 1
    tot = sum(x["mbps"] for x in s["results"])
    assert all(x["mbps"] > 0 and x["errors"]["count"] == 0 for x in s["results"])
    assert abs(tot - s["aggregate_mbps"]) <= 0.01 * tot + 0.1, (tot, s["aggregate_mbps"])
    assert s["ideal_mbps"] is not None and s["ideal_mbps"] > 0
# the ideal line: step 1 is drive 1 alone; each later step adds that drive's solo rate
solo = {x["target"]: x["mbps"] for x in r["solo"]}
assert sorted(solo) == sorted(names[1:]), solo
assert abs(steps[0]["ideal_mbps"] - steps[0]["aggregate_mbps"]) < 0.01 * steps[0]["aggregate_mbps"] + 0.1
for i in range(1, len(steps)):
    want = steps[0]["aggregate_mbps"] + sum(solo[n] for n in names[1 : i + 1])
    assert abs(steps[i]["ideal_mbps"] - want) <= 0.001 * want + 0.1, (i, steps[i]["ideal_mbps"], want)
# the knee: the first step below 90 % of ideal that also gains less than
# half the drive it added; below 90 % but still rising is uneven scaling
# (a loaded machine gives that often); the sentence must say which
below = [s for s in steps if s["aggregate_mbps"] < 0.9 * s["ideal_mbps"]]
knee = next((s["index"] for s in below if s["index"] > 1 and
             s["aggregate_mbps"] - steps[s["index"] - 2]["aggregate_mbps"] <
             0.5 * (s["ideal_mbps"] - steps[s["index"] - 2]["ideal_mbps"])), 0)
sat = [v for v in r["verdicts"] if v["kind"] == "saturation"]
assert len(sat) == 1, r["verdicts"]
v = sat[0]
if knee:
    n = max(knee - 1, 1)
    assert v["knee_drives"] == n, (v, knee)
    assert v["text"].startswith("saturates at %d drive" % n), v["text"]
    assert "ceiling unknown" in v["text"], v["text"]
elif below:
    assert v["knee_drives"] == 0 and v["text"].startswith("uneven scaling: ") and v["level"] == "warn", v
else:
    assert v["knee_drives"] == 0 and v["text"].startswith("no saturation up to %d drives" % len(drives)), v["text"]
print("verdict:", v["text"])
PY
grep -q "ideal" "$T/out" || fail "the table shows no ideal line"
grep -q "^saturation: " "$T/out" || fail "the table shows no verdict"
echo PASS
