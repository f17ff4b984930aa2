#!/bin/sh
# pin.sh - a failing drive, bounded: seconds to pin an unreadable extent and
# to cross an unreadable zone on a ds-faultdev loop device whose failed reads
# take MS (default 500 ms, as a drive that retries).  Extents of 16 sectors,
# 1 MiB (2,048 sectors) and 32 MiB on a 256 MiB disk, a 1 GiB zone on a 3 GiB
# disk: the whole `run surface` (wall), its scan and pin steps, the failed
# reads the device served for the range, and the extent as reported.  A
# benchmark, not a test (`make bench`): the targets are a 1 MiB extent in
# <= 30 s, a 1 GiB zone in <= 2 min (re-reading sector by sector took 1,040 s
# for the 1 MiB extent).
. "$(dirname "$0")/../fault/lib.sh"
fault_need
MS=${MS:-500}

# bench SIZE LBA0 LBA1 NAME
bench() {
	fault_start --size "$1" -c "eio $2 $3 read" -c "delay $2 $3 $MS read"
	fault_loop 0
	t0=$(date +%s.%N)
	"$DS" run surface "$FLOOP" --json "$FT/r.json" >"$FT/out" 2>"$FT/err"
	rc=$?
	t1=$(date +%s.%N)
	n=$(sed -nE "s/^disk0 eio $2 $3 read failed-reads ([0-9]+)$/\1/p" "$FMNT/.ctl")
	python3 - "$FT/r.json" "$4" "$t0" "$t1" "$n" "$rc" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["run"]
name, t0, t1, n, rc = sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), sys.argv[5], sys.argv[6]
st = {s["label"].split(" ")[0]: s["results"][0]["seconds"] for s in r["steps"]}
tb = {t["name"]: t for t in r["tables"]}
keys = [c["name"] for c in tb["extents"]["columns"]]
ext = ["LBA %d-%d (%s)" % (e["first_lba"], e["last_lba"], e["resolution"])
       for e in (dict(zip(keys, row)) for row in tb["extents"]["rows"])]
print("%-22s total %6.1f s  scan %5.1f s  pin %5.1f s  failed reads %4s  exit %s  %s" % (
    name, t1 - t0, st.get("scan", float("nan")), st.get("pin", float("nan")), n, rc, ", ".join(ext)))
PY
	fault_cleanup
}

echo "diskscope run surface, failed reads $MS ms each (ds-faultdev delay rule)"
bench 256M 300000 300015 "16 sectors"
bench 256M 300000 302047 "1 MiB (2048 sectors)"
bench 256M 300000 365535 "32 MiB"
bench 3G 2100000 4197151 "1 GiB zone (3 GiB)"
