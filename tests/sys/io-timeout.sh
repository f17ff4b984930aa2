#!/bin/sh
# io-timeout: an I/O outstanding past --io-timeout ends that target with
# ETIMEDOUT and the I/O's offset, and --time is honoured within one timeout.
# A sim drive whose unreadable sectors each take 60 s (virtual clock: the
# test takes well under a second).
DS=${DISKSCOPE:-build/diskscope}
[ -x "$DS" ] || { echo "SKIP: $DS not built"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: needs python3 to read the JSON"; exit 77; }
T=$(mktemp -d /tmp/ds-io-timeout-XXXXXX)
trap 'rm -rf "$T"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }

cat > "$T/stall.drive" <<'M'
[drive]
model = STALL TEST 1TB
serial = STALL0001
firmware = S1
capacity = 1000204886016
logical = 512
physical = 512
rpm = 7200
[performance]
rate = 0:200 1:100
access_ms = 10
burst_mbps = 300
[flaws]
unreadable = 20480-20480
error_ms = 60000
M
# 1 MiB sequential reads from LBA 0: the 11th read (byte 10485760) hangs 60 s
"$DS" --sim-model "$T/stall.drive" run seqread sim:stall --time 10 --io-timeout 5 \
  --json "$T/a.json" >"$T/a.out" 2>"$T/a.err"
rc=$?
[ $rc -eq 1 ] || fail "stalled read: exit $rc, want 1 ($(tail -2 "$T/a.err"))"
grep -q "I/O at byte 10485760 outstanding for 5 s" "$T/a.err" "$T/a.out" || fail "no timeout message: $(cat "$T/a.err")"
python3 - "$T/a.json" <<'P' || fail "JSON"
import json, sys
r = json.load(open(sys.argv[1]))["run"]["steps"][0]["results"][0]
e = r["errors"]
assert e["count"] >= 1, e
assert e["first_offset"] == 10485760, e
# the stall is measured time (up to the give-up), not hidden
assert r["seconds"] >= 4.9, r["seconds"]
print("timeout recorded: %s, %.1f s measured" % (e, r["seconds"]))
P
# default timeout 30 s: the same stall ends the worker at 30 s, not 60
"$DS" --sim-model "$T/stall.drive" run seqread sim:stall --time 100 --json "$T/b.json" >"$T/b.out" 2>"$T/b.err"
grep -q "outstanding for 30 s" "$T/b.out" "$T/b.err" || fail "default timeout: $(cat "$T/b.out" "$T/b.err")"
echo PASS
