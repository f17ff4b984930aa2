#!/bin/sh
# fault-vanish-saturate.sh - a drive vanishing during a saturate run: three
# direct-io loop devices over ds-faultdev; once disk1 has served reads it
# vanishes (every I/O ENODEV).  Its worker stops with the reason in every
# pass it is part of from then on, the other drives' steps run without an
# error, the JSON is valid, the exit status is 1, and no verdict is built on
# the vanished drive's unknown rate (no "inf" or "nan" anywhere).
. "$(dirname "$0")/../fault/lib.sh"
fault_need

fault_start --disks 3 --size 64M --fill random
fault_loops 3

"$DS" run saturate "$L0" "$L1" "$L2" --time 1.5 --json "$FT/s.json" >"$FT/out" 2>&1 &
DSPID=$!
fault_extra_cleanup="kill $DSPID 2>/dev/null"
i=0
until grep -Eq '^disk1 .*reads [0-9]{3,}' "$FMNT/.ctl"; do
	kill -0 $DSPID 2>/dev/null || fault_fail "saturate ended before disk1 was read: $(cat "$FT/out")"
	[ $i -ge 600 ] && fault_fail "saturate never read disk1"
	sleep 0.1
	i=$((i + 1))
done
fault_ctl disk1 vanish
wait $DSPID
rc=$?
fault_extra_cleanup=""
cat "$FT/out"
[ $rc -eq 1 ] || fault_fail "exit $rc, want 1"
fault_json "$FT/s.json"
python3 - "$FT/s.json" "${L0#/dev/}" "${L1#/dev/}" "${L2#/dev/}" <<'PY' || fault_fail "saturate JSON after a vanished drive"
import json, sys
r = json.load(open(sys.argv[1]))["run"]
a, gone, c = sys.argv[2:]
assert len(r["steps"]) == 3 and not r["interrupted"], (len(r["steps"]), r["interrupted"])
hit = 0
for t in r["solo"] + [t for s in r["steps"] for t in s["results"]]:
    # errors at the start of a pass may be kept apart as ramp-up errors
    n = t["errors"]["count"] + (t.get("ramp_errors") or {}).get("count", 0)
    if t["target"] == gone:
        if n:
            hit += 1
            assert t["note"] and gone in t["note"] and "No such device" in t["note"], t["note"]
    else:
        assert n == 0 and t["note"] is None and t["mbps"] > 0, t
assert hit >= 2, "the vanished drive failed in %d passes" % hit
last = [t for t in r["steps"][-1]["results"] if t["target"] == gone][0]
assert last["note"], last
print("vanished %s: stopped in %d passes; %s and %s error-free" % (gone, hit, a, c))
PY
if grep -Eiq '\b(inf|nan|infinity)\b' "$FT/s.json" "$FT/out"; then
	grep -Ei '\b(inf|nan|infinity)\b' "$FT/out"
	fault_fail "a verdict built on the vanished drive's unknown rate (inf/nan above)"
fi
# the verdict says how far the curve could be judged, and why not further
grep -Eq "saturation: .*not judged beyond [0-9]+ drives?: ${L1#/dev/} stopped early" "$FT/out" ||
	fault_fail "the saturation verdict does not say that ${L1#/dev/} ended the curve"
grep 'saturation' "$FT/out"
echo PASS
