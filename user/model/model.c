// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/capture-read.h"
#include "capture/file-index.h"
#include "decode/merge.h"
#include "model/model.h"
#include "symbols/symbolizer-capture.h"
#include "util/array.h"

#define IRQ_NAMES_MAX 65536	/* irq numbers named; others stay numbers */

/* --- Names --- */

static int take_irq_name(struct model *m, const struct event *ev)
{
	struct ktp_irq_name r;
	size_t n = ev->size - sizeof(r);

	char *name;

	memcpy(&r, ev->rec, sizeof(r));
	if (r.irq - KTP_IRQ_VECTOR_BASE < KTP_IRQ_NR_VECTORS) {
		name = m->vector_names[r.irq - KTP_IRQ_VECTOR_BASE];
	} else {
		if (r.irq >= IRQ_NAMES_MAX)
			return 0;
		if (array_reserve((void **)&m->irq_names, &m->nr_irq_names, r.irq,
				  sizeof(*m->irq_names), 64))
			return -ENOMEM;
		name = m->irq_names[r.irq];
	}
	if (n >= KTP_IRQ_NAME_MAX)
		n = KTP_IRQ_NAME_MAX - 1;
	memcpy(name, (const char *)ev->rec + sizeof(r), n);
	name[n] = '\0';
	return 0;
}

const char *model_irq_name(const struct model *m, uint64_t irq)
{
	if (irq - KTP_IRQ_VECTOR_BASE < KTP_IRQ_NR_VECTORS)
		return m->vector_names[irq - KTP_IRQ_VECTOR_BASE][0] ?
			m->vector_names[irq - KTP_IRQ_VECTOR_BASE] : NULL;
	return irq < m->nr_irq_names && m->irq_names[irq][0] ? m->irq_names[irq] : NULL;
}

/* Append @s to @buf at *@at, as much as fits before the NUL. */
static void label_put(char *buf, size_t len, size_t *at, const char *s, size_t n)
{
	if (*at + n >= len)
		n = len - 1 - *at;
	memcpy(buf + *at, s, n);
	*at += n;
}

static void label_put_u64(char *buf, size_t len, size_t *at, uint64_t v)
{
	char digits[20];
	size_t n = sizeof(digits);

	do
		digits[--n] = '0' + v % 10;
	while (v /= 10);
	label_put(buf, len, at, digits + n, sizeof(digits) - n);
}

const char *model_irq_label(const struct model *m, uint64_t irq, char *buf, size_t len)
{
	const char *name = model_irq_name(m, irq);
	int vector = irq - KTP_IRQ_VECTOR_BASE < KTP_IRQ_NR_VECTORS;
	size_t at = 0;

	if (!len)
		return buf;
	label_put(buf, len, &at, "irq ", 4);
	if (vector && !name) {
		label_put(buf, len, &at, "vector ", 7);
		label_put_u64(buf, len, &at, irq - KTP_IRQ_VECTOR_BASE);
	} else if (!vector) {
		label_put_u64(buf, len, &at, irq);
		if (name)
			label_put(buf, len, &at, " ", 1);
	}
	if (name)
		label_put(buf, len, &at, name, strnlen(name, KTP_IRQ_NAME_MAX - 1));
	buf[at] = '\0';
	return buf;
}

const char *model_softirq_name(uint64_t vec)
{
	static const char *const names[] = {
		"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL",
		"TASKLET", "SCHED", "HRTIMER", "RCU",
	};

	return vec < sizeof(names) / sizeof(names[0]) ? names[vec] : NULL;
}

const char *model_ksym(const struct model *m, uint64_t addr, char *buf, size_t len)
{
	struct frame f;

	if (!m->sym) {
		snprintf(buf, len, "0x%" PRIx64, addr);
		return buf;
	}
	symbolizer_frame(m->sym, 0, addr, 1, &f);
	if (f.resolved && !f.offset)
		return f.func;
	if (f.resolved)
		snprintf(buf, len, "%s+0x%" PRIx64, f.func, f.offset);
	else
		snprintf(buf, len, "0x%" PRIx64, addr);
	return buf;
}

static void find_sched_text(struct model *m)
{
	static const char *const names[2][2] = {
		{ "__sched_text_start", "__sched_text_end" },
		{ "__lock_text_start", "__lock_text_end" },
	};
	int i, j;

	m->sched_text_known = -1;
	if (!m->sym)
		return;
	for (i = 0; i < 2; i++)
		for (j = 0; j < 2; j++)
			if (symbolizer_ksym_addr(m->sym, names[i][j], &m->sched_text[i][j]))
				return;
	m->sched_text_known = 1;
}

/* The rule, for frame @addr already resolved into @f (unresolved: not the tracepoint's). */
static int sched_frame(struct model *m, uint64_t addr, const struct frame *f)
{
	int i;

	if (!m->sched_text_known)
		find_sched_text(m);
	if (m->sched_text_known < 0)
		return 0;
	for (i = 0; i < 2; i++)
		if (addr >= m->sched_text[i][0] && addr < m->sched_text[i][1])
			return 1;
	/* The tracepoint's caller of our probe (several probes attached). */
	return f->resolved && (!strncmp(f->func, "__traceiter_", 12) ||
			       !strncmp(f->func, "__probestub_", 12));
}

const char *model_blocking_function(struct model *m, uint32_t s, char *buf, size_t len)
{
	const struct stack_entry *e;
	const uint64_t *ips;
	unsigned int i;

	if (s == STACK_NONE)
		return "[no stack]";
	e = stack_table_get(&m->stacks, s);
	ips = stack_table_frames(&m->stacks, s);
	for (i = 0; i < e->nr_kernel; i++) {
		struct frame f = { 0 };

		/* Each frame resolved once, for the rule and for its name. */
		if (m->sym)
			symbolizer_frame(m->sym, 0, ips[i], 1, &f);
		if (sched_frame(m, ips[i], &f))
			continue;
		if (f.resolved)
			snprintf(buf, len, "%s", f.func);
		else
			snprintf(buf, len, "0x%" PRIx64, ips[i]);
		return buf;
	}
	return "[scheduler]";
}

/* --- Selection: one rule for every consumer --- */

int model_tgid_selected(const struct model *m, uint32_t tgid)
{
	const struct filter *f = &m->cfg.filter;
	uint32_t p;

	if (!filter_selects(f))
		return 1;
	if (filter_pid_listed(f, tgid))
		return 1;
	p = f->comm[0] || f->cgroup[0] ? sched_process_of(&m->sched, tgid) : SCHED_NONE;
	if (p == SCHED_NONE)
		return 0;
	if (m->sched.procs[p].comm_matched)
		return 1;
	/* By cgroup: its leader's. */
	return f->cgroup[0] && m->sched.procs[p].leader != SCHED_NONE &&
	       filter_cgroup_under(f, model_cgroup_path(m,
			m->sched.threads[m->sched.procs[p].leader].cgroup));
}

int model_thread_selected(const struct model *m, uint32_t t)
{
	const struct filter *f = &m->cfg.filter;
	const struct sched_thread *th;

	if (!filter_selects(f))
		return 1;
	if (t >= m->sched.nr_threads)
		return 0;
	th = &m->sched.threads[t];
	if (filter_pid_listed(f, th->tgid) || filter_tid_listed(f, th->pid))
		return 1;
	if (f->cgroup[0] && filter_cgroup_under(f, model_cgroup_path(m, th->cgroup)))
		return 1;
	return th->process != SCHED_NONE && m->sched.procs[th->process].comm_matched;
}

int model_pid_selected(const struct model *m, uint32_t pid)
{
	uint32_t t;

	if (!filter_selects(&m->cfg.filter))
		return 1;
	if (!pid || pid == SCHED_PID_UNKNOWN)
		return 0;
	t = sched_lookup_pid(&m->sched, pid);
	return t == SCHED_NONE ? filter_pid_listed(&m->cfg.filter, pid) ||
		filter_tid_listed(&m->cfg.filter, pid) : model_thread_selected(m, t);
}

int model_sample_selected(const struct model *m, uint32_t tgid, uint32_t tid)
{
	return model_tgid_selected(m, tgid) || filter_tid_listed(&m->cfg.filter, tid);
}

uint32_t model_cpu_pid(const struct model *m, uint32_t cpu)
{
	return sched_cpu_pid(&m->sched, cpu);
}

/* --- Opening --- */

/*
 * The cgroup id -> path tables the recorder read at start and stop, as one
 * (a cgroup of either). A table that does not parse names nothing: the
 * cgroups stay ids.
 */
static void take_cgroups(struct model *m)
{
	struct cgroup_table stop;
	const char *text;

	memset(&stop, 0, sizeof(stop));
	text = input_cgroups(m->in, 0);
	if (text && cgroup_table_parse(text, &m->cgroups))
		memset(&m->cgroups, 0, sizeof(m->cgroups));
	text = input_cgroups(m->in, 1);
	if (text && !cgroup_table_parse(text, &stop))
		cgroup_table_merge(&m->cgroups, &stop);
	cgroup_table_free(&stop);
}

const char *model_cgroup_path(const struct model *m, uint64_t id)
{
	return cgroup_table_path(&m->cgroups, id);
}

/* record --probe's list; one that does not parse names no probe. */
static void take_probes(struct model *m)
{
	const char *text = input_probes(m->in);

	if (text && probe_table_parse(text, &m->probes, NULL))
		memset(&m->probes, 0, sizeof(m->probes));
}

static void take_session(struct model *m)
{
	const struct meta *meta = input_meta(m->in);
	int n;

	if (meta) {
		m->meta = *meta;
		m->have_meta = 1;
		m->session_start = meta->have_session ? meta->clock_boot : 0;
	}
	m->session_stop = input_stop_ns(m->in);
	m->sched_ext[0] = *input_sched_ext(m->in, 0);
	m->sched_ext[1] = *input_sched_ext(m->in, 1);
	m->nr_cpus = input_nr_cpus(m->in);
	n = input_topology(m->in, &m->topo);
	m->nr_topo = n > 0 ? n : 0;
	take_cgroups(m);
	take_probes(m);
}

/* The window: [session start + from, session start + to), or all of it. */
static int set_window(struct model *m, struct error *err)
{
	const struct filter *f = &m->cfg.filter;

	m->from = m->session_start;
	m->to = UINT64_MAX;
	if (!f->have_from && !f->have_to)
		return 0;
	if (!m->have_meta || !m->meta.have_session)
		return error_set(err, -ERROR_NO_META,
				 "%s: --from/--to need the session's start time, and it has no session metadata",
				 m->path);
	if (f->have_from)
		m->from = m->session_start + f->from_rel;
	if (f->have_to)
		m->to = m->session_start + f->to_rel;
	return 0;
}

/* From the FILES section when the writer indexed every stream: 1, 0 (none), -errno. */
static int files_from_index(struct model *m)
{
	struct capture_reader *cap = input_capture(m->in);
	struct event ev;
	size_t len, off = 0;
	void *recs;
	int ret;

	if (!cap || !capture_reader_files_complete(cap))
		return 0;
	recs = capture_reader_section(cap, KTPC_FILES, &len);
	if (!recs)
		return 0;	/* damaged: the streams still have them */
	while ((ret = file_index_next(recs, len, &off, &ev)) > 0) {
		ret = symbolizer_on_event(m->sym, &ev);
		if (ret)
			break;
	}
	free(recs);
	return ret == -EBADMSG ? 0 : ret ? ret : 1;
}

static int files_only(void *ctx, const struct event *ev)
{
	return ev->type == KTP_REC_FILE ? symbolizer_on_event(ctx, ev) : 0;
}

static const struct sched_ops files_ops = { .event = files_only };

/*
 * Samples may come before the FILE record of their binary (the module
 * reads it later): the symbolizer needs them all from the start. A pass of
 * the same loop over a second opening of the input gives them.
 */
static int take_files(struct model *m, struct error *err)
{
	struct model_config c = { .tolerant = 0 };
	struct model *scan;
	int ret = files_from_index(m);

	if (ret)
		return ret < 0 ? error_set(err, ret, NULL) : 0;
	scan = model_open(m->path, &c, err);
	if (!scan)
		return err->code;
	ret = model_add_client(scan, &files_ops, m->sym, 0);
	if (!ret)
		ret = model_run(scan, err);
	model_close(scan);
	return ret;
}

int model_user_stacks(const struct model *m)
{
	const char *s = m->have_meta ? m->meta.stacks : "";
	size_t n = strlen("user");
	unsigned int i;

	for (i = 0; i < m->probes.n; i++)
		if (m->probes.probes[i].stacks & KTP_PROBE_STACK_USER)
			return 1;

	for (; (s = strstr(s, "user")) != NULL; s += n)
		if ((s == m->meta.stacks || s[-1] == ',') && (!s[n] || s[n] == ','))
			return 1;
	return 0;
}

/* User frames, from samples or stacks, need the FILE records of their binaries. */
static int make_symbolizer(struct model *m, struct error *err)
{
	if (m->cfg.symbols == MODEL_SYMBOLS_SAMPLED)
		m->cfg.symbols = model_sampled(m) || model_user_stacks(m) ?
			MODEL_SYMBOLS_ALL : MODEL_SYMBOLS_KERNEL;
	if (m->cfg.symbols == MODEL_SYMBOLS_NONE)
		return 0;
	m->sym = symbolizer_for_kernel(m->in, m->cfg.symfs, err);
	if (!m->sym)
		return err->code;
	return m->cfg.symbols == MODEL_SYMBOLS_ALL ? take_files(m, err) : 0;
}

static int set_cpus(struct model *m, struct error *err)
{
	const char *list = m->cfg.filter.cpus;

	/* Per-CPU tables would follow a damaged count: refuse it. */
	if (m->cfg.sched && m->nr_cpus > FILTER_MAX_CPUS)
		return error_set(err, -ERROR_TOO_LARGE, "%s claims %u CPUs: damaged metadata?",
				 m->path, m->nr_cpus);
	if (list[0] && filter_parse_cpus(list, &m->cpu_selected, &m->nr_cpu_selected))
		return error_set(err, -EINVAL, "-C %s: want a CPU list such as 0-3,6", list);
	/* A CPU the capture does not have would give an empty report, silently. */
	if (m->nr_cpus && m->nr_cpu_selected > m->nr_cpus)
		return error_set(err, -EINVAL, "-C %s: %s has CPUs 0-%u", list, m->path,
				 m->nr_cpus - 1);
	return 0;
}

/*
 * The CPUs online and traced at the start (metadata) have data from their
 * START marks on: before that, their time is unknown. Without metadata,
 * or with lists that do not parse, no CPU is awaited.
 */
static int await_cpus(struct model *m, struct error *err)
{
	const struct meta *meta = input_meta(m->in);
	uint8_t *online = NULL, *traced = NULL;
	uint32_t n_online = 0, n_traced = 0, cpu;

	if (!meta || !meta->cpus_online[0] || !meta->cpus[0] ||
	    filter_parse_cpus(meta->cpus_online, &online, &n_online) ||
	    filter_parse_cpus(meta->cpus, &traced, &n_traced))
		goto out;
	for (cpu = 0; cpu < n_online && cpu < n_traced && cpu < m->nr_cpus; cpu++)
		if (online[cpu] && traced[cpu])
			sched_await_cpu(&m->sched, cpu);
out:
	free(online);
	free(traced);
	return m->sched.error ? error_set(err, m->sched.error, NULL) : 0;
}

static int set_sched(struct model *m, struct error *err)
{
	struct sched *s = &m->sched;
	int ret = sched_init(s, m->nr_cpus, m->session_start, m->from, m->to);

	if (ret)
		return error_set(err, ret, NULL);
	s->cpu_selected = m->cpu_selected;
	s->nr_cpu_selected = m->nr_cpu_selected;
	s->match_comm = m->cfg.filter.comm[0] ? m->cfg.filter.comm : NULL;
	return await_cpus(m, err);
}

struct model *model_open_input(struct input *in, const char *name,
			       const struct model_config *cfg, struct error *err)
{
	struct model *m = calloc(1, sizeof(*m));

	if (!m) {
		input_close(in);
		error_set(err, -ENOMEM, NULL);
		return NULL;
	}
	m->cfg = *cfg;
	snprintf(m->path, sizeof(m->path), "%s", name);
	task_table_init(&m->tasks);
	stack_table_init(&m->stacks);
	m->in = in;
	take_session(m);
	if (set_cpus(m, err) || set_window(m, err) || set_sched(m, err) ||
	    make_symbolizer(m, err)) {
		model_close(m);
		return NULL;
	}
	return m;
}

struct model *model_open(const char *path, const struct model_config *cfg,
			 struct error *err)
{
	struct input *in = input_open(path, err);

	return in ? model_open_input(in, path, cfg, err) : NULL;
}

void model_close(struct model *m)
{
	if (!m)
		return;
	merge_free(m->mg);
	input_close(m->in);
	cgroup_table_free(&m->cgroups);
	probe_table_fini(&m->probes);
	sched_fini(&m->sched);
	task_table_fini(&m->tasks);
	stack_table_fini(&m->stacks);
	symbolizer_free(m->sym);
	free(m->irq_names);
	free(m->streams);
	free(m->topo);
	free(m->cpu_selected);
	free(m);
}

int model_add_client(struct model *m, const struct sched_ops *ops, void *ctx,
		     unsigned int flags)
{
	int ret;

	if (m->nr_clients == MODEL_MAX_CLIENTS)
		return -ENOSPC;
	/* The scheduler model calls the hooks of its own. */
	ret = sched_add_client(&m->sched, ops, ctx);
	if (ret)
		return ret;
	m->clients[m->nr_clients++] = (struct model_client){
		ops, ctx, flags, ops->event_types ? ops->event_types : UINT64_MAX
	};
	return 0;
}

/* --- The pass --- */

static int windowed(const struct model *m)
{
	return m->cfg.filter.have_from || m->cfg.filter.have_to;
}

/* Records that describe the session rather than happen at a time. */
static int timeless(uint16_t type)
{
	return type == KTP_REC_TASK || type == KTP_REC_IRQ_NAME;
}

static int to_clients(struct model *m, const struct event *ev, unsigned int only)
{
	const struct model_client *c;
	int ret;

	for (c = m->clients; c < m->clients + m->nr_clients; c++) {
		if (!c->ops->event || (c->flags & only) != only)
			continue;
		ret = c->ops->event(c->ctx, ev);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * A window's edge as a CPU mark on every CPU whose running task is known,
 * for MODEL_WINDOWED clients: they open and close what runs there as at a
 * session's start and stop.
 */
static int window_edge(struct model *m, uint64_t ts, uint16_t reason)
{
	struct ktp_cpu_mark mark;
	struct event ev;
	uint32_t cpu, pid;
	int ret;

	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		pid = model_cpu_pid(m, cpu);
		if (pid == SCHED_PID_UNKNOWN)
			continue;
		memset(&mark, 0, sizeof(mark));
		mark.h.type = KTP_REC_CPU;
		mark.h.size = sizeof(mark);
		mark.pid = pid;
		mark.reason = reason;
		memset(&ev, 0, sizeof(ev));
		ev.ts = ts;
		ev.cpu = cpu;
		ev.type = KTP_REC_CPU;
		ev.size = sizeof(mark);
		ev.rec = &mark;
		ret = to_clients(m, &ev, MODEL_WINDOWED);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Whether only windowed clients are left to want events: then the pass may
 * end. Not with the scheduler model: it would take each CPU's data for
 * ended at its last record before the window's end, and the time from
 * there to the end for unknown (nodata), though the CPU's records go on.
 */
static int all_windowed(const struct model *m)
{
	const struct model_client *c;

	if (m->cfg.sched)
		return 0;
	for (c = m->clients; c < m->clients + m->nr_clients; c++)
		if (!(c->flags & MODEL_WINDOWED))
			return 0;
	return 1;
}

/* Before the model takes @ev: the window's edges it crosses. 0, MODEL_STOP, -errno. */
static int cross_window(struct model *m, const struct event *ev)
{
	int ret;

	if (m->window_state == 0 && ev->ts >= m->from) {
		m->window_state = 1;
		if (m->cfg.filter.have_from && (ret = window_edge(m, m->from, KTP_CPU_START)))
			return ret;
	}
	if (m->window_state == 1 && ev->ts >= m->to) {
		m->window_state = 2;
		if ((ret = window_edge(m, m->to, KTP_CPU_STOP)))
			return ret;
	}
	return m->window_state == 2 && all_windowed(m) ? MODEL_STOP : 0;
}

static int deliver(struct model *m, const struct event *ev)
{
	const struct model_client *const *c;
	int ret, in = !m->windowed || m->window_state == 1 || timeless(ev->type);
	unsigned int t = ev->type < MODEL_OTHER_TYPES ? ev->type : MODEL_OTHER_TYPES;

	for (c = m->hooked[t]; c < m->hooked[t] + m->nr_hooked[t]; c++) {
		if (!in && ((*c)->flags & MODEL_WINDOWED))
			continue;
		ret = (*c)->ops->event((*c)->ctx, ev);
		if (ret)
			return ret;
	}
	return 0;
}

static int take(struct model *m, const struct event *ev)
{
	int ret;

	m->events++;
	if (m->cfg.session_cpus && ev->cpu >= m->nr_cpus) {
		m->outside_cpus++;
		return 0;
	}
	if (m->windowed && (ret = cross_window(m, ev)))
		return ret;
	if (ev->type == EVENT_LOST)
		m->lost_seen += ev->lost;
	if ((ret = task_table_on_event(&m->tasks, ev)))
		return ret;
	if (m->cfg.symbols == MODEL_SYMBOLS_ALL && (ret = symbolizer_on_event(m->sym, ev)))
		return ret;
	if (ev->type == KTP_REC_IRQ_NAME && (ret = take_irq_name(m, ev)))
		return ret;
	if (ev->type == KTP_REC_STACK && (ret = stack_table_add(&m->stacks, ev)))
		return ret;
	if (m->cfg.sched && (ret = sched_event(&m->sched, ev)))
		return ret;
	return deliver(m, ev);
}

static int take_streams(struct model *m, struct merge *mg)
{
	unsigned int i, n = merge_nr_inputs(mg);

	m->streams = calloc(n + 1, sizeof(*m->streams));
	if (!m->streams)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		const struct relay_decoder *d = merge_decoder(mg, i);
		const struct relay_decoder_stats *st = relay_decoder_stats(d);

		m->streams[i] = (struct model_stream){
			.cpu = relay_decoder_cpu(d) < 0 ? 0 : relay_decoder_cpu(d),
			.records = st->records - st->subbufs, .lost = st->lost,
			.lost_subbufs = st->lost_subbufs, .garbage_bytes = st->garbage_bytes,
			.truncated = st->truncated,
		};
		m->lost += st->lost;
	}
	m->nr_streams = n;
	return 0;
}

/*
 * The one loop over the merged events of every CPU, up to the merge's
 * watermark: 1 at the end of the input (or a client's MODEL_STOP), 0 when
 * the next event waits, or a negative error.
 */
static int loop(struct model *m, struct merge *mg)
{
	struct event ev;
	int ret;

	while ((ret = merge_next(mg, &ev)) > 0) {
		ret = take(m, &ev);
		if (ret)
			return ret == MODEL_STOP ? 1 : ret;
	}
	if (ret == -EAGAIN)
		return 0;
	return ret ? ret : 1;
}

static void take_damage(struct model *m, struct merge *mg)
{
	struct capture_reader *cap = input_capture(m->in);

	if (merge_damaged(mg)) {
		/* Each damaged stream ends there; the report says so. */
		snprintf(m->problem, sizeof(m->problem), "%s", input_problem(m->in));
		m->damaged = 1;
	} else if (cap && !capture_reader_status(cap)->complete) {
		m->truncated = 1;
		snprintf(m->problem, sizeof(m->problem), "%s", capture_reader_status(cap)->problem);
	}
}

/*
 * The window ends where the module stopped (its STOP marks), else at the
 * recorder's stop time or the last event, whichever is later.
 */
static int finish(struct model *m)
{
	const struct sched *s = &m->sched;
	uint64_t end = s->stopped ? s->stopped :
		m->session_stop > s->end ? m->session_stop : s->end;
	int ret = sched_finish(&m->sched, end < m->to ? end : m->to);

	if (m->to > end)
		m->to = end;
	if (!m->from || m->from > m->to)
		m->from = s->first && s->first < m->to ? s->first : m->to;
	m->window_ns = m->to - m->from;
	return ret;
}

/*
 * Per record type, the clients whose event hook takes it: an event costs a
 * call to each of those, no more. The other types reach them all.
 */
static void take_hooked(struct model *m)
{
	unsigned int i, t;

	for (t = 0; t <= MODEL_OTHER_TYPES; t++) {
		m->nr_hooked[t] = 0;
		for (i = 0; i < m->nr_clients; i++)
			if (m->clients[i].ops->event &&
			    (t == MODEL_OTHER_TYPES || (m->clients[i].types & SCHED_TYPE(t))))
				m->hooked[t][m->nr_hooked[t]++] = &m->clients[i];
	}
	m->windowed = windowed(m);
}

int model_start(struct model *m, struct error *err)
{
	int ret;

	m->mg = merge_new();
	if (!m->mg)
		return error_set(err, -ENOMEM, NULL);
	take_hooked(m);
	if (m->cfg.sched)
		merge_set_gap_fn(m->mg, sched_gap_ahead, &m->sched);
	merge_set_tolerant(m->mg, m->cfg.tolerant);
	ret = input_add_streams(m->in, m->mg);
	return ret ? error_set(err, ret, "reading %s: %s", m->path, error_str(ret)) : 0;
}

int model_step(struct model *m, uint64_t until, struct error *err)
{
	int ret;

	merge_set_watermark(m->mg, until);
	ret = loop(m, m->mg);
	if (ret >= 0)
		return ret;
	/* What the streams held up to a failure too: ktprof info shows it. */
	take_streams(m, m->mg);
	return error_set(err, ret, "reading %s: %s", m->path,
			 ret == -EBADMSG ? input_problem(m->in) : error_str(ret));
}

int model_next_ts(struct model *m, uint64_t *ts)
{
	return merge_peek(m->mg, ts);
}

void model_cut(struct model *m, uint64_t ts)
{
	if (m->cfg.sched)
		sched_cut(&m->sched, ts);
}

int model_finish(struct model *m, struct error *err)
{
	int ret;

	if (!m->streams && take_streams(m, m->mg))
		return error_set(err, -ENOMEM, NULL);
	take_damage(m, m->mg);
	merge_free(m->mg);
	m->mg = NULL;
	if (m->cfg.sched && (ret = finish(m)))
		return error_set(err, ret, NULL);
	/* A window past the end would give an empty report, silently. */
	if (m->cfg.sched && m->cfg.filter.have_from && !m->window_ns)
		return error_set(err, -ERANGE, "--from %.6f s: %s ends %.6f s after its start",
				 m->cfg.filter.from_rel / 1e9, m->path,
				 (m->to > m->session_start ? m->to - m->session_start : 0) / 1e9);
	return 0;
}

int model_run(struct model *m, struct error *err)
{
	int ret = model_start(m, err);

	if (!ret)
		ret = model_step(m, UINT64_MAX, err);
	if (ret < 0)
		return ret;
	return model_finish(m, err);
}
