# lint-copy.sh - what the tests of the tree's lints share (sourced from the
# top of the checkout by tests/docs/lint-*.sh): a temp copy of what a lint
# reads, made fresh before each planted line, removed on exit.
#
#   lint_copy LINT ALLOW   T is a temp dir (gone on exit); LINT and ALLOW are
#                          the lint's script and its allow file in tools/
#   fresh                  $T/t holds src/, ui/ and the two tools as they are now
#   lint_refused FILE LINE [WANT]
#                          LINE appended to FILE must fail the lint, saying WANT
#                          (default: naming FILE); else fail() is called
#   lint_passes FILE LINE  LINE appended to FILE must pass the lint

lint_copy() {
	lint_sh=$1
	lint_allow=$2
	T=$(mktemp -d "${TMPDIR:-/tmp}/ds-lint.XXXXXX") || exit 1
	trap 'rm -rf "$T"' EXIT INT TERM
}

fresh() {
	rm -rf "$T/t"
	mkdir -p "$T/t/tools"
	cp -r src ui "$T/t/" && cp "tools/$lint_sh" "tools/$lint_allow" "$T/t/tools/"
}

lint_refused() {
	fresh
	printf '%s\n' "$2" >> "$T/t/$1"
	if o=$(sh "$T/t/tools/$lint_sh" 2>&1); then
		fail "$1 + '$2': the lint let it pass"
	else
		echo "$o" | grep -qF "${3:-$1:}" || fail "$1 + '$2': lint said '$o', not '${3:-$1:}'"
	fi
}

lint_passes() {
	fresh
	printf '%s\n' "$2" >> "$T/t/$1"
	o=$(sh "$T/t/tools/$lint_sh" 2>&1) || fail "$1 + '$2': refused: $o"
}
