#!/usr/bin/env python3
"""check-inventory.py - compare `diskscope list --json` from the QEMU guest with the rig.

Inputs: the rig table qemu-inventory.sh built the QEMU command line from, the guest's
serial output (files framed as "@@FILE name sha256" + base64 + "@@EOF name"), and the
host's pci.ids.  Prints one line per check ("ok   ..." or "FAIL ...: expected X, got Y")
and exits 1 when any check failed.  Drives are matched by serial: kernel names change
between boots.  HWQ_DUMP=DIR also writes the guest's files there for a human to read.
"""
import argparse
import base64
import hashlib
import json
import os
import re
import sys

MIB = 1 << 20

# What the QEMU device models present (QEMU 7.2 sources: hw/ide/ich.c, hw/scsi/megasas.c,
# hw/nvme/ctrl.c); pci.ids supplies the names diskscope should show for them.
QEMU_IDS = {
    "ich9-ahci": ("8086", "2922"),
    "ahci": ("8086", "2922"),          # "ahci" is QEMU's alias of ich9-ahci
    "megasas-gen2": ("1000", "0079"),
    "nvme": ("1b36", "0010"),
}
DRIVER = {"ich9-ahci": "ahci", "ahci": "ahci", "megasas-gen2": "megaraid_sas", "nvme": "nvme"}
TRANSPORTS = {"ich9-ahci": {"sata"}, "ahci": {"sata"},
              # megaraid_sas registers no SAS transport class: the disk is a plain SCSI
              # device under hostN, so either name is honest
              "megasas-gen2": {"sas", "scsi"}, "nvme": {"nvme"}}
NVME_MODEL = "QEMU NVMe Ctrl"     # fixed by hw/nvme/ctrl.c

# QEMU 7.2 PCIe endpoints (nvme, megasas-gen2) advertise and train 2.5GT/s x1 whatever
# their root port is configured to; the port's LnkSta then trains down to 2.5GT/s x1 too
# (guest lspci: 00:01.0 LnkCap 8GT/s x4 / LnkSta 2.5GT/s x1; 01:00.0 LnkCap = LnkSta =
# 2.5GT/s x1).  Only a port with no PCIe endpoint below it keeps its configured link in
# LnkSta: the add-in ich9 AHCI is a conventional PCI function (no Express capability), so
# 00:02.0 shows LnkCap = LnkSta = 5GT/s x2, and that port link is the one feeding it.
QEMU_ENDPOINT_LINK = (2.5, 1)
MBPS_PER_LANE = {2.5: 250, 5.0: 500, 8.0: 985, 16.0: 1969, 32.0: 3938}

# QEMU's emulated SMART data (hw/ide/core.c smart_attributes[]): attributes 1, 3, 4, 5,
# 9, 12, 190; reallocated (5) raw 0 threshold 0x24; power-on hours (9) raw 1;
# airflow temperature (190) raw 0x1f = 31 C; no 197/198 (pending/offline uncorrectable).
QEMU_SMART_IDS = {1, 3, 4, 5, 9, 12, 190}


class Checks:
    def __init__(self):
        self.n = 0
        self.failed = 0
        self.fails = []

    def ok(self, cond, what, expected=None, got=None):
        self.n += 1
        if cond:
            print(f"ok   {what}" + ("" if got is None else f": {short(got)}"))
        else:
            self.failed += 1
            if expected is None and got is None:
                line = f"FAIL {what}"
            else:
                line = f"FAIL {what}: expected {expected!r}, got {got!r}"
            print(line)
            self.fails.append(line)
        return cond

    def eq(self, what, expected, got):
        return self.ok(same(expected, got), what, expected, got)

    def within(self, what, allowed, got):
        return self.ok(any(same(a, got) for a in allowed), what,
                       " or ".join(repr(a) for a in allowed), got)


MISSING = "<missing>"


def short(v):
    t = repr(v)
    return t if len(t) <= 100 else t[:97] + "..."


def same(a, b):
    if isinstance(a, (int, float)) and not isinstance(a, bool) and \
            isinstance(b, (int, float)) and not isinstance(b, bool):
        return abs(a - b) < 1e-6
    return a == b


def get(obj, path):
    """get(d, "link.narrowest_on_path.address"); MISSING when any step is absent."""
    for key in path.split("."):
        if not isinstance(obj, dict) or key not in obj:
            return MISSING
        obj = obj[key]
    return obj


def guest_files(path):
    files, cur, buf, digest = {}, None, [], None
    with open(path, "rb") as f:
        text = f.read().decode("utf-8", "replace")
    for line in text.splitlines():
        line = line.rstrip("\r")
        if line.startswith("@@FILE "):
            _, cur, digest = line.split(" ", 2)
            buf = []
        elif line.startswith("@@EOF ") and cur:
            data = base64.b64decode("".join(buf))
            if hashlib.sha256(data).hexdigest() != digest:
                raise ValueError(f"{cur}: checksum mismatch (garbled serial transfer)")
            files[cur] = data
            cur = None
        elif cur:
            buf.append(line)
    return files


def read_rig(path):
    ctrls, disks = {}, []
    for line in open(path):
        f = line.rstrip("\n").split("|")
        if f[0] == "ctrl":
            ctrls[f[1]] = {"name": f[1], "dev": f[2], "slot": f[3],
                           "port": None if f[4] == "-" else f[4],
                           "port_gts": None if f[5] == "-" else float(f[5]),
                           "port_width": None if f[6] == "-" else int(f[6])}
        elif f[0] == "disk":
            disks.append({"ctrl": f[1], "port": int(f[2]), "model": f[3], "serial": f[4],
                          "firmware": f[5], "logical": int(f[6]), "physical": int(f[7]),
                          "rotation": None if f[8] == "-" else int(f[8]),
                          "bytes": int(f[9]) * MIB, "vendor": f[10],
                          "wwn": f[11][2:].lower() if len(f) > 11 and f[11] else None})
    return ctrls, disks


def pci_names(path):
    """(vendor, device) -> device name and (class, subclass) -> subclass name."""
    dev, cls, vendor, klass = {}, {}, None, None
    if not os.path.exists(path):
        print(f"  host has no {path}: names cannot be checked (install pci.ids)")
        return dev, cls
    for line in open(path, encoding="utf-8", errors="replace"):
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("C "):
            klass = line[2:4]
            vendor = None
        elif re.match(r"^[0-9a-f]{4}  ", line):
            vendor, klass = line[:4], None
        elif line.startswith("\t") and not line.startswith("\t\t"):
            m = re.match(r"^\t([0-9a-f]{2,4})  (.*)$", line.rstrip("\n"))
            if m and vendor:
                dev[(vendor, m.group(1))] = m.group(2)
            elif m and klass:
                cls[(klass, m.group(1))] = m.group(2)
    return dev, cls


def lspci_links(text):
    """address -> {"cap": (gts, width), "sta": (gts, width)} from `lspci -D -vv`."""
    links, cur = {}, None
    for line in text.splitlines():
        m = re.match(r"^([0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]) ", line)
        if m:
            cur = m.group(1)
            continue
        m = re.search(r"\b(LnkCap|LnkSta):.*?Speed ([0-9.]+)GT/s.*?Width x(\d+)", line)
        if m and cur:
            links.setdefault(cur, {})["cap" if m.group(1) == "LnkCap" else "sta"] = \
                (float(m.group(2)), int(m.group(3)))
    return links


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rig", required=True)
    ap.add_argument("--guest", required=True)
    ap.add_argument("--pci-ids", default="/usr/share/misc/pci.ids")
    a = ap.parse_args()
    c = Checks()

    try:
        files = guest_files(a.guest)
    except (OSError, ValueError) as e:
        print(f"FAIL reading the guest output: {e}")
        return 1
    if os.environ.get("HWQ_DUMP"):
        os.makedirs(os.environ["HWQ_DUMP"], exist_ok=True)
        for name, data in files.items():
            with open(os.path.join(os.environ["HWQ_DUMP"], name), "wb") as f:
                f.write(data)
    txt = {k: v.decode("utf-8", "replace") for k, v in files.items()}
    for k in ("version.txt", "list.err"):
        for line in txt.get(k, "").splitlines():
            print(f"  guest {k}: {line}")

    ctrls, disks = read_rig(a.rig)
    devnames, classnames = pci_names(a.pci_ids)
    # guest sysfs: kernel name -> device path, PCI address -> device path, ata ports
    block = dict(l.split(" ", 1) for l in txt.get("block.txt", "").splitlines() if " " in l)
    pcipath = dict(l.split(" ", 1) for l in txt.get("pci.txt", "").splitlines() if " " in l)
    ataports = {}
    for l in txt.get("ataports.txt", "").splitlines():
        m = re.search(r"/([0-9a-f:.]{12})/(ata\d+)$", l)
        if m:
            ataports.setdefault(m.group(1), []).append(m.group(2))
    nvme_fw = {k: v.strip() for k, v in (l.split(" ", 1) for l in txt.get("nvme-fw.txt", "").splitlines() if " " in l)}
    lsp = lspci_links(txt.get("lspci.txt", ""))

    # ---- the document
    c.eq("diskscope --version exits 0", "0", txt.get("version.rc", MISSING).strip())
    c.eq("diskscope list --json exits 0", "0", txt.get("list.rc", MISSING).strip())
    try:
        doc = json.loads(txt.get("list.json", ""))
    except ValueError as e:
        c.ok(False, f"list --json output is one JSON document ({e}); first bytes: "
             f"{txt.get('list.json', '')[:200]!r}")
        return finish(c)
    c.eq("schema", 1, get(doc, "schema"))
    for n in get(doc, "inventory.notes") if isinstance(get(doc, "inventory.notes"), list) else []:
        print(f"  note: {n}")
    # every fact of this rig is readable: nothing may be reported missing (--strict)
    c.eq("inventory.incomplete", False, get(doc, "inventory.incomplete"))
    c.eq("tool.name", "diskscope", get(doc, "tool.name"))
    inv = get(doc, "inventory")
    drives = get(inv, "drives") if isinstance(inv, dict) else MISSING
    cl = get(inv, "controllers") if isinstance(inv, dict) else MISSING
    if not c.ok(isinstance(drives, list) and isinstance(cl, list),
                "inventory.drives and inventory.controllers are arrays"):
        return finish(c)
    by_id = {x.get("id"): x for x in cl}

    # ---- controllers: each exactly where addr= put it
    expect_addr = {}
    for name, k in ctrls.items():
        if k["port"]:
            # a device at slot 00.0 of the root port at 00:PP.0: its bus number is the
            # one firmware gave the port's secondary bus; find it below the port in sysfs
            port = f"0000:00:{k['port']}"
            below = [ad for ad, p in pcipath.items()
                     if p.rsplit("/", 2)[-2] == port and ad.endswith(":" + k["slot"])]
            expect_addr[name] = below[0] if len(below) == 1 else f"<{len(below)} devices below {port}>"
        else:
            expect_addr[name] = f"0000:00:{k['slot']}"
    got_addrs = sorted(x.get("address") for x in cl)
    c.eq("controllers: exactly the storage functions the rig has", sorted(expect_addr.values()),
         got_addrs)
    ctrl_json = {}
    for name, k in ctrls.items():
        addr = expect_addr[name]
        found = [x for x in cl if x.get("address") == addr]
        if not c.ok(len(found) == 1, f"controller {name} ({k['dev']}) at {addr}", 1, len(found)):
            continue
        x = ctrl_json[name] = found[0]
        vid, did = QEMU_IDS[k["dev"]]
        c.eq(f"{name}: vendor_id:device_id", f"{vid}:{did}",
             f"{get(x, 'vendor_id')}:{get(x, 'device_id')}")
        dn = devnames.get((vid, did), MISSING)
        c.ok(isinstance(x.get("name"), str) and dn in x["name"],
             f"{name}: name from pci.ids contains {dn!r}", dn, x.get("name"))
        code = get(x, "class_code")
        cn = classnames.get((code[:2], code[2:4]), MISSING) if isinstance(code, str) else MISSING
        c.eq(f"{name}: class (pci.ids name of class {code})", cn, get(x, "class"))
        c.eq(f"{name}: driver", DRIVER[k["dev"]], get(x, "driver"))
        # the guest has no NUMA affinity (sysfs numa_node -1): unknown, never 0
        c.eq(f"{name}: numa_node unknown", None, get(x, "numa_node"))
        check_link(c, name, k, x, addr, lsp)

    # ---- drives: found by serial, compared with what QEMU was told
    c.eq("drive count", len(disks), len(drives))
    for d in disks:
        k = ctrls[d["ctrl"]]
        tag = f"{d['serial']} ({k['dev']} {d['ctrl']} port {d['port']})"
        found = [x for x in drives if x.get("serial") == d["serial"]]
        if not c.ok(len(found) == 1, f"{tag}: found by serial", 1, len(found)):
            continue
        x = found[0]
        nvme = k["dev"] == "nvme"
        sata = k["dev"] in ("ich9-ahci", "ahci")
        c.eq(f"{tag}: model", NVME_MODEL if nvme else d["model"], get(x, "model"))
        if k["dev"] == "megasas-gen2":
            c.eq(f"{tag}: vendor", d["vendor"], get(x, "vendor"))
        if nvme:
            c.eq(f"{tag}: firmware (guest sysfs firmware_rev)",
                 nvme_fw.get(portof(block.get(x.get("name"), "")), MISSING), get(x, "firmware"))
        else:
            c.eq(f"{tag}: firmware", d["firmware"], get(x, "firmware"))
        if nvme:
            # namespaces of one controller share its serial: the id adds the namespace
            # (Linux ignores QEMU's NGUID/EUI-64: NVME_QUIRK_BOGUS_NID), so serial-nsN
            c.eq(f"{tag}: id is the serial and the namespace", d["serial"] + "-ns1", get(x, "id"))
        else:
            c.eq(f"{tag}: id is the serial", d["serial"], get(x, "id"))
        wwn = get(x, "wwn")
        if d["wwn"]:
            # the kernel shows it as "naa.5000c500..." (VPD page 83h); any spelling that
            # carries the 16 hex digits will do
            c.ok(isinstance(wwn, str) and d["wwn"] in wwn.lower().replace(" ", ""),
                 f"{tag}: wwn", d["wwn"], wwn)
        elif not nvme:
            # no WWN given to QEMU: IDENTIFY words 108-111 are zero and VPD page 83h has no
            # NAA designator.  The kernel's sysfs wwid still shows a T10 vendor-id
            # designator ("t10.ATA     MODEL SERIAL") built from model and serial: that is
            # not a world wide name (smartctl and udev's ata_id show no WWN either).
            # (NVMe is left out: without an EUI-64/NGUID the kernel's wwid is
            # "nvme.VID-SERIAL-MODEL", which udev itself passes on as ID_WWN.)
            c.eq(f"{tag}: wwn unknown (none configured)", None, wwn)
        c.within(f"{tag}: transport", sorted(TRANSPORTS[k["dev"]]), get(x, "transport"))
        c.eq(f"{tag}: capacity_bytes", d["bytes"], get(x, "capacity_bytes"))
        kind = {(512, 512): "512n", (512, 4096): "512e", (4096, 4096): "4Kn"}[
            (d["logical"], d["physical"])]
        c.eq(f"{tag}: sectors logical/physical ({kind})", [d["logical"], d["physical"]],
             [get(x, "sectors.logical"), get(x, "sectors.physical")])
        c.eq(f"{tag}: alignment_offset", 0, get(x, "sectors.alignment_offset"))
        # NVMe: the namespace's LBA format in use (its data size; no metadata configured)
        c.eq(f"{tag}: sector sizes from", "identify" if sata else "namespace" if nvme else "sysfs",
             get(x, "sectors.source"))
        if nvme:
            c.eq(f"{tag}: metadata bytes per LBA", 0, get(x, "sectors.metadata_bytes"))
        check_rotation(c, tag, d, k, x)
        c.eq(f"{tag}: access", "ok", get(x, "access"))
        c.eq(f"{tag}: path", f"/dev/{x.get('name')}", get(x, "path"))
        # controller: the drive's controller id names the controller QEMU placed
        cid = get(x, "controller")
        addr = get(by_id.get(cid, {}), "address") if cid in by_id else MISSING
        c.eq(f"{tag}: controller address", expect_addr[d["ctrl"]], addr)
        if cid in by_id:
            c.ok(x.get("name") in (by_id[cid].get("drives") or []),
                 f"{tag}: listed under its controller {cid}", x.get("name"),
                 by_id[cid].get("drives"))
        # port: the ataN / hostN / nvmeN component of its sysfs path, and for SATA the
        # ata port QEMU's bus=X.N put it on (the N-th ata port of that controller)
        syspath = block.get(x.get("name"), "")
        c.eq(f"{tag}: port (from guest sysfs path)", portof(syspath) or MISSING, get(x, "port"))
        if sata:
            ports = sorted(ataports.get(expect_addr[d["ctrl"]], []), key=lambda s: int(s[3:]))
            want = ports[d["port"]] if d["port"] < len(ports) else MISSING
            c.eq(f"{tag}: on the controller's ata port #{d['port']}", want, get(x, "port"))
            check_ata(c, tag, d, x)
        else:
            c.ok(get(x, "ata.identify") in (None, MISSING), f"{tag}: no ATA IDENTIFY claimed",
                 None, get(x, "ata.identify"))
            c.eq(f"{tag}: smart not known (not ATA)", False, get(x, "smart.known"))
        if nvme:
            check_nvme(c, tag, d, x, txt)
        else:
            c.eq(f"{tag}: no nvme object", None, get(x, "nvme"))

    check_dashboard(c, txt)

    # the human table: same inventory, exit 0, every drive named
    table = txt.get("table.txt", "")
    c.eq("diskscope list (table) exits 0", "0", txt.get("table.rc", MISSING).strip())
    missing = [x.get("name") for x in drives if not re.search(rf"\b{x.get('name')}\b", table)]
    c.eq("table names every drive", [], missing)
    return finish(c)


def portof(syspath):
    """ata7 / host12 / nvme1: the component nearest the disk that names its port."""
    comps = syspath.split("/")
    for pat in (r"^nvme\d+$", r"^ata\d+$", r"^host\d+$"):
        hits = [p for p in comps if re.match(pat, p)]
        if hits:
            return hits[-1]
    return None


def check_link(c, name, k, x, addr, lsp):
    link = get(x, "link")
    narrow = get(link, "narrowest_on_path")
    port = f"0000:00:{k['port']}" if k["port"] else None
    if k["dev"] == "ich9-ahci" or (k["dev"] == "nvme" and not port):
        # the q35 built-in AHCI has no Express capability and no port above it; an NVMe
        # on pcie.0 is a Root Complex Integrated Endpoint: no link registers at all
        # (lspci shows no LnkCap/LnkSta, sysfs current_link_speed "Unknown", width 0)
        c.eq(f"{name}: link n/a (no PCIe link)", False, get(link, "known"))
        c.ok(get(link, "cap_gts") in (None, MISSING) and get(link, "ceiling_mbps") in (None, MISSING),
             f"{name}: no link numbers invented", None,
             [get(link, "cap_gts"), get(link, "ceiling_mbps")])
        c.ok(get(narrow, "known") in (False, MISSING) and
             get(narrow, "ceiling_mbps") in (None, MISSING),
             f"{name}: no narrowest link on the path", None, narrow)
        return
    if k["dev"] == "ahci":
        # conventional PCI function behind the root port: the port's link feeds it, and
        # the port keeps the configured x-speed/x-width in LnkSta
        gts, width = k["port_gts"], k["port_width"]
        ceiling = MBPS_PER_LANE[gts] * width
        c.eq(f"{name}: link known (from its root port)", True, get(link, "known"))
        c.eq(f"{name}: link is the root port's", port, get(link, "from"))
        c.eq(f"{name}: LnkCap {gts}GT/s x{width}", [gts, width],
             [get(link, "cap_gts"), get(link, "cap_width")])
        c.eq(f"{name}: LnkSta {gts}GT/s x{width}", [gts, width],
             [get(link, "sta_gts"), get(link, "sta_width")])
        c.eq(f"{name}: not downgraded", False, get(link, "downgraded"))
        c.eq(f"{name}: ceiling_mbps", ceiling, get(link, "ceiling_mbps"))
        c.eq(f"{name}: narrowest on path is the root port", port, get(narrow, "address"))
        c.eq(f"{name}: narrowest link {gts}GT/s x{width}", [gts, width],
             [get(narrow, "sta_gts"), get(narrow, "sta_width")])
        c.eq(f"{name}: narrowest ceiling_mbps", ceiling, get(narrow, "ceiling_mbps"))
        cross_lspci(c, name, port, link, lsp)
        return
    # a PCIe endpoint (nvme, megasas-gen2) behind its root port: its own link, as QEMU 7.2
    # presents it (2.5GT/s x1 both in LnkCap and LnkSta, whatever the port's x-speed)
    gts, width = QEMU_ENDPOINT_LINK
    ceiling = MBPS_PER_LANE[gts] * width
    c.eq(f"{name}: link known (own Express capability)", True, get(link, "known"))
    c.within(f"{name}: link is its own", [addr, None, MISSING], get(link, "from"))
    c.eq(f"{name}: LnkCap {gts}GT/s x{width} (QEMU 7.2 endpoint)", [gts, width],
         [get(link, "cap_gts"), get(link, "cap_width")])
    c.eq(f"{name}: LnkSta {gts}GT/s x{width}", [gts, width],
         [get(link, "sta_gts"), get(link, "sta_width")])
    c.eq(f"{name}: not downgraded (status = capability)", False, get(link, "downgraded"))
    c.eq(f"{name}: ceiling_mbps", ceiling, get(link, "ceiling_mbps"))
    # the port above trained to the same 2.5GT/s x1, so the narrowest link is either one
    c.within(f"{name}: narrowest on path (itself or its port)", [addr, port],
             get(narrow, "address"))
    c.eq(f"{name}: narrowest link {gts}GT/s x{width}", [gts, width],
         [get(narrow, "sta_gts"), get(narrow, "sta_width")])
    c.eq(f"{name}: narrowest ceiling_mbps", ceiling, get(narrow, "ceiling_mbps"))
    cross_lspci(c, name, addr, link, lsp)
    # the port's LnkCap is what x-speed/x-width configured (lspci in the guest)
    c.eq(f"{name}: guest lspci: root port {port} LnkCap {k['port_gts']}GT/s x{k['port_width']}",
         (k["port_gts"], k["port_width"]), lsp.get(port, {}).get("cap"))


def cross_lspci(c, name, at, link, lsp):
    """diskscope's decoding of LnkCap/LnkSta against lspci's, for the same function."""
    l = lsp.get(at, {})
    c.eq(f"{name}: link cap agrees with guest lspci {at}", l.get("cap", MISSING),
         (get(link, "cap_gts"), get(link, "cap_width")))
    c.eq(f"{name}: link sta agrees with guest lspci {at}", l.get("sta", MISSING),
         (get(link, "sta_gts"), get(link, "sta_width")))


def check_rotation(c, tag, d, k, x):
    rot = d["rotation"]
    if k["dev"] == "nvme":
        # QEMU NVMe is flash; the kernel marks it non-rotational
        c.eq(f"{tag}: ssd", True, get(x, "ssd"))
        c.within(f"{tag}: rotation_rpm", [None, 0], get(x, "rotation_rpm"))
    elif k["dev"] == "megasas-gen2":
        # rotation_rate= reaches the SCSI disk as VPD page B1 (sysfs rotational=1);
        # diskscope may or may not read the rpm from it, but never another number
        c.eq(f"{tag}: ssd", False, get(x, "ssd"))
        c.within(f"{tag}: rotation_rpm", [None, rot], get(x, "rotation_rpm"))
    elif rot == 1:          # IDENTIFY word 217 = 1: non-rotating
        c.eq(f"{tag}: ssd", True, get(x, "ssd"))
        c.within(f"{tag}: rotation_rpm", [None, 0], get(x, "rotation_rpm"))
    elif rot == 0:          # word 217 = 0: rate not reported -> unknown, never 0
        c.eq(f"{tag}: rotation_rpm unknown (word 217 = 0)", None, get(x, "rotation_rpm"))
        c.ok(get(x, "ssd") is not True, f"{tag}: not claimed to be an SSD", "false or null",
             get(x, "ssd"))
    else:
        c.eq(f"{tag}: rotation_rpm", rot, get(x, "rotation_rpm"))
        c.eq(f"{tag}: ssd", False, get(x, "ssd"))


def check_ata(c, tag, d, x):
    """IDENTIFY and SMART through diskscope's own SG_IO path: libatasmart 0.19's transport
    fails on this kernel (fixed-format sense from the SAT layer) and diskscope must not
    change D_SENSE to make it work."""
    c.eq(f"{tag}: ata.state", "ok", get(x, "ata.state"))
    c.eq(f"{tag}: ata.via (SG_IO fallback)", "sg_io", get(x, "ata.via"))
    i = get(x, "ata.identify")
    if not c.ok(isinstance(i, dict), f"{tag}: ata.identify present", "object", i):
        return
    c.eq(f"{tag}: identify model/serial/firmware", [d["model"], d["serial"], d["firmware"]],
         [get(i, "model"), get(i, "serial"), get(i, "firmware")])
    c.eq(f"{tag}: identify logical/physical (word 106, 117-118)",
         [d["logical"], d["physical"]], [get(i, "logical"), get(i, "physical")])
    c.eq(f"{tag}: identify sector size reported (word 106 valid)", True,
         get(i, "sector_size_reported"))
    c.eq(f"{tag}: identify capacity (LBA48)", [d["bytes"], True],
         [get(i, "capacity_bytes"), get(i, "lba48")])
    rot = d["rotation"]
    if rot == 1:
        c.eq(f"{tag}: identify word 217 = 1 -> ssd", True, get(i, "ssd"))
    elif rot == 0:
        c.eq(f"{tag}: identify word 217 = 0 -> rotation unknown", [None, None],
             [get(i, "rotation_rpm"), get(i, "ssd")])
    else:
        c.eq(f"{tag}: identify word 217 rpm", [rot, False], [get(i, "rotation_rpm"), get(i, "ssd")])
    c.eq(f"{tag}: identify SMART supported (word 82)", True, get(i, "smart_supported"))
    s = get(x, "smart")
    if not c.eq(f"{tag}: smart known", True, get(s, "known")):
        print(f"     smart.reason: {get(s, 'reason')!r}")
        return
    c.eq(f"{tag}: smart overall", "good", get(s, "overall"))
    c.eq(f"{tag}: smart status_good (SMART RETURN STATUS)", True, get(s, "status_good"))
    attrs = get(s, "attributes")
    ids = sorted(t.get("id") for t in attrs) if isinstance(attrs, list) else attrs
    c.eq(f"{tag}: smart attribute ids (QEMU's table)", sorted(QEMU_SMART_IDS), ids)
    if isinstance(attrs, list):
        a5 = [t for t in attrs if t.get("id") == 5]
        c.eq(f"{tag}: smart attr 5 value/worst/threshold/raw", [100, 100, 0x24, 0],
             [get(a5[0], k) for k in ("value", "worst", "threshold", "raw")] if a5 else MISSING)
        c.ok(not any(t.get("failing_now") or t.get("failed_past") for t in attrs),
             f"{tag}: no attribute failing now or in the past")
    c.eq(f"{tag}: smart reallocated (attr 5 raw)", 0, get(s, "reallocated"))
    c.eq(f"{tag}: smart power_on_hours (attr 9 raw)", 1, get(s, "power_on_hours"))
    c.eq(f"{tag}: smart temperature_c (attr 190)", 31, get(s, "temperature_c"))
    # QEMU reports no attributes 197/198: unknown, never 0
    c.eq(f"{tag}: smart pending unknown (no attr 197)", None, get(s, "pending"))
    c.eq(f"{tag}: smart offline_uncorrectable unknown (no attr 198)", None,
         get(s, "offline_uncorrectable"))


def check_nvme(c, tag, d, x, txt):
    """The NVMe class through libnvme: identity, namespace, health log, limits, as QEMU 7.2
    presents them (hw/nvme/ctrl.c), and against nvme-cli's decoding in the same guest."""
    n = get(x, "nvme")
    if not c.ok(isinstance(n, dict), f"{tag}: nvme object present", "object", n):
        return
    c.eq(f"{tag}: nvme known (identify controller answered)", True, get(n, "known"))
    c.eq(f"{tag}: nvme model/serial/firmware", [NVME_MODEL, d["serial"], get(x, "firmware")],
         [get(n, "model"), get(n, "serial"), get(n, "firmware")])
    c.eq(f"{tag}: smart reason points at nvme",
         'an NVMe drive: its health is under "nvme"', get(x, "smart.reason"))
    # WCTEMP 343 K, CCTEMP 373 K (NVME_TEMPERATURE_WARNING / _CRITICAL)
    c.eq(f"{tag}: nvme warning/critical temperature (WCTEMP/CCTEMP)", [70, 100],
         [get(n, "warning_temp_c"), get(n, "critical_temp_c")])
    # OACS 0x10a: format, namespace management, doorbell buffer config; no self-test
    c.eq(f"{tag}: nvme self-test not supported (OACS bit 4 clear)",
         [False, "self-test not supported (OACS)"],
         [get(n, "self_test.supported"), get(n, "self_test.reason")])
    ns = get(n, "namespace")
    c.eq(f"{tag}: nvme namespace 1", 1, get(ns, "nsid"))
    # QEMU 7.2 gives no NGUID/EUI-64 unless asked: no id, never zeros
    c.eq(f"{tag}: nvme namespace id unknown (none configured)", None, get(ns, "id"))
    lb = d["logical"]
    c.eq(f"{tag}: nvme namespace size x logical = capacity", d["bytes"],
         (get(ns, "size_lba") or 0) * lb)
    fmts = get(ns, "lba_formats")
    cur = get(ns, "lba_format_in_use")
    inuse = fmts[cur] if isinstance(fmts, list) and isinstance(cur, int) and cur < len(fmts) \
        else {}
    # QEMU's eight formats: 512 and 4096 bytes, each with 0/8/16/64 metadata bytes
    c.eq(f"{tag}: nvme eight LBA formats", 8, len(fmts) if isinstance(fmts, list) else fmts)
    c.eq(f"{tag}: nvme format in use: {lb} bytes, no metadata", [lb, 0, True],
         [inuse.get("data_bytes"), inuse.get("metadata_bytes"), inuse.get("in_use")])
    h = get(n, "health")
    c.eq(f"{tag}: nvme health known", True, get(h, "known"))
    # NVME_TEMPERATURE 0x143 = 323 K; QEMU 7.2 fills neither spare nor its threshold
    c.eq(f"{tag}: nvme temperature_c (323 K)", 50, get(h, "temperature_c"))
    c.eq(f"{tag}: nvme critical warning 0", [0, ""],
         [get(h, "critical_warning"), get(h, "critical_warning_text")])
    c.eq(f"{tag}: nvme available spare / threshold (QEMU sets neither)", [0, 0],
         [get(h, "available_spare"), get(h, "spare_threshold")])
    c.eq(f"{tag}: nvme percent used, media errors, error log entries", [0, 0, 0],
         [get(h, "percent_used"), get(h, "media_errors"), get(h, "error_log_entries")])
    c.eq(f"{tag}: nvme unsafe shutdowns, power cycles (fresh controller)", [0, 0],
         [get(h, "unsafe_shutdowns"), get(h, "power_cycles")])
    c.eq(f"{tag}: nvme power-on hours (a minute-old guest)", 0, get(h, "power_on_hours"))
    c.ok(isinstance(get(h, "data_units_read"), int) and get(h, "data_units_read") >= 1,
         f"{tag}: nvme data units read (the kernel's partition scan read it)", ">= 1",
         get(h, "data_units_read"))
    c.eq(f"{tag}: nvme data units written (nothing wrote)", 0, get(h, "data_units_written"))
    c.eq(f"{tag}: nvme error log empty", [0, []],
         [get(n, "error_log.valid_entries"), get(n, "error_log.latest")])
    # nvme-cli's decoding of the same controller, read after diskscope's runs
    name = x.get("name")
    cli = txt.get(f"{name}.cli-smart.json")
    if not cli:
        print(f"     (no nvme-cli in the guest: {name} not compared with it)")
        return
    try:
        t = json.loads(cli)
    except ValueError:
        c.ok(False, f"{tag}: nvme-cli smart-log JSON parses", "JSON", cli[:80])
        return
    for mine, theirs in (("critical_warning", "critical_warning"),
                         ("available_spare", "avail_spare"),
                         ("spare_threshold", "spare_thresh"), ("percent_used", "percent_used"),
                         ("media_errors", "media_errors"),
                         ("error_log_entries", "num_err_log_entries"),
                         ("unsafe_shutdowns", "unsafe_shutdowns")):
        c.eq(f"{tag}: nvme {mine} = nvme-cli {theirs}", int(t.get(theirs, -1)), get(h, mine))
    c.eq(f"{tag}: nvme temperature = nvme-cli's (K - 273)", int(t.get("temperature", 0)) - 273,
         get(h, "temperature_c"))
    c.ok(isinstance(get(h, "data_units_read"), int) and
         get(h, "data_units_read") <= int(t.get("data_units_read", -1)),
         f"{tag}: nvme data units read <= nvme-cli's (read later)", t.get("data_units_read"),
         get(h, "data_units_read"))
    idc = txt.get(f"{name}.cli-id-ctrl.json")
    if idc:
        t = json.loads(idc)
        c.eq(f"{tag}: nvme self-test support = nvme-cli's OACS bit 4",
             bool(int(t.get("oacs", 0)) & 0x10), get(n, "self_test.supported"))
        c.eq(f"{tag}: nvme WCTEMP/CCTEMP = nvme-cli's",
             [int(t.get("wctemp", 0)) - 273, int(t.get("cctemp", 0)) - 273],
             [get(n, "warning_temp_c"), get(n, "critical_temp_c")])


def check_dashboard(c, txt):
    """The dashboard in the guest (tmux), moved down the tree to an NVMe drive: its details
    panel shows the health log QEMU reports, its tree row the health verdict and temperature."""
    screen = txt.get("dash-nvme.txt")
    if screen is None:
        print("     (no tmux in the guest: the dashboard's NVMe details not checked)")
        return
    det = " ".join(m.group(1).strip() for m in re.finditer(r"││ (.*?)\s*│$", screen, re.M))
    det = re.sub(r"\s+", " ", det)
    for want in ("NVMe health: no critical warning",
                 "temperature 50 C (warning 70 C, critical 100 C)",
                 "spare 0% (threshold 0%), used 0%", "media errors 0, error log entries 0",
                 "self-test not supported (OACS)"):
        c.ok(want in det, f"dashboard details of an NVMe drive: {want!r}", want,
             det[-300:] if want not in det else want)
    rows = [l for l in screen.splitlines() if re.match(r"│\s+nvme\d+n1\s", l)]
    c.eq("dashboard tree: both NVMe drives", 2, len(rows))
    c.ok(bool(rows) and all(re.search(r"SMART ok\s+50\S*C", l) for l in rows),
         "dashboard tree: NVMe rows show the health verdict and 50 C", "SMART ok 50C", rows)


def finish(c):
    if c.fails:     # again at the end, where a test runner's log tail shows them
        print("failed checks:")
        for line in c.fails:
            print("  " + line)
    print(f"{c.n} checks, {c.failed} failed")
    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main())
