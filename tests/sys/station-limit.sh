#!/bin/sh
# station-limit.sh - the station's settings for a bench's power and its
# controllers: with --max-per-controller 1, two drives that arrive together
# on one controller (loop devices share none: one group) run one after the
# other, the second started only once the first finished; --stagger puts at
# least that long between two starts.  Every drive is started once and
# finishes once.
. "$(dirname "$0")/../fault/lib.sh"
. "$fault_top/tests/lib/station.sh"
fault_need
"$DS" station --help >/dev/null 2>&1 || fault_skip "$DS has no station command"

fault_start --disks 3 --size 32M --fill random
mkdir "$FT/home"
printf '[a]\npattern = %s/disk0\n[b]\npattern = %s/disk1\n[c]\npattern = %s/disk2\n' \
	"$FMNT" "$FMNT" "$FMNT" >"$FT/slots.ini"
printf '[short]\nstep = seqread time=2 bs=256k qd=1\n' >"$FT/profiles.ini"

# 1. one at a time
station_start short --profiles "$FT/profiles.ini" --slots "$FT/slots.ini" --out "$FT/out" \
	--max-per-controller 1
fault_loops 2
ev_wait 60 'e["event"] == "finished" and e["slot"] == "a"' >/dev/null
ev_wait 60 'e["event"] == "finished" and e["slot"] == "b"' >/dev/null
loop_check "$L0" "$L1" || exit 1
python3 - "$SEV" <<'PY' || fault_fail "two jobs of one controller ran at once"
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
st = {e["slot"]: e["t"] for e in ev if e["event"] == "started"}
fin = {e["slot"]: e["t"] for e in ev if e["event"] == "finished"}
assert sorted(st) == ["a", "b"] and sorted(fin) == ["a", "b"], (st, fin)
first, second = sorted(st, key=st.get)
assert st[second] >= fin[first], (st, fin)
print("one at a time: %s %.1f-%.1f, %s from %.1f" % (first, st[first], fin[first], second, st[second]))
PY
station_stop INT
loop_detach "$L0" "$L1"

# 2. staggered starts: three drives together, 3 s apart at least
station_start short --profiles "$FT/profiles.ini" --slots "$FT/slots.ini" --out "$FT/out" --stagger 3
fault_loops 3
for s in a b c; do ev_wait 60 "e['event'] == 'finished' and e['slot'] == '$s'" >/dev/null; done
python3 - "$SEV" <<'PY' || fault_fail "starts closer than --stagger 3"
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
t = sorted(e["t"] for e in ev if e["event"] == "started")
assert len(t) == 3, t
assert all(b - a >= 2.9 for a, b in zip(t, t[1:])), t
print("staggered starts at", t)
PY
station_stop INT
echo PASS
