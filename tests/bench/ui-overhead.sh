#!/bin/sh
# ui-overhead.sh - throughput of the same run with and without the live
# dashboard (issue 5: target >= 0.98).  A zram device of our own, filled with
# random data, read sequentially for --time seconds: headless `run` against
# the dashboard started straight into the test (in tmux, exported with `e`),
# alternating, three times each.  A measurement, not a test.
. "$(dirname "$0")/../ui/lib.sh"
ds_need_tmux
ds_need_bin
[ "$(id -u)" = 0 ] || ds_skip "needs root for a zram device"
[ -w /sys/class/zram-control/hot_add ] || ds_skip "no zram-control"
SECS=${SECS:-5}
id=$(cat /sys/class/zram-control/hot_add) || ds_skip "zram hot_add failed"
dev=/dev/zram$id
trap 'echo "$id" >/sys/class/zram-control/hot_remove 2>/dev/null; ds_cleanup' EXIT INT TERM
echo 512M >"/sys/block/zram$id/disksize"
dd if=/dev/urandom of="$dev" bs=1M count=512 status=none

mbps() { grep -o '"aggregate_mbps": *[0-9.]*' "$1" | head -1 | sed 's/.*: *//'; }
h="" t=""
for i in 1 2 3; do
	ds_run --no-ata run seqread "$dev" --time "$SECS" --json "h$i.json" >/dev/null 2>&1 ||
		ds_fail "headless run failed"
	h="$h $(mbps "$FIX/h$i.json")"
	rm -f "$FIX"/diskscope-seqread-*.json
	ds_start 120 40 -- "--no-ata seqread $dev --time $SECS"
	ds_wait 'Result: seqread' "the result view"
	ds_keys e
	ds_wait 'saved diskscope-seqread' "the export"
	ds_keys q
	ds_wait_exit >/dev/null
	t="$t $(mbps "$(ls "$FIX"/diskscope-seqread-*.json | head -1)")"
done
echo "$h" "|" "$t" | awk '{
	n = 0; for (i = 1; i <= NF && $i != "|"; i++) { hs += $i; n++ }
	m = 0; for (i++; i <= NF; i++) { ts += $i; m++ }
	printf "ui-overhead: seqread zram, %s s: headless %.0f MB/s, dashboard %.0f MB/s, ratio %.3f\n",
	       "'"$SECS"'", hs / n, ts / m, (ts / m) / (hs / n)
}'
echo "ui-overhead: headless:$h  dashboard:$t"
