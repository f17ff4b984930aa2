#!/bin/sh
# triage-history.sh - triage takes the bench history's drives of a model as
# extra peers (issue 14: "triage uses the history as extra peers"): the weak
# WD40EZRX unit triaged alone has no peer on the bench; after three healthy
# units of its model were read here (seqread, recorded), it reads SLOW alone
# against them, with the count of history peers in its evidence.  The drive
# on the bench itself is never its own history peer; --no-history leaves it
# without peers again.
DS=${DISKSCOPE:-build/diskscope}
[ -x "$DS" ] || { echo "SKIP: $DS not built"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: needs python3 to read the JSON"; exit 77; }
T=$(mktemp -d /tmp/ds-triage-hist-XXXXXX)
trap 'rm -rf "$T"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
F=$(dirname "$0")/../fixtures/sim
SIM="--sim-model $F/WD40EZRX-WEAK.drive --sim-model $F/WD40EZRX-FLAWED.drive --rig $F/triage.rig"
H="--db $T/h.db"

verdict() {	# JSON -> "LEVEL|evidence; evidence" of the first triage verdict
	python3 -c '
import json, sys
v = [x for x in json.load(open(sys.argv[1]))["run"]["verdicts"] if x["kind"] == "triage"][0]
print(v["level"] + "|" + "; ".join(v["evidence"]))' "$1"
}

# alone, nothing recorded: no peers
# shellcheck disable=SC2086
"$DS" $H $SIM triage sim2 --seed 3 --json "$T/a.json" >"$T/out" 2>&1 || fail "triage sim2 alone: $(tail -3 "$T/out")"
v=$(verdict "$T/a.json")
echo "before: $v"
echo "$v" | grep -q "no peers" || fail "a lone drive with an empty history has peers: $v"
# the weak drive's own seqread is recorded too: never its own peer
for d in sim0 sim1 sim3 sim2; do
	# shellcheck disable=SC2086
	"$DS" $H $SIM run seqread "$d" --time 2 >/dev/null 2>&1 || fail "seqread $d"
done
# shellcheck disable=SC2086
"$DS" $H $SIM triage sim2 --seed 3 --json "$T/b.json" >"$T/out" 2>&1
rc=$?
v=$(verdict "$T/b.json")
echo "after: $v"
[ $rc -eq 0 ] || fail "a WARN is exit 0: got $rc"
echo "$v" | grep -q "^warn|" || fail "the weak unit is not WARN against its history peers: $v"
echo "$v" | grep -Eq "alone: [0-9.]+ MB/s, (5[5-9]|6[0-5]) % of its peers' median \(0 on the bench, 3 from the bench history\)" \
	|| fail "evidence lacks the history peers (3: sim0, sim1, sim3; not sim2 itself): $v"
grep -q "SLOW alone" "$T/out" || fail "the text result does not say SLOW alone"
# --no-history: nothing read from it either
# shellcheck disable=SC2086
"$DS" $H --no-history $SIM triage sim2 --seed 3 --json "$T/c.json" >"$T/out" 2>&1 || fail "triage --no-history"
v=$(verdict "$T/c.json")
echo "$v" | grep -q "no peers" || fail "--no-history still compared with the history: $v"
echo PASS
