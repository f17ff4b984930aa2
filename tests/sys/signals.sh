#!/bin/sh
# signals.sh - a headless run and the signals a shell sends it.  SIGINT,
# SIGTERM and SIGHUP each stop the run: exit 128+sig, a valid partial JSON
# marked interrupted (to a file and to stdout), the scratch file removed.
# SIGUSR1 is ignored and SIGTSTP/SIGCONT only pause: the run ends normally.
# `--json - | true` (SIGPIPE, then EPIPE) is exit 2 with a clear line and the
# scratch file removed; `run`/`list` > /dev/full are exit 2, never a silent 0.
DS=${DISKSCOPE:-build/diskscope}
[ -x "$DS" ] || { echo "SKIP: $DS not built"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: needs python3 to read the JSON"; exit 77; }
T=$(mktemp -d /tmp/ds-signals-XXXXXX)
P=""
cleanup() { [ -n "$P" ] && kill -9 "$P" 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT INT TERM
fail() { echo "FAIL: $*"; [ -f "$T/err" ] && sed 's/^/  stderr: /' "$T/err"; exit 1; }
mkdir -p "$T/d" "$T/fix/sys/block" "$T/fix/sys/class/block"
: >"$T/fix/pci.dump"
LIST="--demo --sysfs-root $T/fix/sys --pci-dump $T/fix/pci.dump --no-ata list"	# no host drives
RUN="run seqread $T/d --file-size 64M"

no_scratch() {
	[ -z "$(ls -A "$T/d")" ] || fail "$1: scratch file left behind: $(ls -A "$T/d")"
}
# the run's scratch file in $T/d as /proc/PID/fd/N (it has no name: O_TMPFILE)
held() {
	for f in /proc/"$P"/fd/*; do
		case $(readlink "$f" 2>/dev/null) in "$T/d"/*) echo "$f"; return 0 ;; esac
	done
	return 1
}
# wait until the run measures: the scratch file is there, filled
wait_measuring() {
	i=0
	while :; do
		f=$(held)
		[ -n "$f" ] && [ "$(stat -L -c %s "$f" 2>/dev/null)" = 67108864 ] && break
		kill -0 "$P" 2>/dev/null || fail "$1: the run ended before it was signalled"
		i=$((i + 1)); [ $i -lt 1200 ] || fail "$1: no scratch file after 120 s"
		sleep 0.1
	done
	sleep 1	# into the measured time
}
wait_end() {	# -> $rc
	timeout 120 sh -c "while kill -0 $P 2>/dev/null; do sleep 0.1; done" || fail "$1: did not stop"
	wait "$P"; rc=$?; P=""
}
check_json() {	# FILE INTERRUPTED(True/False)
	python3 - "$1" "$2" <<'PY' || fail "$1: not a valid result (interrupted=$2)"
import json, sys
r = json.load(open(sys.argv[1]))["run"]
assert r["interrupted"] is (sys.argv[2] == "True"), r["interrupted"]
res = r["steps"][0]["results"][0]
assert res["bytes"] > 0 and res["seconds"] > 0, res
PY
}

for pair in INT:130 TERM:143 HUP:129; do
	sig=${pair%%:*} want=${pair#*:}
	rm -f "$T/p.json"
	"$DS" $RUN --time 120 --json "$T/p.json" >"$T/out" 2>"$T/err" &
	P=$!
	wait_measuring "SIG$sig"
	kill -"$sig" "$P"
	wait_end "SIG$sig"
	[ $rc -eq "$want" ] || fail "SIG$sig: exit $rc, want $want"
	check_json "$T/p.json" True
	no_scratch "SIG$sig"
	echo "ok: SIG$sig -> exit $rc, partial JSON, no scratch file"
done

# the partial document on stdout (--json -)
"$DS" $RUN --time 120 --json - >"$T/stdout.json" 2>"$T/err" &
P=$!
wait_measuring "SIGHUP --json -"
kill -HUP "$P"
wait_end "SIGHUP --json -"
[ $rc -eq 129 ] || fail "SIGHUP --json -: exit $rc, want 129"
check_json "$T/stdout.json" True
no_scratch "SIGHUP --json -"
echo "ok: SIGHUP with --json - -> exit 129, partial JSON on stdout"

# SIGUSR1 ignored, SIGTSTP + SIGCONT a pause: the run completes
"$DS" $RUN --time 3 --json "$T/u.json" >"$T/out" 2>"$T/err" &
P=$!
wait_measuring "SIGUSR1"
kill -USR1 "$P"
kill -TSTP "$P"
# stopped (state T) unless its process group is orphaned, where POSIX drops
# SIGTSTP; either way SIGCONT must leave a run that completes
i=0
while [ "$(ps -o stat= -p "$P" | cut -c1)" != T ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
tstp=$(ps -o stat= -p "$P" | cut -c1)
kill -CONT "$P"
wait_end "SIGUSR1/SIGTSTP"
[ $rc -eq 0 ] || fail "SIGUSR1, SIGTSTP/SIGCONT: exit $rc, want 0"
check_json "$T/u.json" False
no_scratch "SIGUSR1"
echo "ok: SIGUSR1 ignored, SIGTSTP ($([ "$tstp" = T ] && echo stopped || echo "not stopped: orphaned group")) + SIGCONT: exit 0, complete JSON"

# SIGPIPE: the reader is gone before the document is written
( "$DS" $RUN --time 1 --json - 2>"$T/err"; echo $? >"$T/rc" ) | true
rc=$(cat "$T/rc")
[ "$rc" -eq 2 ] || fail "--json - | true: exit $rc, want 2"
grep -q "Broken pipe" "$T/err" || fail "--json - | true: no 'Broken pipe' line"
no_scratch "SIGPIPE"
echo "ok: --json - | true -> exit 2: $(grep 'Broken pipe' "$T/err")"

# stdout on a full device: the result is lost, so not exit 0
"$DS" $RUN --time 1 >/dev/full 2>"$T/err"
rc=$?
[ $rc -eq 2 ] || fail "run > /dev/full: exit $rc, want 2"
grep -q "No space left on device" "$T/err" || fail "run > /dev/full: no ENOSPC line"
no_scratch "run > /dev/full"
"$DS" $LIST >/dev/full 2>"$T/err"
rc=$?
[ $rc -eq 2 ] || fail "list > /dev/full: exit $rc, want 2"
grep -q "No space left on device" "$T/err" || fail "list > /dev/full: no ENOSPC line"
"$DS" $LIST --json >/dev/full 2>"$T/err"
rc=$?
[ $rc -eq 2 ] || fail "list --json > /dev/full: exit $rc, want 2"
echo "ok: run/list > /dev/full -> exit 2, 'No space left on device'"
echo PASS
