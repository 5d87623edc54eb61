#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Check the DOM headless Chromium dumped of a `ktprof report --html` page:
the plots NAME... are there, each an SVG with at least MIN drawn elements;
the page loads nothing from elsewhere and runs no script.

usage: html_check.py DOM MIN NAME...
"""
import sys
from html.parser import HTMLParser

DRAWN = {'rect', 'line', 'polyline', 'circle', 'path', 'text'}


class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.plots = {}
        self.current = None
        self.depth = 0
        self.problems = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == 'script':
            self.problems.append('a <script> element')
        for key in ('src', 'href'):
            v = a.get(key) or ''
            if v and not v.startswith('#'):
                self.problems.append('%s loads %s' % (tag, v))
        if tag == 'link':
            self.problems.append('a <link> element')
        if tag == 'figure' and 'data-plot' in a:
            self.current = a['data-plot']
            self.plots[self.current] = 0
            self.depth = 1
        elif self.current:
            self.depth += 1
            if tag in DRAWN:
                self.plots[self.current] += 1

    def handle_endtag(self, tag):
        if self.current:
            self.depth -= 1
            if tag == 'figure':
                self.current = None


def main():
    dom, least, names = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    page = Page()
    page.feed(open(dom, encoding='utf-8').read())
    bad = list(page.problems)
    for name in names:
        n = page.plots.get(name)
        if n is None:
            bad.append('no plot %s' % name)
        elif n < least:
            bad.append('plot %s has %d drawn elements, want >= %d' % (name, n, least))
    for b in bad:
        print(b)
    print('plots: %s' % ', '.join('%s=%d' % kv for kv in sorted(page.plots.items())))
    sys.exit(1 if bad else 0)


main()
