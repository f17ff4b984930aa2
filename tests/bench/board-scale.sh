#!/bin/sh
# board-scale.sh - the bench board at scale (issue 12): 24 sim drives and 8
# loop devices in one triage run, sampled as the dashboard samples (a
# snapshot every 100 ms): series samples taken per target against those its
# measured time holds at 10 Hz, and any lost; the frame cost of a 32-row
# board at 200x60 (CPU time, and callgrind's instruction count); RSS along a
# day-long run in virtual time.  A measurement, not a test: it prints
# figures and asserts nothing timed.  Loop devices need root (else that part
# is skipped, said so).
. "$(dirname "$0")/../lib/loop.sh"
set -e
cd "$(dirname "$0")/../.."
B=${B:-build}
make -s "$B/bench/board-scale" "$B/bench/board-frame" >/dev/null	# the Makefile's flags

T=$(mktemp -d /tmp/ds-board-scale-XXXXXX)
LOOPS=""
cleanup() {
	for l in $LOOPS; do loop_detach "$l"; done
	rm -rf "$T"
}
trap cleanup EXIT INT TERM
SIMS=""
i=0
while [ $i -lt 24 ]; do SIMS="$SIMS sim$i"; i=$((i + 1)); done

# 1. 24 sim drives and 8 loop devices in one run, real time (the dashboard's
#    clock), quick triage: one-second solo samples, then all together.
if [ "$(id -u)" = 0 ] && command -v losetup >/dev/null 2>&1; then
	i=0
	while [ $i -lt 8 ]; do
		# sparse: no disk space, the reads still go through the loop
		# driver; big enough that the quick pass samples, not reads all
		truncate -s 4G "$T/l$i.img"
		loop_new l "$T/l$i.img" || break
		LOOPS="$LOOPS $l"
		i=$((i + 1))
	done
else
	echo "board-scale: no root or losetup: 24 sim drives only"
fi
echo "board-scale: triage over 24 sim drives + $(echo $LOOPS | wc -w) loop devices, 10 Hz, real time"
# shellcheck disable=SC2086
"$B/bench/board-scale" --demo --sim-speed 1 triage $SIMS $LOOPS --solo-time ${SOLO:-1} \
  --samples ${SAMPLES:-2000} | grep -E "loop0|sim:sim0 |targets|samples [0-9]+ of|RSS"

# 2. The frame: a 32-row board at 200x60.
"$B/bench/board-frame" "${FRAMES:-500}"
if command -v valgrind >/dev/null 2>&1 && command -v callgrind_annotate >/dev/null 2>&1; then
	n=${CG_FRAMES:-50}
	valgrind --tool=callgrind --callgrind-out-file="$T/cg" --toggle-collect=bench_board \
	  "$B/bench/board-frame" "$n" board >/dev/null 2>&1
	ann=$(callgrind_annotate --inclusive=yes "$T/cg" 2>/dev/null)
	all=$(echo "$ann" | awk '/bench_board/ {gsub(",", "", $1); print $1; exit}')
	snap=$(echo "$ann" | awk '/board_snapshot/ {gsub(",", "", $1); print $1; exit}')
	frames=$((n + 50))	# the warm-up frames are counted too
	echo "board-frame: callgrind $((all / frames)) instructions per board frame," \
	     "of which synthetic snapshot $((${snap:-0} / frames)): render $(((all - ${snap:-0}) / frames))"
fi

# 3. Memory over a day: full triage of four 20 TB sim drives in virtual time
#    (~25 h each, minutes of real time), RSS along the last step's pass.
F=$(pwd)/tests/fixtures/sim/big-20tb.drive
printf '[rig]\nname = big\n\n[controller]\nhba = 88SE9485\nbus = 3\n' >"$T/big.rig"
for i in 0 1 2 3; do echo "drive = big-20tb" >>"$T/big.rig"; done
echo "board-scale: full triage, 4 x 20 TB sim drives, virtual time"
"$B/bench/board-scale" --demo --sim-model "$F" --rig "$T/big.rig" triage sim0 sim1 sim2 sim3 \
  --mode full --solo-time 10 | tail -3
