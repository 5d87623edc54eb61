#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# ktprof report --html (and diff --html) in a real browser: headless Chromium (Debian's
# chromium) loads each page from disk, renders it to a PNG and dumps its
# DOM; every plot must be there and drawn, nothing loaded from elsewhere,
# no script, no console error. A 1M-record capture's page stays under 5 MB.
. "$(dirname "$0")/lib.sh"
CHROMIUM=$(command -v chromium) || fail "chromium is not installed (scripts/setup.sh installs it)"
PLOTS_ALL="cpu-utilization latency-cdf latency-histogram runqueue-per-cpu task-states
	migration-matrix wakers critical-path irq-per-cpu flame-graph"

browse() {	# PAGE: writes PAGE.png, PAGE.dom, PAGE.log
	local page=$1 flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
		--disable-background-networking --disable-component-update --disable-sync
		--user-data-dir="$T/chromium" --window-size=1000,3000 --enable-logging=stderr --v=0)
	timeout 120 "$CHROMIUM" "${flags[@]}" --screenshot="$page.png" "file://$page" \
		>/dev/null 2>"$page.log" || fail "chromium could not render $page: $(tail -5 "$page.log")"
	timeout 120 "$CHROMIUM" "${flags[@]}" --dump-dom "file://$page" >"$page.dom" \
		2>>"$page.log" || fail "chromium could not dump $page"
	[ -s "$page.png" ] || fail "no screenshot of $page"
	! grep -E 'CONSOLE|Uncaught|ERR_FILE|net::ERR' "$page.log" ||
		fail "the browser reported errors for $page"
}

# The golden scenario: every record kind, samples, a loss (which leaves
# no runqueue latency to plot).
"$GEN" -S -o "$T/s.ktp" || fail "gen-capture -S failed"
expect 0 'wrote' report --html "$T/s.html" "$T/s.ktp"
browse "$T/s.html"
# shellcheck disable=SC2086
/usr/bin/python3 "$TOP/tests/lib/html_check.py" "$T/s.html.dom" 3 \
	$(echo $PLOTS_ALL | sed 's/runqueue-per-cpu//') || fail "the scenario's page lacks plots"

# A larger synthetic capture with a few thousand of each event.
"$GEN" -n 200000 -c 4 -l 20000 -o "$T/big.ktp" || fail "gen-capture failed"
expect 0 'wrote' report --html "$T/big.html" "$T/big.ktp"
browse "$T/big.html"
# shellcheck disable=SC2086
/usr/bin/python3 "$TOP/tests/lib/html_check.py" "$T/big.html.dom" 20 $PLOTS_ALL ||
	fail "the big page lacks plots"

# The critical path's bar of a known answer (tests/report/critical-path.scn):
# the client's 12 ms in its causes' order, each part's tooltip its share,
# and each part as wide as its share of the bar (460 px).
"$GEN" -t "$TOP/tests/report/critical-path.scn" -o "$T/cp.ktp" || fail "gen-capture -t failed"
expect 0 'wrote' report --critical-path -p 100 --html "$T/cp.html" "$T/cp.ktp"
browse "$T/cp.html"
/usr/bin/python3 "$TOP/tests/lib/html_check.py" "$T/cp.html.dom" 8 critical-path ||
	fail "the critical path's page lacks its plot"
/usr/bin/python3 - "$T/cp.html.dom" <<'EOF' || fail "the critical path's bar is not the known answer"
import re, sys
dom = open(sys.argv[1]).read()
fig = dom[dom.index('data-plot="critical-path"'):]
fig = fig[:fig.index('</figure>')]
parts = re.findall(r'<rect x="([\d.]+)" y="[\d.]+" width="([\d.]+)"[^>]*><title>([^<]*)</title>', fig)
want = ["running client (100): 3.90 ms (32.5%)",
        "runnable behind hog (300): 3.00 ms (25.0%)",
        "woken by softirq TIMER: 2.00 ms (16.7%)",
        "blocked (no waking in the window): 2.00 ms (16.7%)",
        "running server (200): 1.00 ms (8.3%)",
        "runnable, cpu 0 idle: 100 us (0.8%)"]
got = [p[2] for p in parts]
assert got == want, got
shares = [3.9, 3.0, 2.0, 2.0, 1.0, 0.1]
x = float(parts[0][0])
for (px, w, _), ms in zip(parts, shares):
    assert abs(float(px) - x) < 0.2 and abs(float(w) - ms / 12 * 460) < 0.2, (px, w, ms)
    x += float(w)
print("critical path bar: %d parts, %.1f px" % (len(parts), x - float(parts[0][0])))
EOF

# sched_ext's DSQ depth plots of a known answer (tests/report/scx.scn): DSQ
# 5's line steps through the depths of its six changes, its x the change's
# time over the 10 us window (the plot from x 70 to 880).
"$GEN" -t "$TOP/tests/report/scx.scn" -o "$T/scx.ktp" || fail "gen-capture -t scx failed"
expect 0 'wrote' report --scx --html "$T/scx.html" "$T/scx.ktp"
browse "$T/scx.html"
/usr/bin/python3 "$TOP/tests/lib/html_check.py" "$T/scx.html.dom" 2 dsq-depth ||
	fail "the sched_ext page lacks its DSQ depth plot"
/usr/bin/python3 - "$T/scx.html.dom" <<'EOF' || fail "DSQ 5's depth plot is not the known answer"
import re, sys
dom = open(sys.argv[1]).read()
fig = dom[dom.index('data-plot="dsq-depth"'):]
fig = fig[:fig.index('</figure>')]
pts = [tuple(map(float, p.split(','))) for p in
       re.search(r'<polyline[^>]*points="([^"]*)"', fig).group(1).split()]
times = [1100, 1300, 1500, 2000, 4800, 5000]
assert len(pts) == 6, pts
for (x, y), t in zip(pts, times):
    assert abs(x - (70 + t / 10000 * 810)) < 0.2, (x, t)
ys = sorted(set(y for _, y in pts))
# Depth 2 highest (the smallest y), 0 lowest.
assert len(ys) == 3 and [ys.index(y) for _, y in pts] == [1, 0, 1, 2, 1, 2], pts
print("DSQ 5 depth: %d points" % len(pts))
EOF

# The off-CPU flame graph of a known answer (tests/report/offcpu.scn): the
# 14 ms of sleeps with a stack, each blocking function's box as wide as its
# time's share of the 880 px.
"$GEN" -t "$TOP/tests/report/offcpu.scn" -o "$T/off.ktp" || fail "gen-capture -t failed"
expect 0 'wrote' report --offcpu --html "$T/off.html" "$T/off.ktp"
browse "$T/off.html"
/usr/bin/python3 "$TOP/tests/lib/html_check.py" "$T/off.html.dom" 8 offcpu-flame ||
	fail "the off-CPU page lacks its flame graph"
/usr/bin/python3 - "$T/off.html.dom" <<'EOF' || fail "the off-CPU flame graph is not the known answer"
import re, sys
dom = open(sys.argv[1]).read()
fig = dom[dom.index('data-plot="offcpu-flame"'):]
fig = fig[:fig.index('</figure>')]
boxes = {t: float(w) for t, w in re.findall(
    r'<title>([^<]*)</title><rect x="[\d.]+" y="[\d.]+" width="([\d.]+)"', fig)}
want = {"hrtimer_nanosleep (7.50 ms, 53.57%)": 7.5, "pipe_read (5.00 ms, 35.71%)": 5.0,
        "mutex_lock (1.50 ms, 10.71%)": 1.5}
for title, ms in want.items():
    assert title in boxes, (title, sorted(boxes))
    assert abs(boxes[title] + 0.3 - ms / 14 * 880) < 0.05, (title, boxes[title])
print("off-CPU flame graph: %d boxes" % len(boxes))
EOF

# Sections select plots; the page is rewritten in place, never through a link.
expect 0 'wrote' report --latency --html "$T/lat.html" "$T/big.ktp"
grep -q 'data-plot="latency-cdf"' "$T/lat.html" || fail "--latency page lacks the CDF"
! grep -q 'data-plot="flame-graph"' "$T/lat.html" || fail "--latency page has a flame graph"
# A link planted at the old temporary name is left alone; one at the
# target itself is not replaced, nor written through.
ln -s "$T/victim" "$T/link.html.part"
expect 0 'wrote' report --html "$T/link.html" "$T/big.ktp"
[ ! -e "$T/victim" ] || fail "report --html wrote through a symlink"
[ -f "$T/link.html" ] && [ ! -L "$T/link.html" ] || fail "link.html is not a regular file"
ln -s "$T/victim" "$T/link2.html"
expect 1 'link2.html: not a regular file' report --html "$T/link2.html" "$T/big.ktp"
[ ! -e "$T/victim" ] && [ -L "$T/link2.html" ] || fail "report --html replaced or followed a symlink"
expect 1 'No such file' report --html "$T/none/x.html" "$T/big.ktp"

# The diff's page: A and B overlaid.
"$GEN" -t "$TOP/tests/diff/latency.a.scn" -o "$T/la.ktp" || fail "gen-capture -t failed"
"$GEN" -t "$TOP/tests/diff/latency.b.scn" -o "$T/lb.ktp" || fail "gen-capture -t failed"
expect 0 'wrote' diff --html "$T/diff.html" "$T/la.ktp" "$T/lb.ktp"
browse "$T/diff.html"
/usr/bin/python3 "$TOP/tests/lib/html_check.py" "$T/diff.html.dom" 5 cpu-utilization \
	latency-cdf-0 latency-cdf-1 runtime || fail "the diff page lacks plots"
grep -q 'higher in B overall' "$T/diff.html.dom" || fail "the diff page lacks its verdict"

# Both pages declare they load and run nothing (Content-Security-Policy),
# and are UTF-8 whatever bytes the names hold (surface-04).
for page in "$T/s.html" "$T/diff.html"; do
	grep -q "Content-Security-Policy\" content=\"default-src 'none'" "$page" ||
		fail "$page has no Content-Security-Policy"
done
printf 'cpus 1\nstop 10000\n0 0 start pid=104\n0 0 task pid=104 tgid=104 comm=\377<b>\355\240\200 snapshot\n10000 0 stop pid=104\n' \
	>"$T/names.scn"
"$GEN" -t "$T/names.scn" -o "$T/names.ktp" || fail "gen-capture -t names failed"
expect 0 'wrote' report --html "$T/names.html" "$T/names.ktp"
expect 0 'wrote' diff --html "$T/names-diff.html" "$T/names.ktp" "$T/names.ktp"
/usr/bin/python3 - "$T/names.html" "$T/names-diff.html" <<'PY' || fail "a page is not UTF-8 or shows a tag"
import sys
for p in sys.argv[1:]:
    text = open(p, "rb").read().decode("utf-8")
    assert "<b>" not in text and "&#xff;&lt;b&gt;&#xed;&#xa0;&#x80;" in text, p
PY

# Size: a 1M-record capture's page stays small.
"$GEN" -n 1000000 -c 4 -o "$T/m.ktp" || fail "gen-capture -n 1000000 failed"
expect 0 'wrote' report --html "$T/m.html" "$T/m.ktp"
size=$(stat -c %s "$T/m.html")
[ "$size" -lt $((5 << 20)) ] || fail "the 1M-record page is $size bytes (over 5 MB)"
echo "ok ($size bytes for 1M records)"
