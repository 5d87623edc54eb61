// SPDX-License-Identifier: GPL-2.0
/*
 * The task table on capture scripts: who each pid is after each record,
 * worked out by hand from the script. Snapshot, rename, exec (by a thread
 * too), fork with and without its TASK record, pid reuse after free, and a
 * tgid learned after the pid was first seen.
 */
#include "model/task-table.h"
#include "script-events.h"
#include "unit.h"

struct feeder {
	struct task_table t;
	struct script_events *e;
	struct event next;	/* read, not yet fed */
	int have_next, at_end;
};

static int feeder_init(struct feeder *f, const char *script)
{
	memset(f, 0, sizeof(*f));
	task_table_init(&f->t);
	f->e = script_events_new(script);
	CHECK(f->e != NULL);
	return f->e ? 0 : -1;
}

static void feeder_fini(struct feeder *f)
{
	task_table_fini(&f->t);
	script_events_free(f->e);
}

/* Feed the table every event up to script time @t included. */
static void feed_to(struct feeder *f, uint64_t t)
{
	int ret;

	for (;;) {
		if (!f->have_next && !f->at_end) {
			ret = merge_next(script_events_merge(f->e), &f->next);
			CHECK(ret >= 0);
			f->have_next = ret > 0;
			f->at_end = ret <= 0;
		}
		if (!f->have_next || f->next.ts > SCRIPT_EVENTS_START + t)
			return;
		CHECK_EQ(task_table_on_event(&f->t, &f->next), 0);
		f->have_next = 0;
	}
}

/*
 * Pid @pid is known with these values; @prev_comm NULL: the last TASK
 * record did not rename it (and the name before the last rename is "").
 */
static void check_task(const struct task_table *t, uint32_t pid, uint32_t tgid,
		       uint32_t ppid, const char *comm, int described,
		       const char *prev_comm)
{
	const struct task_info *ti = task_table_get(t, pid);

	if (!ti) {
		UNIT_FAIL("pid %u unknown", pid);
		return;
	}
	CHECK_EQ(ti->pid, pid);
	CHECK_EQ(ti->tgid, tgid);
	CHECK_EQ(ti->ppid, ppid);
	CHECK_STR(ti->comm, comm);
	CHECK_EQ(ti->described, described);
	CHECK_EQ(ti->renamed, prev_comm != NULL);
	CHECK_STR(ti->prev_comm, prev_comm ? prev_comm : "");
}

UNIT_TEST(snapshot_rename_exec)
{
	static const char script[] =
		"cpus 1\n"
		"0 0 task pid=100 tgid=100 ppid=1 comm=app snapshot state=S\n"
		"10 0 task pid=100 tgid=100 ppid=1 comm=app-main rename\n"
		"20 0 task pid=100 tgid=100 ppid=1 comm=app-main\n"
		"30 0 task pid=100 tgid=100 ppid=1 comm=true exec\n"
		"30 0 exec pid=100 file=/bin/true\n";
	struct feeder f;
	char buf[32];

	if (feeder_init(&f, script))
		return;
	feed_to(&f, 0);
	check_task(&f.t, 100, 100, 1, "app", 1, NULL);
	CHECK_EQ(task_table_get(&f.t, 100)->kthread, 0);
	feed_to(&f, 10);
	check_task(&f.t, 100, 100, 1, "app-main", 1, "app");
	/* The same name again is no rename; the last rename's old name stays. */
	feed_to(&f, 20);
	CHECK_STR(task_table_get(&f.t, 100)->comm, "app-main");
	CHECK_EQ(task_table_get(&f.t, 100)->renamed, 0);
	CHECK_STR(task_table_get(&f.t, 100)->prev_comm, "app");
	feed_to(&f, 30);
	check_task(&f.t, 100, 100, 1, "true", 1, "app-main");
	CHECK_STR(task_table_comm(&f.t, 100, buf, sizeof(buf)), "true");
	CHECK_STR(task_table_comm(&f.t, 0, buf, sizeof(buf)), "swapper");
	CHECK_STR(task_table_comm(&f.t, 999, buf, sizeof(buf)), "pid-999");
	CHECK(task_table_get(&f.t, 999) == NULL);
	feeder_fini(&f);
}

/*
 * A thread that execs takes its leader's pid: the TASK record is the
 * leader's pid with the new name; the old thread pid keeps what it had.
 */
UNIT_TEST(exec_by_a_thread)
{
	static const char script[] =
		"cpus 1\n"
		"0 0 task pid=900 ppid=1 comm=server snapshot\n"
		"0 0 task pid=901 tgid=900 ppid=1 comm=srv-io snapshot\n"
		"50 0 task pid=900 tgid=900 ppid=1 comm=newprog exec\n"
		"50 0 exec pid=900 old=901 file=/usr/bin/newprog\n";
	struct feeder f;

	if (feeder_init(&f, script))
		return;
	feed_to(&f, 50);
	check_task(&f.t, 900, 900, 1, "newprog", 1, "server");
	check_task(&f.t, 901, 900, 1, "srv-io", 1, NULL);
	feeder_fini(&f);
}

UNIT_TEST(kernel_threads)
{
	static const char script[] =
		"cpus 1\n"
		"0 0 task pid=2 ppid=0 comm=kthreadd snapshot kthread\n"
		"5 0 task pid=77 ppid=2 comm=kworker/0:3 kthread fork\n"
		"5 0 fork parent=2 child=77\n";
	struct feeder f;

	if (feeder_init(&f, script))
		return;
	feed_to(&f, 5);
	check_task(&f.t, 2, 2, 0, "kthreadd", 1, NULL);
	CHECK_EQ(task_table_get(&f.t, 2)->kthread, 1);
	check_task(&f.t, 77, 77, 2, "kworker/0:3", 1, NULL);
	CHECK_EQ(task_table_get(&f.t, 77)->kthread, 1);
	feeder_fini(&f);
}

/* A fork as the module writes it: the child's TASK record, then FORK. */
UNIT_TEST(fork_with_its_task_record)
{
	static const char script[] =
		"cpus 2\n"
		"0 0 task pid=100 ppid=1 comm=shell snapshot\n"
		"100 0 task pid=200 tgid=200 ppid=100 comm=shell fork\n"
		"100 0 fork parent=100 child=200\n"
		"150 1 task pid=200 tgid=200 ppid=100 comm=make exec\n"
		"200 1 task pid=201 tgid=200 ppid=100 comm=make fork\n"
		"200 1 fork parent=200 child=201 tgid=200 thread\n";
	struct feeder f;

	if (feeder_init(&f, script))
		return;
	feed_to(&f, 100);
	check_task(&f.t, 200, 200, 100, "shell", 1, NULL);
	feed_to(&f, 150);
	check_task(&f.t, 200, 200, 100, "make", 1, "shell");
	feed_to(&f, 200);
	check_task(&f.t, 201, 200, 100, "make", 1, NULL);
	feeder_fini(&f);
}

/*
 * The child's TASK record lost (buffer full): the FORK record alone makes
 * it its parent's copy (a child has its parent's name until it execs) in
 * the FORK record's thread group; a thread's parent is its creator's
 * parent, as the kernel's ppid says. Nothing described it.
 */
UNIT_TEST(fork_without_its_task_record)
{
	static const char script[] =
		"cpus 1\n"
		"0 0 task pid=100 ppid=1 comm=shell snapshot\n"
		"100 0 fork parent=100 child=200\n"
		"200 0 fork parent=200 child=201 tgid=200 thread\n"
		"300 0 task pid=200 tgid=200 ppid=100 comm=make exec\n";
	struct feeder f;

	if (feeder_init(&f, script))
		return;
	feed_to(&f, 100);
	check_task(&f.t, 200, 200, 100, "shell", 0, NULL);
	feed_to(&f, 200);
	check_task(&f.t, 201, 200, 100, "shell", 0, NULL);
	feed_to(&f, 300);
	check_task(&f.t, 200, 200, 100, "make", 1, "shell");
	feeder_fini(&f);
}

/*
 * A freed pid keeps its name (the report names exited tasks at the end);
 * a new task that reuses it is that new task, not a rename of the old.
 */
UNIT_TEST(pid_reuse)
{
	static const char script[] =
		"cpus 1\n"
		"0 0 task pid=300 ppid=1 comm=old-one snapshot\n"
		"0 0 task pid=50 ppid=1 comm=spawner snapshot\n"
		"10 0 exit pid=300\n"
		"20 0 free pid=300\n"
		"100 0 task pid=300 tgid=300 ppid=50 comm=spawner fork\n"
		"100 0 fork parent=50 child=300\n";
	struct feeder f;

	if (feeder_init(&f, script))
		return;
	feed_to(&f, 20);
	check_task(&f.t, 300, 300, 1, "old-one", 1, NULL);
	feed_to(&f, 100);
	check_task(&f.t, 300, 300, 50, "spawner", 1, NULL);
	feeder_fini(&f);
}

/* The same, the new task's TASK record lost: still not the old task. */
UNIT_TEST(pid_reuse_without_task_record)
{
	static const char script[] =
		"cpus 1\n"
		"0 0 task pid=300 ppid=1 comm=old-one snapshot\n"
		"0 0 task pid=50 ppid=7 comm=spawner snapshot\n"
		"10 0 exit pid=300\n"
		"20 0 free pid=300\n"
		"100 0 fork parent=50 child=300\n"
		"200 0 fork parent=300 child=301 tgid=300 thread\n";
	struct feeder f;

	if (feeder_init(&f, script))
		return;
	feed_to(&f, 100);
	check_task(&f.t, 300, 300, 50, "spawner", 0, NULL);
	feed_to(&f, 200);
	check_task(&f.t, 301, 300, 50, "spawner", 0, NULL);
	feeder_fini(&f);
}

/*
 * A pid seen running before any record says who it is: unknown until its
 * TASK record comes. A thread whose creator is unknown has its thread
 * group from the FORK record and no name.
 */
UNIT_TEST(tgid_learned_late)
{
	static const char script[] =
		"cpus 2\n"
		"0 0 start pid=0\n"
		"0 1 start pid=0\n"
		"10 1 switch prev=0 next=700\n"
		"10 0 waking pid=700 target=1\n"
		"20 0 task pid=700 tgid=690 ppid=1 comm=worker\n"
		"30 0 fork parent=800 child=801 tgid=800 thread\n"
		"40 1 task pid=800 tgid=800 ppid=1 comm=late-leader\n";
	struct feeder f;
	char buf[32];

	if (feeder_init(&f, script))
		return;
	feed_to(&f, 10);
	CHECK(task_table_get(&f.t, 700) == NULL);
	CHECK_STR(task_table_comm(&f.t, 700, buf, sizeof(buf)), "pid-700");
	feed_to(&f, 20);
	check_task(&f.t, 700, 690, 1, "worker", 1, NULL);
	feed_to(&f, 30);
	check_task(&f.t, 801, 800, 0, "", 0, NULL);
	CHECK_STR(task_table_comm(&f.t, 801, buf, sizeof(buf)), "pid-801");
	feed_to(&f, 40);
	check_task(&f.t, 800, 800, 1, "late-leader", 1, NULL);
	check_task(&f.t, 801, 800, 0, "", 0, NULL);
	feeder_fini(&f);
}

UNIT_MAIN()
