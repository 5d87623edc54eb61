// SPDX-License-Identifier: GPL-2.0
/*
 * The thread view: a track per thread, grouped under its process, with an
 * ONCPU slice for every time it ran (cpu at the start; prev_state,
 * preemption and counter deltas at the end); WAKER and WAKEE instants tied
 * by a flow that ends on the wakee's next ONCPU slice, PREEMPTOR and
 * PREEMPTEE likewise; FORK, EXEC and EXIT instants; probe hits and
 * markers as instants, and the spans of begin and end markers as slices
 * on a second track of the thread ("spans"), those of each probe pair
 * (record --span) on a track of their own ("NAME spans": spans of two
 * sources need not nest), paired as report --probes pairs them (an end
 * closes its thread's innermost span of its source). Per CPU: tracks
 * of IRQ, softirq and workqueue slices, IPI instants and lost-record
 * markers.
 *
 * Slices on one track must nest: a slice still open when its thread shows
 * up elsewhere (after lost records), or when another thread starts on its
 * CPU, or when a new task takes its pid, is closed first; a work item
 * whose worker is switched out ends there and resumes when the worker
 * does, unless records were lost meanwhile (its end may be among them).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/input.h"
#include "decode/probe-spec.h"
#include "decode/record.h"
#include "decode/span-spec.h"
#include "perfetto/convert.h"
#include "perfetto/track-event.h"
#include "util/u64-map.h"

/* Per-switch counter deltas shown on ONCPU slices (the module has 4). */
#define PF_MAX_COUNTERS 8

/* Interned event and annotation names (PF_SEQ_TRACKS). */
enum { N_ONCPU = 1, N_WAKER, N_WAKEE, N_PREEMPTOR, N_PREEMPTEE, N_FORK,
       N_EXEC, N_EXIT, N_LOST, N_IPI, N_COUNT };
static const char *const event_names[N_COUNT] = {
	NULL, "ONCPU", "WAKER", "WAKEE", "PREEMPTOR", "PREEMPTEE", "FORK",
	"EXEC", "EXIT", "LOST", "IPI",
};

enum { A_CPU = 1, A_PREV_STATE, A_PREEMPTED, A_CGROUP, A_COUNT };
static const char *const annotation_names[A_COUNT] = {
	NULL, "cpu", "prev_state", "preempted", "cgroup",
};

/* Per-CPU tracks. */
enum { CT_IRQ = 1, CT_SOFTIRQ, CT_IPI, CT_WQ, CT_LOST, CT_DEPTH, CT_COUNT };
static const char *const cpu_track_names[CT_COUNT] = {
	NULL, "IRQs", "softirqs", "IPIs", "workqueue", "lost records", "run-queue depth",
};

struct thr {
	uint32_t gen;		/* a reused pid is a new track */
	int described;
	int open;		/* ONCPU slice open */
	uint32_t open_cpu;
	uint64_t wake_flow, preempt_flow;	/* to end on the next ONCPU */
	uint64_t wq_func;	/* work being run, 0: none */
	int asleep;		/* a sleep slice (its stack's) open */
	int spans_described;	/* its spans track */
	uint32_t spans_open;	/* span slices open there */
	uint32_t pairs_described;	/* bit per probe pair: its track */
	uint32_t *pairs_open;	/* per probe pair, slices open on its track */
	/* sched_ext (-e scx): the DSQ it was last taken from, and the slice
	 * it had at its switch-in, for its ONCPU slice's end. */
	char scx_dsq[56];
	uint64_t scx_slice;
	int scx_on;		/* scx_slice is this ONCPU slice's */
};

struct cpu_state {
	int irq_open, softirq_open, wq_open;
	uint32_t wq_pid;
	uint32_t oncpu_tid;	/* whose ONCPU slice is open here, 0: none */
	uint32_t described;	/* bit per CPU track kind */
	int depth;		/* last on its depth track, -1: none yet */
	uint8_t dirty;		/* a thread's wait moved here or away */
};

struct pf_threads {
	struct convert_ctx *c;
	struct u64_map threads;		/* tid -> struct thr */
	struct u64_map processes;	/* tgid -> gen + 1 once described */
	struct cpu_state *cpus;
	uint64_t next_flow;
	uint64_t last_ts;
	int started;			/* the sequence's first packet is out */
	char *counter_names[PF_MAX_COUNTERS];
	unsigned int nr_counter_names;
	struct u64_map dsqs;		/* DSQ key -> counter track index + 1 */
	uint64_t nr_dsqs;
	uint32_t *dirty;		/* CPUs whose depth may have changed */
	uint32_t nr_dirty;
	char cgroup_buf[32];		/* "(id N)" while an ONCPU slice is built */
	struct probe_table probes;	/* record --probe's list, for the names */
	struct span_table pairs;	/* record --span's probe pairs */
	/* A probe hit's or marker's strings, while its event is built. */
	char str_buf[KTP_PROBE_MAX_ARGS + 1][KTP_MARK_MAX + 1];
	/* A callstack's frame names, while its event is built. */
	char frame_buf[TRACK_EVENT_MAX_FRAMES][128];
	const char *frames[TRACK_EVENT_MAX_FRAMES];
};

static uint64_t thread_uuid(uint32_t tid, uint32_t gen)
{
	return (2ull << 56) | ((uint64_t)gen << 32) | tid;
}

static uint64_t process_uuid(uint32_t tgid, uint32_t gen)
{
	return (1ull << 56) | ((uint64_t)gen << 32) | tgid;
}

static uint64_t cpu_uuid(uint32_t cpu, unsigned int kind)
{
	return (3ull << 56) | ((uint64_t)cpu << 8) | kind;
}

static uint64_t dsq_uuid(uint64_t index)
{
	return (4ull << 56) | index;
}

static uint64_t spans_uuid(uint32_t tid, uint32_t gen)
{
	return (5ull << 56) | ((uint64_t)gen << 32) | tid;
}

/* Probe pair @k's spans track of @tid (k < SPAN_TABLE_MAX). */
static uint64_t pair_uuid(uint32_t tid, uint32_t gen, unsigned int k)
{
	return ((6ull + k) << 56) | ((uint64_t)gen << 32) | tid;
}

static struct thr *get_thr(struct pf_threads *t, uint32_t tid)
{
	struct thr *th = u64_map_get(&t->threads, tid);

	if (th)
		return th;
	th = calloc(1, sizeof(*th));
	if (th && u64_map_put(&t->threads, tid, th)) {
		free(th);
		th = NULL;
	}
	return th;
}

/*
 * The sequence's first packet: it clears the incremental state and defines
 * the interned event and annotation names every later packet uses.
 */
static int write_names(struct pf_threads *t)
{
	Perfetto__Protos__TracePacket pkt = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	Perfetto__Protos__InternedData data = PERFETTO__PROTOS__INTERNED_DATA__INIT;
	Perfetto__Protos__EventName ev[N_COUNT], *evp[N_COUNT];
	Perfetto__Protos__DebugAnnotationName an[A_COUNT], *anp[A_COUNT];
	unsigned int i;

	for (i = 1; i < N_COUNT; i++) {
		perfetto__protos__event_name__init(&ev[i]);
		ev[i].has_iid = 1;
		ev[i].iid = i;
		ev[i].name = (char *)event_names[i];
		evp[i - 1] = &ev[i];
	}
	for (i = 1; i < A_COUNT; i++) {
		perfetto__protos__debug_annotation_name__init(&an[i]);
		an[i].has_iid = 1;
		an[i].iid = i;
		an[i].name = (char *)annotation_names[i];
		anp[i - 1] = &an[i];
	}
	data.n_event_names = N_COUNT - 1;
	data.event_names = evp;
	data.n_debug_annotation_names = A_COUNT - 1;
	data.debug_annotation_names = anp;
	pkt.has_trusted_packet_sequence_id = pkt.has_sequence_flags = 1;
	pkt.trusted_packet_sequence_id = PF_SEQ_TRACKS;
	pkt.sequence_flags = PF_SEQ_INCREMENTAL_STATE_CLEARED | PF_SEQ_NEEDS_INCREMENTAL_STATE;
	pkt.interned_data = &data;
	t->started = 1;
	return pf_out_packet(t->c->out, &pkt);
}

static int emit_descriptor(struct pf_threads *t, Perfetto__Protos__TrackDescriptor *d)
{
	Perfetto__Protos__TracePacket pkt = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	int ret;

	if (!t->started && (ret = write_names(t)))
		return ret;
	pkt.has_trusted_packet_sequence_id = pkt.has_sequence_flags = 1;
	pkt.trusted_packet_sequence_id = PF_SEQ_TRACKS;
	pkt.sequence_flags = PF_SEQ_NEEDS_INCREMENTAL_STATE;
	pkt.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_DESCRIPTOR;
	pkt.track_descriptor = d;
	return pf_out_packet(t->c->out, &pkt);
}

/* @tid's process: its tgid in *@tgid; the generation of its process's track. */
static uint32_t thread_process(struct pf_threads *t, uint32_t tid, struct thr *th,
			       uint32_t *tgid)
{
	const struct task_info *ti = task_table_get(&t->c->model->tasks, tid);
	struct thr *leader;

	*tgid = ti ? ti->tgid : tid;
	leader = *tgid == tid ? th : get_thr(t, *tgid);
	return leader ? leader->gen : 0;
}

/* The descriptors of @tid's track and its process's (if not written yet). */
static int thread_track_emit(struct pf_threads *t, uint32_t tid, struct thr *th)
{
	Perfetto__Protos__TrackDescriptor d = PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
	Perfetto__Protos__ThreadDescriptor td = PERFETTO__PROTOS__THREAD_DESCRIPTOR__INIT;
	uint32_t tgid, pgen;
	void *described;
	char buf[32];
	int ret;

	pgen = thread_process(t, tid, th, &tgid);
	described = u64_map_get(&t->processes, tgid);
	if (!described || (uintptr_t)described != pgen + 1u) {
		Perfetto__Protos__TrackDescriptor pd = PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
		Perfetto__Protos__ProcessDescriptor pr = PERFETTO__PROTOS__PROCESS_DESCRIPTOR__INIT;

		pd.has_uuid = 1;
		pd.uuid = process_uuid(tgid, pgen);
		pr.has_pid = 1;
		pr.pid = tgid;
		pr.process_name = (char *)task_table_comm(&t->c->model->tasks, tgid, buf, sizeof(buf));
		pd.process = &pr;
		ret = emit_descriptor(t, &pd);
		if (ret || u64_map_put(&t->processes, tgid, (void *)(uintptr_t)(pgen + 1u)))
			return ret ? ret : -ENOMEM;
	}
	d.has_uuid = 1;
	d.uuid = thread_uuid(tid, th->gen);
	d.has_parent_uuid = 1;
	d.parent_uuid = process_uuid(tgid, pgen);
	td.has_pid = td.has_tid = 1;
	td.pid = tgid;
	td.tid = tid;
	td.thread_name = (char *)task_table_comm(&t->c->model->tasks, tid, buf, sizeof(buf));
	d.thread = &td;
	th->described = 1;
	return emit_descriptor(t, &d);
}

/*
 * Describe @tid's track (and its process's) before its first event. Asked
 * at every event of the thread: the answer, most often "done", comes
 * before any lookup or set-up of messages.
 */
static int describe_thread(struct pf_threads *t, uint32_t tid, struct thr *th,
			   int again)
{
	if (th->described && !again)
		return 0;
	return thread_track_emit(t, tid, th);
}

/*
 * The spans track of @tid (described already), before its first slice: a
 * second track of the thread, so that its spans nest among themselves
 * and not with its ONCPU slices.
 */
static int describe_spans(struct pf_threads *t, uint32_t tid, struct thr *th)
{
	Perfetto__Protos__TrackDescriptor d = PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
	Perfetto__Protos__ThreadDescriptor td = PERFETTO__PROTOS__THREAD_DESCRIPTOR__INIT;
	uint32_t tgid, pgen;

	if (th->spans_described)
		return 0;
	pgen = thread_process(t, tid, th, &tgid);
	d.has_uuid = 1;
	d.uuid = spans_uuid(tid, th->gen);
	d.has_parent_uuid = 1;
	d.parent_uuid = process_uuid(tgid, pgen);
	d.name = "spans";
	td.has_pid = td.has_tid = 1;
	td.pid = tgid;
	td.tid = tid;
	d.thread = &td;
	th->spans_described = 1;
	return emit_descriptor(t, &d);
}

/* The spans track of probe pair @k on @tid, before its first slice ("NAME spans"). */
static int describe_pair(struct pf_threads *t, uint32_t tid, struct thr *th, unsigned int k)
{
	Perfetto__Protos__TrackDescriptor d = PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
	Perfetto__Protos__ThreadDescriptor td = PERFETTO__PROTOS__THREAD_DESCRIPTOR__INIT;
	char name[PROBE_NAME_MAX + 8];
	uint32_t tgid, pgen;

	if (th->pairs_described & (1u << k))
		return 0;
	pgen = thread_process(t, tid, th, &tgid);
	snprintf(name, sizeof(name), "%s spans", t->pairs.spans[k].name);
	d.has_uuid = 1;
	d.uuid = pair_uuid(tid, th->gen, k);
	d.has_parent_uuid = 1;
	d.parent_uuid = process_uuid(tgid, pgen);
	d.name = name;
	td.has_pid = td.has_tid = 1;
	td.pid = tgid;
	td.tid = tid;
	d.thread = &td;
	th->pairs_described |= 1u << k;
	return emit_descriptor(t, &d);
}

/* The descriptor of CPU @cpu's track of @kind. */
static int cpu_track_emit(struct pf_threads *t, uint32_t cpu, unsigned int kind)
{
	Perfetto__Protos__TrackDescriptor d = PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
	Perfetto__Protos__CounterDescriptor cd = PERFETTO__PROTOS__COUNTER_DESCRIPTOR__INIT;
	char name[64];

	snprintf(name, sizeof(name), "CPU %u %s", cpu, cpu_track_names[kind]);
	d.has_uuid = 1;
	d.uuid = cpu_uuid(cpu, kind);
	d.name = name;
	if (kind == CT_DEPTH) {
		cd.has_unit = 1;
		cd.unit = PERFETTO__PROTOS__COUNTER_DESCRIPTOR__UNIT__UNIT_COUNT;
		d.counter = &cd;
	}
	return emit_descriptor(t, &d);
}

/* CPU @cpu's track of @kind, described before its first event (asked at each). */
static int describe_cpu_track(struct pf_threads *t, uint32_t cpu, unsigned int kind)
{
	struct cpu_state *cs = &t->cpus[cpu];

	if (cs->described & (1u << kind))
		return 0;
	cs->described |= 1u << kind;
	return cpu_track_emit(t, cpu, kind);
}

static int track_event_emit(struct pf_threads *t, struct track_event *e)
{
	struct pb_buf b;
	int ret;

	if (!t->started && (ret = write_names(t)))
		return ret;
	e->seq_id = PF_SEQ_TRACKS;
	e->seq_flags = PF_SEQ_NEEDS_INCREMENTAL_STATE;	/* the interned names */
	ret = pf_out_begin(t->c->out, TRACK_EVENT_MAX_BYTES, &b);
	if (ret)
		return ret;
	track_event_encode(e, &b);
	return pf_out_end(t->c->out, &b);
}

/* A thread's track, described if needed; NULL if filtered out or idle. */
static struct thr *track_of(struct pf_threads *t, uint32_t tid, int *err)
{
	struct thr *th;

	*err = 0;
	if (!tid || !convert_selected(t->c, tid))
		return NULL;
	th = get_thr(t, tid);
	if (!th) {
		*err = -ENOMEM;
		return NULL;
	}
	*err = describe_thread(t, tid, th, 0);
	return *err ? NULL : th;
}

/* An event @e of @type on thread @tid's track; NULL (with *@err) when it has none. */
static struct thr *thread_event(struct pf_threads *t, uint32_t tid, uint64_t ts,
				enum track_event_type type, struct track_event *e, int *err)
{
	struct thr *th = track_of(t, tid, err);

	if (th)
		track_event_init(e, ts, thread_uuid(tid, th->gen), type);
	return th;
}

static int instant(struct pf_threads *t, uint64_t ts, uint32_t tid, uint64_t name_iid,
		   uint64_t flow, const char *key, uint64_t value)
{
	struct track_event e;
	int err;

	if (!thread_event(t, tid, ts, TRACK_EVENT_INSTANT, &e, &err))
		return err;
	e.name_iid = name_iid;
	if (flow)
		e.flows[e.nflows++] = flow;
	if (key)
		track_event_uint(&e, 0, key, value);
	return track_event_emit(t, &e);
}

/*
 * Stack @s (model->stacks) as @e's callstack, outermost frame first: user
 * frames in process @tgid, then kernel frames; the innermost
 * TRACK_EVENT_MAX_FRAMES of them.
 */
static void set_callstack(struct pf_threads *t, struct track_event *e, uint32_t s,
			  uint32_t tgid)
{
	const struct stack_table *st = &t->c->model->stacks;
	const struct stack_entry *se = stack_table_get(st, s);
	const uint64_t *ips = stack_table_frames(st, s);
	int n = se->nr_kernel + se->nr_user, i, k = 0;

	for (i = n - 1; i >= 0; i--) {
		struct frame f;

		if (i >= TRACK_EVENT_MAX_FRAMES)
			continue;
		if (t->c->model->sym) {
			symbolizer_frame(t->c->model->sym, i < se->nr_kernel ? 0 : tgid, ips[i],
					 i < se->nr_kernel, &f);
			frame_str(&f, 0, t->frame_buf[k], sizeof(t->frame_buf[k]));
		} else {
			snprintf(t->frame_buf[k], sizeof(t->frame_buf[k]), "0x%" PRIx64, ips[i]);
		}
		t->frames[k] = t->frame_buf[k];
		k++;
	}
	e->frames = t->frames;
	e->nframes = k;
}

/* The sleep slice a switch-out with a stack opened ends (its waking, its run). */
static int end_sleep(struct pf_threads *t, uint64_t ts, uint32_t tid, struct thr *th)
{
	struct track_event e;

	if (!th->asleep)
		return 0;
	th->asleep = 0;
	track_event_init(&e, ts, thread_uuid(tid, th->gen), TRACK_EVENT_SLICE_END);
	return track_event_emit(t, &e);
}

/*
 * The span slices still open on @tid's spans track end at @ts, flagged:
 * their ends were not seen (not written, or after the window).
 */
static int end_spans(struct pf_threads *t, uint64_t ts, uint32_t tid, struct thr *th)
{
	struct track_event e;
	int ret = 0;

	unsigned int k;

	while (!ret && th->spans_open) {
		th->spans_open--;
		track_event_init(&e, ts, spans_uuid(tid, th->gen), TRACK_EVENT_SLICE_END);
		track_event_bool(&e, 0, "unmatched", 1);
		ret = track_event_emit(t, &e);
	}
	for (k = 0; th->pairs_open && k < t->pairs.n; k++)
		while (!ret && th->pairs_open[k]) {
			th->pairs_open[k]--;
			track_event_init(&e, ts, pair_uuid(tid, th->gen, k), TRACK_EVENT_SLICE_END);
			track_event_bool(&e, 0, "unmatched", 1);
			ret = track_event_emit(t, &e);
		}
	return ret;
}

/*
 * A thread that left its CPU asleep with a stack (-S offcpu): a slice on
 * its track, named by its blocking function, with the stack, until its
 * waking.
 */
static int begin_sleep(struct pf_threads *t, const struct event *ev, uint32_t tid,
		       struct thr *th, uint16_t prev_state)
{
	uint32_t s = stack_table_find(&t->c->model->stacks, ev->cpu, record_stack_id(ev));
	const struct task_info *ti = task_table_get(&t->c->model->tasks, tid);
	char func[128], state[32];
	struct track_event e;
	int err;

	if (s == STACK_NONE || !thread_event(t, tid, ev->ts, TRACK_EVENT_SLICE_BEGIN, &e, &err))
		return s == STACK_NONE ? 0 : err;
	e.name = model_blocking_function(t->c->model, s, func, sizeof(func));
	track_event_str(&e, A_PREV_STATE, NULL, record_state_str(prev_state, state, sizeof(state)));
	track_event_str(&e, 0, "blocked_function", e.name);
	set_callstack(t, &e, s, ti ? ti->tgid : tid);
	th->asleep = 1;
	return track_event_emit(t, &e);
}

static int end_oncpu(struct pf_threads *t, uint64_t ts, uint32_t tid, struct thr *th,
		     const struct ktp_switch *sw, const uint8_t *counters)
{
	char state[32];
	struct track_event e;
	unsigned int i;

	if (!th->open)
		return 0;
	th->open = 0;
	if (t->cpus[th->open_cpu].oncpu_tid == tid)
		t->cpus[th->open_cpu].oncpu_tid = 0;
	track_event_init(&e, ts, thread_uuid(tid, th->gen), TRACK_EVENT_SLICE_END);
	if (sw) {
		track_event_str(&e, A_PREV_STATE, NULL, record_state_str(sw->prev_state, state,
							     sizeof(state)));
		track_event_bool(&e, A_PREEMPTED, NULL, sw->prev_state & KTP_STATE_PREEMPTED);
		if (th->scx_on) {
			track_event_str(&e, 0, "scx_dsq", th->scx_dsq[0] ? th->scx_dsq : "none");
			track_event_uint(&e, 0, "scx_slice_ns", th->scx_slice);
		}
		for (i = 0; i < (sw->h.flags & KTP_SWITCH_COUNTERS) && i < PF_MAX_COUNTERS; i++) {
			uint64_t v;

			memcpy(&v, counters + 8 * i, 8);
			track_event_uint(&e, 0, i < t->nr_counter_names ? t->counter_names[i] :
				"counter", v);
		}
	}
	th->scx_on = 0;
	th->scx_dsq[0] = '\0';
	return track_event_emit(t, &e);
}

/* End the slice of whichever thread but @tid is open on @cpu. */
static int end_other_oncpu(struct pf_threads *t, uint64_t ts, uint32_t cpu, uint32_t tid)
{
	uint32_t other = t->cpus[cpu].oncpu_tid;
	struct thr *th = other && other != tid ? u64_map_get(&t->threads, other) : NULL;

	if (!th || !th->open || th->open_cpu != cpu)
		return 0;
	return end_oncpu(t, ts, other, th, NULL, NULL);
}

/*
 * The cgroup v2 thread @tid runs in, as an arg of its slice (the model has
 * its latest CGROUP record): its path, or "(id N)" when no table names it.
 */
static void add_cgroup(struct pf_threads *t, struct track_event *e, uint32_t tid)
{
	const struct model *m = t->c->model;
	uint32_t k = sched_lookup_pid(&m->sched, tid);
	const char *path;
	uint64_t id;

	if (k == SCHED_NONE || !(id = sched_thread(&m->sched, k)->cgroup))
		return;
	path = model_cgroup_path(m, id);
	if (!path) {
		snprintf(t->cgroup_buf, sizeof(t->cgroup_buf), "(id %" PRIu64 ")", id);
		path = t->cgroup_buf;
	}
	track_event_str(e, A_CGROUP, NULL, path);
}

static int begin_oncpu(struct pf_threads *t, uint64_t ts, uint32_t tid, uint32_t cpu)
{
	struct track_event e;
	struct thr *th;
	int err;

	th = thread_event(t, tid, ts, TRACK_EVENT_SLICE_BEGIN, &e, &err);
	if (!th)
		return err;
	/* Its waking was not seen (lost): its sleep ends with it. */
	if ((err = end_sleep(t, ts, tid, th)))
		return err;
	/* Still open elsewhere: records were lost in between. */
	if (th->open && (err = end_oncpu(t, ts, tid, th, NULL, NULL)))
		return err;
	/* Another thread's slice open here: its switch away was not seen. */
	if ((err = end_other_oncpu(t, ts, cpu, tid)))
		return err;
	e.name_iid = N_ONCPU;
	track_event_uint(&e, A_CPU, NULL, cpu);
	add_cgroup(t, &e, tid);
	if (th->wake_flow)
		e.term[e.nterm++] = th->wake_flow;
	if (th->preempt_flow)
		e.term[e.nterm++] = th->preempt_flow;
	th->wake_flow = th->preempt_flow = 0;
	th->open = 1;
	th->open_cpu = cpu;
	t->cpus[cpu].oncpu_tid = tid;
	return track_event_emit(t, &e);
}

static int cpu_slice(struct pf_threads *t, uint64_t ts, uint32_t cpu,
		     unsigned int kind, enum track_event_type type, const char *name)
{
	struct track_event e;
	int ret = describe_cpu_track(t, cpu, kind);

	if (ret)
		return ret;
	track_event_init(&e, ts, cpu_uuid(cpu, kind), type);
	e.name = name;
	return track_event_emit(t, &e);
}

static const char *kernel_symbol(struct pf_threads *t, uint64_t addr, char *buf,
				 size_t len)
{
	struct frame f;

	symbolizer_frame(t->c->model->sym, 0, addr, 1, &f);
	return frame_str(&f, 0, buf, len);
}

/* A work item's slice on its CPU's workqueue track. */
static int wq_begin(struct pf_threads *t, uint64_t ts, uint32_t cpu, uint64_t func)
{
	char name[256];

	t->cpus[cpu].wq_open = 1;
	t->cpus[cpu].wq_pid = convert_current(t->c, cpu);
	return cpu_slice(t, ts, cpu, CT_WQ, TRACK_EVENT_SLICE_BEGIN,
			 kernel_symbol(t, func, name, sizeof(name)));
}

static int wq_end(struct pf_threads *t, uint64_t ts, uint32_t cpu)
{
	if (!t->cpus[cpu].wq_open)
		return 0;
	t->cpus[cpu].wq_open = 0;
	return cpu_slice(t, ts, cpu, CT_WQ, TRACK_EVENT_SLICE_END, NULL);
}

/* Whatever this CPU had open ends here (stop, offline, lost records). */
static int close_cpu(struct pf_threads *t, uint64_t ts, uint32_t cpu)
{
	struct cpu_state *cs = &t->cpus[cpu];
	uint32_t tid = cs->oncpu_tid;
	struct thr *th = tid ? u64_map_get(&t->threads, tid) : NULL;
	struct thr *worker = cs->wq_open ? u64_map_get(&t->threads, cs->wq_pid) : NULL;
	int ret = 0;

	/* Its end may be in the gap: not resumed when the worker runs again. */
	if (worker)
		worker->wq_func = 0;
	if (th && th->open && th->open_cpu == cpu)
		ret = end_oncpu(t, ts, tid, th, NULL, NULL);
	if (!ret && cs->irq_open) {
		cs->irq_open = 0;
		ret = cpu_slice(t, ts, cpu, CT_IRQ, TRACK_EVENT_SLICE_END, NULL);
	}
	if (!ret && cs->softirq_open) {
		cs->softirq_open = 0;
		ret = cpu_slice(t, ts, cpu, CT_SOFTIRQ, TRACK_EVENT_SLICE_END, NULL);
	}
	if (!ret)
		ret = wq_end(t, ts, cpu);
	return ret;
}

static int on_switch(struct pf_threads *t, const struct event *ev)
{
	struct ktp_switch sw;
	struct thr *prev = NULL;
	uint64_t flow = 0;
	int ret = 0;

	memcpy(&sw, ev->rec, sizeof(sw));
	if (sw.prev_pid && convert_selected(t->c, sw.prev_pid)) {
		prev = get_thr(t, sw.prev_pid);
		if (!prev)
			return -ENOMEM;
		if (prev->open && prev->open_cpu == ev->cpu)
			ret = end_oncpu(t, ev->ts, sw.prev_pid, prev, &sw,
					(const uint8_t *)ev->rec + sizeof(sw));
		if (!ret && (ev->flags & KTP_SWITCH_STACK))
			ret = begin_sleep(t, ev, sw.prev_pid, prev, sw.prev_state);
	}
	/*
	 * A worker switched out in the middle of a work item: pause it. (A
	 * work slice open for another worker, whose switch was lost, ends too:
	 * nothing runs a work item on a CPU that switches to another task.)
	 */
	if (!ret)
		ret = wq_end(t, ev->ts, ev->cpu);
	if (!ret && (sw.prev_state & KTP_STATE_PREEMPTED) && sw.next_pid) {
		flow = ++t->next_flow;
		ret = instant(t, ev->ts, sw.next_pid, N_PREEMPTOR, flow, "preempted_pid",
			      sw.prev_pid);
		if (!ret)
			ret = instant(t, ev->ts, sw.prev_pid, N_PREEMPTEE, flow, "by_pid",
				      sw.next_pid);
		if (prev)
			prev->preempt_flow = flow;
	}
	if (!ret && sw.next_pid)
		ret = begin_oncpu(t, ev->ts, sw.next_pid, ev->cpu);
	if (!ret && sw.next_pid) {
		struct thr *next = u64_map_get(&t->threads, sw.next_pid);

		/* A worker comes back to the work it was running (it runs now). */
		if (next && next->wq_func)
			ret = wq_begin(t, ev->ts, ev->cpu, next->wq_func);
	}
	return ret;
}

/* The waker's side of a waking's flow, with its stack (-S waker). */
static int waker_instant(struct pf_threads *t, const struct event *ev, uint32_t waker,
			 uint64_t flow, uint32_t wakee)
{
	uint32_t s = stack_table_find(&t->c->model->stacks, ev->cpu, record_stack_id(ev));
	const struct task_info *ti;
	struct track_event e;
	int err;

	if (s == STACK_NONE)
		return instant(t, ev->ts, waker, N_WAKER, flow, "wakee_pid", wakee);
	if (!thread_event(t, waker, ev->ts, TRACK_EVENT_INSTANT, &e, &err))
		return err;
	ti = task_table_get(&t->c->model->tasks, waker);
	e.name_iid = N_WAKER;
	e.flows[e.nflows++] = flow;
	track_event_uint(&e, 0, "wakee_pid", wakee);
	set_callstack(t, &e, s, ti ? ti->tgid : waker);
	return track_event_emit(t, &e);
}

static int on_waking(struct pf_threads *t, const struct event *ev)
{
	uint32_t waker = convert_current(t->c, ev->cpu);
	struct ktp_waking r;
	struct thr *wakee;
	uint64_t flow;
	int ret = 0;

	memcpy(&r, ev->rec, sizeof(r));
	if (!r.pid || !convert_selected(t->c, r.pid))
		return 0;
	wakee = get_thr(t, r.pid);
	if (!wakee)
		return -ENOMEM;
	/* A second waking before the wakee runs continues the same flow. */
	if (!wakee->wake_flow)
		wakee->wake_flow = ++t->next_flow;
	flow = wakee->wake_flow;
	if ((ret = end_sleep(t, ev->ts, r.pid, wakee)))
		return ret;
	if (waker && waker != UINT32_MAX)
		ret = waker_instant(t, ev, waker, flow, r.pid);
	if (!ret)
		ret = instant(t, ev->ts, r.pid, N_WAKEE, flow, "target_cpu", r.target_cpu);
	return ret;
}

static int on_fork(struct pf_threads *t, const struct event *ev)
{
	struct ktp_fork r;
	struct thr *th;

	memcpy(&r, ev->rec, sizeof(r));
	th = u64_map_get(&t->threads, r.child_pid);
	if (th && th->described) {
		/*
		 * A reused pid: the new task gets a new track. The old task is
		 * gone; a slice of it still open (its last switch was lost)
		 * ends here.
		 */
		int ret = end_oncpu(t, ev->ts, r.child_pid, th, NULL, NULL);

		if (!ret)
			ret = end_sleep(t, ev->ts, r.child_pid, th);
		if (!ret)
			ret = end_spans(t, ev->ts, r.child_pid, th);
		if (ret)
			return ret;
		th->gen++;
		th->described = th->spans_described = 0;
		th->pairs_described = 0;
		th->wake_flow = th->preempt_flow = th->wq_func = 0;
	}
	return instant(t, ev->ts, r.child_pid, N_FORK, 0, "parent_pid", r.parent_pid);
}

static int on_cpu_mark(struct pf_threads *t, const struct event *ev)
{
	struct ktp_cpu_mark m;

	memcpy(&m, ev->rec, sizeof(m));
	if (m.reason == KTP_CPU_START || m.reason == KTP_CPU_ONLINE)
		return m.pid ? begin_oncpu(t, ev->ts, m.pid, ev->cpu) : 0;
	return close_cpu(t, ev->ts, ev->cpu);
}

static int on_ipi(struct pf_threads *t, const struct event *ev)
{
	struct ktp_ipi r;
	char fn[256], name[64], targets[256];
	struct track_event e;
	int ret = describe_cpu_track(t, ev->cpu, CT_IPI);

	if (ret)
		return ret;
	memcpy(&r, ev->rec, sizeof(r));
	track_event_init(&e, ev->ts, cpu_uuid(ev->cpu, CT_IPI), TRACK_EVENT_INSTANT);
	if (!ev->flags) {
		snprintf(name, sizeof(name), "IPI to CPU %u", r.cpu);
		e.name = name;
		track_event_uint(&e, 0, "target_cpu", r.cpu);
	} else {
		e.name_iid = N_IPI;
		track_event_str(&e, 0, "target_cpus", record_ipi_targets(ev, targets, sizeof(targets)));
	}
	track_event_str(&e, 0, "function", r.callback ? kernel_symbol(t, r.callback, fn, sizeof(fn)) :
	       "reschedule");
	return track_event_emit(t, &e);
}

static int on_lost(struct pf_threads *t, const struct event *ev)
{
	struct track_event e;
	int ret = close_cpu(t, ev->ts, ev->cpu);

	if (!ret)
		ret = describe_cpu_track(t, ev->cpu, CT_LOST);
	if (ret)
		return ret;
	track_event_init(&e, ev->ts, cpu_uuid(ev->cpu, CT_LOST), TRACK_EVENT_INSTANT);
	e.name_iid = N_LOST;
	track_event_uint(&e, 0, ev->type == EVENT_LOST ? "records" : "invalid_bytes", ev->lost);
	return track_event_emit(t, &e);
}

static int on_task_exec(struct pf_threads *t, const struct event *ev)
{
	struct ktp_exec r;

	memcpy(&r, ev->rec, sizeof(r));
	return instant(t, ev->ts, r.pid, N_EXEC, 0, "old_pid", r.old_pid);
}

static int on_task_exit(struct pf_threads *t, const struct event *ev)
{
	struct ktp_exit r;

	memcpy(&r, ev->rec, sizeof(r));
	return instant(t, ev->ts, r.pid, N_EXIT, 0, "exit_code", (uint32_t)r.exit_code);
}

/*
 * Open an IRQ or softirq slice on its CPU track; an open one is ended first
 * (its exit was lost).
 */
static int cpu_slice_open(struct pf_threads *t, const struct event *ev, unsigned int track,
			  int *open, const char *name)
{
	int ret;

	if (*open &&
	    (ret = cpu_slice(t, ev->ts, ev->cpu, track, TRACK_EVENT_SLICE_END, NULL)))
		return ret;
	*open = 1;
	return cpu_slice(t, ev->ts, ev->cpu, track, TRACK_EVENT_SLICE_BEGIN, name);
}

/* End the open IRQ or softirq slice; an exit without its entry ends nothing. */
static int cpu_slice_close(struct pf_threads *t, const struct event *ev, unsigned int track,
			   int *open)
{
	if (!*open)
		return 0;
	*open = 0;
	return cpu_slice(t, ev->ts, ev->cpu, track, TRACK_EVENT_SLICE_END, NULL);
}

/* Slice names by hand (model_irq_label): IRQ entries are frequent. */
static int on_irq_entry(struct pf_threads *t, const struct event *ev)
{
	struct cpu_state *cs = &t->cpus[ev->cpu];
	char name[MODEL_IRQ_LABEL_MAX];
	struct ktp_irq r;

	memcpy(&r, ev->rec, sizeof(r));
	return cpu_slice_open(t, ev, CT_IRQ, &cs->irq_open,
			      model_irq_label(t->c->model, r.irq, name, sizeof(name)));
}

static int on_softirq_entry(struct pf_threads *t, const struct event *ev)
{
	static const char *const names[] = {
		"softirq HI", "softirq TIMER", "softirq NET_TX", "softirq NET_RX",
		"softirq BLOCK", "softirq IRQ_POLL", "softirq TASKLET", "softirq SCHED",
		"softirq HRTIMER", "softirq RCU",
	};
	struct cpu_state *cs = &t->cpus[ev->cpu];
	struct ktp_softirq r;

	memcpy(&r, ev->rec, sizeof(r));
	return cpu_slice_open(t, ev, CT_SOFTIRQ, &cs->softirq_open,
			      r.vec < sizeof(names) / sizeof(names[0]) ? names[r.vec] : "softirq ?");
}

/* A work item starts: its worker remembers the function until it ends. */
static int on_wq_start(struct pf_threads *t, const struct event *ev)
{
	uint32_t worker = convert_current(t->c, ev->cpu);
	struct thr *th = worker && worker != UINT32_MAX ? get_thr(t, worker) : NULL;
	struct ktp_wq r;
	int ret;

	memcpy(&r, ev->rec, sizeof(r));
	if (t->cpus[ev->cpu].wq_open && (ret = wq_end(t, ev->ts, ev->cpu)))
		return ret;
	if (th)
		th->wq_func = r.function;
	return wq_begin(t, ev->ts, ev->cpu, r.function);
}

static int on_wq_end(struct pf_threads *t, const struct event *ev)
{
	uint32_t worker = convert_current(t->c, ev->cpu);
	struct thr *th = worker && worker != UINT32_MAX ?
		u64_map_get(&t->threads, worker) : NULL;

	if (th)
		th->wq_func = 0;
	return wq_end(t, ev->ts, ev->cpu);
}

static int on_irq_exit(struct pf_threads *t, const struct event *ev)
{
	return cpu_slice_close(t, ev, CT_IRQ, &t->cpus[ev->cpu].irq_open);
}

static int on_softirq_exit(struct pf_threads *t, const struct event *ev)
{
	return cpu_slice_close(t, ev, CT_SOFTIRQ, &t->cpus[ev->cpu].softirq_open);
}

/*
 * sched_ext: a task's slice at its switch-in, shown with the DSQ it came
 * from on its ONCPU slice (as args of the slice's end: the record follows
 * the switch's).
 */
static int on_scx_task(struct pf_threads *t, const struct event *ev)
{
	struct ktp_scx_task r;
	struct thr *th;

	memcpy(&r, ev->rec, sizeof(r));
	if (ev->flags != KTP_SCX_AT_SWITCH_IN || !(th = u64_map_get(&t->threads, r.pid)) ||
	    !th->open)
		return 0;
	th->scx_on = 1;
	th->scx_slice = r.slice;
	return 0;
}

/* A DSQ's counter track, described at its first change. */
static int dsq_track(struct pf_threads *t, const struct ktp_scx_dsq *r, uint64_t *uuid)
{
	Perfetto__Protos__TrackDescriptor d = PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
	Perfetto__Protos__CounterDescriptor cd = PERFETTO__PROTOS__COUNTER_DESCRIPTOR__INIT;
	uint64_t key = record_dsq_key(r->dsq_id, r->dsq_uid);
	uintptr_t i = (uintptr_t)u64_map_get(&t->dsqs, key);
	char id[40], name[64];

	if (i) {
		*uuid = dsq_uuid(i);
		return 0;
	}
	i = ++t->nr_dsqs;
	if (u64_map_put(&t->dsqs, key, (void *)i))
		return -ENOMEM;
	snprintf(name, sizeof(name), "DSQ %s depth",
		 record_dsq_label(r->dsq_id, r->cpu, id, sizeof(id)));
	d.has_uuid = 1;
	d.uuid = *uuid = dsq_uuid(i);
	d.name = name;
	cd.has_unit = 1;
	cd.unit = PERFETTO__PROTOS__COUNTER_DESCRIPTOR__UNIT__UNIT_COUNT;
	d.counter = &cd;
	return emit_descriptor(t, &d);
}

/* Into or out of a DSQ: its depth on its counter track. */
static int on_scx_dsq(struct pf_threads *t, const struct event *ev)
{
	struct ktp_scx_dsq r;
	struct track_event e;
	struct thr *th;
	uint64_t uuid;
	int ret;

	memcpy(&r, ev->rec, sizeof(r));
	if (!(ev->flags & KTP_SCX_DSQ_INSERT) && (th = u64_map_get(&t->threads, r.pid)))
		record_dsq_label(r.dsq_id, r.cpu, th->scx_dsq, sizeof(th->scx_dsq));
	if ((ret = dsq_track(t, &r, &uuid)))
		return ret;
	track_event_init(&e, ev->ts, uuid, TRACK_EVENT_COUNTER);
	e.counter = r.nr;
	return track_event_emit(t, &e);
}

typedef int (*record_fn)(struct pf_threads *t, const struct event *ev);

/* What each record type does to the view (the others do nothing). */
/*
 * A hit of probe @id on @tid and the probe pairs (record --span): a pair's
 * begin opens a slice named after the pair on the thread's track of the
 * pair, its end closes the innermost one there; an end with none open is
 * its hit's instant alone.
 */
static int pair_spans(struct pf_threads *t, const struct event *ev, uint32_t id, uint32_t tid,
		      struct thr *th)
{
	struct track_event e;
	unsigned int k;
	int ret = 0;

	for (k = 0; !ret && k < t->pairs.n; k++) {
		const struct span_spec *p = &t->pairs.spans[k];

		if (id != p->begin_id && (id != p->end_id || !th->pairs_open || !th->pairs_open[k]))
			continue;
		if (!th->pairs_open && !(th->pairs_open = calloc(t->pairs.n, sizeof(uint32_t))))
			return -ENOMEM;
		if (id == p->end_id) {
			th->pairs_open[k]--;
			track_event_init(&e, ev->ts, pair_uuid(tid, th->gen, k), TRACK_EVENT_SLICE_END);
		} else {
			ret = describe_pair(t, tid, th, k);
			if (ret)
				return ret;
			th->pairs_open[k]++;
			track_event_init(&e, ev->ts, pair_uuid(tid, th->gen, k),
					 TRACK_EVENT_SLICE_BEGIN);
			e.name = p->name;
		}
		ret = track_event_emit(t, &e);
	}
	return ret;
}

/*
 * A probe hit: an instant on its thread's track named after the probe,
 * its arguments as annotations (numbers as the module kept them: masked
 * to their width; a signed one's type is in the probe's spec).
 */
static int on_probe(struct pf_threads *t, const struct event *ev)
{
	const struct probe_spec *spec;
	struct ktp_probe_hit h;
	struct track_event e;
	struct thr *th;
	char name[PROBE_NAME_MAX + 16];
	unsigned int i;
	const char *s;
	uint32_t len;
	uint64_t v;
	int err;

	memcpy(&h, ev->rec, sizeof(h));
	th = thread_event(t, h.pid, ev->ts, TRACK_EVENT_INSTANT, &e, &err);
	if (!th)
		return err;
	spec = probe_table_get(&t->probes, h.id);
	if (spec)
		snprintf(name, sizeof(name), "%s", spec->name);
	else
		snprintf(name, sizeof(name), "probe %u", h.id);
	e.name = name;
	for (i = 0; i < h.nargs && i < KTP_PROBE_MAX_ARGS; i++) {
		const char *key = spec && i < spec->nargs ? spec->args[i].name : NULL;

		if (record_probe_arg(ev, i, &v, &s, &len))
			continue;
		if (!key) {
			snprintf(t->str_buf[KTP_PROBE_MAX_ARGS] + 8 * i, 8, "arg%u", i);
			key = t->str_buf[KTP_PROBE_MAX_ARGS] + 8 * i;
		}
		if (s) {
			memcpy(t->str_buf[i], s, len);
			t->str_buf[i][len] = '\0';
			track_event_str(&e, 0, key, t->str_buf[i]);
		} else if (spec && i < spec->nargs && spec->args[i].show == PROBE_SHOW_SIGNED) {
			track_event_int(&e, 0, key, probe_arg_signed(&spec->args[i], v));
		} else {
			track_event_uint(&e, 0, key, v);
		}
	}
	err = track_event_emit(t, &e);
	return err ? err : pair_spans(t, ev, h.id, h.pid, th);
}

/*
 * A marker: an instant on its writer's track named by its text. A span's
 * begin opens a slice of that name on the writer's spans track instead,
 * and its end closes the innermost one there; an end with none open is
 * an instant (span=end, unmatched).
 */
static int on_mark(struct pf_threads *t, const struct event *ev)
{
	struct ktp_mark m;
	struct track_event e;
	const char *text;
	struct thr *th;
	uint32_t len;
	int err;

	memcpy(&m, ev->rec, sizeof(m));
	th = track_of(t, m.pid, &err);
	if (!th)
		return err;
	text = record_mark_text(ev, &len);
	/* A packet's names stay under 512 bytes (track-event.h). */
	len = len < 500 ? len : 500;
	memcpy(t->str_buf[0], text, len);
	t->str_buf[0][len] = '\0';
	if (ev->flags & KTP_MARK_BEGIN) {
		err = describe_spans(t, m.pid, th);
		if (err)
			return err;
		track_event_init(&e, ev->ts, spans_uuid(m.pid, th->gen), TRACK_EVENT_SLICE_BEGIN);
		th->spans_open++;
	} else if ((ev->flags & KTP_MARK_END) && th->spans_open) {
		track_event_init(&e, ev->ts, spans_uuid(m.pid, th->gen), TRACK_EVENT_SLICE_END);
		th->spans_open--;
		return track_event_emit(t, &e);
	} else {
		track_event_init(&e, ev->ts, thread_uuid(m.pid, th->gen), TRACK_EVENT_INSTANT);
		if (ev->flags & KTP_MARK_END) {
			track_event_str(&e, 0, "span", "end");
			track_event_bool(&e, 0, "unmatched", 1);
		}
	}
	e.name = t->str_buf[0][0] ? t->str_buf[0] : "marker";
	return track_event_emit(t, &e);
}

static const record_fn on_record[KTP_REC_NR_TYPES] = {
	[KTP_REC_SWITCH] = on_switch,
	[KTP_REC_WAKING] = on_waking,
	[KTP_REC_FORK] = on_fork,
	[KTP_REC_EXEC] = on_task_exec,
	[KTP_REC_EXIT] = on_task_exit,
	[KTP_REC_CPU] = on_cpu_mark,
	[KTP_REC_IRQ_ENTRY] = on_irq_entry,
	[KTP_REC_IRQ_EXIT] = on_irq_exit,
	[KTP_REC_SOFTIRQ_ENTRY] = on_softirq_entry,
	[KTP_REC_SOFTIRQ_EXIT] = on_softirq_exit,
	[KTP_REC_IPI_SEND] = on_ipi,
	[KTP_REC_WQ_START] = on_wq_start,
	[KTP_REC_WQ_END] = on_wq_end,
	[KTP_REC_SCX_TASK] = on_scx_task,
	[KTP_REC_SCX_DSQ] = on_scx_dsq,
	[KTP_REC_PROBE] = on_probe,
	[KTP_REC_MARK] = on_mark,
};

/*
 * @cpu's run-queue depth as the scheduler model counts it (report
 * --balance: the thread it runs and those waiting), when it changed.
 */
static int depth_update(struct pf_threads *t, uint64_t ts, uint32_t cpu)
{
	int d = cpu < t->c->nr_cpus ? sched_cpu_depth(&t->c->model->sched, cpu) : -1;
	struct track_event e;
	int ret;

	if (d < 0 || d == t->cpus[cpu].depth)
		return 0;
	if ((ret = describe_cpu_track(t, cpu, CT_DEPTH)))
		return ret;
	t->cpus[cpu].depth = d;
	track_event_init(&e, ts, cpu_uuid(cpu, CT_DEPTH), TRACK_EVENT_COUNTER);
	e.counter = d;
	return track_event_emit(t, &e);
}

/* The model's wait hook: the CPUs a thread's wait left and entered. */
static void on_wait(void *ctx, uint32_t tid, int32_t from, int32_t to, uint64_t ts)
{
	struct pf_threads *t = ctx;
	int32_t cpus[2] = { from, to };
	unsigned int i;

	(void)tid;
	(void)ts;
	for (i = 0; i < 2; i++) {
		if (cpus[i] < 0 || (uint32_t)cpus[i] >= t->c->nr_cpus || t->cpus[cpus[i]].dirty)
			continue;
		t->cpus[cpus[i]].dirty = 1;
		t->dirty[t->nr_dirty++] = (uint32_t)cpus[i];
	}
}

static const struct sched_ops depth_ops = { .wait = on_wait };

/* After an event: the depth of its CPU, and of those a wait moved from or to. */
static int depths_update(struct pf_threads *t, const struct event *ev)
{
	int ret = depth_update(t, ev->ts, ev->cpu);

	while (!ret && t->nr_dirty) {
		uint32_t cpu = t->dirty[--t->nr_dirty];

		t->cpus[cpu].dirty = 0;
		ret = depth_update(t, ev->ts, cpu);
	}
	return ret;
}

static int threads_event(void *view, const struct event *ev)
{
	struct pf_threads *t = view;
	int ret;

	if (ev->cpu >= t->c->nr_cpus)
		return 0;
	t->last_ts = ev->ts;
	if (ev->type == EVENT_LOST || ev->type == EVENT_GARBAGE)
		return on_lost(t, ev);
	ret = ev->type < KTP_REC_NR_TYPES && on_record[ev->type] ?
	      on_record[ev->type](t, ev) : 0;
	return ret ? ret : depths_update(t, ev);
}

static void threads_destroy(void *view);

static void *threads_create(struct convert_ctx *c)
{
	struct pf_threads *t = calloc(1, sizeof(*t));
	char *list, *tok, *save = NULL;
	unsigned int i;

	if (!t)
		return NULL;
	t->c = c;
	/* Unreadable: the hits are named by their ids. */
	if (input_probes(c->model->in) &&
	    probe_table_parse(input_probes(c->model->in), &t->probes, NULL))
		memset(&t->probes, 0, sizeof(t->probes));
	/* Unreadable, or the probes': no probe pairs, as report --probes. */
	if (span_table_parse(input_spans(c->model->in), &t->probes, &t->pairs, NULL))
		memset(&t->pairs, 0, sizeof(t->pairs));
	u64_map_init(&t->threads);
	u64_map_init(&t->dsqs);
	u64_map_init(&t->processes);
	t->cpus = calloc(c->nr_cpus, sizeof(*t->cpus));
	if (!t->cpus) {
		free(t);
		return NULL;
	}
	for (i = 0; i < c->nr_cpus; i++)
		t->cpus[i].depth = -1;
	t->dirty = malloc((c->nr_cpus + 1) * sizeof(*t->dirty));
	if (!t->dirty || model_add_client(c->model, &depth_ops, t, 0)) {
		threads_destroy(t);
		return NULL;
	}
	/* Counter deltas are named after the events counted. */
	list = strdup(c->meta ? c->meta->counters : "");
	for (tok = list ? strtok_r(list, ",", &save) : NULL;
	     tok && t->nr_counter_names < PF_MAX_COUNTERS;
	     tok = strtok_r(NULL, ",", &save))
		t->counter_names[t->nr_counter_names++] = strdup(tok);
	free(list);
	return t;
}

static int threads_finish(void *view)
{
	struct pf_threads *t = view;
	unsigned int cpu;
	int ret = 0;

	size_t i = 0;
	uint64_t tid;
	void *th;

	for (cpu = 0; !ret && cpu < t->c->nr_cpus; cpu++)
		ret = close_cpu(t, t->last_ts, cpu);
	while (!ret && u64_map_next(&t->threads, &i, &tid, &th)) {
		ret = end_sleep(t, t->last_ts, tid, th);
		if (!ret)
			ret = end_spans(t, t->last_ts, tid, th);
	}
	return ret;
}

static void threads_destroy(void *view)
{
	struct pf_threads *t = view;
	size_t i = 0;
	uint64_t k;
	void *v;

	if (!t)
		return;
	while (u64_map_next(&t->threads, &i, &k, &v)) {
		free(((struct thr *)v)->pairs_open);
		free(v);
	}
	u64_map_fini(&t->threads);
	u64_map_fini(&t->dsqs);
	probe_table_fini(&t->probes);
	span_table_fini(&t->pairs);
	u64_map_fini(&t->processes);
	for (i = 0; i < t->nr_counter_names; i++)
		free(t->counter_names[i]);
	free(t->cpus);
	free(t->dirty);
	free(t);
}

const struct convert_view pf_threads_view = {
	.name = "threads",
	.create = threads_create,
	.event = threads_event,
	.finish = threads_finish,
	.destroy = threads_destroy,
};
