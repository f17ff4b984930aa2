#!/bin/sh
# sanitizers.sh - the code that shares state between threads (workers,
# sampler, UI) and parses input, run under ASan+UBSan and under TSan: both
# builds (`make asan-all`, `make tsan-all`, incremental), every unit test, and
# the system tests that drive the runner, the sim and the dashboard, each
# with the sanitizer binary (DISKSCOPE / DS_BIN point at a wrapper that sets
# the options).  Then Valgrind (memcheck) on the normal build: `list` and
# two short dashboard runs.  Any report, a definite leak included, fails.
# DS_SAN="asan", "tsan" or "valgrind" runs a part; DS_SKIP_SAN=1 skips all.
# By default this runs asan and valgrind; tests/sys/sanitizers-tsan.sh runs
# tsan (two scripts: each well inside tests/run.sh's 15-minute bound).
cd "$(dirname "$0")/../.." || exit 1
top=$PWD
[ -n "${DS_SKIP_SAN:-}" ] && { echo "SKIP: DS_SKIP_SAN set"; exit 77; }
L=$(mktemp -d /tmp/ds-san-XXXXXX)
trap 'tmux -L "dsvg-$$" kill-server 2>/dev/null; rm -rf "$L"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }

# What runs under each build: the runner and sim headless (virtual and real
# time, loop devices, signals), and the dashboard live through tmux.
SYS="demo-list demo-saturate demo-seqread demo-sim-model run-cli saturate interrupt signals output-safety show-input"
UI_asan=""			# tests/ui/asan.sh runs the dashboard under ASan already
UI_tsan="saturate resize"	# the UI thread reading what workers and sampler write

reports() {	# KIND: print and count the sanitizer logs
	n=$(ls "$L/$1".* 2>/dev/null | wc -l)
	[ "$n" -eq 0 ] && return 0
	for f in "$L/$1".*; do echo "---- $f"; head -40 "$f"; done
	return 1
}

# Memcheck: the normal build; list (empty fixture: no host drives) and the
# dashboard (home screen, a saturate run) for a fixed number of frames.
run_valgrind() {
	command -v valgrind >/dev/null || { echo "valgrind: SKIP (not installed: tools/deps.sh)"; return 0; }
	t0=$(date +%s)
	make -s -j2 build/diskscope >"$L/make.log" 2>&1 || { tail -30 "$L/make.log"; fail "make"; }
	W="$L/ds-valgrind"
	cat >"$W" <<EOS
#!/bin/sh
exec valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
	--show-leak-kinds=definite,indirect --log-file=$L/vg.%p "$top/build/diskscope" "\$@"
EOS
	chmod +x "$W"
	mkdir -p "$L/fix/sys/block"
	: >"$L/fix/pci.dump"
	DEMO="--demo --sysfs-root sys --pci-dump pci.dump --no-ata"
	(cd "$L/fix" && "$W" $DEMO list >"$L/list.txt" 2>&1) || fail "valgrind: list failed"
	ctrl=$(awk '/88SE9485/ {sub("ctrl", "ctrl:", $1); print $1; exit}' "$L/list.txt")
	[ -n "$ctrl" ] || fail "valgrind: no 88SE9485 in the demo rig"
	# the dashboard for a fixed number of frames: the home screen, then a
	# saturate run in virtual time (workers, sampler and UI all running)
	command -v tmux >/dev/null || { echo "valgrind: dashboard SKIP (no tmux)"; return 0; }
	for args in "--frames 20" "--sim-speed 0 --frames 40 saturate $ctrl"; do
		rm -f "$L/dash.rc"
		tmux -L "dsvg-$$" -f /dev/null new-session -d -x 120 -y 40 \
			"cd $L/fix && TERM=tmux-256color $W $DEMO $args; echo \$? >$L/dash.rc" || fail "tmux"
		i=0
		while [ ! -s "$L/dash.rc" ] && [ $i -lt 3000 ]; do sleep 0.1; i=$((i + 1)); done
		tmux -L "dsvg-$$" kill-server 2>/dev/null
		[ "$(cat "$L/dash.rc" 2>/dev/null)" = 0 ] || fail "valgrind: dashboard $args: exit $(cat "$L/dash.rc" 2>/dev/null)"
	done
	n=0
	for f in "$L"/vg.*; do
		[ -s "$f" ] || { n=$((n + 1)); continue; }
		echo "---- $f"; head -40 "$f"; fail "valgrind: reports (above)"
	done
	echo "valgrind: list + the dashboard (home, a saturate run) clean ($n processes), $(( $(date +%s) - t0 ))s"
}

run_kind() {
	kind=$1 B=build-$1
	[ "$kind" = valgrind ] && { run_valgrind; return; }
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

for k in ${DS_SAN:-asan valgrind}; do
	run_kind "$k"
done
echo "sanitizers clean: ${DS_SAN:-asan valgrind}"
