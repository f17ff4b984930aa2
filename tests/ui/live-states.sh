#!/bin/sh
# live-states.sh - while saturate runs, drives not yet in the step say
# "waiting" (no rate, no sparkline, no share), a step warming up says
# "ramp-up"; the stats box shows a position only for a test that sweeps
# the drive (seqread), not for random I/O (randread).
. "$(dirname "$0")/lib.sh"
ds_need_tmux
ds_need_bin

ds_start 120 40 -- "$DEMO saturate ctrl0 --time 3 --ramp 2"
ds_wait 'Per drive' "the per-drive panel"
ds_wait 'step 1/' "the first step"
ds_wait 'ramp-up' "the ramp-up state of the first drive"
ds_wait 'sim7 .* waiting' "sim7 waiting for its step"
ds_screen | grep -E '│ *sim7 ' | grep -q 'MB/s' && ds_fail "a waiting drive shows a rate"
ds_screen | grep -E '│ *sim7 ' | grep -q '%' && ds_fail "a waiting drive shows a share of the link"
ds_wait 'sim0 .*MB/s' "sim0 measuring"
ds_keys q
ds_wait 'Stop it and quit' "the quit question"
ds_keys y
ds_wait_exit >/dev/null

ds_start 120 40 -- "$DEMO randread sim0 --time 600"
ds_wait 'Stats' "the stats box"
ds_wait 'step 1/1' "the step line"
ds_screen | grep -q 'position' && ds_fail "position shown for a random test"
ds_keys q y
ds_wait_exit >/dev/null

ds_start 120 40 -- "$DEMO seqread sim0 --time 600"
ds_wait 'position [0-9.]+ %' "the position of a sequential test"
ds_keys q y
ds_wait_exit >/dev/null
echo "live states ok"
