// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/profile.h"
#include "util/hash.h"
#include "util/str-intern.h"
#include "util/text.h"
#include "util/u64-map.h"

struct stack {
	struct stack *next;	/* same hash */
	uint32_t tgid;
	uint32_t n;
	uint64_t count;
	uint32_t ids[];		/* root first */
};

struct counts {
	uint64_t self, total;
};

/* One process's samples and its symbols' counts: its rows cost its symbols only. */
struct proc_profile {
	uint64_t samples;
	struct u64_map counts;	/* name id -> struct counts */
};

struct profile {
	struct symbolizer *sym;
	const struct task_table *tasks;
	int source;
	int (*selected)(const void *ctx, uint32_t tgid, uint32_t tid);	/* profile_select() */
	const void *selected_ctx;
	uint64_t samples;
	struct str_intern names;
	struct u64_map stacks;		/* hash -> struct stack chain */
	struct u64_map all_counts;	/* id -> struct counts */
	struct u64_map procs;		/* tgid -> struct proc_profile */
	struct u64_map kernel_ids;	/* kernel address -> name id + 1 */
};

struct profile *profile_new(struct symbolizer *sym, const struct task_table *tasks,
			    int source)
{
	struct profile *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->sym = sym;
	p->tasks = tasks;
	p->source = source;
	str_intern_init(&p->names);
	u64_map_init(&p->stacks);
	u64_map_init(&p->all_counts);
	u64_map_init(&p->procs);
	u64_map_init(&p->kernel_ids);
	return p;
}

static void free_values(struct u64_map *m)
{
	size_t i = 0;
	uint64_t k;
	void *v;

	while (u64_map_next(m, &i, &k, &v))
		free(v);
	u64_map_fini(m);
}

void profile_free(struct profile *p)
{
	size_t i = 0;
	uint64_t k;
	void *v;

	if (!p)
		return;
	while (u64_map_next(&p->stacks, &i, &k, &v)) {
		struct stack *s = v;

		while (s) {
			struct stack *next = s->next;

			free(s);
			s = next;
		}
	}
	u64_map_fini(&p->stacks);
	i = 0;
	while (u64_map_next(&p->procs, &i, &k, &v))
		free_values(&((struct proc_profile *)v)->counts);
	free_values(&p->procs);
	free_values(&p->all_counts);
	u64_map_fini(&p->kernel_ids);
	str_intern_fini(&p->names);
	free(p);
}

uint64_t profile_samples(const struct profile *p)
{
	return p->samples;
}

static struct counts *get_counts(struct u64_map *m, uint64_t key)
{
	struct counts *c = u64_map_get(m, key);

	if (c)
		return c;
	c = calloc(1, sizeof(*c));
	if (c && u64_map_put(m, key, c)) {
		free(c);
		c = NULL;
	}
	return c;
}

static int add_stack(struct profile *p, uint32_t tgid, const uint32_t *ids,
		     uint32_t n)
{
	uint64_t h = hash_fnv1a(ids, n * sizeof(*ids), hash_fnv1a(&tgid, sizeof(tgid), HASH_FNV1A_SEED));
	struct stack *head = u64_map_get(&p->stacks, h), *s;

	for (s = head; s; s = s->next) {
		if (s->tgid == tgid && s->n == n &&
		    !memcmp(s->ids, ids, n * sizeof(*ids))) {
			s->count++;
			return 0;
		}
	}
	s = malloc(sizeof(*s) + n * sizeof(*ids));
	if (!s)
		return -ENOMEM;
	s->next = head;
	s->tgid = tgid;
	s->n = n;
	s->count = 1;
	memcpy(s->ids, ids, n * sizeof(*ids));
	return u64_map_put(&p->stacks, h, s);
}

/* A frame's profile name: function (module), or the object if unresolved. */
static int frame_id(struct profile *p, uint32_t tgid, uint64_t ip, int kernel,
		    uint32_t *id)
{
	char buf[512];
	struct frame f;
	void *v;
	int ret;

	/* Kernel names do not depend on the process: name each address once. */
	if (kernel && (v = u64_map_get(&p->kernel_ids, ip))) {
		*id = (uint32_t)((uintptr_t)v - 1);
		return 0;
	}
	symbolizer_frame(p->sym, tgid, ip, kernel, &f);
	if (f.resolved)
		frame_str(&f, 0, buf, sizeof(buf));
	else
		snprintf(buf, sizeof(buf), f.object[0] == '[' ? "%s" : "[%s]",
			 f.object);
	ret = str_intern(&p->names, buf, id, NULL);
	if (!ret && kernel)
		ret = u64_map_put(&p->kernel_ids, ip, (void *)(uintptr_t)(*id + 1));
	return ret;
}

static struct proc_profile *proc_of(struct profile *p, uint32_t tgid)
{
	struct proc_profile *proc = u64_map_get(&p->procs, tgid);

	if (proc)
		return proc;
	proc = calloc(1, sizeof(*proc));
	if (!proc)
		return NULL;
	u64_map_init(&proc->counts);
	if (u64_map_put(&p->procs, tgid, proc)) {
		free(proc);
		return NULL;
	}
	return proc;
}

void profile_select(struct profile *p,
		    int (*selected)(const void *ctx, uint32_t tgid, uint32_t tid),
		    const void *ctx)
{
	p->selected = selected;
	p->selected_ctx = ctx;
}

int profile_on_event(struct profile *p, const struct event *ev)
{
	uint32_t ids[2 * KTP_MAX_FRAMES], n = 0, i, j;
	const uint8_t *ips = (const uint8_t *)ev->rec + sizeof(struct ktp_sample);
	struct ktp_sample r;
	struct proc_profile *proc;
	int ret;

	if (ev->type != KTP_REC_SAMPLE)
		return 0;
	memcpy(&r, ev->rec, sizeof(r));
	if ((p->source >= 0 && r.source != p->source) ||
	    (p->selected && !p->selected(p->selected_ctx, r.pid, r.tid)))
		return 0;
	/* Root first: user frames outermost first, then kernel ones. */
	for (i = r.nr_user; i-- > 0;) {
		uint64_t ip;

		memcpy(&ip, ips + 8 * (r.nr_kernel + i), 8);
		ret = frame_id(p, r.pid, ip, 0, &ids[n++]);
		if (ret)
			return ret;
	}
	for (i = r.nr_kernel; i-- > 0;) {
		uint64_t ip;

		memcpy(&ip, ips + 8 * i, 8);
		ret = frame_id(p, r.pid, ip, 1, &ids[n++]);
		if (ret)
			return ret;
	}
	p->samples++;
	proc = proc_of(p, r.pid);
	if (!proc)
		return -ENOMEM;
	proc->samples++;
	if (!n)
		return 0;
	ret = add_stack(p, r.pid, ids, n);
	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		struct counts *pc, *ac;

		for (j = 0; j < i && ids[j] != ids[i]; j++)
			;
		if (j < i)
			continue;	/* totals count a symbol once per sample */
		pc = get_counts(&proc->counts, ids[i]);
		ac = get_counts(&p->all_counts, ids[i]);
		if (!pc || !ac)
			return -ENOMEM;
		pc->total++;
		ac->total++;
	}
	/* Both exist: the loop above created them. */
	get_counts(&proc->counts, ids[n - 1])->self++;
	get_counts(&p->all_counts, ids[n - 1])->self++;
	return 0;
}

struct proc_sort {
	uint32_t pid;
	uint64_t n;
};

static int by_samples(const void *a, const void *b)
{
	const struct proc_sort *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

unsigned int profile_processes(const struct profile *p, uint32_t **pids,
			       uint64_t **samples)
{
	struct proc_sort *v = calloc(p->procs.len + 1, sizeof(*v));
	size_t i = 0;
	unsigned int n = 0, j;
	uint64_t k;
	void *val;

	*pids = calloc(p->procs.len + 1, sizeof(**pids));
	*samples = calloc(p->procs.len + 1, sizeof(**samples));
	if (!v || !*pids || !*samples) {
		free(v);
		return 0;
	}
	while (u64_map_next(&p->procs, &i, &k, &val))
		v[n++] = (struct proc_sort){ k, ((struct proc_profile *)val)->samples };
	qsort(v, n, sizeof(*v), by_samples);
	for (j = 0; j < n; j++) {
		(*pids)[j] = v[j].pid;
		(*samples)[j] = v[j].n;
	}
	free(v);
	return n;
}

static int by_self(const void *a, const void *b)
{
	const struct profile_row *x = a, *y = b;

	if (x->self != y->self)
		return x->self < y->self ? 1 : -1;
	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	return strcmp(x->symbol, y->symbol);
}

unsigned int profile_rows(const struct profile *p, int64_t tgid,
			  struct profile_row **rows)
{
	const struct proc_profile *proc = tgid >= 0 ? u64_map_get(&p->procs, (uint64_t)tgid) : NULL;
	const struct u64_map *m = tgid < 0 ? &p->all_counts : proc ? &proc->counts : NULL;
	size_t i = 0;
	unsigned int n = 0;
	uint64_t k;
	void *v;

	*rows = calloc(m ? m->len + 1 : 1, sizeof(**rows));
	if (!*rows || !m)
		return 0;
	while (u64_map_next(m, &i, &k, &v)) {
		const struct counts *c = v;

		(*rows)[n++] = (struct profile_row){
			str_intern_get(&p->names, (uint32_t)k), c->self, c->total,
		};
	}
	qsort(*rows, n, sizeof(**rows), by_self);
	return n;
}

int profile_walk(const struct profile *p, profile_stack_fn fn, void *ctx)
{
	const char *names[2 * KTP_MAX_FRAMES];
	size_t i = 0;
	uint64_t k;
	void *v;
	int ret;

	while (u64_map_next(&p->stacks, &i, &k, &v)) {
		const struct stack *s;

		for (s = v; s; s = s->next) {
			uint32_t f;

			for (f = 0; f < s->n && f < 2 * KTP_MAX_FRAMES; f++)
				names[f] = str_intern_get(&p->names, s->ids[f]);
			ret = fn(ctx, s->tgid, names, f, s->count);
			if (ret)
				return ret;
		}
	}
	return 0;
}

static int by_line(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void profile_write_folded(const struct profile *p, FILE *out)
{
	char **lines = NULL;
	size_t i = 0, n = 0, cap = 0, j;
	uint64_t k;
	void *v;

	while (u64_map_next(&p->stacks, &i, &k, &v)) {
		const struct stack *s;

		for (s = v; s; s = s->next) {
			char comm[32], *line = NULL;
			size_t len = 0;
			FILE *f;
			uint32_t f_i;

			f = open_memstream(&line, &len);
			if (!f)
				continue;
			/* Names from the capture: escaped, one stack per line. */
			text_fputs(task_table_comm(p->tasks, s->tgid, comm, sizeof(comm)), f);
			for (f_i = 0; f_i < s->n; f_i++) {
				fputc(';', f);
				text_fputs(str_intern_get(&p->names, s->ids[f_i]), f);
			}
			fprintf(f, " %" PRIu64, s->count);
			fclose(f);
			if (n == cap) {
				char **nl;

				cap = cap ? cap * 2 : 1024;
				nl = realloc(lines, cap * sizeof(*nl));
				if (!nl) {
					free(line);
					goto out;
				}
				lines = nl;
			}
			lines[n++] = line;
		}
	}
	if (n)	/* qsort(NULL, 0) is undefined */
		qsort(lines, n, sizeof(*lines), by_line);
	for (j = 0; j < n; j++)
		fprintf(out, "%s\n", lines[j]);
out:
	for (j = 0; j < n; j++)
		free(lines[j]);
	free(lines);
}

/* --- The tree of the stacks (a flame graph's) --- */

static int tree_add(void *ctx, uint32_t tgid, const char *const *frames, uint32_t n,
		    uint64_t count)
{
	return flame_add(ctx, tgid, frames, n, count);
}

int profile_tree(const struct profile *p, struct flame *t)
{
	return profile_walk(p, tree_add, t);
}
