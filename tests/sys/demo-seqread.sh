#!/bin/sh
# demo-seqread: `diskscope run seqread sim:MODEL` on the shipped rate-curve
# models reproduces each figure (outer and inner zone, +-5 %), the flawed
# drive's access time and unreadable sectors show up, and the same seed
# gives the same result bytes.  All in virtual time.
DS=${DISKSCOPE:-build/diskscope}
[ -x "$DS" ] || { echo "SKIP: $DS not built"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: needs python3 to read the JSON"; exit 77; }
"$DS" run --help >/dev/null 2>&1 || { echo "SKIP: $DS has no working 'run' command yet"; exit 77; }
T=$(mktemp -d /tmp/ds-demo-seq-XXXXXX)
trap 'rm -rf "$T"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }

mbps() {	# FILE -> MB/s of the only target
  python3 -c 'import json,sys; print("%.1f" % json.load(open(sys.argv[1]))["run"]["steps"][0]["results"][0]["mbps"])' "$1"
}
near() {	# GOT WANT: within 5 %
  python3 -c 'import sys; g,w=float(sys.argv[1]),float(sys.argv[2]); sys.exit(0 if abs(g-w) <= 0.05*w else 1)' "$1" "$2"
}

# model outer inner (DESIGN.md "Reference figures"; SSD: datasheet)
while read -r model outer inner; do
  "$DS" run seqread "sim:$model" --region 0%:1% --json "$T/o.json" >/dev/null 2>"$T/err" || fail "$model outer: $(tail -2 "$T/err")"
  "$DS" run seqread "sim:$model" --region 99%:100% --json "$T/i.json" >/dev/null 2>"$T/err" || fail "$model inner: $(tail -2 "$T/err")"
  o=$(mbps "$T/o.json"); i=$(mbps "$T/i.json")
  echo "$model: outer $o MB/s (figure $outer), inner $i MB/s (figure $inner)"
  near "$o" "$outer" || fail "$model outer $o, figure $outer"
  near "$i" "$inner" || fail "$model inner $i, figure $inner"
done <<'LIST'
WD40EZRX 150 70
WD4003FZEX 180 100
WD80PUZX 180 90
ST8000VN0002 240 110
FLAWED250 70 40
SSD860EVO 550 550
LIST

# HD Tune's access time for the flawed drive: 19.7 ms (random 4 KiB reads, QD 1)
"$DS" run randread sim:FLAWED250 --bs 4k --qd 1 --json "$T/a.json" >/dev/null 2>"$T/err" || fail "randread: $(tail -2 "$T/err")"
python3 - "$T/a.json" <<'PY' || fail "access time"
import json, sys
m = json.load(open(sys.argv[1]))["run"]["steps"][0]["results"][0]["lat_us"]["mean"] / 1000
print("FLAWED250 access %.2f ms (figure 19.7)" % m)
assert abs(m - 19.7) <= 0.05 * 19.7 + 0.1, m
PY

# its unreadable sectors: a read across them fails with EIO, exit 1
"$DS" run seqread sim:FLAWED250 --region 299990000:300010000 --json "$T/e.json" >/dev/null 2>"$T/err"
rc=$?
[ $rc -eq 1 ] || fail "reading unreadable sectors: exit $rc, want 1"
python3 - "$T/e.json" <<'PY' || fail "errors not reported"
import json, sys
e = json.load(open(sys.argv[1]))["run"]["steps"][0]["results"][0]["errors"]
print("errors:", e)
assert e["count"] > 0 and e["first_offset"] is not None, e
PY

# determinism: same seed, same result bytes - every per-target result of
# every step (the step's own wall-clock and CPU seconds are the host's, not
# the drive's, and are left out)
for n in 1 2; do
  "$DS" run randread sim:WD20EFAX --qd 4 --seed 7 --json "$T/d$n.json" >/dev/null 2>&1 || fail "determinism run $n"
  python3 -c 'import json,sys; print(json.dumps([s["results"] for s in json.load(open(sys.argv[1]))["run"]["steps"]], sort_keys=True))' "$T/d$n.json" >"$T/s$n"
done
[ "$(wc -c <"$T/s1")" -gt 1000 ] || fail "no results to compare"

cmp -s "$T/s1" "$T/s2" || fail "same seed, different results"
echo PASS
