#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# cgroup v2 (report --cgroups). Spinners in /ktp-a (two), /ktp-a/inner
# (one) and /ktp-b (one), and a fifth moved from /ktp-b to /ktp-a during
# the session (cgroup_attach_task):
#   - each cgroup's id is the inode of its directory, and its path is in
#     the capture's tables;
#   - each spinner that stayed is in its cgroup (threads[].cgroup), the
#     moved one ends in /ktp-a, and its move is an attach record;
#   - the tree runtime of /ktp-a is its own plus /ktp-a/inner's, and the
#     cgroups' own runtimes add up to the threads' (every thread's time
#     goes to the cgroup it ran in);
#   - each cgroup's own runtime is at least that of its spinners that
#     stayed, and /ktp-b's no more than its own spinner's plus the moved one's;
#   - the kernel's cpu.stat (read by the recorder before the start and after
#     the stop): where the kernel has the cpu controller (not the debug
#     kernel: no CGROUP_SCHED, when cpu.stat has usage only, and the report
#     no bandwidth figures), /ktp-b, held to 20% of a CPU by cpu.max, was throttled
#     (periods and throttled periods and time above 0, no more throttled
#     periods than periods), /ktp-a (no limit) never; each cgroup's usage
#     is at least 97% of its tree runtime in the capture (the reads bracket
#     the session; a running task's last tick may be unaccounted). No upper
#     bound: the spinners keep running while the session starts and stops,
#     which takes the recorder up to seconds on a saturated TCG guest.
# Then -G, the module's sample filter, on the same spinners (the fifth moved
# back to /ktp-b first, and to /ktp-a again during the capture):
#   - with -G /ktp-a every sample is of a task in /ktp-a or below at that
#     moment: the spinners of /ktp-a and /ktp-a/inner have samples, the
#     one in /ktp-b none, the moved one some after its attach record and
#     none before the command's first sleep ended (samples are of tasks,
#     not of the recorder's shell). Not "none before its attach record":
#     the kernel fires cgroup_attach_task after the move is done (after
#     the controllers' attach callbacks and the migration's cleanup), so a
#     sample between the move and the record is rightly kept (seen once on
#     6.12: one sample);
#   - with -G /ktp-a -p A -p B (A in /ktp-a, B in /ktp-b) only A's;
#   - info shows the option, and -G of a file or a missing cgroup is
#     refused before any session starts.
. "$(dirname "$0")/lib.sh"
out=$KTPROF_TEST_OUT
spin='while :; do :; done'
cg=/sys/fs/cgroup

spinner() {
	sh -c "$spin" &
	echo "$!" >"$cg/$1/cgroup.procs" || fail "cannot move $! to $1"
	echo "$1 $!"
}

guest() {
	local p moved
	grep -q " $cg cgroup2 " /proc/mounts || mount -t cgroup2 none "$cg" || fail "no cgroup2"
	mkdir -p "$cg/ktp-a/inner" "$cg/ktp-b" || fail "mkdir failed"
	if grep -qw cpu "$cg/cgroup.controllers"; then
		echo +cpu >"$cg/cgroup.subtree_control" || fail "cannot enable the cpu controller"
		echo "20000 100000" >"$cg/ktp-b/cpu.max" || fail "cannot limit /ktp-b"
		note bandwidth yes
	else
		note bandwidth no
	fi
	{
		spinner ktp-a
		spinner ktp-a
		spinner ktp-a/inner
		spinner ktp-b
	} >"$out/pids"
	sh -c "$spin" &
	moved=$!
	echo "$moved" >"$cg/ktp-b/cgroup.procs"
	echo "moved $moved" >>"$out/pids"
	for p in / /ktp-a /ktp-a/inner /ktp-b; do
		echo "$(stat -c %i "$cg$p") $p"
	done >"$out/inodes"
	"$KTPROF" record -q -S none --load "$KTPROF_KO" -o "$out/cg.ktp" -- \
		sh -c "sleep $(scaled 2 1); echo $moved >$cg/ktp-a/cgroup.procs; sleep $(scaled 2 1)" \
		2>"$out/record.err" || fail "record failed: $(cat "$out/record.err")"
	echo "$moved" >"$cg/ktp-b/cgroup.procs"
	"$KTPROF" record -q -S cpu-clock@499hz -G /ktp-a --load "$KTPROF_KO" -o "$out/g.ktp" -- \
		sh -c "sleep $(scaled 2 1); echo $moved >$cg/ktp-a/cgroup.procs; sleep $(scaled 2 1)" \
		2>"$out/record.err" || fail "record -G failed: $(cat "$out/record.err")"
	"$KTPROF" record -q -S cpu-clock@499hz -G "$cg/ktp-a" -d "$(scaled 2s 1s)" \
		-p "$(sed -n 1p "$out/pids" | cut -d' ' -f2)" -p "$(sed -n 4p "$out/pids" | cut -d' ' -f2)" \
		--load "$KTPROF_KO" -o "$out/gp.ktp" 2>"$out/record.err" ||
		fail "record -G -p failed: $(cat "$out/record.err")"
	! "$KTPROF" record -q -G /ktp-a/cgroup.procs -d 1s --load "$KTPROF_KO" -o "$out/x.ktp" \
		2>"$out/g-file.err" || fail "-G of a control file was taken"
	! "$KTPROF" record -q -G /ktp-none -d 1s --load "$KTPROF_KO" -o "$out/x.ktp" \
		2>"$out/g-none.err" || fail "-G of a missing cgroup was taken"
	[ ! -e "$out/x.ktp" ] || fail "a refused -G wrote a capture"
	for p in $(cut -d' ' -f2 "$out/pids"); do kill "$p"; done
	wait 2>/dev/null
	rmdir "$cg/ktp-a/inner" "$cg/ktp-a" "$cg/ktp-b" 2>/dev/null
	echo -cpu >"$cg/cgroup.subtree_control" 2>/dev/null
	true
}

host() {
	"$KTPROF" dump --json "$out/cg.ktp" >"$out/dump.json" || fail "dump failed"
	"$KTPROF" report --json --cgroups --runtime "$out/cg.ktp" >"$out/report.json" ||
		fail "report --json --cgroups failed"
	"$KTPROF" report --cgroups "$out/cg.ktp" >"$out/report.txt" || fail "report --cgroups failed"
	grep -q "the kernel's cpu.stat" "$out/report.txt" || fail "report --cgroups: no cpu.stat table"
	/usr/bin/python3 - "$out/pids" "$out/inodes" "$out/dump.json" "$out/report.json" \
		"$(noted bandwidth)" <<'PY' ||
import json, sys
pids = [l.split() for l in open(sys.argv[1])]
inode = {p: int(i) for i, p in (l.split() for l in open(sys.argv[2]))}
rep = json.load(open(sys.argv[4]))
items = {c["id"]: c for c in rep["cgroups"]["items"]}
by_path = {c.get("path"): c for c in rep["cgroups"]["items"]}
threads = {t["pid"]: t for t in rep["threads"]}
ok = True
def bad(msg):
    global ok
    print(msg)
    ok = False
for path in ("/ktp-a", "/ktp-a/inner", "/ktp-b"):
    c = by_path.get(path)
    if not c:
        bad("%s: not in the report" % path)
    elif c["id"] != inode[path]:
        bad("%s: id %d, its directory's inode %d" % (path, c["id"], inode[path]))
moved = int([p for k, p in pids if k == "moved"][0])
attach = [e for line in open(sys.argv[3]) for e in [json.loads(line)]
          if e["type"] == "cgroup" and e.get("attach") and e["pid"] == moved]
if not attach or attach[-1]["id"] != inode["/ktp-a"]:
    bad("no attach record of %d to /ktp-a: %s" % (moved, attach))
stayed = {}
for kind, pid in pids:
    t = threads.get(int(pid), {})
    want = "/ktp-a" if kind == "moved" else "/" + kind
    if t.get("cgroup") != want:
        bad("%s %s: cgroup %s, want %s" % (kind, pid, t.get("cgroup"), want))
    if kind != "moved":
        stayed[want] = stayed.get(want, 0) + t.get("runtime_ns", 0)
for path, ns in sorted(stayed.items()):
    own = by_path.get(path, {}).get("own", {}).get("runtime_ns", 0)
    print("%-14s own runtime %d ns, its spinners that stayed %d ns" % (path, own, ns))
    if own < ns:
        bad("%s: own runtime below its spinners'" % path)
b_own = by_path.get("/ktp-b", {}).get("own", {}).get("runtime_ns", 0)
if b_own > stayed.get("/ktp-b", 0) + threads.get(moved, {}).get("runtime_ns", 0):
    bad("/ktp-b: more runtime than its spinner and the moved one had")
a = by_path.get("/ktp-a", {})
inner = by_path.get("/ktp-a/inner", {})
if a.get("tree", {}).get("runtime_ns") != a.get("own", {}).get("runtime_ns", 0) + \
        inner.get("own", {}).get("runtime_ns", 0):
    bad("/ktp-a: tree runtime is not its own plus /ktp-a/inner's")
for path in ("/ktp-a", "/ktp-a/inner", "/ktp-b"):
    c = by_path.get(path, {})
    k, tree = c.get("kernel", {}), c.get("tree", {}).get("runtime_ns", 0)
    print("%-14s kernel %s, tree runtime %d ns" % (path, k, tree))
    if "usage_ns" not in k:
        bad("%s: no kernel usage" % path)
    elif not 0.97 * tree <= k["usage_ns"]:
        bad("%s: kernel usage %d ns against a tree runtime of %d ns" % (path, k["usage_ns"], tree))
kb = by_path.get("/ktp-b", {}).get("kernel", {})
if sys.argv[5] != "yes":
    if "periods" in kb or "throttled_ns" in kb:
        bad("/ktp-b: bandwidth figures without the cpu controller: %s" % kb)
elif not (kb.get("periods", 0) > 0 and 0 < kb.get("throttled_periods", 0) <= kb["periods"]
          and kb.get("throttled_ns", 0) > 0):
    bad("/ktp-b: not throttled: %s" % kb)
ka = by_path.get("/ktp-a", {}).get("kernel", {})
if ka.get("throttled_periods", 0) or ka.get("throttled_ns", 0):
    bad("/ktp-a: throttled without a limit: %s" % ka)
own_sum = sum(c["own"]["runtime_ns"] for c in items.values())
thread_sum = sum(t.get("runtime_ns", 0) for t in rep["threads"])	# pids may repeat
print("cgroups' own runtimes %d ns, threads' %d ns" % (own_sum, thread_sum))
if own_sum != thread_sum:
    bad("the cgroups' runtimes do not add up to the threads'")
sys.exit(0 if ok else 1)
PY
		fail "cgroup check failed"
	grep -q "not a cgroup v2 directory" "$out/g-file.err" ||
		fail "-G of a file: $(cat "$out/g-file.err")"
	grep -q "no such cgroup v2" "$out/g-none.err" ||
		fail "-G of a missing cgroup: $(cat "$out/g-none.err")"
	"$KTPROF" info "$out/g.ktp" | grep -q "option *cgroup=/ktp-a$" || fail "info: no cgroup=/ktp-a option"
	"$KTPROF" info "$out/gp.ktp" | grep -q "option *cgroup=/ktp-a$" || fail "info: no cgroup=/ktp-a option (-G by mount path)"
	"$KTPROF" dump --json "$out/g.ktp" >"$out/g.json" || fail "dump g failed"
	"$KTPROF" dump --json "$out/gp.ktp" >"$out/gp.json" || fail "dump gp failed"
	/usr/bin/python3 - "$out/pids" "$out/g.json" "$out/gp.json" <<'PY' || fail "-G check failed"
import json, sys
pids = [l.split() for l in open(sys.argv[1])]
def load(path):
    return [json.loads(l) for l in open(path)]
g, gp = load(sys.argv[2]), load(sys.argv[3])
ok = True
def bad(msg):
    global ok
    print(msg)
    ok = False
moved = int([p for k, p in pids if k == "moved"][0])
attach = [e["ts"] for e in g if e["type"] == "cgroup" and e.get("attach") and e["pid"] == moved]
if len(attach) != 1:
    bad("-G: %d attach records of the moved spinner, want 1" % len(attach))
t_attach = attach[0] if attach else 0
samples = [e for e in g if e["type"] == "sample"]
by_pid = {}
for s in samples:
    by_pid.setdefault(s["pid"], []).append(s["ts"])
spinners = {int(p): k for k, p in pids}
for pid, kind in sorted(spinners.items()):
    n = len(by_pid.get(pid, []))
    print("-G /ktp-a: %-12s %5d: %d samples" % (kind, pid, n))
    if kind in ("ktp-a", "ktp-a/inner") and not n:
        bad("-G /ktp-a: no samples of %s's spinner %d" % (kind, pid))
    if kind == "ktp-b" and n:
        bad("-G /ktp-a: %d samples of /ktp-b's spinner" % n)
sleeps = {e["pid"] for e in g if e["type"] == "exec" and e["filename"].endswith("/sleep")}
t_write = min((e["ts"] for e in g if e["type"] == "exit" and e["pid"] in sleeps), default=None)
if t_write is None or t_write > t_attach:
    bad("-G: the first sleep's exit (%s) is not before the attach (%d)" % (t_write, t_attach))
early = [t for t in by_pid.get(moved, []) if t < (t_write or t_attach)]
late = [t for t in by_pid.get(moved, []) if t >= t_attach]
print("-G /ktp-a: moved spinner: %d samples before the write, %d between it and the attach "
      "record, %d after" % (len(early), len(by_pid.get(moved, [])) - len(early) - len(late), len(late)))
if early or not late:
    bad("-G /ktp-a: moved spinner: %d samples before the write, %d after the attach"
        % (len(early), len(late)))
others = sorted(p for p in by_pid if p not in spinners)
if others:
    bad("-G /ktp-a: samples of tasks outside it: %s" % others[:10])
a_pid = int(pids[0][1])
kept = {}
for e in gp:
    if e["type"] == "sample":
        kept[e["pid"]] = kept.get(e["pid"], 0) + 1
print("-G /ktp-a -p A -p B: samples by pid %s" % kept)
if list(kept) != [a_pid]:
    bad("-G with -p: samples of %s, want only %d's" % (sorted(kept), a_pid))
sys.exit(0 if ok else 1)
PY
	echo ok
}

run_phases
