#!/bin/sh
# Ctrl-C / SIGTERM mid-run: the workers stop, the partial result is written
# as valid JSON marked "interrupted": true, exit 130 / 143.
. "$(dirname "$0")/../lib/loop.sh"
DS=${DISKSCOPE:-build/diskscope}
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (loop devices)"; exit 77; }
"$DS" run --help >/dev/null 2>&1 || { echo "SKIP: $DS has no working 'run' command yet"; exit 77; }
T=$(mktemp -d /tmp/ds-interrupt-XXXXXX)
L=""
cleanup() { [ -n "$L" ] && loop_detach "$L"; rm -rf "$T"; }
trap cleanup EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }

truncate -s 128M "$T/img"
loop_new L "$T/img" --direct-io=on || fail "losetup"

one() {	# signal, expected exit code, test
  sig=$1 want=$2 test=$3
  rm -f "$T/p.json"
  "$DS" run "$test" "$L" --time 120 --json "$T/p.json" >"$T/out" 2>"$T/err" &
  P=$!
  # wait until it is measuring (the JSON does not exist before the end)
  sleep 1.5
  kill -"$sig" $P
  # cooperative stop: within one I/O completion, so well inside a minute
  timeout 60 sh -c "while kill -0 $P 2>/dev/null; do sleep 0.1; done" || { kill -9 $P; fail "$sig: did not stop"; }
  wait $P
  rc=$?
  [ $rc -eq "$want" ] || fail "$sig: exit $rc, want $want ($(cat "$T/err"))"
  loop_check "$L" || fail "$sig: not judged"
  python3 - "$T/p.json" <<'PY' || fail "$sig: partial JSON"
import json, sys
r = json.load(open(sys.argv[1]))["run"]
assert r["interrupted"] is True, r["interrupted"]
assert len(r["steps"]) == 1, r["steps"]
res = r["steps"][0]["results"][0]
# it ran for a while and stopped long before the 120 s it was asked for
assert res["bytes"] > 0 and 0 < res["seconds"] < 100, (res["bytes"], res["seconds"])
assert len(res["series"]["mbps"]) >= 1
PY
  grep -q "INTERRUPTED" "$T/out" || fail "$sig: the table does not say interrupted"
  echo "ok: $test SIG$sig -> exit $rc, partial JSON marked interrupted"
}
one INT 130 seqread
one TERM 143 randread
echo PASS
