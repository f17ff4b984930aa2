#!/bin/sh
# `make install` honours PREFIX and DESTDIR; `make uninstall` removes what it put.
set -u
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
make -s install DESTDIR="$d" PREFIX=/opt/ds >/dev/null || { echo "make install failed"; exit 1; }
rc=0
for f in /opt/ds/bin/diskscope /opt/ds/share/man/man1/diskscope.1 /opt/ds/share/man/man5/diskscope-theme.5 \
         /opt/ds/share/diskscope/themes/default.theme; do
  [ -f "$d$f" ] || { echo "not installed: $f"; rc=1; }
done
"$d/opt/ds/bin/diskscope" --version | grep -q '^diskscope ' || { echo "installed binary does not run"; rc=1; }
# it looks for themes where they were installed, not where a default PREFIX would put them
grep -aq '/opt/ds/share/diskscope' "$d/opt/ds/bin/diskscope" || { echo "installed binary searches another data dir"; rc=1; }
make -s uninstall DESTDIR="$d" PREFIX=/opt/ds >/dev/null || { echo "make uninstall failed"; exit 1; }
left=$(find "$d" -type f | head -5)
make -s >/dev/null	# back to the default PREFIX for the tests that follow
[ -z "$left" ] || { echo "left after uninstall: $left"; rc=1; }
exit $rc
