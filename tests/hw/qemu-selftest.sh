#!/bin/sh
# qemu-selftest.sh - drive self-tests on emulated real hardware: a stock Debian
# kernel under QEMU (see lib-qemu.sh) with a SATA disk on AHCI, an NVMe
# controller and a scsi_debug disk (the module loaded in the guest), one
# `diskscope run selftest --kind short` over all three at once:
#   the AHCI disk: QEMU 7.2's IDE emulation (hw/ide/core.c) runs SMART EXECUTE
#     OFF-LINE IMMEDIATE at once (libatasmart cannot name the bus without udev
#     in the guest: our SG_IO does the command, libatasmart parses the SMART
#     data); its IDENTIFY word 84 claims no self-test log, so the result is the
#     SMART data's execution status, said so: PASS;
#   the NVMe controller: QEMU 7.2 has no Device Self-test (OACS bit 4 clear):
#     "self-test not supported (OACS)", INFO, not a failure;
#   scsi_debug: what it answers is printed; it must not be a PASS.  Measured
#     here (Debian 6.1): SEND DIAGNOSTIC background short is accepted, LOG
#     SENSE page 10h is an Illegal request and REQUEST SENSE shows no progress,
#     so the result cannot be had: "self-test error: no progress in REQUEST
#     SENSE and no result", WARN.  (Before the SCSI class, the inventory named
#     it SATA and it refused ATA PASS-THROUGH: INFO.)
# Exit 0 pass, 77 skip (no QEMU, no kernel), else fail.  HWQ_KEEP=1 keeps the
# work dir.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
. "$HERE/lib-qemu.sh"

hwq_begin selftest
for i in sata n1; do truncate -s 256M "$W/$i.img"; done
QARGS=(
	-drive "if=none,id=sata,file=$W/sata.img,format=raw,cache=unsafe"
	-device "ide-hd,drive=sata,bus=ide.0,model=WDC WD40EFRX-68N32N0,serial=WD-STQEMU01,rotation_rate=5400"
	-device "nvme,id=nvme0,addr=0x6,serial=STQEMUNVME01"
	-drive "if=none,id=n1,file=$W/n1.img,format=raw,cache=unsafe"
	-device "nvme-ns,drive=n1,bus=nvme0,nsid=1"
)

hwq_kernel
R=$W/root
hwq_guest_lib "$R"
cat >"$R/init" <<'EOS'
#!/bin/busybox sh
. /etc/hwq-guest.sh
hwq_g_start
hwq_g_wait_disks 2 1
O=/tmp/out; mkdir -p $O
ATA="" DBG=""
for b in /sys/block/sd*; do
	m=$(cat $b/device/model 2>/dev/null)
	echo "${b##*/} $m" >>$O/models.txt
	case "$m" in *scsi_debug*) DBG=/dev/${b##*/} ;; *) ATA=/dev/${b##*/} ;; esac
done
echo "@@DISKS ata=$ATA nvme=/dev/nvme0n1 scsi_debug=$DBG"
echo "@@T selftest_start=$(hwq_g_up)"
timeout 240 diskscope run selftest $ATA /dev/nvme0n1 $DBG --kind short --self-test-timeout 2m \
	--json $O/st.json >$O/st.txt 2>&1
echo $? >$O/st.rc
echo "@@T selftest_done=$(hwq_g_up)"
hwq_g_send $O
hwq_g_end
EOS
hwq_initramfs "$R" "$W/initramfs.cpio" "ahci sd_mod sg nvme scsi_debug crc64_rocksoft_generic" \
	"$BIN" || { echo "FAIL: could not build the initramfs"; exit 1; }
hwq_run_guest "$W/out.txt" "$W/console.txt" "${QARGS[@]}"
grep '^@@DISKS\|^@@T' "$W/out.txt" | sed 's/^/  guest: /'
mkdir -p "$W/got"
hwq_unpack "$W/out.txt" "$W/got" || { echo "FAIL: the guest's files did not come back whole"; exit 1; }
sed 's/^/  guest: /' "$W/got/st.txt" | grep -E "selftest: |summary" || true
timeout 60 python3 - "$W/got/st.json" "$(cat "$W/got/st.rc")" <<'EOPY'
import json, sys
r = json.load(open(sys.argv[1]))["run"]
rc = int(sys.argv[2])
fails = 0
def check(cond, what, got):
    global fails
    print(("ok   " if cond else "FAIL ") + what + ": " + repr(got))
    fails += not cond
v = [x for x in r["verdicts"] if x["kind"] == "selftest"]
check(len(v) == 3, "one verdict per drive", [x["text"] for x in v])
t = [x for x in r["tables"] if x["name"] == "selftest"][0]
cols = [c["name"] for c in t["columns"]]
rows = [dict(zip(cols, row)) for row in t["rows"]]
ata, nv, dbg = rows[0], rows[1], rows[2]
check(ata["result"] == "passed" and ata["verdict"] == "PASS", "AHCI disk: short self-test passed", ata)
check(any(e.startswith("self-test log: completed without error") for e in v[0]["evidence"]),
      "AHCI disk: the result from its self-test log", v[0]["evidence"])
check(nv["result"] == "not supported" and nv["reasons"] == "no short self-test: self-test not supported (OACS)",
      "NVMe (QEMU 7.2): self-test not supported (OACS)", nv)
check(dbg["result"] != "passed" and dbg["verdict"] in ("INFO", "WARN"),
      "scsi_debug: no pass it cannot show (what it answered)", (dbg["result"], dbg["reasons"]))
check(rc in (0, 1) and r["interrupted"] is False, "the run ended by itself", rc)
check(rc == 0 or dbg["verdict"] == "WARN", "exit 0 unless a drive could not finish", rc)
sys.exit(1 if fails else 0)
EOPY
