#!/bin/sh
# qemu-station.sh - the bench station on hot-plugged disks: a guest (a stock
# Debian kernel, no udevd) runs `diskscope station --headless` while the host
# plugs a scsi-hd into its virtio-scsi controller and pulls it through QMP
# (device_add / device_del).  The kernel's own uevents are the arrivals:
# the disk is found at its port, tested to the end, its removal recorded
# (pulled, after its verdict); plugged in again it is known by its serial
# ("tested today: PASS") and pulled mid-read: pulled at an LBA and percent.
# Exit 0 pass, 77 skip, else fail.  HWQ_KEEP=1 keeps the work dir.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
. "$HERE/lib-qemu.sh"

hwq_begin station
truncate -s 1G "$W/hp.img"
QARGS=(-device "virtio-scsi-pci,id=vscsi,addr=0x4" -qmp "unix:$W/qmp.sock,server=on,wait=off")

hwq_kernel
R=$W/root
hwq_guest_lib "$R"
mkdir -p "$R/etc/diskscope"
printf '[read8]\nstep = seqread time=8 bs=1M qd=4\n' >"$R/etc/diskscope/profiles.ini"
cat >"$R/init" <<'EOS'
#!/bin/busybox sh
. /etc/hwq-guest.sh
hwq_g_start
echo "@@UDEV $(ls /run/udev 2>&1)"
: >/tmp/ev
HOME=/tmp diskscope station read8 --headless --profiles /etc/diskscope/profiles.ini --events /tmp/ev \
	--out /tmp/out --no-ata 2>/tmp/st.err &
SP=$!
tail -f /tmp/ev &	# the events on ttyS1 as they come (the host plugs and pulls by them)
TP=$!
i=0
while [ "$(grep -c '"event":"pulled"' /tmp/ev)" -lt 2 ] && [ $i -lt 1800 ]; do sleep 0.1; i=$((i + 1)); done
kill -INT $SP
wait $SP
echo "@@RC $?"
kill $TP
echo "@@EVENTS"
cat /tmp/ev
sed 's/^/@@ERR /' /tmp/st.err
hwq_g_end
EOS
hwq_initramfs "$R" "$W/initramfs.cpio" "sd_mod sg virtio_pci virtio_scsi" "$BIN" ||
	{ echo "FAIL: could not build the initramfs"; exit 1; }

# the host's side: plug and pull as the guest's events say
timeout 200 python3 - "$W/qmp.sock" "$W/out.txt" "$W/hp.img" >"$W/host.log" 2>&1 <<'EOPY' &
import json, os, socket, sys, time
sock, out, img = sys.argv[1:4]
def events():
    if not os.path.exists(out):
        return []
    return [json.loads(l) for l in (x.strip() for x in open(out, errors="replace"))
            if l.startswith('{"schema":"diskscope-station/1"') and l.endswith("}")]
def wait(pred, what, limit=120):
    end = time.time() + limit
    while time.time() < end:
        if any(pred(e) for e in events()):
            return
        time.sleep(0.1)
    sys.exit("no %s within %d s" % (what, limit))
while not os.path.exists(sock):
    time.sleep(0.1)
s = socket.socket(socket.AF_UNIX)
s.connect(sock)
f = s.makefile("rw")
def qmp(cmd, **args):
    f.write(json.dumps({"execute": cmd, "arguments": args}) + "\n")
    f.flush()
    while True:
        r = json.loads(f.readline())
        if "return" in r or "error" in r:
            print(cmd, r, flush=True)
            return r
f.readline()
qmp("qmp_capabilities")
wait(lambda e: e["event"] == "ready", "ready")
n = 0
def plug():
    global n
    n += 1
    qmp("blockdev-add", driver="raw", **{"node-name": "hp%d" % n}, file={"driver": "file", "filename": img})
    qmp("device_add", driver="scsi-hd", id="hpd%d" % n, drive="hp%d" % n, bus="vscsi.0", serial="HOTPLUG01")
def pull():
    qmp("device_del", id="hpd%d" % n)   # done once the guest lets go; a new node name each plug
plug()
wait(lambda e: e["event"] == "finished", "finished")
pull()
wait(lambda e: e["event"] == "pulled", "the first pull")
plug()
def second_progress(e):
    ev = events()
    st = [i for i, x in enumerate(ev) if x["event"] == "started"]
    return len(st) == 2 and any(x["event"] == "progress" and x["percent"] > 10 for x in ev[st[1]:])
wait(second_progress, "progress of the second job")
pull()
wait(lambda e: e["event"] == "pulled" and e.get("early"), "the second pull")
EOPY
HOST=$!
hwq_run_guest "$W/out.txt" "$W/console.txt" "${QARGS[@]}"
wait $HOST
hrc=$?
sed 's/^/  host: /' "$W/host.log"
grep '^@@UDEV\|^@@RC\|^@@ERR' "$W/out.txt" | sed 's/^/  guest: /'
[ $hrc -eq 0 ] || { echo "FAIL: the host's plug/pull sequence did not complete"; exit 1; }
timeout 60 python3 - "$W/out.txt" <<'EOPY'
import json, re, sys
lines = [x.strip() for x in open(sys.argv[1], errors="replace")]
lines = lines[lines.index("@@EVENTS") + 1:] if "@@EVENTS" in lines else []
ev = [json.loads(l) for l in lines if l.startswith('{"schema":"diskscope-station/1"') and l.endswith("}")]
for e in ev:
    if e["event"] != "progress":
        print("  event:", json.dumps(e)[:240])
fails = 0
def check(cond, what):
    global fails
    print(("ok   " if cond else "FAIL ") + what)
    fails += not cond
ready = [e for e in ev if e["event"] == "ready"][0]
check(ready["source"] == "kernel", "no udevd: the kernel's uevents")
arr = [e for e in ev if e["event"] == "arrived"]
check(len(arr) == 2 and all(a["serial"] == "HOTPLUG01" for a in arr), "the disk arrived twice, by its serial")
check(len(arr) == 2 and arr[0]["slot"] == arr[1]["slot"], "in the same slot (its port)")
check(len(arr) == 2 and arr[1]["history"] and arr[1]["history"]["text"].startswith("tested today: "),
      "known again by its history: %s" % (arr[1]["history"] if len(arr) == 2 else None))
fin = [e for e in ev if e["event"] == "finished"]
check(len(fin) == 1 and fin[0]["results"], "the first job finished with its result")
pul = [e for e in ev if e["event"] == "pulled"]
check(len(pul) == 2 and pul[0]["early"] is False and pul[0]["verdict"] == fin[0]["verdict"],
      "its removal after the verdict recorded")
check(len(pul) == 2 and pul[1]["early"] is True and
      re.fullmatch(r"pulled at LBA \d+ after \d+ %", pul[1]["text"]) and pul[1]["percent"] > 10,
      "the second pulled mid-read at an LBA and percent")
check([e["event"] for e in ev].count("started") == 2, "two jobs started, none twice")
sys.exit(1 if fails else 0)
EOPY
rc=$?
[ $rc -eq 0 ] && echo PASS || echo FAIL
exit $rc
