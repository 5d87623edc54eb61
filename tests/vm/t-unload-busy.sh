#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Unloading while a session runs stops it cleanly. Unloading while a reader
# is blocked in poll() is refused (the open file holds the module) without
# hanging; stopping the session wakes the reader, and then the unload works.
. "$(dirname "$0")/lib.sh"

load_module
ctl start
"$WORKLOADS/sched-mix" -r 300 -t 20 >/dev/null
rmmod ktprof || fail "rmmod of a running session failed"
module_loaded && fail "still loaded"

load_module
ctl start
/usr/bin/python3 - "$KTPROF_DBG/cpu0" "$KTPROF_TEST_OUT/poll.out" <<'PY' &
import os, select, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
p = select.poll()
p.register(fd, select.POLLIN)
with open(sys.argv[2], "w") as out:
    out.write("polling\n"); out.flush()
    while True:
        ev = p.poll(-1)
        data = os.read(fd, 1 << 20)
        if ev[0][1] & select.POLLHUP and not data:
            out.write("hup\n")
            break
os.close(fd)
PY
poller=$!
until_true 300 grep -q polling "$KTPROF_TEST_OUT/poll.out" 2>/dev/null || fail "poller did not start"
out=$(timeout 20 rmmod ktprof 2>&1)
rc=$?
[ $rc = 124 ] && fail "rmmod hung with a reader in poll()"
[ $rc = 0 ] && fail "rmmod succeeded while a reader held cpu0 open"
echo "rmmod with a reader: refused ($out)"
ctl stop
timeout 20 tail --pid=$poller -f /dev/null || fail "the poller did not wake up at stop"
grep -q hup "$KTPROF_TEST_OUT/poll.out" || fail "poller saw no POLLHUP: $(cat "$KTPROF_TEST_OUT/poll.out")"
rmmod ktprof || fail "rmmod after the reader left failed"
echo ok
