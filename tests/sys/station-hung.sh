#!/bin/sh
# station-hung.sh - one drive that stops answering holds only its own slot.
# Two loop devices over the fault device, both paced at the same head rate;
# the station reads both (a long seqread profile); disk1 then stalls for
# 30 s: bayB is marked hung after --io-timeout while bayA goes on, every one
# of bayA's intervals after the stall within 10 % of its median before it;
# SIGTERM during the stall quits in bounded time (the quit event), not
# after the drive; exit 143.
. "$(dirname "$0")/../fault/lib.sh"
. "$fault_top/tests/lib/station.sh"
fault_need
"$DS" station --help >/dev/null 2>&1 || fault_skip "$DS has no station command"

fault_start --disks 2 --size 512M --fill zero
fault_ctl rate 0:16 1:16
mkdir "$FT/home"
printf '[bayA]\npattern = %s/disk0\n[bayB]\npattern = %s/disk1\n' "$FMNT" "$FMNT" >"$FT/slots.ini"
printf '[long-read]\ndescription = a long read\nstep = seqread time=120 bs=256k qd=1\n' >"$FT/profiles.ini"
station_start long-read --profiles "$FT/profiles.ini" --slots "$FT/slots.ini" --out "$FT/out" --io-timeout 4
fault_loops 2
ev_wait 30 'e["event"] == "started" and e["slot"] == "bayA"' >/dev/null
ev_wait 30 'e["event"] == "started" and e["slot"] == "bayB"' >/dev/null
# eight seconds of both before the stall
ev_wait 60 'e["event"] == "progress" and e["slot"] == "bayA" and e["t_run"] >= 9' >/dev/null
ev_wait 60 'e["event"] == "progress" and e["slot"] == "bayB" and e["t_run"] >= 9' >/dev/null
loop_check "$L0" "$L1" || exit 1
ev_mark
stall_from=$EV_FROM
# the device-wide "stall" would hold both disks: a 30 s delay on each of
# disk1's I/Os is its own stall
fault_ctl disk1 delay all 30000
hung=$(ev_wait 20 'e["event"] == "hung"')
echo "$hung" | cut -c1-300
echo "$hung" | grep -q '"slot":"bayB"' || fault_fail "the hung slot is not bayB: $hung"
ev_mark
# eight seconds of bayA after bayB hung
ev_wait 30 'e["event"] == "progress" and e["slot"] == "bayA"' >/dev/null
t_hung=$(ev_find 'e["event"] == "progress" and e["slot"] == "bayA"' first |
	python3 -c 'import json,sys; print(json.load(sys.stdin)["t_run"])')
ev_wait 30 "e['event'] == 'progress' and e['slot'] == 'bayA' and e['t_run'] >= $t_hung + 8" >/dev/null
grep -q "^disk1 delay all" "$FMNT/.ctl" || fault_fail "the stall ended before bayA was measured"
loop_check "$L0" || exit 1
EV_FROM=0
[ "$(ev_count 'e["event"] == "hung" and e["slot"] == "bayA"')" -eq 0 ] || fault_fail "bayA was marked hung too"
[ "$(ev_count 'e["event"] in ("finished", "pulled", "dropped") and e["slot"] == "bayA"')" -eq 0 ] ||
	fault_fail "bayA ended during bayB's stall"
python3 - "$SEV" "$stall_from" "$EV_FROM" <<'PY' || fault_fail "bayA's rate moved by more than 10 % while bayB hung"
import json, statistics, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
a = [(i, e) for i, e in enumerate(ev) if e["event"] == "progress" and e["slot"] == "bayA"]
stall = int(sys.argv[2])
hung = next(i for i, e in enumerate(ev) if e["event"] == "hung")
# an interval is two progress events (about 2 s): a 1 s one moves by a
# tenth on a loaded 2-core machine whatever the other drive does
def rates(pts):
    pts = pts[::2]
    return [(b["bytes"] - a["bytes"]) / (b["t_run"] - a["t_run"]) / 1e6
            for (_, a), (_, b) in zip(pts, pts[1:]) if b["t_run"] > a["t_run"]]
before = rates([p for p in a if p[0] < stall][1:])     # the first interval is the ramp
after = rates([p for p in a if p[0] > hung])
med = statistics.median(before)
print("bayA MB/s before the stall: median %.2f of %s" % (med, ["%.2f" % r for r in before]))
print("bayA MB/s while bayB hung: %s" % ["%.2f" % r for r in after])
assert len(before) >= 3 and len(after) >= 3, (before, after)
bad = [r for r in after if abs(r - med) > 0.10 * med]
assert not bad, bad
PY
# quitting while bayB's stall goes on: bounded, not a wait for the drive
# (the quit event while its delayed reads are still out; the process then
# ends when the kernel returns the stuck read: tests/lib/station.sh)
station_stop TERM
[ "$station_quit_s" -le 10 ] || fault_fail "quitting took $station_quit_s s (bound: --quit-timeout 5 s)"
[ "$station_rc" -eq 143 ] || fault_fail "SIGTERM: exit $station_rc, want 143"
ev_find 'e["event"] == "quit"' first | cut -c1-300
fault_ctl clear
echo PASS
