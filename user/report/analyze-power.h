/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per CPU, from the power group (-e power): the time spent in each idle
 * state (power:cpu_idle's entry to exit, by the state's cpuidle index,
 * named by the capture's topology) and the frequency it ran at, weighted
 * by time (power:cpu_frequency, from the frequency the topology read at
 * the start). Definitions: docs/report.md, "Power".
 */
#ifndef KTPROF_ANALYZE_POWER_H
#define KTPROF_ANALYZE_POWER_H

#include "capture/topology.h"
#include "report/report.h"

/* Residency by state index; states past the table's last go to its last slot. */
#define POWER_STATES (TOPOLOGY_IDLE_STATES + 1)

struct power_cpu {
	uint64_t state_ns[POWER_STATES];
	uint64_t entries[POWER_STATES];
	uint64_t idle_ns;		/* all states */
	uint32_t state;			/* the state it is in, while in one */
	uint64_t since;			/* 0: not in an idle state (or not known) */
	uint64_t unpaired;		/* exits without an entry, entries without an exit */
	/* Frequency: kHz, the time it ran at a known one, and their product. */
	uint32_t khz, min_khz, max_khz;
	uint64_t khz_since;		/* 0: frequency unknown */
	uint64_t khz_ns;
	double khz_area;
	uint64_t changes;
};

struct analyze_power {
	const struct report *r;
	struct power_cpu *cpus;
	uint32_t nr_cpus, cap_cpus;
	uint64_t records;		/* cpu_idle and cpu_frequency records in the window */
	int error;
};

const struct analyze_power *analyze_power(const struct report *r);

/*
 * Idle state @s of @cpu for people: its cpuidle name from the capture's
 * topology, "state N" without one, "state N+" for the last slot.
 */
const char *analyze_power_state_name(const struct report *r, uint32_t cpu, uint32_t s,
				     char *buf, size_t len);

/*
 * CPU @cpu's power figures on one line into @buf, for --cpu: the share of
 * its idle time in idle states, each state's share, the mean frequency
 * ("in states 92.0% of idle: POLL 1.0%, C1 10.0%, C6 81.0%; 2400.0 MHz").
 * NULL when the CPU has none.
 */
const char *analyze_power_cpu_line(const struct report *r, uint32_t cpu, char *buf,
				   size_t len);

/* Whether the capture recorded the power group (or has its records). */
int analyze_power_recorded(const struct report *r);

extern const struct analyzer analyzer_power;

#endif
