#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# trace-cmd's trace.dat as input (capture/tracedat.h): a small real trace
# (tests/tracedat/README) gives the known answers worked out from
# `trace-cmd report -N`'s text (tests/tracedat/expect.py), through
# report --json, the same through `ktprof import`'s capture, and info
# says what the trace lacks. Damaged, truncated and odd inputs (the
# ASan build): a clear message and exit 1, never a crash or a hang,
# also where libtracecmd itself crashes.
. "$(dirname "$0")/lib.sh"
DAT=$TOP/tests/tracedat
FIX=$DAT/sched-6.12.dat

# The figures of PIDS from a report --json, as expect.py prints them.
figures() {
	/usr/bin/python3 - "$@" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
by = {t["pid"]: t for t in r["threads"]}
for pid in map(int, sys.argv[2:]):
    t = by[pid]
    w = t.get("latency", {}).get("wakeup", {})
    print(pid, t["runtime_ns"], t["voluntary_switches"], t["involuntary_switches"],
          w.get("count", 0), w.get("max_ns", 0))
PY
}
pids=$(cut -d' ' -f1 "$DAT/sched-6.12.expect" | tr '\n' ' ')

# Known answers, as committed and (with trace-cmd) as worked out anew.
expect 0 "" report --json "$FIX"
echo "$out" >"$T/r.json"
# shellcheck disable=SC2086
figures "$T/r.json" $pids >"$T/got"
diff "$DAT/sched-6.12.expect" "$T/got" >&2 || fail "report --json differs from the known answers"
if command -v trace-cmd >/dev/null; then
	trace-cmd report -N -i "$FIX" >"$T/tc.txt" 2>/dev/null || fail "trace-cmd report failed"
	# shellcheck disable=SC2086
	/usr/bin/python3 "$DAT/expect.py" "$T/tc.txt" $pids >"$T/want"
	diff "$T/want" "$T/got" >&2 || fail "report --json differs from trace-cmd report's answers"
fi
echo "$out" | grep -q '"comm":"ktp-ticker"' || fail "the ticker is not named after its exec"

# The session: the trace's kernel, its CPUs, and the first switch of each
# CPU: CPU 0's time before it (7.78 us) is unknown, not idle.
expect 0 "" info "$FIX"
for want in 'trace-cmd trace.dat \(translated\)' 'kernel +6\.12\.117\+deb12-amd64 \(x86_64\)' \
	'cpus +0-1 of 2' '^input lacks' 'START marks: who ran on each CPU' \
	'tgids: trace-cmd 3.1.6 records none' 'irq:irq_handler_entry/exit \(hardirqs\): not recorded'; do
	echo "$out" | grep -Eq "$want" || fail "info lacks /$want/: $out"
done
expect 0 "" report "$FIX"
echo "$out" | grep -Eq '^  CPU 0 +7\.78 us no data' || fail "CPU 0's time before its first switch is not unknown: $out"

# import: a capture that reports the same, and keeps what the trace lacks.
expect 0 "" import "$FIX" -o "$T/imp.ktp"
expect 0 "" report --json "$T/imp.ktp"
echo "$out" >"$T/ri.json"
# shellcheck disable=SC2086
figures "$T/ri.json" $pids | diff "$DAT/sched-6.12.expect" - >&2 ||
	fail "the import reports otherwise"
expect 0 "" info "$T/imp.ktp"
echo "$out" | grep -q 'recorded by     ktprof import (trace-cmd trace.dat)' || fail "info: $out"
echo "$out" | grep -q 'option          lacks=START marks' || fail "the import lost what the trace lacks: $out"
expect 0 "" diff "$FIX" "$T/imp.ktp"
expect 0 "" convert -o "$T/t.pftrace" "$FIX"
"$TOP/tests/lib/validate-trace.sh" "$T/t.pftrace" >&2 || fail "convert's trace is not valid"
expect 0 "" dump "$FIX"
[ "$(echo "$out" | grep -c ' sched_switch ')" = 294 ] || fail "dump: not the trace's 294 switches"
expect 2 "" import "$FIX"
# mcp loads one as it loads a capture (JSON-RPC by hand: tests/mcp is the SDK's).
printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}' \
	'{"jsonrpc":"2.0","method":"notifications/initialized"}' \
	"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"load_capture\",\"arguments\":{\"path\":\"$FIX\"}}}" \
	>"$T/mcp.in"
run mcp <"$T/mcp.in"
echo "$out" | grep -q 'as trace .sched-6.12.dat.: 465 events on 2 CPUs over 142 ms' ||
	fail "mcp does not load the trace.dat: $out"

# Bad input, through the ASan build. libtracecmd leaks on its own failure
# paths (tracecmd_alloc_fd()'s tep): not ours to report.
KTPROF=$TOP/build/ktprof-san
[ -x "$KTPROF" ] || fail "$KTPROF missing (make tests-bin)"
printf 'leak:libtracecmd.so\nleak:libtraceevent.so\n' >"$T/lsan.supp"
export ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$T/lsan.supp \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
check() {
	expect "$@"
	! echo "$err" | grep -Eq 'runtime error|AddressSanitizer|LeakSanitizer' ||
		fail "ktprof ${*:3}: sanitizer report: $err"
}
size=$(stat -c %s "$FIX")
for n in 10 16 100 1000 4000 8000 12000 13900; do
	head -c "$n" "$FIX" >"$T/cut.dat"
	check 1 'cut.dat: libtracecmd (cannot read|failed reading|crashed reading)' report "$T/cut.dat"
	check 1 'cut.dat: libtracecmd' import "$T/cut.dat" -o "$T/cut.ktp"
	[ ! -e "$T/cut.ktp" ] || fail "import of a truncated trace.dat wrote a capture"
done
# Cut in its last section (not events): refused, or read whole.
head -c $((size - 1)) "$FIX" >"$T/cut.dat"
run report --json "$T/cut.dat"
if [ "$rc" = 0 ]; then
	echo "$out" >"$T/rc.json"
	# shellcheck disable=SC2086
	figures "$T/rc.json" $pids | diff "$DAT/sched-6.12.expect" - >&2 ||
		fail "a trace.dat cut in its last section reads otherwise"
else
	echo "$err" | grep -q 'cut.dat: libtracecmd' || fail "cut at the end: $err"
fi
# Bytes changed where libtracecmd 3.1.6 dereferences NULL (tracecmd_close()
# on tracecmd_open_fd()'s failure path): found by changing random bytes.
damage() {	# OUT OFFSET:BYTE...
	local out=$1
	shift
	/usr/bin/python3 - "$FIX" "$out" "$@" <<'PY'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
for ob in sys.argv[3:]:
    o, v = map(int, ob.split(":"))
    b[o] = v
open(sys.argv[2], "wb").write(b)
PY
}
damage "$T/d1.dat" 13955:206
damage "$T/d2.dat" 6291:84 8916:20
for f in d1 d2; do
	check 1 "$f.dat: libtracecmd (crashed|failed) reading it" report "$T/$f.dat"
	check 1 "$f.dat: libtracecmd" info "$T/$f.dat"
done
# 40 more, at random (a fixed seed): each read or refused, nothing else.
/usr/bin/python3 - "$FIX" "$T/r" <<'PY'
import random, sys
src = open(sys.argv[1], "rb").read()
rng = random.Random(31)
for i in range(40):
    b = bytearray(src)
    for _ in range(rng.choice((1, 1, 2, 4))):
        b[rng.randrange(len(b))] = rng.randrange(256)
    open("%s%02d.dat" % (sys.argv[2], i), "wb").write(b)
PY
for f in "$T"/r[0-9][0-9].dat; do
	run report "$f"
	[ "$rc" = 0 ] || [ "$rc" = 1 ] || fail "report of a damaged trace: exit $rc: $err"
	[ "$rc" = 0 ] || echo "$err" | grep -q "^ktprof report: $f: " || fail "no clear message: $err"
	! echo "$err" | grep -Eq 'runtime error|AddressSanitizer|LeakSanitizer' ||
		fail "ktprof report $f: sanitizer report: $err"
done
# A trace.dat's magic and nothing else readable.
printf '\027\010\104tracing6\0garbage' >"$T/magic.dat"
check 1 'magic.dat: libtracecmd' report "$T/magic.dat"
# Without sched events (made by vm/tracedat too).
if [ -f "$DAT/irq-6.12.dat" ]; then
	check 1 'no sched:sched_switch in this trace \(trace-cmd record -e sched\)' report "$DAT/irq-6.12.dat"
	check 1 'no sched:sched_switch' import "$DAT/irq-6.12.dat" -o "$T/irq.ktp"
fi
# A FIFO blocks nothing; a symlink is followed as for a capture file, to
# a regular file only.
mkfifo "$T/fifo.dat"
check 1 'fifo.dat: not a regular file' report "$T/fifo.dat"
check 1 'fifo.dat: not a regular file' import "$T/fifo.dat" -o "$T/f.ktp"
ln -s "$T/fifo.dat" "$T/to-fifo.dat"
check 1 'to-fifo.dat: not a regular file' report "$T/to-fifo.dat"
ln -s "$FIX" "$T/link.dat"
check 0 "" report --json "$T/link.dat"
ln -s "$T/nowhere" "$T/dangling.dat"
check 1 'dangling.dat: No such file' report "$T/dangling.dat"
echo ok
