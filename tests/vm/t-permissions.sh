#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Every file is root only, and an unprivileged user can neither read the
# data nor use the netlink operations.
. "$(dirname "$0")/lib.sh"
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"; }

load_module
ctl start
sleep 0.2
ctl stop
for f in "$KTPROF_DBG"/*; do
	mode=$(stat -c '%a %U' "$f")
	case "$(basename "$f")" in
	control|selftest) want="600 root" ;;
	*) want="400 root" ;;
	esac
	[ "$mode" = "$want" ] || fail "$f: mode $mode, want $want"
done
as_nobody cat "$KTPROF_DBG/cpu0" >/dev/null 2>&1 && fail "nobody read cpu0"
as_nobody cat "$KTPROF_DBG/stats" >/dev/null 2>&1 && fail "nobody read stats"
as_nobody sh -c "echo start > $KTPROF_DBG/control" 2>/dev/null && fail "nobody wrote control"
for op in meta stats stop flush start; do
	out=$(as_nobody "$TOOLS/genl-call" $op)
	rc=$?
	[ $rc = 1 ] || fail "nobody: genl $op exit $rc ($out), want EPERM (1)"
done
[ "$(cat "$KTPROF_DBG/control")" = stopped ] || fail "state changed"
unload_module
echo ok
