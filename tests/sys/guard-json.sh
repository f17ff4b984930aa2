#!/bin/sh
# guard-json.sh - a write run the guard refuses records the refusal in every
# output it was asked for, consistently with exit 3 (issue 17 item 7):
# "failed": true and "refused": {"rule", "evidence"} in --json, a "refused"
# table in --csv, the sentence in --text, and a document `report` (the HTML
# writer, through the loader) shows as refused.  A run that could not start
# for another reason is failed without "refused" (exit 2); a run that ran has
# "refused": null.  The device's bytes are compared before and after.
set -u
cd "$(dirname "$0")/../.." || exit 1
DS=${DISKSCOPE:-build/diskscope}
[ -x "$DS" ] || { echo "SKIP: $DS not built"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (loop devices)"; exit 77; }
for c in losetup python3 sha256sum; do
	command -v $c >/dev/null || { echo "SKIP: no $c"; exit 77; }
done
[ -e /dev/loop-control ] || { echo "SKIP: no loop device support"; exit 77; }
T=$(mktemp -d /tmp/ds-guard-json-XXXXXX)
L= MNT=
cleanup() {
	[ -n "$MNT" ] && umount "$MNT" 2>/dev/null
	[ -n "$L" ] && ours && losetup -d "$L" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
fail() { echo "FAIL: $*"; exit 1; }
# ours: $L is still on our image (same inode), not re-bound by someone else
ours() {
	[ "$(losetup -n -O BACK-INO "$L" 2>/dev/null | tr -d ' ')" = "$(stat -c %i "$T/img" 2>/dev/null)" ]
}

dd if=/dev/urandom of="$T/img" bs=1M count=32 status=none conv=fsync || fail "image"
L=$(losetup -f --show "$T/img") || fail "losetup"
before=$(sha256sum <"$T/img")

# refused: RUN-ARGS... -> exit 3 and the outputs in $T/r.*; judged by RULE
refused() {
	rule=$1
	shift
	rm -f "$T"/r.*
	"$DS" run "$@" --json "$T/r.json" --csv "$T/r.csv" --text "$T/r.txt" >"$T/out" 2>"$T/err"
	rc=$?
	ours || fail "$L was re-bound by another process: no verdict"
	[ $rc -eq 3 ] || fail "$rule: exit $rc, want 3: $(cat "$T/err")"
	python3 - "$T/r.json" "$rule" <<'PY' || fail "$rule: the JSON does not say refused"
import json, sys
r = json.load(open(sys.argv[1]))["run"]
assert r["failed"] is True, r["failed"]
ref = r["refused"]
assert ref and ref["rule"] == sys.argv[2], ref
assert ref["evidence"].startswith("refused: ") or "refused" in ref["evidence"], ref
assert r["steps"] == [] and r["verdicts"] == [], r
print("%s: exit 3, failed true, refused %s" % (sys.argv[2], json.dumps(ref)))
PY
	grep -q "^table,refused$" "$T/r.csv" && grep -q "^\"$rule\",\"" "$T/r.csv" ||
		fail "$rule: no refused table in the CSV: $(cat "$T/r.csv")"
	grep -q "^guard: .*(rule: $rule)$" "$T/r.txt" || fail "$rule: --text: $(cat "$T/r.txt")"
	"$DS" report "$T/r.json" -o "$T/r.html" >/dev/null 2>"$T/rep.err" || fail "report: $(cat "$T/rep.err")"
	grep -q "refused by the guard (rule: $rule)" "$T/r.html" || fail "$rule: the HTML report does not say refused"
}

# 1. no --destroy-data: the confirmation rule
refused confirmation seqwrite "$L" --time 1
[ "$(sha256sum <"$T/img")" = "$before" ] || fail "the refused device was written"
echo "the device's bytes unchanged (sha256)"

# 2. confirmed, but mounted: the mount rule (mounting writes the file
# system itself: no byte comparison here, guard.sh has it)
if command -v mkfs.ext4 >/dev/null && mkfs.ext4 -q -F "$L" 2>/dev/null; then
	MNT="$T/mnt"
	mkdir "$MNT" && mount "$L" "$MNT" || fail "mount $L"
	refused mounted seqwrite "$L" --time 1 --destroy-data "$L"
	umount "$MNT" || fail "umount"
	MNT=
else
	echo "note: no mkfs.ext4 here: the mounted scenario is skipped"
fi

# 3. not started for another reason (no scratch file in /proc): failed, not refused
"$DS" run seqwrite /proc --json "$T/p.json" >/dev/null 2>&1
rc=$?
[ $rc -eq 2 ] || fail "scratch in /proc: exit $rc, want 2"
python3 - "$T/p.json" <<'PY' || fail "a run that did not start"
import json, sys
r = json.load(open(sys.argv[1]))["run"]
assert r["failed"] is True and r["refused"] is None, (r["failed"], r["refused"])
PY

# 4. a run that ran: refused null
"$DS" run seqread sim:WD40EZRX --region 0%:1% --json "$T/ok.json" >/dev/null 2>&1 || fail "a sim read"
python3 - "$T/ok.json" <<'PY' || fail "a run that ran"
import json, sys
r = json.load(open(sys.argv[1]))["run"]
assert r["failed"] is False and "refused" in r and r["refused"] is None, (r["failed"], r.get("refused", "absent"))
PY
echo PASS
