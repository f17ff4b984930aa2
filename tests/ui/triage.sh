#!/bin/sh
# triage.sh - bench triage in the dashboard (`diskscope triage` in a
# terminal): five WD40EZRX peers (tests/fixtures/sim/triage.rig), one weak and
# one flawed.  Live: the run shows its steps (solo samples, then all drives);
# then the result view shows the per-drive table with each verdict and the
# summary line.
. "$(dirname "$0")/lib.sh"
ds_need_tmux
ds_need_bin
F=$(cd "$(dirname "$0")/../fixtures/sim" && pwd)
RIG="--sim-model $F/WD40EZRX-WEAK.drive --sim-model $F/WD40EZRX-FLAWED.drive --rig $F/triage.rig"

ds_start 200 90 -- "$DEMO $RIG --sim-speed 20 triage sim0 sim1 sim2 sim3 sim4"
ds_wait 'triage.* running' "the run shown live"
ds_wait 'Throughput' "the live throughput panel"
ds_keys s
ds_wait 'Result: triage' "the result after stop"
ds_keys q
ds_wait_exit >/dev/null

ds_start 200 90 -- "$DEMO $RIG --sim-speed 0 triage sim0 sim1 sim2 sim3 sim4"
ds_wait 'Result: triage' "the result view"
ds_wait 'sim2: WARN: SLOW alone' "the weak unit's verdict"
ds_wait 'sim4: FAIL: unreadable at LBA 781312000-781314047' "the flawed unit's verdict"
ds_wait '5 drives: 3 pass, 1 warn, 1 fail' "the summary"
# the step table says what each step was; no empty ideal/eff columns (issue 20)
ds_wait 'step +drives +aggregate +what' "the step table's header"
ds_wait '^│ 1 +5 +[0-9.]+ MB/s +SMART before' "the first step named"
ds_screen | grep -qE 'ideal +eff' && ds_fail "empty ideal/eff columns in a triage's step table"
ds_keys Tab	# from the board (it takes the focus) to the result
i=0
while [ $i -lt 60 ]; do ds_keys Down; i=$((i + 1)); done	# scroll to the table
ds_wait 'WD-WCC4EWEAK002 .*WARN' "the weak unit's row in the table"
ds_wait 'WD-WCC4EFLAW004 .*FAIL' "the flawed unit's row in the table"
ds_keys q
st=$(ds_wait_exit)
[ "$st" = 1 ] || ds_fail "exit status $st, want 1"
echo "triage ok"
