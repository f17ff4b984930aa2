#!/bin/sh
# qemu-emulated.sh - the inventory on emulated hardware of the kinds that went
# wrong on a rig someone else configured: an NVMe controller with three
# namespaces (one serial), SCSI disks on virtio-scsi (vendor kept, 15000 rpm
# from VPD page B1) and on an LSI 53C895A (an SSD by VPD B1), a SATA disk on
# AHCI (its link speed known).  Boots a stock Debian kernel under QEMU (see
# lib-qemu.sh), runs `diskscope list --json` inside and checks it.
# Exit 0 pass, 77 skip, else fail.  HWQ_KEEP=1 keeps the work dir.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
. "$HERE/lib-qemu.sh"

hwq_begin emu
for i in sata vs lsi n1 n2 n3; do truncate -s 256M "$W/$i.img"; done
QARGS=(
	-drive "if=none,id=sata,file=$W/sata.img,format=raw,cache=unsafe"
	-device "ide-hd,drive=sata,bus=ide.0,model=WDC WD40EFRX-68N32N0,serial=WD-EMUSATA01,rotation_rate=5400"
	-device "virtio-scsi-pci,id=vscsi,addr=0x4"
	-drive "if=none,id=vs,file=$W/vs.img,format=raw,cache=unsafe"
	-device "scsi-hd,drive=vs,bus=vscsi.0,scsi-id=0,lun=0,vendor=SEAGATE,product=ST600MP0006,serial=EMUVSCSI01,rotation_rate=15000"
	-device "lsi53c895a,id=lsi,addr=0x5"
	-drive "if=none,id=lsi,file=$W/lsi.img,format=raw,cache=unsafe"
	-device "scsi-hd,drive=lsi,bus=lsi.0,scsi-id=0,lun=0,vendor=SAMSUNG,product=MZ7LH480,serial=EMULSI01,rotation_rate=1"
	-device "nvme,id=nvme0,addr=0x6,serial=EMUNVME01"
	-drive "if=none,id=n1,file=$W/n1.img,format=raw,cache=unsafe"
	-device "nvme-ns,drive=n1,bus=nvme0,nsid=1"
	-drive "if=none,id=n2,file=$W/n2.img,format=raw,cache=unsafe"
	-device "nvme-ns,drive=n2,bus=nvme0,nsid=2"
	-drive "if=none,id=n3,file=$W/n3.img,format=raw,cache=unsafe"
	-device "nvme-ns,drive=n3,bus=nvme0,nsid=3"
)

hwq_kernel
R=$W/root
hwq_guest_lib "$R"
cat >"$R/init" <<'EOS'
#!/bin/busybox sh
. /etc/hwq-guest.sh
hwq_g_start
hwq_g_wait_disks 3 3
echo "@@BLOCK $(ls /sys/block | tr '\n' ' ')"
for n in /sys/block/nvme*; do
	for a in nsid eui nguid wwid; do [ -r $n/$a ] && echo "@@NS ${n##*/} $a $(cat $n/$a)"; done
done
timeout 120 diskscope list --json >/tmp/list.json 2>/tmp/list.err
echo "@@RC $?"
echo "@@JSON"
base64 </tmp/list.json
echo "@@EOF"
sed 's/^/@@ERR /' /tmp/list.err
hwq_g_end
EOS
hwq_initramfs "$R" "$W/initramfs.cpio" "ahci sd_mod sg nvme virtio_pci virtio_scsi sym53c8xx crc64_rocksoft_generic" \
	"$BIN" || { echo "FAIL: could not build the initramfs"; exit 1; }
hwq_run_guest "$W/out.txt" "$W/console.txt" "${QARGS[@]}"
grep '^@@BLOCK\|^@@NS\|^@@RC\|^@@ERR' "$W/out.txt" | sed 's/^/  guest: /'
sed -n '/^@@JSON/,/^@@EOF/p' "$W/out.txt" | sed '1d;$d' | base64 -d >"$W/list.json" ||
	{ echo "FAIL: no JSON from the guest"; exit 1; }
timeout 60 python3 - "$W/list.json" <<'EOPY'
import json, sys
drives = json.load(open(sys.argv[1]))["inventory"]["drives"]
fails = 0
def check(cond, what, got):
    global fails
    print(("ok   " if cond else "FAIL ") + what + ": " + repr(got))
    fails += not cond
by_serial = {}
for d in drives:
    by_serial.setdefault(d.get("serial"), []).append(d)
ns = [d for d in drives if d["name"].startswith("nvme")]
check(len(ns) == 3, "three NVMe namespaces", [d["name"] for d in ns])
check(len({d["id"] for d in ns}) == 3, "three distinct NVMe ids", [(d["id"], d["id_source"]) for d in ns])
# Linux ignores QEMU's namespace ids (NVME_QUIRK_BOGUS_NID for 1b36:0010): serial + nsid
# then (the NGUID / EUI-64 paths are in test_sysfs_emulated)
check(sorted(d["id"] for d in ns) == ["EMUNVME01-ns1", "EMUNVME01-ns2", "EMUNVME01-ns3"],
      "namespaces named by serial and nsid", sorted(d["id"] for d in ns))
vs = by_serial.get("EMUVSCSI01", [{}])[0]
check(vs.get("vendor") == "SEAGATE", "virtio-scsi disk keeps its vendor", vs.get("vendor"))
check(vs.get("rotation_rpm") == 15000, "virtio-scsi disk 15000 rpm (VPD B1)", vs.get("rotation_rpm"))
lsi = by_serial.get("EMULSI01", [{}])[0]
check(lsi.get("ssd") is True, "LSI disk is an SSD (VPD B1 = 1)", (lsi.get("ssd"), lsi.get("rotation_rpm")))
check(lsi.get("vendor") == "SAMSUNG", "LSI disk vendor", lsi.get("vendor"))
sata = by_serial.get("WD-EMUSATA01", [{}])[0]
link = sata.get("sata_link") or {}
check(link.get("current_gbps") is not None, "SATA link speed known", link)
sys.exit(1 if fails else 0)
EOPY
