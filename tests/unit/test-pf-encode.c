// SPDX-License-Identifier: GPL-2.0
/*
 * The hand encoders (TrackEvent packets, ftrace bundles) must give exactly
 * the bytes protobuf-c gives for the same message: protobuf-c is the
 * reference, built here from the same inputs.
 */
#include <errno.h>

#include "perfetto.pb-c.h"
#include "perfetto/pb.h"
#include "perfetto/pf-bundle.h"
#include "perfetto/track-event.h"
#include "unit.h"

static void check_same(const uint8_t *got, size_t got_len,
		       const Perfetto__Protos__TracePacket *want_msg)
{
	size_t want_len = perfetto__protos__trace_packet__get_packed_size(want_msg);
	uint8_t *want = malloc(want_len);
	size_t i;

	perfetto__protos__trace_packet__pack(want_msg, want);
	CHECK_EQ(got_len, want_len);
	for (i = 0; i < got_len && i < want_len; i++) {
		if (got[i] != want[i]) {
			UNIT_FAIL("byte %zu: 0x%02x, protobuf-c has 0x%02x", i, got[i],
				  want[i]);
			break;
		}
	}
	free(want);
}

/* The protobuf-c form of a struct track_event. */
static void te_reference(const struct track_event *e, Perfetto__Protos__TracePacket *pkt,
			 Perfetto__Protos__TrackEvent *ev,
			 Perfetto__Protos__DebugAnnotation *ann,
			 Perfetto__Protos__DebugAnnotation **annp)
{
	unsigned int i;

	perfetto__protos__trace_packet__init(pkt);
	perfetto__protos__track_event__init(ev);
	pkt->has_timestamp = pkt->has_trusted_packet_sequence_id = 1;
	pkt->has_sequence_flags = 1;
	pkt->timestamp = e->ts;
	pkt->trusted_packet_sequence_id = e->seq_id;
	pkt->sequence_flags = e->seq_flags;
	ev->has_type = ev->has_track_uuid = 1;
	ev->type = (Perfetto__Protos__TrackEvent__Type)e->type;
	ev->track_uuid = e->track;
	if (e->name_iid) {
		ev->has_name_iid = 1;
		ev->name_iid = e->name_iid;
	} else {
		ev->name = (char *)e->name;
	}
	for (i = 0; i < e->nann; i++) {
		perfetto__protos__debug_annotation__init(&ann[i]);
		if (e->ann[i].name_iid) {
			ann[i].has_name_iid = 1;
			ann[i].name_iid = e->ann[i].name_iid;
		} else {
			ann[i].name = (char *)e->ann[i].name;
		}
		if (e->ann[i].kind == TRACK_EVENT_UINT) {
			ann[i].has_uint_value = 1;
			ann[i].uint_value = e->ann[i].u;
		} else if (e->ann[i].kind == TRACK_EVENT_BOOL) {
			ann[i].has_bool_value = 1;
			ann[i].bool_value = e->ann[i].u;
		} else {
			ann[i].string_value = (char *)e->ann[i].s;
		}
		annp[i] = &ann[i];
	}
	ev->n_debug_annotations = e->nann;
	ev->debug_annotations = annp;
	ev->n_flow_ids = e->nflows;
	ev->flow_ids = (uint64_t *)e->flows;
	ev->n_terminating_flow_ids = e->nterm;
	ev->terminating_flow_ids = (uint64_t *)e->term;
	if (e->type == TRACK_EVENT_COUNTER) {
		ev->has_counter_value = 1;
		ev->counter_value = e->counter;
	}
	pkt->data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT;
	pkt->track_event = ev;
}

static void te_case(const struct track_event *e)
{
	Perfetto__Protos__TracePacket pkt;
	Perfetto__Protos__TrackEvent ev;
	Perfetto__Protos__DebugAnnotation ann[TRACK_EVENT_MAX_ANN], *annp[TRACK_EVENT_MAX_ANN];
	uint8_t buf[TRACK_EVENT_MAX_BYTES];
	struct pb_buf b;

	pb_init(&b, buf, sizeof(buf));
	track_event_encode(e, &b);
	CHECK(!b.overflow);
	te_reference(e, &pkt, &ev, ann, annp);
	check_same(buf, b.len, &pkt);
}

UNIT_TEST(track_event_bytes_equal_protobuf_c)
{
	struct track_event e;
	char longname[300];

	track_event_init(&e, 1234567890123ull, (2ull << 56) | 4242, TRACK_EVENT_SLICE_BEGIN);
	e.seq_id = 2;
	e.seq_flags = 2;
	e.name_iid = 1;
	track_event_uint(&e, 1, NULL, 3);
	e.term[e.nterm++] = 77;
	e.term[e.nterm++] = 1ull << 40;
	te_case(&e);

	track_event_init(&e, 5, 9, TRACK_EVENT_SLICE_END);
	e.seq_id = 2;
	e.seq_flags = 2;
	track_event_str(&e, 2, NULL, "R+");
	track_event_bool(&e, 3, NULL, 1);
	track_event_uint(&e, 0, "cycles", 123456789012ull);
	track_event_uint(&e, 0, "instructions", 0);
	te_case(&e);

	/* Nested lengths past 127 bytes move the body: still the same bytes. */
	memset(longname, 'x', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	track_event_init(&e, ~0ull, ~0ull, TRACK_EVENT_INSTANT);
	e.seq_id = 2;
	e.seq_flags = 3;
	e.name = longname;
	track_event_str(&e, 0, "function", longname);
	e.flows[e.nflows++] = 1;
	te_case(&e);

	/* Counters (a DSQ's depth), a negative value too: int64 as its varint. */
	track_event_init(&e, 42, (4ull << 56) | 3, TRACK_EVENT_COUNTER);
	e.seq_id = 2;
	e.seq_flags = 2;
	e.counter = 7;
	te_case(&e);
	e.counter = -1;
	te_case(&e);
}

UNIT_TEST(track_event_overflow_is_reported)
{
	uint8_t buf[16];
	struct pb_buf b;
	struct track_event e;

	track_event_init(&e, 1, 2, TRACK_EVENT_INSTANT);
	e.name = "a name longer than the buffer";
	pb_init(&b, buf, sizeof(buf));
	track_event_encode(&e, &b);
	CHECK(b.overflow);
}

/* The protobuf-c form of one plain event. */
static void plain_reference(const struct pf_plain *p, Perfetto__Protos__FtraceEvent *fe,
			    void *payload)
{
	perfetto__protos__ftrace_event__init(fe);
	fe->has_timestamp = 1;
	fe->has_pid = p->pid != PF_PID_UNKNOWN;
	fe->timestamp = p->ts;
	fe->pid = p->pid;
	switch (p->kind) {
	case PLAIN_WAKEUP_NEW: {
		Perfetto__Protos__SchedWakeupNewFtraceEvent *x = payload;

		perfetto__protos__sched_wakeup_new_ftrace_event__init(x);
		x->comm = p->s1;
		x->has_pid = x->has_prio = x->has_success = x->has_target_cpu = 1;
		x->pid = p->a;
		x->prio = p->b;
		x->success = 1;
		x->target_cpu = p->c;
		fe->event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_WAKEUP_NEW;
		fe->sched_wakeup_new = x;
		break;
	}
	case PLAIN_MIGRATE: {
		Perfetto__Protos__SchedMigrateTaskFtraceEvent *x = payload;

		perfetto__protos__sched_migrate_task_ftrace_event__init(x);
		x->comm = p->s1;
		x->has_pid = x->has_orig_cpu = x->has_dest_cpu = 1;
		x->pid = p->a;
		x->orig_cpu = p->c;
		x->dest_cpu = p->d;
		fe->event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_MIGRATE_TASK;
		fe->sched_migrate_task = x;
		break;
	}
	case PLAIN_FORK: {
		Perfetto__Protos__SchedProcessForkFtraceEvent *x = payload;

		perfetto__protos__sched_process_fork_ftrace_event__init(x);
		x->parent_comm = p->s1;
		x->child_comm = p->s2;
		x->has_parent_pid = x->has_child_pid = 1;
		x->parent_pid = p->a;
		x->child_pid = p->b;
		fe->event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_PROCESS_FORK;
		fe->sched_process_fork = x;
		break;
	}
	case PLAIN_NEWTASK: {
		Perfetto__Protos__TaskNewtaskFtraceEvent *x = payload;

		perfetto__protos__task_newtask_ftrace_event__init(x);
		x->has_pid = x->has_clone_flags = 1;
		x->pid = p->a;
		x->comm = p->s1;
		x->clone_flags = p->b;
		fe->event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_TASK_NEWTASK;
		fe->task_newtask = x;
		break;
	}
	case PLAIN_RENAME: {
		Perfetto__Protos__TaskRenameFtraceEvent *x = payload;

		perfetto__protos__task_rename_ftrace_event__init(x);
		x->has_pid = 1;
		x->pid = p->a;
		x->oldcomm = p->s1;
		x->newcomm = p->s2;
		fe->event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_TASK_RENAME;
		fe->task_rename = x;
		break;
	}
	case PLAIN_EXEC: {
		Perfetto__Protos__SchedProcessExecFtraceEvent *x = payload;

		perfetto__protos__sched_process_exec_ftrace_event__init(x);
		x->filename = p->s1;
		x->has_pid = x->has_old_pid = 1;
		x->pid = p->a;
		x->old_pid = p->b;
		fe->event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_PROCESS_EXEC;
		fe->sched_process_exec = x;
		break;
	}
	case PLAIN_EXIT: {
		Perfetto__Protos__SchedProcessExitFtraceEvent *x = payload;

		perfetto__protos__sched_process_exit_ftrace_event__init(x);
		x->comm = p->s1;
		x->has_pid = x->has_tgid = 1;
		x->pid = p->a;
		x->tgid = p->b;
		fe->event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_PROCESS_EXIT;
		fe->sched_process_exit = x;
		break;
	}
	case PLAIN_FREE: {
		Perfetto__Protos__SchedProcessFreeFtraceEvent *x = payload;

		perfetto__protos__sched_process_free_ftrace_event__init(x);
		x->comm = p->s1;
		x->has_pid = 1;
		x->pid = p->a;
		fe->event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_PROCESS_FREE;
		fe->sched_process_free = x;
		break;
	}
	case PLAIN_IRQ_ENTRY: {
		Perfetto__Protos__IrqHandlerEntryFtraceEvent *x = payload;

		perfetto__protos__irq_handler_entry_ftrace_event__init(x);
		x->has_irq = 1;
		x->irq = p->a;
		x->name = p->s1;
		fe->event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_IRQ_HANDLER_ENTRY;
		fe->irq_handler_entry = x;
		break;
	}
	case PLAIN_IRQ_EXIT: {
		Perfetto__Protos__IrqHandlerExitFtraceEvent *x = payload;

		perfetto__protos__irq_handler_exit_ftrace_event__init(x);
		x->has_irq = x->has_ret = 1;
		x->irq = p->a;
		x->ret = p->b;
		fe->event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_IRQ_HANDLER_EXIT;
		fe->irq_handler_exit = x;
		break;
	}
	case PLAIN_SOFTIRQ_ENTRY:
	case PLAIN_SOFTIRQ_EXIT: {
		Perfetto__Protos__SoftirqEntryFtraceEvent *x = payload;

		/* Entry and exit have the same layout (vec = 1). */
		perfetto__protos__softirq_entry_ftrace_event__init(x);
		x->has_vec = 1;
		x->vec = p->a;
		if (p->kind == PLAIN_SOFTIRQ_ENTRY) {
			fe->event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SOFTIRQ_ENTRY;
			fe->softirq_entry = x;
		} else {
			Perfetto__Protos__SoftirqExitFtraceEvent *y = payload;

			perfetto__protos__softirq_exit_ftrace_event__init(y);
			y->has_vec = 1;
			y->vec = p->a;
			fe->event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SOFTIRQ_EXIT;
			fe->softirq_exit = y;
		}
		break;
	}
	case PLAIN_CPU_IDLE: {
		Perfetto__Protos__CpuIdleFtraceEvent *x = payload;

		perfetto__protos__cpu_idle_ftrace_event__init(x);
		x->has_state = x->has_cpu_id = 1;
		x->state = p->a;
		x->cpu_id = p->b;
		fe->event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_CPU_IDLE;
		fe->cpu_idle = x;
		break;
	}
	case PLAIN_CPU_FREQUENCY: {
		Perfetto__Protos__CpuFrequencyFtraceEvent *x = payload;

		perfetto__protos__cpu_frequency_ftrace_event__init(x);
		x->has_state = x->has_cpu_id = 1;
		x->state = p->a;
		x->cpu_id = p->b;
		fe->event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_CPU_FREQUENCY;
		fe->cpu_frequency = x;
		break;
	}
	default:
		break;
	}
}

union payload {
	Perfetto__Protos__SchedWakeupNewFtraceEvent a;
	Perfetto__Protos__SchedMigrateTaskFtraceEvent b;
	Perfetto__Protos__SchedProcessForkFtraceEvent c;
	Perfetto__Protos__TaskNewtaskFtraceEvent d;
	Perfetto__Protos__TaskRenameFtraceEvent e;
	Perfetto__Protos__SchedProcessExecFtraceEvent f;
	Perfetto__Protos__SchedProcessExitFtraceEvent g;
	Perfetto__Protos__SchedProcessFreeFtraceEvent h;
	Perfetto__Protos__IrqHandlerEntryFtraceEvent i;
	Perfetto__Protos__IrqHandlerExitFtraceEvent j;
	Perfetto__Protos__SoftirqEntryFtraceEvent k;
	Perfetto__Protos__SoftirqExitFtraceEvent l;
	Perfetto__Protos__CpuIdleFtraceEvent m;
	Perfetto__Protos__CpuFrequencyFtraceEvent n;
};

#define NSW 300
#define NWK 200

/* The reference intern table: first appearance order, as the bundle does. */
static uint32_t ref_intern(char **table, size_t *n, const char *comm)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (!strcmp(table[i], comm))
			return i;
	table[*n] = (char *)comm;
	return (*n)++;
}

UNIT_TEST(bundle_bytes_equal_protobuf_c)
{
	static const char *const comms[] = { "swapper/3", "kworker/3:1", "sched-mix",
					     "a-much-longer-comm" };
	Perfetto__Protos__TracePacket pkt = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	Perfetto__Protos__FtraceEventBundle fb = PERFETTO__PROTOS__FTRACE_EVENT_BUNDLE__INIT;
	Perfetto__Protos__FtraceEventBundle__CompactSched cs =
		PERFETTO__PROTOS__FTRACE_EVENT_BUNDLE__COMPACT_SCHED__INIT;
	Perfetto__Protos__FtraceEvent fe[PLAIN_NR_KINDS], *fep[PLAIN_NR_KINDS];
	union payload pl[PLAIN_NR_KINDS];
	uint64_t sw_ts[NSW], wk_ts[NWK], ts = 1000000000000ull, prev_sw = 0, prev_wk = 0;
	int64_t sw_state[NSW];
	int32_t sw_pid[NSW], sw_prio[NSW], wk_pid[NWK], wk_cpu[NWK], wk_prio[NWK];
	uint32_t sw_comm[NSW], wk_comm[NWK];
	char *intern[8], *long_path = malloc(3000);
	size_t nintern = 0;
	struct pf_plain copy[PLAIN_NR_KINDS];
	struct pf_bundle b;
	struct pb_buf out;
	unsigned int i, nsw = 0, nwk = 0, k;
	uint8_t *buf = malloc(1 << 20);

	memset(long_path, 'p', 2999);
	long_path[2999] = '\0';
	/* Zeroed: empty, and its arrays grow (rehashing the comms) as it fills. */
	memset(&b, 0, sizeof(b));
	b.lost = 1;
	/* Switches and wakings interleaved, negative prios (deadline) too. */
	for (i = 0; i < NSW + NWK; i++) {
		const char *c = comms[(i * 7) % 4];

		ts += 1 + (i * 7919) % 100000;
		if (i % 5 < 3 && nsw < NSW) {
			sw_state[nsw] = i % 11 == 0 ? 0x100 : i % 3;
			sw_pid[nsw] = i % 4 ? 1000 + i : 0;
			sw_prio[nsw] = i % 7 ? 120 : -1;
			sw_comm[nsw] = ref_intern(intern, &nintern, c);
			sw_ts[nsw] = ts - prev_sw;
			prev_sw = ts;
			CHECK_EQ(pf_bundle_room(&b, 1), 0);
			CHECK_EQ(pf_bundle_switch(&b, ts, sw_state[nsw], sw_pid[nsw], sw_prio[nsw],
						  c), 0);
			nsw++;
		} else if (nwk < NWK) {
			wk_pid[nwk] = 2000 + i;
			wk_cpu[nwk] = i % 4;
			wk_prio[nwk] = i % 9 ? 100 : -1;
			wk_comm[nwk] = ref_intern(intern, &nintern, c);
			wk_ts[nwk] = ts - prev_wk;
			prev_wk = ts;
			CHECK_EQ(pf_bundle_room(&b, 1), 0);
			CHECK_EQ(pf_bundle_waking(&b, ts, wk_pid[nwk], wk_cpu[nwk], wk_prio[nwk],
						  c), 0);
			nwk++;
		}
	}
	/* One plain event of every kind, signed and large values included. */
	for (k = 1; k < PLAIN_NR_KINDS; k++) {
		uint32_t current = k == PLAIN_MIGRATE ? PF_PID_UNKNOWN : 40 + k;
		struct pf_plain *p;

		CHECK_EQ(pf_bundle_room(&b, 1), 0);
		p = pf_bundle_plain(&b, ts + k, current, k);

		p->a = 100 + k;
		p->b = k == PLAIN_IRQ_EXIT ? -1 : k == PLAIN_NEWTASK ? 0x10000 : 7;
		p->c = 2;
		p->d = 3;
		p->s1 = strdup(k == PLAIN_EXEC ? long_path : "comm-one");
		p->s2 = strdup("comm-two");
		copy[k] = *p;
		copy[k].s1 = strdup(p->s1);
		copy[k].s2 = strdup(p->s2);
		plain_reference(&copy[k], &fe[k - 1], &pl[k - 1]);
		fep[k - 1] = &fe[k - 1];
	}
	pb_init(&out, buf, 1 << 20);
	CHECK_EQ(pf_bundle_encode(&b, 3, 1, &out), 0);
	CHECK(pf_bundle_empty(&b));

	cs.n_switch_timestamp = cs.n_switch_prev_state = cs.n_switch_next_pid = nsw;
	cs.n_switch_next_prio = cs.n_switch_next_comm_index = nsw;
	cs.switch_timestamp = sw_ts;
	cs.switch_prev_state = sw_state;
	cs.switch_next_pid = sw_pid;
	cs.switch_next_prio = sw_prio;
	cs.switch_next_comm_index = sw_comm;
	cs.n_waking_timestamp = cs.n_waking_pid = cs.n_waking_target_cpu = nwk;
	cs.n_waking_prio = cs.n_waking_comm_index = nwk;
	cs.waking_timestamp = wk_ts;
	cs.waking_pid = wk_pid;
	cs.waking_target_cpu = wk_cpu;
	cs.waking_prio = wk_prio;
	cs.waking_comm_index = wk_comm;
	cs.n_intern_table = nintern;
	cs.intern_table = intern;
	fb.has_cpu = fb.has_lost_events = 1;
	fb.cpu = 3;
	fb.lost_events = 1;
	fb.n_event = PLAIN_NR_KINDS - 1;
	fb.event = fep;
	fb.compact_sched = &cs;
	pkt.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_FTRACE_EVENTS;
	pkt.ftrace_events = &fb;
	pkt.has_trusted_packet_sequence_id = 1;
	pkt.trusted_packet_sequence_id = 1;
	check_same(buf, out.len, &pkt);

	/* Too small a buffer: an error, and the bundle is kept for a retry. */
	CHECK_EQ(pf_bundle_room(&b, 1), 0);
	CHECK_EQ(pf_bundle_switch(&b, ts + 100, 0, 5, 120, "x"), 0);
	pb_init(&out, buf, 4);
	CHECK_EQ(pf_bundle_encode(&b, 3, 1, &out), -EMSGSIZE);
	CHECK_EQ(b.nsw, 1);
	for (k = 1; k < PLAIN_NR_KINDS; k++) {
		free(copy[k].s1);
		free(copy[k].s2);
	}
	pf_bundle_fini(&b);
	free(buf);
	free(long_path);
}

UNIT_TEST(pb_close_moves_long_bodies)
{
	uint8_t mem[600], body[300];
	struct pb_buf b;
	size_t m;

	memset(body, 0xab, sizeof(body));
	pb_init(&b, mem, sizeof(mem));
	m = pb_open(&b, 5);
	pb_bytes(&b, 1, body, sizeof(body));
	pb_close(&b, m);
	CHECK(!b.overflow);
	/* tag(5, LEN) = 0x2a, length 303 = 0xaf 0x02, then tag 0x0a, 300 = 0xac 0x02 */
	CHECK_EQ(mem[0], 0x2a);
	CHECK_EQ(mem[1], 0xaf);
	CHECK_EQ(mem[2], 0x02);
	CHECK_EQ(mem[3], 0x0a);
	CHECK_EQ(mem[4], 0xac);
	CHECK_EQ(mem[5], 0x02);
	CHECK_EQ(b.len, 6 + sizeof(body));
	CHECK_EQ(mem[b.len - 1], 0xab);
}

UNIT_MAIN()
