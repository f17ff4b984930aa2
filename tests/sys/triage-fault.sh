#!/bin/sh
# triage-fault.sh - bench triage on real I/O: six peer disks of one size on
# ds-faultdev (direct-io loop devices), each with a head-rate curve: disk0,
# disk4 and disk5 healthy, disk1 40 % slower (its curve), disk2 with an
# unreadable 1 MiB extent at LBA 204800 whose failed read takes 1.5 s (a
# drive that retries), disk3 with a slow band (30 ms more per read over
# 8 MiB at LBA 409600).  Verdicts: PASS; WARN slow alone and together
# against the median of the three healthy disks (the peers without
# findings); FAIL with the extent's exact LBAs and not SLOW (its failed
# read's time is left out of its rate for the peer rule, and said); WARN
# naming the band; PASS, PASS.  Exit 1.  (With four disks, disk1 had only
# disk0 as a peer without findings: too few to judge, the rule is skipped.)
# The peer
# threshold is 80 % here, not the default 92 %: the machine is shared and a
# healthy disk's rate over FUSE can move by more than 8 %; the slow disk sits
# at 60 %.  The disks' rates are low (25 MB/s, the slow one 15) so that six
# of them reading together stay under what the FUSE daemon moves on a loaded
# 2-core machine: at 100 MB/s each, a loaded run's shared pass was bound by
# the daemon (every disk ~29 MB/s, the slow one at 85 % of its peers).  The
# band's delay is added to whatever a read costs, and a busy machine makes
# every read cost more: 60 ms over a ~42 ms read keeps the band under the
# 60 %-of-trend line until a plain 1 MiB read takes 90 ms.  Then the stall
# rule: one read 1.5 s late fails its drive.
. "$(dirname "$0")/../fault/lib.sh"
fault_need
"$DS" run triage --help >/dev/null 2>&1 || fault_skip "$DS has no triage test"

fault_start --disks 6 --size 256M --fill random -c "rate 0:25 1:20" -c "disk1 rate 0:15 1:12" \
	-c "disk2 eio 204800 206847 read" -c "disk2 delay 204800 206847 1500 read" \
	-c "disk3 delay 409600 425983 60 read"
for d in 0 1 2 3 4 5; do
	fault_loop $d
	eval "L$d=\$FLOOP"
done

"$DS" triage "$L0" "$L1" "$L2" "$L3" "$L4" "$L5" --slow-below 80 --json "$FT/t.json" >"$FT/out" 2>"$FT/err"
rc=$?
grep -E "^(triage: |summary)" "$FT/out"
cat "$FT/err"
[ $rc -eq 1 ] || fault_fail "triage with an unreadable disk: exit $rc, want 1"
fault_json "$FT/t.json"
python3 - "$FT/t.json" "$L0" "$L1" "$L2" "$L3" "$L4" "$L5" <<'PY' || fault_fail "triage verdicts"
import json, re, sys
r = json.load(open(sys.argv[1]))["run"]
names = [n.split("/")[-1] for n in sys.argv[2:]]
t = {x["name"]: x for x in r["tables"]}["triage"]
keys = [c["name"] for c in t["columns"]]
rows = [dict(zip(keys, row)) for row in t["rows"]]
assert [x["verdict"] for x in rows] == ["PASS", "WARN", "FAIL", "WARN", "PASS", "PASS"], rows
ok, slow, bad, band = rows[:4]
assert "SLOW alone" in slow["reasons"] and "SLOW together" in slow["reasons"], slow
assert slow["solo_peer_pct"] < 80 and slow["shared_peer_pct"] < 80, slow
assert bad["extents"] == 1 and "unreadable at LBA 204800-206847 (0.105 GB)" in bad["reasons"], bad
assert band["extents"] == 0 and "slow range LBA" in band["reasons"] and "SLOW" not in band["reasons"], band
v = [x for x in r["verdicts"] if x["kind"] == "triage"]
# the reference: the three healthy disks; the others left out with their findings
healthy = ", ".join(names[i] for i in (0, 4, 5))
for m in ("alone", "together"):
    e = [x for x in v[1]["evidence"] if x.startswith(m + ": ")]
    assert len(e) == 1 and "the median of the drives without findings (%s)" % healthy in e[0], (m, e)
    assert "%s (unreadable blocks)" % names[2] in e[0] and "%s (a slow range)" % names[3] in e[0], e
# the failed read's 1.5 s is left out of the flawed disk's rate: not SLOW by it
assert "SLOW" not in bad["reasons"], bad
# (together for sure: the pass reads every block; alone when its 3 s got that far)
e = [x for x in v[2]["evidence"] if x.startswith("together: its 1 failed read took ")]
assert len(e) == 1 and float(e[0].split()[6]) >= 1.4, v[2]["evidence"]
w = [e for e in v[3]["evidence"] if e.startswith("slow range: LBA ")]
assert len(w) == 1, v[3]
a, b = map(int, w[0].split()[3].rstrip(",").split("-"))
# inside the band (to a 1 MiB block) and most of it: the pass finds it, on a
# shared machine a block at either end can read at the normal rate
assert a >= 409600 - 2048 and b <= 425983 + 2048 and b - a >= 8192, (a, b)
# then re-reads confirm it: its first blocks stay slow against as many beside it
m = re.search(r"; re-read ([0-9.]+) against ([0-9.]+) beside it$", w[0])
assert m and float(m.group(1)) < 0.7 * float(m.group(2)), w[0]
# no drive keeps a slow range that was not re-read
assert not any("not re-read" in e for x in v for e in x["evidence"]), v
print("band:", w[0])
# a loop device has no SMART: said so, no SMART rule applied, no temperature made up
for x in v:
    assert any(e.startswith("SMART: not available (not an ATA device)") for e in x["evidence"]), x
assert all(x["temp_c"] is None for x in rows), rows
s = [x for x in r["verdicts"] if x["kind"] == "summary"]
assert s[0]["text"].startswith("6 drives: 3 pass, 2 warn, 1 fail: ") and \
    s[0]["text"].endswith("unreadable at LBA 204800-206847"), s
print([(x["target"], x["verdict"], x["solo_mbps"], x["shared_mbps"]) for x in rows])
PY

# a stall rule: one read of disk0 takes 1.5 s more, --stall 1s fails it, its
# peer passes (both on the healthy rate curve again)
fault_ctl clear
fault_ctl "rate 0:100 1:80"
fault_ctl "disk0 delay 100000 100007 1500 read"
"$DS" run triage "$L0" "$L1" --stall 1s --json "$FT/s.json" >"$FT/out" 2>"$FT/err"
rc=$?
grep -E "^(triage: |summary)" "$FT/out"
[ $rc -eq 1 ] || fault_fail "triage with a stalled read: exit $rc, want 1"
python3 - "$FT/s.json" <<'PY' || fault_fail "stall verdicts"
import json, sys
r = json.load(open(sys.argv[1]))["run"]
v = [x for x in r["verdicts"] if x["kind"] == "triage"]
# the peer is not failed; on a loaded machine its own pass can show a slow
# range or read FAST against the stalled drive (a WARN), never a stall
assert [x["level"] for x in v][0] == "fail" and v[1]["level"] in ("pass", "warn"), v
assert "a read stalled 1." in v[0]["text"] and "(limit 1.0 s)" in v[0]["text"], v[0]
assert "stalled" not in v[1]["text"], v[1]
PY
echo PASS
