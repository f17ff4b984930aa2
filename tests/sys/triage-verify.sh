#!/bin/sh
# triage-verify.sh - triage --write-verify on, guarded, on real block devices:
#  1. a loop device over a plain file: the pattern goes on the device (LBA
#     and seed in each sector, read from the file), read back, PASS, exit 0;
#  2. no --destroy-data, or one drive of two confirmed: refused, exit 3, not
#     one byte changed on either device (checksums before and after);
#  3. ds-faultdev, disk1 losing the writes of LBA 100000-100015 and failing
#     writes at LBA 200000: FAIL naming the mismatch's exact LBAs and the
#     failed block; disk0 passes;
#  4. SIGINT while the second round is written: exit 130, "resume with
#     --from N"; the resumed run writes and checks LBA N to the end only, and
#     passes.
. "$(dirname "$0")/../lib/loop.sh"
. "$(dirname "$0")/../fault/lib.sh"
fault_need
"$DS" run triage --help 2>/dev/null | grep -q -- "--write-verify" || fault_skip "$DS triage has no --write-verify"
command -v sha256sum >/dev/null 2>&1 || fault_skip "no sha256sum"

fault_start --disks 2 --size 128M --fill random -c "disk1 drop 100000 100015" -c "disk1 eio 200000 200007 write"
fault_loop 0
F0=$FLOOP
fault_loop 1
F1=$FLOOP
for i in 0 1; do
	head -c 64M /dev/urandom >"$FT/img$i" || fault_fail "image $i"
	loop_new L "$FT/img$i" || fault_fail "losetup img$i"
	FLOOPS="$FLOOPS $L"
	eval "P$i=\$L"
done
sum() { sha256sum "$1" | cut -d' ' -f1; }

# 1. a plain loop device: PASS, the pattern on the device
"$DS" run triage "$P0" --write-verify on --destroy-data="$P0" --json "$FT/p.json" >"$FT/out" 2>"$FT/err"
rc=$?
grep -E "^(triage: |summary|  - write)" "$FT/out"
[ $rc -eq 0 ] || fault_fail "write-verify on a good loop device: exit $rc, want 0: $(tail -3 "$FT/err")"
fault_json "$FT/p.json"
sync
python3 - "$FT/p.json" "$FT/img0" <<'PY' || fault_fail "write-verify on a loop device"
import json, struct, sys
r = json.load(open(sys.argv[1]))["run"]
v = [x for x in r["verdicts"] if x["kind"] == "triage"][0]
assert v["level"] == "pass", v
ev = [e for e in v["evidence"] if e.startswith("write-verify: LBA 0-131071 ")]
assert ev and "67.1 MB written, 67.1 MB read back" in ev[0], v["evidence"]
seed = int(ev[0].split("pattern seed ")[1].split(",")[0], 16)
labels = [s["label"] for s in r["steps"]]
assert "write LBA 0-131071" in labels and "read back LBA 0-131071" in labels, labels
with open(sys.argv[2], "rb") as f:
    for lba in (0, 1000, 131071):
        f.seek(lba * 512)
        lb, sd = struct.unpack("<QQ", f.read(16))
        assert (lb, sd) == (lba, seed), (lba, lb, hex(sd), hex(seed))
PY

# 2. refused: nothing written
b0=$(sum "$P0")
b1=$(sum "$P1")
"$DS" run triage "$P0" --write-verify on >"$FT/out" 2>"$FT/err"
rc=$?
[ $rc -eq 3 ] || fault_fail "write-verify without --destroy-data: exit $rc, want 3"
grep -q "refused: writing $P0 needs --destroy-data=$P0" "$FT/err" || fault_fail "refusal: $(cat "$FT/err")"
"$DS" run triage "$P0" "$P1" --write-verify on --destroy-data="$P0" >"$FT/out" 2>"$FT/err"
rc=$?
[ $rc -eq 3 ] || fault_fail "write-verify with one of two confirmed: exit $rc, want 3"
grep -q "refused: .*$P1" "$FT/err" || fault_fail "refusal names $P1: $(cat "$FT/err")"
[ "$(sum "$P0")" = "$b0" ] || fault_fail "$P0 changed by a refused run"
[ "$(sum "$P1")" = "$b1" ] || fault_fail "$P1 changed by a refused run"
echo "ok: refused, exit 3, both devices unchanged"

# 3. the fault device: dropped and failed writes
"$DS" run triage "$F0" "$F1" --write-verify on --destroy-data="$F0" --destroy-data="$F1" \
	--json "$FT/f.json" >"$FT/out" 2>"$FT/err"
rc=$?
grep -E "^(triage: |summary)" "$FT/out"
[ $rc -eq 1 ] || fault_fail "write-verify with lost writes: exit $rc, want 1: $(tail -3 "$FT/err")"
python3 - "$FT/f.json" <<'PY' || fault_fail "lost and failed writes"
import json, sys
r = json.load(open(sys.argv[1]))["run"]
v = [x for x in r["verdicts"] if x["kind"] == "triage"]
assert v[0]["level"] != "fail" and "write-verify" not in v[0]["text"], v[0]
assert v[1]["level"] == "fail", v[1]
assert "pattern mismatch at LBA 100000-100015 (0.051 GB)" in v[1]["text"], v[1]["text"]
# the write touching LBA 200000 fails as a 1 MiB block: LBA 198656-200703
assert "write failed at LBA 198656-200703 (0.102 GB)" in v[1]["text"], v[1]["text"]
assert "pattern mismatch: LBA 100000-100015 (0.051 GB)" in v[1]["evidence"], v[1]["evidence"]
s = [x for x in r["verdicts"] if x["kind"] == "summary"][0]
assert "pattern mismatch at LBA 100000-100015" in s["text"], s
PY

# 4. interrupted in the second round, then resumed from where it said
fault_ctl clear
fault_ctl "disk0 delay all 15"
wsect() { awk '{print $7}' "/sys/block/${1#/dev/}/stat"; }
"$DS" run triage "$F0" --write-verify on --destroy-data="$F0" --solo-time 1s --json "$FT/i.json" \
	>"$FT/int.out" 2>"$FT/int.err" &
P=$!
w0=$(wsect "$F0")
i=0
# the first round (LBA 0-131071) written and read back, the second being written
until [ $(($(wsect "$F0") - w0)) -gt $((131072 + 8192)) ] || [ $i -gt 1200 ]; do sleep 0.1; i=$((i + 1)); done
kill -INT $P
wait $P
rc=$?
grep -E "^(triage: |summary)" "$FT/int.out"
[ $rc -eq 130 ] || fault_fail "SIGINT: exit $rc, want 130: $(tail -3 "$FT/int.err")"
N=$(sed -n 's/.*resume with --from \([0-9]*\).*/\1/p' "$FT/int.out" | head -1)
[ -n "$N" ] || fault_fail "SIGINT: no resume position printed"
[ "$N" -ge 131072 ] && [ "$N" -lt 262144 ] && [ $((N % 8)) -eq 0 ] ||
	fault_fail "SIGINT: resume at LBA $N, want 131072 .. 262143 (the first round was read back)"
python3 - "$FT/i.json" "$N" <<'PY' || fault_fail "SIGINT: the resume position in the JSON"
import json, sys
r = json.load(open(sys.argv[1]))["run"]
assert r["interrupted"] is True
t = {x["name"]: x for x in r["tables"]}["triage"]
row = dict(zip([c["name"] for c in t["columns"]], t["rows"][0]))
assert row["resume_from"] == int(sys.argv[2]), row
PY
w0=$(wsect "$F0")
"$DS" run triage "$F0" --write-verify on --destroy-data="$F0" --solo-time 1s --from "$N" \
	--json "$FT/r.json" >"$FT/out" 2>"$FT/err"
rc=$?
w1=$(wsect "$F0")
grep -E "^(triage: |summary)" "$FT/out"
[ $rc -eq 0 ] || fault_fail "resumed from $N: exit $rc, want 0: $(tail -3 "$FT/err")"
[ $((w1 - w0)) -eq $((262144 - N)) ] || fault_fail "resumed from $N: wrote $((w1 - w0)) sectors, want $((262144 - N))"
python3 - "$FT/r.json" "$N" <<'PY' || fault_fail "resumed run"
import json, sys
r = json.load(open(sys.argv[1]))["run"]
n = int(sys.argv[2])
v = [x for x in r["verdicts"] if x["kind"] == "triage"][0]
assert v["level"] == "pass", v
assert any(e.startswith("write-verify: LBA %d-262143 " % n) for e in v["evidence"]), v["evidence"]
PY
echo "ok: interrupted at LBA $N, resumed from there"
echo PASS
