#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Helpers for command-line tests (run on the host, no VM).
set -u
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
KTPROF=$TOP/user/ktprof
GEN=$TOP/build/tools/gen-capture
T=$(mktemp -d "${TMPDIR:-/tmp}/ktprof-cli.XXXXXX")
trap 'rm -rf "$T"' EXIT

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# Run ktprof with a timeout; sets $rc, $out, $err.
run() {
	timeout 60 "$KTPROF" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	out=$(cat "$T/out")
	err=$(cat "$T/err")
	[ $rc -ne 124 ] || fail "ktprof $* hung"
	[ $rc -lt 128 ] || fail "ktprof $* died with signal $((rc - 128)): $err"
}

# Expect exit status $1 and stderr matching $2 (an ERE) from ktprof ARGS...
expect() {
	local want=$1 pattern=$2
	shift 2
	run "$@"
	[ "$rc" = "$want" ] || fail "ktprof $*: exit $rc, want $want (stderr: $err)"
	[ -z "$pattern" ] || echo "$err" | grep -Eq -- "$pattern" ||
		fail "ktprof $*: stderr lacks /$pattern/: $err"
}
