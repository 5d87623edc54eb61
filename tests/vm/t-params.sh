#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Bad parameters fail the load with EINVAL and a one-line reason; bad
# control writes fail with EINVAL and leave the state as it was.
. "$(dirname "$0")/lib.sh"

for p in subbuf_size=100 subbuf_size=4097 n_subbufs=1 n_subbufs=100000 \
	 events=bogus events= cpus=abc cpus=9999 "subbuf_size=67108864 n_subbufs=64"; do
	dmesg -C
	# shellcheck disable=SC2086
	out=$(insmod "$KTPROF_KO" $p 2>&1) && fail "insmod $p succeeded"
	echo "$out" | grep -qi 'invalid' || fail "insmod $p: $out"
	module_loaded && fail "module loaded after insmod $p"
	# One line of reason (the kernel's own taint notices aside).
	reason=$(dmesg | grep 'ktprof: ' | grep -v 'taint')
	[ "$(echo "$reason" | grep -c .)" = 1 ] || fail "insmod $p: reason lines: $reason"
	echo "$p: $reason"
done

load_module events=sched,irq subbuf_size=65536 n_subbufs=4 autostart=1
[ "$(cat "$KTPROF_DBG/control")" = running ] || fail "autostart did not start"
grep -q '^events=sched,irq$' "$KTPROF_DBG/meta" || fail "events parameter not applied"
for cmd in bogus "" "start now" stopx; do
	echo "$cmd" >"$KTPROF_DBG/control" 2>/dev/null && fail "control accepted '$cmd'"
	[ "$(cat "$KTPROF_DBG/control")" = running ] || fail "'$cmd' changed the state"
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
