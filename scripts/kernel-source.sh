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
version=${1:?usage: kernel-source.sh [--cached] VERSION}
case "$version" in *[!0-9.]*|'') echo "kernel-source: bad version '$version'" >&2; exit 2 ;; esac
pkg=linux-source-$version
cache=${KTPROF_CACHE:-$HOME/.cache/ktprof}
say() { printf 'kernel-source: %s\n' "$*" >&2; }

if [ -r "/usr/src/$pkg.tar.xz" ] &&
	dpkg-query -W -f='${db:Status-Status}\n' "$pkg" 2>/dev/null | grep -qx installed; then
	echo "/usr/src/$pkg.tar.xz $(dpkg-query -W -f='${Version}' "$pkg")"
	exit 0
fi

src=$cache/source/$pkg
if [ -f "$src/.done" ]; then
	echo "$src/usr/src/$pkg.tar.xz $(cat "$src/.done")"
	exit 0
fi

[ -z "$cached_only" ] || exit 1

mkdir -p "$cache/source"
exec 9>"$cache/.source.lock"
flock 9
if [ -f "$src/.done" ]; then
	echo "$src/usr/src/$pkg.tar.xz $(cat "$src/.done")"
	exit 0
fi
rm -rf "$src.tmp"
mkdir -p "$src.tmp"
deb=$("$(dirname "$0")/newer-deb.sh" "$pkg" "$src.tmp") ||
	{ say "$pkg is not in those archives"; exit 1; }
pkg_version=$(dpkg-deb -f "$deb" Version)
dpkg-deb -x "$deb" "$src.tmp"
rm -f "$deb"
[ -r "$src.tmp/usr/src/$pkg.tar.xz" ] || { say "$deb holds no /usr/src/$pkg.tar.xz"; exit 1; }
rm -rf "$src"
mv "$src.tmp" "$src"
echo "$pkg_version" >"$src/.done"
echo "$src/usr/src/$pkg.tar.xz $pkg_version"
