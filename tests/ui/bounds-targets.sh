#!/bin/sh
# bounds-targets.sh - 64 concurrent targets without lost samples: 48 sim
# drives (a rig of six 8-port HBAs), 8 direct-io loop devices and 8 zram
# devices of the test's own read at once by `run seqread --time 3`; every
# target's series must hold exactly one sample per 100 ms interval of its
# measured time (none lost, no gaps), each a number, and every result
# honest: I/Os, or (a real device starved on a loaded machine) the note
# "no I/O completed" and exit 1, never a silent 0.  Then the same 64 in
# the dashboard for a short run: it reaches the result and exits cleanly.
. "$(dirname "$0")/../lib/loop.sh"
. "$(dirname "$0")/lib.sh"
ds_need_bin
command -v python3 >/dev/null || ds_skip "needs python3"
[ "$(id -u)" = 0 ] || ds_skip "needs root (loop, zram)"
[ -e /sys/class/zram-control/hot_add ] || modprobe zram num_devices=0 2>/dev/null
[ -e /sys/class/zram-control/hot_add ] || ds_skip "no zram-control"
LOOPS="" ZRAMS=""
bt_cleanup() {
	ds_cleanup
	for l in $LOOPS; do loop_detach "$l"; done
	for z in $ZRAMS; do
		echo 1 >/sys/block/zram$z/reset 2>/dev/null
		echo "$z" >/sys/class/zram-control/hot_remove 2>/dev/null
	done
}
trap bt_cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

{
	printf '[rig]\nname = bounds64\n'
	for c in 0 1 2 3 4 5; do
		printf '[controller]\nhba = LSI9211-8i\nbus = %d\n' $((10 + c))
		for d in 1 2 3 4 5 6 7 8; do echo "drive = WD40EZRX"; done
	done
} >"$FIX/r.rig"
TG=""
i=0
while [ $i -lt 48 ]; do TG="$TG sim:sim$i"; i=$((i + 1)); done
i=0
while [ $i -lt 8 ]; do
	dd if=/dev/urandom of="$FIX/l$i.img" bs=1M count=32 status=none || ds_fail "loop image"
	loop_new l "$FIX/l$i.img" --direct-io=on || ds_fail "losetup"
	LOOPS="$LOOPS $l"
	z=$(cat /sys/class/zram-control/hot_add) || ds_fail "zram hot_add"
	ZRAMS="$ZRAMS $z"
	echo 32M >/sys/block/zram$z/disksize || ds_fail "zram disksize"
	dd if=/dev/urandom of=/dev/zram$z bs=1M count=32 oflag=direct status=none || ds_fail "zram fill"
	TG="$TG $l /dev/zram$z"
	i=$((i + 1))
done
set -- $TG
[ $# -eq 64 ] || ds_fail "$# targets, want 64"

ds_run --rig r.rig --no-ata run seqread $TG --bs 64k --time 3 --json "$FIX/o.json" \
	>"$FIX/out" 2>"$FIX/err"
rc=$?
[ $rc -le 1 ] || ds_fail "run: exit $rc: $(tail -3 "$FIX/err")"
loop_check $LOOPS || ds_fail "not judged"
python3 - "$FIX/o.json" $rc <<'PY' || ds_fail "lost samples or a result without I/O and without a reason"
import json, math, sys
run = json.load(open(sys.argv[1]))["run"]
rc = int(sys.argv[2])
starved = []
res = run["steps"][0]["results"]
assert len(res) == 64, len(res)
kinds = {}
for t in res:
    s = t["series"]
    want = math.ceil(t["seconds"] * 1000 / s["interval_ms"] - 1e-6)
    n = len(s["mbps"])
    assert s["interval_ms"] == 100, (t["target"], s["interval_ms"])
    assert n == want and n >= 29, "%s: %d samples over %.3f s, want %d" % (t["target"], n, t["seconds"], want)
    assert all(v is not None for v in s["mbps"]), (t["target"], s["mbps"])
    assert t["errors"]["count"] == 0, (t["target"], t["errors"])
    k = "sim" if t["target"].startswith("sim:") else "zram" if "zram" in t["target"] else "loop"
    kinds[k] = kinds.get(k, 0) + 1
    # Every result honest: I/Os, or the stated reason there are none.  A
    # real device's worker starved of CPU on a loaded machine may complete
    # nothing in 3 s; a simulated drive runs on its own clock and always does.
    if t["ios"] > 0:
        assert not t["note"], (t["target"], t["note"])
    else:
        assert k != "sim", (t["target"], "no I/O on a simulated drive")
        assert "no I/O completed" in t["note"], (t["target"], t["ios"], t["note"])
        starved.append(t["target"])
# a result without I/O is a problem the exit status reports, and only then
assert rc == (1 if starved else 0), (rc, starved)
print("64 targets, every series complete: %s" % ", ".join("%d %s" % (v, k) for k, v in sorted(kinds.items())))
if starved:
    print("no I/O completed (stated, exit 1) on a loaded machine: %s" % " ".join(starved))
PY

command -v tmux >/dev/null 2>&1 || { echo "SKIP: tmux not installed (headless part passed)"; exit 77; }
ds_start 160 50 -- "--rig r.rig --no-ata seqread $TG --bs 64k --time 3"
# the run may end before a poll sees it running (3 s, a loaded machine):
# either state shows it started
ds_wait 'seqread running|Result: seqread' "the running test or its result"
ds_wait 'Result: seqread' "the result of 64 targets"
ds_alive
ds_keys q
st=$(ds_wait_exit)
[ "$st" = 0 ] || ds_fail "dashboard exit $st"
echo "64 targets in the dashboard ok"
