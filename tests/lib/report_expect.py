#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Check a `ktprof report --json` document against the expectations of a
capture script (tests/report/*.scn), written by hand next to its events:

  #= PATH VALUE          for the run without extra arguments
  #=NAME PATH VALUE      for the run NAME (a '#! NAME ARGS...' line)

PATH is dotted keys; 'list[key=value]' picks the element whose key equals
value ('&' joins conditions, '~' stands for a space), 'list[N]' the Nth;
a trailing '#' takes the length of a list; VALUE 'absent' wants no such key.
Integers and strings must be equal; numbers with a point within 0.0005;
true/false are booleans.

usage: report_expect.py SCRIPT RUN JSON
Prints one line per failed expectation; exit 1 if any failed.
"""
import json
import re
import sys

STEP = re.compile(r'([^.\[\]#]+)((?:\[[^\]]*\])*)')


def walk(doc, path):
    count = path.endswith('#')
    if count:
        path = path[:-1]
    node = doc
    for part in path.split('.'):
        m = STEP.fullmatch(part)
        if not m:
            raise KeyError('bad path step %r' % part)
        node = node[m.group(1)]
        for sel in re.findall(r'\[([^\]]*)\]', m.group(2)):
            if '=' in sel:
                conds = [c.replace('~', ' ').split('=', 1) for c in sel.split('&')]
                hits = [e for e in node
                        if all(str(e.get(k)).lower() == v.lower() for k, v in conds)]
                if not hits:
                    raise KeyError('no element with %s' % sel)
                node = hits[0]
            else:
                node = node[int(sel)]
    return len(node) if count else node


def same(got, want):
    if want in ('true', 'false'):
        return got is (want == 'true')
    if re.fullmatch(r'-?\d+', want):
        return isinstance(got, int) and not isinstance(got, bool) and got == int(want)
    if re.fullmatch(r'-?\d+\.\d*', want):
        return isinstance(got, (int, float)) and abs(got - float(want)) <= 0.0005
    return got == want


def main():
    script, run, path = sys.argv[1:4]
    tag = '#=' if run == '-' else '#=%s' % run
    with open(path) as f:
        doc = json.load(f)
    bad = checked = 0
    for no, line in enumerate(open(script), 1):
        words = line.split()
        if len(words) < 3 or words[0] != tag:
            continue
        checked += 1
        key, want = words[1], ' '.join(words[2:]).replace('~', ' ')
        try:
            got = walk(doc, key)
        except (KeyError, IndexError, TypeError) as e:
            if want == 'absent':
                continue
            print('%s:%d: %s: %s' % (script, no, key, e))
            bad += 1
            continue
        if want == 'absent':
            print('%s:%d: %s is %r, want it absent' % (script, no, key, got))
            bad += 1
            continue
        if not same(got, want):
            print('%s:%d: %s is %r, want %s' % (script, no, key, got, want))
            bad += 1
    if not checked:
        print('%s: no expectations for run %s' % (script, run))
        bad += 1
    sys.exit(1 if bad else 0)


main()
