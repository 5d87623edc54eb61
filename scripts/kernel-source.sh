#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Print the path of Debian's linux-source-VERSION tarball and its package
# version, fetching the package when needed:
#   TARBALL PKG_VERSION
#
# From the installed package (/usr/src) when it is there; otherwise the
# package is downloaded with `apt-get download` from Debian releases newer
# than this machine's (trixie-backports, trixie, sid), through a private
# sources list and lists directory under the cache, so the machine's own apt
# configuration stays as it is (bookworm only), and unpacked into the cache.
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

aptdir=$cache/apt
src=$cache/source/$pkg
if [ -f "$src/.done" ]; then
	echo "$src/usr/src/$pkg.tar.xz $(cat "$src/.done")"
	exit 0
fi

[ -z "$cached_only" ] || exit 1

mkdir -p "$aptdir/lists/partial" "$aptdir/cache/archives/partial" "$cache/source"
exec 9>"$cache/.source.lock"
flock 9
if [ -f "$src/.done" ]; then
	echo "$src/usr/src/$pkg.tar.xz $(cat "$src/.done")"
	exit 0
fi
cat >"$aptdir/sources.list" <<'EOF'
deb http://deb.debian.org/debian trixie-backports main
deb http://deb.debian.org/debian trixie main
deb http://deb.debian.org/debian sid main
EOF
apt_opts=(-o "Dir::Etc::SourceList=$aptdir/sources.list"
	-o Dir::Etc::SourceParts=/dev/null
	-o "Dir::State::Lists=$aptdir/lists"
	-o "Dir::Cache=$aptdir/cache"
	-o Dir::State::Status=/dev/null
	-o APT::Sandbox::User=root
	-o Debug::NoLocking=1)
say "fetching $pkg from Debian (trixie-backports, trixie, sid)"
apt-get "${apt_opts[@]}" -qq update
rm -rf "$src.tmp"
mkdir -p "$src.tmp"
(cd "$src.tmp" && apt-get "${apt_opts[@]}" -qq download "$pkg") ||
	{ say "$pkg is not in those archives"; exit 1; }
deb=$(ls "$src.tmp"/"$pkg"_*.deb)
pkg_version=$(dpkg-deb -f "$deb" Version)
dpkg-deb -x "$deb" "$src.tmp"
rm -f "$deb"
[ -r "$src.tmp/usr/src/$pkg.tar.xz" ] || { say "$deb holds no /usr/src/$pkg.tar.xz"; exit 1; }
rm -rf "$src"
mv "$src.tmp" "$src"
echo "$pkg_version" >"$src/.done"
echo "$src/usr/src/$pkg.tar.xz $pkg_version"
