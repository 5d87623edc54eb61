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
# A hang cannot be killed (the writer sleeps uninterruptibly in the
# kernel): each step runs in the background and fails the test when it is
# not done by a deadline; the exit trap then opens the gate, which lets
# the stuck step finish so that the next tests find a sane kernel.
. "$(dirname "$0")/lib.sh"
out=$KTPROF_TEST_OUT
cpu1=/sys/devices/system/cpu/cpu1/online
# A count, not a duration: the program's work after it is released.
iterations=${KTPROF_FUSE_ITERATIONS:-200000000}
# Deadlines for what must not hang. Not time assertions: each is far
# beyond what the step takes on a busy host under TCG.
limit=120

dir='' mnt='' gate='' daemon='' prog=''

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
		sleep 0.2
	done
	wait "$pid" || fail "$what failed"
}

# Wait until "$@" succeeds; fail after $limit s.
wait_for() {
	local what=$1 end=$((SECONDS + limit))
	shift
	until "$@"; do
		[ "$SECONDS" -lt "$end" ] || fail "no $what after $limit s"
		sleep 0.2
	done
}

mounted() {
	kill -0 "$daemon" 2>/dev/null || fail "fuse-gate died: $(cat "$dir/daemon.err")"
	test -x "$mnt/prog"
}
in_read() { grep -q '^0 0x0 ' "/proc/$prog/syscall" 2>/dev/null; }
gated() { grep -q '^gated ' "$dir/log" 2>/dev/null; }
prog_gone() { ! kill -0 "$prog" 2>/dev/null; }
unmounted() { umount "$mnt" 2>/dev/null; }
daemon_gone() { ! kill -0 "$daemon" 2>/dev/null; }

# Open the gate, so that whatever waits for the daemon goes on, then undo
# the rest. Also on success: each step is a no-op when already done.
cleanup() {
	[ -n "$gate" ] && rm -f "$gate"
	[ -n "$prog" ] && kill "$prog" 2>/dev/null
	[ -n "$mnt" ] && mountpoint -q "$mnt" && { umount "$mnt" || umount -l "$mnt"; }
	[ -n "$daemon" ] && kill "$daemon" 2>/dev/null
	[ -n "$dir" ] && [ -f "$dir/log" ] && sed 's/^/daemon log: /' "$dir/log"
}

deferred() {
	awk '{ for (i = 1; i <= NF; i++) if (sub(/^files_deferred=/, "", $i)) n += $i }
		END { print n + 0 }' "$1"
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
	mkdir "$mnt"
	mkfifo "$dir/go"
	"$TOOLS/fuse-gate" "$mnt" "$WORKLOADS/wait-spin" "$gate" "$dir/log" \
		2>"$dir/daemon.err" &
	daemon=$!
	wait_for "FUSE mount" mounted

	load_module events=sched samples=cpu-clock@999hz
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
	kpid=$(sed -n 's/^gated pid=\([0-9]*\) .*/\1/p' "$dir/log" | head -n 1)
	[ "$kpid" != "$prog" ] || fail "the program itself hit the gate (page fault), not the module"
	comm=$(cat "/proc/$kpid/comm" 2>/dev/null)
	say "blocked read by pid $kpid ($comm)"

	say "hotplug with the read blocked"
	bounded "cpu1 offline" sh -c "echo 0 >$cpu1"
	bounded "cpu1 online" sh -c "echo 1 >$cpu1"
	say "stop with the read blocked"
	bounded "stop" ctl stop
	[ "$(cat "$KTPROF_DBG/control")" = stopped ] || fail "not stopped after stop"
	dump_session "$out/raw"
	n=$(deferred "$out/raw/stats")
	[ "$n" -ge 1 ] || { cat "$out/raw/stats"; fail "files_deferred is $n, want >= 1"; }
	say "files_deferred=$n"

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
	echo "guest ok"
}

host() {
	"$KTPROF" dump --json "$out/raw" >"$out/dump.json" || fail "dump failed"
	/usr/bin/python3 "$(dirname "$0")/check_counts.py" "$out/raw/stats" "$out/dump.json" ||
		fail "accounting differs"
	echo ok
}

run_phases
