#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Helpers for the virtme-ng tests (tests/vng/t-*.sh), which run on the host
# from the top of the tree, as tests/vng/run.sh starts them: each boots the
# test kernel with the README's vng command line, then checks on the host
# what scripts/vm-capture.sh left in the shared directory.
#
# From run.sh: VNG_KERNEL (6.12, 7.3), VNG_IMAGE (its bzImage), VNG_OUT (a
# fresh directory of the test's own; CAP inside it is the --rwdir share).
set -u
KTPROF_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=tests/lib/common.sh
. "$KTPROF_TOP/tests/lib/common.sh"	# fail, say
KTPROF=$KTPROF_TOP/user/ktprof
: "${VNG_IMAGE:?run the vng tests with tests/vng/run.sh}"
: "${VNG_OUT:?run the vng tests with tests/vng/run.sh}"
CAP=$VNG_OUT/cap
mkdir -p "$CAP"
# A VM that never ends is a failure, not a hung suite; TCG boots take 5 to
# 40 s here, so this only catches a guest that is stuck.
VNG_TIMEOUT=${VNG_TIMEOUT:-240}

# Run vng as given; its stdout (the guest command's) into $VNG_OUT/vng.out,
# its stderr into vng.err. No stdin: vng must not wait for a terminal (CI
# has none). When qemu itself aborts on one of its own assertions (seen
# once under check-busy, 3 s into a 3-vCPU TCG boot: "iotlb_to_section:
# Assertion ... failed"), that is the emulator, not the guest: it is run
# once more, and the first try's stderr is kept as vng.err.1; so is a
# boot that hung (a timeout with nothing from the command).
run_vng() {
	local rc try
	for try in 1 2; do
		rc=0
		say "vng $*"
		timeout -k 10 "$VNG_TIMEOUT" "$@" </dev/null >"$VNG_OUT/vng.out" 2>"$VNG_OUT/vng.err" || rc=$?
		indent 'vng| ' <"$VNG_OUT/vng.err"
		[ "$rc" != 0 ] && [ "$try" = 1 ] || break
		mv "$VNG_OUT/vng.err" "$VNG_OUT/vng.err.1"
		if grep -q '^qemu-system-[a-z0-9_]*: .*Assertion .* failed' "$VNG_OUT/vng.err.1"; then
			echo "notice: qemu aborted on its own assertion (vng exit $rc); running vng once more"
		elif [ "$rc" = 124 ] && [ ! -s "$VNG_OUT/vng.out" ]; then
			# Nothing from the command at all: the guest's boot hung
			# (a 3-CPU TCG guest did so once, in a clean run here).
			echo "notice: the guest printed nothing in $VNG_TIMEOUT s (its boot hung); running vng once more"
		else
			mv "$VNG_OUT/vng.err.1" "$VNG_OUT/vng.err"
			break
		fi
	done
	[ "$rc" != 124 ] || fail "vng did not end within $VNG_TIMEOUT s"
	[ "$rc" = 0 ] || fail "vng exited $rc (the guest command's status; its stderr is above)"
}

# The workload's key=value lines (tests/workloads/sched-mix) from the
# guest's stdout, for check_stream.py --pids.
workload_pids() {
	grep -E '^[a-z]+=[0-9]+$' "$VNG_OUT/vng.out" >"$VNG_OUT/pids"
	grep -q '^main=' "$VNG_OUT/pids" ||
		fail "the workload's pids are not in the guest's output: $(head -c 500 "$VNG_OUT/vng.out")"
}

# A capture file of the guest's: complete, no lost record, continuous
# switch sequences, the workload's ktp-* tasks with their comm and tgid.
check_capture() {
	local ktp=$1
	[ -s "$ktp" ] || fail "no capture: $ktp is missing or empty"
	"$KTPROF" info "$ktp" >"$VNG_OUT/info.txt" 2>&1 || fail "ktprof info failed: $(cat "$VNG_OUT/info.txt")"
	grep -q '^lost records      0$' "$VNG_OUT/info.txt" ||
		fail "records were lost: $(grep "^lost records" "$VNG_OUT/info.txt")"
	"$KTPROF" dump --json "$ktp" >"$VNG_OUT/dump.json" || fail "ktprof dump failed"
	/usr/bin/python3 "$KTPROF_TOP/tests/vm/check_stream.py" "$VNG_OUT/dump.json" \
		--pids "$VNG_OUT/pids" || fail "capture check failed (check_stream.py above)"
}

# What the guest's kernel said while the capture ran (vm-capture.sh keeps
# it as OUT/dmesg: vng sends the console nowhere without --verbose).
check_dmesg() {
	[ -s "$CAP/dmesg" ] || fail "vm-capture.sh left no kernel log ($CAP/dmesg)"
	local bad
	bad=$("$KTPROF_TOP/scripts/console-check" "$CAP/dmesg") ||
		fail "the guest's kernel reported a bug: $(printf '%s\n' "$bad" | head -n 5)"
}
