#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# record --probe and markers, known answers:
#   - a kprobe on do_sys_openat2 with the file name as a user string, and
#     its return probe: a shell opens ktp-probe-a 5 times,
#     ktp-probe-b 3 times and a missing file once; exactly those
#     hits with those names come from its pid, and each open's return
#     (the same pid's next return hit) is a descriptor, -2 (ENOENT) for
#     the missing file;
#   - a uprobe on tests/workloads/probed's ktp_probed_request(id, delta,
#     name) and its return: 10 calls, request i with id 1000 + i, delta
#     i - 3 (s32: -2 and -1 first), name odd/even; returns 2 * id;
#   - USDT probes of the same program (ktp:req_begin(id, delta, name, 3)
#     and ktp:req_end(id, sum), sum a global read from memory by its
#     place from the site, sum(%rip)) with their semaphores: 10 requests
#     and one nested in the 4th, their arguments exact and in order (sum
#     as the program adds it up), the program sees the semaphore set for
#     each of the 11 while probed and for none when not; a uprobe with
#     its user stack (stack): each hit's stack starts in the probed
#     function, called from request();
#   - a kprobe with its kernel stack (stack=k): each hit's stack starts
#     in do_sys_openat2, from the probed address up;
#   - -p keeps the hits of its process only;
#   - markers written by a shell loop to the debugfs file, in order, with
#     its pid; a "B "/"E " pair is a span's begin and end (flags, prefix
#     taken off) at least its sleep apart; ktprof mark writes one with its
#     own pid; with no session running, ktprof mark says so;
#   - report --probes of the same captures: the uprobe's hits, process,
#     argument figures and string values, the span and the unmatched end;
#   - the module's counts (META probe_stats): hits as many as records
#     (nothing lost), no misses;
#   - a kprobe on a function the write path calls (relay's sub-buffer
#     switch, which runs inside ktp_reserve()) records and stops cleanly;
#   - refused before any session, with no capture written: a kprobe on
#     ktprof's own code, an unknown function, a mid-instruction offset,
#     kprobes without CAP_SYS_ADMIN, a missing file;
#   - a uprobe's file replaced (renamed over) during the session: the
#     session stops, the module unloads, and on the debug kernel kmemleak
#     finds nothing new.
. "$(dirname "$0")/lib.sh"
out=$KTPROF_TEST_OUT

# refused NAME WANT [PREFIX... --] RECORD-OPTIONS...: a record, run under
# PREFIX (setpriv), refused with WANT in its message.
refused() {
	local name=$1 want=$2 prefix=()
	shift 2
	if [ "$1" = setpriv ]; then
		while [ "$1" != -- ]; do prefix+=("$1"); shift; done
		prefix+=(--)
		shift
	fi
	rm -f "$out/x.ktp"
	! "${prefix[@]}" "$KTPROF" record -q -S none -d 1s -o "$out/x.ktp" "$@" \
		2>"$out/$name.err" || fail "$name: taken"
	grep -q -- "$want" "$out/$name.err" || fail "$name: $(cat "$out/$name.err"), want \"$want\""
	[ ! -e "$out/x.ktp" ] || fail "$name: a refused record wrote a capture"
}

guest() {
	kmemleak_clear
	load_module
	# The guest's /tmp is read-only: files under the test's directory.
	export P=$out
	echo a >"$P/ktp-probe-a"
	echo b >"$P/ktp-probe-b"
	rm -f "$P/ktp-probe-none"
	"$KTPROF" record -q -S none -o "$out/k.ktp" \
		--probe 'open=k:do_sys_openat2 dfd=arg1:s32 path=arg2:ustr' \
		--probe 'kr:do_sys_openat2 fd=ret:s32' -- sh -c '
		echo "opener $$" >'"$out/pids"'
		for i in 1 2 3 4 5; do : <"$P/ktp-probe-a"; done
		for i in 1 2 3; do : <"$P/ktp-probe-b"; done
		{ : <"$P/ktp-probe-none"; } 2>/dev/null; true' \
		2>"$out/k.err" || fail "record kprobes failed: $(cat "$out/k.err")"
	"$KTPROF" record -q -S none -o "$out/u.ktp" \
		--probe "u:$WORKLOADS/probed:ktp_probed_request id=arg1:u64 delta=arg2:s32 name=arg3:str" \
		--probe "ur:$WORKLOADS/probed:ktp_probed_request ret=ret:u64" -- \
		"$WORKLOADS/probed" -n 10 >"$out/probed.out" 2>"$out/u.err" ||
		fail "record uprobes failed: $(cat "$out/u.err")"
	"$KTPROF" record -q -S none -o "$out/usdt.ktp" \
		--probe "usdt:$WORKLOADS/probed:ktp:req_begin" \
		--probe "named=usdt:$WORKLOADS/probed:ktp:req_begin name=arg3:str" \
		--probe "usdt:$WORKLOADS/probed:ktp:req_end id=arg1 sum=arg2:x64" \
		--probe "u:$WORKLOADS/probed:ktp_probed_request id=arg1:u64 stack" \
		--span req=ktp.req_begin,ktp.req_end -- \
		"$WORKLOADS/probed" -n 10 -N 4 -s 20000 >"$out/usdt.out" 2>"$out/usdt.err" ||
		fail "record USDT probes failed: $(cat "$out/usdt.err")"
	"$WORKLOADS/probed" -n 3 >"$out/usdt-off.out" || fail "probed alone failed"
	"$KTPROF" record -q -S none -o "$out/kstack.ktp" \
		--probe 'k:do_sys_openat2 stack=k' -- sh -c '
		for i in 1 2 3; do : <"$P/ktp-probe-a"; done' \
		2>"$out/kstack.err" || fail "record a kprobe with stacks failed: $(cat "$out/kstack.err")"
	grep -w do_sys_openat2 /proc/kallsyms >"$out/kallsyms" || true
	# -p: the probe hits of the named process only, not its sibling's.
	"$WORKLOADS/probed" -n 1000000 -s 10000 >"$out/sibling.out" &
	local sibling=$!
	"$WORKLOADS/probed" -n 1000000 -s 10000 >"$out/kept.out" &
	local kept=$!
	"$KTPROF" record -q -S none -p "$kept" -d 1s -o "$out/pfilter.ktp" \
		--probe "u:$WORKLOADS/probed:ktp_probed_request id=arg1:u64" \
		2>"$out/pfilter.err" || fail "record -p with a probe failed: $(cat "$out/pfilter.err")"
	kill "$sibling" "$kept" 2>/dev/null
	wait "$sibling" "$kept" 2>/dev/null
	echo "kept $kept" >>"$out/pids"
	echo "sibling $sibling" >>"$out/pids"
	"$KTPROF" record -q -S none -o "$out/m.ktp" -- sh -c '
		echo "marker $$" >>'"$out/pids"'
		for i in 1 2 3; do echo "step $i" >'"$KTPROF_DBG"'/marker; done
		echo "B phase" >'"$KTPROF_DBG"'/marker
		sleep 0.2
		echo "E phase" >'"$KTPROF_DBG"'/marker
		"$0" mark --end "from ktprof mark" & echo "mark $!" >>'"$out/pids"'; wait' \
		"$KTPROF" 2>"$out/m.err" || fail "record markers failed: $(cat "$out/m.err")"
	! "$KTPROF" mark nothing 2>"$out/mark-idle.err" || fail "mark without a session succeeded"
	grep -q "no session is running" "$out/mark-idle.err" ||
		fail "mark without a session: $(cat "$out/mark-idle.err")"
	# Small sub-buffers: the switch comes often, inside ktp_reserve().
	"$KTPROF" record -q -S none -b 64K --subbuf-size 4K -o "$out/relay.ktp" \
		--probe 'k:relay_switch_subbuf' -- \
		sh -c 'i=0; while [ $i -lt 200 ]; do : <"$P/ktp-probe-a"; i=$((i + 1)); done' \
		2>"$out/relay.err" || fail "record with a probe in the write path failed: $(cat "$out/relay.err")"
	refused own "ktprof's own code cannot be probed" --probe 'k:ktp_reserve'
	refused unknown "no such kernel function" --probe 'k:ktp_no_such_function'
	refused offset "cannot be probed" --probe 'k:do_sys_openat2+1'
	refused nofile "No such file" --probe "u:$out/ktp-no-such-file:main"
	if command -v setpriv >/dev/null; then
		refused cap "kprobes need CAP_SYS_ADMIN" setpriv --bounding-set=-sys_admin -- \
			--probe 'k:do_sys_openat2'
	fi
	# Replaced during the session: a rename over the probed file.
	cp "$WORKLOADS/probed" "$P/ktp-probed"
	"$KTPROF" record -q -S none -o "$out/replaced.ktp" \
		--probe "u:$P/ktp-probed:ktp_probed_request id=arg1:u64" -- sh -c '
		"$P/ktp-probed" -n 3 >/dev/null
		cp "$P/ktp-probed" "$P/ktp-probed.new" && mv "$P/ktp-probed.new" "$P/ktp-probed"
		"$P/ktp-probed" -n 2 >/dev/null' 2>"$out/replaced.err" ||
		fail "record with the file replaced failed: $(cat "$out/replaced.err")"
	unload_module
	kmemleak_check
	true
}

host() {
	local f
	for f in k u m relay replaced usdt kstack pfilter; do
		"$KTPROF" dump --json "$out/$f.ktp" >"$out/$f.json" || fail "dump $f failed"
	done
	"$KTPROF" info "$out/k.ktp" >"$out/k.info" || fail "info failed"
	"$KTPROF" report --json --probes "$out/u.ktp" >"$out/u-report.json" || fail "report --probes failed"
	"$KTPROF" report --json --probes "$out/m.ktp" >"$out/m-report.json" || fail "report --probes (markers) failed"
	"$KTPROF" report --json --probes "$out/usdt.ktp" >"$out/usdt-report.json" || fail "report --probes (USDT) failed"
	"$KTPROF" info "$out/relay.ktp" >"$out/relay.info" || fail "info relay failed"
	grep '^ *probe ' "$out/relay.info"
	/usr/bin/python3 - "$out" <<'PY' || fail "probe check failed"
import json, sys
out = sys.argv[1]
pids = dict(l.split() for l in open(out + "/pids"))
ok = True
def bad(msg):
    global ok
    print(msg)
    ok = False
def load(name):
    return [json.loads(l) for l in open("%s/%s.json" % (out, name))]
def num(v, bits=64, signed=False):
    v = int(v, 16) if isinstance(v, str) else int(v)
    v &= (1 << bits) - 1
    return v - (1 << bits) if signed and v >> (bits - 1) else v
# A probe record's id (dump names it when the capture has the list) and
# its argument i, by name or as argN.
def hits(evs, pid, probe, names):
    got = []
    for e in evs:
        if e["type"] != "probe" or e["pid"] != pid or e["probe"] not in probe:
            continue
        got.append([e.get(n, e.get("arg%d" % i)) for i, n in enumerate(names)] + [e])
    return got
def stats(name):
    # probe_stats: the module's hits and misses per probe, in info's text
    return None

k = load("k")
opener = int(pids["opener"])
opens = hits(k, opener, (0, "open"), ["dfd", "path"])
rets = hits(k, opener, (1, "do_sys_openat2%return"), ["fd"])
seq = sorted([(o[-1]["ts"], "open", o[1]) for o in opens] + [(r[-1]["ts"], "ret", num(r[0], 32, True)) for r in rets])
pre = out + "/ktp-probe-"
paths = [s[2][len(pre):] for s in seq if s[1] == "open" and s[2].startswith(pre)]
want = ["a"] * 5 + ["b"] * 3 + ["none"]
print("opens of %s*: %s" % (pre, paths))
if paths != want:
    bad("opens: %s, want %s" % (paths, want))
pairs = []
for i, s in enumerate(seq):
    if s[1] == "open" and s[2].startswith(pre):
        nxt = [t for t in seq[i + 1:] if t[1] == "ret"][:1]
        pairs.append((s[2], nxt[0][2] if nxt else None))
print("returns: %s" % pairs)
for path, fd in pairs:
    if fd is None or (path.endswith("none") and fd != -2) or (not path.endswith("none") and fd < 0):
        bad("%s returned %s" % (path, fd))
for o in opens:
    if num(o[0], 32, True) != -100:		# AT_FDCWD
        bad("an open's dfd is %s, want AT_FDCWD (-100)" % o[0])
        break

u = load("u")
probed = int(open(out + "/probed.out").read().split()[0].split("=")[1])
calls = hits(u, probed, (0, "ktp_probed_request"), ["id", "delta", "name"])
got = [(num(c[0]), num(c[1], 32, True), c[2]) for c in calls]
want = [(1000 + i, i - 3, "odd" if i % 2 else "even") for i in range(1, 11)]
print("uprobe: %s" % got)
if got != want:
    bad("uprobe hits %s, want %s" % (got, want))
rets = [num(r[0]) for r in hits(u, probed, (1, "ktp_probed_request%return"), ["ret"])]
print("uretprobe: %s" % rets)
if rets != [2 * (1000 + i) for i in range(1, 11)]:
    bad("uretprobe hits %s" % rets)

m = load("m")
marks = [e for e in m if e["type"] == "mark"]
sh = int(pids["marker"])
mine = [(e["text"], e.get("span")) for e in marks if e["pid"] == sh]
print("markers of the shell: %s" % mine)
if mine != [("step 1", None), ("step 2", None), ("step 3", None), ("phase", "begin"), ("phase", "end")]:
    bad("markers %s" % mine)
span = [e["ts"] for e in marks if e["pid"] == sh and e["text"] == "phase"]
if len(span) == 2 and span[1] - span[0] < 200000000:
    bad("the span lasted %d ns, under its 0.2 s sleep" % (span[1] - span[0]))
other = [(e["pid"], e["text"], e.get("span")) for e in marks if e["pid"] != sh]
if other != [(int(pids["mark"]), "from ktprof mark", "end")]:
    bad("ktprof mark's marker: %s" % other)

# USDT: begins and ends in order, the nested request inside the 4th.
usdt = load("usdt")
pr, _, en = open(out + "/usdt.out").read().split()
uprobed = int(pr.split("=")[1])
order = [1001, 1002, 1003, 1004, 2004, 1005, 1006, 1007, 1008, 1009, 1010]
def delta(i):
    return (i % 1000) - 3
def name(i):
    return "odd" if i % 2 else "even"
# Unnamed, every argument as its note has it: arg3, a pointer, a number.
want_b = [(i, delta(i), 3) for i in order]
got_b = [(num(h[0]), num(h[1], 32, True), num(h[3], 32, True))
         for h in hits(usdt, uprobed, (0, "ktp.req_begin"), ["arg1", "arg2", "arg3", "arg4"])]
names = [h[0] for h in hits(usdt, uprobed, (1, "named"), ["name"])]
if names != [name(i) for i in order]:
    bad("USDT req_begin's arg3 as a string: %s" % names)
print("USDT req_begin: %s" % got_b)
if got_b != want_b:
    bad("USDT req_begin %s, want %s" % (got_b, want_b))
total, ends = 0, {}
for i in order:
    total += i + delta(i) + ord(name(i)[0])
    ends[i] = total
ends[1004] = ends[2004]	# it ends after the request nested in it
want_e = [(i, ends[i]) for i in [1001, 1002, 1003, 2004, 1004, 1005, 1006, 1007, 1008, 1009, 1010]]
got_e = [(num(h[0]), num(h[1])) for h in hits(usdt, uprobed, (2, "ktp.req_end"), ["id", "sum"])]
print("USDT req_end: %s" % got_e)
if got_e != want_e:
    bad("USDT req_end %s, want %s" % (got_e, want_e))
if en != "enabled=11":
    bad("the program saw the semaphore set %s times, want 11" % en)
if not open(out + "/usdt-off.out").read().strip().endswith("enabled=0"):
    bad("unprobed, the program saw the semaphore set: %s" % open(out + "/usdt-off.out").read())
# A hit's stack is its CPU's: ids are per CPU.
stacks = {(e["cpu"], e["id"]): e for e in usdt if e["type"] == "stack"}
calls = hits(usdt, uprobed, (3, "ktp_probed_request"), ["id"])
frames = [stacks.get((c[-1]["cpu"], c[-1].get("stack"))) for c in calls]
us = [f["ustack"].split(",") if f else [] for f in frames]
print("uprobe stacks: %d hits, first: %s" % (len(calls), us[:1]))
# At a function's entry its frame is not made yet: its caller comes from
# the stack pointer (KTP_PROBE_AT_ENTRY), then the frame-pointer walk.
# main calls request() calls ktp_probed_request(); the nested request is
# one frame deeper: request() called by request().
if len(calls) != 11 or any(len(u) < 4 for u in us) or \
        any(u != us[0] for u in us[:4] + us[5:]) or \
        us[4][:2] != us[0][:2] or us[4][3:] != us[0][2:] or us[4][2] == us[0][1]:
    bad("the uprobe's user stacks: %s" % us)
rep = json.load(open(out + "/usdt-report.json"))["probes"]
ps = {s["name"]: s for s in rep.get("probe_spans", [])}
req = ps.get("req", {})
dur = req.get("duration", {})
print("USDT spans req: %s" % (dur,))
if dur.get("count") != 11 or dur.get("min_ns", 0) < 20000000 or dur.get("max_ns", 0) < 40000000:
    bad("USDT span req: %s, want 11 spans of at least 20 ms, the 4th at least 40 ms" % req)
# report --probes: the uprobe's stacks, symbolized, most hits first.
up = {p["name"]: p for p in rep["probes"]}.get("ktp_probed_request", {})
got = [(s["count"], [f.split("+")[0] for f in s["uframes"][:4]]) for s in up.get("stacks", [])]
print("report --probes stacks: %s" % got)
if got != [(10, ["ktp_probed_request", "request", "main", got[0][1][3] if got and len(got[0][1]) > 3 else "?"]),
           (1, ["ktp_probed_request", "request", "request", "main"])] or up.get("stack_hits") != 11:
    bad("report --probes stacks %s" % got)
kst = load("kstack")
kstacks = {(e["cpu"], e["id"]): e for e in kst if e["type"] == "stack"}
fn = [int(l.split()[0], 16) for l in open(out + "/kallsyms") if l.split()[2] == "do_sys_openat2"]
ks = [kstacks.get((e["cpu"], e.get("stack"))) for e in kst if e["type"] == "probe"]
firsts = [int(k["kstack"].split(",")[0], 16) if k and k["kstack"] else 0 for k in ks]
print("kprobe stacks: %d hits, first frames %s, do_sys_openat2 at %s" % (len(ks), [hex(f) for f in firsts[:3]], [hex(f) for f in fn]))
if len(ks) < 3 or not fn or any(not (fn[0] <= f < fn[0] + 16) for f in firsts):
    bad("kprobe stacks do not start in do_sys_openat2")
if any(len(k["kstack"].split(",")) < 3 for k in ks if k):
    bad("kprobe stacks too short: %s" % ks[:2])
pf = load("pfilter")
pids_hit = sorted(set(e["pid"] for e in pf if e["type"] == "probe"))
print("-p %s: hits from %s" % (pids["kept"], pids_hit))
if pids_hit != [int(pids["kept"])]:
    bad("-p: probe hits from %s, want only %s" % (pids_hit, pids["kept"]))

relay = load("relay")
n = sum(1 for e in relay if e["type"] == "probe")
print("hits of relay_switch_subbuf recorded: %d" % n)
if not n:
    bad("no hit of relay_switch_subbuf recorded")
rep = load("replaced")
n = sum(1 for e in rep if e["type"] == "probe")
print("hits of the replaced file's probe: %d (3 before the rename)" % n)
if n < 3:
    bad("the replaced file's probe: %d hits, want at least the 3 before the rename" % n)
# report --probes on the same captures: the analysis of what dump shows.
rep = json.load(open(out + "/u-report.json"))["probes"]
byname = {p["name"]: p for p in rep["probes"]}
up = byname.get("ktp_probed_request", {})
args = {a["name"]: a for a in up.get("args", [])}
got = (up.get("hits"), [p["tgid"] for p in up.get("processes", [])],
       args.get("delta", {}).get("min"), args.get("delta", {}).get("max"),
       args.get("id", {}).get("p50"), [(v["value"], v["count"]) for v in args.get("name", {}).get("top", [])])
want = (10, [probed], -2, 7, 1005, [("even", 5), ("odd", 5)])
print("report --probes: %s" % (got,))
if got != want:
    bad("report --probes: %s, want %s" % (got, want))
rep = json.load(open(out + "/m-report.json"))["probes"]
spans = {s["name"]: s["duration"] for s in rep["spans"]}
print("spans: %s, unmatched ends %d" % (spans, rep["unmatched_ends"]))
if list(spans) != ["phase"] or spans["phase"]["count"] != 1 or \
        spans["phase"]["max_ns"] < 200000000 or rep["unmatched_ends"] != 1:
    bad("report --probes spans: %s" % rep)
sys.exit(0 if ok else 1)
PY
	# The module's counts, as info shows them: every hit recorded, no miss.
	grep -q 'probe  *open  *kprobe' "$out/k.info" || fail "info: no probe lines: $(cat "$out/k.info")"
	awk '$1 == "probe" { if ($4 != $5 || $6 != 0) bad = 1; n++ }
	     END { exit !(n == 2 && !bad) }' "$out/k.info" ||
		fail "info: hits, records and misses: $(grep '^ *probe' "$out/k.info")"
	echo ok
}

run_phases
