#!/bin/sh
# history-health.sh - the bench history keeps each drive's health as each run
# last read it (schema 4: drive_health, class-tagged): two triage runs of a
# healthy WD40EZRX (sim0, ATA SMART) and the worn NVMe PM981WORN (sim1,
# tests/fixtures/sim/triage-nvme.rig), then `diskscope history sim1` shows the
# NVMe health of each run (critical warning, spare and its threshold,
# percentage used, media errors after the run, temperature) and --json
# carries the recorded object; sim0's runs show their SMART figures.
# With DISKSCOPE_TEST_PG=URL (a PostgreSQL server, as history-pg.sh starts
# one) the same on the server.
DS=${DISKSCOPE:-build/diskscope}
[ -x "$DS" ] || { echo "SKIP: $DS not built"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: needs python3 to read the JSON"; exit 77; }
T=$(mktemp -d /tmp/ds-hist-health-XXXXXX)
trap 'rm -rf "$T"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
F=$(dirname "$0")/../fixtures/sim
SIM="--rig $F/triage-nvme.rig"
H="--db ${DISKSCOPE_TEST_PG:-$T/h.db}"
export XDG_DATA_HOME="$T/xdg"

# shellcheck disable=SC2086
"$DS" $H $SIM triage sim0 sim1 --region 0:2000000 --seed 3 >"$T/o1" 2>&1
[ $? -eq 1 ] || fail "first triage: $(tail -3 "$T/o1")"
# shellcheck disable=SC2086
"$DS" $H $SIM triage sim0 sim1 --region 0:2000000 --seed 4 --nvme-critical warn >"$T/o2" 2>&1
[ $? -le 1 ] || fail "second triage: $(tail -3 "$T/o2")"
# shellcheck disable=SC2086
"$DS" $H history sim1 >"$T/h1" 2>&1 || fail "history sim1: $(cat "$T/h1")"
cat "$T/h1"
want="health (nvme): critical warning 0x05, spare 5%, threshold 10%, used 100%, data units written 585937500, media errors 15, temperature 41"
n=$(grep -c "^      $want" "$T/h1")
[ "$n" = 2 ] || fail "want the NVMe health line under each of 2 runs, got $n"
# shellcheck disable=SC2086
"$DS" $H history sim0 >"$T/h0" 2>&1 || fail "history sim0: $(cat "$T/h0")"
n=$(grep -c "^      health (ata): reallocated 0, pending 0, temperature 31" "$T/h0")
[ "$n" = 2 ] || fail "want the ATA health line under each of 2 runs, got $n: $(cat "$T/h0")"
# shellcheck disable=SC2086
"$DS" $H history sim1 --json >"$T/h1.json" 2>"$T/err" || fail "history --json: $(cat "$T/err")"
python3 - "$T/h1.json" <<'PY' || fail "history --json health"
import json, sys
d = json.load(open(sys.argv[1]))
d = d["history"]["drives"]
runs = d[0]["runs"]
assert len(runs) == 2, runs
for r in runs:
    h = r["health"]
    assert h["class"] == "nvme", h
    assert (h["critical_warning"], h["available_spare"], h["spare_threshold"], h["percent_used"],
            h["media_errors"]) == (5, 5, 10, 100, 15), h
    assert h["data_units_written"] == 585937500, h
    assert h["wear_pct"] == 100 and h["wear_source"] == "NVMe percentage used", h
PY
echo PASS
