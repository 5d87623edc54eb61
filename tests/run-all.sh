#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Run every test suite and end with "N passed, N failed" (a SKIP line, a
# test that could not run here and says why, counts as neither: they are
# listed before the count):
#   style   checkpatch on kmod/, the layers of user/
#   unit    tests/unit (ASan + UBSan)
#   cli     tests/cli/t-*.sh, the real binary on files
#   fuzz    tests/fuzz/run.sh: each libFuzzer harness on the bad inputs,
#           then FUZZ_SECONDS (20) of fuzzing
#   vm      tests/vm/t-*.sh in VMs on every test kernel (KERNELS)
#   vng     tests/vng/t-*.sh: the README's virtme-ng commands, on 6.12
# Expects `make all tests-bin fuzz-bin modules-all` to have run (make check does).
# usage: tests/run-all.sh [SUITE...]   (default: all six)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
# shellcheck source=tests/lib/common.sh
. tests/lib/common.sh
mkdir -p build
results=build/test-results.txt
: >"$results"
[ $# -gt 0 ] || set -- style unit cli fuzz vm vng
start=$(date +%s)
# Seconds since make check began (it exports KTPROF_CHECK_START), or since
# this run did: in a cut log (a CI's tail) each suite's line says where
# the time went.
since=${KTPROF_CHECK_START:-$start}

# One command-line test: its result line, and what explains a failure.
cli_test() {	# SCRIPT
	local t=$1 out name
	name=$(basename "$t" .sh)
	name=${name#t-}
	if out=$(bash "$t" 2>&1); then
		printf '%s\n' "$out" | grep '^notice:' | sort -u
		result_pass "cli/$name"
	else
		result_fail "cli/$name"
		printf '%s\n' "$out" | tail -n 30 | indent
	fi
}

# The command-line tests, a test a core (each has a directory of its own;
# t-scaling compares CPU times, not wall times), their results in the
# order of their names.
run_cli() {
	local dir tests=(tests/cli/t-*.sh)
	[ -e "${tests[0]}" ] || return 0
	dir=$(mktemp -d "${TMPDIR:-/tmp}/ktprof-cli-run.XXXXXX") || return 1
	run_ordered "$dir" cli_test "${tests[@]}"
	rm -rf "$dir"
}

run_suite() {
	case "$1" in
	style)
		if out=$(scripts/checkpatch.sh 2>&1); then
			result_pass "style/checkpatch"
		else
			result_fail "style/checkpatch"
			printf '%s\n' "$out" | head -n 40 | indent
		fi
		if out=$(scripts/check-layers.sh 2>&1); then
			result_pass "style/layers"
		else
			result_fail "style/layers"
			printf '%s\n' "$out" | head -n 40 | indent
		fi
		;;
	unit) tests/run-unit.sh build/unit/test-* ;;
	cli) run_cli ;;
	fuzz) tests/fuzz/run.sh --seconds "${FUZZ_SECONDS:-20}" ;;
	vm)
		# shellcheck disable=SC2046
		tests/vm/run.sh $(for k in ${KERNELS:-6.12 6.1 7.3 scx}; do printf -- '--kernel %s ' "$k"; done)
		;;
	vng) tests/vng/run.sh ;;
	*) result_fail "suite/$1: unknown suite" ;;
	esac
}

for suite in "$@"; do
	echo "=== $suite (at $(( $(date +%s) - since )) s)"
	run_suite "$suite" 2>&1 | tee -a "$results"
done
# The result lines of tests/lib/common.sh (result_pass, _fail, _skip).
passed=$(grep -c '^PASS ' "$results")
failed=$(grep -c '^FAIL ' "$results")
skipped=$(grep -c '^SKIP ' "$results")
echo "=== $(( $(date +%s) - start )) s"
if [ "$skipped" -gt 0 ]; then
	echo "skipped ($skipped, neither passed nor failed):"
	grep '^SKIP ' "$results" | sed 's/^/  /'
fi
if [ "$failed" -gt 0 ]; then
	echo "failed:"
	grep '^FAIL ' "$results" | sed 's/^/  /'
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
