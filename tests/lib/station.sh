#!/bin/sh
# station.sh - what the station scenarios share (sourced after
# tests/fault/lib.sh): start `diskscope station --headless` with its events
# in a file, and wait for events in it (the observable state: never a sleep
# standing in for one).
#
#   station_start ARGS...          the station in the background ($SPID, events $SEV)
#   ev_wait SECONDS PYEXPR         until some event e makes PYEXPR true; prints it
#   ev_count PYEXPR                how many events make it true
#   ev_mark                        later waits see only the events after now
#   station_stop [SIG]             signal it; fails unless it ends within 15 s

SEV=""
SPID=""
EV_FROM=0

station_start() {
	SEV="$FT/events.jsonl"
	: >"$SEV"
	HOME="$FT/home" "$DS" station --headless --events "$SEV" "$@" >"$FT/station.out" 2>"$FT/station.err" &
	SPID=$!
	fault_extra_cleanup="station_kill"
	ev_wait 20 'e["event"] == "ready"' >/dev/null
}

station_kill() {
	[ -n "$SPID" ] && kill -9 "$SPID" 2>/dev/null
	[ -n "$SPID" ] && wait "$SPID" 2>/dev/null
	SPID=""
}

ev_find() {
	python3 - "$SEV" "$1" "$2" "$EV_FROM" <<'PY'
import json, sys
want = sys.argv[2]
n = 0
for i, line in enumerate(open(sys.argv[1])):
    if i < int(sys.argv[4]):
        continue
    if not line.endswith("\n"):
        break                   # a line still being written
    e = json.loads(line)
    assert e["schema"] == "diskscope-station/1", e
    if eval(want, {}, {"e": e}):
        n += 1
        if sys.argv[3] == "first":
            print(line, end="")
            sys.exit(0)
if sys.argv[3] == "count":
    print(n)
    sys.exit(0)
sys.exit(1)
PY
}

ev_count() { ev_find "$1" count; }
ev_mark() { EV_FROM=$(wc -l <"$SEV"); }

ev_wait() {
	_ew_end=$(($(date +%s) + $1))
	while ! ev_find "$2" first; do
		[ -n "$SPID" ] && ! kill -0 "$SPID" 2>/dev/null &&
			fault_fail "the station ended while waiting for $2: $(cat "$FT/station.err")"
		[ "$(date +%s)" -ge "$_ew_end" ] && {
			echo "---- events ----"; cut -c1-300 "$SEV"
			fault_fail "no event $2 within $1 s"; }
		sleep 0.1
	done
}

# The station's quit is bounded (its "quit" event within 15 s); the process
# itself ends when the kernel returns a thread's read: a block read stuck in
# the kernel keeps a thread (and so the process) until it completes, so the
# wait for the exit is longer (60 s).  station_quit_s: to the quit event.
station_stop() {
	_ss_t0=$(date +%s)
	ev_mark
	kill "-${1:-INT}" "$SPID"
	_ss_i=0
	while ! ev_find 'e["event"] == "quit"' first >/dev/null; do
		[ $_ss_i -ge 150 ] && { echo "---- last events ----"; tail -5 "$SEV" | cut -c1-300
			fault_fail "the station did not quit within 15 s of SIG${1:-INT}"; }
		sleep 0.1
		_ss_i=$((_ss_i + 1))
	done
	station_quit_s=$(($(date +%s) - _ss_t0))
	_ss_i=0
	while kill -0 "$SPID" 2>/dev/null; do
		[ $_ss_i -ge 600 ] && fault_fail "the station's process did not end within 60 s of its quit"
		sleep 0.1
		_ss_i=$((_ss_i + 1))
	done
	wait "$SPID"
	station_rc=$?
	SPID=""
	fault_extra_cleanup=""
	EV_FROM=0
}
