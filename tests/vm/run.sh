#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Run VM tests (tests/vm/t-*.sh) on test kernels and print one PASS or FAIL
# line per test and kernel. A test fails when it exits non-zero, when the VM
# dies while it runs, or when the kernel log shows a bug report (oops, BUG,
# WARNING, KASAN, lockdep, ...) while it runs. Tests with a host phase
# (tests/vm/lib.sh: run_phases) have their checks run on the host after
# the VM, on the files the guest left.
#
# usage: tests/vm/run.sh [--kernel NAME]... [TEST...]
#   NAME: 6.12, 6.1, 7.3, debug-X.Y, scx (default: 6.12 6.1 7.3 scx); TEST: a
#   name like load-unload or a path to tests/vm/t-load-unload.sh (default: all)
#
# Test headers (comment lines in the test script):
#   # kernels: 6.12 7.3        only on these kernels (default: all but scx,
#                              which runs only the tests that name it)
#   # vm-args: --cpus 4        boot options; tests with equal options share
#                              one boot
#   # timeout: 1500            seconds the test may take in the guest
#                              (default 600)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib/common.sh
. "$top/tests/lib/common.sh"
kernels=()
tests=()
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) kernels+=("$2"); shift 2 ;;
	-h|--help) sed -n '3,19p' "$0"; exit 0 ;;
	*) tests+=("$1"); shift ;;
	esac
done
[ ${#kernels[@]} -gt 0 ] || kernels=(6.12 6.1 7.3 scx)
if [ ${#tests[@]} -eq 0 ]; then
	tests=("$top"/tests/vm/t-*.sh)
else
	for i in "${!tests[@]}"; do
		t=${tests[$i]}
		[ -f "$t" ] || t=$top/tests/vm/t-${t#t-}
		[ -f "$t" ] || t=${t%.sh}.sh
		[ -f "$t" ] || { result_fail "vm/${tests[$i]}: no such test"; exit 1; }
		tests[$i]=$(cd "$(dirname "$t")" && pwd)/$(basename "$t")
	done
fi

header() { sed -n "s/^# $2: *//p" "$1" | head -n 1; }

# Test name: t-load-unload.sh -> load-unload
test_name() { local n; n=$(basename "$1" .sh); echo "${n#t-}"; }

# The first kernel report of a console log, its first N lines: what a
# guest that died said first (its tail is often another CPU's backtrace).
first_report() {	# N LOG
	local first
	first=$("$top/scripts/console-check" <"$2" | head -n 1)
	[ -n "$first" ] || return 0
	awk -v f="$first" -v n="$1" '$0 == f { on = 1 } on && k++ < n' "$2"
}

report_group() {
	local kernel=$1 out=$2 vm_rc=$3
	shift 3
	local t name rc secs log bad died=
	for t in "$@"; do
		name=$(test_name "$t")
		log=$out/$(basename "$t" .sh).log
		read -r _ rc secs procs < <(grep "^$(basename "$t" .sh) " "$out/results" 2>/dev/null)
		# Kernel reports printed between this test's markers.
		bad=$(awk -v b="ktprof-test: begin $(basename "$t" .sh)" \
			-v e="ktprof-test: end $(basename "$t" .sh) " \
			'index($0, b) { on = 1; next } index($0, e) { on = 0 } on' \
			"$out/console.log" | "$top/scripts/console-check")
		if [ -z "${rc-}" ]; then
			result_fail "vm/$name@$kernel: the VM died or timed out while it ran (vm-run exit $vm_rc)"
			if [ -z "$died" ]; then
				first_report 25 "$out/console.log" | indent 'console| '
				log_tail 20 "$out/console.log" 'console| '
				log_tail 10 "$log" 'log| '
			fi
			died=1
		elif [ -n "$bad" ]; then
			result_fail "vm/$name@$kernel: kernel reported a bug during the test"
			printf '%s\n' "$bad" | head -n 20 | indent 'console| '
			log_tail 20 "$log" 'log| '
		elif [ "$rc" != 0 ]; then
			result_fail "vm/$name@$kernel: exit $rc (${secs} s); log $log"
			log_tail 30 "$log" 'log| '
		elif read -r _ hrc hsecs < <(grep "^$(basename "$t" .sh) " \
				"$out/results.host" 2>/dev/null); then
			if [ "$hrc" != 0 ]; then
				result_fail "vm/$name@$kernel: host phase exit $hrc (guest ${secs} s, host ${hsecs} s); log $log"
				# The host phase's own lines: the guest's
				# would push its failure out of a short tail.
				sed -n '/^--- host phase$/,$p' "$log" >"$log.host"
				log_tail 30 "$log.host" 'log| '
			else
				result_pass "vm/$name@$kernel (guest ${secs} s, ${procs:-?} processes, host ${hsecs} s)"
			fi
		else
			result_pass "vm/$name@$kernel (${secs} s, ${procs:-?} processes)"
		fi
		unset rc secs procs hrc hsecs
	done
}

# The host phase of the tests that passed in the guest and left word that
# they have one (lib.sh: run_phases): their checks of the guest's files, at
# native speed. Results go to OUT/results.host as "NAME RC SECONDS".
run_host_phases() {	# KERNEL OUT TEST...
	local kernel=$1 out=$2 t base rc start
	shift 2
	for t in "$@"; do
		base=$(basename "$t" .sh)
		read -r _ rc _ < <(grep "^$base " "$out/results" 2>/dev/null) || continue
		[ "$rc" = 0 ] && [ -f "$out/$base.d/.host-phase" ] || continue
		start=$(date +%s)
		echo "--- host phase" >>"$out/$base.log"
		KTPROF_PHASE=host KTPROF_TEST_OUT=$out/$base.d KTPROF_VM_KERNEL=$kernel \
			timeout -k 10 600 bash "$t" >>"$out/$base.log" 2>&1
		rc=$?
		echo "$base $rc $(( $(date +%s) - start ))" >>"$out/results.host"
	done
}

# The prepare phase of the tests that define one (lib.sh): on the host,
# before the boot; the guest phase fails with its log if it did.
run_prepare_phases() {	# KERNEL OUT TEST...
	local kernel=$1 out=$2 t base
	shift 2
	for t in "$@"; do
		grep -q '^prepare()' "$t" || continue
		base=$(basename "$t" .sh)
		rm -rf "$out/$base.pre"
		mkdir -p "$out/$base.pre"
		KTPROF_PHASE=prepare KTPROF_TEST_OUT=$out/$base.d KTPROF_VM_KERNEL=$kernel \
			timeout -k 10 600 bash "$t" >"$out/$base.pre/log" 2>&1
	done
}

# One boot per kernel and group of tests with equal boot options (at most
# KTPROF_VM_GROUP tests, default 6, a boot); up to
# KTPROF_VM_JOBS boots at once (default 2: a TCG guest waits on 9p and on
# its own sleeps often enough that two share 2 host cores well). Results
# print in order, each boot's when every earlier one has finished.
jobs_max=${KTPROF_VM_JOBS:-2}
since=${KTPROF_CHECK_START:-$(date +%s)}
group_max=${KTPROF_VM_GROUP:-6}
job_dirs=()

# The debug kernels first: they take longest, and a long boot started
# last would run alone at the end.
debug_first=()
for kernel in "${kernels[@]}"; do
	case "$kernel" in 7.3|debug*) debug_first+=("$kernel") ;; esac
done
for kernel in "${kernels[@]}"; do
	case "$kernel" in 7.3|debug*) ;; *) debug_first+=("$kernel") ;; esac
done
kernels=("${debug_first[@]}")

# Seconds a test may take in the guest (guest.sh applies the same).
test_timeout() { local s; s=$(header "$1" timeout); echo "${s:-600}"; }

# One boot of a group's tests; vm-run's status.
boot_group() {	# KERNEL OUT ARGS LIMIT LONGEST TEST...
	local kernel=$1 out=$2 args=$3 limit=$4 longest=$5
	shift 5
	# shellcheck disable=SC2086
	"$top/scripts/vm-run" --kernel "$kernel" --out "$out" $args \
		--timeout "$limit" --ready 'ktprof-test: begin ' --ready-within $((longest + 120)) -- \
		"$top/tests/vm/guest.sh" "$out" "$@" \
		>"$out/vm-run.out" 2>&1
}

run_group() {	# KERNEL OUT ARGS TEST...
	local kernel=$1 out=$2 args=$3 bad vm_rc log t limit=300 began=$SECONDS longest=0 s rest
	shift 3
	# The tests' own limits, and the boot's: a debug guest beside three
	# others took 163 s to reach its first test (limit was 120). A guest
	# that begins no test for the longest test's limit and 2 minutes
	# (guest.sh ends each test at its limit) has hung: killed then, not
	# at the boot's limit.
	for t in "$@"; do
		s=$(test_timeout "$t")
		limit=$((limit + s))
		[ "$s" -le "$longest" ] || longest=$s
	done
	run_prepare_phases "$kernel" "$out" "$@"
	boot_group "$kernel" "$out" "$args" "$limit" "$longest" "$@"
	vm_rc=$?
	# A guest that hung once its tests had begun (vm-run killed it: a
	# stall, or no new test for the longest test's limit) is booted once
	# more for the tests it left without a result, the one it hung in
	# too; its console stays as console.hung.log and the report says so.
	if [ "$vm_rc" = 125 ] && grep -q '^vm-run: the guest hung' "$out/vm-run.out"; then
		rest=()
		for t in "$@"; do
			grep -q "^$(basename "$t" .sh) " "$out/results" 2>/dev/null || rest+=("$t")
		done
		mv "$out/console.log" "$out/console.hung.log"
		mv "$out/vm-run.out" "$out/vm-run.hung.out"
		boot_group "$kernel" "$out" "$args" "$limit" "$longest" "${rest[@]}"
		vm_rc=$?
	fi
	run_host_phases "$kernel" "$out" "$@"
	{
		# Where the time went, in a log that a timeout cut.
		echo "--- boot ${out##*/}@$kernel ($# tests): $((SECONDS - began)) s, done at $(($(date +%s) - since)) s"
		# Reports outside any test (boot, shutdown) fail the boot itself.
		bad=$(awk '/ktprof-test: begin /{on=1} /ktprof-test: end /{on=0; next} !on' \
			"$out/console.log" | "$top/scripts/console-check")
		if [ -n "$bad" ]; then
			result_fail "vm/boot@$kernel: kernel reported a bug outside the tests"
			printf '%s\n' "$bad" | head -n 20 | indent 'console| '
		fi
		# Boots that never reached init, or wedged before the first test
		# began, were retried (vm-run; guest.sh does nothing of the
		# module's before that line): say so, and what their consoles show.
		grep -E '^vm-run: boot [0-9]* (did not reach init|wedged)' "$out/vm-run.out" |
			sed "s|^vm-run: |NOTE vm/boot@$kernel: |"
		for log in "$out"/console.boot*.log; do
			[ -f "$log" ] || continue
			"$top/scripts/console-check" <"$log" | head -n 3 | indent 'console| '
		done
		# A guest that hung with its tests begun: which test, the
		# kernel's last words, and that its tests ran again.
		if [ -f "$out/vm-run.hung.out" ]; then
			echo "NOTE vm/boot@$kernel: the guest hung in $(awk '/ktprof-test: begin /{t=$NF} END{print t}' \
				"$out/console.hung.log") ($(sed -n 's/^vm-run: the guest hung after the command began (\(.*\)); killed.*/\1/p' \
				"$out/vm-run.hung.out")); the tests without a result ran again in a new boot"
			first_report 15 "$out/console.hung.log" | indent 'console| '
			log_tail 5 "$out/console.hung.log" 'console| '
		fi
		report_group "$kernel" "$out" "$vm_rc" "$@"
	} >"$out/report.txt"
}

# Print the reports of finished boots, in order, as far as they go.
printed=0
print_done() {
	while [ "$printed" -lt "${#job_dirs[@]}" ] &&
		[ -f "${job_dirs[$printed]}/report.txt.done" ]; do
		cat "${job_dirs[$printed]}/report.txt"
		printed=$((printed + 1))
	done
}

for kernel in "${kernels[@]}"; do
	release=$("$top/scripts/kernels.sh" "$kernel" | cut -d' ' -f2) || {
		for t in "${tests[@]}"; do result_fail "vm/$(test_name "$t")@$kernel: kernel unavailable"; done
		continue
	}
	if [ ! -f "$top/build/kmod/$release/kmod/ktprof.ko" ]; then
		result_fail "vm/build@$kernel: build/kmod/$release/kmod/ktprof.ko missing (make modules-all)"
		continue
	fi
	# Group the tests that apply to this kernel by their boot options.
	declare -A groups=()
	order=()
	for t in "${tests[@]}"; do
		ks=$(header "$t" kernels)
		if [ -n "$ks" ] && ! [[ " $ks " == *" $kernel "* ]]; then
			continue
		fi
		# The sched_ext kernel is there for the sched_ext tests: the
		# rest run on the debug kernel built from the same source.
		[ "$kernel" != scx ] || [ -n "$ks" ] || continue
		# vm-run's defaults said out loud ("--cpus 2", "--append
		# nohz=off") share a boot with the tests that leave them unsaid.
		args=$(header "$t" vm-args |
			sed -E 's/(^| )--cpus 2( |$)/ /; s/(^| )--append nohz=off( |$)/ /; s/^ +| +$//g')
		[ -n "${groups[k$args]+x}" ] || order+=("$args")
		groups[k$args]+="$t "
	done
	gi=0
	rm -rf "$top/build/vm/$kernel"
	for args in "${order[@]}"; do
		read -r -a group_tests <<<"${groups[k$args]}"
		# At most group_max tests a boot, so that the boots at once
		# finish near each other instead of one long boot last.
		for ((first = 0; first < ${#group_tests[@]}; first += group_max)); do
			gi=$((gi + 1))
			out=$top/build/vm/$kernel/group$gi
			mkdir -p "$out"
			while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do
				wait -n
				print_done
			done
			job_dirs+=("$out")
			( run_group "$kernel" "$out" "$args" "${group_tests[@]:first:group_max}"
			  touch "$out/report.txt.done" ) &
		done
	done
	unset groups
done
while [ "$(jobs -rp | wc -l)" -gt 0 ]; do
	wait -n
	print_done
done
print_done
