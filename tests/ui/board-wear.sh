#!/bin/sh
# board-wear.sh - the board's drive detail shows each drive's SSD wear with
# its units, computed in the core (inventory/wear.c) and recorded in the run's
# health table: a worn SATA SSD (tests/fixtures/sim/SSDWEAR.drive: SMART 231
# 63 % life left, 241 LBAs written) and the worn NVMe PM981WORN (100 % used,
# 300 TB written), tests/fixtures/sim/triage-wear.rig.
. "$(dirname "$0")/lib.sh"
ds_need_tmux
ds_need_bin
F=$(cd "$(dirname "$0")/../fixtures/sim" && pwd)
RIG="--sim-model $F/SSDWEAR.drive --rig $F/triage-wear.rig"

ds_start 200 60 -- "$DEMO $RIG --sim-speed 0 triage sim0 sim1 --region 0:2000000"
ds_wait 'Result: triage' "the result view"
ds_wait 'Board +2 drives' "the board after the run"
ds_keys Home Enter
ds_wait 'Board: sim:sim0 +\(Esc back\)' "sim0's detail"
ds_wait 'wear 37% used \(SMART 231 SSD life left\), 102.4 TB written' "the SATA SSD's wear"
ds_keys Escape
ds_wait 'Board +2 drives' "the board again"
ds_keys Down Enter
ds_wait 'Board: sim:sim1 +\(Esc back\)' "sim1's detail"
ds_wait 'wear 100% used \(NVMe percentage used\), 300.0 TB written' "the NVMe drive's wear"
ds_keys Escape q
ds_wait_exit >/dev/null
echo "board wear ok"
