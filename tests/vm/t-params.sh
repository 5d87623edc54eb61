#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Bad parameters fail the load with EINVAL and a one-line reason (a sample
# period perf_event_open() refuses, 2^63 and up, too); bad
# control writes fail with EINVAL and leave the state as it was; buffers
# over half of memory in all are refused at start.
. "$(dirname "$0")/lib.sh"

dmesg -C
for p in subbuf_size=100 subbuf_size=4097 n_subbufs=1 n_subbufs=100000 \
	 events=bogus events= cpus=abc cpus=9999 "subbuf_size=67108864 n_subbufs=64" \
	 samples=cpu-clock@period=0 samples=cpu-clock@period=9223372036854775808 \
	 samples=cpu-clock@period=0xffffffffffffffff; do
	# shellcheck disable=SC2086
	out=$(insmod "$KTPROF_KO" $p 2>&1) && fail "insmod $p succeeded"
	[[ ${out,,} == *invalid* ]] || fail "insmod $p: $out"
	module_loaded && fail "module loaded after insmod $p"
	# One line of reason (the kernel's own taint notices aside), from
	# the kernel log this load wrote (read and cleared: dmesg -c). Few
	# processes a load: on the debug kernel each costs seconds.
	mapfile -t reason < <(dmesg -c | sed -n '/taint/d; /ktprof: /p')
	[ "${#reason[@]}" = 1 ] || fail "insmod $p: reason lines: ${reason[*]}"
	echo "$p: ${reason[0]}"
done

# The buffers of all possible CPUs stay within half of memory: a geometry
# each CPU may have (at most 1 GiB) but all of them together may not is
# refused at start with the reason, before anything is allocated.
possible=0
for r in $(tr ',' ' ' </sys/devices/system/cpu/possible); do
	possible=$((possible + ${r#*-} - ${r%-*} + 1))
done
mem=$(( $(awk '/^MemTotal:/ { print $2 }' /proc/meminfo) * 1024 ))
n=$(( mem / 2 / possible / (16 << 20) + 1 ))
[ $((n * 16)) -le 1024 ] || fail "no geometry under 1 GiB a CPU exceeds half of memory ($possible CPUs)"
load_module events=sched subbuf_size=$((16 << 20)) n_subbufs=$n
dmesg -C
ctl start 2>/dev/null && fail "start with $n x 16 MiB on $possible CPUs succeeded"
reason=$(dmesg | grep 'ktprof: start failed')
echo "$reason" | grep -q "$((n * 16)) MiB per CPU on $possible CPUs ($((n * 16 * possible)) MiB) exceed half of memory ($((mem / 2 >> 20)) MiB)" ||
	fail "start over half of memory: reason '$reason'"
[ "$(cat "$KTPROF_DBG/control")" != running ] || fail "running after a refused start"
echo "refused: $reason"
unload_module

load_module events=sched,irq subbuf_size=65536 n_subbufs=4 autostart=1
[ "$(cat "$KTPROF_DBG/control")" = running ] || fail "autostart did not start"
grep -q '^events=sched,irq$' "$KTPROF_DBG/meta" || fail "events parameter not applied"
for cmd in bogus "" "start now" stopx; do
	echo "$cmd" >"$KTPROF_DBG/control" 2>/dev/null && fail "control accepted '$cmd'"
	ctl_is running || fail "'$cmd' changed the state"
done
echo start >"$KTPROF_DBG/control" 2>/dev/null && fail "second start succeeded"
echo abc >"$KTPROF_DBG/selftest" 2>/dev/null && fail "selftest accepted abc"
echo flush >"$KTPROF_DBG/control" || fail "flush failed"
"$WORKLOADS/sched-mix" -r 200 -t 20 >/dev/null
echo flush >"$KTPROF_DBG/control" || fail "flush failed"
# Flushed data is readable while the session runs.
n=$(cat "$KTPROF_DBG"/cpu* | wc -c)
[ "$n" -gt 0 ] || fail "nothing readable after flush"
echo "readable after flush while running: $n bytes"
ctl stop
echo stop >"$KTPROF_DBG/control" 2>/dev/null && fail "stop when stopped succeeded"
echo 10 >"$KTPROF_DBG/selftest" 2>/dev/null && fail "selftest when stopped succeeded"
[ "$(cat "$KTPROF_DBG/control")" = stopped ] || fail "state not stopped"
unload_module
echo ok
