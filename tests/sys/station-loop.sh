#!/bin/sh
# station-loop.sh - the bench station headless, on loop devices over the
# fault device, arrivals through the kernel's own uevents (no udevd): a loop
# attached to a file a slot's pattern names is a drive arriving (arrived,
# started, step, progress, finished, its `run --json` document under the
# output folder by key); one made to vanish and then detached mid-read is
# pulled (its LBA and percent, recorded, the slot empty again: a new drive
# arrives in it); one that vanishes and stays is dropped (FAIL "dropped off
# the bus"); SIGINT quits (130) in bounded time.
. "$(dirname "$0")/../fault/lib.sh"
. "$fault_top/tests/lib/station.sh"
fault_need
"$DS" station --help >/dev/null 2>&1 || fault_skip "$DS has no station command"

fault_start --disks 2 --size 64M --fill random
mkdir "$FT/home"
printf '[bayA]\npattern = %s/disk0\n[bayB]\npattern = %s/disk1\n' "$FMNT" "$FMNT" >"$FT/slots.ini"
station_start quick-check --slots "$FT/slots.ini" --out "$FT/out" --io-timeout 20
ev_wait 5 'e["event"] == "ready" and [s["label"] for s in e["slots"]] == ["bayA", "bayB"]' >/dev/null ||
	fault_fail "the ready event does not list the slots"
grep -q '"source":"kernel"' "$SEV" || [ -e /run/udev/control ] ||
	fault_fail "no udevd here, yet the station did not listen to the kernel's uevents"

# 1. a drive arrives in bayA and is tested to the end
fault_loop 0
LA=$FLOOP
ev_wait 30 'e["event"] == "arrived" and e["slot"] == "bayA"' | grep -q "\"device\":\"${LA}\"" ||
	fault_fail "bayA's arrival does not name $LA"
ev_wait 10 'e["event"] == "started" and e["slot"] == "bayA" and e["profile"] == "quick-check"' >/dev/null
fin=$(ev_wait 120 'e["event"] == "finished" and e["slot"] == "bayA"')
loop_check "$LA" || exit 1
echo "bayA: $fin" | cut -c1-300
res=$(echo "$fin" | python3 -c 'import json,sys; e=json.load(sys.stdin); assert e["verdict"] in ("PASS","WARN","FAIL"), e; assert e["recorded"] is True, e; print(e["results"][0])') ||
	fault_fail "the finished event has no verdict or result"
case "$res" in "$FT/out/loop-disk0/"*.json) ;; *) fault_fail "the result $res is not under the output folder by key" ;; esac
fault_json "$res"
python3 - "$res" <<'PY' || fault_fail "the result file is not the run's document"
import json, sys
r = json.load(open(sys.argv[1]))["run"]
assert r["steps"] and not r["interrupted"], r.keys()
PY
[ "$(ev_count 'e["event"] == "step" and e["slot"] == "bayA"')" -ge 1 ] || fault_fail "no step event"

# 2. a drive pulled mid-read: its reads fail (vanish), then it is detached
# (deferred while the station holds it open)
fault_ctl disk1 delay all 20
fault_loop 1
LB=$FLOOP
ev_wait 30 'e["event"] == "started" and e["slot"] == "bayB"' >/dev/null
ev_wait 60 'e["event"] == "progress" and e["slot"] == "bayB" and e["percent"] > 0' >/dev/null
loop_check "$LB" || exit 1
fault_ctl disk1 vanish
losetup -d "$LB" || fault_fail "losetup -d $LB"
pul=$(ev_wait 30 'e["event"] == "pulled" and e["slot"] == "bayB"')
echo "bayB: $pul" | cut -c1-300
echo "$pul" | python3 -c '
import json, re, sys
e = json.load(sys.stdin)
m = re.fullmatch(r"pulled at LBA (\d+) after (\d+) %", e["text"])
assert m and int(m.group(1)) == e["lba"] and int(m.group(2)) == e["percent"], e
assert 0 <= e["lba"] < 64 * 2048 and 0 < e["percent"] < 100, e
assert e["recorded"] is True and e["results"] and e["early"] is True, e
' || fault_fail "the pulled event lacks its LBA, percent or record"
fault_json "$(echo "$pul" | python3 -c 'import json,sys; print(json.load(sys.stdin)["results"][0])')"
[ "$(ev_count 'e["event"] in ("finished", "dropped") and e["slot"] == "bayB"')" -eq 0 ] ||
	fault_fail "a pulled drive was also reported finished or dropped"

# 3. the slot is empty again: the next drive there arrives; it vanishes and
# stays (ENODEV while the device exists): dropped, FAIL
fault_ctl clear
fault_ctl disk1 delay all 20
ev_mark
fault_loop 1
LB2=$FLOOP
ev_wait 30 "e['event'] == 'started' and e['slot'] == 'bayB' and e['device'] == '$LB2'" >/dev/null ||
	fault_fail "no second arrival in bayB"
ev_wait 60 'e["event"] == "progress" and e["slot"] == "bayB" and e["percent"] > 0' >/dev/null
loop_check "$LB2" || exit 1
fault_ctl disk1 vanish
drop=$(ev_wait 30 'e["event"] == "dropped" and e["slot"] == "bayB"')
echo "bayB: $drop" | cut -c1-300
echo "$drop" | python3 -c '
import json, sys
e = json.load(sys.stdin)
assert e["verdict"] == "FAIL" and e["text"] == "dropped off the bus at LBA %d" % e["lba"], e
assert 0 <= e["lba"] < 64 * 2048 and e["percent"] > 0, e
' || fault_fail "the dropped event is not FAIL at an LBA"
EV_FROM=0
[ "$(ev_count 'e["event"] == "started"')" -eq 3 ] || fault_fail "a drive started twice, or one never"

# 4. quit: bounded, 130, the tally
station_stop INT
[ "$station_rc" -eq 130 ] || fault_fail "SIGINT: exit $station_rc, want 130"
q=$(ev_find 'e["event"] == "quit"' first) || fault_fail "no quit event"
echo "$q" | python3 -c 'import json,sys; e=json.load(sys.stdin); assert e["tested"] == 3 and e["pulled_early"] == 1, e' ||
	fault_fail "the quit tally is wrong: $q"
echo PASS
