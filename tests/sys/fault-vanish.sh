#!/bin/sh
# fault-vanish.sh - a drive vanishing mid-test, headless: two direct-io loop
# devices over ds-faultdev read at once; while both run, disk0 vanishes
# (every I/O ENODEV) and its loop device is detached.  That target's worker
# ends with a message naming it and the reason, the other target runs its
# full time without an error, the JSON is valid, the exit status is 1.
. "$(dirname "$0")/../fault/lib.sh"
fault_need

fault_start --disks 2 --size 64M --fill random
fault_loops 2

"$DS" run seqread "$L0" "$L1" --bs 64k --qd 4 --time 4 --json "$FT/v.json" >"$FT/out" 2>"$FT/err" &
DSPID=$!
fault_extra_cleanup="kill $DSPID 2>/dev/null"
# mid-test: once disk0 has served a hundred reads
i=0
until grep -Eq '^disk0 .*reads [0-9]{3,}' "$FMNT/.ctl"; do
	kill -0 $DSPID 2>/dev/null || fault_fail "diskscope ended before the drive vanished: $(cat "$FT/err")"
	[ $i -ge 600 ] && fault_fail "diskscope never read disk0"
	sleep 0.1
	i=$((i + 1))
done
fault_ctl disk0 vanish
losetup -d "$L0" || fault_fail "losetup -d $L0"
wait $DSPID
rc=$?
fault_extra_cleanup=""
cat "$FT/out" "$FT/err"
[ $rc -eq 1 ] || fault_fail "exit $rc, want 1"
fault_json "$FT/v.json"
python3 - "$FT/v.json" "$N0" "$N1" <<'PY' || fault_fail "JSON after a vanished drive"
import json, sys
r = json.load(open(sys.argv[1]))["run"]
gone, kept = sys.argv[2:]
res = {t["target"]: t for t in r["steps"][0]["results"]}
g, k = res[gone], res[kept]
assert g["errors"]["count"] > 0 and set(g["errors"]["by_errno"]) <= {"ENODEV", "EIO"}, g["errors"]
assert g["note"] and gone in g["note"], g["note"]
assert "No such device" in g["note"] or "Input/output error" in g["note"], g["note"]
assert g["seconds"] < k["seconds"], (g["seconds"], k["seconds"])
assert k["errors"]["count"] == 0 and k["note"] is None, (k["errors"], k["note"])
assert k["mbps"] > 0 and k["seconds"] >= 3.9, k
assert any(gone in n for n in r["notes"]), r["notes"]
assert not r["interrupted"]
print("vanished: %s (%s); %s went on for %.1f s at %.0f MB/s" % (gone, g["note"], kept, k["seconds"], k["mbps"]))
PY
grep -q "$N0: stopped" "$FT/out" "$FT/err" || fault_fail "the text output does not say why $N0 stopped"
# the detach took effect once diskscope let go of the device
fault_ours "$L0" && fault_fail "$L0 still attached after the run"
echo PASS
