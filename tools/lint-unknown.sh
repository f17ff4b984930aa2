#!/bin/sh
# lint-unknown.sh - "unknown" is said one way: util/known.h (a value with its
# known bit), JSON null from report/doc.c, "unknown" on screen from
# known_fmt_*.  This refuses the other ways in src/ and ui/: NAN, isnan(),
# "== -1" and "< 0" in code (comments are not read).  What is no value is
# allowed by a pattern in tools/lint-unknown.allow (an errno return, an
# index, a loop counter, a float series' gap), each with its reason.  Prints
# each hit no pattern allows and exits 1.  An allow line that matches
# nothing is named too (a pattern outlives what it allowed), as a note.
# LINT_UNKNOWN_ALLOW=FILE checks against another list (tests/docs/lint-unknown.sh).
set -eu
cd "$(dirname "$0")/.."
allow=${LINT_UNKNOWN_ALLOW:-tools/lint-unknown.allow}
[ -r "$allow" ] || { echo "lint-unknown: no allow list $allow"; exit 1; }

awk -v allow="$allow" '
# a path glob (* any run of characters) as an anchored ERE
function glob_re(g,   r) {
	r = g
	gsub(/[.+?()|{}^$]/, "\\\\&", r)
	gsub(/\*/, ".*", r)
	return "^" r "$"
}
BEGIN {
	n = 0
	while ((getline l < allow) > 0) {
		ln++
		if (l ~ /^[ \t]*(#|$)/)
			continue
		# GLOB ERE # WHY: the glob is the first word, the reason follows the last " # "
		sp = index(l, " ")
		hash = 0
		for (i = length(l) - 2; i > sp; i--)
			if (substr(l, i, 3) == " # ") { hash = i; break }
		if (!sp || !hash) {
			print allow ":" ln ": not GLOB ERE # WHY: " l
			bad = 1
			continue
		}
		n++
		g[n] = glob_re(substr(l, 1, sp - 1))
		re[n] = substr(l, sp + 1, hash - sp - 1)
		sub(/^[ \t]+/, "", re[n]); sub(/[ \t]+$/, "", re[n])
		line_of[n] = ln
		src[n] = l
		used[n] = 0
	}
	close(allow)
	hit = "(^|[^A-Za-z0-9_])NAN([^A-Za-z0-9_]|$)|(^|[^A-Za-z0-9_])isnan[ \t]*\\(|==[ \t]*-1([^0-9.]|$)|(^|[^<])<[ \t]*0([^.0-9xX]|$)"
}
FNR == 1 { incomment = 0 }
{
	t = $0
	# drop comments: a block still open from an earlier line, then those on this line
	if (incomment) {
		e = index(t, "*/")
		if (!e) next
		t = substr(t, e + 2); incomment = 0
	}
	while ((s = index(t, "/*")) > 0) {
		rest = substr(t, s + 2)
		e = index(rest, "*/")
		if (!e) { t = substr(t, 1, s - 1); incomment = 1; break }
		t = substr(t, 1, s - 1) " " substr(rest, e + 2)
	}
	if ((s = index(t, "//")) > 0)
		t = substr(t, 1, s - 1)
	if (t !~ hit)
		next
	for (i = 1; i <= n; i++)
		if (FILENAME ~ g[i] && t ~ re[i]) { used[i]++; next }
	sub(/^[ \t]+/, "", t)
	print FILENAME ":" FNR ": " t
	bad = 1
	nbad++
}
END {
	for (i = 1; i <= n; i++)
		if (!used[i])
			print "lint-unknown: note: " allow ":" line_of[i] " allows nothing now: " src[i] > "/dev/stderr"
	if (bad) {
		print "lint-unknown: " nbad " place(s) say unknown as NAN, -1, 0 or a negative number:" \
		      " use util/known.h (struct known_*, JSON null by doc_known_*, text by known_fmt_*)," \
		      " or add a pattern with its reason to " allow " when it is no value (an errno, an index)"
		exit 1
	}
}' $(find src ui -name '*.[ch]' | LC_ALL=C sort)
