#!/bin/sh
# lint-names.sh - no test's name outside its own files.  A test's registry
# name (src/bench/registry.c, the X(name) lines) may appear as a string
# literal (or quoted inside one: SQL's 'name') only in src/bench/ (the
# tests and their registry), in tests/ and
# in the docs: every other part asks a test's flags (TEST_*) and its tables'
# roles (run/result.h), never its name.  Comments do not count.  A literal
# that is the same word but no test's name (the sim model's [smr] section,
# the inventory's "smr" JSON key) is listed in tools/lint-names.allow as
# "FILE NAME WHY".  Prints each literal found and exits 1.
set -eu
cd "$(dirname "$0")/.."
allow=tools/lint-names.allow
[ -r src/bench/registry.c ] || { echo "lint-names: no src/bench/registry.c"; exit 1; }
[ -r "$allow" ] || { echo "lint-names: no $allow"; exit 1; }
names=$(sed -n 's/^[[:space:]]*X(\([a-z0-9_]*\))[[:space:]]*\\$/\1/p' src/bench/registry.c)
[ -n "$names" ] || { echo "lint-names: no test names in src/bench/registry.c"; exit 1; }
CC=${CC:-cc}
bad=0
for f in $(find src ui -name '*.[ch]' ! -path 'src/bench/*' | LC_ALL=C sort); do
	# the file without its comments (strings kept), as the compiler sees it
	text=$($CC -fpreprocessed -dD -E -P -x c "$f" 2>/dev/null) || {
		echo "lint-names: $f: could not be read"; bad=1; continue; }
	for n in $names; do
		printf '%s\n' "$text" | grep -Eq "[\"']$n[\"']" || continue
		if awk -v f="$f" -v n="$n" '$1 == f && $2 == n { ok = 1 } END { exit !ok }' "$allow"; then
			continue
		fi
		printf '%s\n' "$text" | grep -En "[\"']$n[\"']" | while IFS= read -r l; do
			echo "lint-names: $f: the test name \"$n\" as a literal: ask the test's flags or a table's role (run/result.h), or list it in $allow: $l"
		done
		bad=1
	done
done
# an allowance no file needs any more is stale
while read -r f n why; do
	case "$f" in '#'* | '') continue ;; esac
	[ -n "$why" ] || { echo "lint-names: $allow: $f $n: no reason given"; bad=1; continue; }
	if [ ! -r "$f" ] || ! $CC -fpreprocessed -dD -E -P -x c "$f" 2>/dev/null | grep -Eq "[\"']$n[\"']"; then
		echo "lint-names: $allow: $f has no \"$n\" literal any more: drop the line"
		bad=1
	fi
done < "$allow"
exit $bad
