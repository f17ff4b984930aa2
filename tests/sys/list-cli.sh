#!/bin/sh
# `diskscope list`: the table fits 100 columns (demo rig and this machine),
# JSON is one valid document, and bad input gets one line and exit 2.
DS=${DISKSCOPE:-build/diskscope}
fail=0
bad() { echo "FAIL: $*"; fail=1; }
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT

for args in "--demo list" "list"; do
  # shellcheck disable=SC2086
  $DS $args >"$T/out" 2>"$T/err"; rc=$?
  [ $rc -eq 0 ] || bad "$args: exit $rc: $(cat "$T/err")"
  long=$(awk 'length($0) > 100 { print length($0) ": " $0 }' "$T/out" | head -3)
  [ -z "$long" ] || bad "$args: lines wider than 100 columns: $long"
done
grep -q '88SE9485' "$T/out" && bad "plain list shows the demo rig"

$DS --demo list --json >"$T/j" || bad "list --json failed"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["schema"] == 1; assert d["inventory"]["drives"]' "$T/j" ||
  bad "list --json is not one schema-1 document"

# this machine's /dev/vda refuses open even to root: shown, not hidden
if [ -b /dev/vda ] && ! python3 -c 'import os; os.close(os.open("/dev/vda", os.O_RDONLY))' 2>/dev/null; then
  $DS list | grep -E '^  vda .*no access \(E[A-Z]+\)' >/dev/null || bad "vda not shown as 'no access (E...)'"
fi

check_bad() {  # expected-exit, expected-text, args...
  want=$1; text=$2; shift 2
  "$DS" "$@" >"$T/out" 2>"$T/err"; rc=$?
  [ $rc -eq "$want" ] || bad "$*: exit $rc, want $want"
  [ "$(wc -l <"$T/err")" -eq 1 ] || bad "$*: want one line on stderr, got: $(cat "$T/err")"
  grep -q -- "$text" "$T/err" || bad "$*: stderr lacks '$text': $(cat "$T/err")"
  [ -s "$T/out" ] && bad "$*: wrote to stdout on bad input"
}
check_bad 2 "sysfs root /nonexistent-ds: No such file" --sysfs-root /nonexistent-ds list
check_bad 2 "pci dump /nonexistent-ds.dump: No such file" --pci-dump /nonexistent-ds.dump list
check_bad 2 "unknown option '--bogus'" list --bogus
check_bad 2 "--glyphs: bad value 'x'" --glyphs x list
check_bad 2 "--ata-blob: bad value" --ata-blob nofile list
check_bad 2 "unknown command or test 'frobnicate'" frobnicate
exit $fail
