#!/bin/sh
# lint-size.sh - tools/lint-size.sh holds the tree to its sizes (no .c past
# 800 lines, no function past 120 without a "long:" reason or a line in
# tools/size-allow.txt), and it can fail: on a copy of the tree it refuses a
# planted long function, a planted long file and an allowlist line that is
# no longer needed, and lets a long function with its reason pass.
set -u
cd "$(dirname "$0")/../.."
rc=0
fail() { echo "FAIL: $*"; rc=1; }

out=$(sh tools/lint-size.sh 2>&1) || fail "the tree breaks its own sizes: $out"

. tests/lib/lint-copy.sh
lint_copy lint-size.sh size-allow.txt
# long_fn NAME LINES [COMMENT]: a function of LINES lines, COMMENT above it
long_fn() {
	[ -n "${3:-}" ] && printf '/* %s */\n' "$3"
	printf 'static int\n%s(int a)\n{\n' "$1"
	i=4; while [ "$i" -lt "$2" ]; do printf '\ta += %d;\n' "$i"; i=$((i + 1)); done
	printf '\treturn a;\n}\n'
}
# refused WANT: the copy must fail the lint, naming WANT
refused() {
	if o=$(sh "$T/t/tools/lint-size.sh" 2>&1); then
		fail "$1: the lint let it pass"
	else
		echo "$o" | grep -qF "$1" || fail "lint said '$o', not '$1'"
	fi
}

fresh
long_fn planted_long 121 >> "$T/t/src/util/util.c"
refused 'src/util/util.c:'
refused 'planted_long() is 121 lines'

fresh
long_fn planted_ok 120 >> "$T/t/ui/draw.c"
o=$(sh "$T/t/tools/lint-size.sh" 2>&1) || fail "a function of 120 lines refused: $o"

fresh
long_fn planted_table 200 'long: one table of every case, split it would scatter it' >> "$T/t/src/util/util.c"
o=$(sh "$T/t/tools/lint-size.sh" 2>&1) || fail "a long function with its reason refused: $o"
# a reason elsewhere does not count: only the comment right above
fresh
{ echo '/* long: not this one */'; echo 'static int planted_gap;'; long_fn planted_gap 130; } >> "$T/t/ui/draw.c"
refused 'planted_gap() is 130 lines'

fresh
i=0; while [ "$i" -lt 801 ]; do echo "/* $i */"; i=$((i + 1)); done > "$T/t/src/util/planted-big.c"
refused 'src/util/planted-big.c: 801 lines (over 800)'

# an allowlist line is refused once its function is short, or gone
fresh
echo 'src/util/util.c strtrimcpy was long once' >> "$T/t/tools/size-allow.txt"
refused 'strtrimcpy is no longer long'
fresh
echo 'src/util/util.c no_such_fn never was' >> "$T/t/tools/size-allow.txt"
refused 'no function no_such_fn()'
# and an allowlisted long function passes
fresh
long_fn planted_wip 150 >> "$T/t/src/util/util.c"
echo 'src/util/util.c planted_wip someone is splitting it' >> "$T/t/tools/size-allow.txt"
o=$(sh "$T/t/tools/lint-size.sh" 2>&1) || fail "an allowlisted long function refused: $o"

[ "$rc" = 0 ] && echo PASS
exit "$rc"
