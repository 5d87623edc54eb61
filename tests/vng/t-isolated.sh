#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The README's virtme-ng command with a CPU kept for the tracer (3 CPUs,
# isolcpus=2): vm-capture.sh finds the isolated CPU by itself and pins the
# recorder's readers there; the capture covers all three CPUs with no lost
# record, and the workload, kept off the isolated CPU by the scheduler,
# never runs on it.
. "$(dirname "$0")/lib.sh"

run_vng vng --run "$VNG_IMAGE" --disable-kvm --cpus 3 --append isolcpus=2 --rwdir "$CAP=$CAP" \
	--exec "scripts/vm-capture.sh --out $CAP -- build/workloads/sched-mix"
workload_pids
check_capture "$CAP/capture.ktp"
check_dmesg
grep -q '^  cpus            0-2 of 3' "$VNG_OUT/info.txt" || fail "not a 3-CPU capture: $(grep cpus "$VNG_OUT/info.txt")"
grep -q 'reader_cpu=2$' "$VNG_OUT/info.txt" || fail "readers not pinned to the isolated CPU 2: $(grep option "$VNG_OUT/info.txt")"
# The scheduler leaves an isolated CPU alone: none of the workload's
# threads is ever switched in on CPU 2 (the readers are).
/usr/bin/python3 - "$VNG_OUT/dump.json" "$VNG_OUT/pids" <<'PY' || fail "the workload ran on the isolated CPU"
import json, sys
pids = {int(l.split("=")[1]) for l in open(sys.argv[2]) if "=" in l}
on2 = 0
bad = set()
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e["type"] == "sched_switch" and e["cpu"] == 2:
        on2 += 1
        if e["next_pid"] in pids:
            bad.add(e["next_pid"])
if bad:
    print("workload pids switched in on cpu 2: %s" % sorted(bad))
    sys.exit(1)
if not on2:
    print("no switch at all on cpu 2: the readers did not run there")
    sys.exit(1)
print("cpu 2: %d switches, none to the workload" % on2)
PY
echo ok
