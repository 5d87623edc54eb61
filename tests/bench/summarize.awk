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
END {
	base = median(us["none"])
	printf "taskset -c 1 perf bench sched pipe -l %d, medians of %d rounds; baseline %.2f us/op\n",
		loops, split(us["none"], x, " "), base
	printf "%-22s %9s %10s %11s %10s %9s\n", "tracer", "us/op", "events/op", "ns/event",
		"vs ftrace", "B/event"
	split("ftrace perf ktprof record", order, " ")
	label["ftrace"] = "ftrace (tracefs)"; label["perf"] = "perf record -a"
	label["ktprof"] = "ktprof (buffer only)"; label["record"] = "ktprof record"
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
	if (flood["seconds"] > 0) {
		printf "\nktprof record (defaults, -e sched -S none) on perf bench sched pipe, both CPUs:\n"
		printf "  %d records in the %.2f s the workload ran: %.0f records/s (guest time)\n",
			flood["records"], flood["seconds"], flood["records"] / flood["seconds"]
		printf "  %d lost; capture %.1f bytes/record; recorder peak RSS %.1f MB\n",
			flood["lost"], flood["capture_bytes"] / (flood["records"] ? flood["records"] : 1),
			flood["recorder_rss_kb"] / 1024
	}
}