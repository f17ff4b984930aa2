#!/bin/sh
# scratch-kill: a scratch file leaves nothing behind, whatever ends the run.
#   - kill -9 in the middle of `run seqwrite DIR` (and of `run quick DIR`,
#     which fills its file first): the directory is empty afterwards, on ext4
#     and on tmpfs (O_TMPFILE: the file never had a name);
#   - --keep: the file is kept, named DIR/diskscope-scratch-XXXXXX;
#   - --file-size larger than the free space: exit 2 (bad input), one line
#     naming the directory and the free space, nothing created.
DS=${DISKSCOPE:-build/diskscope}
[ -x "$DS" ] || { echo "SKIP: $DS not built"; exit 77; }
T=$(mktemp -d /tmp/ds-scratch-kill-XXXXXX)
S=$(mktemp -d /dev/shm/ds-scratch-kill-XXXXXX 2>/dev/null) || S=
PID=
cleanup() {
  [ -n "$PID" ] && kill -9 "$PID" 2>/dev/null
  [ -n "$S" ] && rm -rf "$S"
  rm -rf "$T"
}
trap cleanup EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }

# holds PID DIR: the process has a file in DIR open (named or O_TMPFILE's
# "DIR/#INODE (deleted)")
holds() {
  for f in /proc/"$1"/fd/*; do
    case $(readlink "$f" 2>/dev/null) in "$2"/*) return 0 ;; esac
  done
  return 1
}
# killed WHAT DIR ARGS...: start `diskscope run ARGS`, wait until it holds
# its scratch file in DIR (bounded: 120 s), kill -9, want DIR empty
killed() {
  what=$1 dir=$2; shift 2
  "$DS" run "$@" >/dev/null 2>"$T/err" &
  PID=$!
  i=0
  while ! holds $PID "$dir" && kill -0 $PID 2>/dev/null && [ $i -lt 1200 ]; do sleep 0.1; i=$((i+1)); done
  holds $PID "$dir" || fail "$what: the run never opened a scratch file in $dir ($(cat "$T/err"))"
  kill -9 $PID; wait $PID 2>/dev/null; PID=
  left=$(ls -A "$dir")
  [ -z "$left" ] || fail "$what: kill -9 left $left in $dir ($(du -sh "$dir" | cut -f1))"
  echo "ok: $what: kill -9 mid-run, nothing left in $dir"
}

mkdir "$T/ext"
killed "seqwrite on $(findmnt -n -o FSTYPE -T "$T/ext" 2>/dev/null || stat -f -c %T "$T/ext")" "$T/ext" seqwrite "$T/ext" --time 60 --file-size 64M
killed "quick on $(findmnt -n -o FSTYPE -T "$T/ext" 2>/dev/null || stat -f -c %T "$T/ext")" "$T/ext" quick "$T/ext" --loops 3 --time 20 --file-size 64M
if [ -n "$S" ]; then
  killed "seqwrite on tmpfs" "$S" seqwrite "$S" --time 60 --file-size 64M
else
  echo "note: no /dev/shm here: the tmpfs case not run"
fi

# --keep: kept under its name pattern
"$DS" run seqwrite "$T/ext" --time 1 --file-size 8M --keep >/dev/null 2>"$T/err" || fail "--keep: exit $? ($(cat "$T/err"))"
kept=$(ls "$T/ext")
case $kept in diskscope-scratch-??????) ;; *) fail "--keep: want one diskscope-scratch-XXXXXX, got '$kept'" ;; esac
[ "$(stat -c %s "$T/ext/$kept")" = 8388608 ] || fail "--keep: $kept is $(stat -c %s "$T/ext/$kept") bytes"
echo "ok: --keep: kept as $kept"
rm -f "$T/ext/$kept"

# a file size the directory cannot take: bad input, nothing created
avail=$(df -P -B1G "$T/ext" | awk 'NR == 2 { print $4 }')
big=$((avail * 2 + 8))G
"$DS" run seqwrite "$T/ext" --time 1 --file-size "$big" >"$T/out" 2>"$T/err"; rc=$?
[ $rc = 2 ] || fail "--file-size $big ($avail G free): exit $rc, want 2 ($(cat "$T/err"))"
[ "$(wc -l < "$T/err")" = 1 ] || fail "--file-size $big: want one line, got: $(cat "$T/err")"
grep -q "does not fit: .* GiB of free space there" "$T/err" || fail "--file-size $big: $(cat "$T/err")"
[ -z "$(ls -A "$T/ext")" ] || fail "--file-size $big: left $(ls -A "$T/ext")"
[ -s "$T/out" ] && fail "--file-size $big: a result was printed"
echo "ok: --file-size $big: $(cat "$T/err")"
echo PASS
