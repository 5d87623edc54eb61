#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Print the path of Debian's linux-source-VERSION tarball and its package
# version, fetching the package when needed:
#   TARBALL PKG_VERSION
#
# From the installed package (/usr/src) when it is there; otherwise the
# package is downloaded with `apt-get download` from Debian releases newer
# than this machine's (trixie-backports, trixie, sid), through a private
# sources list and lists directory under the cache (newer-deb.sh), so the
# machine's own apt configuration stays as it is (bookworm only), and
# unpacked into the cache.
#
# usage: kernel-source.sh [--cached] VERSION      e.g. 7.3
#   --cached   fail instead of downloading
set -euo pipefail
cached_only=
[ "${1-}" = --cached ] && { cached_only=1; shift; }
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/lib.sh
. "$here/lib.sh"
version=${1:?usage: kernel-source.sh [--cached] VERSION}
case "$version" in *[!0-9.]*|'') say "bad version '$version'"; exit 2 ;; esac
pkg=linux-source-$version
cache=$(cache_root)

if [ -r "/usr/src/$pkg.tar.xz" ] &&
	dpkg-query -W -f='${db:Status-Status}\n' "$pkg" 2>/dev/null | grep -qx installed; then
	echo "/usr/src/$pkg.tar.xz $(dpkg-query -W -f='${Version}' "$pkg")"
	exit 0
fi

src=$cache/source/$pkg
[ -f "$src/.done" ] || [ -z "$cached_only" ] || exit 1

# .done, the mark of a complete download, holds the package's version.
fetch() {
	local deb pkg_version
	deb=$("$here/newer-deb.sh" "$pkg" "$src") ||
		{ say "$pkg is not in those archives"; exit 1; }
	pkg_version=$(dpkg-deb -f "$deb" Version)
	dpkg-deb -x "$deb" "$src"
	rm -f "$deb"
	[ -r "$src/usr/src/$pkg.tar.xz" ] || { say "$deb holds no /usr/src/$pkg.tar.xz"; exit 1; }
	# Whole, then renamed: readers look without the lock, and must not
	# find it empty.
	echo "$pkg_version" >"$src/.done.tmp"
	mv "$src/.done.tmp" "$src/.done"
}
cache_build "$cache/.source.lock" "$src/.done" fetch
echo "$src/usr/src/$pkg.tar.xz $(cat "$src/.done")"
