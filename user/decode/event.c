// SPDX-License-Identifier: GPL-2.0
#include <stddef.h>

#include "decode/event.h"

static const char *const rec_names[] = KTP_REC_NAMES;

static const unsigned int rec_sizes[KTP_REC_NR_TYPES] = {
	[KTP_REC_SUBBUF] = sizeof(struct ktp_subbuf),
	[KTP_REC_TIME] = sizeof(struct ktp_time),
	[KTP_REC_CPU] = sizeof(struct ktp_cpu_mark),
	[KTP_REC_TASK] = sizeof(struct ktp_task),
	[KTP_REC_SWITCH] = sizeof(struct ktp_switch),
	[KTP_REC_WAKING] = sizeof(struct ktp_waking),
	[KTP_REC_MIGRATE] = sizeof(struct ktp_migrate),
	[KTP_REC_FORK] = sizeof(struct ktp_fork),
	[KTP_REC_EXEC] = sizeof(struct ktp_exec) + 4,
	[KTP_REC_EXIT] = sizeof(struct ktp_exit),
	[KTP_REC_FREE] = sizeof(struct ktp_free),
	[KTP_REC_IRQ_ENTRY] = sizeof(struct ktp_irq),
	[KTP_REC_IRQ_EXIT] = sizeof(struct ktp_irq),
	[KTP_REC_IRQ_NAME] = sizeof(struct ktp_irq_name) + 4,
	[KTP_REC_SOFTIRQ_ENTRY] = sizeof(struct ktp_softirq),
	[KTP_REC_SOFTIRQ_EXIT] = sizeof(struct ktp_softirq),
	[KTP_REC_IPI_SEND] = sizeof(struct ktp_ipi),
	[KTP_REC_WQ_START] = sizeof(struct ktp_wq),
	[KTP_REC_WQ_END] = sizeof(struct ktp_wq),
	[KTP_REC_SELFTEST] = sizeof(struct ktp_selftest),
	[KTP_REC_SAMPLE] = sizeof(struct ktp_sample),
	[KTP_REC_MAP] = sizeof(struct ktp_map),
	[KTP_REC_FILE] = sizeof(struct ktp_file) + 4,
	[KTP_REC_THROTTLE] = sizeof(struct ktp_throttle),
	[KTP_REC_STACK] = sizeof(struct ktp_stack),
	[KTP_REC_SCX_TASK] = sizeof(struct ktp_scx_task),
	[KTP_REC_SCX_DSQ] = sizeof(struct ktp_scx_dsq),
	[KTP_REC_SCX_OP] = sizeof(struct ktp_scx_op) + 4,
	[KTP_REC_SCX_DUMP] = sizeof(struct ktp_scx_dump) + 4,
	[KTP_REC_IDLE] = sizeof(struct ktp_idle),
	[KTP_REC_FREQ] = sizeof(struct ktp_freq),
	[KTP_REC_WAKEUP] = sizeof(struct ktp_wakeup),
	[KTP_REC_AFFINITY] = sizeof(struct ktp_affinity) + 4,
	[KTP_REC_CGROUP] = sizeof(struct ktp_cgroup),
	[KTP_REC_PROBE] = sizeof(struct ktp_probe_hit),
	[KTP_REC_MARK] = sizeof(struct ktp_mark),
	[KTP_REC_CLOCK] = sizeof(struct ktp_clock),
};

unsigned int event_min_size(unsigned int type)
{
	return type < KTP_REC_NR_TYPES ? rec_sizes[type] : 0;
}

const char *event_type_name(unsigned int type)
{
	if (type == EVENT_LOST)
		return "lost";
	if (type == EVENT_GARBAGE)
		return "garbage";
	if (type == KTP_REC_INVALID || type >= KTP_REC_NR_TYPES)
		return NULL;
	return rec_names[type];
}
