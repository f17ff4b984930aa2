#!/bin/sh
# fault-stall.sh - a drive that stops answering, headless, on a direct-io loop
# over ds-faultdev.  A 4 s stall inside a run shows in its result (a latency
# of the whole stall, intervals with no I/O) and costs no error; a 30 s stall
# is given up on after --io-timeout with the offset named, exit 1, valid
# JSON, and SIGTERM during a stall ends the run (143, partial JSON) without
# waiting for the drive.  "Before the stall ended" is read from the device
# (its .ctl still says "stall"), not from a clock.
. "$(dirname "$0")/../fault/lib.sh"
fault_need

fault_start --size 64M --fill random
fault_loop 0
L=$FLOOP
N=${L#/dev/}

# wait_reads N: until the daemon has served N more reads (the run is going)
wait_reads() {
	r0=$(sed -nE 's/^disk0 .*reads ([0-9]+).*/\1/p' "$FMNT/.ctl")
	i=0
	while [ "$(sed -nE 's/^disk0 .*reads ([0-9]+).*/\1/p' "$FMNT/.ctl")" -lt $((r0 + $1)) ]; do
		kill -0 "$DSPID" 2>/dev/null || fault_fail "diskscope ended early: $(cat "$FT/out")"
		[ $i -ge 600 ] && fault_fail "diskscope is not reading"
		sleep 0.1
		i=$((i + 1))
	done
}
stalled() { grep -q '^stall' "$FMNT/.ctl"; }

# 1. a 4 s stall inside an 8 s run
"$DS" run seqread "$L" --bs 64k --qd 1 --time 8 --json "$FT/short.json" >"$FT/out" 2>&1 &
DSPID=$!
fault_extra_cleanup="kill $DSPID 2>/dev/null"
wait_reads 100
fault_ctl stall 4
wait $DSPID
rc=$?
cat "$FT/out"
[ $rc -eq 0 ] || fault_fail "a run through a 4 s stall: exit $rc, want 0"
fault_json "$FT/short.json"
python3 - "$FT/short.json" <<'PY' || fault_fail "the stall does not show in the result"
import json, sys
t = json.load(open(sys.argv[1]))["run"]["steps"][0]["results"][0]
assert t["errors"]["count"] == 0, t["errors"]
assert t["lat_us"]["max"] >= 3.5e6, t["lat_us"]
iops = t["series"]["iops"]
zero = sum(1 for v in iops if not v)
assert zero >= 30, iops
print("4 s stall: max latency %.2f s, %d of %d intervals without I/O" % (t["lat_us"]["max"] / 1e6, zero, len(iops)))
PY

"$DS" run --help 2>&1 | grep -q -- --io-timeout ||
	fault_skip "needs --io-timeout (branch io) for the 30 s stall; the 4 s stall passed"

# 2. a 30 s stall, --io-timeout 3: given up on, named, before the stall ends
"$DS" run seqread "$L" --bs 64k --qd 4 --time 120 --io-timeout 3 --json "$FT/long.json" >"$FT/out" 2>&1 &
DSPID=$!
fault_extra_cleanup="kill $DSPID 2>/dev/null"
wait_reads 100
fault_ctl stall 30
wait $DSPID
rc=$?
stalled || fault_fail "the run ended only after the 30 s stall (--io-timeout 3)"
cat "$FT/out"
[ $rc -eq 1 ] || fault_fail "a run given up on: exit $rc, want 1"
fault_json "$FT/long.json"
python3 - "$FT/long.json" "$N" <<'PY' || fault_fail "the give-up is not in the JSON"
import json, sys
r = json.load(open(sys.argv[1]))["run"]
t = r["steps"][0]["results"][0]
note = t["note"] or ""
assert sys.argv[2] in note and "outstanding" in note and "byte" in note, note
print("30 s stall:", note)
PY
fault_ctl stall 0

# 3. SIGTERM during a stall: 143 and a partial result, not a wait for the drive
"$DS" run seqread "$L" --bs 64k --qd 4 --time 120 --io-timeout 20 --json "$FT/term.json" >"$FT/out" 2>&1 &
DSPID=$!
wait_reads 100
fault_ctl stall 30
# no completion for a while: the stall has reached the run
sleep 1
kill -TERM $DSPID
wait $DSPID
rc=$?
fault_extra_cleanup=""
stalled || fault_fail "SIGTERM took effect only after the stall"
cat "$FT/out"
[ $rc -eq 143 ] || fault_fail "SIGTERM in a stall: exit $rc, want 143"
fault_json "$FT/term.json"
python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["run"]["interrupted"]' "$FT/term.json" ||
	fault_fail "the partial JSON does not say interrupted"
fault_ctl stall 0
echo PASS
