// SPDX-License-Identifier: GPL-2.0
/*
 * Perf event specs from text: a name from a fixed table or rHEX for a raw
 * PMU event, and for sample sources a rate, @NNNhz or @period=N. Used by
 * the module parameters and by netlink starts alike.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kstrtox.h>
#include <linux/perf_event.h>
#include <linux/string.h>

#include "ktprof.h"

static const struct {
	const char *name;
	u32 type;
	u64 config;
} ktp_event_names[] = {
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
};

/* The largest period perf_event_open() takes: bit 63 is refused. */
#define KTP_PERIOD_MAX (U64_MAX >> 1)

/*
 * Parse one event spec: NAME or rHEX, optionally @NNNhz or @period=N.
 * @sampling: a rate is allowed (and defaults to 999 Hz).
 */
static int ktp_parse_event(char *spec, bool sampling, struct ktp_event_spec *e)
{
	char *rate = strchr(spec, '@');
	size_t i;

	memset(e, 0, sizeof(*e));
	if (rate)
		*rate++ = '\0';
	if (strscpy(e->name, spec, sizeof(e->name)) < 0 || !*spec)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(ktp_event_names); i++)
		if (!strcmp(spec, ktp_event_names[i].name))
			break;
	if (i < ARRAY_SIZE(ktp_event_names)) {
		e->type = ktp_event_names[i].type;
		e->config = ktp_event_names[i].config;
	} else if (spec[0] == 'r' && spec[1] && !kstrtou64(spec + 1, 16, &e->config)) {
		e->type = PERF_TYPE_RAW;
	} else {
		return -ENOENT;
	}
	if (!sampling)
		return rate ? -EINVAL : 0;
	e->freq = true;
	e->rate = 999;
	if (!rate)
		return 0;
	if (!strncmp(rate, "period=", 7)) {
		e->freq = false;
		/*
		 * perf_event_open() refuses a period with bit 63 set, and
		 * perf_event_create_kernel_counter() does not: cpu-clock would
		 * take it as a negative time and fire back to back.
		 */
		if (kstrtou64(rate + 7, 0, &e->rate) || !e->rate ||
		    e->rate > KTP_PERIOD_MAX)
			return -EINVAL;
		return 0;
	}
	i = strlen(rate);
	if (i < 3 || strcmp(rate + i - 2, "hz"))
		return -EINVAL;
	rate[i - 2] = '\0';
	if (kstrtou64(rate, 10, &e->rate) || !e->rate || e->rate > 100000)
		return -EINVAL;
	return 0;
}

/*
 * Parse a comma list of specs into @out (at most @max). Returns the count,
 * or -errno with the bad spec copied to @bad.
 */
int ktp_parse_event_list(const char *list, bool sampling,
			 struct ktp_event_spec *out, unsigned int max,
			 char *bad, size_t badlen)
{
	char buf[KTP_EVENT_LIST_MAX], *p = buf, *tok;
	unsigned int n = 0;
	int ret;

	if (strscpy(buf, list, sizeof(buf)) < 0)
		return -E2BIG;
	while ((tok = strsep(&p, ",")) != NULL) {
		tok = strim(tok);
		if (!*tok || !strcmp(tok, "none"))
			continue;
		strscpy(bad, tok, badlen);
		if (n == max)
			return -E2BIG;
		ret = ktp_parse_event(tok, sampling, &out[n]);
		if (ret)
			return ret;
		n++;
	}
	return n;
}
