#!/bin/sh
# hooks-cost: what a per-I/O hook (the runner's acc_on_io, which calls a
# test's on_io, on every completion) costs in 4K random-read IOPS on zram.
# `run randread` uses no hook, so by default its workers run the loop
# without one; DISKSCOPE_BENCH_IO_HOOK=1 installs the runner's hook anyway
# (the loop with a hook, one call per completion).  The same run with and
# without it, alternating which goes first, ROUNDS rounds of TIME each;
# prints the per-round ratio with/without and its median.  A benchmark, not
# a test (`make bench`): the target is a cost <= 3 %, i.e. a median ratio
# >= 0.97.  ROUNDS=7 TIME=5s QD=32 ENGINE=uring SIZE_MB=1024.
. "$(dirname "$0")/../lib/zram.sh"
DS=${DISKSCOPE:-build/diskscope}
ROUNDS=${ROUNDS:-7}
TIME=${TIME:-5s}
QD=${QD:-32}
ENGINE=${ENGINE:-uring}
SIZE_MB=${SIZE_MB:-1024}
command -v python3 >/dev/null || { echo "SKIP: needs python3"; exit 77; }
zram_bench hooks "$SIZE_MB"

python3 - "$DS" "$ROUNDS" "/dev/zram$Z" "$T" "$TIME" "$QD" "$ENGINE" <<'PY'
import json, os, statistics, subprocess, sys

ds, rounds, dev, tmp, secs, qd, eng = sys.argv[1], int(sys.argv[2]), *sys.argv[3:8]

def iops(hooks):
    env = dict(os.environ)
    env.pop("DISKSCOPE_BENCH_NO_IO_HOOKS", None)
    env.pop("DISKSCOPE_BENCH_IO_HOOK", None)
    if hooks:
        env["DISKSCOPE_BENCH_IO_HOOK"] = "1"
    out = tmp + "/r.json"
    subprocess.run([ds, "--no-ata", "run", "randread", dev, "--bs", "4k", "--qd", qd, "--engine", eng,
                    "--time", secs, "--json", out], capture_output=True, check=True, env=env)
    return json.load(open(out))["run"]["steps"][0]["results"][0]["iops"]

w, wo, ratio = [], [], []
for i in range(rounds):
    if i % 2 == 0:
        a = iops(True); b = iops(False)
    else:
        b = iops(False); a = iops(True)
    w.append(a); wo.append(b); ratio.append(a / b)
    print("round %d: with the hook %.0f IOPS, without %.0f IOPS, ratio %.4f" % (i + 1, a, b, a / b), flush=True)
m = statistics.median(ratio)
print("4K random read, QD %s, engine %s, %s per run, %d rounds on %s" % (qd, eng, secs, rounds, dev))
print("median IOPS with the hook %.0f, without %.0f; ratio per round min %.4f median %.4f max %.4f"
      % (statistics.median(w), statistics.median(wo), min(ratio), m, max(ratio)))
print("the hook costs %.1f %% (target <= 3 %%): %s" % ((1 - m) * 100, "ok" if m >= 0.97 else "OVER"))
sys.exit(0 if m >= 0.97 else 1)
PY
