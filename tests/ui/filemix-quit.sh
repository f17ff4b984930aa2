#!/bin/sh
# filemix-quit.sh - quitting the dashboard in the middle of a filemix run
# still removes what filemix created: ext4 on the fault device, every I/O
# 20 ms late, so the run is mid-file when F10 and "y" end the program; after
# it exits only the user's file is in the directory.
. "$(dirname "$0")/lib.sh"
ds_need_tmux
ds_need_bin
FAULTDEV=${FAULTDEV:-build/tests/ds-faultdev}
DS=$BIN
command -v mkfs.ext4 >/dev/null || ds_skip "no mkfs.ext4"
M=
fault_extra_cleanup='mountpoint -q "$M" 2>/dev/null && umount "$M"; [ -n "$M" ] && rmdir "$M"; ds_cleanup'
. tests/fault/lib.sh
fault_need
fault_start --disks 1 --size 2G
fault_loop 0
mkfs.ext4 -q "$FLOOP" || fault_fail "mkfs.ext4 on $FLOOP"
M=$(mktemp -d /tmp/ds-ui-fmq-XXXXXX)
mount "$FLOOP" "$M" || fault_fail "mount"
echo "keep me" >"$M/users-file"
fault_ctl "delay all 20"

ds_start 120 40 -- "$DEMO filemix $M --size 64M"
i=0
until ls "$M"/diskscope-filemix-*/diskscope-scratch-* >/dev/null 2>&1 || [ $i -gt 600 ]; do sleep 0.1; i=$((i + 1)); done
ls "$M"/diskscope-filemix-*/diskscope-scratch-* >/dev/null 2>&1 || ds_fail "no file while running"
ds_wait 'filemix running|write t1' "the run shown running"
ds_keys q
sleep 0.5
ds_screen | grep -qi 'quit\|stop' && ds_keys y
st=$(ds_wait_exit)
left=$(ls -A "$M" | grep -vx lost+found)
[ "$left" = "users-file" ] || ds_fail "left in $M after quitting mid-run (exit $st): $left"
echo "filemix-quit ok (exit $st)"
