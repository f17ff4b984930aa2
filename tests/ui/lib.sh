#!/bin/sh
# lib.sh - the tmux harness the dashboard screen tests share (sourced).
# Each test gets its own tmux server (-L), a fixture that leaves only the
# demo rig in the inventory (empty sysfs root, empty PCI dump), and polls the
# screen until it matches: never a bare sleep, never a timed assertion (the
# time-outs below only bound a hang).  Run directly, it checks the harness
# itself against a shell in tmux.

ds_top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ds_top" || exit 1
BIN=${DS_BIN:-build/diskscope}
case "$BIN" in /*) ;; *) BIN="$ds_top/$BIN" ;; esac
SOCK="dsui-$$"
S=main
WAIT=${DS_UI_WAIT:-120}		# seconds before a wait is a hang
FIX=$(mktemp -d /tmp/dsui-XXXXXX)
ds_failed=0

T() { tmux -L "$SOCK" -f /dev/null "$@"; }

ds_socks=""
ds_cleanup() {
	for s in $ds_socks $SOCK; do
		tmux -L "$s" kill-server >/dev/null 2>&1
		rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$s"
	done
	rm -rf "$FIX"
}

# A fresh tmux server for each program run: killing one is asynchronous, so
# the next never reuses its socket.
ds_new_server() {
	T kill-server >/dev/null 2>&1
	ds_socks="$ds_socks $SOCK"
	ds_n=$((${ds_n:-0} + 1))
	SOCK="dsui-$$-$ds_n"
}
trap ds_cleanup EXIT INT TERM

ds_skip() { echo "SKIP: $*"; exit 77; }
ds_fail() {
	echo "FAIL: $*"
	echo "---- screen ----"
	T capture-pane -p -t "$S" 2>/dev/null
	echo "----------------"
	exit 1
}

ds_need_tmux() {
	command -v tmux >/dev/null 2>&1 || ds_skip "tmux not installed"
}

# The binary must have the dashboard; say so clearly when it does not.
ds_need_bin() {
	[ -x "$BIN" ] || ds_skip "$BIN not built (run make)"
	"$BIN" --help 2>&1 | grep -q -- '--frames' || ds_skip "$BIN has no dashboard yet"
	mkdir -p "$FIX/sys/block" "$FIX/sys/class/block"
	: >"$FIX/pci.dump"
	: >"$FIX/mounts"
	# Only the simulated rig: no host drives, no host PCI devices.  The
	# program runs in $FIX, so paths it prints are the same every run.
	DEMO="--demo --sysfs-root sys --pci-dump pci.dump --no-ata"
}

# ds_start COLS ROWS ENV... -- ARGS...: run the binary in a fresh pane.  After
# it ends the pane shows "[exit N]" and the terminal modes ("[tty icanon echo]").
ds_start() {
	cols=$1 rows=$2
	shift 2
	envs=""
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do envs="$envs $1"; shift; done
	[ "$1" = "--" ] && shift
	ds_new_server
	cat >"$FIX/run.sh" <<EOS
#!/bin/sh
# Ctrl-C is for the program: this shell stays to report its status.
trap true INT
cd "$FIX" || exit 1
$BIN $*
st=\$?
modes=\$(stty -a | tr '; ' '\n\n' | grep -xE -- '-?(icanon|echo|isig)' | tr '\n' ' ')
printf '\n[exit %d]\n[tty %s]\n' "\$st" "\$modes"
exec sleep 86400
EOS
	T start-server \; set-option -g history-limit 0 \; new-session -d -s "$S" -x "$cols" -y "$rows" \
		"env -i PATH=\"$PATH\" HOME=/nonexistent LANG=C.UTF-8 TERM=tmux-256color $envs sh $FIX/run.sh" ||
		ds_fail "tmux new-session"
}

# ds_run ARGS...: the binary outside tmux, in the fixture directory.
ds_run() { (cd "$FIX" && "$BIN" "$@"); }

ds_screen() { T capture-pane -p -t "$S" 2>/dev/null; }
ds_alive() { T has-session -t "$S" 2>/dev/null || ds_fail "the tmux session is gone"; }
ds_screen_e() { T capture-pane -p -e -t "$S"; }
ds_keys() { T send-keys -t "$S" "$@"; }
# ds_click X Y: a left click at column X, row Y (0-based), as the X10 mouse
# report tmux-256color's kmous announces.
ds_click() {
	cx=$(printf '%04o' $(($1 + 33)))
	cy=$(printf '%04o' $(($2 + 33)))
	T send-keys -t "$S" -l "$(printf "\033[M %b%b" "\\$cx" "\\$cy")"
	T send-keys -t "$S" -l "$(printf "\033[M#%b%b" "\\$cx" "\\$cy")"
}

ds_exited() { ds_screen | grep -Eq '^\[exit [0-9]+\]'; }

# ds_pick_walk TEST: in the open test picker, move the cursor to TEST (its
# place comes from the core's table, read off the screen); fails when the
# picker does not offer it.
ds_pick_walk() {
	idx=$(ds_screen | sed -nE 's/^[|│] [> ] ([a-z]+) .*/\1/p' | grep -nx "$1" | cut -d: -f1)
	[ -n "$idx" ] || ds_fail "$1 not offered by the picker"
	ds_keys g
	i=1
	while [ "$i" -lt "$idx" ]; do ds_keys j; i=$((i + 1)); done
	ds_wait "^[|│] > $1" "$1 chosen"
}

# ds_need_fault: a dashboard on ds-faultdev devices (tests/fault/lib.sh
# sourced after this file): the dashboard is ended first on exit, as it
# holds the loop devices; skips without tmux, the build or the fault device.
ds_need_fault() {
	fault_extra_cleanup=ds_cleanup
	fault_trap
	ds_need_tmux
	ds_need_bin
	fault_need
}

# ds_wait REGEX [what]: poll until the screen matches.
ds_wait() {
	i=0
	while [ $i -lt $((WAIT * 10)) ]; do
		ds_alive
		ds_screen | grep -Eq -- "$1" && return 0
		ds_exited && ds_fail "program exited while waiting for: ${2:-$1}"
		sleep 0.1
		i=$((i + 1))
	done
	ds_fail "no '${2:-$1}' on screen after ${WAIT}s"
}

# ds_wait_gone REGEX: poll until the screen no longer matches.
ds_wait_gone() {
	i=0
	while [ $i -lt $((WAIT * 10)) ]; do
		ds_screen | grep -Eq -- "$1" || return 0
		sleep 0.1
		i=$((i + 1))
	done
	ds_fail "'$1' still on screen after ${WAIT}s"
}

# ds_wait_exit: wait for the program to end; prints its exit status.
ds_wait_exit() {
	i=0
	while ! ds_exited; do
		ds_alive >&2
		[ $i -ge $((WAIT * 10)) ] && ds_fail "program did not exit" >&2
		sleep 0.1
		i=$((i + 1))
	done
	ds_screen | sed -nE 's/^\[exit ([0-9]+)\]$/\1/p' | head -1
}

# The header carries host, kernel and clock: mask them for golden files.
ds_normalize() {
	sed -E '1s/^ diskscope [^|]*\|[^|]*\|[^|]*\|(.*[^ ])? *[0-9]{2}:[0-9]{2}:[0-9]{2} *$/ diskscope [header]|\1/' |
		sed -E 's/ +$//'
}

# Numbers and plot dots masked: for screens whose figures come from a run
# (the layout, labels and texts still have to match).
ds_mask() {
	sed -E 's/[0-9]+(\.[0-9]+)?/#/g' | sed -E "s/$(printf '\342')[$(printf '\240-\243')]./~/g; s/[.:']{2,}/~/g"
}

# ds_golden NAME [masked]: compare the screen with tests/ui/golden/NAME.txt
# (GENERATE=1 writes it instead).
ds_golden() {
	g="tests/ui/golden/$1.txt"
	if [ "$2" = masked ]; then
		ds_screen | ds_normalize | LC_ALL=C ds_mask >"$FIX/$1.txt"
	else
		ds_screen | ds_normalize >"$FIX/$1.txt"
	fi
	if [ "${GENERATE:-0}" = 1 ]; then
		cp "$FIX/$1.txt" "$g"
		echo "generated $g"
		return 0
	fi
	[ -f "$g" ] || ds_fail "no golden file $g (make it with GENERATE=1)"
	if ! diff -u "$g" "$FIX/$1.txt"; then
		ds_fail "screen differs from $g (GENERATE=1 to accept)"
	fi
}

# Run directly: check the harness on a plain shell command.
if [ "$(basename "$0")" = lib.sh ]; then
	ds_need_tmux
	BIN="printf ' diskscope 0.1.0 | h | k | x      12:34:56\\nhello\\n'; (exit 3)"
	ds_start 60 10 --
	ds_wait '^hello' "hello"
	st=$(ds_wait_exit)
	[ "$st" = 3 ] || ds_fail "exit status $st, want 3"
	ds_screen | grep -q '^\[tty isig icanon echo' || ds_fail "terminal modes not shown"
	ds_screen | ds_normalize | head -1 | grep -qx ' diskscope \[header\]| x' ||
		ds_fail "header not normalized: $(ds_screen | ds_normalize | head -1)"
	echo "harness ok"
fi
