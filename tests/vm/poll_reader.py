#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Read every relay file of a session the way a recorder does: poll(), then
read() what is ready, until each file reports POLLHUP (the session stopped
and its file is drained). Each cpuN goes to OUTDIR/cpuN. Files of CPUs that
come online later are picked up as they appear.

usage: poll_reader.py DEBUGFS_DIR OUTDIR
"""
import os
import select
import sys

src, dst = sys.argv[1], sys.argv[2]
os.makedirs(dst, exist_ok=True)
files = {}          # fd -> (name, output file)
done = set()
poller = select.poll()


def scan():
    for name in os.listdir(src):
        if name.startswith("cpu") and name[3:].isdigit() and name not in done \
                and name not in [v[0] for v in files.values()]:
            fd = os.open(os.path.join(src, name), os.O_RDONLY)
            files[fd] = (name, open(os.path.join(dst, name), "ab"))
            poller.register(fd, select.POLLIN)


def drain(fd):
    while True:
        b = os.read(fd, 1 << 20)
        if not b:
            return
        files[fd][1].write(b)


scan()
while files:
    for fd, ev in poller.poll(200):
        if ev & select.POLLIN:
            drain(fd)
        if ev & (select.POLLHUP | select.POLLERR):
            drain(fd)
            name, f = files.pop(fd)
            f.close()
            poller.unregister(fd)
            os.close(fd)
            done.add(name)
    scan()
