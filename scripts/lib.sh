# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# What the scripts share; sourced (`. "$here/lib.sh"`), not run.
#
# POSIX sh, not bash: vm-capture.sh sources it in guests that may have
# nothing but busybox.
#
#   say MSG...        MSG on stderr as "NAME: MSG"; NAME is prog_name, the
#                     script's file name without .sh unless it sets another
#   die MSG...        say MSG, exit 1
#   cache_root        the cache directory: $KTPROF_CACHE, else ~/.cache/ktprof
#   cache_lock FILE   wait for, then hold until exit, an exclusive flock on
#                     FILE (made with its directory); one lock a process
#   cache_build LOCK MARKER CMD [ARG...]
#                     unless MARKER exists, run CMD under LOCK to fill
#                     MARKER's directory, then make MARKER: see below

prog_name=${0##*/}
prog_name=${prog_name%.sh}

say() { printf '%s: %s\n' "$prog_name" "$*" >&2; }
die() { say "$@"; exit 1; }

# A function, not a variable set here: HOME may be unset in a guest's init,
# and vm-capture.sh, which sources this file there, has no cache.
cache_root() { printf '%s\n' "${KTPROF_CACHE:-$HOME/.cache/ktprof}"; }

# The lock is flock(1) on fd 9, held by this process and whatever it starts
# (a make that outlives a killed script keeps it until it ends) until they
# exit. fd 9 because POSIX sh has no way to pick a free descriptor: a
# second lock would replace the first, so it is refused. Taking the same
# lock again is a no-op, so that a script may take a build's lock early (to
# work out the cache key under it, as lttng-modules.sh does) and still
# call cache_build with it.
cache_lock_held=
cache_lock() {	# FILE
	[ "$cache_lock_held" != "$1" ] || return 0
	[ -z "$cache_lock_held" ] || die "cache_lock $1: $cache_lock_held is held already"
	mkdir -p "$(dirname "$1")" || die "cannot create the directory of $1"
	exec 9>"$1" || die "cannot open $1"
	flock 9 || die "cannot lock $1"
	cache_lock_held=$1
}

# cache_build LOCK MARKER CMD [ARG...]
# A build cached in a directory of its own, DIR (MARKER's directory), and
# complete when MARKER exists. MARKER is made last, so a DIR without it is
# a build that died midway, and a script that finds MARKER may use DIR
# without the lock: cache_build returns at once then. Otherwise it takes
# LOCK (cache_lock), waiting for a concurrent build, and looks again: that
# build may have been this one. If not, it empties DIR (what a build that
# died left), runs CMD under the lock to fill DIR, and makes MARKER when
# CMD succeeds. CMD may write MARKER itself, as its last step
# (kernel-source.sh keeps the package's version in it): it is only
# touched then. One LOCK may serve several DIRs (all debug kernels share
# one), so CMD may also clear other DIRs' leftovers. The lock stays held
# until the script exits.
#
# Call it as a command of its own, not in `if`, `&&` or `||`: bash ignores
# `set -e` inside those, so a step of CMD that fails would not stop it.
# Under `set -e` a failing CMD exits the script with its status, as the
# same steps written inline would; without it cache_build returns that
# status, and MARKER is not made.
cache_build() {	# LOCK MARKER CMD [ARG...]
	cache_build_marker=$2
	cache_build_dir=${2%/*}
	case "$2" in
	*/*) [ -n "$cache_build_dir" ] || die "cache_build: MARKER must be in a directory: $2" ;;
	*) die "cache_build: MARKER must be in a directory: $2" ;;
	esac
	[ ! -f "$cache_build_marker" ] || return 0
	cache_lock "$1"
	[ ! -f "$cache_build_marker" ] || return 0
	shift 2
	rm -rf "$cache_build_dir"
	mkdir -p "$cache_build_dir"
	"$@"
	cache_build_rc=$?
	[ "$cache_build_rc" = 0 ] || return "$cache_build_rc"
	touch "$cache_build_marker"
}
