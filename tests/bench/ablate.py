#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Copies of kmod/ with one piece of the write path taken out, for make
bench's ablation (tests/bench/guest.sh ablation): what each piece costs is
the unchanged module's instructions per record less the copy's. The
copies are for measuring only: without IRQs off or the nesting guard a
record can be torn, which a 1-vCPU selftest loop does not provoke.

usage: ablate.py SRC_KMOD DST_DIR   (writes DST_DIR/VARIANT/kmod for each)
A replacement that no longer matches the source fails loudly: the
ablation must follow the code it measures.
"""
import os
import shutil
import sys

VARIANTS = {
    "unchanged": [],
    # IRQs stay on from reserve to commit.
    "no-irq-off": [
        ("relay.c", "local_irq_save(w->irqflags);", "w->irqflags = 0;", 1),
        ("relay.c", "local_irq_restore(w->irqflags);", "(void)w->irqflags;", 4),
    ],
    # No time read: every record at its predecessor's time.
    "no-clock": [
        ("relay.c", "ts = ktp_stamp(kc, &extra);", "ts = kc->last_ts;", 1),
    ],
    # The commit's four per-record counts.
    "no-counts": [
        ("relay.c", "	ktp_count_written(kc, w->type, w->size);\n", "", 1),
    ],
    # The NMI and nesting checks at the reserve's start.
    "no-guard": [
        ("relay.c", "if (unlikely(in_nmi() || kc->in_write)) {", "if (0) {", 1),
    ],
}


def main():
    src, dst = sys.argv[1], sys.argv[2]
    for name, subs in VARIANTS.items():
        out = os.path.join(dst, name, "kmod")
        shutil.rmtree(out, ignore_errors=True)
        shutil.copytree(src, out, ignore=shutil.ignore_patterns(
            "*.o", "*.ko", "*.mod", "*.mod.c", "*.cmd", "modules.order", "Module.symvers"))
        for f, old, new, count in subs:
            path = os.path.join(out, f)
            text = open(path).read()
            if text.count(old) != count:
                sys.exit(f"ablate.py: {name}: {f} has {text.count(old)} of {old!r}, "
                         f"not {count}: the ablation no longer fits the code")
            open(path, "w").write(text.replace(old, new))
        print(name)


if __name__ == "__main__":
    main()
