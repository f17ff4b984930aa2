#!/bin/sh
# qemu-provenance.sh - provenance and hidden capacity on QEMU's emulated
# disks (a stock Debian kernel, tests/hw/lib-qemu.sh): an AHCI disk answers
# READ NATIVE MAX ADDRESS with its own size ("hidden capacity: none") and
# aborts DEVICE CONFIGURATION IDENTIFY (QEMU has no DCO: the reason is
# said); it has no FARM log (not a Seagate model, no log 0xA6: said); a
# usb-storage disk passes no ATA command through, so its SMART reason names
# the bridge by its USB ids, QEMU's 46f4:0001.  SKIP without QEMU.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
. "$HERE/lib-qemu.sh"

hwq_begin prov
truncate -s 512M "$W/ahci.img"
truncate -s 256M "$W/usb.img"
QARGS=(-drive "if=none,id=a0,file=$W/ahci.img,format=raw,cache=unsafe"
	-device "ide-hd,drive=a0,bus=ide.0,model=WDC WD10EZEX-QEMU,serial=PROVQEMU1"
	-device qemu-xhci,id=xhci
	-drive "if=none,id=u0,file=$W/usb.img,format=raw,cache=unsafe"
	-device "usb-storage,bus=xhci.0,drive=u0")
hwq_kernel
R=$W/root
hwq_guest_lib "$R"
cat >"$R/init" <<'EOF'
#!/bin/sh
. /etc/hwq-guest.sh
hwq_g_start
hwq_g_wait_disks 2 0
O=/tmp/out; mkdir -p $O
for d in /sys/block/*; do echo "${d##*/} $(readlink -f $d)"; done >$O/block.txt
timeout 120 diskscope list --json >$O/list.json 2>$O/list.err; echo $? >$O/list.rc
timeout 120 diskscope list >$O/table.txt 2>&1
hwq_g_send $O
hwq_g_end
EOF
hwq_initramfs "$R" "$W/initramfs.cpio" "ahci sd_mod sg usbcore xhci_hcd xhci_pci usb_storage uas" "$BIN" ||
	{ echo "FAIL: could not build the initramfs"; exit 1; }
hwq_run_guest "$W/out.txt" "$W/console.txt" "${QARGS[@]}"
mkdir -p "$W/got"
hwq_unpack "$W/out.txt" "$W/got" || { echo "FAIL: the guest's files did not arrive whole"; exit 1; }
timeout 60 python3 - "$W/got" <<'PY'
import json, sys, os
g = sys.argv[1]
cat = lambda f: open(os.path.join(g, f)).read()
drives = json.loads(cat("list.json"))["inventory"]["drives"]
ahci = [d for d in drives if d["serial"] == "PROVQEMU1"]
usb = [d for d in drives if d["transport"] == "usb"]
ok = True
def check(c, what):
    global ok
    print(("ok   " if c else "FAIL ") + what)
    ok = ok and c
check(len(ahci) == 1, "the AHCI disk is listed")
check(len(usb) == 1, "the usb-storage disk is listed with transport usb: %s" % [(d["name"], d["transport"]) for d in drives])
if ahci:
    h, p = ahci[0]["hidden_capacity"], ahci[0]["provenance"]
    check(h is not None and h["known"] and h["hidden_sectors"] == 0 and h["native_sectors"] == h["reported_sectors"] == 1048576,
          "READ NATIVE MAX ADDRESS: native == reported, hidden capacity none: %s" % h)
    check(h is not None and h["dco_sectors"] is None and (h["reason"] or "").startswith("DCO not read: DEVICE CONFIGURATION IDENTIFY: "),
          "DCO aborted, with its reason: %s" % (h or {}).get("reason"))
    check(p is not None and not p["known"] and "not a Seagate drive" in p["reason"], "no FARM, with its reason: %s" % p)
    check("    hidden capacity: none\n" in cat("table.txt"), "list text: hidden capacity: none")
if usb:
    r = usb[0]["smart"]["reason"]
    check(r.startswith("no pass-through through this bridge (46f4:0001"), "usb bridge named: %s" % r)
sys.exit(0 if ok else 1)
PY
rc=$?
[ $rc -eq 0 ] && echo PASS || echo "FAIL: see above"
exit $rc
