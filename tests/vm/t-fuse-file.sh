#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Sampled programs run from eight FUSE file systems whose daemons stop
# answering (tests/tools/fuse-gate), as an unprivileged user's could: the
# module must not be held by them. It never reads a file through its file
# system (the build id comes from the page cache, kmod/files.c), so with
# every daemon stalled: each program's FILE record is written, with the
# build id of the file it runs; CPU hotplug, stop, a second session's start
# and stop finish; the second session describes a program of /usr/bin run
# meanwhile, and files whose headers are not in the page cache (memfds
# with a hole) without a build id, marked uncached; no daemon sees a read
# from anyone but the programs; and the module unloads. Before, the module's reads of the eight files took all of
# its 16 workers, every stop waited 5 s, other files got no FILE record and
# rmmod hung in destroy_workqueue().
#
# A hang cannot be killed (the writer sleeps uninterruptibly in the
# kernel): each step runs in the background and fails the test when it is
# not done by a deadline; the exit trap then opens the gates, which lets a
# stuck step finish so that the next tests find a sane kernel.
. "$(dirname "$0")/lib.sh"
out=$KTPROF_TEST_OUT
cpu1=/sys/devices/system/cpu/cpu1/online
mounts=8
# A count, not a duration: each program's work after it is released, on
# two CPUs shared by eight. Hundreds of samples each; one asks for its file.
iterations=$(scaled 30000000 10000000)
# Deadlines for what must not hang. Not time assertions: each is far
# beyond what the step takes on a busy host under TCG.
limit=120

dir='' daemons='' progs=''

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
			fail "$what did not finish in $limit s (blocked behind a FUSE read?)"
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

# mounted N: daemon N serves its program.
mounted() { test -x "$dir/mnt$1/prog"; }
# in_read PID: the program waits in read(2) on fd 0.
in_read() { grep -q '^0 0x0 ' "/proc/$1/syscall" 2>/dev/null; }
prog_gone() { ! kill -0 "$1" 2>/dev/null; }

# Open the gates, so that whatever waits for a daemon goes on, then undo
# the rest. Also on success: each step is a no-op when already done.
cleanup() {
	local i
	[ -n "$dir" ] || return 0
	rm -f "$dir"/gate*
	for p in $progs; do kill "$p" 2>/dev/null; done
	for i in $(seq 0 $((mounts - 1))); do
		mountpoint -q "$dir/mnt$i" && { umount "$dir/mnt$i" || umount -l "$dir/mnt$i"; }
	done
	for p in $daemons; do kill "$p" 2>/dev/null; done
	cat "$dir"/log* 2>/dev/null | sed 's/^/daemon log: /'
}

# The reads the daemons saw from others than the programs themselves.
foreign_reads() {
	cat "$dir"/log* 2>/dev/null | awk -v progs=" $progs " '$1 == "gated" || $1 == "read" {
		pid = $2; sub(/^pid=/, "", pid)
		if (!index(progs, " " pid " ")) print
	}'
}

deferred() {
	awk '{ for (i = 1; i <= NF; i++) if (sub(/^files_deferred=/, "", $i)) n += $i }
		END { print n + 0 }' "$1"
}

guest() {
	local i p gzip
	# Debian 6.1 builds FUSE as a module; the guest sees the host's modules.
	[ -e /dev/fuse ] || modprobe fuse || fail "no FUSE: modprobe fuse failed"
	[ -e /dev/fuse ] || fail "no /dev/fuse"
	trap cleanup EXIT
	dir=$(mktemp -d)
	mkfifo "$dir/go"
	for i in $(seq 0 $((mounts - 1))); do
		mkdir "$dir/mnt$i"
		"$TOOLS/fuse-gate" "$dir/mnt$i" "$WORKLOADS/wait-spin" "$dir/gate$i" \
			"$dir/log$i" 2>"$dir/daemon$i.err" &
		daemons="$daemons $!"
	done
	for i in $(seq 0 $((mounts - 1))); do
		wait_for "FUSE mount $i" mounted "$i"
	done
	note mnt "$(readlink -f "$dir")"
	note prog "$(readlink -f "$WORKLOADS/wait-spin")"

	# No reader runs: 16 MiB a CPU hold the sessions' records.
	load_module events=sched samples=cpu-clock@999hz n_subbufs=64
	# Started before the gates close: exec reads each file. Then each
	# waits in read(2) on a fifo it holds open itself (so nothing blocks
	# on the fifo's open), having touched every page of its file it needs.
	for i in $(seq 0 $((mounts - 1))); do
		"$dir/mnt$i/prog" "$iterations" 0<>"$dir/go" &
		progs="$progs $!"
	done
	for p in $progs; do
		wait_for "program $p waiting for its go" in_read "$p"
	done
	for i in $(seq 0 $((mounts - 1))); do touch "$dir/gate$i"; done
	ctl start
	# One byte each.
	printf '%*s' "$mounts" '' >"$dir/go"
	say "$mounts programs released from $mounts stalled FUSE mounts"
	for p in $progs; do
		wait_for "exit of program $p" prog_gone "$p"
		wait "$p" || fail "program $p failed"
	done
	say "hotplug"
	bounded "cpu1 offline" sh -c "echo 0 >$cpu1"
	bounded "cpu1 online" sh -c "echo 1 >$cpu1"
	say "stop"
	bounded "stop" ctl stop
	dump_session "$out/raw"

	say "a second session, a program of /usr/bin"
	bounded "second start" ctl start
	gzip=$(readlink -f /usr/bin/gzip)
	note gzip "$gzip"
	head -c "$(scaled 8000000 3000000)" /dev/urandom >"$dir/data"
	"$gzip" -c "$dir/data" >/dev/null || fail "gzip failed"
	# Files whose first page is a hole, never cached: described without
	# a build id, and marked so.
	echo go | "$WORKLOADS/memfd-frames" -n 4 -r 8 -s "$(scaled 20000000 5000000)" -z \
		>"$out/frames.out" || fail "memfd-frames failed"
	bounded "second stop" ctl stop
	dump_session "$out/raw2"

	[ -z "$(foreign_reads)" ] || { foreign_reads; fail "the daemons were read by others than the programs"; }
	say "rmmod with every daemon still stalled"
	ls "$dir"/gate* >/dev/null || fail "the gates opened early"
	bounded "rmmod" rmmod ktprof
	[ "$(deferred "$out/raw/stats")" = 0 ] || fail "files_deferred is not 0: $(cat "$out/raw/stats")"
	echo "guest ok"
}

host() {
	local n
	for n in raw raw2; do
		"$KTPROF" dump --json "$out/$n" >"$out/$n.json" || fail "dump of $n failed"
		/usr/bin/python3 "$(dirname "$0")/check_counts.py" "$out/$n/stats" "$out/$n.json" ||
			fail "accounting differs ($n)"
	done
	/usr/bin/python3 - "$out/raw.json" "$out/raw2.json" "$(noted mnt)" "$(noted prog)" \
		"$(noted gzip)" "$mounts" <<'PY' || fail "FILE records wrong"
import json, struct, sys

def build_id(path):
    """The GNU build id of a 64-bit little-endian ELF file, in hex."""
    with open(path, "rb") as f:
        data = f.read()
    phoff, = struct.unpack_from("<Q", data, 32)
    phentsize, phnum = struct.unpack_from("<HH", data, 54)
    for i in range(phnum):
        ptype, _, off, _, _, filesz = struct.unpack_from("<IIQQQQ", data, phoff + i * phentsize)
        if ptype != 4:
            continue
        pos = off
        while pos + 12 <= off + filesz:
            namesz, descsz, ntype = struct.unpack_from("<III", data, pos)
            name = data[pos + 12:pos + 12 + namesz]
            desc_at = pos + 12 + (namesz + 3) // 4 * 4
            if ntype == 3 and name == b"GNU\0":
                return data[desc_at:desc_at + descsz].hex()
            pos = desc_at + (descsz + 3) // 4 * 4
    return ""

def files(path):
    return [e for e in map(json.loads, open(path)) if e["type"] == "file"]

first, second, mnt, prog, gzip, mounts = sys.argv[1:7]
want = build_id(prog)
assert want, "%s has no build id" % prog
fuse = {e["path"]: e for e in files(first) if e["path"].startswith(mnt + "/")}
for i in range(int(mounts)):
    path = "%s/mnt%d/prog" % (mnt, i)
    assert path in fuse, "no FILE record of %s: %s" % (path, sorted(fuse))
    e = fuse[path]
    assert e["build_id"] == want and "uncached" not in e, \
        "%s: build id %r (uncached: %s), want %r" % (path, e["build_id"], e.get("uncached"), want)
print("%d FILE records of the stalled mounts, build id %s" % (len(fuse), want))
g = [e for e in files(second) if e["path"] == gzip]
assert g, "no FILE record of %s in the second session" % gzip
assert g[0]["build_id"] == build_id(gzip), "%s: build id %r" % (gzip, g[0]["build_id"])
print("FILE record of %s, build id %s" % (gzip, g[0]["build_id"]))
holes = [e for e in files(second) if e["path"].startswith("/memfd:ktprof-frames")]
assert holes, "no FILE record of the memfds"
for e in holes:
    assert e.get("uncached") == "1" and e["build_id"] == "", "memfd: %s" % e
print("%d FILE records of uncached memfds, marked so" % len(holes))
PY
	echo ok
}

run_phases
