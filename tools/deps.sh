#!/bin/sh
# Install the Debian packages diskscope builds and tests with, when missing.
# Uses sudo when not root; retries once after refreshing the package lists.
# What the build needs must install (exit 1 otherwise); what only some tests
# use is installed the same way, but a package that cannot be installed is
# named on stderr and its tests skip, saying why (a mirror hiccup must not
# stop the build).
set -u
BUILD="gcc make pkg-config libatasmart-dev libpci-dev pci.ids pciutils liburing-dev libjson-c-dev
libinih-dev libsqlite3-dev libpq-dev libnvme-dev libsgutils2-dev libudev-dev libncurses-dev libcmocka-dev libfuse3-dev fuse3 mandoc python3
coreutils bash procps ncurses-base util-linux"
TESTS="fio tmux kmod e2fsprogs xz-utils cpio busybox-static qemu-system-x86"
TESTS="$TESTS valgrind"		# tests/sys/sanitizers.sh: list and the dashboard under memcheck
TESTS="$TESTS chromium"		# tests/sys/report-html.sh: renders the HTML report to PNG and PDF
TESTS="$TESTS poppler-utils"	# tests/sys/report-html.sh: pdftotext reads the printed report's column headers
TESTS="$TESTS postgresql"	# tests/sys/history-pg.sh: a throwaway server
TESTS="$TESTS nvme-cli"		# tests/hw/qemu-inventory.sh: nvme-cli's decoding, the NVMe ground truth
TESTS="$TESTS sg3-utils"	# tests/hw/qemu-scsi.sh: sg3_utils' decoding, the SCSI ground truth
# `deps.sh fuzz`: the libFuzzer toolchain instead (make fuzz, tests/sys/fuzz-brief.sh)
if [ "${1:-}" = fuzz ]; then
  BUILD="clang-14 libclang-rt-14-dev"
  TESTS=""
fi
missing_of() {
  m=""
  for p in "$@"; do
    dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed' || m="$m $p"
  done
  echo "$m"
}
# shellcheck disable=SC2086
mb=$(missing_of $BUILD)
# shellcheck disable=SC2086
mt=$(missing_of $TESTS)
[ -z "$mb$mt" ] && exit 0
echo "deps: installing:$mb$mt" >&2
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
apt() {	# PACKAGES...: install, once more after refreshing the lists
  # shellcheck disable=SC2086
  $SUDO apt-get install -y -qq --no-install-recommends "$@" >/dev/null 2>&1 && return 0
  [ -n "${refreshed:-}" ] || { $SUDO apt-get update -qq >/dev/null 2>&1; refreshed=1; }
  # shellcheck disable=SC2086
  $SUDO apt-get install -y -qq --no-install-recommends "$@" >/dev/null 2>&1
}
# shellcheck disable=SC2086
apt $mb $mt && exit 0
# one at a time: which one failed
if [ -n "$mb" ]; then
  # shellcheck disable=SC2086
  apt $mb || { echo "deps: could not install:$mb (apt-get failed)" >&2; exit 1; }
fi
for p in $mt; do
  apt "$p" || echo "deps: could not install $p (apt-get failed): the tests that need it skip" >&2
done
exit 0
