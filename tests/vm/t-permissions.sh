#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Every file is root only, and an unprivileged user can neither read the
# data nor use the netlink operations. Starting and stopping take what perf
# asks for the same power, CAP_PERFMON or CAP_SYS_ADMIN: root holding only
# CAP_NET_ADMIN (netlink's own admin check) can do neither, through netlink
# or debugfs; root holding only CAP_PERFMON can.
. "$(dirname "$0")/lib.sh"
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"; }
# uid 0 (so the files' modes let it in) with one capability only.
with_cap() {
	local cap=$1
	shift
	setpriv --bounding-set=-all,+"$cap" --inh-caps=-all,+"$cap" \
		--ambient-caps=-all,+"$cap" -- "$@"
}

load_module
ctl start
nap 0.2
ctl stop
for f in "$KTPROF_DBG"/*; do
	mode=$(stat -c '%a %U' "$f")
	case "$(basename "$f")" in
	control|selftest|load) want="600 root" ;;
	marker) want="200 root" ;;
	*) want="400 root" ;;
	esac
	[ "$mode" = "$want" ] || fail "$f: mode $mode, want $want"
done
as_nobody cat "$KTPROF_DBG/cpu0" >/dev/null 2>&1 && fail "nobody read cpu0"
as_nobody cat "$KTPROF_DBG/stats" >/dev/null 2>&1 && fail "nobody read stats"
as_nobody sh -c "echo start > $KTPROF_DBG/control" 2>/dev/null && fail "nobody wrote control"
as_nobody sh -c "echo x > $KTPROF_DBG/marker" 2>/dev/null && fail "nobody wrote marker"
for op in meta stats stop flush start; do
	out=$(as_nobody "$TOOLS/genl-call" $op)
	rc=$?
	[ $rc = 1 ] || fail "nobody: genl $op exit $rc ($out), want EPERM (1)"
done
[ "$(cat "$KTPROF_DBG/control")" = stopped ] || fail "state changed"

with_cap net_admin grep -q CapEff /proc/self/status || fail "setpriv cannot drop capabilities"
echo "CAP_NET_ADMIN only: $(with_cap net_admin grep CapEff /proc/self/status)"
with_cap net_admin sh -c "echo start > $KTPROF_DBG/control" 2>/dev/null &&
	fail "CAP_NET_ADMIN alone started a session through debugfs"
with_cap net_admin sh -c "echo 10 > $KTPROF_DBG/selftest" 2>/dev/null &&
	fail "CAP_NET_ADMIN alone wrote selftest"
with_cap net_admin sh -c "echo 10 > $KTPROF_DBG/load" 2>/dev/null &&
	fail "CAP_NET_ADMIN alone wrote load"
for op in start stop flush meta stats; do
	out=$(with_cap net_admin "$TOOLS/genl-call" $op)
	rc=$?
	[ $rc = 1 ] || fail "CAP_NET_ADMIN alone: genl $op exit $rc ($out), want EPERM (1)"
done
[ "$(cat "$KTPROF_DBG/control")" = stopped ] || fail "state changed"

out=$(with_cap perfmon "$TOOLS/genl-call" start) || fail "CAP_PERFMON: genl start failed: $out"
[ "$(cat "$KTPROF_DBG/control")" = running ] || fail "CAP_PERFMON: no session"
with_cap perfmon sh -c "echo stop > $KTPROF_DBG/control" ||
	fail "CAP_PERFMON: debugfs stop failed"
[ "$(cat "$KTPROF_DBG/control")" = stopped ] || fail "CAP_PERFMON: not stopped"
unload_module
echo ok
