#!/bin/sh
# selftest-board.sh - the drives' own self-tests on the bench board
# (`diskscope selftest` in a terminal, tests/fixtures/sim/selftest.rig): live,
# each drive's row shows its self-test with the kind and percent (the NVMe SSD
# without Device Self-test says so at once); s stops the run and aborts them,
# each row then says "aborted".  In virtual time the failing drive's row is
# FAIL with its LBA and the run exits 1.
. "$(dirname "$0")/lib.sh"
ds_need_tmux
ds_need_bin
F=$(cd "$(dirname "$0")/../fixtures/sim" && pwd)
RIG="--rig $F/selftest.rig"

ds_start 200 50 -- "$DEMO $RIG --sim-speed 200 selftest sim0 sim1 sim2 --kind long"
ds_wait 'selftest running' "the run shown live"
ds_wait 'sim:sim0 .* long self-test [0-9]+%' "sim0's self-test and its percent on the board"
ds_wait 'sim:sim1 .* long self-test [0-9]+% .*self-testing' "sim1's self-test, its verdict column saying so"
ds_wait 'sim:sim2 .*long self-test: not supported' "the NVMe SSD without Device Self-test"
ds_keys s
ds_wait 'sim:sim0 .*INFO: long self-test aborted' "sim0 aborted by the stop"
ds_wait 'sim:sim1 .*INFO: long self-test aborted' "sim1 aborted by the stop"
ds_keys q
ds_wait_exit >/dev/null

ds_start 200 50 -- "$DEMO $RIG --sim-speed 0 selftest sim0 sim1 sim2"
ds_wait 'Result: selftest' "the result view"
ds_wait 'sim:sim0 .*PASS: short self-test passed' "sim0 passed"
ds_wait 'sim:sim1: FAIL: short self-test failed at LBA 3907029168 \(2000.399 GB\)' "sim1 FAIL with its LBA"
ds_wait 'sim:sim2 .*INFO: no short self-test' "sim2 cannot"
ds_keys q
st=$(ds_wait_exit)
[ "$st" = 1 ] || ds_fail "exit status $st, want 1"
echo "selftest board ok"
echo PASS
