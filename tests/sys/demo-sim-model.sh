#!/bin/sh
# demo-sim-model: a user's model file (--sim-model) runs like a built-in one,
# with and without --demo; a bad one stops the command with file:line.
DS=${DISKSCOPE:-build/diskscope}
[ -x "$DS" ] || { echo "SKIP: $DS not built"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: needs python3 to read the JSON"; exit 77; }
"$DS" run --help >/dev/null 2>&1 || { echo "SKIP: $DS has no working 'run' command yet"; exit 77; }
T=$(mktemp -d /tmp/ds-demo-model-XXXXXX)
trap 'rm -rf "$T"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }

for demo in "" "--demo"; do
  "$DS" $demo --sim-model tests/fixtures/sim/good.drive run seqread sim:good --json "$T/g.json" >/dev/null 2>"$T/g.err"
  rc=$?
  if [ $rc -ne 0 ] && grep -q "no simulated drive or model 'good'" "$T/g.err"; then
    echo "SKIP: main.c does not register --sim-model files before 'run' opens targets (needs sim_load_models)"
    exit 77
  fi
  [ $rc -eq 0 ] || fail "--sim-model $demo run: exit $rc: $(tail -3 "$T/g.err")"
  # good.drive: 200 MB/s at the outer edge
  python3 -c 'import json,sys; m=json.load(open(sys.argv[1]))["run"]["steps"][0]["results"][0]["mbps"]; print("sim:good seqread %.1f MB/s (model: 200)" % m); assert 190 <= m <= 210, m' "$T/g.json" \
    || fail "sim:good rate"
done

# a bad model file: exit 2, file:line on stderr, nothing run
"$DS" --sim-model tests/fixtures/sim/bad-cache-larger.drive run seqread sim:WD40EZRX >"$T/b.out" 2>"$T/b.err"
rc=$?
[ $rc -eq 2 ] || fail "bad --sim-model: exit $rc, want 2 ($(cat "$T/b.err"))"
grep -q "bad-cache-larger.drive:20: " "$T/b.err" || fail "bad --sim-model message: $(cat "$T/b.err")"
echo PASS
