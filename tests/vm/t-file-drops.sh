#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A FILE record dropped for want of room (drop mode, a full buffer) is
# not tried again at every sample, but once, when the buffer has room
# again (kmod/files.c: claimed and marked lost until ktp_files_room()).
# Two 4 KiB sub-buffers a CPU and no reader: a sampled program's samples
# fill CPU 1's buffer while the module's first pass over its files waits
# (the files_delay_ms knob), so its MAP records are in and its FILE
# records are dropped. Each file is dropped once: the count of dropped FILE
# records is at most the program's files, however many samples followed.
# Then a reader makes room and the program runs again: its file gets its
# record, and the whole stream decodes with every loss accounted for.
# Before the fix every sample tried every file again and counted the drop
# each time.
. "$(dirname "$0")/lib.sh"
out=$KTPROF_TEST_OUT
# Counts, not durations: hundreds of samples at 199 Hz, and dozens.
iterations=$(scaled 300000000 100000000)
again=$(scaled 100000000 30000000)
limit=120

# FILE records dropped on CPU 1 (its "cpu=1 dropped" line of stats).
dropped_file() { sed -n 's/^cpu=1 dropped.* file=\([0-9]*\).*/\1/p' "$KTPROF_DBG/stats"; }
has_dropped_file() { [ -n "$(dropped_file)" ]; }
# Sub-buffers CPU 1 started: one more means a reader made room.
subbufs() { sed -n 's/^cpu=1 .* subbufs=\([0-9]*\).*/\1/p' "$KTPROF_DBG/stats"; }
more_subbufs() { [ "$(subbufs)" -gt "$1" ]; }

# The files PID maps executable: its user frames can land in no other.
exec_files() { awk '$2 ~ /x/ && $6 ~ /^\// { print $6 }' "/proc/$1/maps" | sort -u; }

guest() {
	local pid files dropped reader subbufs
	# This shell and all it runs stay off CPU 1, but for wait-spin: a
	# program of its own sampled there (a sed of the polling) would have
	# its files dropped too.
	taskset -pc 0 $$ >/dev/null || fail "cannot pin the test to CPU 0"
	load_module events=sched samples=cpu-clock@199hz subbuf_size=4096 n_subbufs=2 \
		files_delay_ms=3000
	mkfifo "$out/go"
	taskset -c 1 "$WORKLOADS/wait-spin" "$iterations" 0<>"$out/go" &
	pid=$!
	until_true "$limit" grep -q '^0 0x0 ' "/proc/$pid/syscall" ||
		fail "wait-spin did not wait for its go"
	exec_files "$pid" >"$out/files"
	files=$(wc -l <"$out/files")
	ctl start
	echo >"$out/go"
	wait "$pid" || fail "wait-spin failed"
	until_true "$limit" has_dropped_file || {
		cat "$KTPROF_DBG/stats"
		fail "no FILE record was dropped"
	}
	# The pass that dropped them is over once the count holds still.
	dropped=$(dropped_file)
	nap 1
	until [ "$(dropped_file)" = "$dropped" ]; do dropped=$(dropped_file); nap 1; done
	say "$dropped FILE records dropped, of $files files: $(tr '\n' ' ' <"$out/files")"
	[ "$dropped" -le "$files" ] ||
		fail "$dropped FILE records dropped, more than the $files files asked for"

	# A reader makes room (and keeps making it, as a recorder does: the
	# CPU's other records fill 8 KiB again in a fraction of a second),
	# then the program runs again.
	subbufs=$(subbufs)
	/usr/bin/python3 "$(dirname "$0")/poll_reader.py" "$KTPROF_DBG" "$out/raw" &
	reader=$!
	until_true "$limit" more_subbufs "$subbufs" || fail "the reader made no room"
	taskset -c 1 "$WORKLOADS/wait-spin" "$again" 0<>"$out/go" &
	pid=$!
	echo >"$out/go"
	wait "$pid" || fail "wait-spin failed (again)"
	# Stop describes what is still queued; the reader drains the rest.
	ctl stop
	wait "$reader" || fail "the reader failed"
	copy_text "$KTPROF_DBG/meta" "$out/raw/meta" || fail "cannot read meta"
	copy_text "$KTPROF_DBG/stats" "$out/raw/stats" || fail "cannot read stats"
	unload_module
	note prog "$(readlink -f "$WORKLOADS/wait-spin")"
	deferred_at_once
	echo "guest ok"
}

# files_deferred is a CPU's own count (this_cpu ops, NMI-safe), and others
# count into it too (stop's and file_work's passes). The selftest has CPU 1
# count 20 N of its own, as its samples do, while CPU 0 counts N for it:
# none may be lost. (A plain += from CPU 0 lost updates.)
deferred_at_once() {
	local n=$(scaled 20000 5000) res got
	load_module events=sched samples=none
	ctl start
	taskset -c 0 sh -c "echo 'files-deferred $n' >$KTPROF_DBG/selftest" ||
		fail "the files-deferred selftest failed"
	res=$(cat "$KTPROF_DBG/selftest")
	ctl stop
	[ "$res" = "cpu=1 requested=$n written=$n dropped=0" ] || fail "selftest: $res"
	got=$(kv "$KTPROF_DBG/stats" '^cpu=1 ' files_deferred)
	say "files_deferred of CPU 1: $got, counted $((21 * n))"
	[ "$got" = $((21 * n)) ] || fail "files_deferred of CPU 1 is $got, $((21 * n)) were counted"
	unload_module
}

host() {
	"$KTPROF" dump --json "$out/raw" >"$out/dump.json" || fail "dump failed"
	/usr/bin/python3 "$(dirname "$0")/check_counts.py" "$out/raw/stats" "$out/dump.json" ||
		fail "accounting differs"
	/usr/bin/python3 - "$out/dump.json" "$(noted prog)" <<'PY' ||
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
prog = sys.argv[2]
paths = [e["path"] for e in ev if e["type"] == "file"]
assert prog in paths, "no FILE record of %s after room was made: %s" % (prog, paths)
print("FILE record of %s written after room" % prog)
PY
		fail "FILE records wrong"
	echo ok
}

run_phases
