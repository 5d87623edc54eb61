#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Every SAMPLE record's stacks are whole: no frames of another sample.

A sample's stacks are built in per-CPU scratch space; a sample that
interrupts another one on the same CPU and shares that space leaves its
frames in the other's record (issue 13, defect 4). The invariants of a
correct record:

  - every kernel frame (kstack) is a kernel address, every user frame
    (ustack) a user one (the module's user walk stops at a return
    address that is not a user address);
  - a sample taken in user mode has no kernel frames;
  - a fault source's sample (page-faults: task context) never has kernel
    frames of ktprof's overflow path or of the unwinder: they do not take
    page faults that count (copy_from_user_nofault() runs with page
    faults disabled), so such frames are another sample's. Needs a
    symbolized dump (`ktprof dump --json --symbolize`); skipped, and said
    so, without one. (Not for cpu-clock: on kernels before c9bc1753b3cc
    perf calls the handler with IRQs on for page faults, and a cpu-clock
    sample may then land in ktp_overflow, before its local_irq_save().)

Prints how many samples of each source it checked and, on a violation,
the first offending record and the count of each kind per source.

usage: check_stacks.py META DUMP.json
"""
import json
import re
import sys

# x86-64, 4-level paging (scripts/vm-run: -cpu max,la57=off): kernel text
# and modules are in the upper half, TASK_SIZE_MAX is below USER_END.
KERNEL_MIN = 0xffff800000000000
USER_END = 0x0000800000000000
FAULTS = {"page-faults", "faults", "minor-faults", "major-faults",
          "alignment-faults", "emulation-faults"}
# ktprof's overflow path (kmod/sample.c, maps.c), as symbolized frames.
OWN = {"ktp_overflow", "__ktp_overflow", "ktp_take_sample", "ktp_kernel_stack",
       "ktp_user_stack", "ktp_maps_resolve"}


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def sources(meta):
    for line in open(meta):
        if line.startswith("samples="):
            spec = line.strip().split("=", 1)[1]
            return [s.split("@")[0] for s in spec.split(",")] if spec else []
    fail("%s has no samples= line" % meta)


def addrs(field):
    return [int(x, 16) for x in field.split(",") if x]


def func(frame):
    """'ktp_take_sample.isra.0+0x1c [ktprof]' -> 'ktp_take_sample'"""
    return re.split(r"[+.\s]", frame, maxsplit=1)[0]


def violation(e, name):
    """(kind, detail) of what is wrong with sample @e of source @name."""
    k, u = addrs(e["kstack"]), addrs(e["ustack"])
    for i, a in enumerate(k):
        if a < KERNEL_MIN:
            return ("non-kernel address in the kernel stack",
                    "kernel frame %d of %d is %#x" % (i, len(k), a))
    for i, a in enumerate(u):
        if a >= USER_END:
            return ("non-user address in the user stack",
                    "user frame %d of %d is %#x" % (i, len(u), a))
    if e["mode"] == "user" and k:
        return ("kernel frames in a user-mode sample", "%d kernel frames" % len(k))
    if name in FAULTS and "kframes" in e:
        for f in e["kframes"]:
            fn = func(f)
            if fn in OWN or fn.startswith("unwind_"):
                return ("ktprof's overflow path in the kernel stack",
                        "kernel frame %s" % f)
    return None


def main():
    names = sources(sys.argv[1])
    checked, frames, bad, first = {}, {}, {}, None
    symbolized = False
    for line in open(sys.argv[2]):
        e = json.loads(line)
        if e["type"] != "sample":
            continue
        src = e["source"]
        name = names[src] if src < len(names) else "source%d" % src
        symbolized |= "kframes" in e
        checked[name] = checked.get(name, 0) + 1
        frames[name] = frames.get(name, 0) + len(addrs(e["kstack"])) + len(addrs(e["ustack"]))
        why = violation(e, name)
        if why:
            kind = why[0]
            bad.setdefault(name, {})
            bad[name][kind] = bad[name].get(kind, 0) + 1
            if first is None:
                first = why
                print("FAIL: %s sample (source %d) at ts %d, cpu %d, pid %d: %s (%s)"
                      % (name, src, e["ts"], e["cpu"], e["pid"], why[0], why[1]))
                print("  record: " + json.dumps(e))
    for name in names:
        n = checked.get(name, 0)
        nbad = sum(bad.get(name, {}).values())
        print("%s: %d samples checked (%d frames), %d mixed%s"
              % (name, n, frames.get(name, 0), nbad,
                 "".join("; %d: %s" % (c, k) for k, c in sorted(bad.get(name, {}).items()))))
    if not symbolized:
        print("note: dump not symbolized, own-frame check skipped")
    for name in names:
        if not checked.get(name):
            fail("no %s samples to check" % name)
    if first:
        fail("%d of %d samples have frames of another sample (first above)"
             % (sum(sum(b.values()) for b in bad.values()), sum(checked.values())))


main()
