// SPDX-License-Identifier: GPL-2.0
/* The table of the analyses: one line each, in the order of the report. */
#include <string.h>

#include "report/analyze-balance.h"
#include "report/analyze-cgroups.h"
#include "report/analyze-cpu.h"
#include "report/analyze-critical-path.h"
#include "report/analyze-irq.h"
#include "report/analyze-latency.h"
#include "report/analyze-migrations.h"
#include "report/analyze-offcpu.h"
#include "report/analyze-power.h"
#include "report/analyze-preempt.h"
#include "report/analyze-probes.h"
#include "report/analyze-profile.h"
#include "report/analyze-runtime.h"
#include "report/analyze-schedstat.h"
#include "report/analyze-scx.h"
#include "report/analyze-states.h"
#include "report/analyze-wakers.h"
#include "report/outliers.h"

const struct analyzer *const analyzers[] = {
	&analyzer_findings,
	&analyzer_cpu,
	&analyzer_power,
	&analyzer_runtime,
	&analyzer_latency,
	&analyzer_states,
	&analyzer_migrations,
	&analyzer_balance,
	&analyzer_cgroups,
	&analyzer_schedstat,
	&analyzer_preempt,
	&analyzer_wakers,
	&analyzer_critical_path,
	&analyzer_offcpu,
	&analyzer_irq,
	&analyzer_scx,
	&analyzer_probes,
	&analyzer_outliers,
	&analyzer_profile,
};

const unsigned int nr_analyzers = sizeof(analyzers) / sizeof(analyzers[0]);

_Static_assert(sizeof(analyzers) / sizeof(analyzers[0]) < REPORT_MAX_ANALYZERS,
	       "a state for each analysis and the report's own");

unsigned int analyzer_section(const char *name)
{
	unsigned int i;

	for (i = 0; i < nr_analyzers; i++)
		if (!strcmp(analyzers[i]->name, name))
			return 1u << i;
	return 0;
}

unsigned int analyzer_sections_all(void)
{
	return (1u << nr_analyzers) - 1;
}

const struct analyzer *analyzer_of_section(unsigned int bit)
{
	unsigned int i;

	for (i = 0; i < nr_analyzers; i++)
		if (bit == 1u << i)
			return analyzers[i];
	return NULL;
}
