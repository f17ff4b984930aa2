#!/bin/sh
# align-plain.sh - the alignment probe on devices with no physical sector to
# find: zram (4096-byte logical sectors: rows start there), a loop device on
# a RAM file, and a scratch file.  Each must say "no alignment penalty
# measured" and never invent one; writes only on what this test made.
. "$(dirname "$0")/../lib/loop.sh"
set -u
cd "$(dirname "$0")/../.." || exit 1
DS=${DISKSCOPE:-build/diskscope}
[ -x "$DS" ] || { echo "SKIP: $DS not built"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (zram, loop)"; exit 77; }
[ -e /sys/class/zram-control/hot_add ] || { echo "SKIP: no zram-control (modprobe zram)"; exit 77; }
command -v losetup >/dev/null || { echo "SKIP: no losetup"; exit 77; }
T=$(mktemp -d /tmp/ds-align-XXXXXX)
R=$(mktemp -d /dev/shm/ds-align-XXXXXX)
Z=""
L=""
cleanup() {
  [ -n "$L" ] && loop_detach "$L"
  [ -n "$Z" ] && { echo 1 > /sys/block/zram$Z/reset 2>/dev/null; echo "$Z" > /sys/class/zram-control/hot_remove 2>/dev/null; }
  rm -rf "$T" "$R"
}
trap cleanup EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }

Z=$(cat /sys/class/zram-control/hot_add) || fail "zram hot_add"
echo 64M > /sys/block/zram$Z/disksize || fail "zram disksize"
truncate -s 64M "$R/img" || fail "truncate"
loop_new L "$R/img" || fail "losetup"
"$DS" run align /dev/zram$Z --destroy-data=/dev/zram$Z --row-time 0.1 --json "$T/zram.json" >"$T/zram.out" 2>&1 ||
  fail "zram: exit $? ($(tail -3 "$T/zram.out"))"
"$DS" run align "$L" --destroy-data="$L" --row-time 0.1 --max 16k --json "$T/loop.json" >"$T/loop.out" 2>&1 ||
  fail "RAM loop: exit $? ($(tail -3 "$T/loop.out"))"
"$DS" run align "$T" --row-time 0.1 --max 16k --file-size 16M --json "$T/file.json" >"$T/file.out" 2>&1 ||
  fail "scratch file: exit $? ($(tail -3 "$T/file.out"))"
ls "$T" | grep -q diskscope-scratch && fail "the scratch file was left behind"
for x in zram loop file; do grep -E "^align: [^ ]+: |^  - " "$T/$x.out"; done
loop_check "$L" || fail "not judged"
python3 - "$T" <<'PY' || fail "verdicts"
import json, sys
d = sys.argv[1]
for x in ("zram", "loop", "file"):
    r = json.load(open("%s/%s.json" % (d, x)))["run"]
    v = [v for v in r["verdicts"] if v["kind"] == "align"]
    assert len(v) == 1 and "no alignment penalty measured" in v[0]["text"], (x, v)
    assert not [v for v in r["verdicts"] if v["kind"] in ("partition", "errors")], (x, r["verdicts"])
    t = [t for t in r["tables"] if t["name"] == "align"][0]
    assert len(t["rows"]) >= 15, (x, len(t["rows"]))
zr = json.load(open(d + "/zram.json"))["run"]
t = [t for t in zr["tables"] if t["name"] == "align"][0]
assert t["rows"][0][1] == 4096, t["rows"][0]	# zram's logical sector is 4096
print("ok")
PY
echo PASS
