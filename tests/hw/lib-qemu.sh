# lib-qemu.sh - boot a stock Debian kernel under QEMU with a tiny initramfs (bash library).
#
# Sourced by tests/hw/*.sh.  Provides:
#   hwq_skip REASON              print "SKIP: REASON" and exit 77
#   hwq_require_tools            SKIP when a host tool the harness needs is missing
#   hwq_kernel                   fetch/extract/cache the kernel: sets HWQ_KV HWQ_KDIR HWQ_KERNEL
#   hwq_initramfs ROOT OUT MODS BINS...
#                                busybox + BINS (and their ldd libraries) + pci.ids + the
#                                modules MODS (with their dependencies, in insmod order)
#                                + ROOT/init (written by the caller) -> cpio archive OUT
#   hwq_stop                     stop the qemu hwq_boot started (for the caller's EXIT trap)
#   hwq_boot OUT-FILE CONSOLE-FILE QEMU-ARGS...
#                                run qemu-system-x86_64 (bounded by HWQ_QEMU_TIMEOUT); the
#                                guest's ttyS1 goes to OUT-FILE, its kernel console to CONSOLE-FILE
#   hwq_begin TAG                a test's start: BIN (the built binary, or FAIL), the host tools,
#                                the work dir W=/tmp/diskscope-TAG-PID with W/root, removed on
#                                exit (HWQ_KEEP=1 keeps it); the caller sets TOP first
#   hwq_guest_lib ROOT           ROOT/etc/hwq-guest.sh, for the guest's init to source:
#                                hwq_g_start (mounts, results to ttyS1, @@BEGIN, the modules),
#                                hwq_g_wait_disks N_SD N_NVME, hwq_g_send DIR (every file with its
#                                checksum), hwq_g_end (@@END, power off)
#                                hwq_g_dash FIRST WANT OUT: the dashboard under tmux (when in
#                                the image) once FIRST shows, Down until WANT shows, the screen
#                                into OUT
#   hwq_tmux_files ROOT          the terminfo entry and UTF-8 locale tmux needs, into ROOT
#   hwq_run_guest OUT CONSOLE QEMU-ARGS...
#                                hwq_boot of the built kernel and W/initramfs.cpio; FAIL (exit 1)
#                                with the last console lines unless the guest reached @@END
#   hwq_unpack OUT DIR           the files hwq_g_send sent, checked, into DIR (1: a bad one)
# Knobs: HWQ_QEMU (qemu-system-x86_64), HWQ_CACHE (/var/cache/diskscope-qemu),
#        HWQ_QEMU_TIMEOUT (300 s), HWQ_ACCEL (tcg: no usable KVM here), HWQ_KPKG (kernel package).
# Every external step is bounded with `timeout`.

# `make check` runs every tests/hw/*.sh: run on its own, this library is not a test
case "$0" in
*lib-qemu.sh)
	echo "SKIP: lib-qemu.sh is the library qemu-inventory.sh sources, not a test"
	exit 77 ;;
esac

HWQ_CACHE=${HWQ_CACHE:-/var/cache/diskscope-qemu}
HWQ_QEMU_TIMEOUT=${HWQ_QEMU_TIMEOUT:-300}
HWQ_ACCEL=${HWQ_ACCEL:-tcg}
HWQ_QEMU=${HWQ_QEMU:-qemu-system-x86_64}
HWQ_T0=$(date +%s.%N)

hwq_log() {
	printf '[%6ss] %s\n' "$(awk -v a="$(date +%s.%N)" -v b="$HWQ_T0" 'BEGIN{printf "%.1f", a-b}')" "$*" >&2
}

hwq_skip() {
	echo "SKIP: $*"
	exit 77
}

hwq_require_tools() {
	local t missing=""
	# the Makefile's deps step (tools/deps.sh) installs these; if they are still missing
	# the machine cannot run the test at all
	command -v "$HWQ_QEMU" >/dev/null 2>&1 ||
		hwq_skip "$HWQ_QEMU not found (tools/deps.sh installs qemu-system-x86; is apt failing?)"
	for t in busybox cpio dpkg-deb depmod modprobe xz timeout flock \
		python3 ldd apt-get apt-cache sha256sum base64; do
		command -v "$t" >/dev/null 2>&1 || missing="$missing $t"
	done
	[ -z "$missing" ] || hwq_skip "host tools missing:$missing (tools/deps.sh installs qemu-system-x86, busybox-static, cpio, kmod, xz-utils)"
	# the guest runs busybox as its only userland: it must be the static build
	if ldd "$(command -v busybox)" >/dev/null 2>&1; then
		hwq_skip "busybox is dynamically linked; the guest needs busybox-static"
	fi
}

# The kernel package apt would install for linux-image-amd64 (e.g. linux-image-6.1.0-57-amd64).
hwq_kpkg_name() {
	timeout 60 apt-cache depends linux-image-amd64 2>/dev/null |
		awk '/Depends: linux-image-[0-9]/{print $2; exit}'
}

# Download the kernel .deb into $1 (the -unsigned package first: same files, no shim
# dependencies).  3 tries with backoff; package lists refreshed after the first failure.
hwq_download_kernel() {
	local dir=$1 try delay=0
	for try in 1 2 3; do
		if [ "$delay" -gt 0 ]; then
			hwq_log "kernel download failed (try $((try - 1))/3); retrying in ${delay}s"
			sleep "$delay"
		fi
		rm -f "$dir"/*.deb
		if (cd "$dir" && { timeout 300 apt-get download -q "${HWQ_KPKG}-unsigned" ||
			timeout 300 apt-get download -q "$HWQ_KPKG"; }) >"$dir/apt.log" 2>&1 &&
			ls "$dir"/linux-image-*.deb >/dev/null 2>&1; then
			return 0
		fi
		# a stale package list names a .deb the mirror no longer has: refresh once
		[ "$try" = 1 ] && timeout 300 apt-get update -qq >/dev/null 2>&1
		delay=$((try * 10))
	done
	sed 's/^/    apt: /' "$dir/apt.log" >&2
	return 1
}

# Extract what the guest needs from the .deb into $2 (kernel, config, the storage/crypto
# module trees: ~45 MB instead of ~440 MB) and make modules.dep.
hwq_extract_kernel() {
	local deb=$1 dst=$2 kv=$3
	timeout 300 sh -c 'dpkg-deb --fsys-tarfile "$1" | tar -x -C "$2" --wildcards \
		"./boot/vmlinuz-*" "./boot/config-*" \
		"./lib/modules/*/modules.builtin*" "./lib/modules/*/modules.order" \
		"./lib/modules/*/kernel/drivers/ata" "./lib/modules/*/kernel/drivers/scsi" \
		"./lib/modules/*/kernel/drivers/nvme" "./lib/modules/*/kernel/drivers/virtio" \
		"./lib/modules/*/kernel/drivers/block" "./lib/modules/*/kernel/crypto" \
		"./lib/modules/*/kernel/drivers/usb" \
		"./lib/modules/*/kernel/lib" "./lib/modules/*/kernel/block" \
		"./lib/modules/*/kernel/arch/x86/crypto"' sh "$deb" "$dst" || return 1
	# the .deb ships no modules.dep (its postinst runs depmod)
	timeout 120 depmod -b "$dst" "$kv" || return 1
	echo "$HWQ_EXTRACT_REV" >"$dst/.extract-rev"
	[ -s "$dst/boot/vmlinuz-$kv" ] && [ -s "$dst/lib/modules/$kv/modules.dep" ]
}

# The uncompressed ELF vmlinux, booted through QEMU's PVH entry (CONFIG_PVH=y in Debian),
# skips the firmware's bzImage path and the in-guest xz decompression: ~5 s less under TCG.
hwq_make_vmlinux() {
	local kdir=$1 kv=$2 off
	off=$(LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$kdir/boot/vmlinuz-$kv" | head -1 | cut -d: -f1)
	[ -n "$off" ] || return 1
	tail -c +$((off + 1)) "$kdir/boot/vmlinuz-$kv" |
		timeout 120 xz --single-stream -dc >"$kdir/vmlinux.tmp" 2>/dev/null
	if [ "$(head -c 4 "$kdir/vmlinux.tmp" | od -An -tx1 | tr -d ' \n')" = 7f454c46 ]; then
		mv "$kdir/vmlinux.tmp" "$kdir/vmlinux"
	else
		rm -f "$kdir/vmlinux.tmp"
		return 1
	fi
}

# what hwq_extract_kernel takes from the .deb: a cache extracted by an older list is
# fetched again (2: the USB host and storage drivers)
HWQ_EXTRACT_REV=2
hwq_kernel_ok() {
	[ -s "$1/boot/vmlinuz-$2" ] && [ -s "$1/lib/modules/$2/modules.dep" ] &&
		[ "$(cat "$1/.extract-rev" 2>/dev/null)" = "$HWQ_EXTRACT_REV" ]
}

# Sets HWQ_KV, HWQ_KDIR, HWQ_KERNEL.  The cache is shared by every clone on this machine
# and by concurrent runs: populated under a lock, published with an atomic rename.
hwq_kernel() {
	local cached tmp deb
	mkdir -p "$HWQ_CACHE" || hwq_skip "cannot create the kernel cache $HWQ_CACHE"
	HWQ_KPKG=${HWQ_KPKG:-$(hwq_kpkg_name)}
	if [ -z "$HWQ_KPKG" ]; then
		timeout 300 apt-get update -qq >/dev/null 2>&1
		HWQ_KPKG=$(hwq_kpkg_name)
	fi
	if [ -z "$HWQ_KPKG" ]; then
		# no package list at all (offline): any kernel cached earlier will do
		cached=$(ls -d "$HWQ_CACHE"/kernel-* 2>/dev/null | sort -V | tail -1)
		[ -n "$cached" ] || hwq_skip "could not find the linux-image-amd64 kernel package (apt-cache) and none is cached in $HWQ_CACHE"
		HWQ_KPKG=linux-image-${cached##*/kernel-}
		hwq_log "apt-cache names no kernel; using the cached $HWQ_KPKG"
	fi
	HWQ_KV=${HWQ_KPKG#linux-image-}
	HWQ_KDIR=$HWQ_CACHE/kernel-$HWQ_KV
	if ! hwq_kernel_ok "$HWQ_KDIR" "$HWQ_KV"; then
		exec 9>"$HWQ_CACHE/.lock"
		timeout 900 flock 9 || hwq_skip "kernel cache $HWQ_CACHE stayed locked for 15 minutes"
		if ! hwq_kernel_ok "$HWQ_KDIR" "$HWQ_KV"; then	# another run may have finished it
			hwq_log "fetching $HWQ_KPKG into $HWQ_CACHE"
			tmp=$HWQ_CACHE/.tmp-$$
			rm -rf "$tmp"
			mkdir -p "$tmp/dl" "$tmp/k"
			if ! hwq_download_kernel "$tmp/dl"; then
				rm -rf "$tmp"
				cached=$(ls -d "$HWQ_CACHE"/kernel-* 2>/dev/null | sort -V | tail -1)
				if [ -n "$cached" ] && hwq_kernel_ok "$cached" "${cached##*/kernel-}"; then
					# an older cached kernel exercises the same drivers
					echo "WARNING: could not download $HWQ_KPKG after 3 tries; using cached ${cached##*/}" >&2
					HWQ_KV=${cached##*/kernel-}
					HWQ_KDIR=$cached
				else
					hwq_skip "could not download $HWQ_KPKG (or -unsigned) after 3 tries (apt-get download; see the apt lines above)"
				fi
			else
				deb=$(ls "$tmp"/dl/linux-image-*.deb | head -1)
				hwq_extract_kernel "$deb" "$tmp/k" "$HWQ_KV" ||
					{ rm -rf "$tmp"; hwq_skip "could not extract $deb (dpkg-deb/depmod failed)"; }
				hwq_make_vmlinux "$tmp/k" "$HWQ_KV" || hwq_log "no PVH vmlinux; booting the bzImage"
				rm -rf "$HWQ_KDIR"
				mv "$tmp/k" "$HWQ_KDIR"
				rm -rf "$tmp"
			fi
		fi
		flock -u 9
		exec 9>&-
	fi
	HWQ_KERNEL=$HWQ_KDIR/boot/vmlinuz-$HWQ_KV
	[ -s "$HWQ_KDIR/vmlinux" ] && HWQ_KERNEL=$HWQ_KDIR/vmlinux
	hwq_log "kernel $HWQ_KV ($HWQ_KERNEL)"
}

# hwq_initramfs ROOT OUT "MODS" BIN...: ROOT must already hold /init.
hwq_initramfs() {
	local R=$1 out=$2 mods=$3 b ko n lib
	shift 3
	mkdir -p "$R"/{bin,sbin,usr/bin,usr/sbin,usr/share/misc,lib/modules,proc,sys,dev,tmp,etc,run}
	cp "$(command -v busybox)" "$R/bin/busybox"
	for b in $("$R/bin/busybox" --list); do
		[ -e "$R/bin/$b" ] || ln -s busybox "$R/bin/$b"
	done
	for b in "$@"; do
		cp -L "$b" "$R/bin/${b##*/}"
	done
	# pci.ids where libpci looks for it (Debian: /usr/share/misc/pci.ids)
	[ -f /usr/share/misc/pci.ids ] && cp -L /usr/share/misc/pci.ids "$R/usr/share/misc/pci.ids"
	echo "root:x:0:0:root:/root:/bin/sh" >"$R/etc/passwd"
	echo "root:x:0:" >"$R/etc/group"
	# shared libraries (ldd) and the ELF interpreter; static binaries list none
	for b in "$@"; do
		timeout 30 ldd "$b" 2>/dev/null | awk '/=> \//{print $3} /^\t\//{print $1}'
	done | sort -u | while read -r lib; do
		cp -L --parents "$lib" "$R/"
	done
	# modprobe --show-depends gives the insmod order (dependencies and softdeps first);
	# compressed modules are unpacked so busybox insmod can load them
	: >"$R/etc/modules.order"
	local list=""
	for n in $mods; do
		list="$list
$(timeout 30 modprobe -d "$HWQ_KDIR" -S "$HWQ_KV" --show-depends "$n")" ||
			{ echo "lib-qemu: module $n not found in $HWQ_KDIR" >&2; return 1; }
	done
	for ko in $(echo "$list" | awk '$1=="insmod" && !seen[$2]++ {print $2}'); do
		n=${ko##*/}
		n=${n%.xz}
		n=${n%.zst}
		case "$ko" in
		*.xz) xz -dc "$ko" ;;
		*.zst) zstd -qdc "$ko" ;;
		*) cat "$ko" ;;
		esac >"$R/lib/modules/$n" || return 1
		echo "$n" >>"$R/etc/modules.order"
	done
	chmod +x "$R/init"
	(cd "$R" && find . | LC_ALL=C sort | timeout 120 cpio -o -H newc -R 0:0 --quiet) >"$out"
}

# Stop a qemu still running (from an EXIT trap): timeout passes the TERM on to qemu.
hwq_stop() {
	if [ -n "${HWQ_QEMU_PID:-}" ]; then
		kill "$HWQ_QEMU_PID" 2>/dev/null
		wait "$HWQ_QEMU_PID" 2>/dev/null
		HWQ_QEMU_PID=
	fi
}

# hwq_boot OUT CONSOLE ARGS...: the guest writes its results to its 2nd serial port.
hwq_boot() {
	local out=$1 con=$2 rc
	shift 2
	rm -f "$out" "$con"
	hwq_log "$(timeout 30 "$HWQ_QEMU" --version | head -1), accel $HWQ_ACCEL, up to ${HWQ_QEMU_TIMEOUT}s"
	# in the background: `wait` lets a TERM trap run (and hwq_stop) at once
	timeout -k 10 "$HWQ_QEMU_TIMEOUT" "$HWQ_QEMU" \
		-nodefaults -machine "q35,accel=$HWQ_ACCEL" -cpu max -m 1G -smp 2 \
		-display none -no-reboot -monitor none \
		-serial "file:$con" -serial "file:$out" \
		"$@" </dev/null >"$con.qemu" 2>&1 &
	HWQ_QEMU_PID=$!
	wait "$HWQ_QEMU_PID"
	rc=$?
	HWQ_QEMU_PID=
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		hwq_log "qemu killed after ${HWQ_QEMU_TIMEOUT}s (console: $con)"
	elif [ "$rc" != 0 ]; then
		hwq_log "qemu exited $rc: $(tail -3 "$con.qemu" | tr '\n' ' ')"
	fi
	return "$rc"
}

# ---------------------------------------------------------------- a test's common steps

hwq_cleanup() {
	hwq_stop
	if [ "${HWQ_KEEP:-0}" = 1 ]; then echo "work dir kept: $W"; else rm -rf "$W"; fi
}

hwq_begin() {
	BIN=${DISKSCOPE:-$TOP/build/diskscope}
	[ -x "$BIN" ] || { echo "FAIL: $BIN not built (run make)"; exit 1; }
	hwq_require_tools
	W=/tmp/diskscope-$1-$$
	trap hwq_cleanup EXIT
	trap 'exit 130' INT TERM
	mkdir -p "$W/root"
}

hwq_guest_lib() {
	mkdir -p "$1/etc"
	cat >"$1/etc/hwq-guest.sh" <<'EOG'
# hwq-guest.sh - sourced by the guest's /init (busybox sh); written by lib-qemu.sh
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
hwq_g_up() { cut -d' ' -f1 /proc/uptime; }
hwq_g_start() {
	mount -t proc proc /proc; mount -t sysfs sysfs /sys; mount -t devtmpfs devtmpfs /dev
	mount -t tmpfs tmpfs /tmp
	stty -F /dev/ttyS1 raw -echo 2>/dev/null
	exec >/dev/ttyS1 2>&1	# results on the 2nd serial port, kernel messages on the 1st
	echo "@@BEGIN"
	for ko in $(cat /etc/modules.order); do insmod /lib/modules/$ko 2>/dev/null || echo "insmod $ko failed"; done
	echo "@@T modules_loaded=$(hwq_g_up)"
}
# up to 60 s: SCSI scans are slow under a loaded TCG
hwq_g_wait_disks() {
	i=0
	while [ $i -lt 600 ]; do
		[ "$(ls /sys/block | grep -c '^sd')" -ge "$1" ] &&
			[ "$(ls /sys/block | grep -c '^nvme')" -ge "$2" ] && break
		sleep 0.1; i=$((i + 1))
	done
	echo "@@T devices_ready=$(hwq_g_up) ($(ls /sys/block | tr '\n' ' '))"
}
# every file base64-encoded with its checksum: the host refuses a garbled transfer
hwq_g_send() {
	for f in "$1"/*; do
		[ -f "$f" ] || continue
		echo "@@FILE ${f##*/} $(sha256sum <$f | cut -d' ' -f1)"
		base64 <$f
		echo "@@EOF ${f##*/}"
	done
}
hwq_g_dash() {
	[ -x /bin/tmux ] || return 0
	mkdir -p /dev/pts; mount -t devpts devpts /dev/pts 2>/dev/null
	export TERM=tmux-256color HOME=/tmp LC_ALL=C.UTF-8
	tmux -u new-session -d -s ds -x 160 -y 50 "diskscope 2>/tmp/dash.err" 2>"$3.err"
	i=0
	while [ $i -lt 60 ]; do
		tmux capture-pane -p -t ds 2>/dev/null | grep -q "$1" && break
		sleep 0.5; i=$((i + 1))
	done
	i=0
	while [ $i -lt 30 ]; do
		tmux capture-pane -p -t ds | grep -q "$2" && break
		tmux send-keys -t ds Down; sleep 0.5; i=$((i + 1))
	done
	tmux capture-pane -p -t ds >"$3" 2>>"$3.err"
	tmux kill-server 2>/dev/null
}
hwq_g_end() {
	echo "@@END"
	poweroff -f
}
EOG
}

hwq_tmux_files() {
	local t
	for t in /lib/terminfo/t/tmux-256color /usr/share/terminfo/t/tmux-256color; do
		[ -f "$t" ] && mkdir -p "$1/usr/share/terminfo/t" && cp -L "$t" "$1/usr/share/terminfo/t/"
	done
	[ -d /usr/lib/locale/C.utf8 ] && mkdir -p "$1/usr/lib/locale" &&
		cp -rL /usr/lib/locale/C.utf8 "$1/usr/lib/locale/"
	return 0
}

hwq_run_guest() {
	local out=$1 con=$2 qrc
	shift 2
	hwq_boot "$out" "$con" -kernel "$HWQ_KERNEL" -initrd "$W/initramfs.cpio" \
		-append "console=ttyS0 quiet panic=-1 mitigations=off" "$@"
	qrc=$?
	grep '^@@T' "$out" 2>/dev/null | sed 's/^/  guest: /'
	if ! grep -q '^@@END' "$out" 2>/dev/null; then
		echo "FAIL: the guest did not finish (qemu exit $qrc); last console lines:"
		tail -n 30 "$con" 2>/dev/null | sed 's/^/  console: /'
		tail -n 10 "$out" 2>/dev/null | sed 's/^/  guest: /'
		exit 1
	fi
}

hwq_unpack() {
	timeout 120 python3 - "$1" "$2" <<'EOPY'
import base64, hashlib, os, sys
out, dst = sys.argv[1], sys.argv[2]
os.makedirs(dst, exist_ok=True)
name = want = None
buf, bad = [], 0
for line in open(out, errors="replace"):
    line = line.rstrip("\r\n")
    if line.startswith("@@FILE "):
        _, name, want = line.split(" ", 2)
        buf = []
    elif name and line == "@@EOF " + name:
        data = base64.b64decode("".join(buf))
        if hashlib.sha256(data).hexdigest() != want:
            print("FAIL: guest file %s garbled in transfer" % name)
            bad = 1
        else:
            open(os.path.join(dst, name), "wb").write(data)
        name = None
    elif name:
        buf.append(line)
sys.exit(bad)
EOPY
}
