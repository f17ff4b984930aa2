#!/bin/sh
# ui-frame.sh - frame render cost of the dashboard at 200x60 with 24 drives
# (issue 5: target <= 2 ms/frame).  CPU time per frame, and with valgrind
# the callgrind instruction count of one frame.  A measurement, not a test.
set -e
cd "$(dirname "$0")/../.."
B=${B:-build}
make -s "$B/bench/ui-frame" >/dev/null	# the Makefile's flags
"$B/bench/ui-frame" "${FRAMES:-500}"
if command -v valgrind >/dev/null 2>&1 && command -v callgrind_annotate >/dev/null 2>&1; then
  out=$(mktemp)
  trap 'rm -f "$out"' EXIT
  n=${CG_FRAMES:-50}
  valgrind --tool=callgrind --callgrind-out-file="$out" --toggle-collect=bench_live \
    --toggle-collect=bench_snap "$B/bench/ui-frame" "$n" >/dev/null 2>&1
  ann=$(callgrind_annotate --inclusive=yes "$out" 2>/dev/null)
  live=$(echo "$ann" | awk '/bench_live/ {gsub(",", "", $1); print $1; exit}')
  snap=$(echo "$ann" | awk '/bench_snap/ {gsub(",", "", $1); print $1; exit}')
  echo "ui-frame: callgrind live frame $((live / n)) instructions," \
       "of which fake snapshot $((snap / n)): render $(((live - snap) / n)) per frame"
fi
