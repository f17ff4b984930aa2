#!/bin/sh
# insn-per-io: user-space instructions per I/O of diskscope and fio 3.33 for
# 4K randread QD1 on a zram device of our own, io_uring and psync, no hook
# (plain `run randread`), counted by callgrind (valgrind) over the whole
# process.  Each tool runs twice, N0 and N1 I/Os; (Ir(N1) - Ir(N0)) /
# (N1 - N0) is the cost of one I/O with start-up and tear-down cancelled out.
# Kernel instructions are not counted (the same syscalls for both tools).
# A benchmark, not a test (`make bench`).  N0=2000 N1=20000 by default.
. "$(dirname "$0")/../lib/zram.sh"
DS=${DISKSCOPE:-build/diskscope}
N0=${N0:-2000}
N1=${N1:-20000}
command -v valgrind >/dev/null || { echo "SKIP: valgrind not installed"; exit 77; }
command -v fio >/dev/null || { echo "SKIP: fio not installed"; exit 77; }
zram_bench insn 256
trap 'exit 141' PIPE
DEV=/dev/zram$Z

# total instructions of one run under callgrind (all threads)
ir() {
	rm -f "$T"/cg.*
	valgrind --tool=callgrind --callgrind-out-file="$T/cg.%p" "$@" >/dev/null 2>"$T/vg.err" || {
		echo "failed: $*" >&2; tail -5 "$T/vg.err" >&2; exit 1; }
	sed -n 's/^summary: //p' "$T"/cg.* | awk '{ s += $1 } END { print s }'
}
ds_run() {	# engine, I/Os
	ir "$DS" --no-ata run randread "$DEV" --bs 4k --qd 1 --engine "$1" \
		--size $(($2 * 4096)) --json "$T/r.json"
}
fio_run() {	# engine, I/Os
	case $1 in
	uring) e="--ioengine=io_uring --fixedbufs --registerfiles" ;;
	psync) e="--ioengine=psync" ;;
	esac
	# shellcheck disable=SC2086
	ir fio --name=w $e --direct=1 --thread --rw=randread --bs=4k --iodepth=1 \
		--randrepeat=0 --norandommap --lat_percentiles=1 --filename="$DEV" \
		--io_size=$(($2 * 4096)) --output-format=json
}
echo "| engine | diskscope instr/IO | fio instr/IO | diskscope / fio |"
echo "|---|---|---|---|"
for eng in uring psync; do
	a0=$(ds_run $eng "$N0") && a1=$(ds_run $eng "$N1") || exit 1
	b0=$(fio_run $eng "$N0") && b1=$(fio_run $eng "$N1") || exit 1
	awk -v e=$eng -v a0="$a0" -v a1="$a1" -v b0="$b0" -v b1="$b1" -v n0="$N0" -v n1="$N1" 'BEGIN {
		a = (a1 - a0) / (n1 - n0); b = (b1 - b0) / (n1 - n0)
		printf "| %s | %.0f | %.0f | %.2f |\n", e, a, b, a / b }'
done
echo
echo "4K randread QD1 on $DEV (zram), $N0 and $N1 I/Os per run, callgrind Ir of the whole process;"
echo "diskscope: run randread --qd 1 --engine E --size; fio: --thread --direct=1 --io_size (io_uring: --fixedbufs --registerfiles)."
