// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "capture/capture-meta.h"
#include "ktprof_capture.pb-c.h"

/* A struct sched_ext as its message; NULL when the kernel has none. */
static Ktprof__SchedExt *sched_ext_msg(const struct sched_ext *s, Ktprof__SchedExt *m)
{
	if (!s || !s->present)
		return NULL;
	ktprof__sched_ext__init(m);
	m->state = (char *)s->state;
	m->ops = (char *)s->ops;
	m->enable_seq = s->enable_seq;
	m->has_enable_seq = 1;
	m->events = (char *)s->events;
	m->switch_all = s->switch_all;
	m->has_switch_all = 1;
	m->nr_rejected = s->nr_rejected;
	m->has_nr_rejected = 1;
	return m;
}

int capture_meta_write(struct capture_writer *w,
		       const struct capture_meta_info *info)
{
	Ktprof__CaptureMeta cm = KTPROF__CAPTURE_META__INIT;
	Ktprof__SchedExt scx[2];
	const struct meta *m = info->meta;
	char host[256] = "";

	gethostname(host, sizeof(host) - 1);
#define SET(field, value) do { cm.field = (value); cm.has_##field = 1; } while (0)
	SET(abi_major, m->abi_major);
	SET(abi_minor, m->abi_minor);
	cm.module_version = (char *)m->version;
	cm.kernel_release = (char *)m->kernel;
	cm.machine = (char *)m->machine;
	cm.hostname = host;
	SET(nr_cpus, m->nr_cpus);
	cm.cpus_online = (char *)m->cpus_online;
	if (m->have_session) {
		SET(session_id, m->session_id);
		SET(clock_boottime_ns, m->clock_boot);
		SET(clock_monotonic_ns, m->clock_mono);
		SET(clock_realtime_ns, m->clock_real);
	}
	SET(events, m->events);
	SET(events_unavailable, m->events_unavailable);
	SET(subbuf_size, m->subbuf_size);
	SET(n_subbufs, m->n_subbufs);
	SET(overwrite, m->overwrite);
	cm.cpus = (char *)m->cpus;
	cm.samples = (char *)m->samples;
	cm.counters = (char *)m->counters;
	cm.stacks = (char *)m->stacks;
	cm.scx_hooks = (char *)m->scx_hooks;
	cm.clock = m->clock[0] ? (char *)m->clock : NULL;
	cm.recorder = (char *)info->recorder;
	cm.options = (char **)info->options;
	cm.n_options = info->nr_options;
	if (info->stop_ns)
		SET(stop_boottime_ns, info->stop_ns);
	cm.sample_pids = (uint32_t *)info->sample_pids;
	cm.n_sample_pids = info->nr_sample_pids;
	cm.sample_comm = (char *)info->sample_comm;
	cm.has_sample_cgroup = !!info->sample_cgroup;
	cm.sample_cgroup = info->sample_cgroup;
	cm.sched_ext_start = sched_ext_msg(info->sched_ext_start, &scx[0]);
	cm.sched_ext_stop = sched_ext_msg(info->sched_ext_stop, &scx[1]);
	cm.schedstat_start = (char *)info->schedstat_start;
	cm.schedstat_stop = (char *)info->schedstat_stop;
	if (info->has_sched_schedstats)
		SET(sched_schedstats, info->sched_schedstats);
	cm.cgroups_start = (char *)info->cgroups_start;
	cm.cgroups_stop = (char *)info->cgroups_stop;
	cm.cgroup_cpu_start = (char *)info->cgroup_cpu_start;
	cm.cgroup_cpu_stop = (char *)info->cgroup_cpu_stop;
	cm.probes = (char *)info->probes;
	cm.probe_stats = (char *)info->probe_stats;
	cm.spans = (char *)info->spans;
#undef SET
	/*
	 * META is bounded (ktpc_section_max()); of what it holds, only the
	 * cgroup tables grow with the machine (up to CGROUP_TABLE_TEXT_MAX):
	 * rather than no capture, one without them, cpu.stat's first, then
	 * the stop's table.
	 */
	if (protobuf_c_message_get_packed_size(&cm.base) > ktpc_section_max(KTPC_META)) {
		cm.cgroup_cpu_start = NULL;
		cm.cgroup_cpu_stop = NULL;
	}
	if (protobuf_c_message_get_packed_size(&cm.base) > ktpc_section_max(KTPC_META))
		cm.cgroups_stop = NULL;
	if (protobuf_c_message_get_packed_size(&cm.base) > ktpc_section_max(KTPC_META))
		cm.cgroups_start = NULL;
	return capture_writer_add_message(w, KTPC_META, &cm.base);
}

int capture_meta_write_topology(struct capture_writer *w, const struct topology_cpu *t,
			   unsigned int n)
{
	Ktprof__Topology topo = KTPROF__TOPOLOGY__INIT;
	Ktprof__CpuTopology *cpus = calloc(n ? n : 1, sizeof(*cpus));
	Ktprof__CpuTopology **ptrs = calloc(n ? n : 1, sizeof(*ptrs));
	/* Each CPU's idle states: TOPOLOGY_IDLE_STATES messages and pointers. */
	Ktprof__IdleState *idle = calloc((n ? n : 1) * TOPOLOGY_IDLE_STATES, sizeof(*idle));
	Ktprof__IdleState **iptrs = calloc((n ? n : 1) * TOPOLOGY_IDLE_STATES, sizeof(*iptrs));
	unsigned int i, k;
	int ret;

	if (!cpus || !ptrs || !idle || !iptrs) {
		free(cpus);
		free(ptrs);
		free(idle);
		free(iptrs);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		ktprof__cpu_topology__init(&cpus[i]);
		cpus[i].cur_khz = t[i].cur_khz;
		cpus[i].has_cur_khz = t[i].cur_khz != 0;
		for (k = 0; k < t[i].nr_idle && k < TOPOLOGY_IDLE_STATES; k++) {
			Ktprof__IdleState *s = &idle[i * TOPOLOGY_IDLE_STATES + k];

			ktprof__idle_state__init(s);
			s->name = (char *)t[i].idle[k].name;
			s->exit_latency_us = t[i].idle[k].exit_us;
			s->has_exit_latency_us = 1;
			iptrs[i * TOPOLOGY_IDLE_STATES + k] = s;
		}
		cpus[i].idle_states = &iptrs[i * TOPOLOGY_IDLE_STATES];
		cpus[i].n_idle_states = k;
		cpus[i].cpu = t[i].cpu;
		cpus[i].package = t[i].package;
		cpus[i].core = t[i].core;
		cpus[i].llc = t[i].llc;
		cpus[i].numa_node = t[i].node;
		cpus[i].online = t[i].online;
		cpus[i].has_cpu = cpus[i].has_package = cpus[i].has_core = 1;
		cpus[i].has_llc = cpus[i].has_numa_node = cpus[i].has_online = 1;
		ptrs[i] = &cpus[i];
	}
	topo.cpus = ptrs;
	topo.n_cpus = n;
	ret = capture_writer_add_message(w, KTPC_TOPOLOGY, &topo.base);
	free(cpus);
	free(ptrs);
	free(idle);
	free(iptrs);
	return ret;
}

int capture_meta_write_stats(struct capture_writer *w, const struct cpu_stats *s,
			unsigned int n, const uint64_t *bytes_read)
{
	Ktprof__Stats st = KTPROF__STATS__INIT;
	Ktprof__CpuStats *cpus = calloc(n ? n : 1, sizeof(*cpus));
	Ktprof__CpuStats **ptrs = calloc(n ? n : 1, sizeof(*ptrs));
	unsigned int i;
	int ret;

	if (!cpus || !ptrs) {
		free(cpus);
		free(ptrs);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		Ktprof__CpuStats *c = &cpus[i];

		ktprof__cpu_stats__init(c);
		c->cpu = s[i].cpu;
		c->has_cpu = 1;
		/* Each counter goes to the CpuStats field of its name. */
#define STORE(NAME, NR, name, help) c->name = s[i].name, c->has_##name = 1;
		KTP_CPU_STATS(STORE)
#undef STORE
		c->dropped = (uint64_t *)s[i].dropped;
		c->n_dropped = KTP_REC_NR_TYPES;
		if (bytes_read) {
			c->bytes_read = bytes_read[i];
			c->has_bytes_read = 1;
		}
		ptrs[i] = c;
	}
	st.cpus = ptrs;
	st.n_cpus = n;
	ret = capture_writer_add_message(w, KTPC_STATS, &st.base);
	free(cpus);
	free(ptrs);
	return ret;
}
