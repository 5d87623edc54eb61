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
mkdir -p build
results=build/test-results.txt
: >"$results"
[ $# -gt 0 ] || set -- style unit cli fuzz vm vng
start=$(date +%s)

run_suite() {
	case "$1" in
	style)
		if out=$(scripts/checkpatch.sh 2>&1); then
			echo "PASS style/checkpatch"
		else
			echo "FAIL style/checkpatch"
			printf '%s\n' "$out" | head -n 40 | sed 's/^/    /'
		fi
		if out=$(scripts/check-layers.sh 2>&1); then
			echo "PASS style/layers"
		else
			echo "FAIL style/layers"
			printf '%s\n' "$out" | head -n 40 | sed 's/^/    /'
		fi
		;;
	unit) tests/run-unit.sh build/unit/test-* ;;
	cli)
		local t
		for t in tests/cli/t-*.sh; do
			[ -e "$t" ] || continue
			if out=$(bash "$t" 2>&1); then
				printf '%s\n' "$out" | grep '^notice:' | sort -u
				echo "PASS cli/$(basename "$t" .sh | sed 's/^t-//')"
			else
				echo "FAIL cli/$(basename "$t" .sh | sed 's/^t-//')"
				printf '%s\n' "$out" | tail -n 30 | sed 's/^/    /'
			fi
		done
		;;
	fuzz) tests/fuzz/run.sh --seconds "${FUZZ_SECONDS:-20}" ;;
	vm)
		# shellcheck disable=SC2046
		tests/vm/run.sh $(for k in ${KERNELS:-6.12 6.1 7.3}; do printf -- '--kernel %s ' "$k"; done)
		;;
	vng) tests/vng/run.sh ;;
	*) echo "FAIL suite/$1: unknown suite" ;;
	esac
}

for suite in "$@"; do
	echo "=== $suite"
	run_suite "$suite" 2>&1 | tee -a "$results"
done
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
