// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/probe-set.h"
#include "symbols/elf-symtab.h"

/* A uprobe's symbol to its file offset, the offset given added. */
static int resolve_symbol(struct probe_spec *p, struct error *err)
{
	struct elf_symtab *t;
	struct error why;
	uint64_t off;
	int ret;

	t = elf_symtab_open(p->path, &why);
	if (!t)
		return error_set(err, why.code ? why.code : -EINVAL, "%s: %s", p->path,
				 error_msg(&why));
	ret = elf_symtab_find(t, p->symbol, &off);
	elf_symtab_free(t);
	if (ret)
		return error_set(err, ret, "%s has no function %s", p->path, p->symbol);
	p->offset += off;
	return 0;
}

static int resolve_user(struct probe_spec *p, struct ktp_probe_spec *k, struct error *err)
{
	char real[PATH_MAX];
	uint64_t sym_offset = p->offset;
	int ret;

	if (!realpath(p->path, real))
		return error_set(err, -errno, "%s: %s", p->path, strerror(errno));
	if (strlen(real) >= sizeof(p->path) || strpbrk(real, " \t\n"))
		return error_set(err, -EINVAL, "%s: a path ktprof cannot keep (too long, "
				 "or white space)", real);
	strcpy(p->path, real);
	if (p->symbol[0]) {
		ret = resolve_symbol(p, err);
		if (ret)
			return ret;
	}
	strcpy(k->target, p->path);
	k->offset = p->offset;
	/* The capture keeps SYMBOL+OFF as given; the module, the file offset. */
	p->offset = p->symbol[0] ? sym_offset : p->offset;
	return 0;
}

int probe_set_add(struct probe_set *s, const char *text, struct error *err)
{
	struct probe_spec *p = &s->specs[s->n];
	struct ktp_probe_spec *k = &s->k[s->n];
	unsigned int i;
	int ret;

	if (s->n == KTP_MAX_PROBES)
		return error_set(err, -E2BIG, "at most %d probes", KTP_MAX_PROBES);
	ret = probe_spec_parse(text, p, err);
	if (ret)
		return ret;
	for (i = 0; i < s->n; i++)
		if (!strcmp(s->specs[i].name, p->name))
			return error_set(err, -EINVAL, "two probes named %s (name one NAME=...)",
					 p->name);
	memset(k, 0, sizeof(*k));
	k->kind = p->kind;
	k->nargs = p->nargs;
	for (i = 0; i < p->nargs; i++)
		k->args[i] = p->args[i].k;
	if (probe_spec_is_user(p)) {
		ret = resolve_user(p, k, err);
		if (ret)
			return ret;
	} else {
		strcpy(k->target, p->symbol);
		k->offset = p->offset;
	}
	s->n++;
	return 0;
}

char *probe_set_text(const struct probe_set *s)
{
	size_t size = 1, used = 0;
	char line[2048], *text;
	unsigned int i;

	for (i = 0; i < s->n; i++)
		size += strlen(probe_spec_format(&s->specs[i], line, sizeof(line))) + 1;
	text = malloc(size);
	if (!text)
		return NULL;
	text[0] = '\0';
	for (i = 0; i < s->n; i++)
		used += snprintf(text + used, size - used, "%s\n",
				 probe_spec_format(&s->specs[i], line, sizeof(line)));
	return text;
}
