#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Issue 14's bound on bad inputs: every reproducer (tests/bad-input/ and
# what make-inputs.sh makes), through every reading command of the
# release binary, peaks under 100 MB of memory. The CPU time of the
# slowest is printed as a notice, not asserted: a time depends on the
# host (make bench is where speed is measured).
. "$(dirname "$0")/lib.sh"
BAD=$TOP/tests/bad-input
LIMIT_KB=$((100 * 1000))

"$BAD/make-inputs.sh" "$T/made" >/dev/null || fail "make-inputs.sh failed"

# One command under getrusage: prints "EXIT MAXRSS_KB CPU_SECONDS".
rusage() {
	timeout 60 /usr/bin/python3 -c '
import resource, subprocess, sys
rc = subprocess.call(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(rc, r.ru_maxrss, "%.3f" % (r.ru_utime + r.ru_stime))' "$@"
}

worst_kb=0 worst_cpu=0 n=0
for input in "$BAD"/*.ktp "$BAD"/rawdir-* "$BAD"/fuzz-* "$T"/made/*; do
	for cmd in info dump "dump --symbolize" "report" "report --profile" \
		"convert -o $T/x.pftrace" "import -o $T/x.ktp"; do
		# shellcheck disable=SC2086
		read -r rc kb cpu < <(rusage "$KTPROF" $cmd "$input") ||
			fail "ktprof $cmd $input: over 60 s"
		[ "$rc" -le 1 ] || fail "ktprof $cmd $input: exit $rc"
		[ "$kb" -le "$LIMIT_KB" ] ||
			fail "ktprof $cmd $input: peak memory $kb KB, over $LIMIT_KB KB"
		[ "$kb" -le "$worst_kb" ] || worst_kb=$kb
		awk -v a="$cpu" -v b="$worst_cpu" 'BEGIN { exit !(a > b) }' && {
			worst_cpu=$cpu
			worst="$cmd $(basename "$input")"
		}
		rm -f "$T/x.pftrace" "$T/x.ktp"
		n=$((n + 1))
	done
done
[ "$n" -gt 100 ] || fail "only $n runs"
echo "notice: bad inputs: $n runs, peak memory at most $worst_kb KB; slowest $worst_cpu s of CPU ($worst)"
