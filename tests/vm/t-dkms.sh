#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# kernels: 6.12
# DKMS compiles the module in the guest under TCG: 930 s here alone, 1,641 s
# to reach modprobe beside three other guests.
# timeout: 2400
# The Debian packages (make deb) as a user gets them: dpkg -i of ktprof and
# ktprof-dkms builds the module for the running kernel (dh_dkms postinst),
# modprobe loads it, the installed /usr/bin/ktprof records with it, the
# installed man pages render, and dpkg -r takes it all away again.
#
# The guest's root is the host's, read-only over 9p: dpkg runs in a chroot
# whose root is an overlay of it (lower) and a tmpfs (upper), so nothing
# reaches the host. Only on the Debian 6.12 kernel: its headers are
# installed on the host (the 7.3 debug kernel has none; 6.1 would build
# the same source a second time).
#
# The DKMS build and dkms's two depmods over 9p take 210 s in a quiet
# guest and passed 550 s in a busy CI run: hence its own timeout.
. "$(dirname "$0")/lib.sh"
out=$KTPROF_TEST_OUT
debs=$KTPROF_TOP/build/deb
pkg_version=0.1

guest() {
	local rel opts t0 t1 st n f ko p
	rel=$(uname -r)
	for f in "$debs/ktprof_${pkg_version}_amd64.deb" "$debs/ktprof-dkms_${pkg_version}_all.deb"; do
		[ -f "$f" ] || fail "build/deb/*.deb missing (make deb): no $f"
	done
	[ -d "/lib/modules/$rel/build/" ] || fail "no headers for $rel in /lib/modules/$rel/build"
	module_loaded && fail "ktprof is already loaded"

	say "writable root: overlay of the 9p host root and a tmpfs"
	modprobe overlay || fail "modprobe overlay failed"
	scratch=$(mktemp -d "${TMPDIR:-/tmp}/dkms.XXXXXX") || fail "mktemp failed"
	mount -t tmpfs -o mode=755 tmpfs "$scratch" || fail "cannot mount a tmpfs on $scratch"
	mkdir -p "$scratch/upper" "$scratch/work" "$scratch/root"
	root=$scratch/root
	# Undo it all, whatever step failed; lazily, as a failed step may
	# leave a process behind in the chroot.
	trap 'umount -R -l "$root"; umount -l "$scratch"' EXIT
	# 9p works as the lower layer as it is; the features that would want
	# file handles of it (9p has none) are off by name, not by the
	# kernel's defaults.
	opts=lowerdir=/,upperdir=$scratch/upper,workdir=$scratch/work,index=off,metacopy=off,redirect_dir=off,xino=off
	mount -t overlay overlay -o "$opts" "$root" ||
		fail "cannot mount an overlay over the 9p root ($opts): $(dmesg | grep -i overlay | tail -n 3)"
	for d in proc sys dev run; do
		mount --rbind "/$d" "$root/$d" || fail "cannot bind /$d into the overlay root"
	done
	# The output directory: the guest's read-write share, not the
	# host's read-only view of it.
	mkdir -p "$root$out" && mount --bind "$out" "$root$out" ||
		fail "cannot bind $out into the overlay root"
	touch "$root/var/lib/dpkg/.ktprof-test" && rm "$root/var/lib/dpkg/.ktprof-test" ||
		fail "/var/lib/dpkg is not writable in the overlay root"
	inroot() { DEBIAN_FRONTEND=noninteractive chroot "$root" "$@"; }
	# The man-db trigger re-indexes the host's 23000 pages over 9p after
	# each dpkg run: 60-100 s a time under TCG, for an index man does not
	# need to find the pages. Off, as debconf's man-db/auto-update=false.
	rm -f "$root/var/lib/man-db/auto-update" || fail "cannot turn off the man-db trigger"
	# Each line with the seconds since the test began: where the time goes.
	stamp() { local l; while IFS= read -r l; do printf '%4d %s\n' "$SECONDS" "$l"; done; }

	say "dpkg -i ktprof ktprof-dkms (the postinst builds the module)"
	inroot dkms status -m ktprof | grep . && fail "ktprof is in dkms status before the install"
	t0=$(date +%s)
	inroot dpkg -i "$debs/ktprof_${pkg_version}_amd64.deb" "$debs/ktprof-dkms_${pkg_version}_all.deb" \
		2>&1 | stamp | tee "$out/dpkg-i.log"
	st=${PIPESTATUS[0]}
	cp "$root/var/lib/dkms/ktprof/$pkg_version/build/make.log" "$out/dkms-make.log" 2>/dev/null
	[ "$st" = 0 ] || fail "dpkg -i failed (log above; DKMS make.log: $(tail -n 20 "$out/dkms-make.log" 2>&1))"
	t1=$(date +%s)
	echo "dpkg -i with the DKMS build: $((t1 - t0)) s"
	note dpkg_secs "$((t1 - t0))"
	for p in ktprof ktprof-dkms; do
		st=$(inroot dpkg-query -W -f '${db:Status-Status}' "$p" 2>&1)
		[ "$st" = installed ] || fail "$p is '$st' after dpkg -i, not installed"
	done
	grep -q "Building for $rel" "$out/dpkg-i.log" || fail "the postinst did not build for $rel"

	say "dkms status, modprobe ($SECONDS s)"
	inroot dkms status -m ktprof >"$out/dkms-status" 2>&1 || fail "dkms status failed: $(cat "$out/dkms-status")"
	cat "$out/dkms-status"
	grep -q "^ktprof/$pkg_version, $rel, x86_64: installed" "$out/dkms-status" ||
		fail "dkms status does not show ktprof installed for $rel: $(cat "$out/dkms-status")"
	ko=$(inroot modinfo -n ktprof 2>&1) || fail "modinfo ktprof: $ko"
	case "$ko" in
	/lib/modules/$rel/updates/dkms/ktprof.ko*) ;;
	*) fail "modprobe would load $ko, not the DKMS module" ;;
	esac
	[ -f "$root$ko" ] || fail "$ko missing"
	inroot modprobe ktprof || fail "modprobe ktprof failed: $(dmesg | tail -n 5)"
	module_loaded || fail "modprobe ktprof did not load it"
	[ -e "$KTPROF_DBG/control" ] || fail "$KTPROF_DBG/control missing with the module loaded"

	say "the installed ktprof records ($SECONDS s)"
	[ -x "$root/usr/bin/ktprof" ] || fail "/usr/bin/ktprof not installed"
	timeout 300 chroot "$root" /usr/bin/ktprof record -q -o "$out/cap.ktp" -- sleep 1 \
		>"$out/record.log" 2>&1 || fail "/usr/bin/ktprof record failed: $(cat "$out/record.log")"
	[ -s "$out/cap.ktp" ] || fail "no capture written"

	say "the installed man pages ($SECONDS s)"
	inroot man -P cat ktprof-record >"$out/man-record.txt" 2>"$out/man.err" ||
		fail "man ktprof-record failed: $(cat "$out/man.err")"
	grep -q -- '--output' "$out/man-record.txt" || fail "man ktprof-record does not document --output"
	inroot man -P cat 4 ktprof.ko >"$out/man-ko.txt" 2>>"$out/man.err" ||
		fail "man 4 ktprof.ko failed: $(cat "$out/man.err")"
	head -n 5 "$out/man-record.txt"

	say "modprobe -r, dpkg -r ($SECONDS s)"
	inroot modprobe -r ktprof || fail "modprobe -r ktprof failed"
	module_loaded && fail "modprobe -r left ktprof loaded"
	inroot dpkg -r ktprof-dkms ktprof 2>&1 | stamp | tee "$out/dpkg-r.log"
	[ "${PIPESTATUS[0]}" = 0 ] || fail "dpkg -r failed (log above)"
	n=$(inroot dkms status -m ktprof 2>&1 | grep -c .)
	[ "$n" = 0 ] || fail "dkms status after dpkg -r: $(inroot dkms status -m ktprof 2>&1)"
	[ ! -e "$root$ko" ] || fail "$ko still there after dpkg -r"
	inroot modinfo -n ktprof >/dev/null 2>&1 && fail "modinfo still finds ktprof after dpkg -r"
	[ ! -e "$root/usr/bin/ktprof" ] || fail "/usr/bin/ktprof still there after dpkg -r"
	[ ! -e "$root/usr/src/ktprof-$pkg_version" ] || fail "/usr/src/ktprof-$pkg_version still there after dpkg -r"
	echo "ok ($SECONDS s)"
}

# The capture the installed binary wrote reads with the tree's ktprof.
host() {
	echo "dpkg -i with the DKMS build took $(noted dpkg_secs) s in the guest"
	"$KTPROF" info "$out/cap.ktp" >"$out/cap.info" || fail "info failed: $(cat "$out/cap.info")"
	grep -q 'complete' "$out/cap.info" || fail "capture not complete: $(cat "$out/cap.info")"
	grep -q '^lost records      0$' "$out/cap.info" || fail "records lost: $(cat "$out/cap.info")"
	grep -q '^  recorded by     ktprof record$' "$out/cap.info" || fail "not recorded by ktprof record"
	n=$("$KTPROF" dump "$out/cap.ktp" | grep -c sched_switch)
	[ "$n" -gt 0 ] || fail "no sched_switch events in the capture"
	echo "$n switches; ok"
}

run_phases
