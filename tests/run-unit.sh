#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Run unit-test binaries (built with ASan and UBSan); each prints one PASS,
# FAIL or SKIP line per case (SKIP with the reason: something the case needs
# is absent; it counts neither as a pass nor as a failure). A binary that
# crashes or reports a sanitizer error fails as a whole.
# usage: tests/run-unit.sh BIN... (make unit builds and passes them all)
set -u
# shellcheck source=tests/lib/common.sh
. "$(dirname "$0")/lib/common.sh"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:halt_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
for bin in "$@"; do
	name=$(basename "$bin")
	out=$("$bin" 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep -E "$result_re"
	if [ $rc -ne 0 ] && ! printf '%s\n' "$out" | grep -q '^FAIL '; then
		result_fail "unit/$name: exit $rc"
	fi
	if [ $rc -ne 0 ]; then
		printf '%s\n' "$out" | grep -vE "$result_re" | head -n 60 | indent
	fi
done
