#!/bin/sh
# Hostile command lines and input files (issue 10): each is refused at once
# with one line naming the thing and the reason, exit 2; nothing blocks
# (a FIFO given as any input used to hang in open()).
DS=${DISKSCOPE:-build/diskscope}
fail=0
bad() { echo "FAIL: $*"; fail=1; }
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT

# expect EXIT "TEXT" ARGS...: bounded by timeout (a hang fails, not waits)
expect() {
	want_rc=$1 want=$2; shift 2
	timeout 20 "$DS" "$@" >"$T/out" 2>"$T/err" </dev/null; rc=$?
	[ $rc -eq 124 ] && { bad "$*: still running after 20 s (blocked?)"; return; }
	[ $rc -eq "$want_rc" ] || bad "$*: exit $rc, expected $want_rc: $(cat "$T/err")"
	grep -qF -- "$want" "$T/err" "$T/out" || bad "$*: no '$want' in: $(cat "$T/err")"
}

mkfifo "$T/f" "$T/f.drive" "$T/f.theme" "$T/f.json" || exit 1
mkdir "$T/d.theme" "$T/d.drive"
FIFO="not a regular file (fifo)"
expect 2 "$FIFO" --check-model "$T/f.drive"
expect 2 "$FIFO" --check-theme "$T/f.theme"
expect 2 "$FIFO" --demo --sim-model "$T/f.drive" list
expect 2 "$FIFO" --rig "$T/f" list
expect 2 "$FIFO" --pci-dump "$T/f" list
expect 2 "$FIFO" show "$T/f.json"
expect 2 "is a directory" --check-theme "$T/d.theme"
expect 2 "is a directory" --check-model "$T/d.drive"
expect 2 "is a directory" show "$T"
# --ata-blob: the drive is listed with the reason, the run goes on
expect 0 "--ata-blob x: $T/f: $FIFO" --ata-blob "x=$T/f" --no-ata list

# numbers: NaN and infinities nowhere, durations that mean something
expect 2 "--sim-speed: bad value 'nan'" --sim-speed nan list
expect 2 "--ata-timeout: bad value 'inf'" --ata-timeout inf list
expect 2 "--sim-speed 1e-300: 0 (virtual time) or 0.01" --sim-speed 1e-300 list
expect 2 "--ata-timeout 1e-10: 0.01 .. 600 seconds" --ata-timeout 1e-10 list
expect 2 "--time 1e-10: at least 0.1 s" --demo run seqread sim:WD40EZRX --time 1e-10
expect 2 "--time nan" --demo run seqread sim:WD40EZRX --time nan
expect 2 "--region nan%:50%" --demo run seqread sim:WD40EZRX --region nan%:50%

# --ata-blob: at most 32, one per drive name
B=tests/fixtures/ata/synthetic-512e.blob
set --
i=0
while [ $i -lt 33 ]; do set -- "$@" --ata-blob "d$i=$B"; i=$((i + 1)); done
expect 2 "at most 32 --ata-blob" "$@" list
expect 2 "drive a already has a blob ($B)" --ata-blob "a=$B" --ata-blob "a=$B" list

# model and rig files
G=tests/fixtures/sim/good.drive
sed 's/^rate = .*/rate = 0:1e-300 1:1e-300/' $G >"$T/slow.drive"
expect 2 "rate: 1e-300 MB/s at position 0 out of range" --check-model "$T/slow.drive"
{ cat $G; printf '[flaws]\nunreadable = 100-18446744073709551615\n'; } >"$T/wrap.drive"
expect 2 "unreadable: range ends past the last LBA" --check-model "$T/wrap.drive"
cat $G $G >"$T/twice.drive"
expect 2 "section [drive] given twice" --check-model "$T/twice.drive"
printf '\v[controller]\nhba = 88SE9485\n' >"$T/vt.rig"
expect 0 "vt.rig: ok" --check-model "$T/vt.rig"

# a PCI dump that fails on its first line says which and why
python3 -c "print('00:1f.2 ' + 'x' * 300)" >"$T/long.dump"
expect 2 "line 1: 308 characters" --pci-dump "$T/long.dump" list
# issue 9 item 7: no valid word 106 -> 512/512 "not reported" (ata-default)
EARS=../shared/realdata/ata-blobs/libblockdev/WDC_WD20EARS-00MVWB0.bin
if [ -f "$EARS" ]; then
	"$DS" --no-ata --ata-blob "ears=$EARS" list --json >"$T/ears.json" 2>/dev/null
	python3 - "$T/ears.json" <<'PY' || bad "WD20EARS (word 106 = 0): not 512/512 from ata-default"
import json, sys
d = [x for x in json.load(open(sys.argv[1]))["inventory"]["drives"] if x["name"] == "ears"][0]
s = d["sectors"]
assert (s["logical"], s["physical"], s["source"]) == (512, 512, "ata-default"), s
PY
	"$DS" --no-ata --ata-blob "ears=$EARS" list 2>/dev/null | grep -q '^  ears .* 512? ' ||
		bad "list does not mark the assumed 512/512 as 512?"
else
	echo "note: ../shared/realdata missing: the WD20EARS check did not run"
fi
exit $fail
