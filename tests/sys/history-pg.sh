#!/bin/sh
# history-pg: the history on a PostgreSQL server.  Starts a throwaway cluster
# (initdb in a temporary directory, on a Unix socket only, as the postgres
# user when run as root) and runs the SQLite suites against it: the unit
# tests (build/tests/test_history) and tests/sys/history.sh with --db URL.
# Then: four runs recording at once all land; the config file's [history]
# db and bench are used when no --db or variable is given; an unreachable
# server (a socket directory with no server) spools the run with one notice
# and the run's exit code unchanged, and the next run imports it.
# Skips (77) only when postgresql cannot be installed or started.
DS=${DISKSCOPE:-build/diskscope}
[ -x "$DS" ] || { echo "SKIP: $DS not built"; exit 77; }
[ -x build/tests/test_history ] || { echo "SKIP: build/tests/test_history not built"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: needs python3 to read the JSON"; exit 77; }
sh tools/deps.sh >/dev/null 2>&1 || true	# postgresql is one of the packages it installs
BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -n "$BIN" ] && [ -x "$BIN/initdb" ] && [ -x "$BIN/pg_ctl" ] ||
  { echo "SKIP: postgresql is not installed and could not be (tools/deps.sh)"; exit 77; }
T=$(mktemp -d /tmp/ds-history-pg-XXXXXX)
AS=""
if [ "$(id -u)" = 0 ]; then	# the server refuses to run as root
  id postgres >/dev/null 2>&1 || { echo "SKIP: no postgres user to run the server as"; rm -rf "$T"; exit 77; }
  chown postgres "$T"
  AS="runuser -u postgres --"
fi
stop() { $AS "$BIN/pg_ctl" -D "$T/data" -m immediate stop >/dev/null 2>&1; rm -rf "$T"; }
trap stop EXIT
trap 'exit 1' INT TERM
fail() { echo "FAIL: $*"; [ -f "$T/pg.log" ] && tail -5 "$T/pg.log"; exit 1; }
$AS mkdir "$T/sock" "$T/nosock"
$AS "$BIN/initdb" -D "$T/data" -A trust -U postgres >"$T/initdb.log" 2>&1 ||
  { cat "$T/initdb.log"; echo "SKIP: initdb could not make a cluster"; exit 77; }
$AS "$BIN/pg_ctl" -D "$T/data" -l "$T/pg.log" -w -o "-k $T/sock -c listen_addresses=''" start >/dev/null 2>&1 ||
  { tail -5 "$T/pg.log"; echo "SKIP: the PostgreSQL server did not start"; exit 77; }
for d in v0 v1 v2 rec spool q sys health; do
  "$BIN/createdb" -h "$T/sock" -U postgres "ds_$d" || fail "createdb ds_$d"
done
echo "server: $("$BIN/psql" -h "$T/sock" -U postgres -Atc 'SHOW server_version' ds_sys) on $T/sock"

# the unit suite on the server's databases
DISKSCOPE_TEST_PG="host=$T/sock user=postgres" build/tests/test_history || fail "test_history on PostgreSQL"
# the sys suite with --db URL
URL="postgresql://postgres@/ds_sys?host=$T/sock"
HISTORY_DB=$URL sh tests/sys/history.sh || fail "tests/sys/history.sh on PostgreSQL"
DISKSCOPE_TEST_PG="postgresql://postgres@/ds_health?host=$T/sock" sh tests/sys/history-health.sh ||
  fail "tests/sys/history-health.sh on PostgreSQL"

XDG_DATA_HOME=$T/xdg; export XDG_DATA_HOME
q() { "$BIN/psql" -h "$T/sock" -U postgres -Atc "$1" ds_sys; }
# four runs of one new drive at once: the drive row is made once, all land
pids=""
for i in 1 2 3 4; do
  "$DS" --demo run seqread sim:sim9 --seed $i --time 2 --db "$URL" >/dev/null 2>"$T/c$i" & pids="$pids $!"
done
for p in $pids; do wait "$p" || fail "concurrent run: exit $?"; done
cat "$T"/c[1-4]
[ "$(cat "$T"/c[1-4] | wc -c)" = 0 ] || fail "concurrent runs printed notices"
[ "$(q "SELECT count(*) FROM run r JOIN run_target t ON t.run = r.id WHERE t.target = 'sim:sim9'")" = 4 ] ||
  fail "concurrent: $(q "SELECT count(*) FROM run_target WHERE target = 'sim:sim9'") of 4 runs landed"
[ "$(q "SELECT count(DISTINCT drive) FROM run_target WHERE target = 'sim:sim9'")" = 1 ] || fail "concurrent: one drive, several rows"

# one spooled run imported by two processes at once (two spools): it lands
# once and both spools empty (the loser of the race meets the winner's run
# row, rolls back and retries, then finds the run recorded)
for round in 1 2 3 4 5 6 7 8; do
  id=$(printf 'feed%028d' "$round")
  for s in a b; do
    mkdir -p "$T/sp$s/diskscope/spool"
    python3 -c "import json,sys; d=json.load(open('tests/fixtures/history/seqread-sdb.json')); d['run']['identity']['run_id']=sys.argv[1]; json.dump(d,open(sys.argv[2],'w'))" \
      "$id" "$T/sp$s/diskscope/spool/$id.json" || fail "spool fixture"
  done
  XDG_DATA_HOME=$T/spa "$DS" history nosuchdrive --db "$URL" >/dev/null 2>"$T/ra" & p1=$!
  XDG_DATA_HOME=$T/spb "$DS" history nosuchdrive --db "$URL" >/dev/null 2>"$T/rb" & p2=$!
  wait $p1 || fail "import race: exit $?"
  wait $p2 || fail "import race: exit $?"
  [ "$(q "SELECT count(*) FROM run WHERE run_id = '$id'")" = 1 ] || fail "import race: run $id not there once"
  [ -z "$(ls "$T/spa/diskscope/spool")$(ls "$T/spb/diskscope/spool")" ] ||
    fail "import race: a spool kept the run: $(cat "$T/ra" "$T/rb")"
done

# the config file names the server and the bench; no --db, no variable
mkdir -p "$T/cfg/diskscope"
printf '[history]\ndb = %s\nbench = bench-pg-7\n' "$URL" > "$T/cfg/diskscope/config.ini"
XDG_CONFIG_HOME=$T/cfg "$DS" --demo run seqread sim:sim10 --time 2 >/dev/null 2>"$T/err" || fail "config run: exit $?"
[ "$(q "SELECT b.host FROM run r JOIN bench b ON b.id = r.bench JOIN run_target t ON t.run = r.id WHERE t.target = 'sim:sim10'")" = bench-pg-7 ] ||
  fail "config: the run is not in the server under bench-pg-7"
[ -e "$T/xdg/diskscope/history.db" ] && fail "config: the default file was written too"
[ "$(q 'SELECT schema_version FROM meta')" = 4 ] || fail "schema version on the server"

# an unreachable server: the run keeps its exit code, one notice, spooled
BAD="postgresql://postgres@/ds_sys?host=$T/nosock"
"$DS" --demo run seqread sim:sim11 --time 2 --db "$BAD" >/dev/null 2>"$T/err"; rc=$?
cat "$T/err"
[ $rc = 0 ] || fail "unreachable server changed the exit code to $rc"
[ "$(wc -l < "$T/err")" = 1 ] && grep -q 'history: .*kept in' "$T/err" || fail "not one spool notice"
[ "$(ls "$T/xdg/diskscope/spool" | wc -l)" = 1 ] || fail "spool: $(ls "$T/xdg/diskscope/spool")"
# the server is there again: the next run imports it
"$DS" --demo run seqread sim:sim12 --time 2 --db "$URL" >/dev/null 2>"$T/err" || fail "run after: exit $?"
grep -q 'imported 1 spooled run' "$T/err" || fail "no import notice: $(cat "$T/err")"
[ "$(ls "$T/xdg/diskscope/spool" | wc -l)" = 0 ] || fail "spool not emptied"
"$DS" history sim11 --db "$URL" | grep -q ' seqread ' || fail "the spooled run is not on the server"
echo "history-pg: ok"
