#!/bin/sh
# Run every test given: a program or a .sh script each.  Exit 0 = pass,
# 77 = skipped (the test prints "SKIP: reason"), anything else = fail.
# Logs go to build/test-logs/; failures print their tail.  The last line is
# "N passed, N failed, N skipped" (what CI reads).
LOGS=build/test-logs
mkdir -p "$LOGS"
# runs record into a history database: never the real user's (src/history),
# and each test its own (a test's recorded runs must not become another's
# history peers)
DATA=$(mktemp -d "${TMPDIR:-/tmp}/ds-check-data.XXXXXX"); trap 'rm -rf "$DATA"' EXIT
pass=0 fail=0 skip=0 failed=""
for t in "$@"; do
  name=$(echo "$t" | sed 's|^build/tests/|unit/|; s|^tests/||; s|\.sh$||')
  log="$LOGS/$(echo "$name" | tr / _).log"
  start=$(date +%s)
  XDG_DATA_HOME="$DATA/$(echo "$name" | tr / _)"; mkdir -p "$XDG_DATA_HOME"; export XDG_DATA_HOME
  case "$t" in
    *.sh) timeout -k 10 900 sh "$t" >"$log" 2>&1 ;;
    *)    timeout -k 10 300 "$t" >"$log" 2>&1 ;;
  esac
  rc=$?
  secs=$(( $(date +%s) - start ))
  if [ $rc -eq 0 ]; then
    pass=$((pass+1)); echo "PASS  $name (${secs}s)"
  elif [ $rc -eq 77 ]; then
    skip=$((skip+1))
    why=$(grep -h 'SKIP' "$log" | tail -1)
    echo "SKIP  $name: ${why:-no reason printed}"
  else
    fail=$((fail+1)); failed="$failed $name"
    echo "FAIL  $name (exit $rc, ${secs}s) — last lines of $log:"
    tail -n 25 "$log" | sed 's/^/      /'
  fi
done
[ -n "$failed" ] && echo "failed:$failed"
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
