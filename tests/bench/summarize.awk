# SPDX-License-Identifier: GPL-2.0
# The bench report from the guests' lines:
#   WORKLOAD TRACER NS_PER_OP EVENTS BYTES     one round of one tracer
#   selftest N NS_FOR_N NS_FOR_0               the write path alone
#   flood KEY VALUE                            ktprof record's sustained rate
# Medians over rounds; cost per event = (median - baseline median) / events
# per op; ratios against ftrace's cost. usage: awk -v loops=N -v yields=N
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
$1 == "flood" { flood[$2] = $3; next }
NF == 5 { ns[$1, $2] = ns[$1, $2] " " $3; ev[$1, $2] = ev[$1, $2] " " $4; by[$1, $2] = by[$1, $2] " " $5 }
END {
	split("ftrace perf ktprof record", order, " ")
	label["ftrace"] = "ftrace (tracefs)"; label["perf"] = "perf record -a"
	label["ktprof"] = "ktprof (buffer only)"; label["record"] = "ktprof record (1)"
	table("yield", "yield-pingpong (1 sched_switch per op)", 2 * yields)
	table("pipe", "perf bench sched pipe", loops)
	printf "(1) B/event of ktprof record: its zlib-compressed capture file\n"
	if (st_n)
		printf "\nktprof write path alone (selftest: %d records in a loop): %.1f ns/record, median of %d\n",
			st_n, median(st), split(st, x, " ")
	if (flood["seconds"] > 0) {
		printf "\nktprof record (defaults, -e sched -S none) on perf bench sched pipe, 2 vCPUs:\n"
		printf "  %d records in the %.2f s the workload ran: %.0f records/s (guest time)\n",
			flood["records"], flood["seconds"], flood["records"] / flood["seconds"]
		printf "  %d lost; capture %.1f bytes/record; recorder peak RSS %.1f MB\n",
			flood["lost"], flood["capture_bytes"] / (flood["records"] ? flood["records"] : 1),
			flood["recorder_rss_kb"] / 1024
	}
}
