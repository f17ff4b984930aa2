#!/bin/sh
# smr-zram.sh - the smr test on a zram device of its own: no stalls, and the
# verdict claims nothing beyond that ("unknown", a zram device); --trim yes
# discards the span through the guarded device (zram supports discard).
DS=${DISKSCOPE:-build/diskscope}
[ -x "$DS" ] || { echo "SKIP: $DS not built"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (zram)"; exit 77; }
[ -e /sys/class/zram-control/hot_add ] || { echo "SKIP: no zram-control (modprobe zram)"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: needs python3 to read the JSON"; exit 77; }
T=$(mktemp -d /tmp/ds-smr-zram-XXXXXX)
Z=""
cleanup() {
  [ -n "$Z" ] && echo "$Z" >/sys/class/zram-control/hot_remove 2>/dev/null
  rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
fail() { echo "FAIL: $*"; exit 1; }

Z=$(cat /sys/class/zram-control/hot_add) || { Z=""; echo "SKIP: zram hot_add failed"; exit 77; }
echo 128M >"/sys/block/zram$Z/disksize" || fail "zram$Z disksize"
D=/dev/zram$Z
# a 2 s pause of the whole machine would be a stall: --stall 2s
"$DS" run smr "$D" --time 2 --stall 2s --trim yes --destroy-data "$D" --json "$T/z.json" >"$T/out" 2>&1 ||
  { cat "$T/out"; fail "run: exit $?"; }
python3 - "$T/z.json" <<'PY' || fail "zram verdict"
import json, sys
run = json.load(open(sys.argv[1]))["run"]
v = next(x for x in run["verdicts"] if x["kind"] == "smr")
print(v["text"])
assert v["level"] == "info", v
assert "unknown: no stalls in 2.00 s" in v["text"] and "a zram device" in v["text"], v["text"]
assert any("virtual device" in e for e in v["evidence"]), v["evidence"]
assert any(e.startswith("TRIM of the tested span") and e.endswith("done") for e in v["evidence"]), v["evidence"]
PY
echo PASS
