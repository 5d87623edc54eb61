#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A reader pinned to an isolated CPU (isolcpus=2) captures the standard
# workload, running on the other CPUs, with zero loss; vm-capture.sh finds
# the isolated CPU by itself.
# vm-args: --cpus 3 --append isolcpus=2
. "$(dirname "$0")/lib.sh"
out=$KTPROF_TEST_OUT

guest() {
	[ "$(cat /sys/devices/system/cpu/isolated)" = 2 ] || fail "isolcpus=2 not in effect"
	"$KTPROF_TOP/scripts/vm-capture.sh" --out "$out" -- \
		"$WORKLOADS/sched-mix" -r "$(scaled 3000 1000)" -t 300 >"$out/pids" || fail "vm-capture failed"
	grep -q 'reader_cpu=2' "$out/info.txt" || fail "readers not pinned to CPU 2: $(cat "$out/info.txt")"
	grep -q '^lost records      0$' "$out/info.txt" || fail "loss: $(cat "$out/info.txt")"

	say "vm-capture.sh --shell-only"
	"$KTPROF_TOP/scripts/vm-capture.sh" --shell-only --out "$out/shell" -- \
		"$WORKLOADS/sched-mix" -r 500 -t 50 >/dev/null || fail "shell-only capture failed"
	"$KTPROF" import "$out/shell/raw" -o "$out/shell.ktp" || fail "import failed"
	"$KTPROF" info "$out/shell.ktp" | grep -A4 '^topology' | grep -q ' 2 ' || fail "no topology imported"
}

host() {
	"$KTPROF" dump --json "$out/capture.ktp" >"$out/dump.json" || fail "dump failed"
	/usr/bin/python3 "$(dirname "$0")/check_stream.py" "$out/dump.json" --pids "$out/pids" ||
		fail "stream check failed"
	echo ok
}

run_phases
