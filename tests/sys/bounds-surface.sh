#!/bin/sh
# bounds-surface.sh - memory stays bounded over a day-long surface scan:
# `run surface` over a 20 TB sim model (tests/fixtures/sim/big-20tb.drive,
# 300 -> 160 MB/s, so the full scan lasts ~25 h of virtual time; it takes
# seconds of real time) must keep its peak RSS under 200 MB and its JSON under
# 4 MB, and the scan's series must be downsampled, not truncated: coarser
# buckets than the 100 ms interval that together span the whole scan, the
# first of them (the first hour) at the outer rate.
DS=${DISKSCOPE:-build/diskscope}
[ -x "$DS" ] || { echo "SKIP: $DS not built"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: needs python3"; exit 77; }
F=$(cd "$(dirname "$0")/../fixtures/sim" && pwd)
T=$(mktemp -d /tmp/ds-bounds-surface-XXXXXX)
trap 'rm -rf "$T"' EXIT INT TERM

python3 - "$DS" "$F/big-20tb.drive" "$T" <<'PY'
import json, os, resource, subprocess, sys
ds, model, tmp = sys.argv[1:4]
RSS_MB, JSON_MB = 200, 4
out = os.path.join(tmp, "s.json")
p = subprocess.run([ds, "--sim-model", model, "run", "surface", "sim:big-20tb", "--json", out],
                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024	# KiB -> MiB
def fail(m):
    print("FAIL: " + m); sys.exit(1)
if p.returncode != 0:
    fail("exit %d: %s" % (p.returncode, p.stderr.strip()))
size = os.path.getsize(out) / 1e6
run = json.load(open(out))["run"]
st = next(s for s in run["steps"] if s.get("label") == "scan")
t = st["results"][0]
se = t["series"]
n, iv, secs = len(se["mbps"]), se["interval_ms"] / 1000, t["seconds"]
if not run.get("virtual_time"):
    fail("not in virtual time")
if secs < 86400:
    fail("the scan lasted %.0f s, not a day: the model is off" % secs)
if rss >= RSS_MB:
    fail("peak RSS %.0f MiB, bound %d" % (rss, RSS_MB))
if size >= JSON_MB:
    fail("JSON %.1f MB, bound %d" % (size, JSON_MB))
if iv <= 0.1 or n < 1000:
    fail("series not downsampled: %d samples of %.1f s" % (n, iv))
if abs(n * iv - secs) > 2 * iv:
    fail("series spans %.0f s of a %.0f s scan: truncated" % (n * iv, secs))
first_hour = se["mbps"][:int(3600 / iv)]
if not first_hour or min(first_hour) < 280:
    fail("the first hour is missing or not at the outer rate: %s" % first_hour[:5])
print("20 TB surface scan, %.1f h virtual: peak RSS %.0f MiB (< %d), JSON %.2f MB (< %d), "
      "series %d buckets of %.1f s covering %.0f s, first hour %d buckets at %.0f-%.0f MB/s"
      % (secs / 3600, rss, RSS_MB, size, JSON_MB, n, iv, n * iv, len(first_hour),
         min(first_hour), max(first_hour)))
PY
