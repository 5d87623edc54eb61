// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktprof_abi.h"
#include "symbols/elf-symtab.h"
#include "symbols/kallsyms.h"
#include "symbols/symbolizer.h"
#include "util/u64-map.h"

enum file_state { FILE_UNLOADED, FILE_LOADED, FILE_UNREADABLE, FILE_MISMATCH };

struct sym_file {
	char *path;
	const char *base;	/* basename of path */
	uint8_t build_id[KTP_BUILD_ID_MAX];
	unsigned int build_id_len;
	enum file_state state;
	struct elf_symtab *tab;
};

struct sym_map {
	uint64_t start, end, pgoff;
	uint64_t file_key;
};

/* One process's mappings, sorted by start, not overlapping. */
struct sym_proc {
	struct sym_map *v;
	unsigned int n, cap;
};

struct symbolizer {
	struct kallsyms *ks;
	/*
	 * The kallsyms snapshot until the first kernel address needs it:
	 * parsing it is most of the cost of a report without samples.
	 */
	char *ks_text;
	char *symfs;
	struct u64_map files;	/* file_key(dev, ino) -> struct sym_file */
	struct u64_map procs;	/* pid -> struct sym_proc */
	unsigned int mismatched, unreadable;
};

static uint64_t file_key(uint32_t dev, uint64_t ino)
{
	return ((uint64_t)dev << 44) ^ ino;
}

struct symbolizer *symbolizer_new(const char *kallsyms, const char *symfs)
{
	struct symbolizer *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	if ((kallsyms && !(s->ks_text = strdup(kallsyms))) ||
	    (symfs && !(s->symfs = strdup(symfs)))) {
		free(s->ks_text);
		free(s);
		return NULL;
	}
	u64_map_init(&s->files);
	u64_map_init(&s->procs);
	return s;
}

void symbolizer_free(struct symbolizer *s)
{
	size_t i = 0;
	uint64_t k;
	void *v;

	if (!s)
		return;
	while (u64_map_next(&s->files, &i, &k, &v)) {
		struct sym_file *f = v;

		elf_symtab_free(f->tab);
		free(f->path);
		free(f);
	}
	i = 0;
	while (u64_map_next(&s->procs, &i, &k, &v)) {
		free(((struct sym_proc *)v)->v);
		free(v);
	}
	u64_map_fini(&s->files);
	u64_map_fini(&s->procs);
	kallsyms_free(s->ks);
	free(s->ks_text);
	free(s->symfs);
	free(s);
}

/* The parsed snapshot, parsed on first use; NULL without a usable one. */
static struct kallsyms *get_kallsyms(struct symbolizer *s)
{
	if (s->ks_text) {
		s->ks = kallsyms_parse(s->ks_text);
		free(s->ks_text);
		s->ks_text = NULL;
	}
	return s->ks;
}

int symbolizer_has_kallsyms(struct symbolizer *s)
{
	return get_kallsyms(s) != NULL;
}

int symbolizer_ksym_addr(struct symbolizer *s, const char *name, uint64_t *addr)
{
	return get_kallsyms(s) ? kallsyms_addr(s->ks, name, addr) : -ENOENT;
}

static struct sym_proc *get_proc(struct symbolizer *s, uint32_t pid, int create)
{
	struct sym_proc *p = u64_map_get(&s->procs, pid);

	if (p || !create)
		return p;
	p = calloc(1, sizeof(*p));
	if (p && u64_map_put(&s->procs, pid, p)) {
		free(p);
		p = NULL;
	}
	return p;
}

/* Insert a mapping, replacing what it overlaps (the newer wins). */
static int add_map(struct sym_proc *p, const struct sym_map *m)
{
	unsigned int i, j;

	for (i = 0, j = 0; i < p->n; i++) {
		if (p->v[i].end <= m->start || p->v[i].start >= m->end)
			p->v[j++] = p->v[i];
	}
	p->n = j;
	if (p->n == p->cap) {
		unsigned int cap = p->cap ? p->cap * 2 : 16;
		struct sym_map *nv = realloc(p->v, cap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		p->v = nv;
		p->cap = cap;
	}
	for (i = p->n; i > 0 && p->v[i - 1].start > m->start; i--)
		p->v[i] = p->v[i - 1];
	p->v[i] = *m;
	p->n++;
	return 0;
}

static int on_file(struct symbolizer *s, const struct event *ev)
{
	struct ktp_file r;
	struct sym_file *f;
	const char *path = (const char *)ev->rec + sizeof(r);
	uint64_t key;

	memcpy(&r, ev->rec, sizeof(r));
	key = file_key(r.dev, r.ino);
	if (u64_map_get(&s->files, key))
		return 0;
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->path = strdup(path);
	if (!f->path) {
		free(f);
		return -ENOMEM;
	}
	f->base = strrchr(f->path, '/') ? strrchr(f->path, '/') + 1 : f->path;
	f->build_id_len = r.build_id_len <= KTP_BUILD_ID_MAX ? r.build_id_len : 0;
	memcpy(f->build_id, r.build_id, f->build_id_len);
	return u64_map_put(&s->files, key, f);
}

int symbolizer_on_event(struct symbolizer *s, const struct event *ev)
{
	switch (ev->type) {
	case KTP_REC_MAP: {
		struct ktp_map r;
		struct sym_proc *p;
		struct sym_map m;

		memcpy(&r, ev->rec, sizeof(r));
		if (r.end <= r.start)
			return 0;
		p = get_proc(s, r.pid, 1);
		if (!p)
			return -ENOMEM;
		m = (struct sym_map){ r.start, r.end, r.pgoff,
				      file_key(r.dev, r.ino) };
		return add_map(p, &m);
	}
	case KTP_REC_FILE:
		return on_file(s, ev);
	case KTP_REC_FORK: {
		struct ktp_fork r;
		struct sym_proc *p;

		/* A new process: whatever this pid mapped before is gone. */
		memcpy(&r, ev->rec, sizeof(r));
		if (ev->flags & KTP_FORK_THREAD)
			return 0;
		p = get_proc(s, r.child_pid, 0);
		if (p)
			p->n = 0;
		return 0;
	}
	}
	return 0;
}

static void load_file(struct symbolizer *s, struct sym_file *f)
{
	char path[4096];
	const uint8_t *id;
	unsigned int len;

	snprintf(path, sizeof(path), "%s%s", s->symfs ? s->symfs : "", f->path);
	f->tab = elf_symtab_open(path, NULL);
	if (!f->tab) {
		f->state = FILE_UNREADABLE;
		s->unreadable++;
		return;
	}
	len = elf_symtab_build_id(f->tab, &id);
	if (f->build_id_len && (len != f->build_id_len ||
				memcmp(id, f->build_id, len))) {
		/* Another binary than the one that ran: its names would lie. */
		elf_symtab_free(f->tab);
		f->tab = NULL;
		f->state = FILE_MISMATCH;
		s->mismatched++;
		return;
	}
	f->state = FILE_LOADED;
}

static void user_frame(struct symbolizer *s, uint32_t pid, uint64_t ip,
		       struct frame *out)
{
	struct sym_proc *p = get_proc(s, pid, 0);
	unsigned int lo = 0, hi = p ? p->n : 0;
	const struct sym_map *m;
	struct sym_file *f;
	struct usym us;
	uint64_t off;

	out->object = "[unknown]";
	out->offset = ip;
	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (p->v[mid].start <= ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || ip >= p->v[lo - 1].end)
		return;
	m = &p->v[lo - 1];
	off = m->pgoff + (ip - m->start);
	f = u64_map_get(&s->files, m->file_key);
	if (!f)
		return;
	out->object = f->base;
	out->offset = off;
	out->mapped = 1;
	out->file_key = m->file_key;
	out->file_offset = off;
	out->path = f->path;
	out->build_id = f->build_id;
	out->build_id_len = f->build_id_len;
	if (f->state == FILE_UNLOADED)
		load_file(s, f);
	if (f->state != FILE_LOADED || elf_symtab_lookup(f->tab, off, &us))
		return;
	out->func = us.name;
	out->offset = us.offset;
	out->resolved = 1;
}

void symbolizer_frame(struct symbolizer *s, uint32_t pid, uint64_t ip,
		      int kernel, struct frame *out)
{
	struct ksym ks;

	memset(out, 0, sizeof(*out));
	out->kernel = kernel;
	if (!kernel) {
		user_frame(s, pid, ip, out);
		return;
	}
	out->object = "[kernel]";
	out->offset = ip;
	if (!get_kallsyms(s) || kallsyms_lookup(s->ks, ip, &ks))
		return;
	out->func = ks.name;
	out->offset = ks.offset;
	out->object = ks.module ? ks.module : "[kernel]";
	out->resolved = 1;
}

const char *frame_str(const struct frame *f, int with_offset, char *buf,
		      size_t len)
{
	/* Kernel modules are named; the kernel image and user binaries not. */
	int mod = f->kernel && f->resolved && strcmp(f->object, "[kernel]");

	if (!f->resolved)
		snprintf(buf, len, f->object[0] == '[' ? "%s+0x%" PRIx64 :
			 "[%s]+0x%" PRIx64, f->object, f->offset);
	else if (with_offset)
		snprintf(buf, len, "%s+0x%" PRIx64 "%s%s%s", f->func, f->offset,
			 mod ? " [" : "", mod ? f->object : "", mod ? "]" : "");
	else
		snprintf(buf, len, "%s%s%s%s", f->func, mod ? " [" : "",
			 mod ? f->object : "", mod ? "]" : "");
	return buf;
}

unsigned int symbolizer_mismatched(const struct symbolizer *s)
{
	return s->mismatched;
}

unsigned int symbolizer_unreadable(const struct symbolizer *s)
{
	return s->unreadable;
}
