#!/bin/sh
# Install the Debian packages diskscope builds and tests with, when missing.
# Uses sudo when not root; retries once after refreshing the package lists.
set -u
PKGS="gcc make pkg-config libatasmart-dev libpci-dev pci.ids pciutils liburing-dev libjson-c-dev
libinih-dev libsqlite3-dev libncurses-dev libcmocka-dev libfuse3-dev fuse3 fio tmux mandoc util-linux kmod
e2fsprogs xz-utils cpio busybox-static qemu-system-x86 python3 coreutils bash procps ncurses-base"
PKGS="$PKGS valgrind"	# tests/sys/sanitizers.sh: list and the dashboard under memcheck
PKGS="$PKGS chromium"	# tests/sys/report-html.sh: renders the HTML report to PNG and PDF
PKGS="$PKGS libpq-dev postgresql"	# history on a PostgreSQL server; tests/sys/history-pg.sh
# `deps.sh fuzz`: the libFuzzer toolchain instead (make fuzz, tests/sys/fuzz-brief.sh)
[ "${1:-}" = fuzz ] && PKGS="clang-14 libclang-rt-14-dev"
missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "deps: installing:$missing" >&2
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC2086
if ! $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null 2>&1; then
  $SUDO apt-get update -qq || true
  # shellcheck disable=SC2086
  $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null || {
    echo "deps: could not install:$missing (apt-get failed)" >&2; exit 1; }
fi
