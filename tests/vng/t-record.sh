#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The README's virtme-ng command, recorder variant: vm-capture.sh records
# build/workloads/sched-mix with `ktprof record` in a vng guest and leaves
# capture.ktp in the --rwdir share; on the host it has no lost record,
# continuous switch sequences and the workload's ktp-* threads.
. "$(dirname "$0")/lib.sh"

run_vng vng --run "$VNG_IMAGE" --disable-kvm --rwdir "$CAP=$CAP" \
	--exec "scripts/vm-capture.sh --out $CAP -- build/workloads/sched-mix"
workload_pids
check_capture "$CAP/capture.ktp"
check_dmesg
grep -q 'recorded by     ktprof record' "$VNG_OUT/info.txt" || fail "not a recorder capture: $(cat "$VNG_OUT/info.txt")"
echo ok
