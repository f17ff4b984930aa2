#!/bin/sh
# qemu-nvme-triage.sh - triage's NVMe rules on QEMU's emulated NVMe controller.
#
# Two NVMe controllers in a stock Debian kernel (see lib-qemu.sh).  In the guest:
# read-only triage of nvme0n1 as it boots (QEMU 7.2: no warning bit, spare 0 %,
# threshold 0 %: not below it, so PASS); with --max-temp under QEMU's fixed 50 C
# composite temperature (FAIL, too warm); then the host sets the controller's
# `smart_critical_warning` QOM property (writable at run time in 7.2) through QMP to
# 0x05 and triage FAILs it naming those bits, `list --json` shows them; on nvme1,
# nvme-cli's Set Features (temperature threshold, FID 04h) to 40 C under 50 C makes
# QEMU raise the temperature bit (0x02), and triage FAILs it.  And the sector sizes
# come from the namespace's LBA format in use (`list --json` sectors.source; a third
# controller's namespace has 8 metadata bytes per LBA), the wear is in the evidence
# and the run's health table holds the class-tagged record.
# Exit 0 pass, 77 skip, else fail.  HWQ_KEEP=1 keeps the work dir.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
. "$HERE/lib-qemu.sh"

hwq_begin nvtri
command -v nvme >/dev/null 2>&1 || hwq_skip "nvme-cli not installed (the guest's Set Features needs it)"
for i in n0 n1 n2; do truncate -s 128M "$W/$i.img"; done
QMP=$W/qmp.sock
QARGS=(
	-drive "if=none,id=n0,file=$W/n0.img,format=raw,cache=unsafe"
	-device "nvme,id=nv0,addr=0x6,serial=TRINVME00,drive=n0"
	-drive "if=none,id=n1,file=$W/n1.img,format=raw,cache=unsafe"
	-device "nvme,id=nv1,addr=0x7,serial=TRINVME01,drive=n1"
	-device "nvme,id=nv2,addr=0x8,serial=TRINVME02"
	-drive "if=none,id=n2,file=$W/n2.img,format=raw,cache=unsafe"
	-device "nvme-ns,drive=n2,bus=nv2,nsid=1,ms=8"
	-qmp "unix:$QMP,server=on,wait=off"
)

hwq_kernel
R=$W/root
hwq_guest_lib "$R"
cat >"$R/init" <<'EOS'
#!/bin/busybox sh
. /etc/hwq-guest.sh
hwq_g_start
hwq_g_wait_disks 0 3
export HOME=/tmp
O=/tmp/out; mkdir -p $O
tri() {	# tri NAME DEV [options]: read-only triage, its JSON and exit code
	n=$1; shift
	timeout 120 diskscope run triage "$@" --solo-time 1s --samples 64 --json $O/$n.json \
		>$O/$n.txt 2>&1
	echo $? >$O/$n.rc
}
cw() { timeout 20 nvme smart-log $1 2>/dev/null | awk -F: '/^critical_warning/{gsub(/ /,"",$2); print $2}'; }
timeout 30 nvme smart-log /dev/nvme0n1 >$O/smart0-boot.txt 2>&1
tri boot /dev/nvme0n1
tri hot /dev/nvme0n1 --max-temp 45
# the host sets smart_critical_warning when it sees this line
echo "@@WANT_CW"
i=0
while [ $i -lt 120 ] && [ "$(cw /dev/nvme0n1)" = 0 ]; do sleep 0.5; i=$((i + 1)); done
timeout 30 nvme smart-log /dev/nvme0n1 >$O/smart0-cw.txt 2>&1
tri cw /dev/nvme0n1
timeout 60 diskscope list --json >$O/list-cw.json 2>$O/list-cw.err
# temperature threshold (FID 04h, kelvin) to 40 C, under the drive's 50 C
timeout 20 nvme set-feature /dev/nvme1 -n 0 -f 4 -v 313 >$O/setfeat.txt 2>&1
echo $? >$O/setfeat.rc
timeout 30 nvme smart-log /dev/nvme1n1 >$O/smart1-temp.txt 2>&1
tri temp /dev/nvme1n1
hwq_g_send $O
hwq_g_end
EOS
hwq_initramfs "$R" "$W/initramfs.cpio" "nvme crc64_rocksoft_generic" "$BIN" "$(command -v nvme)" ||
	{ echo "FAIL: could not build the initramfs"; exit 1; }

# the monitor side: wait for the guest's line, then set the warning bits 0x05
# (spare below threshold, reliability degraded) on controller nv0
timeout 280 python3 - "$W/out.txt" "$QMP" >"$W/qmp.log" 2>&1 <<'EOPY' &
import json, os, socket, sys, time
out, path = sys.argv[1], sys.argv[2]
while True:
    try:
        if "@@WANT_CW" in open(out, errors="replace").read():
            break
    except OSError:
        pass
    time.sleep(0.2)
s = socket.socket(socket.AF_UNIX)
s.connect(path)
f = s.makefile("rw")
def cmd(c, **a):
    f.write(json.dumps({"execute": c, "arguments": a} if a else {"execute": c}) + "\n")
    f.flush()
    while True:
        r = json.loads(f.readline())
        if "return" in r or "error" in r:
            print(c, r)
            return r
f.readline()	# the greeting
cmd("qmp_capabilities")
p = "/machine/peripheral/nv0"
cmd("qom-get", path=p, property="smart_critical_warning")
cmd("qom-set", path=p, property="smart_critical_warning", value=5)
cmd("qom-get", path=p, property="smart_critical_warning")
EOPY
QMPPID=$!
hwq_run_guest "$W/out.txt" "$W/console.txt" "${QARGS[@]}"
kill "$QMPPID" 2>/dev/null
wait "$QMPPID" 2>/dev/null
sed 's/^/  qmp: /' "$W/qmp.log"
hwq_unpack "$W/out.txt" "$W/g" || exit 1
timeout 60 python3 - "$W/g" <<'EOPY'
import json, os, sys
g = sys.argv[1]
fails = 0
def check(cond, what, got):
    global fails
    print(("ok   " if cond else "FAIL ") + what + ": " + repr(got))
    fails += not cond
def rd(n):
    try:
        return open(os.path.join(g, n), errors="replace").read()
    except OSError:
        return ""
def tri(n):
    try:
        run = json.load(open(os.path.join(g, n + ".json")))["run"]
    except (OSError, ValueError):
        return {"level": None, "text": rd(n + ".txt")[-400:], "evidence": []}
    return [v for v in run["verdicts"] if v["kind"] == "triage"][0]
def ev(v, word):
    return [e for e in v["evidence"] if word in e]
print("  guest smart-log at boot:", " ".join(l.strip() for l in rd("smart0-boot.txt").splitlines()
                                          if l.startswith(("critical", "available", "temperature"))))
b = tri("boot")
check(b["level"] == "pass", "read-only triage PASSes QEMU's NVMe drive as it boots", b["text"])
check(ev(b, "critical warning 0x00 (none)"), "evidence: no warning bit", ev(b, "NVMe health"))
# QEMU 7.2 reports spare 0 % and threshold 0 %: equal, not below
check(ev(b, "available spare 0% (threshold 0%)"), "evidence: QEMU's spare 0 %, threshold 0 %", ev(b, "spare"))
check(ev(b, "temperature: 50 C"), "evidence: composite temperature 50 C", ev(b, "temperature"))
check([e for e in b["evidence"] if e.startswith("wear: 0% used (NVMe percentage used)")],
      "evidence: the wear from the health log", ev(b, "wear"))
h = tri("hot")
check(h["level"] == "fail" and "too warm: 50 C (limit 45 C)" in h["text"], "--max-temp 45 FAILs it", h["text"])
c = tri("cw")
check(c["level"] == "fail", "triage FAILs it once smart_critical_warning is 0x05", c["text"])
check("NVMe critical warning 0x05: spare below threshold, reliability degraded" in c["text"],
      "the bits named in the verdict", c["text"])
check(ev(c, "critical warning 0x05 (spare below threshold, reliability degraded)"),
      "and in the evidence", ev(c, "NVMe health"))
try:
    tabs = json.load(open(os.path.join(g, "cw.json")))["run"]["tables"]
    ht = [t for t in tabs if t["name"] == "health"][0]
    names = [c["name"] if isinstance(c, dict) else c for c in ht["columns"]]
    row = dict(zip(names, ht["rows"][0]))
except (OSError, ValueError, IndexError, KeyError):
    row = {}
check(row.get("class") == "nvme" and row.get("critical_warning") == 5 and row.get("temp_c") == 50,
      "the run's health table: class nvme, critical warning 5, 50 C", row)
try:
    drives = json.load(open(os.path.join(g, "list-cw.json")))["inventory"]["drives"]
except (OSError, ValueError):
    drives = []
n0 = [d for d in drives if d.get("serial") == "TRINVME00"]
hl = n0[0]["nvme"]["health"] if n0 and n0[0].get("nvme") else {}
check(hl.get("critical_warning") == 5 and
      hl.get("critical_warning_text") == "spare below threshold, reliability degraded",
      "list --json shows the critical warning", (hl.get("critical_warning"), hl.get("critical_warning_text")))
wr = n0[0].get("wear", {}) if n0 else {}
check(wr.get("percent_used") == 0 and wr.get("source") == "NVMe percentage used" and
      wr.get("written_source") == "NVMe data units written", "list --json: the drive's wear", wr)
n2 = [d for d in drives if d.get("serial") == "TRINVME02"]
sec = n2[0].get("sectors", {}) if n2 else {}
check(sec.get("source") == "namespace" and sec.get("logical") == 512 and sec.get("metadata_bytes") == 8,
      "a namespace with 8 metadata bytes per LBA (nvme-ns ms=8)", sec)
sec = n0[0].get("sectors", {}) if n0 else {}
check(sec.get("source") == "namespace" and sec.get("logical") == 512 and sec.get("metadata_bytes") == 0,
      "sector sizes from the namespace's LBA format in use (512 + 0 metadata)", sec)
check(rd("setfeat.rc").strip() == "0", "nvme set-feature temperature threshold 313 K", rd("setfeat.txt").strip())
t = tri("temp")
check(t["level"] == "fail" and "NVMe critical warning 0x02: temperature threshold" in t["text"],
      "a temperature threshold under the drive's temperature FAILs it", t["text"])
sys.exit(1 if fails else 0)
EOPY
rc=$?
hwq_log "done"
exit $rc
