#!/bin/sh
# output-safety.sh - --json/--csv PATH as root: only a regular file or a new
# name is written; a device node, FIFO, directory or symlink is refused before
# the run (exit 2, one line, the node unchanged); a symlink planted at the old
# temporary name PATH.tmp is never followed; the same file twice (any
# spelling, a hard link) is refused; a full file system says "No space left
# on device" for both, a read-only one "Read-only file system", each exit 2;
# no temporary is left beside the output.
DS=${DISKSCOPE:-build/diskscope}
case "$DS" in /*) ;; *) DS="$PWD/$DS" ;; esac
[ -x "$DS" ] || { echo "SKIP: $DS not built"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (device nodes, tmpfs mounts)"; exit 77; }
T=$(mktemp -d /tmp/ds-outsafe-XXXXXX)
MNTS=""
cleanup() { for m in $MNTS; do umount "$m" 2>/dev/null || umount -l "$m"; done; rm -rf "$T"; }
trap cleanup EXIT INT TERM
fail() { echo "FAIL: $*"; [ -f "$T/err" ] && sed 's/^/  stderr: /' "$T/err"; exit 1; }
RUN="run seqread sim:WD40EZRX --region 0%:1%"

refuse() {	# WHY OPT PATH [OPT PATH]: exit 2, one line naming WHY, stdout empty
	why=$1; shift
	"$DS" $RUN "$@" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 2 ] || fail "$*: exit $rc, want 2"
	[ "$(wc -l <"$T/err")" -eq 1 ] || fail "$*: want one line"
	grep -q -- "$why" "$T/err" || fail "$*: the line does not say '$why'"
	[ ! -s "$T/out" ] || fail "$*: wrote to stdout"
	echo "ok: refused: $(cat "$T/err")"
}
no_temps() {
	left=$(find "$1" -maxdepth 1 -name '.*.tmp' | head -3)
	[ -z "$left" ] || fail "temporaries left in $1: $left"
}

mkdir "$T/o"
# a block device node: refused, still a block device afterwards
mknod "$T/o/blk" b 7 250
for opt in --json --csv; do
	refuse "a block device, not a regular file" $opt "$T/o/blk"
	[ -b "$T/o/blk" ] || fail "$opt: the block device node became $(stat -c %F "$T/o/blk")"
done
mknod "$T/o/chr" c 1 3	# /dev/null's numbers
refuse "a character device" --json "$T/o/chr"
mkfifo "$T/o/fifo"
refuse "a FIFO" --csv "$T/o/fifo"
refuse "name a file" --json "$T/o"
ln -s "$T/victim" "$T/o/link"
refuse "a symbolic link" --json "$T/o/link"
[ ! -e "$T/victim" ] || fail "the symlink's target was written"

# a symlink planted where the old code put its temporary: not followed
echo precious >"$T/victim"
ln -s "$T/victim" "$T/o/r.json.tmp"
ln -s "$T/victim" "$T/o/r.csv.tmp"
"$DS" $RUN --json "$T/o/r.json" --csv "$T/o/r.csv" >/dev/null 2>"$T/err" || fail "run with planted symlinks"
[ "$(cat "$T/victim")" = precious ] || fail "the planted symlink's target was overwritten"
[ -L "$T/o/r.json.tmp" ] || fail "the planted symlink was replaced"
[ -f "$T/o/r.json" ] && [ ! -L "$T/o/r.json" ] || fail "r.json is not a regular file"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))["run"]' "$T/o/r.json" || fail "r.json invalid"
head -1 "$T/o/r.csv" | grep -q '^test,step' || fail "r.csv has no header"
no_temps "$T/o"
echo "ok: planted symlinks at PATH.tmp not followed, outputs regular files"

# an existing regular file is replaced whole
"$DS" $RUN --json "$T/o/r.json" >/dev/null 2>"$T/err" || fail "rewriting r.json"
no_temps "$T/o"

# the same file twice, however spelled
refuse "name the same file" --json "$T/o/x" --csv "$T/o/x"
mkdir "$T/o/sub"
(cd "$T/o" && "$DS" $RUN --json x --csv sub/../x >"$T/out" 2>"$T/err")
[ $? -eq 2 ] && grep -q "name the same file" "$T/err" || fail "x and sub/../x not refused"
ln "$T/o/r.json" "$T/o/hard.json"
refuse "name the same file" --json "$T/o/r.json" --csv "$T/o/hard.json"
refuse "name the same output (stdout)" --json - --csv -

# a full file system: ENOSPC, said the same way for both outputs
mkdir "$T/full" "$T/ro"
mount -t tmpfs -o size=64k tmpfs "$T/full" && MNTS="$T/full $MNTS" || fail "mount tmpfs"
dd if=/dev/zero of="$T/full/fill" bs=4k 2>/dev/null
for opt in --json --csv; do
	"$DS" $RUN $opt "$T/full/r.out" >/dev/null 2>"$T/err"
	rc=$?
	[ $rc -eq 2 ] || fail "$opt on a full fs: exit $rc, want 2"
	grep -q "^diskscope: $opt $T/full/r.out: No space left on device$" "$T/err" ||
		fail "$opt on a full fs: not 'No space left on device'"
	[ ! -e "$T/full/r.out" ] || fail "$opt on a full fs: a partial file was left"
	no_temps "$T/full"
	echo "ok: $opt on a full file system -> exit 2: $(tail -1 "$T/err")"
done
# a read-only file system: refused before the run, like permission denied
mount -t tmpfs -o size=64k,ro tmpfs "$T/ro" && MNTS="$T/ro $MNTS" || fail "mount tmpfs ro"
refuse "Read-only file system" --json "$T/ro/r.json"
refuse "Read-only file system" --csv "$T/ro/r.csv"
echo PASS
