#!/bin/sh
# surface-vs-dd: the surface scan against `dd if=DEV of=/dev/null iflag=direct
# bs=1M` on the same device in the same run, alternating rounds (dd first in
# odd rounds, diskscope first in even ones), on a 2 GB direct-io loop device
# and a 2 GB zram device of our own.  Compares the scan step's MB/s (the
# sequential pass; access, burst and re-read steps come after it) with dd's,
# and prints the per-round ratio min / median / max and the ratio of the
# medians.  A benchmark, not a test (`make
# bench`): the target is >= 0.97.  ROUNDS=3 SIZE_MB=2048 by default.
. "$(dirname "$0")/../lib/loop.sh"
. "$(dirname "$0")/../lib/zram.sh"
DS=${DISKSCOPE:-build/diskscope}
ROUNDS=${ROUNDS:-3}
SIZE_MB=${SIZE_MB:-2048}
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (zram, loop)"; exit 77; }
"$DS" run surface --help >/dev/null 2>&1 || { echo "SKIP: $DS has no surface test"; exit 77; }
zram_bench surface-dd "$SIZE_MB"
dd if=/dev/urandom of="$T/loop.img" bs=1M count="$SIZE_MB" status=none conv=fsync || exit 1
loop_new L "$T/loop.img" --direct-io=on || exit 1

python3 - "$DS" "$ROUNDS" "/dev/zram$Z" "$L" "$T" <<'PY'
import json, re, statistics, subprocess, sys

ds, rounds, zram, loop, tmp = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]

def dd(dev):
    p = subprocess.run(["dd", "if=" + dev, "of=/dev/null", "iflag=direct", "bs=1M"],
                       capture_output=True, text=True, check=True)
    # "2147483648 bytes (2.1 GB, 2.0 GiB) copied, 1.23 s, 1.7 GB/s"
    m = re.search(r"^(\d+) bytes .* copied, ([0-9.]+) s", p.stderr, re.M)
    return int(m.group(1)) / float(m.group(2)) / 1e6

def surface(dev):
    out = tmp + "/s.json"
    subprocess.run([ds, "run", "surface", dev, "--json", out], capture_output=True, check=True)
    r = json.load(open(out))["run"]
    return r["steps"][0]["results"][0]["mbps"]

print("| device | dd MB/s (min / median / max) | surface scan MB/s | surface / dd, per round | of the medians |")
print("|---|---|---|---|---|")
for name, dev in (("loop, direct-io, 2 GB", loop), ("zram, 2 GB", zram)):
    d, s = [], []
    for i in range(rounds):
        if i % 2 == 0:
            d.append(dd(dev)); s.append(surface(dev))
        else:
            s.append(surface(dev)); d.append(dd(dev))
    ratio = sorted(a / b for a, b in zip(s, d))
    f = lambda v: "%.0f / %.0f / %.0f" % (min(v), statistics.median(v), max(v))
    print("| %s | %s | %s | %.2f / %.2f / %.2f | %.2f |" % (name, f(d), f(s), ratio[0], statistics.median(ratio),
                                                     ratio[-1], statistics.median(s) / statistics.median(d)))
PY
