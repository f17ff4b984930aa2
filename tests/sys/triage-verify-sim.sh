#!/bin/sh
# triage-verify-sim.sh - the shape of triage --write-verify on sim drives in
# virtual time (a sim drive keeps no data: the content check is the fault
# device's, tests/sys/triage-verify.sh): after the read pass, rounds of
# "write LBA a-b" then "read back LBA a-b" over the span, every drive in each;
# --from starts the span there (the written bytes are the rest only); the
# resume column is empty when the span is done.  Refused with exit 2: a
# --region in %, --from without --write-verify, --from past the end.
DS=${DISKSCOPE:-build/diskscope}
[ -x "$DS" ] || { echo "SKIP: $DS not built"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: needs python3 to read the JSON"; exit 77; }
"$DS" run triage --help 2>/dev/null | grep -q -- "--write-verify" || { echo "SKIP: $DS triage has no --write-verify"; exit 77; }
T=$(mktemp -d /tmp/ds-triage-wv-XXXXXX)
trap 'rm -rf "$T"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }

for from in 0 1000000; do
	"$DS" run triage sim:WD40EZRX sim:WD20EFRX --write-verify on --region 0:2000000 --from $from \
		--seed 3 --json "$T/w$from.json" >"$T/out" 2>&1 || fail "write-verify from $from: exit $?: $(tail -3 "$T/out")"
	python3 - "$T/w$from.json" "$from" <<'PY' || fail "write-verify from $from"
import json, sys
r = json.load(open(sys.argv[1]))["run"]
frm = int(sys.argv[2])
steps = r["steps"]
labels = [s["label"] for s in steps]
i = [k for k, l in enumerate(labels) if l.endswith(" read, all drives")][0]
wv = steps[i + 1:]
assert wv and len(wv) % 2 == 0, labels
lo = frm
for w, v in zip(wv[::2], wv[1::2]):
    a, b = map(int, w["label"].split()[-1].split("-"))
    assert w["label"].startswith("write LBA ") and v["label"] == "read back LBA %d-%d" % (a, b), (w["label"], v["label"])
    assert a == lo, (a, lo)
    lo = b + 1
    assert len(w["results"]) == 2 and len(v["results"]) == 2
    for x, y in zip(w["results"], v["results"]):
        assert x["bytes"] == y["bytes"] > 0 and x["errors"]["count"] == 0, (x, y)
assert lo == 2000000, lo
total = sum(x["bytes"] for w in wv[::2] for x in w["results"] if x["target"] == "sim:WD40EZRX")
assert total == (2000000 - frm) * 512 // (1 << 20) * (1 << 20) or \
    abs(total - (2000000 - frm) * 512) < len(wv) * (1 << 20), (total, frm)
t = {x["name"]: x for x in r["tables"]}["triage"]
keys = [c["name"] for c in t["columns"]]
assert "resume_from" in keys, keys
for row in t["rows"]:
    d = dict(zip(keys, row))
    assert d["verdict"] == "PASS" and d["resume_from"] is None, d
v = [x for x in r["verdicts"] if x["kind"] == "triage"]
assert any(e.startswith("write-verify: LBA %d-1999999 " % frm) and "not compared" in e
           for e in v[0]["evidence"]), v[0]["evidence"]
PY
done
# read-only triage has no resume column
"$DS" run triage sim:WD40EZRX --json "$T/ro.json" >"$T/out" 2>&1 || fail "read-only triage: exit $?"
python3 -c 'import json,sys; t={x["name"]:x for x in json.load(open(sys.argv[1]))["run"]["tables"]}["triage"]
assert "resume_from" not in [c["name"] for c in t["columns"]]' "$T/ro.json" || fail "read-only triage shows a resume column"

check_usage() {	# exit 2 and the line
	want=$1
	shift
	"$DS" run triage sim:WD40EZRX "$@" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 2 ] || fail "$*: exit $rc, want 2"
	grep -q -- "$want" "$T/err" || fail "$*: no '$want' in: $(cat "$T/err")"
}
check_usage "takes --region in LBAs" --write-verify on --region 0%:50%
check_usage "--from is where --write-verify on starts" --from 5
check_usage "has nothing to write from LBA 99999999999" --write-verify on --from 99999999999
echo PASS
