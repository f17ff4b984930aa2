#!/bin/sh
# Run every libFuzzer harness (built by `make fuzz-build` into $FUZZ_B/fuzz):
# first replay tests/fuzz/regress/<harness>/* (each a crash once found and
# fixed), then fuzz for $FUZZ_SECS seconds from the seed corpus (shipped
# files and test fixtures, gathered by seed()).  One line per harness with
# its executions; exit 1 when a regression input or a new input crashes
# (the input is saved under $FUZZ_B/crashes/).
#   FUZZ_SECS=60 FUZZ_B=build-fuzz sh tests/fuzz/run.sh [HARNESS...]
set -u
cd "$(dirname "$0")/../.."
SECS=${FUZZ_SECS:-60}
B=${FUZZ_B:-build-fuzz}
REAL=../shared/realdata
[ -d "$REAL" ] || REAL=
HARNESSES=${*:-$(cd tests/fuzz && ls fuzz_*.c | sed 's/\.c$//')}

# seed NAME DIR: copy the starting inputs of one harness into DIR
seed() {
	d=$2
	case $1 in
	fuzz_ata) cp tests/fixtures/ata/*.blob "$d"/ 2>/dev/null
		[ -n "$REAL" ] && for f in "$REAL"/ata-blobs/*/*; do
			case $f in *README*|*.csv) ;; *) cp "$f" "$d/$(basename "$f")" ;; esac
		done ;;
	fuzz_identify) # the IDFY payload of each blob whose first record is IDFY
		for f in tests/fixtures/ata/*.blob ${REAL:+"$REAL"/ata-blobs/*/*}; do
			[ "$(head -c 4 "$f")" = IDFY ] || continue
			tail -c +9 "$f" | head -c 512 > "$d/$(basename "$f").idfy"
		done ;;
	fuzz_pci) cp tests/fixtures/pci/*.dump "$d"/
		[ -n "$REAL" ] && for f in "$REAL"/lspci/*; do cp "$f" "$d/lspci-$(basename "$f")"; done ;;
	fuzz_theme) cp themes/*.theme "$d"/ ;;
	fuzz_nvme) # first byte: 0 identify controller, 1 namespace, 2 health log
		for f in tests/fixtures/nvme/*.bin; do
			case $f in *.id-ctrl.bin) k='\000' ;; *.id-ns.bin) k='\001' ;; *.smart.bin) k='\002' ;; *) continue ;; esac
			{ printf "$k"; cat "$f"; } > "$d/$(basename "$f")"
		done ;;
	fuzz_scsi) # first byte: 0 INQUIRY, 1 VPD, 2 READ CAPACITY(16), 3 LOG SENSE
		for f in tests/fixtures/scsi/*.bin; do
			case $f in *-inq.bin) k='\000' ;; *-vpd*) k='\001' ;; *rc16.bin) k='\002' ;;
			*-log*) k='\003' ;; *) continue ;; esac
			{ printf "$k"; cat "$f"; } > "$d/$(basename "$f")"
		done ;;
	fuzz_sim) # first byte: 0 drive, 1 hba, 2 rig
		for f in src/sim/models/* tests/fixtures/sim/*; do
			case $f in *.drive) k='\000' ;; *.hba) k='\001' ;; *.rig) k='\002' ;; *) continue ;; esac
			{ printf "$k"; cat "$f"; } > "$d/$(basename "$f")"
		done ;;
	fuzz_farm) # 0: an ATA log's three sectors the reader fetches, 1: a SCSI page, 2: DCO data
		for f in tests/fixtures/farm/ata-*.bin; do
			{ printf '\000'; dd if="$f" bs=512 skip=0 count=1 2>/dev/null
			  dd if="$f" bs=512 skip=32 count=1 2>/dev/null
			  dd if="$f" bs=512 skip=172 count=1 2>/dev/null; } > "$d/$(basename "$f")"
		done
		for f in tests/fixtures/farm/scsi-*.bin; do { printf '\001'; cat "$f"; } > "$d/$(basename "$f")"; done
		for f in tests/fixtures/farm/dco-*.bin; do { printf '\002'; cat "$f"; } > "$d/$(basename "$f")"; done ;;
	esac
	[ -d "tests/fuzz/seeds/$1" ] && cp tests/fuzz/seeds/"$1"/* "$d"/ 2>/dev/null
	return 0
}

fail=0
printf '%-14s %6s %12s %9s %s\n' harness seconds executions exec/s result
for h in $HARNESSES; do
	bin=$B/fuzz/$h
	if [ ! -x "$bin" ]; then
		echo "$h: $bin not built (make fuzz-build)"; fail=1; continue
	fi
	work=$B/corpus/$h
	mkdir -p "$work" "$B/crashes" "$B/logs"
	seed "$h" "$work"
	log=$B/logs/$h.log
	res=ok
	reg=tests/fuzz/regress/$h
	if [ -d "$reg" ] && [ -n "$(ls "$reg")" ]; then
		# a file argument runs that input once
		if ! "$bin" -close_fd_mask=3 "$reg"/* > "$B/logs/$h.regress.log" 2>&1; then
			res="REGRESSION (see $B/logs/$h.regress.log)"; fail=1
		fi
	fi
	"$bin" -max_total_time="$SECS" -print_final_stats=1 -close_fd_mask=3 -timeout=20 \
	    -rss_limit_mb=2048 -artifact_prefix="$B/crashes/$h-" "$work" > "$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
	if [ $rc -ne 0 ]; then
		res="CRASH rc=$rc (see $log, input in $B/crashes/)"; fail=1
	fi
	printf '%-14s %6s %12s %9s %s\n' "$h" "$SECS" "${execs:-?}" "${rate:-?}" "$res"
done
exit $fail
