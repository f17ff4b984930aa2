#!/bin/sh
# zram.sh - a zram device a benchmark owns (sourced by tests/bench/*.sh).
#
#   zram_need                 exit 77 (skip) unless root with zram-control
#   zram_new VAR SIZE_MB      a new device of SIZE_MB filled with random data
#                             (zram keeps zero pages as flags, which would
#                             flatter reads); VAR gets its number
#   zram_remove NUM           reset and remove it (from the cleanup trap)
#   zram_bench TAG SIZE_MB    a benchmark's start: zram_need, a temp dir T
#                             (/tmp/ds-TAG-*), a device Z of SIZE_MB; both gone
#                             on exit, with the loop device L when one is set

zram_need() {
	[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (zram)"; exit 77; }
	[ -e /sys/class/zram-control/hot_add ] || modprobe zram num_devices=0 2>/dev/null
	[ -e /sys/class/zram-control/hot_add ] || { echo "SKIP: no zram-control"; exit 77; }
}

zram_new() {
	_zr_n=$(cat /sys/class/zram-control/hot_add) || return 1
	eval "$1=\$_zr_n"
	echo "${2}M" > "/sys/block/zram$_zr_n/disksize" || return 1
	dd if=/dev/urandom of="/dev/zram$_zr_n" bs=1M count="$2" oflag=direct status=none
}

zram_remove() {
	[ -n "$1" ] || return 0
	echo 1 > "/sys/block/zram$1/reset" 2>/dev/null
	echo "$1" > /sys/class/zram-control/hot_remove 2>/dev/null
}

zram_cleanup() {
	[ -n "${L:-}" ] && loop_detach "$L"
	zram_remove "${Z:-}"
	rm -rf "$T"
}

zram_bench() {
	zram_need
	T=$(mktemp -d "/tmp/ds-$1-XXXXXX") || exit 1
	L=""
	Z=""
	trap zram_cleanup EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	zram_new Z "$2" || exit 1
}
