#!/bin/sh
# qemu-scsi.sh - the SCSI drive class on a real kernel's SCSI stack: scsi_debug in a
# QEMU guest (a stock Debian kernel), loaded once per variant - 512 (default), 512e
# (physblk_exp=3), 4Kn (sector_size=4096), protection (dif=1), medium errors at set
# LBAs (opts=2), host-managed zoned (zbc=managed).  For each, `diskscope list --json`
# and --save-blobs, and sg3_utils' own answers (sg_inq, sg_vpd, sg_readcap --16,
# sg_logs, raw and decoded) as the ground truth; check-scsi.py holds diskscope's
# transport, sizes, format and log-page facts against them, and the read-only
# surface scan must find the medium errors at those LBAs; the dashboard's details
# panel (under tmux in the guest) shows the SCSI section.
#
# The LOG SENSE pages this guest's scsi_debug (Debian 12, 6.1.0) implements - the
# check asserts the list, in every variant: 0x00 (supported pages), 0x0D
# (temperature), 0x2F (informational exceptions).  No error counters, self-test
# results, start-stop or background scan page, and no READ DEFECT DATA: those are
# fixtures (tests/fixtures/scsi/README).  About 70 s under TCG.
# Exit 0 pass, 77 skip, else fail.  Knobs: HWQ_KEEP=1 keeps the work dir.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
. "$HERE/lib-qemu.sh"

hwq_begin scsi
for t in sg_inq sg_vpd sg_readcap sg_logs; do
	command -v $t >/dev/null 2>&1 || hwq_skip "$t not found (tools/deps.sh installs sg3-utils)"
done

# The medium error range (scsi_debug counts it in logical blocks)
MED_START=2000 MED_COUNT=16

hwq_kernel
R=$W/root
hwq_guest_lib "$R"
cat >"$R/init" <<EOF
#!/bin/busybox sh
. /etc/hwq-guest.sh
MED_START=$MED_START MED_COUNT=$MED_COUNT
EOF
cat >>"$R/init" <<'EOF'
hwq_g_start
O=/tmp/out; mkdir -p $O
# scsi_debug came up with its defaults (the "512" variant); the others reload it
wait_sd() {
	i=0
	while [ $i -lt 300 ]; do
		ls /sys/block | grep -q '^sd' && ls /sys/class/scsi_generic | grep -q sg && return 0
		sleep 0.1; i=$((i + 1))
	done
	echo "no sd disk from scsi_debug $*"
	return 1
}
capture() {	# VARIANT
	v=$1
	d=$(ls /sys/block | grep '^sd' | head -1)
	sg=/dev/$(ls /sys/block/$d/device/scsi_generic | head -1)
	echo "$d $sg" >$O/$v.nodes
	timeout 60 diskscope list --json >$O/$v.list.json 2>$O/$v.list.err
	timeout 60 diskscope list >$O/$v.list.txt 2>&1
	rm -rf /tmp/b; mkdir -p /tmp/b
	timeout 60 diskscope --save-blobs /tmp/b list >/dev/null 2>&1
	for f in /tmp/b/*.scsi-*; do [ -f "$f" ] && cp "$f" "$O/$v.${f##*/}"; done
	timeout 20 sg_inq $sg >$O/$v.sg-inq.txt 2>&1
	timeout 20 sg_inq --raw $sg >$O/$v.sg-inq.bin 2>/dev/null
	for p in 0x00 0x80 0x83 0x89 0xb0 0xb1 0xb2; do
		timeout 20 sg_vpd --page=$p $sg >$O/$v.sg-vpd$p.txt 2>&1
		timeout 20 sg_vpd --page=$p --raw $sg >$O/$v.sg-vpd$p.bin 2>/dev/null
	done
	timeout 20 sg_readcap --16 $sg >$O/$v.sg-rc16.txt 2>&1
	timeout 20 sg_readcap --16 --raw $sg >$O/$v.sg-rc16.bin 2>/dev/null
	timeout 20 sg_logs $sg >$O/$v.sg-logs.txt 2>&1
	timeout 20 sg_logs --all $sg >$O/$v.sg-logs-all.txt 2>&1
	for p in 0x00 0x0d 0x2f 0x02 0x03 0x05 0x06 0x0e 0x10 0x15; do
		timeout 20 sg_logs --page=$p --raw $sg >$O/$v.sg-log$p.bin 2>/dev/null
		timeout 20 sg_logs --page=$p $sg >$O/$v.sg-log$p.txt 2>&1
	done
}
variant() {	# NAME PARAMS...
	v=$1; shift
	rmmod scsi_debug 2>/dev/null
	i=0
	while ls /sys/block | grep -q '^sd' && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	insmod /lib/modules/scsi_debug.ko dev_size_mb=16 "$@" || echo "insmod scsi_debug $* failed"
	wait_sd "$@" && capture "$v"
	echo "@@T $v=$(hwq_g_up)"
}
insmod /lib/modules/scsi_debug.ko dev_size_mb=16
wait_sd && capture 512
echo "@@T 512=$(hwq_g_up)"
# the dashboard's details panel on the SCSI drive (when tmux is in the image): the
# selection moves down the tree until the panel shows its SCSI section
hwq_g_dash sda 'SCSI: sas' $O/dash-scsi.txt
variant 512e physblk_exp=3
variant 4kn sector_size=4096
variant dif dif=1
variant medium opts=2 medium_error_start=$MED_START medium_error_count=$MED_COUNT
d=$(ls /sys/block | grep '^sd' | head -1)
timeout 120 diskscope run surface /dev/$d --bs 4k --json $O/medium.surface.json \
	>$O/medium.surface.txt 2>&1; echo $? >$O/medium.surface.rc
variant zbc zbc=managed zone_size_mb=4
hwq_g_send $O
hwq_g_end
EOF
hwq_tmux_files "$R"
hwq_initramfs "$R" "$W/initramfs.cpio" "sd_mod sg scsi_debug" \
	"$BIN" "$(command -v sg_inq)" "$(command -v sg_vpd)" "$(command -v sg_readcap)" \
	"$(command -v sg_logs)" $(command -v tmux) || { echo "FAIL: could not build the initramfs"; exit 1; }
# scsi_debug is inserted by the guest's init, with each variant's parameters
sed -i '/^scsi_debug\.ko$/d' "$R/etc/modules.order"
(cd "$R" && find . | LC_ALL=C sort | timeout 120 cpio -o -H newc -R 0:0 --quiet) >"$W/initramfs.cpio"
hwq_log "initramfs $(du -h "$W/initramfs.cpio" | cut -f1)"

hwq_run_guest "$W/out.txt" "$W/console.txt"
hwq_unpack "$W/out.txt" "$W/got" || exit 1
[ -n "${SCSI_CAPTURE_DIR:-}" ] && mkdir -p "$SCSI_CAPTURE_DIR" && cp "$W"/got/* "$SCSI_CAPTURE_DIR"/
timeout 120 python3 "$HERE/check-scsi.py" "$W/got" "$MED_START" "$MED_COUNT"
rc=$?
hwq_log "done"
exit $rc
