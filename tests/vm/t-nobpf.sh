#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The point of ktprof: on the debug kernel bpf() does not exist, yet the
# module loads, captures and unloads.
# kernels: 7.3 debug-6.12
. "$(dirname "$0")/lib.sh"
out=$KTPROF_TEST_OUT

guest() {
	/usr/bin/python3 - <<'PY' || fail "bpf() is available on this kernel"
import ctypes, errno, sys
libc = ctypes.CDLL(None, use_errno=True)
ret = libc.syscall(321, 0, 0, 0)   # __NR_bpf on x86-64
err = ctypes.get_errno()
print("bpf() returned %d, errno %s" % (ret, errno.errorcode.get(err, err)))
sys.exit(0 if ret == -1 and err == errno.ENOSYS else 1)
PY
	[ -e /sys/fs/bpf ] && fail "/sys/fs/bpf exists"
	load_module
	ctl start
	"$WORKLOADS/sched-mix" -r 500 -t 50 >"$out/pids" || fail "workload failed"
	ctl stop
	dump_session "$out/raw"
	unload_module
}

# The session's data decodes with continuous switch sequences: checked on
# the host, at native speed.
host() {
	"$KTPROF" dump --json "$out/raw" >"$out/dump.json" || fail "dump failed"
	/usr/bin/python3 "$(dirname "$0")/check_stream.py" "$out/dump.json" --pids "$out/pids" ||
		fail "stream check failed"
	echo ok
}

run_phases
