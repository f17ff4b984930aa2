"""check-scsi.py - qemu-scsi.sh's checks: diskscope's SCSI facts of each scsi_debug
variant against sg3_utils' decoding of the same device in the same guest.

usage: check-scsi.py DIR MEDIUM_START MEDIUM_COUNT
DIR holds VARIANT.list.json, VARIANT.sda.scsi-*.bin (diskscope --save-blobs), and
VARIANT.sg-*.txt / .bin (sg_inq, sg_vpd, sg_readcap --16, sg_logs)."""
import json
import os
import re
import sys

D, MED0, MEDN = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
# the LOG SENSE pages Debian 12's scsi_debug implements (the guest's kernel)
PAGES = "00 0d 2f"
EXPECT = {  # variant: logical bytes, physical exponent, protection type (None none), peripheral type
    "512": (512, 0, None, 0), "512e": (512, 3, None, 0), "4kn": (4096, 0, None, 0),
    "dif": (512, 0, 1, 0), "medium": (512, 0, None, 0), "zbc": (512, 0, None, 0x14),
}
fails = []


def check(cond, what):
    if not cond:
        fails.append(what)


def text(name):
    p = os.path.join(D, name)
    return open(p, errors="replace").read() if os.path.exists(p) else ""


def num(pat, s, what):
    m = re.search(pat, s)
    check(m is not None, "sg3_utils output has no %s (%r)" % (what, pat))
    return int(m.group(1), 0) if m else None


for v, (lb, pexp, ptype, pdt) in EXPECT.items():
    try:
        inv = json.load(open(os.path.join(D, v + ".list.json")))["inventory"]
    except (OSError, ValueError) as e:
        fails.append("%s: no list --json: %s" % (v, e))
        continue
    drv = [x for x in inv["drives"] if x["name"] == "sda"]
    if not drv:
        fails.append("%s: no sda in list --json" % v)
        continue
    d = drv[0]
    s = d["scsi"]
    check(s is not None and s["known"], "%s: scsi object unknown: %r" % (v, s))
    if not s:
        continue
    h = s["health"]
    # the class: scsi_debug's VPD 0x83 target port designators say SAS; never "sata"
    # (its ATA Information page 0x89 alone does not make it an ATA drive)
    vpd83 = text(v + ".sg-vpd0x83.txt")
    check(d["transport"] == "sas" and s["transport_from"] == "VPD 0x83" and s["protocol"] == "sas",
          "%s: transport %s from %r (protocol %r)" % (v, d["transport"], s["transport_from"], s["protocol"]))
    check("Serial Attached SCSI" in vpd83, "%s: sg_vpd 0x83 does not say SAS" % v)
    check(d["smart"]["reason"] == 'a SCSI drive: its health is under "scsi"', "%s: smart reason %r" % (v, d["smart"]))
    # identity: sg_inq
    inq = text(v + ".sg-inq.txt")
    check(s["vendor"] in inq and s["product"] in inq and s["revision"] in inq,
          "%s: INQUIRY %s/%s/%s vs sg_inq %r" % (v, s["vendor"], s["product"], s["revision"], inq[:80]))
    check(s["peripheral_type"] == pdt, "%s: peripheral type %r, want %d" % (v, s["peripheral_type"], pdt))
    # READ CAPACITY(16): sg_readcap --16
    rc = text(v + ".sg-rc16.txt")
    last = num(r"Last LBA=(\d+)", rc, "last LBA")
    check(last is not None and s["lba_count"] == last + 1, "%s: lba_count %r vs last LBA %r" % (v, s["lba_count"], last))
    check(s["logical_bytes"] == num(r"Logical block length=(\d+)", rc, "block length") == lb,
          "%s: logical bytes %r" % (v, s["logical_bytes"]))
    check(s["physical_exponent"] == num(r"physical block exponent=(\d+)", rc, "exponent") == pexp,
          "%s: physical exponent %r" % (v, s["physical_exponent"]))
    check(s["lowest_aligned_lba"] == num(r"Lowest aligned LBA=(\d+)", rc, "lowest aligned"),
          "%s: lowest aligned %r" % (v, s["lowest_aligned_lba"]))
    pen = num(r"prot_en=(\d)", rc, "prot_en")
    pt = num(r"p_type=(\d)", rc, "p_type")
    check(s["protection"] == bool(pen), "%s: protection %r vs prot_en=%r" % (v, s["protection"], pen))
    check(s["protection_type"] == (pt + 1 if pen else None) == ptype,
          "%s: protection type %r (p_type=%r)" % (v, s["protection_type"], pt))
    want_fmt = "usable, with protection information" if ptype else "usable"
    check(s["format"] == want_fmt, "%s: format %r" % (v, s["format"]))
    check(d["sectors"]["logical"] == lb and d["sectors"]["physical"] == lb << pexp,
          "%s: sysfs sectors %r" % (v, d["sectors"]))
    # VPD 0xB1: non-rotating
    b1 = text(v + ".sg-vpd0xb1.txt")
    check(("Non-rotating" in b1) == (s["rotation_rpm"] == 0), "%s: rotation %r vs %r" % (v, s["rotation_rpm"], b1[:80]))
    # LOG SENSE: the supported list, temperature, informational exceptions
    lst = " ".join(m.group(1)[2:] for m in re.finditer(r"^\s+(0x[0-9a-f]{2})\s", text(v + ".sg-logs.txt"), re.M))
    check(h["log_pages"] == lst == PAGES, "%s: log pages %r, sg_logs %r, want %r" % (v, h["log_pages"], lst, PAGES))
    t = text(v + ".sg-log0x0d.txt")
    check(h["temperature_c"] == num(r"Current temperature = (\d+) C", t, "temperature"),
          "%s: temperature %r" % (v, h["temperature_c"]))
    check(h["trip_temperature_c"] == num(r"Reference temperature = (\d+) C", t, "reference"),
          "%s: trip temperature %r" % (v, h["trip_temperature_c"]))
    ie = text(v + ".sg-log0x2f.txt")
    ie_t = h["informational_exception"]
    check(ie_t["asc"] == num(r"IE asc = (0x[0-9a-f]+)", ie, "IE asc") and
          ie_t["ascq"] == num(r"ascq = (0x[0-9a-f]+)", ie, "IE ascq"), "%s: IE %r" % (v, ie_t))
    check(ie_t["temperature_c"] == num(r"Current temperature = (\d+) C", ie, "IE temperature"),
          "%s: IE temperature %r" % (v, ie_t))
    # pages scsi_debug lacks stay unknown, and say so
    check(h["missing_pages"] == "02 03 05 06 0e 10 15" and h["read"]["uncorrected"] is None and
          h["self_test"]["entries"] is None, "%s: absent pages not unknown: %r" % (v, h))
    # the raw bytes diskscope read are the bytes sg3_utils read
    for ours, theirs in (("rc16", "rc16"), ("log0d", "log0x0d"), ("log2f", "log0x2f"), ("log00", "log0x00"),
                         ("vpd83", "vpd0x83"), ("vpdb1", "vpd0xb1")):
        a = os.path.join(D, "%s.sda.scsi-%s.bin" % (v, ours))
        b = os.path.join(D, "%s.sg-%s.bin" % (v, theirs))
        if not (os.path.exists(a) and os.path.exists(b)):
            fails.append("%s: %s or %s missing" % (v, a, b))
            continue
        x, y = open(a, "rb").read(), open(b, "rb").read()
        n = min(len(x), len(y))
        check(n >= 4 and x[:n] == y[:n], "%s: %s differs from sg3_utils' bytes" % (v, ours))

zbc = json.load(open(os.path.join(D, "zbc.list.json")))["inventory"]["drives"][0]
check(zbc["zoned"] == "host-managed", "zbc: zoned %r" % zbc["zoned"])

# the read-only surface scan finds the medium errors at those LBAs
rc = text("medium.surface.rc").strip()
try:
    run = json.load(open(os.path.join(D, "medium.surface.json")))["run"]
    vt = [x["text"] for x in run["verdicts"]]
except (OSError, ValueError, KeyError) as e:
    vt = []
    fails.append("medium: no surface JSON: %s" % e)
want = "unreadable at LBA %d-%d" % (MED0, MED0 + MEDN - 1)
check(rc == "1" and any(want in x for x in vt), "medium: surface rc %s, verdicts %r, want %r" % (rc, vt, want))

# the dashboard's details panel on the drive says what list says (when tmux ran)
dash = text("dash-scsi.txt")
if dash:
    check("SCSI: sas from VPD 0x83" in dash and "512-byte blocks, usable" in dash and
          "38 C (trip 65 C)" in dash and "IE none" in dash, "dashboard details panel: %r" % dash[-1500:])
else:
    print("note: no tmux in the guest: the details panel not checked")

if fails:
    for f in fails:
        print("FAIL: " + f)
    sys.exit(1)
print("PASS: scsi_debug 512/512e/4Kn/PI/medium/zoned: transport, INQUIRY, READ CAPACITY(16), "
      "VPD B1, log pages %s, temperature, IE equal sg3_utils; surface found %s" % (PAGES, want))
