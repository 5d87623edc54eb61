#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# ktprof report --html (and diff --html) in a real browser: headless Chromium (Debian's
# chromium) loads each page from disk, renders it to a PNG and dumps its
# DOM; every plot must be there and drawn, nothing loaded from elsewhere,
# no script, no console error. A 1M-record capture's page stays under 5 MB.
. "$(dirname "$0")/lib.sh"
CHROMIUM=$(command -v chromium) || fail "chromium is not installed (scripts/setup.sh installs it)"
PLOTS_ALL="cpu-utilization latency-cdf latency-histogram runqueue-per-cpu task-states
	migration-matrix wakers irq-per-cpu flame-graph"

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
grep -q 'significant' "$T/diff.html.dom" || fail "the diff page lacks its verdict"

# Size: a 1M-record capture's page stays small.
"$GEN" -n 1000000 -c 4 -o "$T/m.ktp" || fail "gen-capture -n 1000000 failed"
expect 0 'wrote' report --html "$T/m.html" "$T/m.ktp"
size=$(stat -c %s "$T/m.html")
[ "$size" -lt $((5 << 20)) ] || fail "the 1M-record page is $size bytes (over 5 MB)"
echo "ok ($size bytes for 1M records)"
