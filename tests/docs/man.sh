#!/bin/sh
# The man pages exist and are clean under mandoc -Tlint (warnings are failures),
# and every global option that --help lists is documented in diskscope(1).
command -v mandoc >/dev/null || { echo "SKIP: mandoc not installed"; exit 77; }
rc=0
for p in man/diskscope.1 man/diskscope-theme.5; do
  [ -f "$p" ] || { echo "missing $p"; rc=1; continue; }
  mandoc -Tlint -W warning "$p" || rc=1
done
for opt in $(build/diskscope --help | sed -n 's/^  --\([a-z-]*\).*/\1/p'); do
  grep -qF "Fl \\-$opt" man/diskscope.1 || { echo "--$opt is in --help but not in man/diskscope.1"; rc=1; }
done
exit $rc
