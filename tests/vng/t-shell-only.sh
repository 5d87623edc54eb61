#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The README's virtme-ng command, --shell-only variant: no recorder, the
# relay files copied with cat into raw/ of the --rwdir share; `ktprof
# import` on the host makes a capture with no lost record, continuous
# switch sequences, the workload's ktp-* threads and the guest's topology.
. "$(dirname "$0")/lib.sh"

run_vng vng --run "$VNG_IMAGE" --disable-kvm --rwdir "$CAP=$CAP" \
	--exec "scripts/vm-capture.sh --shell-only --out $CAP -- build/workloads/sched-mix"
workload_pids
[ -d "$CAP/raw" ] || fail "vm-capture.sh --shell-only left no raw/ in $CAP"
"$KTPROF" import "$CAP/raw" -o "$VNG_OUT/capture.ktp" >"$VNG_OUT/import.log" 2>&1 ||
	fail "ktprof import failed: $(cat "$VNG_OUT/import.log")"
check_capture "$VNG_OUT/capture.ktp"
check_dmesg
# One topology line per guest CPU, each CPU once (not once per run).
[ -s "$CAP/raw/topology" ] || fail "no raw/topology"
[ -z "$(cut -d' ' -f1 "$CAP/raw/topology" | sort | uniq -d)" ] ||
	fail "raw/topology lists a CPU twice: $(cat "$CAP/raw/topology")"
echo ok
