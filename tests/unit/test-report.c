// SPDX-License-Identifier: GPL-2.0
/*
 * The whole report path under the sanitizers: every capture script of
 * tests/report/ is written as a capture, analysed with and without
 * filters, and rendered as text, JSON and HTML. The known answers
 * themselves are checked by tests/cli/t-report.sh; here, a few figures of
 * the basic script, and no sanitizer report anywhere.
 */
#include <dirent.h>
#include <unistd.h>

#include "report/analyze-cpu.h"
#include "report/analyze-latency.h"
#include "report/analyze-preempt.h"
#include "report/render.h"
#include "report/report.h"
#include "script-capture.h"
#include "unit.h"

#define SCRIPTS "tests/report"

/* Render @r every way into memory; 0 when each produced something. */
static int render_all(const struct report *r)
{
	struct report_view views[] = {
		{ .sections = ~0u, .summary = 1, .top = 20 },
		{ .sections = ~0u, .top = 3 },
	};
	unsigned int i;
	int bad = 0;

	for (i = 0; i < 2; i++) {
		int (*fn[])(const struct report *, const struct report_view *, FILE *) = {
			render_text, render_json, render_html,
		};
		unsigned int k;

		for (k = 0; k < 3; k++) {
			char *buf = NULL;
			size_t len = 0;
			FILE *f = open_memstream(&buf, &len);

			if (!f || fn[k](r, &views[i], f))
				bad = 1;
			if (f)
				fclose(f);
			if (!len)
				bad = 1;
			free(buf);
		}
	}
	return bad;
}

UNIT_TEST(every_script)
{
	char tmp[] = "/tmp/ktprof-unit-report.XXXXXX", path[512], cap[600];
	struct dirent *de;
	DIR *d = opendir(SCRIPTS);
	unsigned int n = 0;

	CHECK(d != NULL);
	CHECK(mkdtemp(tmp) != NULL);
	while (d && (de = readdir(d)) != NULL) {
		struct report_config cfgs[3] = { { .source = 0 }, { .filter.cpus = "0" },
						 { .filter.comm = "a" } };
		unsigned int c;

		if (!strstr(de->d_name, ".scn"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", SCRIPTS, de->d_name);
		snprintf(cap, sizeof(cap), "%s/%s.ktp", tmp, de->d_name);
		if (script_capture_write(path, cap)) {
			UNIT_FAIL("%s: no capture", path);
			continue;
		}
		for (c = 0; c < 3; c++) {
			struct error err = { 0 };
			struct report *r = report_run(cap, &cfgs[c], &err);

			if (!r) {
				UNIT_FAIL("%s: %s", path, error_msg(&err));
				continue;
			}
			if (render_all(r))
				UNIT_FAIL("%s: a renderer failed", path);
			report_free(r);
		}
		unlink(cap);
		n++;
	}
	if (d)
		closedir(d);
	rmdir(tmp);
	CHECK(n >= 5);
}

UNIT_TEST(basic_figures)
{
	char cap[] = "/tmp/ktprof-unit-basic.XXXXXX";
	struct report_config cfg = { .source = 0 };
	struct error err = { 0 };
	struct report *r;
	int fd = mkstemp(cap);

	CHECK(fd >= 0);
	close(fd);
	CHECK_EQ(script_capture_write(SCRIPTS "/basic.scn", cap), 0);
	r = report_run(cap, &cfg, &err);
	unlink(cap);
	CHECK(r != NULL);
	if (!r)
		return;
	CHECK_EQ(r->model->window_ns, 10000);
	CHECK_EQ(analyze_cpu(r)->cpus[0].busy_ns, 7700);
	CHECK_EQ(analyze_cpu(r)->cpus[1].idle_ns, 2900);
	CHECK_EQ(analyze_latency(r)->overall.h[SCHED_WAKEUP].count, 4);
	CHECK_EQ(hist_percentile(&analyze_latency(r)->overall.h[SCHED_WAKEUP], 50), 400);
	CHECK_EQ(analyze_preempt(r)->total, 2);
	report_free(r);
}

UNIT_MAIN()
