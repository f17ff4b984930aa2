#!/bin/sh
# lint-size.sh - every .c in src/ and ui/ is at most 800 lines and every
# function at most 120 (from the line naming it to its closing brace).  A
# longer function passes when the comment right above it says why with
# "long:" (one table, one switch), or when tools/size-allow.txt lists it
# (a file or function someone is shortening; an entry that is no longer
# long is refused too, so the list only shrinks).  Prints each and exits 1.
# Functions are found by the tree's style: the name at the start of a line,
# the body's braces alone at column 0.
set -eu
cd "$(dirname "$0")/.."
allow=tools/size-allow.txt
[ -r "$allow" ] || { echo "lint-size: no $allow"; exit 1; }
MAX_FILE=${MAX_FILE:-800}
MAX_FN=${MAX_FN:-120}

find src ui -name '*.c' | LC_ALL=C sort | awk -v allow="$allow" -v maxf="$MAX_FILE" -v maxfn="$MAX_FN" '
function err(msg) { print msg; bad = 1 }
function is_comment(l) { return l ~ /^[ \t]*(\/\*|\*)/ || l ~ /\*\/[ \t]*$/ }
# the comment right above line n (the function) says "long:"
function says_long(n,   k) {
	for (k = n - 1; k > 0 && is_comment(ln[k]); k--)
		if (ln[k] ~ /long:/)
			return 1
	return 0
}
function check_file(f,   n, l, infn, name, nl, top, len, key) {
	n = 0; infn = 0; name = ""
	while ((getline l < f) > 0) {
		ln[++n] = l
		if (infn) {
			if (l ~ /^\}/) {
				len = n - nl + 1; key = f " " name
				if (key in allowed) used[key] = len > maxfn
				else if (len > maxfn && !says_long(top))
					err(f ":" nl ": " name "() is " len " lines (over " maxfn "): split it, or say why above it with \"long:\"")
				infn = 0; name = ""
			}
			continue
		}
		if (l ~ /^[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/) {		# the name; its type on the line before
			name = l; sub(/[ \t]*\(.*/, "", name); nl = n; top = n - 1
		} else if (l ~ /^[A-Za-z_].*[ \t*][A-Za-z_][A-Za-z0-9_]*\(/ && l !~ /=/) {	# type and name
			name = l; sub(/\(.*/, "", name); sub(/.*[ \t*]/, "", name); nl = n; top = n
		}
		if (l ~ /;[ \t]*$/ || l ~ /^#/)
			name = ""		# a declaration, not a definition
		else if (l ~ /^\{/ && name != "")
			infn = 1
	}
	close(f)
	if (n > maxf) {
		key = f " -"
		if (key in allowed) used[key] = 1
		else err(f ": " n " lines (over " maxf "): split it by concern")
	} else if ((f " -") in allowed)
		used[f " -"] = 0
	split("", ln)
}
BEGIN {
	while ((getline l < allow) > 0) {
		if (l ~ /^[ \t]*(#|$)/) continue
		split(l, a, /[ \t]+/)
		if (a[3] == "") { err(allow ": \"" l "\": FILE FUNCTION|- REASON"); continue }
		allowed[a[1] " " a[2]] = 1
	}
	close(allow)
}
{ check_file($0); seen[$0] = 1 }
END {
	for (key in allowed) {
		split(key, a, " ")
		if (!(a[1] in seen)) err(allow ": " a[1] ": no such file")
		else if (!(key in used)) err(allow ": " a[1] ": no function " a[2] "()")
		else if (!used[key]) err(allow ": " a[1] " " a[2] " is no longer long: remove its line")
	}
	exit bad
}'
