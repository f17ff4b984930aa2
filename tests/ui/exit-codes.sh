#!/bin/sh
# exit-codes.sh - the dashboard ends with the code `run` would give for its
# last test: 1 when the test found I/O errors, 130 after "stop it and quit",
# 0 after a clean run, 2 when the command line's test could not start.  The targets are named as `list` shows them (sim16,
# a serial), which `run` accepts too.
. "$(dirname "$0")/lib.sh"
ds_need_tmux
ds_need_bin

# FLAWED250 (sim16 in the demo rig) has unreadable sectors at LBA 300000000.
ds_start 120 40 -- "$DEMO --sim-speed 0 seqread sim16 --region 299990000:300010000"
ds_wait 'Result: seqread' "the result of a run over unreadable sectors"
ds_screen | grep -q 'I/O errors' || ds_fail "no I/O errors in the result"
ds_keys q
st=$(ds_wait_exit)
[ "$st" = 1 ] || ds_fail "exit $st after a run that found I/O errors, want 1 (as run)"
# shellcheck disable=SC2086
ds_run $DEMO run seqread sim16 --region 299990000:300010000 >/dev/null 2>&1
[ $? = 1 ] || ds_fail "headless run over the same sectors does not exit 1"

# Stop and quit while a test runs: interrupted, 130.
ds_start 120 40 -- "$DEMO seqread sim0 --time 600"
ds_wait 'seqread.* running' "the run"
ds_keys q
ds_wait 'Stop it and quit' "the quit question"
ds_keys y
st=$(ds_wait_exit)
[ "$st" = 130 ] || ds_fail "exit $st after stop and quit, want 130"

# A clean run on a drive named by its serial (as list shows it): 0.
serial=$(ds_run $DEMO list --json | python3 -c 'import json,sys; print([d["serial"] for d in json.load(sys.stdin)["inventory"]["drives"] if d["name"] == "sim0"][0])')
[ -n "$serial" ] || ds_fail "no serial for sim0"
ds_start 120 40 -- "$DEMO --sim-speed 0 seqread $serial --time 5"
ds_wait 'Result: seqread' "the result of a clean run"
ds_screen | grep -q 'sim:sim0' || ds_fail "the serial $serial did not name sim0"
ds_keys q
st=$(ds_wait_exit)
[ "$st" = 0 ] || ds_fail "exit $st after a clean run, want 0"
# The command line's test cannot start (an unknown target): the notice, and
# on quitting the code `run` gives for it (2).
ds_start 120 40 -- "$DEMO seqread no-such-drive"
ds_wait "unknown target 'no-such-drive'" "the reason it did not start"
ds_keys q
st=$(ds_wait_exit)
[ "$st" = 2 ] || ds_fail "exit $st after a test that could not start, want 2 (as run)"
echo "dashboard exit codes ok"
