#!/bin/sh
# filemix-real: the NAS copy workload for real, small budgets.
#   diskscope run filemix DIR --size 64M --json R.json
# On tmpfs and on ext4 over a direct-io loop device: every file written has a
# write rate, the half read back a read rate, both tests ran, and afterwards
# the directory holds exactly what it held before (a file of the user's is
# untouched, no subdirectory or scratch file left).  The same after a SIGINT
# in the middle of a file (ext4 over the fault device, slowed so the signal
# lands during the run): exit 130, the result marked interrupted, nothing left.
. "$(dirname "$0")/../lib/loop.sh"
DS=${DISKSCOPE:-build/diskscope}
FAULTDEV=${FAULTDEV:-build/tests/ds-faultdev}
[ -x "$DS" ] || { echo "SKIP: $DS not built"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: needs python3 to read the JSON"; exit 77; }
T=$(mktemp -d /tmp/ds-filemix-XXXXXX)
S=$(mktemp -d /dev/shm/ds-filemix-XXXXXX 2>/dev/null) || S=
L=
. tests/fault/lib.sh
fault_extra_cleanup='mountpoint -q "$T/mnt" 2>/dev/null && umount "$T/mnt"; [ -n "$L" ] && loop_detach "$L"; [ -n "$S" ] && rm -rf "$S"; rm -rf "$T"'
fail() { echo "FAIL: $*"; exit 1; }

# check JSON: every file written measured, half of each class read back
check() {
  python3 - "$1" <<'PY' || fail "$1: result"
import json, sys
r = json.load(open(sys.argv[1]))["run"]
t = [t for t in r["tables"] if t["name"] == "files"][0]
cols = [c["name"] for c in t["columns"]]
rows = [dict(zip(cols, x)) for x in t["rows"]]
bad = []
if {x["test"] for x in rows} != {1, 2}:
    bad.append(f"tests {sorted({x['test'] for x in rows})}")
for x in rows:
    if not (x["write_mbps"] and x["write_mbps"] > 0):
        bad.append(f"no write rate: {x}")
reads = sum(1 for x in rows if x["read_mbps"])
t1 = [x for x in rows if x["test"] == 1]
if sum(1 for x in t1 if x["read_mbps"]) != 1 + 1 + 3 + 10:
    bad.append(f"test 1: {reads} files read back, want half of each class")
if not any(x["class"] == "1GB" and x["test"] == 2 and x["read_mbps"] for x in rows):
    bad.append("test 2: no 1GB-class file read back")
v = [v for v in r["verdicts"] if v["kind"] == "filemix"]
if not v or v[0]["level"] != "info" or "MB/s" not in v[0]["text"]:
    bad.append(f"verdict {v}")
c = [t for t in r["tables"] if t["name"] == "classes"][0]
if len(c["rows"]) != 6:
    bad.append(f"{len(c['rows'])} class rows, want 6")
for b in bad:
    print("bad:", b)
sys.exit(1 if bad else 0)
PY
}
# clean DIR WHAT: only the user's file is left, untouched
clean() {
  [ "$(ls -A "$1" | grep -vx lost+found)" = "users-file" ] || fail "$2: left in $1: $(ls -A "$1")"
  [ "$(cat "$1/users-file")" = "keep me" ] || fail "$2: the user's file changed"
}

if [ -n "$S" ]; then
  echo "keep me" >"$S/users-file"
  "$DS" run filemix "$S" --size 64M --json "$T/tmpfs.json" >"$T/tmpfs.out" 2>"$T/tmpfs.err" ||
    fail "tmpfs: exit $? ($(tail -3 "$T/tmpfs.err"))"
  grep -A8 '^classes' "$T/tmpfs.out"; grep '^filemix:' "$T/tmpfs.out"
  check "$T/tmpfs.json"
  grep -q "memory is the medium" "$T/tmpfs.out" || fail "tmpfs: the verdict does not say memory is the medium"
  clean "$S" tmpfs
  echo "ok: tmpfs"
else
  echo "no /dev/shm: tmpfs part skipped"
fi

if [ "$(id -u)" != 0 ] || ! command -v mkfs.ext4 >/dev/null; then
  echo "SKIP: ext4 on a loop device needs root and mkfs.ext4"
  exit 77
fi
# 2 GiB sparse: the 1 GiB safety margin leaves room for the 128 MiB budget
truncate -s 2G "$T/img"
loop_new L "$T/img" --direct-io=on || fail "losetup"
mkfs.ext4 -q "$L" || fail "mkfs.ext4"
mkdir "$T/mnt" && mount "$L" "$T/mnt" || fail "mount"
echo "keep me" >"$T/mnt/users-file"
"$DS" run filemix "$T/mnt" --size 128M --json "$T/ext4.json" >"$T/ext4.out" 2>"$T/ext4.err" ||
  fail "ext4: exit $? ($(tail -3 "$T/ext4.err"))"
grep -A8 '^classes' "$T/ext4.out"; grep '^filemix:' "$T/ext4.out"
check "$T/ext4.json"
grep -q 'page cache kept out with O_DIRECT' "$T/ext4.out" || fail "ext4: O_DIRECT not said"
clean "$T/mnt" ext4
# a budget the free space cannot give: scaled down to what the safety margin
# (1 GiB here) leaves; with less than 16 MiB above it, refused (exit 2), nothing written
fallocate -l 760M "$T/mnt/users-ballast" || fail "fallocate"
"$DS" run filemix "$T/mnt" --size 100G --json "$T/scaled.json" >"$T/scaled.out" 2>&1 || fail "scaled: exit $?"
python3 - "$T/scaled.json" <<'PY' || fail "the budget was not scaled to the free space: $(grep budget "$T/scaled.out")"
import json, re, sys
r = json.load(open(sys.argv[1]))["run"]
n = [n for n in r["notes"] if "budget" in n][0]
b, free, kept = (float(x) for x in re.search(r"budget (\d+) MiB .* (\d+) MiB free, (\d+) MiB kept free", n).groups())
assert kept >= 1024 and b <= free - kept and b < 100, n
PY
fallocate -l 60M "$T/mnt/users-ballast2" || fail "fallocate"
"$DS" run filemix "$T/mnt" --size 64M >"$T/refused.out" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "no room above the margin: exit $rc, want 2"
grep -q 'safety margin' "$T/refused.out" || fail "refusal does not name the margin: $(cat "$T/refused.out")"
rm "$T/mnt/users-ballast" "$T/mnt/users-ballast2"
clean "$T/mnt" ext4-scaled
umount "$T/mnt"; losetup -d "$L"; L=
echo "ok: ext4 on a loop device"

# SIGINT in the middle of a file: ext4 on the fault device, every I/O 20 ms late
[ -c /dev/fuse ] && [ -x "$FAULTDEV" ] || { echo "SKIP: SIGINT part needs /dev/fuse and $FAULTDEV"; exit 77; }
fault_start --disks 1 --size 2G
fault_loop 0
mkfs.ext4 -q "$FLOOP" || fault_fail "mkfs.ext4 on $FLOOP"
mount "$FLOOP" "$T/mnt" || fault_fail "mount"
echo "keep me" >"$T/mnt/users-file"
fault_ctl "delay all 20"
"$DS" run filemix "$T/mnt" --size 64M --json "$T/int.json" >"$T/int.out" 2>"$T/int.err" &
P=$!
i=0
until ls "$T/mnt"/diskscope-filemix-*/diskscope-scratch-* >/dev/null 2>&1 || [ $i -gt 600 ]; do sleep 0.1; i=$((i + 1)); done
ls "$T/mnt"/diskscope-filemix-*/diskscope-scratch-* >/dev/null 2>&1 || { kill $P; fail "SIGINT: no file while running"; }
sleep 0.5
kill -INT $P
wait $P
rc=$?
[ $rc -eq 130 ] || fail "SIGINT: exit $rc, want 130 ($(tail -3 "$T/int.err"))"
clean "$T/mnt" SIGINT
python3 - "$T/int.json" <<'PY' || fail "SIGINT: partial JSON"
import json, sys
r = json.load(open(sys.argv[1]))["run"]
assert r["interrupted"] is True
t = [t for t in r["tables"] if t["name"] == "files"][0]
print(f"SIGINT after {len(t['rows'])} files; the last: {t['rows'][-1] if t['rows'] else None}")
PY
fault_json "$T/int.json"
umount "$T/mnt"
echo "ok: SIGINT -> 130, nothing left but the user's file"
echo "filemix-real ok"
