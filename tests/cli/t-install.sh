#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make install DESTDIR=... writes exactly the expected files (the tool, its
# man pages, one for every command of ktprof --help, completion, docs, the
# module's source with dkms.conf), and
# make uninstall removes every one of them.
. "$(dirname "$0")/lib.sh"
root=$T/root
version=$("$KTPROF" version | sed -n 's/^ktprof \([^,]*\),.*/\1/p')
[ -n "$version" ] || fail "no version from ktprof version"

make -s -C "$TOP" install DESTDIR="$root" >"$T/make.out" 2>&1 ||
	fail "make install: $(tail -n 20 "$T/make.out")"
(cd "$root" && find . -type f -o -type l | sed 's|^\./|/|' | sort) >"$T/files"

src=/usr/src/ktprof-$version
{
	printf '%s\n' /usr/local/bin/ktprof \
		/usr/local/share/bash-completion/completions/ktprof \
		/usr/local/share/doc/ktprof/README.md \
		/usr/local/share/man/man1/ktprof.1 \
		/usr/local/share/man/man4/ktprof.ko.4 \
		"$src/Kbuild" "$src/dkms.conf" "$src/kmod/Kbuild" \
		"$src/kmod/include/uapi/ktprof_abi.h"
	# A page for every command of ktprof --help (help and version are in ktprof(1)).
	for cmd in $("$KTPROF" --help | sed -nE 's/^  ([a-z]+) .*/\1/p'); do
		case $cmd in help|version) continue ;; esac
		echo "/usr/local/share/man/man1/ktprof-$cmd.1"
	done
	for f in "$TOP"/docs/*.md; do
		echo "/usr/local/share/doc/ktprof/docs/${f##*/}"
	done
	for f in "$TOP"/kmod/*.[ch]; do
		case $f in *.mod.c) continue ;; esac
		echo "$src/kmod/${f##*/}"
	done
} | sort >"$T/want"
diff -u "$T/want" "$T/files" >"$T/diff" || fail "installed files differ: $(cat "$T/diff")"

[ -x "$root/usr/local/bin/ktprof" ] || fail "bin/ktprof is not executable"
conf=$root$src/dkms.conf
grep -qx "PACKAGE_VERSION=\"$version\"" "$conf" || fail "dkms.conf: no PACKAGE_VERSION=\"$version\""
grep -qx 'BUILT_MODULE_NAME\[0\]="ktprof"' "$conf" || fail "dkms.conf: BUILT_MODULE_NAME"
grep -qx 'AUTOINSTALL="yes"' "$conf" || fail "dkms.conf: AUTOINSTALL"
grep -q '^MAKE\[0\]=".*-C ${kernel_source_dir} ' "$conf" || fail "dkms.conf: MAKE is not the kernel's build"
LC_ALL=C MANWIDTH=80 man --warnings -l "$root/usr/local/share/man/man1/ktprof-record.1" \
	>/dev/null 2>"$T/man.err" && [ ! -s "$T/man.err" ] || fail "installed man page: $(cat "$T/man.err")"

make -s -C "$TOP" uninstall DESTDIR="$root" >"$T/make.out" 2>&1 ||
	fail "make uninstall: $(tail -n 20 "$T/make.out")"
left=$(cd "$root" && find . -type f -o -type l -o -name '*ktprof*')
[ -z "$left" ] || fail "make uninstall left: $left"

# PREFIX moves everything but the DKMS source, which DKMS looks for in /usr/src.
make -s -C "$TOP" install DESTDIR="$root" PREFIX=/usr >"$T/make.out" 2>&1 ||
	fail "make install PREFIX=/usr: $(tail -n 20 "$T/make.out")"
[ -x "$root/usr/bin/ktprof" ] && [ -e "$root/usr/share/man/man1/ktprof.1" ] &&
	[ -e "$root$src/dkms.conf" ] || fail "make install PREFIX=/usr: $(cd "$root" && find . -type f)"
make -s -C "$TOP" uninstall DESTDIR="$root" PREFIX=/usr >/dev/null 2>&1
left=$(cd "$root" && find . -type f -o -type l -o -name '*ktprof*')
[ -z "$left" ] || fail "make uninstall PREFIX=/usr left: $left"
echo ok
