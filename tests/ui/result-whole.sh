#!/bin/sh
# result-whole.sh - the result view and `show` draw the whole run: a slow
# band at the start of a 37 s sequential pass (FLAWED250's weak zone) is in
# the picture, plotted by position on the drive; a random test is plotted
# over its whole time.  The result table has p99.9 and max, and its p99 is
# the latency panel's; the latency axis is logarithmic with µs/ms/s ticks
# and the percentiles marked.
. "$(dirname "$0")/lib.sh"
ds_need_tmux
ds_need_bin

# The weak zone is LBA 146000000-146400000 at 54 %: one pass from just before it.
ds_start 140 44 -- "$DEMO --sim-speed 0 seqread sim16 --region 145900000:150000000 --time 0"
ds_wait 'Result: seqread' "the result"
ds_wait 'Throughput by position' "the plot by position"
ds_screen | grep -E '^│MB/s' | grep -qE '[0-9.]+%' || ds_fail "the position axis has no % labels"
# Some plot row is filled, then empty for a stretch (the slow band), then filled.
ds_screen | sed -nE 's/^│ *[0-9]* ([^│]*)│.*Latency.*//; s/^│[ 0-9]{5}.(.{40,})││.*/\1/p' |
	grep -qE '[^ ] {3,}[^ ]' || ds_fail "no slow band in the whole-run plot"
ds_screen | grep -qE 'target +MB/s +IOPS +p50 +p99 +p99\.9 +max +errors' || ds_fail "table lacks p99.9 and max"
tab=$(ds_screen | sed -nE 's/^│ +sim:sim16 +[0-9.]+ MB\/s +[0-9]+ +[0-9.]+ [mµu]?s +([0-9.]+ [mu]?s) .*/\1/p')
[ -n "$tab" ] || ds_fail "no p99 in the table"
ds_screen | grep -q "p99 $tab " || ds_fail "the latency panel's p99 is not the table's ($tab)"
ds_screen | grep -qE '(10|100)ms' || ds_fail "no ms tick labels on the latency axis"
ds_screen | grep -qE '│ +p50 ' || ds_fail "p50 not marked under the histogram"
ds_screen | grep -qE 'p99\.9 [0-9.]+ [mu]?s +max [0-9.]+' || ds_fail "no p99.9 and max under the histogram"
ds_keys e
ds_wait "saved $FIX/diskscope-seqread" "the export, with the path it wrote"
ds_keys q
ds_wait_exit >/dev/null
json=$(ls "$FIX"/diskscope-seqread-*.json | head -1)
ds_start 140 44 -- "show $json"
ds_wait 'Throughput by position' "show draws the whole run by position"
ds_keys q
ds_wait_exit >/dev/null

ds_start 140 44 -- "$DEMO --sim-speed 0 randread sim0 --time 30"
ds_wait 'Result: randread' "the random test's result"
ds_wait 'Throughput +read, whole run \(30.0s\)' "the whole 30 s by time"
ds_screen | grep -E '^│MB/s' | grep -q '30s' || ds_fail "the time axis does not reach 30 s"
ds_keys q
ds_wait_exit >/dev/null
echo "whole-run result ok"
