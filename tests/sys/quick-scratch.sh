#!/bin/sh
# quick-scratch: the quick grid for real on scratch files, short loops.
#   diskscope run quick DIR --loops 1 --time 1 --interval 0 --file-size 32M
# On tmpfs and on ext4 over a direct-io loop device: every cell measured, the
# result names the file system and the block device behind the directory
# (ext4 on /dev/loopN; tmpfs with none, said to measure memory), and no
# scratch file is left behind, also after a SIGINT in the middle of a run.
. "$(dirname "$0")/../lib/loop.sh"
DS=${DISKSCOPE:-build/diskscope}
[ -x "$DS" ] || { echo "SKIP: $DS not built"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: needs python3 to read the JSON"; exit 77; }
T=$(mktemp -d /tmp/ds-quick-scr-XXXXXX)
S=$(mktemp -d /dev/shm/ds-quick-XXXXXX 2>/dev/null) || S=
L=
cleanup() {
  mountpoint -q "$T/mnt" 2>/dev/null && umount "$T/mnt"
  [ -n "$L" ] && loop_detach "$L"
  [ -n "$S" ] && rm -rf "$S"
  rm -rf "$T"
}
trap cleanup EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }

# check NAME FS DEVICE-REGEX: the grid complete and the device named
check() {
  python3 - "$T/$1.json" "$2" "$3" <<'PY' || fail "$1: result"
import json, re, sys
r = json.load(open(sys.argv[1]))["run"]
fs, devre = sys.argv[2], sys.argv[3]
bad = []
g = [t for t in r["tables"] if t["name"] == "grid"][0]
cols = [c["name"] for c in g["columns"]]
for row in g["rows"]:
    c = dict(zip(cols, row))
    for k in ("read_best_mbps", "write_best_mbps", "read_iops", "write_iops"):
        if not (c[k] and c[k] > 0):
            bad.append(f"{c['test']} {k} = {c[k]}")
d = [t for t in r["tables"] if t["name"] == "device"][0]
dc = dict(zip([c["name"] for c in d["columns"]], d["rows"][0]))
if dc["kind"] != "scratch file" or dc["filesystem"] != fs:
    bad.append(f"device table {dc}")
if not re.fullmatch(devre, dc["device"] or ""):
    bad.append(f"device {dc['device']!r}, want {devre}")
v = [v for v in r["verdicts"] if v["kind"] == "quick"][0]
if v["level"] != "info" or not any(fs in e for e in v["evidence"]):
    bad.append(f"verdict {v}")
if fs == "tmpfs" and not any("measure memory" in e for e in v["evidence"]):
    bad.append("tmpfs: not said to measure memory")
for b in bad:
    print("bad:", b)
sys.exit(1 if bad else 0)
PY
}
leftover() { ls "$1" | grep -q diskscope-scratch && fail "$2: a scratch file was left in $1: $(ls "$1")"; true; }

if [ -n "$S" ]; then
  "$DS" run quick "$S" --loops 1 --time 1 --interval 0 --file-size 32M --json "$T/tmpfs.json" >"$T/tmpfs.out" 2>"$T/tmpfs.err" ||
    fail "tmpfs: exit $? ($(tail -3 "$T/tmpfs.err"))"
  cat "$T/tmpfs.out"
  check tmpfs tmpfs ''
  leftover "$S" tmpfs
  echo "ok: tmpfs"
else
  echo "no /dev/shm: tmpfs part skipped"
fi

if [ "$(id -u)" != 0 ] || ! command -v mkfs.ext4 >/dev/null; then
  echo "SKIP: ext4 on a loop device needs root and mkfs.ext4"
  exit 77
fi
truncate -s 256M "$T/img"
loop_new L "$T/img" --direct-io=on || fail "losetup"
mkfs.ext4 -q "$L" || fail "mkfs.ext4"
mkdir "$T/mnt" && mount "$L" "$T/mnt" || fail "mount"
"$DS" run quick "$T/mnt" --loops 1 --time 1 --interval 0 --file-size 64M --json "$T/ext4.json" >"$T/ext4.out" 2>"$T/ext4.err" ||
  fail "ext4: exit $? ($(tail -3 "$T/ext4.err"))"
cat "$T/ext4.out"
check ext4 ext4 "$L"
leftover "$T/mnt" ext4
echo "ok: ext4 on $L"

# SIGINT in the middle: exit 130, marked interrupted, no scratch file left.
# The long interval keeps the later cells unmeasured whenever the signal lands.
"$DS" run quick "$T/mnt" --loops 1 --time 1 --interval 60 --file-size 32M --json "$T/int.json" >"$T/int.out" 2>"$T/int.err" &
P=$!
i=0
# the scratch file has no name (O_TMPFILE): the run holds it open in $T/mnt
held() {
  for f in /proc/"$P"/fd/*; do
    case $(readlink "$f" 2>/dev/null) in "$T/mnt"/*) return 0 ;; esac
  done
  return 1
}
until held || [ $i -gt 600 ]; do sleep 0.1; i=$((i + 1)); done
held || { kill $P; wait $P; fail "SIGINT: no scratch file held open while running"; }
sleep 2	# let it measure something; what is asserted holds whenever the signal lands
kill -INT $P
wait $P
rc=$?
[ $rc -eq 130 ] || fail "SIGINT: exit $rc, want 130 ($(tail -3 "$T/int.err"))"
leftover "$T/mnt" SIGINT
python3 - "$T/int.json" <<'PY' || fail "SIGINT: partial JSON"
import json, sys
r = json.load(open(sys.argv[1]))["run"]
assert r["interrupted"] is True
g = [t for t in r["tables"] if t["name"] == "grid"][0]
assert g["rows"][3][1] is None, g["rows"]
PY
echo "ok: SIGINT -> 130, partial result, no scratch file left"
echo "quick-scratch ok"
