#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Do two `ktprof report --json` of one run's records say the same, the
records themselves aside? (A capture stamped with the TSC has CLOCK
records the other has not: its record counts differ, and its path.)

usage: same_report.py A.json B.json
"""
import json
import sys


def figures(path):
    r = json.load(open(path))
    for key in ('path', 'events', 'events_by_type'):
        r['capture'].pop(key, None)
    for cpu in r.get('cpus', []):
        cpu.pop('records', None)
    return r


def diff(a, b, where=''):
    """The first place where @a and @b differ, or None."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            d = diff(a.get(k), b.get(k), '%s.%s' % (where, k))
            if d:
                return d
        return None
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            d = diff(x, y, '%s[%d]' % (where, i))
            if d:
                return d
        return None
    return None if a == b else '%s: %r vs %r' % (where or '.', a, b)


def main():
    d = diff(figures(sys.argv[1]), figures(sys.argv[2]))
    if d:
        print(d)
    sys.exit(1 if d else 0)


if __name__ == '__main__':
    main()
