#!/bin/sh
# lint-names.sh - no test's name outside src/bench/, tests/ and the docs:
# tools/lint-names.sh passes on the tree, and fails on a copy of it with a
# test's name planted as a literal (a string, a quoted SQL word) in a
# consumer, one at a time; comments, the tests' own files and the
# allowlist's genuine non-test uses pass, and a stale allowance fails.
set -u
cd "$(dirname "$0")/../.."
rc=0
fail() { echo "FAIL: $*"; rc=1; }

out=$(sh tools/lint-names.sh 2>&1) || fail "the tree has test names outside its tests: $out"

. tests/lib/lint-copy.sh
lint_copy lint-names.sh lint-names.allow
lint_refused ui/panel-board.c 'static const char *const judge = "triage";' 'ui/panel-board.c: the test name "triage"'
lint_refused src/history/query.c '#define X_SQL "SELECT 1 FROM run WHERE test = '"'"'seqread'"'"'"' 'src/history/query.c: the test name "seqread"'
lint_refused src/run/estimate.c 'static int f(const char *t) { return !strcmp(t, "surface"); }' 'the test name "surface"'
lint_refused src/report/html.c 'static const char *k = "smr";' 'src/report/html.c: the test name "smr"'
# a name in a comment, a word that only contains one, a test's own file: no test name
lint_passes ui/panel-board.c '/* as "triage" shows it */'
lint_passes src/cli/run.c 'static const char *const w = "quick scan";'
lint_passes src/bench/seqread.c 'static const char *const me = "seqread";'
# the allowlist: its lines are genuine, and one no file needs is stale
fresh
printf 'src/util/util.c triage no such literal\n' >> "$T/t/tools/lint-names.allow"
if o=$(sh "$T/t/tools/lint-names.sh" 2>&1); then
	fail "a stale allowance passed"
else
	echo "$o" | grep -qF 'has no "triage" literal any more' || fail "stale allowance: lint said '$o'"
fi

[ $rc = 0 ] && echo "PASS: lint-names refuses a planted test name, passes the tree"
exit $rc
