#!/bin/sh
# show-input.sh - `diskscope show FILE` on hostile saved results refuses
# before any screen is drawn: one line naming the file and the reason (the
# field, or the byte offset), exit 2.  Truncated, trailing garbage, NaN,
# negative and huge MB/s (1e308: valid JSON, said to be out of range), a
# string for a number, a FIFO, a directory.
DS=${DISKSCOPE:-build/diskscope}
[ -x "$DS" ] || { echo "SKIP: $DS not built"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: needs python3"; exit 77; }
T=$(mktemp -d /tmp/ds-show-in-XXXXXX)
trap 'rm -rf "$T"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }

"$DS" run seqread sim:WD40EZRX --region 0%:1% --seed 3 --json "$T/good.json" >/dev/null 2>&1 ||
	fail "making a result"
size=$(stat -c %s "$T/good.json")

refused() {	# FILE WANT
	"$DS" show "$1" </dev/null >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 2 ] || fail "show $1: exit $rc, want 2 ($(cat "$T/err"))"
	[ "$(wc -l <"$T/err")" -eq 1 ] || fail "show $1: want one line, got: $(cat "$T/err")"
	grep -q -- "$2" "$T/err" || fail "show $1: want '$2', got: $(cat "$T/err")"
	echo "ok: $(cat "$T/err")"
}

head -c 200 "$T/good.json" >"$T/trunc.json"
refused "$T/trunc.json" "trunc.json: truncated JSON at byte 200\$"
{ cat "$T/good.json"; echo 'garbage'; } >"$T/trail.json"
refused "$T/trail.json" "trailing data after the JSON document at byte $((size))"
mut() {	# NAME PYTHON-EXPR-ON-r0 (the first result)
	python3 - "$T/good.json" "$T/$1.json" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r0 = d["run"]["steps"][0]["results"][0]
exec(sys.argv[3])
open(sys.argv[2], "w").write(json.dumps(d, allow_nan=True))
PY
}
mut nan 'r0["mbps"] = float("nan")'
refused "$T/nan.json" "steps\[0\].results\[0\].mbps: NaN is not a finite number"
mut neg 'r0["mbps"] = -150.0'
refused "$T/neg.json" "mbps: -150.0 is negative"
mut huge 'r0["iops"] = 1e300'
refused "$T/huge.json" "iops: 1e+300 is out of range: valid JSON, but not a plausible value"
# 1e308 is valid JSON (a double holds it): out of range, not "not valid JSON"
mut huge308 'r0["mbps"] = 1e308'
refused "$T/huge308.json" "mbps: 1e+308 is out of range: valid JSON"
mut hugebytes 'r0["bytes"] = 1e308'
refused "$T/hugebytes.json" "bytes: 1e+308 is out of range: valid JSON"
mut str 'r0["seconds"] = "ten"'
refused "$T/str.json" "seconds: not a number"
mkfifo "$T/fifo.json"
refused "$T/fifo.json" "not a regular file"
refused "$T" "is a directory"
echo PASS
