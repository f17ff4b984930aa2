#!/bin/sh
# sanitizers.sh - the code that shares state between threads (workers,
# sampler, UI) and parses input, run under ASan+UBSan and under TSan: both
# builds (`make asan-all`, `make tsan-all`, incremental), every unit test, and
# the system tests that drive the runner, the sim and the dashboard, each
# with the sanitizer binary (DISKSCOPE / DS_BIN point at a wrapper that sets
# the options).  Any sanitizer report, a leak included, fails the test.
# DS_SAN=asan or DS_SAN=tsan runs one; DS_SKIP_SAN=1 skips (a quick check).
cd "$(dirname "$0")/../.." || exit 1
top=$PWD
[ -n "${DS_SKIP_SAN:-}" ] && { echo "SKIP: DS_SKIP_SAN set"; exit 77; }
L=$(mktemp -d /tmp/ds-san-XXXXXX)
trap 'rm -rf "$L"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }

# What runs under each build: the runner and sim headless (virtual and real
# time, loop devices, signals), and the dashboard live through tmux.
SYS="demo-list demo-saturate demo-seqread demo-sim-model run-cli saturate interrupt signals output-safety"
UI_asan=""			# tests/ui/asan.sh runs the dashboard under ASan already
UI_tsan="saturate resize"	# the UI thread reading what workers and sampler write

reports() {	# KIND: print and count the sanitizer logs
	n=$(ls "$L/$1".* 2>/dev/null | wc -l)
	[ "$n" -eq 0 ] && return 0
	for f in "$L/$1".*; do echo "---- $f"; head -40 "$f"; done
	return 1
}

run_kind() {
	kind=$1 B=build-$1
	echo "== $kind: make $kind-all"
	t0=$(date +%s)
	make -s -j2 "$kind-all" >"$L/make-$kind.log" 2>&1 || { tail -30 "$L/make-$kind.log"; fail "make $kind-all"; }
	W="$L/ds-$kind"
	cat >"$W" <<EOS
#!/bin/sh
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:log_path=$L/$kind.asan
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:log_path=$L/$kind.ubsan
TSAN_OPTIONS=halt_on_error=0:second_deadlock_stack=1:log_path=$L/$kind.tsan
export ASAN_OPTIONS UBSAN_OPTIONS TSAN_OPTIONS
exec "$top/$B/diskscope" "\$@"
EOS
	chmod +x "$W"
	for u in "$B"/tests/test_*; do
		case "$u" in *.d) continue ;; esac
		ASAN_OPTIONS="detect_leaks=1:log_path=$L/$kind.asan" \
		UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:log_path=$L/$kind.ubsan" \
		TSAN_OPTIONS="halt_on_error=0:second_deadlock_stack=1:log_path=$L/$kind.tsan" \
			"$u" >"$L/unit.log" 2>&1 || { tail -20 "$L/unit.log"; fail "$kind: $u"; }
	done
	echo "$kind: $(ls "$B"/tests/test_* | grep -vc '\.d$') unit tests passed"
	eval "ui=\$UI_$kind"
	for t in $SYS; do
		DISKSCOPE="$W" sh "tests/sys/$t.sh" >"$L/t.log" 2>&1
		rc=$?
		[ $rc -eq 0 ] || [ $rc -eq 77 ] || { tail -20 "$L/t.log"; fail "$kind: tests/sys/$t.sh exit $rc"; }
		echo "$kind: sys/$t $([ $rc -eq 0 ] && echo passed || grep -h SKIP "$L/t.log" | tail -1)"
	done
	for t in $ui; do
		DS_BIN="$W" sh "tests/ui/$t.sh" >"$L/t.log" 2>&1
		rc=$?
		[ $rc -eq 0 ] || [ $rc -eq 77 ] || { tail -20 "$L/t.log"; fail "$kind: tests/ui/$t.sh exit $rc"; }
		echo "$kind: ui/$t $([ $rc -eq 0 ] && echo passed || grep -h SKIP "$L/t.log" | tail -1)"
	done
	reports "$kind" || fail "$kind: sanitizer reports (above)"
	echo "$kind: clean, $(( $(date +%s) - t0 ))s"
}

for k in ${DS_SAN:-asan tsan}; do
	run_kind "$k"
done
echo "sanitizers clean: ${DS_SAN:-asan tsan}"
