#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Runs inside the guest (via scripts/vm-run): each VM test in turn, with
# markers in the kernel log so the host can attribute console reports to the
# test that was running. Results go to RESULTS as "NAME RC SECONDS PROCESSES" lines.
# usage: guest.sh RESULTS_DIR TEST.sh...
set -u
results=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
: "${KTPROF_TEST_TIMEOUT:=600}"

for t in "$@"; do
	name=$(basename "$t" .sh)
	echo "ktprof-test: begin $name" >/dev/kmsg
	start=$(date +%s)
	forks=$(awk '$1 == "processes" { print $2 }' /proc/stat)
	KTPROF_TEST_OUT=$results/$name.d
	rm -rf "$KTPROF_TEST_OUT"
	mkdir -p "$KTPROF_TEST_OUT"
	export KTPROF_TEST_OUT
	# A test's own "# timeout: SECONDS" header wins over the default.
	limit=$(sed -n 's/^# timeout: *//p' "$t" | head -n 1)
	# In a session of its own, so that what it leaves running (a
	# background workload or reader of a test that failed or timed out)
	# ends with it instead of loading, or holding the module's files
	# in, the tests after it.
	setsid timeout -k 10 "${limit:-$KTPROF_TEST_TIMEOUT}" bash "$t" >"$results/$name.log" 2>&1 &
	sid=$!
	wait "$sid"
	rc=$?
	for _ in $(seq 50); do
		pkill -KILL -s "$sid" 2>/dev/null || break
		sleep 0.2
	done
	# A test that failed half-way may leave the module loaded: the next
	# test starts from a clean kernel.
	if grep -q '^ktprof ' /proc/modules &&
	   ! bash "$here/lib.sh" unload >>"$results/$name.log" 2>&1 && [ "$rc" = 0 ]; then
		rc=1
	fi
	echo "ktprof-test: end $name rc=$rc" >/dev/kmsg
	# The processes it started too: on a debug kernel under TCG each
	# fork and exec costs from a quarter of a second to seconds, and
	# they are much of what its tests take.
	forks=$(( $(awk '$1 == "processes" { print $2 }' /proc/stat) - forks ))
	echo "$name $rc $(( $(date +%s) - start )) $forks" >>"$results/results"
done
