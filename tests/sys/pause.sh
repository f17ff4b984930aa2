#!/bin/sh
# pause.sh - time the process spends stopped (SIGSTOP/SIGTSTP until SIGCONT)
# is not measured time.  A 4-second read on a zram device stopped for 3 s in
# the middle: its series must not hold the stop (counted, it shows as ~30
# intervals of 100 ms in a row without an I/O, and the window ends at the
# resume with a quarter of the bytes).  Judged on the run's own series: comparing its
# MB/s with a second, unpaused run failed when the shared machine was
# quieter for one of them (5174 against 2965 MB/s, both honest).  The
# unpaused run is printed for the eye.
set -u
cd "$(dirname "$0")/../.." || exit 1
DS=${DISKSCOPE:-build/diskscope}
[ -x "$DS" ] || { echo "SKIP: $DS not built"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (zram)"; exit 77; }
[ -e /sys/class/zram-control/hot_add ] || modprobe zram num_devices=0 2>/dev/null
[ -e /sys/class/zram-control/hot_add ] || { echo "SKIP: no zram"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: needs python3"; exit 77; }
T=$(mktemp -d /tmp/ds-pause-XXXXXX)
Z=
PID=
cleanup() {
  [ -n "$PID" ] && kill -CONT "$PID" 2>/dev/null && kill "$PID" 2>/dev/null && wait "$PID" 2>/dev/null
  [ -n "$Z" ] && echo "$Z" > /sys/class/zram-control/hot_remove 2>/dev/null
  rm -rf "$T"
}
trap cleanup EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
Z=$(cat /sys/class/zram-control/hot_add) || { echo "SKIP: zram hot_add failed"; exit 77; }
echo 256M > /sys/block/zram$Z/disksize || { echo "SKIP: zram disksize"; exit 77; }
DEV=/dev/zram$Z
dd if=/dev/urandom of=$DEV bs=1M count=256 status=none oflag=direct 2>/dev/null

mbps() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["run"]["steps"][0]["results"][0]["mbps"])' "$1"; }

"$DS" run seqread $DEV --time 4 --bs 128k --qd 1 --json "$T/a.json" >/dev/null 2>&1 || fail "unpaused run: exit $?"
"$DS" run seqread $DEV --time 4 --bs 128k --qd 1 --json "$T/b.json" >/dev/null 2>&1 &
PID=$!
sleep 1
kill -STOP $PID
sleep 3
kill -CONT $PID
wait $PID || fail "paused run: exit $?"
PID=
A=$(mbps "$T/a.json"); B=$(mbps "$T/b.json")
echo "zram seqread 128k QD1: unpaused $A MB/s, stopped 3 s inside the window $B MB/s"
python3 - "$T/b.json" <<'PY' || fail "the stop was counted as measured time"
import json, sys
t = json.load(open(sys.argv[1]))["run"]["steps"][0]["results"][0]
iops = t["series"]["iops"]
idle = sum(1 for v in iops if not v)
run = longest = 0
for v in iops:
    run = 0 if v else run + 1
    longest = max(longest, run)
print("paused run: %.2f s measured, %d of %d intervals without an I/O, at most %d in a row"
      % (t["seconds"], idle, len(iops), longest))
assert t["errors"]["count"] == 0, t["errors"]
# 3 s stopped = 30 idle intervals in a row; a loaded machine starves the
# worker too, but in shorter spells (seen: 20 idle in spells of 10 and 5)
assert longest < 25, iops
assert len(iops) >= 39, iops
PY
echo PASS
