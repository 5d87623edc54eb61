#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Download one Debian package from a release newer than this machine's
# (trixie-backports, trixie, sid) into DIR and print the .deb's path:
#
#   newer-deb.sh PKG[/SUITE] DIR       e.g. virtme-ng/trixie ~/.cache/ktprof/deb
#
# apt-get download runs with a private sources list, lists directory and
# archive cache under the cache (KTPROF_CACHE, default ~/.cache/ktprof), so
# the machine's own apt configuration stays as it is (bookworm only) and
# nothing is installed. Without /SUITE apt picks the highest version of the
# three; a suite name pins one (a stable release does not move under us).
# A .deb of PKG already in DIR is printed without asking the network.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"
spec=${1:?usage: newer-deb.sh PKG[/SUITE] DIR}
dir=${2:?usage: newer-deb.sh PKG[/SUITE] DIR}
pkg=${spec%%/*}
case "$pkg" in *[!a-z0-9.+-]*|'') say "bad package name '$pkg'"; exit 2 ;; esac
aptdir=$(cache_root)/apt

cached() {
	# shellcheck disable=SC2012
	{ ls -1 "$dir/${pkg}_"*.deb 2>/dev/null || true; } | sort -V | tail -n 1
}

mkdir -p "$dir" "$aptdir/lists/partial" "$aptdir/cache/archives/partial"
deb=$(cached)
if [ -n "$deb" ]; then
	echo "$deb"
	exit 0
fi

# One private apt at a time (kernel-source.sh shares it): its lists and
# archive cache are not safe to update twice at once. The lock guards apt's
# state, not DIR: a .deb appears there whole (renamed into it), so the
# look above needs no lock.
cache_lock "$aptdir/.lock"
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
say "fetching $spec from Debian (trixie-backports, trixie, sid)"
apt-get "${apt_opts[@]}" -qq update
# apt takes a name it does not know as a regular expression
# (linux-source-6.1 would fetch linux-source-6.12): ask for exact names only.
apt-cache "${apt_opts[@]}" pkgnames "$pkg" | grep -qxF "$pkg" ||
	{ say "$pkg is not in those archives"; exit 1; }
# Into a directory of its own, then renamed: a half-downloaded file must
# never pass for the cached package.
tmp=$(mktemp -d "$dir/.dl.XXXXXX")
if ! (cd "$tmp" && apt-get "${apt_opts[@]}" -qq download "$spec"); then
	rm -rf "$tmp"
	say "$spec is not in those archives"
	exit 1
fi
for f in "$tmp"/*.deb; do
	mv "$f" "$dir/"
done
rm -rf "$tmp"
deb=$(cached)
[ -n "$deb" ] || { say "apt-get download left no ${pkg}_*.deb"; exit 1; }
echo "$deb"
