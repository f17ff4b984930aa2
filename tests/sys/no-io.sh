#!/bin/sh
# no-io.sh - a target that completes no I/O in its measured time (a drive
# that does not answer in time, or a worker starved on a loaded machine)
# gets a stated reason, not a silent 0: its result's note says "no I/O
# completed", the run exits 1, the JSON is valid.  The drive is a direct-io
# loop over ds-faultdev held in a stall until the 1 s window is certainly
# over: the first read has reached the device (so the window began), then
# 2 s pass, then the stall ends.  Nothing here depends on how fast the
# machine is.
. "$(dirname "$0")/../fault/lib.sh"
fault_need

fault_start --size 16M --fill random
fault_loop 0
L=$FLOOP
command -v udevadm >/dev/null 2>&1 && udevadm settle --timeout=30 2>/dev/null
delayed() { sed -nE 's/^disk0 .*delayed ([0-9]+).*/\1/p' "$FMNT/.ctl"; }
fault_ctl stall 600
d0=$(delayed)
"$DS" run seqread "$L" --bs 64k --qd 1 --time 1 --io-timeout 600 --json "$FT/o.json" >"$FT/out" 2>&1 &
DSPID=$!
fault_extra_cleanup="kill $DSPID 2>/dev/null"
i=0
while [ "$(delayed)" -le "$d0" ]; do
	kill -0 "$DSPID" 2>/dev/null || fault_fail "diskscope ended before reading: $(cat "$FT/out")"
	[ $i -ge 1200 ] && fault_fail "diskscope is not reading"
	sleep 0.1
	i=$((i + 1))
done
sleep 2		# a lower bound only: the 1 s window began before the read arrived
fault_ctl stall 0
wait $DSPID
rc=$?
cat "$FT/out"
[ $rc -eq 1 ] || fault_fail "a target with no I/O completed: exit $rc, want 1"
fault_json "$FT/o.json"
python3 - "$FT/o.json" <<'PY' || fault_fail "the result does not say no I/O completed"
import json, sys
t = json.load(open(sys.argv[1]))["run"]["steps"][0]["results"][0]
assert t["ios"] == 0, t["ios"]
assert "no I/O completed" in t["note"], t["note"]
assert t["errors"]["count"] == 0, t["errors"]
print("no I/O: %s" % t["note"])
PY
echo "no-io ok"
