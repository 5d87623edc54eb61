// SPDX-License-Identifier: GPL-2.0
/*
 * The Perfetto thread view's slices after losses: capture scripts are
 * converted with the thread view alone, the trace is read back (protobuf-c)
 * and each track's events are compared with what was worked out by hand
 * from the script. On every track slices must nest: never an end without
 * its begin, never a second begin on a track whose slice is open (a thread
 * runs once at a time; one IRQ, softirq or work item at a time per CPU),
 * nothing left open at the end. Then the same rule on random scripts with
 * losses everywhere.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <unistd.h>

#include "perfetto.pb-c.h"
#include "perfetto/convert.h"
#include "script-capture.h"
#include "unit.h"

#define SESSION_START 1000000000ull	/* script_capture_write()'s */
#define MAX_TRACKS 256
#define MAX_NAMES 32

struct track {
	uint64_t uuid;
	char label[48];		/* "tid 10", "tid 300 (2)", "CPU 0 IRQs" */
	char *ev;		/* "B100 E200 FORK@300 ...", times from the start */
	size_t len, cap;
	int depth;
	uint64_t begin;		/* of the open slice */
};

struct trace {
	struct track t[MAX_TRACKS];
	unsigned int n;
	char names[MAX_NAMES][16];	/* interned event names by iid */
	char problems[2048];		/* nesting errors, "" if none */
};

static void trace_fini(struct trace *tr)
{
	unsigned int i;

	for (i = 0; i < tr->n; i++)
		free(tr->t[i].ev);
}

static void add_text(struct track *t, const char *s)
{
	size_t n = strlen(s) + 1;

	if (t->len + n + 1 > t->cap) {
		t->cap = (t->cap + n + 1) * 2;
		t->ev = realloc(t->ev, t->cap);
		if (!t->ev)
			abort();
	}
	t->len += sprintf(t->ev + t->len, "%s%s", t->len ? " " : "", s);
}

static void problem(struct trace *tr, const struct track *t, const char *what, uint64_t ts)
{
	size_t len = strlen(tr->problems);

	snprintf(tr->problems + len, sizeof(tr->problems) - len, "%s%s: %s at %" PRIu64,
		 len ? "; " : "", t->label, what, ts);
}

static void take_descriptor(struct trace *tr, const Perfetto__Protos__TrackDescriptor *d)
{
	struct track *t;
	unsigned int i, same = 1;

	if (d->process || tr->n == MAX_TRACKS)
		return;
	t = &tr->t[tr->n++];
	memset(t, 0, sizeof(*t));
	t->uuid = d->uuid;
	if (!d->thread) {
		snprintf(t->label, sizeof(t->label), "%s", d->name ? d->name : "?");
		return;
	}
	/* A reused pid is a new track of the same tid. */
	for (i = 0; i + 1 < tr->n; i++)
		same += !strncmp(tr->t[i].label, "tid ", 4) &&
			strtoll(tr->t[i].label + 4, NULL, 10) == d->thread->tid;
	if (same == 1)
		snprintf(t->label, sizeof(t->label), "tid %" PRId64, d->thread->tid);
	else
		snprintf(t->label, sizeof(t->label), "tid %" PRId64 " (%u)", d->thread->tid, same);
}

static void take_event(struct trace *tr, uint64_t ts, const Perfetto__Protos__TrackEvent *e)
{
	struct track *t = NULL;
	char buf[64];
	unsigned int i;

	ts -= SESSION_START;
	for (i = 0; i < tr->n && !t; i++)
		if (tr->t[i].uuid == e->track_uuid)
			t = &tr->t[i];
	if (!t) {
		snprintf(tr->problems + strlen(tr->problems),
			 sizeof(tr->problems) - strlen(tr->problems),
			 "an event on undescribed track %" PRIx64 "; ", e->track_uuid);
		return;
	}
	switch (e->type) {
	case PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN:
		if (t->depth)
			problem(tr, t, "a begin inside an open slice", ts);
		t->depth++;
		t->begin = ts;
		snprintf(buf, sizeof(buf), "B%" PRIu64, ts);
		break;
	case PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_END:
		if (!t->depth)
			problem(tr, t, "an end without a begin", ts);
		else if (ts < t->begin)
			problem(tr, t, "an end before its begin", ts);
		t->depth -= t->depth > 0;
		snprintf(buf, sizeof(buf), "E%" PRIu64, ts);
		break;
	default:
		snprintf(buf, sizeof(buf), "%s@%" PRIu64,
			 e->name ? e->name : e->name_iid < MAX_NAMES ? tr->names[e->name_iid] : "?",
			 ts);
		break;
	}
	add_text(t, buf);
}

/* Read the trace at @path into @tr; 0 or -1. */
static int read_trace(const char *path, struct trace *tr)
{
	Perfetto__Protos__Trace *trace;
	FILE *f = fopen(path, "r");
	static uint8_t buf[4 << 20];
	size_t len, i, k;

	if (!f)
		return -1;
	len = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	trace = perfetto__protos__trace__unpack(NULL, len, buf);
	if (!trace)
		return -1;
	for (i = 0; i < trace->n_packet; i++) {
		const Perfetto__Protos__TracePacket *p = trace->packet[i];

		if (p->interned_data)
			for (k = 0; k < p->interned_data->n_event_names; k++) {
				const Perfetto__Protos__EventName *n = p->interned_data->event_names[k];

				if (n->iid < MAX_NAMES)
					snprintf(tr->names[n->iid], sizeof(tr->names[0]), "%s", n->name);
			}
		if (p->data_case == PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_DESCRIPTOR)
			take_descriptor(tr, p->track_descriptor);
		else if (p->data_case == PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT)
			take_event(tr, p->timestamp, p->track_event);
	}
	perfetto__protos__trace__free_unpacked(trace, NULL);
	for (i = 0; i < tr->n; i++)
		if (tr->t[i].depth)
			problem(tr, &tr->t[i], "a slice left open", 0);
	return 0;
}

/* Convert @script with the thread view alone and read the trace back. */
static int convert(const char *script, struct trace *tr)
{
	char dir[] = "/tmp/ktprof-unit-pf.XXXXXX", path[64], scn[64], cap[64];
	struct model_config mc = { .sched = 1, .symbols = MODEL_SYMBOLS_KERNEL, .session_cpus = 1 };
	struct convert_ctx c = { .opt = { .view_threads = 1, .symbols = 1 } };
	struct error err = { 0 };
	FILE *f;
	int ret = -1;

	memset(tr, 0, sizeof(*tr));
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/t.pftrace", dir);
	snprintf(scn, sizeof(scn), "%s/t.scn", dir);
	snprintf(cap, sizeof(cap), "%s/t.ktp", dir);
	f = fopen(scn, "w");
	if (!f || fputs(script, f) < 0 || fclose(f) || script_capture_write(scn, cap))
		goto out;
	c.model = model_open(cap, &mc, &err);
	if (!c.model) {
		UNIT_FAIL("model_open: %s", error_msg(&err));
		goto out;
	}
	c.out = pf_out_open(path);
	if (!c.out)
		goto out;
	c.nr_cpus = c.model->nr_cpus;
	ret = convert_run(&c, &err);
	if (ret) {
		UNIT_FAIL("convert_run: %s", error_msg(&err));
		pf_out_abort(c.out);
		goto out;
	}
	ret = pf_out_close(c.out);
	if (!ret)
		ret = read_trace(path, tr);
	CHECK_EQ(ret, 0);
out:
	model_close(c.model);
	unlink(path);
	unlink(scn);
	unlink(cap);
	rmdir(dir);
	return ret;
}

static const char *events_of(const struct trace *tr, const char *label)
{
	unsigned int i;

	for (i = 0; i < tr->n; i++)
		if (!strcmp(tr->t[i].label, label))
			return tr->t[i].ev ? tr->t[i].ev : "";
	return "(no such track)";
}

#define CHECK_TRACK(tr, label, want) CHECK_STR(events_of(tr, label), want)

static void check_nesting(const struct trace *tr)
{
	if (tr->problems[0])
		UNIT_FAIL("slices do not nest: %s", tr->problems);
}

/*
 * A loss on CPU 0 ends the slice of the thread running there (it may have
 * stopped anywhere in the gap); the next switch to a thread starts anew.
 */
UNIT_TEST(loss_ends_the_running_slice)
{
	static const char script[] =
		"cpus 2\n"
		"0 0 start pid=0\n"
		"0 1 start pid=0\n"
		"100 0 switch prev=0 next=10\n"
		"200 0 switch prev=10 state=S next=20\n"
		"300 0 lost n=4\n"
		"400 0 switch prev=30 next=10\n"
		"500 0 stop pid=10\n"
		"500 1 stop pid=0\n";
	static struct trace tr;

	if (convert(script, &tr))
		return;
	check_nesting(&tr);
	CHECK_TRACK(&tr, "tid 10", "B100 E200 B400 E500");
	CHECK_TRACK(&tr, "tid 20", "B200 E300");
	CHECK_TRACK(&tr, "CPU 0 lost records", "LOST@300");
	trace_fini(&tr);
}

/*
 * Thread 10's switch away from CPU 0 was lost (reported later): when it
 * shows up on CPU 1 its slice on CPU 0 ends there, and CPU 0's loss
 * report has nothing left to end.
 */
UNIT_TEST(thread_seen_elsewhere_after_loss)
{
	static const char script[] =
		"cpus 2\n"
		"0 0 start pid=0\n"
		"0 1 start pid=0\n"
		"100 0 switch prev=0 next=10\n"
		"200 1 switch prev=0 next=10\n"
		"250 0 lost n=1\n"
		"300 1 switch prev=10 state=S next=0\n"
		"400 0 stop pid=0\n"
		"400 1 stop pid=0\n";
	static struct trace tr;

	if (convert(script, &tr))
		return;
	check_nesting(&tr);
	CHECK_TRACK(&tr, "tid 10", "B100 E200 B200 E300");
	CHECK_TRACK(&tr, "CPU 0 lost records", "LOST@250");
	trace_fini(&tr);
}

/*
 * An IRQ inside a softirq, both open when records are lost: both end at
 * the loss, with the thread's slice; exits that come after the loss end
 * nothing. A second IRQ entry while one is open (its exit lost) ends it.
 */
UNIT_TEST(nested_irq_and_softirq_after_loss)
{
	static const char script[] =
		"cpus 1\n"
		"0 0 start pid=10\n"
		"100 0 softirq_entry vec=1\n"
		"150 0 irq_entry irq=24\n"
		"160 0 irq_exit irq=24\n"
		"200 0 irq_entry irq=25\n"
		"300 0 lost n=2\n"
		"310 0 irq_exit irq=25\n"
		"320 0 softirq_exit vec=1\n"
		"400 0 softirq_entry vec=7\n"
		"500 0 irq_entry irq=30\n"
		"520 0 irq_entry irq=31\n"
		"530 0 irq_exit irq=31\n"
		"540 0 irq_exit irq=30\n"
		"600 0 stop pid=10\n";
	static struct trace tr;

	if (convert(script, &tr))
		return;
	check_nesting(&tr);
	CHECK_TRACK(&tr, "CPU 0 IRQs", "B150 E160 B200 E300 B500 E520 B520 E530");
	CHECK_TRACK(&tr, "CPU 0 softirqs", "B100 E300 B400 E600");
	CHECK_TRACK(&tr, "tid 10", "B0 E300");
	CHECK_TRACK(&tr, "CPU 0 lost records", "LOST@300");
	trace_fini(&tr);
}

/*
 * A work item pauses while its worker sleeps and resumes with it. A loss
 * ends it; when the worker runs again after the loss, the work item is
 * not resumed (its end may be among the lost records): the next one
 * starts at its own WQ_START.
 */
UNIT_TEST(work_item_after_loss)
{
	static const char script[] =
		"cpus 1\n"
		"0 0 start pid=20\n"
		"0 0 task pid=20 ppid=2 comm=kworker/0:1 kthread\n"
		"100 0 wq_start fn=0xffffffff81006000\n"
		"200 0 switch prev=20 state=D next=10\n"
		"300 0 switch prev=10 state=S next=20\n"
		"400 0 lost n=3\n"
		"500 0 switch prev=30 next=20\n"
		"600 0 wq_start fn=0xffffffff81007000\n"
		"700 0 wq_end fn=0xffffffff81007000\n"
		"800 0 stop pid=20\n";
	static struct trace tr;

	if (convert(script, &tr))
		return;
	check_nesting(&tr);
	CHECK_TRACK(&tr, "CPU 0 workqueue", "B100 E200 B300 E400 B600 E700");
	CHECK_TRACK(&tr, "tid 20", "B0 E200 B300 E400 B500 E800");
	trace_fini(&tr);
}

/*
 * CPU 0 lost the switch away from pid 300, its exit and its free; then a
 * new task takes pid 300 on CPU 1. The old task's slice ends there (it is
 * gone by then), and the new task has a track of its own.
 */
UNIT_TEST(reused_pid_ends_the_old_slice)
{
	static const char script[] =
		"cpus 2\n"
		"0 0 start pid=300\n"
		"0 1 start pid=50\n"
		"0 0 task pid=300 ppid=1 comm=old-one\n"
		"0 0 task pid=50 ppid=1 comm=spawner\n"
		"400 1 task pid=300 ppid=50 comm=spawner fork\n"
		"400 1 fork parent=50 child=300\n"
		"500 1 switch prev=50 state=S next=300\n"
		"600 0 lost n=3\n"
		"700 1 switch prev=300 state=S next=0\n"
		"800 0 stop pid=0\n"
		"800 1 stop pid=0\n";
	static struct trace tr;

	if (convert(script, &tr))
		return;
	check_nesting(&tr);
	CHECK_TRACK(&tr, "tid 300", "B0 E400");
	CHECK_TRACK(&tr, "tid 300 (2)", "FORK@400 B500 E700");
	CHECK_TRACK(&tr, "tid 50", "B0 E500");
	trace_fini(&tr);
}

/*
 * Records that contradict each other (CPU 0 switches from 20 while 10
 * runs there, no loss reported): 10's slice ends where the next thread
 * starts, rather than staying open to the end of the trace.
 */
UNIT_TEST(contradicting_switch_ends_the_open_slice)
{
	static const char script[] =
		"cpus 1\n"
		"0 0 start pid=0\n"
		"100 0 switch prev=0 next=10\n"
		"200 0 switch prev=20 next=30\n"
		"300 0 stop pid=30\n";
	static struct trace tr;

	if (convert(script, &tr))
		return;
	check_nesting(&tr);
	CHECK_TRACK(&tr, "tid 10", "B100 E200");
	CHECK_TRACK(&tr, "tid 30", "B200 E300");
	trace_fini(&tr);
}

/* A deterministic generator (xorshift64*). */
static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

/*
 * Random scripts: switches among a few threads, wakeups, forks reusing
 * pids, IRQs, softirqs and work items whose exits may be missing, and
 * losses on any CPU at any time. Whatever the records, the slices nest.
 */
UNIT_TEST(random_scripts_nest)
{
	static char script[1 << 20];
	static struct trace tr;
	unsigned int round;

	for (round = 0; round < 20; round++) {
		uint64_t seed = 0x9e3779b97f4a7c15ull * (round + 1), ts[4] = { 0 };
		unsigned int i, cpus = 1 + round % 4, cur[4] = { 0 };
		size_t len = 0;

		len += sprintf(script + len, "cpus %u\n", cpus);
		for (i = 0; i < cpus; i++)
			len += sprintf(script + len, "0 %u start pid=0\n", i);
		for (i = 0; i < 3000; i++) {
			uint64_t r = next_rand(&seed);
			unsigned int cpu = r % cpus, pid = 1 + (r >> 8) % 12, x = (r >> 16) % 100;

			ts[cpu] += 1 + (r >> 24) % 50;
			len += sprintf(script + len, "%" PRIu64 " %u ", ts[cpu], cpu);
			if (x < 35) {
				/* Usually from what runs, sometimes not (records lost). */
				unsigned int prev = x < 30 ? cur[cpu] : pid;

				len += sprintf(script + len, "switch prev=%u state=%s next=%u\n",
					       prev, x % 3 ? "S" : "R+", x % 5 ? pid : 0);
				cur[cpu] = x % 5 ? pid : 0;
			} else if (x < 45) {
				len += sprintf(script + len, "waking pid=%u target=%u\n", pid,
					       (unsigned int)(r >> 32) % cpus);
			} else if (x < 52) {
				len += sprintf(script + len, "irq_entry irq=%u\n", pid);
			} else if (x < 58) {
				len += sprintf(script + len, "irq_exit irq=%u\n", pid);
			} else if (x < 64) {
				len += sprintf(script + len, "softirq_entry vec=%u\n", pid % 10);
			} else if (x < 69) {
				len += sprintf(script + len, "softirq_exit vec=%u\n", pid % 10);
			} else if (x < 75) {
				len += sprintf(script + len, "wq_start fn=0x%x\n", 0x1000 + pid);
			} else if (x < 80) {
				len += sprintf(script + len, "wq_end fn=0x%x\n", 0x1000 + pid);
			} else if (x < 84) {
				len += sprintf(script + len, "fork parent=%u child=%u%s\n",
					       cur[cpu] ? cur[cpu] : 1, pid, x % 2 ? " thread" : "");
			} else if (x < 86) {
				len += sprintf(script + len, "free pid=%u\n", pid);
			} else if (x < 92) {
				len += sprintf(script + len, "lost n=%u\n", 1 + x % 7);
				cur[cpu] = 0;
			} else if (x < 94) {
				len += sprintf(script + len, "offline pid=%u\n", cur[cpu]);
			} else if (x < 96) {
				len += sprintf(script + len, "online pid=%u\n", pid);
				cur[cpu] = pid;
			} else {
				len += sprintf(script + len, "task pid=%u ppid=1 comm=t%u%s\n", pid,
					       pid, x % 2 ? " rename" : "");
			}
		}
		if (convert(script, &tr)) {
			UNIT_FAIL("round %u: no trace", round);
			continue;
		}
		if (tr.problems[0])
			UNIT_FAIL("round %u (%u CPUs): %.600s", round, cpus, tr.problems);
		CHECK(tr.n > cpus);
		trace_fini(&tr);
	}
}

UNIT_MAIN()
