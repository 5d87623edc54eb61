// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/kallsyms.h"

/* Past the last symbol of a range, an address is not trusted beyond this. */
#define KSYM_MAX_SPAN (1 << 20)

struct ksym_entry {
	uint64_t addr;
	uint32_t name;		/* offsets into the string pool */
	uint32_t module;	/* 0: none */
};

struct kallsyms {
	struct ksym_entry *v;
	unsigned int n, cap;
	char *pool;
	size_t pool_len, pool_cap;
};

static uint32_t pool_add(struct kallsyms *ks, const char *s, size_t len)
{
	uint32_t off;

	if (ks->pool_len + len + 1 > ks->pool_cap) {
		size_t cap = ks->pool_cap ? ks->pool_cap * 2 : 1 << 16;
		char *np;

		while (cap < ks->pool_len + len + 1)
			cap *= 2;
		np = realloc(ks->pool, cap);
		if (!np)
			return UINT32_MAX;
		ks->pool = np;
		ks->pool_cap = cap;
	}
	off = ks->pool_len;
	memcpy(ks->pool + off, s, len);
	ks->pool[off + len] = '\0';
	ks->pool_len += len + 1;
	return off;
}

static int by_addr(const void *a, const void *b)
{
	const struct ksym_entry *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* One line; returns 1 if it added a text symbol. */
static int parse_line(struct kallsyms *ks, const char *line, const char *end,
		      uint32_t *last_module, char *last_module_name)
{
	const char *name, *name_end, *mod = NULL, *mod_end = NULL;
	uint64_t addr;
	char type, *p;

	/*
	 * strtoull() skips leading white space, newlines included: on a run
	 * of blank lines each would rescan the rest of the run.
	 */
	if (!isxdigit((unsigned char)*line))
		return 0;
	addr = strtoull(line, &p, 16);
	if (*p != ' ' || p + 3 > end)
		return 0;
	type = p[1];
	if (p[2] != ' ')
		return 0;
	if (type != 't' && type != 'T' && type != 'w' && type != 'W')
		return 0;
	name = p + 3;
	for (name_end = name; name_end < end && *name_end != ' ' &&
	     *name_end != '\t'; name_end++)
		;
	if (name_end == name)
		return 0;
	for (p = (char *)name_end; p < end; p++) {
		if (*p == '[') {
			mod = p + 1;
			mod_end = memchr(mod, ']', end - mod);
			break;
		}
	}
	if (ks->n == ks->cap) {
		unsigned int cap = ks->cap ? ks->cap * 2 : 4096;
		struct ksym_entry *nv = realloc(ks->v, cap * sizeof(*nv));

		if (!nv)
			return -1;
		ks->v = nv;
		ks->cap = cap;
	}
	ks->v[ks->n].addr = addr;
	ks->v[ks->n].name = pool_add(ks, name, name_end - name);
	ks->v[ks->n].module = 0;
	if (mod && mod_end) {
		size_t len = mod_end - mod;

		/* Lines of one module come together: share its string. */
		if (!*last_module || strlen(last_module_name) != len ||
		    memcmp(last_module_name, mod, len)) {
			*last_module = pool_add(ks, mod, len);
			if (len > 63)
				len = 63;
			memcpy(last_module_name, mod, len);
			last_module_name[len] = '\0';
		}
		ks->v[ks->n].module = *last_module;
	}
	if (ks->v[ks->n].name == UINT32_MAX || ks->v[ks->n].module == UINT32_MAX)
		return -1;
	ks->n++;
	return 1;
}

struct kallsyms *kallsyms_parse(const char *text)
{
	struct kallsyms *ks = calloc(1, sizeof(*ks));
	char last_module_name[64] = "";
	uint32_t last_module = 0;
	unsigned int i, nonzero = 0;
	const char *line = text;

	if (!ks)
		return NULL;
	pool_add(ks, "", 0);	/* offset 0: no module */
	while (*line) {
		const char *end = strchr(line, '\n');

		if (!end)
			end = line + strlen(line);
		if (parse_line(ks, line, end, &last_module, last_module_name) < 0) {
			kallsyms_free(ks);
			errno = ENOMEM;
			return NULL;
		}
		line = *end ? end + 1 : end;
	}
	for (i = 0; i < ks->n; i++)
		nonzero += ks->v[i].addr != 0;
	if (!nonzero) {
		kallsyms_free(ks);
		errno = EINVAL;
		return NULL;
	}
	qsort(ks->v, ks->n, sizeof(*ks->v), by_addr);
	return ks;
}

void kallsyms_free(struct kallsyms *ks)
{
	if (!ks)
		return;
	free(ks->v);
	free(ks->pool);
	free(ks);
}

unsigned int kallsyms_count(const struct kallsyms *ks)
{
	return ks->n;
}

/* A scan: for the few names a reader looks up once. */
int kallsyms_addr(const struct kallsyms *ks, const char *name, uint64_t *addr)
{
	unsigned int i;

	for (i = 0; i < ks->n; i++) {
		if (!ks->v[i].module && !strcmp(ks->pool + ks->v[i].name, name)) {
			*addr = ks->v[i].addr;
			return 0;
		}
	}
	return -ENOENT;
}

int kallsyms_lookup(const struct kallsyms *ks, uint64_t addr, struct ksym *out)
{
	unsigned int lo = 0, hi = ks->n;
	const struct ksym_entry *e;

	/* The last symbol at or below addr. */
	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (ks->v[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return -ENOENT;
	e = &ks->v[lo - 1];
	if (!e->addr || addr - e->addr > KSYM_MAX_SPAN)
		return -ENOENT;
	out->name = ks->pool + e->name;
	out->module = e->module ? ks->pool + e->module : NULL;
	out->offset = addr - e->addr;
	return 0;
}
