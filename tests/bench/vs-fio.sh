#!/bin/sh
# vs-fio: fio 3.33 and diskscope back to back on the same device, alternating
# rounds (fio first in odd rounds, diskscope first in even ones), for 4K
# randread QD32, 4K randread QD1, 1M seqread QD8, 1M seqwrite QD8 on a zram
# device of our own and on a loop device with direct-io.  Prints a markdown
# table of diskscope/fio ratios (min/median/max over the rounds) of IOPS,
# MB/s and CPU-seconds per GB (whole process incl. io_uring's io-wq workers,
# user+sys from wait4 rusage, the same accounting for both, minus each tool's
# own start-up cost measured by a 4 KiB run), and p50/p99 latency agreement.
# A benchmark, not a test: `make bench`.  ROUNDS=3 SECS=5 by default;
# ONLY=seqread (a substring of the workload names) and DEVICES=zram|loop narrow it.
. "$(dirname "$0")/../lib/loop.sh"
. "$(dirname "$0")/../lib/zram.sh"
DS=${DISKSCOPE:-build/diskscope}
ROUNDS=${ROUNDS:-3}
SECS=${SECS:-5}
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (zram, loop)"; exit 77; }
command -v fio >/dev/null || { echo "SKIP: fio not installed"; exit 77; }
"$DS" run --help >/dev/null 2>&1 || { echo "SKIP: $DS has no working 'run' command yet"; exit 77; }
zram_bench vs-fio 1024
dd if=/dev/urandom of="$T/loop.img" bs=1M count=1024 status=none conv=fsync || exit 1
loop_new L "$T/loop.img" --direct-io=on || exit 1

ONLY=${ONLY:-} DEVICES=${DEVICES:-} python3 - "$DS" "$ROUNDS" "$SECS" "/dev/zram$Z" "$L" <<'PY'
import json, os, statistics, subprocess, sys, time

ds, rounds, secs = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
devices = [("zram", sys.argv[4]), ("loop (direct-io)", sys.argv[5])]
only, which = os.environ.get("ONLY", ""), os.environ.get("DEVICES", "")
devices = [d for d in devices if which in d[0]]
loads = [  # name, rw, bs, qd
    ("4K randread QD32", "randread", "4k", 32),
    ("4K randread QD1", "randread", "4k", 1),
    ("1M seqread QD8", "read", "1M", 8),
    ("1M seqwrite QD8", "write", "1M", 8),
]
loads = [l for l in loads if only in l[0]]

def run_ru(cmd):
    pid = os.fork()
    if pid == 0:
        fd = os.open(os.devnull, os.O_WRONLY)
        out = os.open(TMP, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(out, 1)
        os.dup2(fd, 2)
        os.execvp(cmd[0], cmd)
    _, status, ru = os.wait4(pid, 0)
    with open(TMP) as f:
        text = f.read()
    return text, ru.ru_utime + ru.ru_stime, os.waitstatus_to_exitcode(status)

TMP = "/tmp/ds-vs-fio-out.%d" % os.getpid()

FIO_BASE = ["fio", "--name=w", "--ioengine=io_uring", "--direct=1", "--fixedbufs",
            "--registerfiles", "--lat_percentiles=1", "--randrepeat=0", "--norandommap",
            "--output-format=json"]

def startup(cmds):
    """CPU seconds of a run that moves 4 KiB: start-up and tear-down."""
    return min(run_ru(c)[1] for c in cmds for _ in range(3))

def fio(dev, rw, bs, qd):
    cmd = FIO_BASE + ["--filename=" + dev, "--rw=" + rw, "--bs=" + bs, "--iodepth=%d" % qd,
                      "--time_based", "--runtime=%g" % secs]
    text, cpu, rc = run_ru(cmd)
    cpu = max(cpu - BASE["fio", dev], 1e-3)
    if rc != 0:
        raise SystemExit("fio failed: " + " ".join(cmd))
    j = json.loads(text[text.index("{"):])["jobs"][0]
    d = j["write" if rw == "write" else "read"]
    pct = d["lat_ns"]["percentile"]
    return dict(iops=d["iops"], mbps=d["bw_bytes"] / 1e6, bytes=d["io_bytes"], cpu=cpu,
                p50=pct["50.000000"] / 1e3, p99=pct["99.000000"] / 1e3)

def dsk(dev, rw, bs, qd):
    test = {"randread": "randread", "read": "seqread", "write": "seqwrite"}[rw]
    # io_uring on both sides (diskscope's default at QD1 is psync)
    cmd = [ds, "run", test, dev, "--bs", bs, "--qd", str(qd), "--engine", "uring",
           "--time", "%g" % secs, "--json", "-"]
    if rw == "write":
        cmd.append("--destroy-data=" + dev)
    text, cpu, rc = run_ru(cmd)
    cpu = max(cpu - BASE["ds", dev], 1e-3)
    if rc != 0:
        raise SystemExit("diskscope failed (exit %d): %s" % (rc, " ".join(cmd)))
    r = json.loads(text)["run"]["steps"][0]["results"][0]
    return dict(iops=r["iops"], mbps=r["mbps"], bytes=r["bytes"], cpu=cpu,
                p50=r["lat_us"]["p50"], p99=r["lat_us"]["p99"])

BASE = {}
for _, dev in devices:
    BASE["fio", dev] = startup([FIO_BASE + ["--filename=" + dev, "--rw=read", "--bs=4k", "--size=4k"]])
    BASE["ds", dev] = startup([[ds, "run", "seqread", dev, "--bs", "4k", "--size", "4k", "--json", "-"]])
    print("# start-up cpu on %s: fio %.3f s, diskscope %.3f s" % (dev, BASE["fio", dev], BASE["ds", dev]),
          file=sys.stderr, flush=True)

rows = []
for dname, dev in devices:
    for lname, rw, bs, qd in loads:
        ratios = {"iops": [], "mbps": [], "cpu": [], "p50": [], "p99": []}
        raw = []
        for rnd in range(rounds):
            order = [fio, dsk] if rnd % 2 == 0 else [dsk, fio]
            res = {}
            for f in order:
                res[f] = f(dev, rw, bs, qd)
            a, b = res[dsk], res[fio]
            ratios["iops"].append(a["iops"] / b["iops"])
            ratios["mbps"].append(a["mbps"] / b["mbps"])
            # CPU seconds per GB moved
            ratios["cpu"].append((a["cpu"] / (a["bytes"] / 1e9)) / (b["cpu"] / (b["bytes"] / 1e9)))
            ratios["p50"].append(a["p50"] / b["p50"])
            ratios["p99"].append(a["p99"] / b["p99"])
            raw.append((a, b))
            print("# %-16s %-16s round %d: ds %8.0f IOPS %7.1f MB/s %.2f cpu-s  | fio %8.0f IOPS %7.1f MB/s %.2f cpu-s"
                  % (dname, lname, rnd + 1, a["iops"], a["mbps"], a["cpu"], b["iops"], b["mbps"], b["cpu"]),
                  file=sys.stderr, flush=True)
        rows.append((dname, lname, ratios))

def mmm(v):
    return "%.2f / %.2f / %.2f" % (min(v), statistics.median(v), max(v))

print()
print("| device | workload | IOPS ratio | MB/s ratio | CPU-s/GB ratio | p50 ratio | p99 ratio |")
print("|---|---|---|---|---|---|---|")
for dname, lname, r in rows:
    print("| %s | %s | %s | %s | %s | %s | %s |" % (dname, lname, mmm(r["iops"]), mmm(r["mbps"]),
          mmm(r["cpu"]), mmm(r["p50"]), mmm(r["p99"])))
print()
print("Ratios are diskscope / fio, min / median / max over %d alternating rounds of %g s;"
      " throughput >= 1.00 and CPU/GB <= 1.00 favour diskscope; latency within 0.90..1.10 agrees." % (rounds, secs))
print("fio: --ioengine=io_uring --direct=1 --fixedbufs --registerfiles --time_based --lat_percentiles=1"
      " (otherwise defaults; its default scramble_buffers=1 makes every write unique, as diskscope's"
      " per-write sector stamps do, and costs fio heavily on zram writes)")
print("CPU: user+sys of the whole process (wait4), minus each tool's start-up cost (a 4 KiB run).")
print("Reproduce: make bench   (or: ROUNDS=%d SECS=%g sh tests/bench/vs-fio.sh)" % (rounds, secs))
try:
    os.unlink(TMP)
except OSError:
    pass
PY
