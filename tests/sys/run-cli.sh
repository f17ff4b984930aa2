#!/bin/sh
# diskscope run: bad input is one line + exit 2; seqread on a loop device
# gives valid JSON; ENOSPC and a read-only scratch directory are one clear
# line each; a loop device detached mid-run and a backing filesystem that
# dies mid-run (ext4 shutdown -> EIO) end cleanly with the errors recorded.
. "$(dirname "$0")/../lib/loop.sh"
DS=${DISKSCOPE:-build/diskscope}
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (loop devices, mounts)"; exit 77; }
command -v losetup >/dev/null || { echo "SKIP: losetup missing"; exit 77; }
"$DS" run --help >/dev/null 2>&1 || { echo "SKIP: $DS has no working 'run' command yet"; exit 77; }
T=$(mktemp -d /tmp/ds-run-cli-XXXXXX)
LOOPS=""	# detached after the unmounts
TOP=""		# loop devices on files inside our mounts: detached first
MNTS=""
cleanup() {
  for l in $TOP; do loop_detach "$l"; done
  for m in $MNTS; do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null; done
  for l in $LOOPS; do loop_detach "$l"; done
  rm -rf "$T"
}
trap cleanup EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }

# --- bad input: exit 2, exactly one line on stderr, nothing on stdout ---
usage_case() {
  want=$1; shift
  "$DS" run "$@" >"$T/out" 2>"$T/err"
  rc=$?
  [ $rc -eq 2 ] || fail "run $*: exit $rc, want 2 ($(cat "$T/err"))"
  [ "$(wc -l <"$T/err")" -eq 1 ] || fail "run $*: want one line, got: $(cat "$T/err")"
  [ ! -s "$T/out" ] || fail "run $*: wrote to stdout"
  grep -q -- "$want" "$T/err" || fail "run $*: line does not name '$want': $(cat "$T/err")"
  echo "ok: run $* -> $(cat "$T/err")"
}
mkdir "$T/d"
usage_case "frobnicate" frobnicate "$T/d"
usage_case "nosuchdisk" seqread nosuchdisk
usage_case "target" seqread
usage_case "--bs" seqread "$T/d" --bs 3000
usage_case "--bs" seqread "$T/d" --bs 4q
usage_case "--bs" seqread "$T/d" --bs 64M
usage_case "--qd" seqread "$T/d" --qd 0
usage_case "--qd" seqread "$T/d" --qd 999
usage_case "--time" seqread "$T/d" --time soon
usage_case "--size" seqread "$T/d" --size -1
usage_case "--region" seqread "$T/d" --region 50%
usage_case "--region" seqread "$T/d" --region 60%:20%
usage_case "--region" seqread "$T/d" --region 0:10%
usage_case "--pattern" seqread "$T/d" --pattern zigzag
usage_case "--data" seqwrite "$T/d" --data ones
usage_case "--engine" seqread "$T/d" --engine warp
usage_case "--nope" seqread "$T/d" --nope
usage_case "ctrl:99" saturate ctrl:99
usage_case "--json" seqread "$T/d" --json "$T/nodir/r.json"
usage_case "--csv" seqread "$T/d" --csv "$T/d"
[ -z "$(ls "$T/d")" ] || fail "bad input left files behind: $(ls "$T/d")"

# --- seqread on a loop device: valid JSON with the schema's keys ---
truncate -s 128M "$T/img"
loop_new L "$T/img" --direct-io=on || fail "losetup"
LOOPS="$L"
"$DS" run seqread "$L" --time 1 --json "$T/r.json" --csv "$T/r.csv" >"$T/out" 2>"$T/err" ||
  fail "seqread $L: exit $? ($(cat "$T/err"))"
loop_check "$L" || fail "not judged"
python3 -m json.tool "$T/r.json" >/dev/null || fail "JSON not valid"
python3 - "$T/r.json" "$L" <<'PY' || fail "JSON content"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == 1 and d["tool"]["name"] == "diskscope", d.keys()
r = d["run"]
assert r["test"] == "seqread" and r["interrupted"] is False
assert r["targets"] == [sys.argv[2]], r["targets"]
s = r["steps"][0]["results"][0]
assert s["bytes"] > 0 and s["errors"]["count"] == 0 and s["errors"]["first_offset"] is None
assert abs(s["mbps"] - s["bytes"] / s["seconds"] / 1e6) < 0.01 * s["mbps"]
lat = s["lat_us"]
assert lat["min"] <= lat["p50"] <= lat["p99"] <= lat["max"]
assert s["series"]["interval_ms"] == 100 and len(s["series"]["mbps"]) >= 9
print("json ok:", round(s["mbps"]), "MB/s")
PY
[ "$(wc -l <"$T/r.csv")" -eq 2 ] || fail "CSV: want header + 1 row"
grep -q "^step *target *MB/s" "$T/out" || fail "no result table on stdout"
# the count is true: the kernel saw as many reads as we report, plus at
# most the queue still in flight at the end (4 KiB reads are never split;
# neighbouring random reads can be merged: stat field 2 counts those)
B=$(basename "$L")
k0=$(awk '{print $1 + $2}' /sys/block/$B/stat)
"$DS" run randread "$L" --qd 16 --time 1 --json "$T/k.json" >/dev/null 2>"$T/err" || fail "randread: $(cat "$T/err")"
k1=$(awk '{print $1 + $2}' /sys/block/$B/stat)
python3 - "$T/k.json" $((k1 - k0)) <<'PY' || fail "I/O count disagrees with the kernel"
import json, sys
ios = json.load(open(sys.argv[1]))["run"]["steps"][0]["results"][0]["ios"]
kernel = int(sys.argv[2])
assert ios > 0 and ios <= kernel <= ios + 16 + 8, (ios, kernel)
print("count ok: diskscope", ios, "kernel", kernel)
PY
# sizes and offsets the device cannot take: one line, exit 2, no I/O
usage_case "starts at LBA 999999999, past its end" seqread "$L" --region 999999999:9999999999
usage_case "past its end" seqread "$L" --region 36028797018963968:36028797018963976   # would wrap to LBA 0
usage_case "ends at LBA 99999999999, past its end" seqread "$L" --region 0:99999999999
usage_case "holds no" seqread "$L" --region 0:1
truncate -s 32M "$T/img4k"
loop_new L4 "$T/img4k" --direct-io=on --sector-size 4096 || fail "losetup 4k"
LOOPS="$LOOPS $L4"
usage_case "4096-byte logical block" randread "$L4" --bs 512
usage_case "4096-byte logical block" randread "$L4" --pattern stride --stride 6k --bs 4k
# --json - : stdout is the document alone
"$DS" run seqread "$L" --time 0.3 --json - >"$T/o.json" 2>/dev/null || fail "--json -"
python3 -m json.tool "$T/o.json" >/dev/null || fail "--json - is not pure JSON"

# --- ENOSPC: a scratch file bigger than its filesystem: bad input (exit 2),
# refused before anything is created ---
mkdir "$T/small"
mount -t tmpfs -o size=8M tmpfs "$T/small" || fail "mount tmpfs"
MNTS="$T/small"
"$DS" run seqwrite "$T/small" --file-size 64M --time 1 >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 2 ] || fail "ENOSPC: exit $rc, want 2 (a --file-size that does not fit is bad input)"
grep -qi "space" "$T/err" || fail "ENOSPC: no clear line: $(cat "$T/err")"
[ "$(wc -l <"$T/err")" -eq 1 ] || fail "ENOSPC: more than one line: $(cat "$T/err")"
[ -z "$(ls "$T/small")" ] || fail "ENOSPC: left a scratch file"
echo "ok: ENOSPC -> $(cat "$T/err")"

# --- read-only scratch directory ---
mkdir "$T/ro"
mount -t tmpfs -o ro,size=8M tmpfs "$T/ro" || fail "mount ro"
MNTS="$MNTS $T/ro"
"$DS" run seqwrite "$T/ro" --file-size 4M --time 1 --json "$T/ro.json" >"$T/out" 2>"$T/err"
rc=$?
# the JSON records what happened: nothing ran, and why
python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["run"]; assert not r["steps"] and "Read-only" in r["notes"][0], r' "$T/ro.json" ||
  fail "read-only dir: the JSON does not say why nothing ran"
[ $rc -ne 0 ] || fail "read-only dir: exit 0"
grep -qi "read-only" "$T/err" || fail "read-only dir: no clear line: $(cat "$T/err")"
[ "$(wc -l <"$T/err")" -eq 1 ] || fail "read-only: more than one line: $(cat "$T/err")"
echo "ok: read-only -> $(cat "$T/err")"

# --- a loop device detached mid-run: the kernel defers the detach while we
# hold it open, so the run finishes cleanly and the JSON is complete ---
truncate -s 64M "$T/img2"
loop_new L2 "$T/img2" --direct-io=on || fail "losetup 2"
LOOPS="$LOOPS $L2"
"$DS" run seqread "$L2" --time 2 --json "$T/d.json" >"$T/out" 2>"$T/err" &
P=$!
sleep 1
losetup -d "$L2"
timeout 60 sh -c "while kill -0 $P 2>/dev/null; do sleep 0.2; done" || { kill -9 $P; fail "hung after detach"; }
wait $P
rc=$?
[ $rc -eq 0 ] || [ $rc -eq 1 ] || fail "detach: exit $rc ($(cat "$T/err"))"
python3 -m json.tool "$T/d.json" >/dev/null || fail "detach: JSON not valid"
echo "ok: detached mid-run -> exit $rc"

# --- the disk under a loop device dies mid-run (ext4 shutdown: every I/O
# gets EIO): errors recorded with offsets, exit 1, no hang ---
truncate -s 200M "$T/fs.img"
mkfs.ext4 -q -F "$T/fs.img" || fail "mkfs"
loop_new LF "$T/fs.img" || fail "losetup fs"
LOOPS="$LOOPS $LF"
mkdir "$T/m"
mount "$LF" "$T/m" || fail "mount ext4"
MNTS="$T/m $MNTS"
dd if=/dev/urandom of="$T/m/disk" bs=1M count=100 status=none conv=fsync || fail "dd"
loop_new LD "$T/m/disk" --direct-io=on || fail "losetup on ext4"
TOP="$LD"
"$DS" run seqread "$LD" --time 3 --json "$T/e.json" >"$T/out" 2>"$T/err" &
P=$!
sleep 1
python3 -c "
import fcntl, os, struct
fd = os.open('$T/m', os.O_RDONLY)
fcntl.ioctl(fd, 0x8004587D, struct.pack('I', 2))  # EXT4_IOC_SHUTDOWN, NOLOGFLUSH
" || fail "ext4 shutdown ioctl"
timeout 60 sh -c "while kill -0 $P 2>/dev/null; do sleep 0.2; done" || { kill -9 $P; fail "hung after the disk died"; }
wait $P
rc=$?
[ $rc -eq 1 ] || fail "dead disk: exit $rc, want 1 ($(cat "$T/err"))"
python3 - "$T/e.json" <<'PY' || fail "dead disk: JSON"
import json, sys
r = json.load(open(sys.argv[1]))["run"]
e = r["steps"][0]["results"][0]["errors"]
assert e["count"] > 0 and e["by_errno"].get("EIO", 0) > 0, e
assert e["first_offset"] is not None and e["last_offset"] is not None
assert any(v["kind"] == "errors" for v in r["verdicts"]), r["verdicts"]
print("errors recorded:", e)
PY
grep -q "errors:" "$T/out" || fail "dead disk: no error line in the table"
echo "PASS"
