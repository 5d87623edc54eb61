/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What part of a capture an analysis looks at: a time window from the
 * session's start, the CPUs, the processes selected by pid or by the name
 * of their main thread, and threads selected by tid. report, diff,
 * convert and the MCP tools take the same options through the same parser
 * (FILTER_OPTS in their option tables, filter_take() for each), so that
 * they read them alike and say the same when one is wrong; the model
 * applies them (model.h).
 */
#ifndef KTPROF_FILTER_H
#define KTPROF_FILTER_H

#include <stdint.h>

#include "ktprof_abi.h"
#include "util/error.h"
#include "util/opts.h"

#define FILTER_MAX_PIDS 64
#define FILTER_MAX_CPUS 8192	/* CPU numbers beyond are refused */
#define FILTER_CPUS_LEN 256	/* the longest CPU list */

/* Option keys, above every command's own (util/opts.h). */
enum filter_key {
	FILTER_KEY_FROM = OPTS_LONG_ONLY + 200,
	FILTER_KEY_TO,
	FILTER_KEY_PID = 'p',
	FILTER_KEY_COMM = FILTER_KEY_TO + 1,
	FILTER_KEY_CPUS = 'C',
	FILTER_KEY_TID = FILTER_KEY_COMM + 1,
	FILTER_KEY_CGROUP = FILTER_KEY_TID + 1,
};

#define FILTER_CGROUP_LEN 512	/* the longest cgroup path */

/* The window and selection options, for a command's option table. */
#define FILTER_OPTS							\
	{ "from", FILTER_KEY_FROM, "T", "start T after the capture began (500ms, 2s, ...)" }, \
	{ "to", FILTER_KEY_TO, "T", "end T after the capture began" },	\
	{ "pid", FILTER_KEY_PID, "PID", "only this process (repeatable)" }, \
	{ "comm", FILTER_KEY_COMM, "NAME", "only processes whose main thread was NAME" }, \
	{ "tid", FILTER_KEY_TID, "TID", "only this thread (repeatable; with -p and --comm: either)" }, \
	{ "cgroup", FILTER_KEY_CGROUP, "PATH", "only threads whose last cgroup v2 is PATH or below it" \
	  " (with -p, --comm, --tid: either)" }

/* The CPU option. */
#define FILTER_OPT_CPUS							\
	{ "cpus", FILTER_KEY_CPUS, "LIST", "only these CPUs, e.g. 0-3,6" }

struct filter {
	uint64_t from_rel, to_rel;	/* from the session's start */
	int have_from, have_to;
	uint32_t pids[FILTER_MAX_PIDS];	/* thread group ids */
	unsigned int nr_pids;
	uint32_t tids[FILTER_MAX_PIDS];	/* thread ids */
	unsigned int nr_tids;
	char comm[2 * KTP_COMM_LEN - 1];	/* "": none; as bytes or as JSON shows them */
	char cgroup[FILTER_CGROUP_LEN];	/* "": none; "/a/b" (no trailing '/') */
	char cpus[FILTER_CPUS_LEN];	/* "": all */
};

/*
 * Take option @key with @arg into @f: 1 when it is a filter option, 0 when
 * it is not one, or -EINVAL with the reason in @err ("--from wants a
 * duration (500ms, 2s, ...), not 'x'").
 */
int filter_take(struct filter *f, int key, const char *arg, struct error *err);

/* After the last option: 0, or -EINVAL when they contradict (--from after --to). */
int filter_check(const struct filter *f, struct error *err);

/* Whether processes or threads are selected (-p, --comm or --tid). */
static inline int filter_selects(const struct filter *f)
{
	return f->nr_pids || f->nr_tids || f->comm[0] || f->cgroup[0];
}

/* Whether cgroup @path is the --cgroup one or below it (NULL: not known: no). */
int filter_cgroup_under(const struct filter *f, const char *path);

/* Whether @a and @b select the same. */
int filter_equal(const struct filter *a, const struct filter *b);

/* Whether thread group @tgid is one of the -p ones. */
int filter_pid_listed(const struct filter *f, uint32_t tgid);

/* Whether thread @tid is one of the --tid ones. */
int filter_tid_listed(const struct filter *f, uint32_t tid);

/*
 * "0-3,6" as a flag per CPU: *sel (calloc'ed) and *len (the highest CPU
 * named + 1). 0, -EINVAL for a malformed list, -ENOMEM.
 */
int filter_parse_cpus(const char *list, uint8_t **sel, uint32_t *len);

#endif
