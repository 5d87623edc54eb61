#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# kernels: 6.12
# The Debian packages (make deb) as a user gets them: dpkg -i of ktprof and
# ktprof-dkms builds the module (dh_dkms postinst), modprobe loads it, the
# installed /usr/bin/ktprof records with it, the installed man pages
# render, and dpkg -r takes it all away again.
#
# dpkg runs in a chroot whose root is an overlay of the host's root (lower)
# and a directory of the test's (upper), in a mount namespace of its own,
# so nothing reaches the host's root. The install and its DKMS build run
# on the host (prepare), natively: in the guest under TCG they took 683 s
# of a check here and 1,641 s beside three other guests, most of a CI
# run's margin. In the chroot uname -r names the host's kernel, which
# /lib/modules lacks, so the postinst builds, as on a buildd, for every
# kernel there with headers: the 6.12 test kernel and Debian's 6.1. The
# guest mounts that upper layer over its own read-only root, loads the
# module DKMS built with modprobe and records with the installed ktprof;
# the host phase removes both packages in the same chroot.
# Only on the Debian 6.12 kernel: the 7.3 debug kernel has no headers
# package; 6.1's module is built, not loaded.
. "$(dirname "$0")/lib.sh"
out=$KTPROF_TEST_OUT
debs=$KTPROF_TOP/build/deb
pkg_version=0.1

# Run a command as root of the chroot: the host's root under the upper
# layer in KTPROF_PREP, in a mount namespace that ends with the command.
in_chroot() {
	unshare -m --propagation private bash -c '
		set -e
		prep=$1
		shift
		mkdir -p "$prep/upper" "$prep/work" "$prep/root"
		mount -t overlay overlay -o "lowerdir=/,upperdir=$prep/upper,workdir=$prep/work,index=off,metacopy=off,redirect_dir=off,xino=off" "$prep/root"
		for d in proc sys dev run; do mount --rbind "/$d" "$prep/root/$d"; done
		exec env DEBIAN_FRONTEND=noninteractive chroot "$prep/root" "$@"
	' in_chroot "$KTPROF_PREP" "$@"
}

# Each line with the seconds the phase has run: where the time goes.
stamp() { local l; while IFS= read -r l; do printf '%4d %s\n' "$SECONDS" "$l"; done; }

prepare() {
	local rel st f p ko t0
	rel=$("$KTPROF_TOP/scripts/vm-run" --kernel "$KTPROF_VM_KERNEL" --print-kernel | cut -d' ' -f2) ||
		fail "no $KTPROF_VM_KERNEL test kernel"
	[ -n "$rel" ] || fail "no release for the $KTPROF_VM_KERNEL test kernel"
	for f in "$debs/ktprof_${pkg_version}_amd64.deb" "$debs/ktprof-dkms_${pkg_version}_all.deb"; do
		[ -f "$f" ] || fail "build/deb/*.deb missing (make deb): no $f"
	done
	[ -d "/lib/modules/$rel/build/" ] || fail "no headers for $rel in /lib/modules/$rel/build"
	in_chroot true || fail "cannot mount an overlay of / on $KTPROF_PREP"
	in_chroot dkms status -m ktprof | grep . && fail "ktprof is in dkms status before the install"
	# The man-db trigger re-indexes the host's pages after each dpkg
	# run, for an index man does not need to find ours: off, as
	# debconf's man-db/auto-update=false.
	in_chroot rm -f /var/lib/man-db/auto-update || fail "cannot turn off the man-db trigger"

	say "dpkg -i ktprof ktprof-dkms (the postinst builds the module)"
	t0=$SECONDS
	in_chroot dpkg -i "$debs/ktprof_${pkg_version}_amd64.deb" "$debs/ktprof-dkms_${pkg_version}_all.deb" \
		2>&1 | stamp | tee "$KTPROF_PREP/dpkg-i.log"
	st=${PIPESTATUS[0]}
	cp "$KTPROF_PREP/upper/var/lib/dkms/ktprof/$pkg_version/$rel/x86_64/log/make.log" \
		"$KTPROF_PREP/dkms-make.log" 2>/dev/null
	[ "$st" = 0 ] || fail "dpkg -i failed (log above; DKMS make.log: $(tail -n 20 "$KTPROF_PREP/dkms-make.log" 2>&1))"
	echo "dpkg -i with the DKMS builds: $((SECONDS - t0)) s"
	for p in ktprof ktprof-dkms; do
		st=$(in_chroot dpkg-query -W -f '${db:Status-Status}' "$p" 2>&1)
		[ "$st" = installed ] || fail "$p is '$st' after dpkg -i, not installed"
	done
	grep -q "^ *[0-9]* Building for .*$rel" "$KTPROF_PREP/dpkg-i.log" ||
		fail "the postinst did not build for $rel"
	in_chroot dkms status -m ktprof >"$KTPROF_PREP/dkms-status" 2>&1 ||
		fail "dkms status failed: $(cat "$KTPROF_PREP/dkms-status")"
	cat "$KTPROF_PREP/dkms-status"
	grep -q "^ktprof/$pkg_version, $rel, x86_64: installed" "$KTPROF_PREP/dkms-status" ||
		fail "dkms status does not show ktprof installed for $rel"
	ko=$(in_chroot modinfo -k "$rel" -n ktprof 2>&1) || fail "modinfo -k $rel ktprof: $ko"
	case "$ko" in
	/lib/modules/$rel/updates/dkms/ktprof.ko*) ;;
	*) fail "modprobe would load $ko, not the DKMS module" ;;
	esac
	in_chroot test -f "$ko" || fail "$ko is not in the chroot"
	printf '%s\n' "$rel" >"$KTPROF_PREP/release"
}

guest() {
	local rel opts ko
	rel=$(uname -r)
	[ "$rel" = "$(cat "$KTPROF_PREP/release")" ] ||
		fail "the packages were installed for $(cat "$KTPROF_PREP/release"), this is $rel"
	module_loaded && fail "ktprof is already loaded"

	say "root: the prepare phase's upper layer over the 9p root, and a tmpfs"
	modprobe overlay || fail "modprobe overlay failed"
	scratch=$(mktemp -d "${TMPDIR:-/tmp}/dkms.XXXXXX") || fail "mktemp failed"
	mount -t tmpfs -o mode=755 tmpfs "$scratch" || fail "cannot mount a tmpfs on $scratch"
	mkdir -p "$scratch/upper" "$scratch/work" "$scratch/root"
	root=$scratch/root
	# Undo it all, whatever step failed; lazily, as a failed step may
	# leave a process behind in the chroot.
	trap 'umount -R -l "$root"; umount -l "$scratch"' EXIT
	# The upper layer is read through the guest's read-write share of
	# the test's files, a file system apart from the root's (overlayfs
	# refuses a layer inside another of the same mount). 9p works as a
	# lower layer as it is; the features that would want file handles
	# of it (9p has none) are off by name, not by the kernel's defaults.
	opts=lowerdir=$KTPROF_PREP/upper:/,upperdir=$scratch/upper,workdir=$scratch/work
	opts=$opts,index=off,metacopy=off,redirect_dir=off,xino=off
	mount -t overlay overlay -o "$opts" "$root" ||
		fail "cannot mount an overlay over the 9p root ($opts): $(dmesg | grep -i overlay | tail -n 3)"
	for d in proc sys dev run; do
		mount --rbind "/$d" "$root/$d" || fail "cannot bind /$d into the overlay root"
	done
	# The output directory: the guest's read-write share, not the
	# host's read-only view of it.
	mkdir -p "$root$out" && mount --bind "$out" "$root$out" ||
		fail "cannot bind $out into the overlay root"
	inroot() { chroot "$root" "$@"; }

	say "modprobe"
	ko=$(inroot modinfo -n ktprof 2>&1) || fail "modinfo ktprof: $ko"
	case "$ko" in
	/lib/modules/$rel/updates/dkms/ktprof.ko*) ;;
	*) fail "modprobe would load $ko, not the DKMS module" ;;
	esac
	inroot modprobe ktprof || fail "modprobe ktprof failed: $(dmesg | tail -n 5)"
	module_loaded || fail "modprobe ktprof did not load it"
	[ -e "$KTPROF_DBG/control" ] || fail "$KTPROF_DBG/control missing with the module loaded"

	say "the installed ktprof records"
	[ -x "$root/usr/bin/ktprof" ] || fail "/usr/bin/ktprof not installed"
	timeout 300 chroot "$root" /usr/bin/ktprof record -q -o "$out/cap.ktp" -- sleep 1 \
		>"$out/record.log" 2>&1 || fail "/usr/bin/ktprof record failed: $(cat "$out/record.log")"
	[ -s "$out/cap.ktp" ] || fail "no capture written"

	say "the installed man pages"
	inroot man -P cat ktprof-record >"$out/man-record.txt" 2>"$out/man.err" ||
		fail "man ktprof-record failed: $(cat "$out/man.err")"
	grep -q -- '--output' "$out/man-record.txt" || fail "man ktprof-record does not document --output"
	# Every command has its page: top's lists the keys of its view.
	inroot man -P cat ktprof-top >"$out/man-top.txt" 2>>"$out/man.err" ||
		fail "man ktprof-top failed: $(cat "$out/man.err")"
	grep -q 'Keys: q quit' "$out/man-top.txt" || fail "man ktprof-top does not list the keys"
	inroot man -P cat 4 ktprof.ko >"$out/man-ko.txt" 2>>"$out/man.err" ||
		fail "man 4 ktprof.ko failed: $(cat "$out/man.err")"
	head -n 5 "$out/man-record.txt"

	say "modprobe -r"
	inroot modprobe -r ktprof || fail "modprobe -r ktprof failed"
	module_loaded && fail "modprobe -r left ktprof loaded"
	note ko "$ko"
	echo "ok ($SECONDS s)"
}

# dpkg -r in the chroot of the install, and the capture the installed
# binary wrote, read with the tree's ktprof.
host() {
	local ko n
	ko=$(noted ko)
	in_chroot dpkg -r ktprof-dkms ktprof 2>&1 | stamp | tee "$out/dpkg-r.log"
	[ "${PIPESTATUS[0]}" = 0 ] || fail "dpkg -r failed (log above)"
	n=$(in_chroot dkms status -m ktprof 2>&1 | grep -c .)
	[ "$n" = 0 ] || fail "dkms status after dpkg -r: $(in_chroot dkms status -m ktprof 2>&1)"
	in_chroot test ! -e "$ko" || fail "$ko still there after dpkg -r"
	in_chroot modinfo -k "$(kernel_release)" -n ktprof >/dev/null 2>&1 &&
		fail "modinfo still finds ktprof after dpkg -r"
	in_chroot test ! -e /usr/bin/ktprof || fail "/usr/bin/ktprof still there after dpkg -r"
	in_chroot test ! -e "/usr/src/ktprof-$pkg_version" ||
		fail "/usr/src/ktprof-$pkg_version still there after dpkg -r"

	"$KTPROF" info "$out/cap.ktp" >"$out/cap.info" || fail "info failed: $(cat "$out/cap.info")"
	grep -q 'complete' "$out/cap.info" || fail "capture not complete: $(cat "$out/cap.info")"
	grep -q '^lost records      0$' "$out/cap.info" || fail "records lost: $(cat "$out/cap.info")"
	grep -q '^  recorded by     ktprof record$' "$out/cap.info" || fail "not recorded by ktprof record"
	n=$("$KTPROF" dump "$out/cap.ktp" | grep -c sched_switch)
	[ "$n" -gt 0 ] || fail "no sched_switch events in the capture"
	echo "$n switches; ok"
}

run_phases
