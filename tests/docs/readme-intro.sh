#!/bin/sh
# readme-intro.sh - the README's first paragraph describes what the program
# does today: every test it offers is named there, and a test the design
# plans (surface, align, smr, quick, triage, filemix) is mentioned only as
# planned until `run --help` lists it.
DS=${DISKSCOPE:-build/diskscope}
[ -x "$DS" ] || { echo "SKIP: $DS not built"; exit 77; }
fail=0
intro=$(awk 'NR > 1 && /^$/ && seen { exit } NR > 1 && NF { seen = 1; print }' README.md | tr '\n' ' ')
tests=$("$DS" run --help | sed -n '/^tests:/,/^options:/p' | awk '/^  [a-z]/ {print $1}')
[ -n "$tests" ] || { echo "FAIL: no tests in run --help"; exit 1; }
# what each offered test is called in prose
for t in $tests; do
	case $t in
	seqread) w='sequential read' ;; seqwrite) w='write' ;; randread) w='random read' ;;
	randwrite) w='random read or write|random write' ;; saturate) w='saturation' ;;
	surface) w='surface scan' ;; align) w='alignment' ;; smr) w='SMR probe' ;; quick) w='quick grid' ;;
	*) w=$t ;;
	esac
	echo "$intro" | grep -qiE "$w" || { echo "FAIL: README intro does not mention $t ($w)"; fail=1; }
	# a test that exists is not called planned
	echo "$intro" | tr '.' '\n' | grep -iE "$w" | grep -qiE 'planned|not there yet' &&
		{ echo "FAIL: README intro calls $t ($w) planned, but run --help lists it"; fail=1; }
done
# planned tests: only as planned, until they exist
for pair in surface:'surface scan' align:'alignment' smr:'SMR probe' quick:'quick grid'; do
	t=${pair%%:*} w=${pair#*:}
	echo "$tests" | grep -qx "$t" && continue
	s=$(echo "$intro" | tr '.' '\n' | grep -i "$w")
	[ -z "$s" ] || echo "$s" | grep -qiE 'planned|not there yet|later' ||
		{ echo "FAIL: README intro offers '$w', which run --help does not list: $s"; fail=1; }
done
[ $fail = 0 ] && echo "README intro ok"
exit $fail
