#!/bin/sh
# history-nofile: a --db with no file behind it (SQLite in memory, a
# temporary database, mode=memory, vfs=memdb) would take the spool's runs
# and vanish with them when diskscope exits.  Each such value is refused
# with one line and exit 2 before anything is imported or run (`history`
# and `run`), also when it comes from DISKSCOPE_HISTORY_DB (refused after
# opening); the spool keeps every run, byte for byte; a run recorded while
# the variable names such a database is spooled, not lost; a database on
# disk then takes them all.
DS=${DISKSCOPE:-build/diskscope}
[ -x "$DS" ] || { echo "SKIP: $DS not built"; exit 77; }
T=$(mktemp -d /tmp/ds-history-nofile-XXXXXX)
trap 'rm -rf "$T"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
XDG_DATA_HOME=$T/data; export XDG_DATA_HOME
unset DISKSCOPE_HISTORY_DB DISKSCOPE_CONFIG
SP=$XDG_DATA_HOME/diskscope/spool
spool_sum() { (cd "$SP" 2>/dev/null && ls | sort | xargs -r sha256sum) | sha256sum | cut -c1-16; }
spool_n() { ls "$SP" 2>/dev/null | wc -l; }

# three runs the database cannot take (its directory is a file): spooled
: > "$T/file"
for d in sim0 sim1 sim2; do
  "$DS" --demo run seqread $d --time 1 --db "$T/file/h.db" >/dev/null 2>"$T/err" || fail "spooling run $d: exit $?"
done
[ "$(spool_n)" = 3 ] || fail "set-up: $(spool_n) spooled runs, 3 expected"
sum=$(spool_sum)
echo "spool: 3 runs ($sum)"

# one: CMD... wants exit 2, one line on stderr, nothing run, spool as it was
one() {
  what=$1; shift
  "$@" >"$T/out" 2>"$T/err"; rc=$?
  [ $rc = 2 ] || fail "$what: exit $rc, want 2 ($(cat "$T/err"))"
  [ "$(wc -l < "$T/err")" = 1 ] || fail "$what: want one line, got: $(cat "$T/err")"
  [ -s "$T/out" ] && fail "$what: something ran or was listed: $(head -3 "$T/out")"
  [ "$(spool_n)" = 3 ] && [ "$(spool_sum)" = "$sum" ] || fail "$what: the spool changed: $(spool_n) runs left"
  echo "ok: $what: $(cat "$T/err")"
}
n=0
for v in ':memory:' 'sqlite::memory:' 'file::memory:' 'file:x.db?mode=memory' \
         'file:x.db?mode=memory&cache=shared' "file:$T/m.db?vfs=memdb" ''; do
  one "history --db '$v'" "$DS" history --db "$v"
  one "run --db '$v'" "$DS" --demo run seqread sim3 --time 1 --db "$v"
  if [ -n "$v" ]; then	# an empty variable means "not set"
    one "DISKSCOPE_HISTORY_DB='$v' history" env DISKSCOPE_HISTORY_DB="$v" "$DS" history
    n=$((n+1))
  fi
  n=$((n+2))
done
[ -e x.db ] && fail "a file x.db was made in the working directory"

# a run recorded meanwhile: kept in the spool, never into a vanishing database
DISKSCOPE_HISTORY_DB=':memory:' "$DS" --demo run seqread sim4 --time 1 >/dev/null 2>"$T/err" ||
  fail "run with the variable set: exit $? (the history never changes a run's exit code)"
grep -q 'in memory or a temporary one.*kept in' "$T/err" || fail "run with the variable set: $(cat "$T/err")"
[ "$(spool_n)" = 4 ] || fail "run with the variable set: $(spool_n) spooled runs, 4 expected"

# a database on disk takes them all
"$DS" history --db "$T/h.db" >"$T/out" 2>"$T/err" || fail "history --db FILE: exit $? ($(cat "$T/err"))"
grep -q 'imported 4 spooled runs' "$T/err" || fail "import: $(cat "$T/err")"
[ "$(spool_n)" = 0 ] || fail "spool not emptied into the file"
for d in sim0 sim1 sim2 sim4; do
  "$DS" history "$d" --db "$T/h.db" | grep -q ' seqread ' || fail "$d's run is not in $T/h.db"
done
echo "PASS: $n refusals (exit 2, one line, spool unchanged); 4 spooled runs, 0 lost"
