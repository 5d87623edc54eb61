/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A decoded event: one record of a CPU's relay stream with its absolute
 * time, or an event the decoder synthesised (records lost, bytes skipped).
 */
#ifndef KTPROF_EVENT_H
#define KTPROF_EVENT_H

#include <stdint.h>

#include "ktprof_abi.h"

/* Event types beyond the record types: synthesised by the decoder. */
enum {
	EVENT_LOST = 0x100,	/* @lost records were lost before @ts */
	EVENT_GARBAGE,		/* @lost bytes were skipped as invalid */
};

struct event {
	uint64_t ts;		/* CLOCK_BOOTTIME ns */
	uint32_t cpu;
	uint16_t type;		/* enum ktp_rec_type or EVENT_* */
	uint8_t flags;		/* the record header's flags */
	uint16_t size;		/* record size in bytes (0 for EVENT_*) */
	const void *rec;	/* the record, valid until the next call */
	uint64_t lost;		/* EVENT_LOST: records; EVENT_GARBAGE: bytes */
	uint64_t since;		/* EVENT_LOST, EVENT_GARBAGE: the time of the
				 * CPU's last record before the gap */
	uint64_t seq;		/* per-CPU order of the event (merge key) */
};

/* The fixed size of a record type, its minimum for variable ones; 0 if unknown. */
unsigned int event_min_size(unsigned int type);

/* "sched_switch", ...; "lost", "garbage"; NULL if unknown. */
const char *event_type_name(unsigned int type);

#endif
