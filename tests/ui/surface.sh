#!/bin/sh
# surface.sh - the surface scan live in the dashboard: FLAWED250 at 200x real
# time shows the "Surface" panel (rate by position with its % / GB axis and
# the block map) while the scan runs, the curve growing from the left; then
# the result view keeps the panel, drawn from the result's map, with the
# failed blocks marked, and the verdict naming the unreadable LBAs.
. "$(dirname "$0")/lib.sh"
ds_need_tmux
ds_need_bin

ds_start 120 40 -- "$DEMO --sim-speed 200 surface sim:FLAWED250 --seed 5"
ds_wait 'Surface  [0-9]+ %' "the live surface panel"
ds_wait '25% 6[0-9]G' "the position axis in % and GB"
ds_screen | grep -q 'surface running' || ds_fail "the run is not shown running"
ds_keys s
ds_wait 'Result: surface' "the result after stop"
ds_wait 'Surface  rate by position' "the panel in the result of a stopped scan"
ds_keys q
ds_wait_exit >/dev/null

ds_start 120 40 -- "$DEMO --sim-speed 0 surface sim:FLAWED250 --seed 5"
ds_wait 'Result: surface' "the result view"
ds_wait 'Surface  rate by position' "the surface panel in the result view"
ds_wait 'unreadable at LBA 300000000-300000015' "the verdict"
ds_screen | grep -E '^[|│]map' | grep -q 'X' || ds_fail "no failed block on the map"
ds_keys q
st=$(ds_wait_exit)
[ "$st" = 1 ] || [ "$st" = 0 ] || ds_fail "exit status $st"
echo "surface ok"
