#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Output that cannot be written is an error: every command that prints to
# standard output exits 1 with "write error on standard output" when it
# goes to a full device, and 0 when it goes to a working one.
. "$(dirname "$0")/lib.sh"

"$GEN" -S -o "$T/s.ktp" || fail "gen-capture -S failed"
full() {	# ARGS...: ktprof ARGS > /dev/full
	timeout 60 "$KTPROF" "$@" >/dev/full 2>"$T/err"
	rc=$?
	[ "$rc" = 1 ] || fail "ktprof $* > /dev/full: exit $rc, want 1 ($(cat "$T/err"))"
	grep -q 'write error on standard output' "$T/err" ||
		fail "ktprof $* > /dev/full: no write error: $(cat "$T/err")"
}
for args in "dump $T/s.ktp" "dump --json $T/s.ktp" "info $T/s.ktp" \
	"report --profile $T/s.ktp" "--help" "version" "help dump" "convert --help"; do
	# shellcheck disable=SC2086
	full $args
	# shellcheck disable=SC2086
	expect 0 '' $args
done
echo ok
