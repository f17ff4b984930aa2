#!/bin/sh
# lint-layers.sh - check every #include in src/ and ui/ against the layer
# table, tools/layers.txt (its parts, arrows and never-arrows; the one
# source).  Refuses: a file in no part, an include along no arrow (none is
# allowed by reach), an arrow no include uses, an arrow the table also says
# never, a circle of arrows, and a header declaring a function or naming a
# struct of a part its own may never reach (history.h declaring cli's
# history_cli).  Prints each and exits 1.
#   --arrows  print the arrows, one line per part (README's "How it is built")
# LAYERS_TABLE=FILE checks against another table (tests/docs/layers.sh).
set -eu
cd "$(dirname "$0")/.."
table=${LAYERS_TABLE:-tools/layers.txt}
mode=check
[ "${1:-}" = --arrows ] && mode=arrows
[ -r "$table" ] || { echo "lint-layers: no table $table"; exit 1; }

find src ui -name '*.[ch]' | LC_ALL=C sort | awk -v mode="$mode" -v table="$table" '
function err(msg) { print msg; bad = 1 }
function exists(p,   l) { if ((getline l < p) >= 0) { close(p); return 1 } return 0 }
# a/b/../c -> a/c, ./ dropped
function norm(p,   n, a, i, out, k, o) {
	n = split(p, a, "/"); k = 0
	for (i = 1; i <= n; i++) {
		if (a[i] == "." || a[i] == "") continue
		if (a[i] == ".." && k > 0 && o[k] != "..") { k--; continue }
		o[++k] = a[i]
	}
	out = o[1]
	for (i = 2; i <= k; i++) out = out "/" o[i]
	return out
}
# the part a file belongs to: the longest path of the table that holds it
function part_of(f,   i, best, bl, p) {
	best = ""; bl = 0
	for (i = 1; i <= npath; i++) {
		p = path[i]
		if ((p ~ /\/$/ ? substr(f, 1, length(p)) == p : f == p) && length(p) > bl) {
			best = pathpart[i]; bl = length(p)
		}
	}
	return best
}
function reason(s, n,   i) {	# fields n.. of the current line
	s = ""
	for (i = n; i <= NF; i++) s = s (s == "" ? "" : " ") $i
	return s
}
function visit(a,   b) {	# depth-first; state 1 on the stack, 2 done
	state[a] = 1
	for (b in parts)
		if ((a SUBSEP b) in arrow && b != a) {
			if (state[b] == 1) err(table ": the arrows make a circle through " a " -> " b)
			else if (!state[b]) visit(b)
		}
	state[a] = 2
}
BEGIN {
	while ((getline line < table) > 0) {
		sub(/#.*/, "", line)
		n = split(line, w, " ")
		if (n == 0) continue
		$0 = line
		if ($1 == "part") {
			parts[$2] = 1; order[++nparts] = $2
			for (i = 3; i <= NF; i++) { path[++npath] = $i; pathpart[npath] = $2 }
		} else if ($1 == "arrow" && $3 == "->" && NF >= 5) {
			arrow[$2, $4] = reason("", 5); alist[++narrow] = $2 SUBSEP $4
		} else if ($1 == "never") {
			for (i = 2; i <= NF && $i != "->"; i++) nf[++nnf] = $i
			for (i++; i <= NF && ($i in parts); i++) nt[++nnt] = $i
			why = reason("", i)
			for (a = 1; a <= nnf; a++) for (b = 1; b <= nnt; b++) never[nf[a], nt[b]] = why
			nnf = nnt = 0
		} else err(table ": cannot read: " line)
	}
	for (k in arrow) { split(k, ab, SUBSEP)
		if (ab[1] != "*" && !(ab[1] in parts) || !(ab[2] in parts)) err(table ": arrow " ab[1] " -> " ab[2] ": no such part")
		if (k in never) err(table ": arrow " ab[1] " -> " ab[2] " is also a never-arrow (" never[k] ")") }
	for (k in never) { split(k, ab, SUBSEP)
		if (!(ab[1] in parts) || !(ab[2] in parts)) err(table ": never " ab[1] " -> " ab[2] ": no such part") }
	if (mode == "arrows") {
		for (i = 1; i <= nparts + 1; i++) {
			a = i <= nparts ? order[i] : "*"; s = ""
			for (j = 1; j <= narrow; j++) { split(alist[j], ab, SUBSEP); if (ab[1] == a) s = s " " ab[2] }
			if (s != "") printf "%-10s ->%s\n", a, s
		}
		exit bad
	}
	for (i = 1; i <= nparts; i++) if (!state[order[i]]) visit(order[i])
}
{	# one source file
	f = $0; from = part_of(f)
	if (from == "") { err(f ": in no part of " table); next }
	filepart[f] = from
	dir = f; sub(/\/[^\/]*$/, "", dir)
	prev = ""
	while ((getline line < f) > 0) {
		if (line ~ /^[ \t]*#[ \t]*include[ \t]*"/) {
			inc = line; sub(/^[ \t]*#[ \t]*include[ \t]*"/, "", inc); sub(/".*/, "", inc)
			# as the compiler resolves it: beside the file, then -Isrc, then -Iui
			if (exists(dir "/" inc)) p = norm(dir "/" inc)
			else if (exists("src/" inc)) p = "src/" inc
			else if (exists("ui/" inc)) p = "ui/" inc
			else p = ""	# generated (build/) or a system header in quotes
			to = p == "" ? "" : part_of(p)
			if (to != "" && to != from) {
				if ((from SUBSEP to) in arrow) used[from, to] = 1
				else if (("*" SUBSEP to) in arrow) used["*", to] = 1
				else if ((from SUBSEP to) in never)
					err(f ": includes " inc " (" from " -> " to " must never be: " never[from, to] ")")
				else err(f ": includes " inc " (" from " -> " to " is no arrow of " table ")")
			}
		}
		# a function defined here, not static: "name(" at the start of a
		# line (the house style puts the type on the line before)
		if (f ~ /\.c$/ && line ~ /^[a-z_][a-z0-9_]*\(/ && prev !~ /^static/) {
			fn = line; sub(/\(.*/, "", fn); defd[fn] = from
		}
		if (f ~ /\.h$/ && line ~ /^struct [a-z_][a-z0-9_]* \{/) {
			st = line; sub(/^struct /, "", st); sub(/ .*/, "", st); stype[st] = from
		}
		if (f ~ /\.h$/) hdr[f] = hdr[f] "\n" line
		prev = line
	}
	close(f)
}
END {
	if (mode == "arrows") exit bad
	for (j = 1; j <= narrow; j++) if (!(alist[j] in used)) { split(alist[j], ab, SUBSEP)
		err(table ": arrow " ab[1] " -> " ab[2] " is used by no include: remove it") }
	for (h in hdr) for (fn in defd)
		if ((filepart[h] SUBSEP defd[fn]) in never && match(hdr[h], "[^a-z0-9_]" fn "[ \t]*\\("))
			err(h ": declares " fn "() of " defd[fn] " (" filepart[h] " -> " defd[fn] " must never be: " never[filepart[h], defd[fn]] ")")
	for (h in hdr) for (st in stype)
		if ((filepart[h] SUBSEP stype[st]) in never && match(hdr[h], "struct " st "[^a-z0-9_]"))
			err(h ": names struct " st " of " stype[st] " (" filepart[h] " -> " stype[st] " must never be: " never[filepart[h], stype[st]] ")")
	exit bad
}'
