#!/bin/sh
# filemix.sh - the copy workload in the dashboard: started from the command
# line on a tmpfs directory, it runs to its result view, which shows the
# per-file table (the live table panel while it runs), the verdict with the
# rates; its subdirectory is gone by then, and after quitting the directory
# is as it was (the user's file only).
. "$(dirname "$0")/lib.sh"
ds_need_tmux
ds_need_bin
D=$(mktemp -d /dev/shm/ds-ui-filemix-XXXXXX 2>/dev/null) || ds_skip "no /dev/shm"
trap 'rm -rf "$D"; ds_cleanup' EXIT
echo "keep me" >"$D/users-file"

ds_start 140 45 -- "$DEMO filemix $D --size 32M"
ds_wait 'Result: filemix' "the result view"
ds_wait 'mixed sizes: write [0-9.]+ MB/s, read [0-9.]+ MB/s' "the verdict with its rates"
ds_wait 'write t1|10GB|Files' "the per-file table"
ls -d "$D"/diskscope-filemix-* 2>/dev/null && ds_fail "its subdirectory is still there with the result shown"
ds_keys q
st=$(ds_wait_exit)
[ "$st" = 0 ] || ds_fail "exit status $st"
# the runner's 1 MiB probe file goes with the run, when the dashboard leaves it
[ "$(ls -A "$D")" = "users-file" ] || ds_fail "left in $D: $(ls -A "$D")"
echo "filemix ok"
