# SPDX-License-Identifier: GPL-2.0
# The guest's "pipe TRACER US EVENTS BYTES" and "flood KEY VALUE" lines as
# the bench report: medians, overhead per event, ratio to ftrace. -v loops=N
function median(list, n,   a, i, j, t) {
	n = split(list, a, " ")
	for (i = 1; i <= n; i++)
		for (j = i + 1; j <= n; j++)
			if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
$1 == "pipe" { us[$2] = us[$2] " " $3; ev[$2] = ev[$2] " " $4; by[$2] = by[$2] " " $5; seen[$2] = 1 }
$1 == "flood" { flood[$2] = $3 }
$1 == "selftest" { st_n = $2; st = st " " ($3 - $4) / $2 }
END {
	base = median(us["none"])
	printf "perf bench sched pipe -l %d, medians of %d rounds; baseline %.2f us/op\n",
		loops, split(us["none"], x, " "), base
	printf "%-22s %9s %10s %11s %10s %9s\n", "tracer", "us/op", "events/op", "ns/event",
		"vs ftrace", "B/event"
	split("ftrace perf ktprof record", order, " ")
	label["ftrace"] = "ftrace (tracefs)"; label["perf"] = "perf record -a"
	label["ktprof"] = "ktprof (buffer only)"; label["record"] = "ktprof record (1)"
	for (i = 1; i <= 4; i++) {
		k = order[i]
		if (!seen[k])
			continue
		t = median(us[k]); e = median(ev[k]) / loops
		cost[k] = e > 0 ? (t - base) * 1000 / e : 0
		printf "%-22s %9.2f %10.2f %11.0f %10s %9.1f\n", label[k], t, e, cost[k],
			(cost["ftrace"] > 0 ? sprintf("%.2fx", cost[k] / cost["ftrace"]) : "-"),
			(median(ev[k]) > 0 ? median(by[k]) / median(ev[k]) : 0)
	}
	n = split(us["none"], b, " ")
	lo = hi = b[1]
	for (i = 2; i <= n; i++) { if (b[i] < lo) lo = b[i]; if (b[i] > hi) hi = b[i] }
	printf "baseline spread %.2f-%.2f us/op: differences below %.0f ns/event at %.1f events/op are noise\n",
		lo, hi, (hi - lo) * 1000 / (e > 0 ? e : 1), e
	printf "(1) B/event of ktprof record: its zlib-compressed capture file\n"
	if (st_n)
		printf "\nktprof write path alone (selftest: %d records in a loop): %.0f ns/record, median of %d\n",
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