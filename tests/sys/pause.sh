#!/bin/sh
# pause.sh - time the process spends stopped (SIGSTOP/SIGTSTP until SIGCONT)
# is not measured time.  The same 4-second read on a zram device, once
# straight through and once stopped for 3 s in the middle: the paused run's
# MB/s must come out like the unpaused one (0.6x .. 1.5x; counting the stop
# gave about a quarter).  Loose factors, no absolute timing.
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
python3 -c 'import sys; a,b=float(sys.argv[1]),float(sys.argv[2]); sys.exit(0 if 0.6*a <= b <= 1.5*a else 1)' "$A" "$B" \
  || fail "paused run $B MB/s against $A MB/s unpaused: the stop was counted (or more than excluded)"
echo PASS
