#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The debugfs load file (kmod/load.c): selftest records at a set rate on
# every traced CPU, as make bench's ceiling sweep uses it.
#   - refused without a session, above the maximum rate, and for text;
#   - at RATE, each CPU writes as many records as RATE times the time the
#     load ran (bracketed by the shell's clock before and after each
#     write; a tenth less for late ticks), numbered 0, 1, 2, ... with no
#     gap, and the load file's written count is the records in the buffers;
#   - a CPU taken offline under load ends its share (its records stop; the
#     other CPU does not write twice as many), the session's stop ends the
#     load, and unloading the module with a load running is clean.
# vm-args: --cpus 2
. "$(dirname "$0")/lib.sh"
out=$KTPROF_TEST_OUT
rate=20000
max=2000000

guest() {
	local t0 t1 t2 t3 st
	load_module events=sched n_subbufs=64
	echo "$rate" >"$KTPROF_DBG/load" 2>/dev/null && fail "load started without a session"
	ctl start
	echo $((max + 1)) >"$KTPROF_DBG/load" 2>/dev/null && fail "load took a rate above $max"
	echo fast >"$KTPROF_DBG/load" 2>/dev/null && fail "load took 'fast'"

	say "$rate records/s on each CPU"
	t0=$EPOCHREALTIME
	echo "$rate" >"$KTPROF_DBG/load" || fail "cannot start the load"
	t1=$EPOCHREALTIME
	nap 0.5
	t2=$EPOCHREALTIME
	echo 0 >"$KTPROF_DBG/load" || fail "cannot stop the load"
	t3=$EPOCHREALTIME
	st=$(cat "$KTPROF_DBG/load")
	echo "load: $st"
	case "$st" in "rate=0 cpus=2 "*) ;; *) fail "load after 0: '$st'" ;; esac
	note window "$t0 $t1 $t2 $t3"
	note load "$st"
	# Nothing more after the stop.
	nap 0.1
	[ "$(cat "$KTPROF_DBG/load")" = "$st" ] || fail "the load went on after 0"
	ctl stop
	dump_session "$out/steady"

	say "cpu1 offline under load"
	ctl start
	echo "$rate" >"$KTPROF_DBG/load" || fail "cannot start the load"
	nap 0.2
	echo 0 >/sys/devices/system/cpu/cpu1/online || fail "cannot take cpu1 offline"
	nap 0.3
	echo 1 >/sys/devices/system/cpu/cpu1/online || fail "cannot bring cpu1 online"
	echo 0 >"$KTPROF_DBG/load"
	ctl stop
	dump_session "$out/hotplug"

	say "the session's stop ends the load; unload under load"
	ctl start
	echo "$rate" >"$KTPROF_DBG/load" || fail "cannot start the load"
	nap 0.1
	ctl stop
	case "$(cat "$KTPROF_DBG/load")" in rate=0\ *) ;; *) fail "load runs after stop: $(cat "$KTPROF_DBG/load")" ;; esac
	ctl start
	echo "$rate" >"$KTPROF_DBG/load" || fail "cannot start the load"
	nap 0.1
	unload_module
	echo ok
}

host() {
	"$KTPROF" dump --json "$out/steady" >"$out/steady.json" || fail "dump of steady failed"
	"$KTPROF" dump --json "$out/hotplug" >"$out/hotplug.json" || fail "dump of hotplug failed"
	/usr/bin/python3 - "$out" "$rate" "$(noted window)" "$(noted load)" <<'EOF' ||
import collections, json, sys
out, rate = sys.argv[1], int(sys.argv[2])
t0, t1, t2, t3 = (float(x) for x in sys.argv[3].split())
load = dict(kv.split("=") for kv in sys.argv[4].split())

def selftests(name):
    seqs, times, marks = collections.defaultdict(list), collections.defaultdict(list), []
    with open(f"{out}/{name}.json") as f:
        for line in f:
            e = json.loads(line)
            if e.get("type") == "selftest":
                seqs[e["cpu"]].append(e["seq"])
                times[e["cpu"]].append(e["ts"])
            elif e.get("type") == "cpu" and e["cpu"] == 1:
                marks.append((e["reason"], e["ts"]))
    return seqs, times, marks

bad = 0
seqs, _, _ = selftests("steady")
# The load ran from inside [t0, t1] to inside [t2, t3]: at most t3 - t0
# (and a record for the tick at 0); at least t2 - t1 less the ticks that
# came too late to run before the stop, which a busy host makes many
# under TCG: a tenth of the time is allowed for those.
lo, hi = 0.9 * rate * (t2 - t1), rate * (t3 - t0) + 1
missed = int(load["missed"])   # records a tick too late gave up on (TCG)
total = 0
for cpu in (0, 1):
    s = seqs.get(cpu, [])
    total += len(s)
    gapless = s == list(range(len(s)))
    ok = gapless and lo - missed <= len(s) <= hi
    print(f"cpu{cpu}: {len(s)} records, seq 0..{len(s) - 1}{' contiguous' if gapless else ' WITH GAPS'}, "
          f"expected {lo:.0f}..{hi:.0f} less what was missed ({missed} on both): {'ok' if ok else 'BAD'}")
    bad += not ok
if not 2 * lo <= total + missed <= 2 * hi:
    print(f"BAD: written and missed {total + missed}, not in {2 * lo:.0f}..{2 * hi:.0f}")
    bad += 1
if total != int(load["written"]) or load["dropped"] != "0":
    print(f"BAD: the buffers hold {total} selftest records, the load file says {load}")
    bad += 1

# While cpu1 was offline (between its offline and online marks), cpu0
# wrote at the rate, not twice it, and cpu1 nothing.
seqs, times, marks = selftests("hotplug")
off0 = next((ts for r, ts in marks if r == "offline"), None)
off1 = next((ts for r, ts in marks if r == "online" and off0 is not None and ts > off0), None)
if off0 is None or off1 is None:
    print(f"BAD: no offline and online marks of cpu1: {marks}")
    sys.exit(1)
def within(cpu, a, b):
    return sum(1 for t in times.get(cpu, []) if a <= t <= b)
n0, n1 = within(0, off0, off1), within(1, off0, off1)
want = rate * (off1 - off0) / 1e9
print(f"cpu1 offline for {(off1 - off0) / 1e9:.3f} s: cpu0 wrote {n0} (at the rate: {want:.0f}), cpu1 {n1}")
if n1 or not (0.5 * want <= n0 <= want + rate * 0.002 + 1):
    print("BAD: the offline CPU's share moved or went on")
    bad += 1
if any(s != list(range(len(s))) for s in seqs.values()):
    print("BAD: a CPU's sequence has gaps under hotplug")
    bad += 1
sys.exit(1 if bad else 0)
EOF
		fail "the load's records are not what its rate says"
	echo ok
}

run_phases
