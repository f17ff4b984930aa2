#!/bin/sh
# qemu-inventory.sh - the real binary on a real kernel with emulated real hardware.
#
# Boots a stock Debian kernel under QEMU (q35, TCG) with AHCI SATA disks of chosen
# model/serial/firmware/sector sizes/rotation, an add-in AHCI behind a 5GT/s x2 PCIe root
# port, a MegaRAID SAS HBA with a 4Kn SCSI disk, NVMe on a root port and on the root
# complex; runs build/diskscope `list --json` inside and checks the inventory against
# the rig described below (check-inventory.py).  Exit 0 pass, 77 skip, else fail.
# Knobs: HWQ_KEEP=1 keeps the work dir; see lib-qemu.sh for the others.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
. "$HERE/lib-qemu.sh"

hwq_begin hw

# ---------------------------------------------------------------- the rig
# One table drives both the QEMU command line and the expectations.
# ctrl|NAME|QEMU DEVICE|SLOT (on pcie.0, or on its root port)|ROOT PORT SLOT|PORT GT/s|PORT WIDTH
# disk|CTRL|PORT|MODEL|SERIAL|FIRMWARE|LOGICAL|PHYSICAL|ROTATION (0 = not reported, 1 = SSD)|MiB|VENDOR|WWN
# q35 puts its own ICH9 AHCI at 00:1f.2 (buses ide.0..5); everything else sits where addr= says.
# NVMe model and firmware are fixed by QEMU ("-" here); its namespaces report no physical
# block size in QEMU 7.2 (so none is configured beyond the logical one).
cat >"$W/rig.txt" <<'EOF'
ctrl|onboard|ich9-ahci|1f.2|-|-|-
ctrl|addin|ahci|00.0|02.0|5|2
ctrl|sas|megasas-gen2|00.0|03.0|8|8
ctrl|nvrp|nvme|00.0|01.0|8|4
ctrl|nvrc|nvme|05.0|-|-|-
disk|onboard|0|ST4000NM0035-1V4107|ZC1QEMU01|TNA5|512|4096|7200|1536||0x5000c500a1b2c3d4
disk|onboard|1|Samsung SSD 870 EVO 500GB|S6PXNS0T100002|SVT01B6Q|512|512|1|1024|
disk|onboard|2|TOSHIBA DT01ACA100|Z5QEMU003|MS2OA750|512|512|0|768|
disk|addin|0|WDC WD40EFRX-68N32N0|WD-WCC7K0QEMU04|82.00A82|512|4096|5400|1280|
disk|sas|0|ST4000NM0025|ZSASQEMU5|0003|4096|4096|7200|2048|SEAGATE
disk|nvrp|0|-|NVMEQEMU0006|-|4096|4096|-|1024|
disk|nvrc|0|-|NVMEQEMU0007|-|512|512|-|512|
EOF

QARGS=()
declare -A CBUS CDEV CSLOT	# controller name -> its QEMU bus, device model, slot
n_sd=0 n_nvme=0 i=0
while IFS='|' read -r kind a b c d e f g h j k l; do
	case "$kind" in
	ctrl)	# a=name b=device c=slot d=port slot e=speed f=width
		bus=pcie.0
		if [ "$d" != - ]; then
			bus=rp-$a
			QARGS+=(-device "pcie-root-port,id=$bus,bus=pcie.0,addr=0x${d%.0},chassis=$((++i)),slot=$i,x-speed=$e,x-width=$f")
		fi
		case "$b" in
		ich9-ahci) ;;	# q35 built-in
		ahci|megasas-gen2) QARGS+=(-device "$b,id=$a,bus=$bus,addr=0x${c%.0}") ;;
		nvme) ;;	# added with its namespace below (one drive per controller)
		esac
		CBUS[$a]=$bus CDEV[$a]=$b CSLOT[$a]=${c%.0}
		;;
	disk)	# a=ctrl b=port c=model d=serial e=fw f=logical g=physical h=rotation j=MiB k=vendor l=wwn
		img=$W/$a-$b.img
		truncate -s "${j}M" "$img"
		QARGS+=(-drive "if=none,id=$a-$b,file=$img,format=raw,cache=unsafe")
		dev=${CDEV[$a]} bus=${CBUS[$a]} slot=${CSLOT[$a]}
		bs="logical_block_size=$f,physical_block_size=$g${l:+,wwn=$l}"
		case "$dev" in
		ich9-ahci|ahci)
			[ "$dev" = ich9-ahci ] && port=ide.$b || port=$a.$b
			QARGS+=(-device "ide-hd,drive=$a-$b,bus=$port,model=$c,serial=$d,ver=$e,$bs,rotation_rate=$h")
			n_sd=$((n_sd + 1)) ;;
		megasas-gen2)
			QARGS+=(-device "scsi-hd,drive=$a-$b,bus=$a.0,channel=0,scsi-id=$b,lun=0,vendor=$k,product=$c,ver=$e,serial=$d,$bs,rotation_rate=$h")
			n_sd=$((n_sd + 1)) ;;
		nvme)
			QARGS+=(-device "nvme,id=$a,bus=$bus,addr=0x$slot,drive=$a-$b,serial=$d,$bs")
			n_nvme=$((n_nvme + 1)) ;;
		esac
		;;
	esac
done <"$W/rig.txt"

# ---------------------------------------------------------------- kernel and initramfs
hwq_kernel
R=$W/root
hwq_guest_lib "$R"
cat >"$R/init" <<'EOF'
#!/bin/busybox sh
. /etc/hwq-guest.sh
. /etc/rig.conf
hwq_g_start
hwq_g_wait_disks "$N_SD" "$N_NVME"
up() { hwq_g_up; }
O=/tmp/out; mkdir -p $O
for d in /sys/block/*; do echo "${d##*/} $(readlink -f $d)"; done >$O/block.txt
for d in /sys/bus/pci/devices/*; do echo "${d##*/} $(readlink -f $d)"; done >$O/pci.txt
ls -d /sys/bus/pci/devices/*/ata* >$O/ataports.txt 2>&1
for c in /sys/class/nvme/nvme*; do echo "${c##*/} $(cat $c/firmware_rev)"; done >$O/nvme-fw.txt
timeout 30 lspci -D -nn -vv >$O/lspci.txt 2>&1
# bounded in the guest too, so a hung query still brings back what there is
timeout 30 diskscope --version >$O/version.txt 2>&1; echo $? >$O/version.rc
echo "@@T diskscope_start=$(up)"
timeout 120 diskscope list --json >$O/list.json 2>$O/list.err; echo $? >$O/list.rc
echo "@@T diskscope_json_done=$(up)"
timeout 120 diskscope list >$O/table.txt 2>&1; echo $? >$O/table.rc
echo "@@T diskscope_done=$(up)"
# the NVMe pages diskscope read (NAME.nvme-*.bin), and nvme-cli's own decoding of the
# same controller: the ground truth check-inventory.py holds diskscope's against
timeout 60 diskscope --save-blobs $O list >/dev/null 2>&1
if [ -x /bin/nvme ]; then
	for n in /dev/nvme*n1; do
		b=${n##*/}
		timeout 30 nvme smart-log $n -o json >$O/$b.cli-smart.json 2>&1
		timeout 30 nvme smart-log $n -o binary >$O/$b.cli-smart.bin 2>/dev/null
		timeout 30 nvme id-ctrl $n -o json >$O/$b.cli-id-ctrl.json 2>&1
		timeout 30 nvme id-ns $n -o json >$O/$b.cli-id-ns.json 2>&1
	done
fi
# the dashboard's details panel on an NVMe drive (when tmux is in the image): the
# selection moves down the tree until the panel shows an NVMe health section
hwq_g_dash nvme0n1 'NVMe health' $O/dash-nvme.txt
hwq_g_send $O
hwq_g_end
EOF
mkdir -p "$R/etc"
printf 'N_SD=%s\nN_NVME=%s\n' "$n_sd" "$n_nvme" >"$R/etc/rig.conf"
hwq_tmux_files "$R"
hwq_initramfs "$R" "$W/initramfs.cpio" "ahci sd_mod sg nvme megaraid_sas crc64_rocksoft_generic" \
	"$BIN" "$(command -v lspci)" $(command -v nvme) $(command -v tmux) || { echo "FAIL: could not build the initramfs"; exit 1; }
hwq_log "initramfs $(du -h "$W/initramfs.cpio" | cut -f1), $(wc -l <"$R/etc/modules.order") modules"

# ---------------------------------------------------------------- boot and check
hwq_run_guest "$W/out.txt" "$W/console.txt" "${QARGS[@]}"
timeout 120 python3 "$HERE/check-inventory.py" --rig "$W/rig.txt" --guest "$W/out.txt" --pci-ids /usr/share/misc/pci.ids
rc=$?
hwq_log "done"
exit $rc
