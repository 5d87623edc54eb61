#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Stacks at the switch and the waking (-S offcpu,waker,user): threads that block
# in known places (tests/workloads/blockers: a pipe read, nanosleep, a
# futex wait, a contended pthread mutex, fsync on the 9p share in D) are
# recorded, and
# `ktprof report --offcpu` names each one's blocking function as this
# kernel spells it; each thread's off-CPU time by state equals its S and D
# time of --states to the nanosecond (the same switch records); the pipe
# reader's sleeps join its writer's stack at the waking, in the pipe's
# write path, and its user stack begins in libc's read(); the folded
# stacks weigh what the report says; perf's callchains at the same
# switches (perf record -e sched:sched_switch -g on the same run, read by
# perf sched timehist -g) give each thread the same most frequent blocking
# function (the same rule applied), and timehist's own first frame is
# that function or a scheduler function; no stack id is left without its
# STACK record. The module parameter (stacks=offcpu) does
# the same for a shell-only capture.
. "$(dirname "$0")/lib.sh"
out=$KTPROF_TEST_OUT
# Each round of eight threads is a few dozen switches and wakings with
# stacks, under perf's callchains too: on the debug kernel, fewer.
rounds=$(scaled 80 30)
command -v perf >/dev/null || fail "perf is not installed (scripts/setup.sh: linux-perf)"

guest() {
	# perf on the same run: a callchain at each of the workload's
	# switches, unwound by perf (the sched_switch of `perf sched record
	# -g`, without the rest of its events, which under TCG made the run
	# 17 times as long); into the guest's tmpfs, as over 9p perf's writes
	# would be much of what is recorded.
	"$KTPROF" record -q -S offcpu,waker,user $(debug_buffer) --load "$KTPROF_KO" -o "$out/cap.ktp" -- \
		perf record -q -e sched:sched_switch -g -o "$TMPDIR/perf.data" -- \
		"$WORKLOADS/blockers" -n "$rounds" -s 1000 -f "$out/fsync.dat" \
		>"$out/threads" 2>"$out/record.err" || fail "record failed: $(cat "$out/record.err")"
	module_loaded && fail "--load left the module loaded"
	cp "$TMPDIR/perf.data" "$out/perf.data" || fail "perf.data not copied"
	# perf's addresses are the guest kernel's: named with its kallsyms.
	cat /proc/kallsyms >"$out/kallsyms"

	# User stacks without CPU sampling: their mappings still named.
	say "user stacks, no samples"
	"$KTPROF" record -q -S none,offcpu,user --load "$KTPROF_KO" -o "$out/nosamples.ktp" -- \
		"$WORKLOADS/blockers" -n 10 -s 1000 >"$out/nosamples.threads" 2>"$out/nosamples.err" ||
		fail "record -S none,offcpu,user failed: $(cat "$out/nosamples.err")"

	say "module parameter, shell-only capture"
	load_module stacks=offcpu samples=none
	ctl start
	"$WORKLOADS/blockers" -n 20 -s 1000 >"$out/raw.threads" || fail "workload failed"
	ctl stop
	dump_session "$out/raw"
	# Its symbols, as a raw directory takes them (the functions by name).
	cat /proc/kallsyms >"$out/raw/kallsyms"
	unload_module
}

host() {
	local major
	major=$(kernel_version)
	grep -q '^lost records      0$' <("$KTPROF" info "$out/cap.ktp") || fail "ktprof lost records"
	grep -q '^  stacks          offcpu,waker,user$' <("$KTPROF" info "$out/cap.ktp") ||
		fail "info does not say the stacks: $("$KTPROF" info "$out/cap.ktp")"
	# Most stacks came from kept walks (kmod/chain.c), not the unwinder:
	# what follows checks those too, against perf's own callchains.
	grep -Eq '^kept stack walks  [1-9][0-9]* ' <("$KTPROF" info "$out/cap.ktp") ||
		fail "no stack was taken from a kept walk"
	"$KTPROF" report --json --offcpu --states --comm blockers "$out/cap.ktp" >"$out/report.json" ||
		fail "report --json failed"
	"$KTPROF" report --offcpu --comm blockers "$out/cap.ktp" >"$out/report.txt" ||
		fail "report --offcpu failed"
	"$KTPROF" report --offcpu --folded --comm blockers "$out/cap.ktp" >"$out/offcpu.folded" ||
		fail "report --offcpu --folded failed"
	perf sched timehist -g --state --max-stack 127 --kallsyms "$out/kallsyms" \
		-i "$out/perf.data" >"$out/timehist.txt" 2>"$out/timehist.err" ||
		fail "perf sched timehist failed: $(cat "$out/timehist.err")"
	/usr/bin/python3 "$(dirname "$0")/check_offcpu.py" "$major" "$out/threads" \
		"$out/report.json" "$out/offcpu.folded" "$out/timehist.txt" "$out/kallsyms" ||
		fail "off-CPU stacks check failed"

	"$KTPROF" report --json --offcpu --comm blockers "$out/nosamples.ktp" >"$out/nosamples.json" ||
		fail "report of the capture without samples failed"
	/usr/bin/python3 - "$out/nosamples.json" "$out/nosamples.threads" <<'PY' ||
import json, sys
o = json.load(open(sys.argv[1]))["offcpu"]
reader = [int(l.split()[1]) for l in open(sys.argv[2]) if l.startswith("ktp-piperd ")][0]
# Its sleeps in the pipe: their user stacks begin in libc's read().
pipe = [s["uframes"] for s in o["stacks"] if s["thread"]["pid"] == reader and
        s["function"] in ("pipe_read", "anon_pipe_read")]
print("no samples: ktp-piperd's user stacks in the pipe %s" % [u[:2] for u in pipe[:3]])
sys.exit(0 if pipe and all(u and u[0] == "read" for u in pipe) else 1)
PY
		fail "without samples, the pipe reader's user stack does not begin in read()"
	# And convert's sleep slices name them: the writer sleeps in
	# clock_nanosleep() called from the workload's pipe_writer().
	"$KTPROF" convert --view threads -o "$out/nosamples.pftrace" "$out/nosamples.ktp" 2>/dev/null ||
		fail "convert of the capture without samples failed"
	/usr/bin/python3 "$KTPROF_TOP/tests/lib/trace_facts.py" trace "$out/nosamples.pftrace" \
		>"$out/nosamples.facts" || fail "trace_facts failed"
	grep -q '^slice_frames_with pipe_writer [1-9]' "$out/nosamples.facts" ||
		fail "without samples, convert's off-CPU stacks do not name pipe_writer()"

	"$KTPROF" report --json --offcpu --comm blockers "$out/raw" >"$out/raw.json" ||
		fail "report of the shell-only capture failed"
	/usr/bin/python3 - "$out/raw.json" "$out/raw/meta" <<'PY' || fail "the shell-only capture has no off-CPU stacks"
import json, sys
o = json.load(open(sys.argv[1]))["offcpu"]
meta = open(sys.argv[2]).read()
print("shell-only: %d switch-outs with a stack, %d wakings" % (o["switches_with_stack"], o["wakings_with_stack"]))
# The sleeper's most frequent blocking function (its start may wait longer).
sleeper = sorted((f["sleeps"], f["function"]) for f in o["functions"]
                 if f["thread"]["comm"] == "ktp-sleeper")
print("ktp-sleeper: %s" % sleeper[-3:])
ok = "stacks=offcpu\n" in meta and o["switches_with_stack"] >= 20 and \
    o["wakings_with_stack"] == 0 and o["stacks_missing"] == 0 and \
    sleeper and sleeper[-1][1] == "hrtimer_nanosleep"
sys.exit(0 if ok else 1)
PY
	echo ok
}

run_phases
