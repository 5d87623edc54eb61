# SPDX-License-Identifier: GPL-2.0
# The bench report from the guests' lines:
#   MODE TRACER NS_PER_OP EVENTS BYTES         one round of one tracer
#   selftest N NS_FOR_N NS_FOR_0               the write path alone
#   flood P SECONDS RECORDS LOST BYTES RSS_KB  ktprof record, P pipe floods
# Medians over rounds; cost per event = (median - baseline median) / events
# per op; ratios against ftrace's cost. usage: awk -v handoffs=N
function median(list,   a, n, i, j, t) {
	n = split(list, a, " ")
	for (i = 1; i <= n; i++)
		for (j = i + 1; j <= n; j++)
			if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function spread(list,   a, n, i, lo, hi) {
	n = split(list, a, " ")
	lo = hi = a[1]
	for (i = 2; i <= n; i++) {
		if (a[i] + 0 < lo + 0) lo = a[i]
		if (a[i] + 0 > hi + 0) hi = a[i]
	}
	return hi - lo
}
function table(wl, title, ops,   i, k, t, e, base, cost, ftrace) {
	if (!(wl SUBSEP "none" in ns))
		return
	base = median(ns[wl, "none"])
	printf "\n%s: %d ops, medians of %d rounds; baseline %.0f ns/op\n", title, ops,
		split(ns[wl, "none"], x, " "), base
	printf "%-22s %9s %10s %10s %10s %9s\n", "tracer", "ns/op", "events/op", "ns/event",
		"vs ftrace", "B/event"
	for (i = 1; i <= 4; i++) {
		k = order[i]
		if (!(wl SUBSEP k in ns))
			continue
		t = median(ns[wl, k]); e = median(ev[wl, k]) / ops
		cost = e > 0 ? (t - base) / e : 0
		if (k == "ftrace")
			ftrace = cost
		printf "%-22s %9.0f %10.2f %10.0f %10s %9.1f\n", label[k], t, e, cost,
			(ftrace > 0 ? sprintf("%.2fx", cost / ftrace) : "-"),
			(median(ev[wl, k]) > 0 ? median(by[wl, k]) / median(ev[wl, k]) : 0)
	}
	e = median(ev[wl, "ktprof"]) / ops
	printf "noise: the baseline's rounds spread over %.0f ns/op (%.0f ns/event at %.2f events/op)\n",
		spread(ns[wl, "none"]), spread(ns[wl, "none"]) / (e > 0 ? e : 1), e
}
$1 == "selftest" { st_n = $2; st = st " " ($3 - $4) / $2; next }
$1 == "flood" { nflood++; fl[nflood] = $0; next }
NF == 5 { ns[$1, $2] = ns[$1, $2] " " $3; ev[$1, $2] = ev[$1, $2] " " $4; by[$1, $2] = by[$1, $2] " " $5 }
END {
	split("ftrace perf ktprof record", order, " ")
	label["ftrace"] = "ftrace (tracefs)"; label["perf"] = "perf record -a"
	label["ktprof"] = "ktprof (buffer only)"; label["record"] = "ktprof record (1)"
	table("yield", "handoff -m yield (a sched_switch per op)", 2 * handoffs)
	table("futex", "handoff -m futex (a sched_waking and a sched_switch per op)", 2 * handoffs)
	printf "(1) B/event of ktprof record: its zlib-compressed capture file\n"
	if (st_n)
		printf "\nktprof write path alone (selftest: %d records in a loop): %.1f ns/record, median of %d\n",
			st_n, median(st), split(st, x, " ")
	if (nflood) {
		printf "\nktprof record at its defaults (-e sched -S none), P concurrent perf bench sched pipe, 2 vCPUs:\n"
		printf "%3s %10s %8s %12s %8s %9s %10s\n", "P", "records", "seconds", "records/s", "lost",
			"B/record", "RSS MB"
		for (i = 1; i <= nflood; i++) {
			split(fl[i], f, " ")
			rate = f[3] > 0 ? f[4] / f[3] : 0
			printf "%3d %10d %8.2f %12.0f %8d %9.1f %10.1f\n", f[2], f[4], f[3], rate,
				f[5], f[6] / (f[4] ? f[4] : 1), f[7] / 1024
			if (f[5] == 0 && rate > best)
				best = rate
		}
		printf "highest lossless rate: %.0f records/s (guest time)\n", best
	}
}
