#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A sampled program runs from a FUSE file system whose daemon stops
# answering (tests/tools/fuse-gate), so the module's read of the program's
# build id for its FILE record blocks, as on a dead NFS server. Meanwhile
# CPU hotplug, stop, and a second session's start and stop all finish;
# the file left unread is counted (stats files_deferred); the read that
# completes later writes nothing into the stopped session. Afterwards the
# module unloads, and every record the first session wrote is decoded.
#
# Then jobs of one device read two at a time (KTP_FILE_DEV_JOBS): three
# programs run from three files of one FUSE mount that does not answer;
# two jobs block in their reads, the third waits behind them, and a
# program from the root file system (another device) gets its FILE record
# meanwhile. Stop gives up on all three, and the waiting one never reads
# its file, not even once the reads answer again.
#
# A hang cannot be killed (the writer sleeps uninterruptibly in the
# kernel): each step runs in the background and fails the test when it is
# not done by a deadline; the exit trap then opens the gate, which lets
# the stuck step finish so that the next tests find a sane kernel.
# Two parts of FUSE waits and several loads: on the debug kernel under a
# busy host they took over the default 600 s (a deadline, not a time).
# timeout: 1200
. "$(dirname "$0")/lib.sh"
out=$KTPROF_TEST_OUT
cpu1=/sys/devices/system/cpu/cpu1/online
# A count, not a duration: the program's work after it is released.
iterations=${KTPROF_FUSE_ITERATIONS:-200000000}
# The copies' programs share CPU 1, so each does less: still hundreds of
# samples each, where one is enough to ask for its file.
copy_iterations=$((iterations / 2))
# Files of one FUSE device, one more than the module reads at once.
copies=3
# Deadlines for what must not hang. Not time assertions: each is far
# beyond what the step takes on a busy host under TCG.
limit=120

dir='' mnt='' gate='' daemon='' prog='' progs='' log=''

# Run "$@" in the background; fail when it has not finished in $limit s.
bounded() {
	local what=$1 pid end p
	shift
	"$@" &
	pid=$!
	end=$((SECONDS + limit))
	while kill -0 "$pid" 2>/dev/null; do
		if [ "$SECONDS" -ge "$end" ]; then
			# Where it sleeps in the kernel, for the log.
			for p in $pid $(pgrep -P "$pid"); do
				sed "s/^/$what: pid $p: /" "/proc/$p/stack" 2>/dev/null
			done
			fail "$what did not finish in $limit s (blocked behind the FUSE read?)"
		fi
		nap 0.2
	done
	wait "$pid" || fail "$what failed"
}

# Wait until "$@" succeeds; fail after $limit s.
wait_for() {
	local what=$1
	shift
	until_true "$limit" "$@" || fail "no $what after $limit s"
}

# mounted [FILE]: the daemon serves FILE (prog).
mounted() {
	kill -0 "$daemon" 2>/dev/null || fail "fuse-gate died: $(cat "$dir/daemon.err")"
	test -x "$mnt/${1:-prog}"
}
# in_read [PID]: PID (the program) waits in read(2) on fd 0.
in_read() { grep -q '^0 0x0 ' "/proc/${1:-$prog}/syscall" 2>/dev/null; }
gated() { grep -q '^gated ' "$log" 2>/dev/null; }
prog_gone() { ! kill -0 "${1:-$prog}" 2>/dev/null; }
unmounted() { umount "$mnt" 2>/dev/null; }
daemon_gone() { ! kill -0 "$daemon" 2>/dev/null; }

# Open the gate, so that whatever waits for the daemon goes on, then undo
# the rest. Also on success: each step is a no-op when already done.
cleanup() {
	[ -n "$gate" ] && rm -f "$gate"
	for p in $prog $progs; do kill "$p" 2>/dev/null; done
	[ -n "$mnt" ] && mountpoint -q "$mnt" && { umount "$mnt" || umount -l "$mnt"; }
	[ -n "$daemon" ] && kill "$daemon" 2>/dev/null
	[ -n "$log" ] && [ -f "$log" ] && sed 's/^/daemon log: /' "$log"
}

deferred() {
	awk '{ for (i = 1; i <= NF; i++) if (sub(/^files_deferred=/, "", $i)) n += $i }
		END { print n + 0 }' "$1"
}

# Stop with reads blocked (bounded), dump the session to DIR, and check
# that at least MIN files were given up on (files_deferred).
stop_counted() {	# DIR MIN
	local n
	bounded "stop" ctl stop
	[ "$(cat "$KTPROF_DBG/control")" = stopped ] || fail "not stopped after stop"
	dump_session "$1"
	n=$(deferred "$1/stats")
	[ "$n" -ge "$2" ] || { cat "$1/stats"; fail "files_deferred is $n, want >= $2"; }
	say "files_deferred=$n"
}

guest() {
	local kpid comm n
	# Debian 6.1 builds FUSE as a module; the guest sees the host's modules.
	[ -e /dev/fuse ] || modprobe fuse || fail "no FUSE: modprobe fuse failed"
	[ -e /dev/fuse ] || fail "no /dev/fuse"
	trap cleanup EXIT
	dir=$(mktemp -d)
	mnt=$dir/mnt
	gate=$dir/closed
	log=$dir/log
	mkdir "$mnt"
	mkfifo "$dir/go"
	"$TOOLS/fuse-gate" "$mnt" "$WORKLOADS/wait-spin" "$gate" "$log" \
		2>"$dir/daemon.err" &
	daemon=$!
	wait_for "FUSE mount" mounted

	# No reader runs: 16 MiB a CPU hold the session's records, FILE
	# records included, however long the debug kernel takes (at 2 MiB a
	# full buffer dropped the root-fs program's FILE record).
	load_module events=sched samples=cpu-clock@999hz n_subbufs=64
	# Started before the gate closes: exec reads the file. Then it waits
	# in read(2) on a fifo it holds open itself (so nothing blocks on
	# the fifo's open), having touched every page of its file it needs.
	taskset -c 1 "$mnt/prog" "$iterations" 0<>"$dir/go" &
	prog=$!
	wait_for "program waiting for its go" in_read
	touch "$gate"
	ctl start
	echo go >"$dir/go"
	say "program released; waiting for the module's read to block"
	wait_for "gated read (the module's FILE read of the program)" gated
	kpid=$(sed -n 's/^gated pid=\([0-9]*\) .*/\1/p' "$log" | head -n 1)
	[ "$kpid" != "$prog" ] || fail "the program itself hit the gate (page fault), not the module"
	comm=$(cat "/proc/$kpid/comm" 2>/dev/null)
	say "blocked read by pid $kpid ($comm)"

	say "hotplug with the read blocked"
	bounded "cpu1 offline" sh -c "echo 0 >$cpu1"
	bounded "cpu1 online" sh -c "echo 1 >$cpu1"
	say "stop with the read blocked"
	stop_counted "$out/raw" 1

	say "a second session with the read still blocked"
	gated || fail "the gate opened early"
	bounded "second start" ctl start
	bounded "second stop" ctl stop
	bounded "stats" cat "$KTPROF_DBG/stats" >"$out/stats2.before"

	say "opening the gate"
	rm -f "$gate"
	wait_for "exit of the program" prog_gone
	wait "$prog" || fail "the program failed"
	prog=
	# The module holds the file until its read is done: unmounting
	# succeeds once it has let go.
	wait_for "unmount (the module still holds the file?)" unmounted
	wait_for "exit of the FUSE daemon" daemon_gone
	daemon=
	bounded "stats" cat "$KTPROF_DBG/stats" >"$out/stats2.after"
	cmp -s "$out/stats2.before" "$out/stats2.after" || {
		diff "$out/stats2.before" "$out/stats2.after"
		fail "the read that completed after stop wrote into the stopped session"
	}
	bounded "rmmod" rmmod ktprof
	device_limit
	echo "guest ok"
}

# The files of the mount read by others than the programs themselves (by
# the module's jobs), gated or not: their names, one a line.
module_reads() {
	awk -v progs=" $progs " '$1 == "gated" || $1 == "read" {
		pid = $2; sub(/^pid=/, "", pid)
		if (index(progs, " " pid " ")) next
		path = $NF; sub(/^path=/, "", path); print path
	}' "$log" | sort -u
}
module_read_at_least() { [ "$(module_reads | wc -l)" -ge "$1" ]; }

# Two jobs of the FUSE device block in their reads; the third waits behind
# them, so neither it nor a job of another device is held up.
device_limit() {
	local p n root rootprog
	say "jobs of one device: $copies files of a FUSE mount that hangs"
	log=$dir/log2
	"$TOOLS/fuse-gate" "$mnt" "$WORKLOADS/wait-spin" "$gate" "$log" "$copies" \
		2>"$dir/daemon.err" &
	daemon=$!
	wait_for "FUSE mount with $copies files" mounted "prog$((copies - 1))"
	load_module events=sched samples=cpu-clock@999hz n_subbufs=64
	mkfifo "$dir/go-copies" "$dir/go-root"
	# As in the first part: each waits in read(2) before the gate
	# closes. One fifo for the copies: each takes one byte of the go.
	for p in prog $(seq -f 'prog%g' 1 $((copies - 1))); do
		taskset -c 1 "$mnt/$p" "$copy_iterations" 0<>"$dir/go-copies" &
		progs="$progs $!"
	done
	# The same program from the root file system, by the path its FILE
	# record will have (the guest sees the host's files as they are).
	root=$(readlink -f "$WORKLOADS/wait-spin")
	note root_prog "$root"
	note fuse_pids "$progs"
	note mnt "$(readlink -f "$mnt")"
	taskset -c 0 "$root" "$iterations" 0<>"$dir/go-root" &
	rootprog=$!
	for p in $progs $rootprog; do
		wait_for "program $p waiting for its go" in_read "$p"
	done
	touch "$gate"
	ctl start
	printf '%*s' "$copies" '' >"$dir/go-copies"
	say "copies released; waiting for the module's reads to block"
	wait_for "2 gated reads of the FUSE files" module_read_at_least 2
	while read -r p; do
		case " $progs " in
		*" $p "*) fail "program $p itself hit the gate (page fault), not the module" ;;
		esac
		say "blocked read by pid $p ($(cat "/proc/$p/comm" 2>/dev/null))"
	done < <(sed -n 's/^gated pid=\([0-9]*\) .*/\1/p' "$log")
	# Released only now, so that its file is asked for while the FUSE
	# reads block. Its work is a count: by its end the third copy has
	# long been sampled, and its job would have read by then if it could.
	echo go >"$dir/go-root"
	say "root-fs program released; waiting for its exit"
	wait_for "exit of the root-fs program" prog_gone "$rootprog"
	wait "$rootprog" || fail "the root-fs program failed"
	n=$(module_reads | wc -l)
	[ "$n" -eq 2 ] || {
		module_reads
		fail "the module read $n files of one device at once, want 2 (KTP_FILE_DEV_JOBS)"
	}

	say "stop with two reads blocked and one job waiting"
	stop_counted "$out/raw2" 3

	say "opening the gate"
	rm -f "$gate"
	for p in $progs; do
		wait_for "exit of program $p" prog_gone "$p"
		wait "$p" || fail "program $p failed"
	done
	# Unmounting succeeds once the module let go of every file.
	wait_for "unmount (the module still holds a file?)" unmounted
	wait_for "exit of the FUSE daemon" daemon_gone
	daemon=
	bounded "rmmod" rmmod ktprof
	# Every job is over: the one given up on while it waited never read,
	# not even after the other two were answered.
	n=$(module_reads | wc -l)
	[ "$n" -eq 2 ] || {
		module_reads
		fail "the module read $n files in the end, want 2 (a job given up on read its file)"
	}
	progs=
}

host() {
	"$KTPROF" dump --json "$out/raw" >"$out/dump.json" || fail "dump failed"
	/usr/bin/python3 "$(dirname "$0")/check_counts.py" "$out/raw/stats" "$out/dump.json" ||
		fail "accounting differs"

	"$KTPROF" dump --json "$out/raw2" >"$out/dump2.json" || fail "dump of the second part failed"
	/usr/bin/python3 "$(dirname "$0")/check_counts.py" "$out/raw2/stats" "$out/dump2.json" ||
		fail "accounting differs (second part)"
	/usr/bin/python3 - "$out/dump2.json" "$(noted root_prog)" "$(noted mnt)" \
		"$(noted fuse_pids)" <<'PY' || fail "FILE records of the second part wrong"
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
root, mnt, pids = sys.argv[2], sys.argv[3], [int(p) for p in sys.argv[4].split()]
paths = [e["path"] for e in ev if e["type"] == "file"]
# Its job ran on a free worker while two were blocked on the FUSE reads.
assert root in paths, "no FILE record of %s among %s" % (root, sorted(paths))
# Given up on, the FUSE files' records were never written.
fuse = [p for p in paths if p.startswith(mnt + "/")]
assert not fuse, "FILE records of the hung file system: %s" % fuse
# Each copy was sampled, so its file was asked for: the third job existed.
for pid in pids:
    n = sum(1 for e in ev if e["type"] == "sample" and e["pid"] == pid)
    print("samples of FUSE program %d: %d" % (pid, n))
    assert n, "no sample of FUSE program %d" % pid
print("FILE record of %s" % root)
PY
	echo ok
}

run_phases
