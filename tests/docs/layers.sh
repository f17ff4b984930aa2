#!/bin/sh
# layers.sh - tools/layers.txt is the one table of the layers: the lint reads
# it (and refuses what it forbids, on a copy of the tree with one bad include
# planted at a time), README shows its arrows, the dashboard reaches the run
# option table through the core, and no core header names cli/ or ui/.
set -u
cd "$(dirname "$0")/../.."
rc=0
fail() { echo "FAIL: $*"; rc=1; }

[ -f tools/layers.txt ] || { echo "FAIL: no tools/layers.txt"; exit 1; }
out=$(sh tools/lint-layers.sh 2>&1) || fail "the tree breaks its own table: $out"

T=$(mktemp -d "${TMPDIR:-/tmp}/ds-layers.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
fresh() {	# a copy of the tree the lint reads, as it is now
	rm -rf "$T/t"; mkdir -p "$T/t/tools"
	cp -r src ui "$T/t/" && cp tools/lint-layers.sh tools/layers.txt "$T/t/tools/"
}
# refused FILE LINE WANT: LINE appended to FILE must fail the lint naming WANT
refused() {
	fresh
	printf '%s\n' "$2" >> "$T/t/$1"
	if o=$(sh "$T/t/tools/lint-layers.sh" 2>&1); then
		fail "$1 + '$2': the lint let it pass"
	else
		echo "$o" | grep -qF "$3" || fail "$1 + '$2': lint said '$o', not '$3'"
	fi
}
# the dashboard through cli/ (once an exception) is a never-arrow now
refused ui/panel-picker.c '#include "cli/options.h"' 'ui -> cli must never be'
# no core header includes or declares anything of cli/ or ui/
refused src/run/plan-build.h '#include "cli/cli.h"' 'run -> cli must never be'
refused src/history/history.h 'int history_cli(int argc, char **argv);' 'declares history_cli() of cli'
refused src/io/guard.h 'int guard_opts_from(const struct global_opts *g);' 'names struct global_opts of cli'
refused src/bench/plan-options.h 'int ui_main(void *inv, const void *be, const void *o);' 'declares ui_main() of ui'
# arrows are the ones written, not their reach (run -> io -> sim)
refused src/run/step.c '#include "sim/sim.h"' 'run -> sim is no arrow'
refused src/report/run-text.c '#include "bench/bench.h"' 'report -> bench must never be'
# every file is in a part; main-tui.c is named in one (the bridge), a new file is not
refused src/main-extra.c '' 'src/main-extra.c: in no part'
fresh
grep -q '^part main .*src/main-tui.c' "$T/t/tools/layers.txt" || fail "main-tui.c is in no part"

# the table is checked too: an unused arrow, a circle, an arrow that is never
fresh
echo 'arrow inventory -> history   nothing uses it' >> "$T/t/tools/layers.txt"
o=$(sh "$T/t/tools/lint-layers.sh" 2>&1) && fail "an unused arrow passed"
echo "$o" | grep -q 'arrow inventory -> history is used by no include' || fail "unused arrow: $o"
fresh
echo 'arrow sim -> bench   a circle' >> "$T/t/tools/layers.txt"
echo '#include "bench/bench.h"' >> "$T/t/src/sim/sim.c"
o=$(sh "$T/t/tools/lint-layers.sh" 2>&1) && fail "a circle passed"
echo "$o" | grep -q 'make a circle' || fail "circle: $o"
fresh
echo 'arrow ui -> cli   the old exception' >> "$T/t/tools/layers.txt"
o=$(sh "$T/t/tools/lint-layers.sh" 2>&1) && fail "an arrow that is also never passed"
echo "$o" | grep -q 'is also a never-arrow' || fail "never and arrow: $o"

# README shows the table's arrows, as the lint prints them
sh tools/lint-layers.sh --arrows > "$T/arrows"
awk '/^<!-- layers:/ { on = 1; next } on && /^```/ { if (++fence == 2) exit; next } on' README.md > "$T/readme"
[ -s "$T/arrows" ] && cmp -s "$T/arrows" "$T/readme" ||
	fail "README's arrows differ from tools/layers.txt: $(diff "$T/arrows" "$T/readme" | head -5)"

# the picker and the option table: no ui/ file includes a cli/ header
hits=$(grep -rn '#[[:space:]]*include[[:space:]]*"cli/' ui || true)
[ -z "$hits" ] || fail "ui/ includes cli/: $hits"
[ $rc -eq 0 ] && echo "layers: ok"
exit $rc
