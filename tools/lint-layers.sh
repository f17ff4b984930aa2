#!/bin/sh
# lint-layers.sh - check which folder may include which (DESIGN.md "Layers").
# The table lists the direct arrows; a folder may include its own headers,
# util/, and anything its arrows reach (bench -> run -> io -> sim: bench may
# include sim).  The arrows form no circle, so neither can the includes.
# Prints each include that breaks it and exits 1.
set -eu
cd "$(dirname "$0")/.."

# folder: the folders it points at directly
table='
main: cli ui history
ui: run bench inventory report cli
cli: run bench report inventory history
bench: run
report: run
history: report run
run: io
io: sim
sim: inventory
inventory:
util:
'
# Documented exceptions (keep this list short):
#  ui -> cli      the dashboard's typed parameter fields and its start from
#                 the command line go through the run option table
#                 (cli/options.h: plan_set_option, plan_parse_args), so the
#                 dashboard and `run` accept exactly the same values.
#  sim -> inventory  the rig's drives are inventory drives (sim fills them
#                 through inventory_opts.extra_drives, an interface the
#                 inventory owns); the inventory itself never includes sim.

# A source file's folder: src/X/... is X, src/main*.c|h is main, ui/ is ui.
folder_of() {
	case $1 in
	src/main*) echo main ;;
	src/*/*) f=${1#src/}; echo "${f%%/*}" ;;
	ui/*) echo ui ;;
	*) echo "?" ;;
	esac
}

# reach FOLDER: FOLDER, util and every folder its arrows reach.
reach() {
	seen=" $1 util "
	todo=$1
	while [ -n "$todo" ]; do
		set -- $todo
		cur=$1
		shift
		todo=$*
		next=$(printf '%s\n' "$table" | sed -n "s/^$cur:[[:space:]]*//p")
		for n in $next; do
			case $seen in *" $n "*) continue ;; esac
			seen="$seen$n "
			todo="$todo $n"
		done
	done
	echo "$seen"
}

bad=0
for f in $(find src ui -name '*.[ch]' | sort); do
	from=$(folder_of "$f")
	ok=$(reach "$from")
	dir=$(dirname "$f")
	for inc in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
		# resolve as the compiler would: beside the file, then -Isrc, then -Iui
		if [ -e "$dir/$inc" ]; then p=$(realpath --relative-to=. "$dir/$inc")
		elif [ -e "src/$inc" ]; then p=src/$inc
		elif [ -e "ui/$inc" ]; then p=ui/$inc
		else continue	# generated (build/) or a system header in quotes
		fi
		to=$(folder_of "$p")
		case $ok in *" $to "*) ;; *)
			echo "$f: includes $inc ($from -> $to is not an allowed arrow; see tools/lint-layers.sh)"
			bad=1 ;;
		esac
	done
done
exit $bad
