// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/probe-set.h"
#include "symbols/elf-symtab.h"
#include "symbols/elf-usdt.h"

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

/* A uprobe's file, made real: the module holds that file. */
static int real_path(struct probe_spec *p, struct error *err)
{
	char real[PATH_MAX];

	if (!realpath(p->path, real))
		return error_set(err, -errno, "%s: %s", p->path, strerror(errno));
	if (strlen(real) >= sizeof(p->path) || strpbrk(real, " \t\n"))
		return error_set(err, -EINVAL, "%s: a path ktprof cannot keep (too long, "
				 "or white space)", real);
	strcpy(p->path, real);
	return 0;
}

static int resolve_user(struct probe_spec *p, struct ktp_probe_spec *k, struct error *err)
{
	uint64_t sym_offset = p->offset;
	int ret;

	ret = real_path(p, err);
	if (ret)
		return ret;
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

static enum ktp_probe_fetch usdt_fetch(unsigned int size)
{
	return size == 1 ? KTP_FETCH_U8 : size == 2 ? KTP_FETCH_U16 :
	       size == 4 ? KTP_FETCH_U32 : KTP_FETCH_U64;
}

/*
 * A USDT probe's arguments as its first site's note has them: all of
 * them when none was named (arg1..argN), and each one's width (a string
 * stays a string), and its sign unless a TYPE was given.
 */
static int usdt_args(struct probe_spec *p, const struct usdt_site *site, struct error *err)
{
	unsigned int i;

	if (!p->nargs) {
		for (i = 0; i < site->nargs && i < KTP_PROBE_MAX_ARGS; i++) {
			snprintf(p->args[i].name, sizeof(p->args[i].name), "arg%u", i + 1);
			p->args[i].k.src = KTP_ARG_FN;
			p->args[i].k.index = (uint8_t)i;
		}
		p->nargs = i;
	}
	for (i = 0; i < p->nargs; i++) {
		struct probe_arg *a = &p->args[i];
		const struct usdt_arg *u;

		if (a->k.src != KTP_ARG_FN) {
			a->typed = 1;
			continue;
		}
		if (a->k.index >= site->nargs)
			return error_set(err, -EINVAL, "USDT %s has %u arguments: no arg%u",
					 p->symbol, site->nargs, a->k.index + 1);
		u = &site->args[a->k.index];
		if (a->show == PROBE_SHOW_STRING) {
			a->typed = 1;
			continue;
		}
		a->k.fetch = usdt_fetch(u->size);
		if (!a->typed)
			a->show = u->is_signed ? PROBE_SHOW_SIGNED : PROBE_SHOW_UNSIGNED;
		/* Its type is known now: the capture keeps it. */
		a->typed = 1;
	}
	return 0;
}

/* Where the USDT argument is at this site, for the module. */
static int usdt_arg_place(const struct probe_spec *p, const struct usdt_arg *u,
			  struct ktp_probe_arg *k, struct error *err)
{
	if (u->loc != USDT_REG && (u->disp < INT32_MIN || u->disp > INT32_MAX))
		return error_set(err, -EINVAL, "USDT %s: an argument's place is out of reach "
				 "(0x%" PRIx64 ")", p->symbol, (uint64_t)u->disp);
	k->src = u->loc == USDT_REG ? KTP_ARG_REG : u->loc == USDT_MEM ? KTP_ARG_MEM : KTP_ARG_CONST;
	k->index = (uint8_t)u->reg;
	k->disp = u->loc == USDT_REG ? 0 : (int32_t)u->disp;
	return 0;
}

/* Each of @n sites of USDT probe @p as the module's spec, after @base's. */
static int usdt_sites(const struct probe_spec *p, const struct usdt_site *sites, unsigned int n,
		      const struct ktp_probe_spec *base, struct ktp_probe_spec *k,
		      struct error *err)
{
	unsigned int i, j;
	int ret;

	for (i = 0; i < n; i++) {
		k[i] = *base;
		k[i].offset = sites[i].offset;
		k[i].ref_ctr_offset = sites[i].sema_offset;
		for (j = 0; j < p->nargs; j++) {
			if (p->args[j].k.src != KTP_ARG_FN)
				continue;
			if (p->args[j].k.index >= sites[i].nargs)
				return error_set(err, -EINVAL, "USDT %s: its sites differ in "
						 "arguments", p->symbol);
			ret = usdt_arg_place(p, &sites[i].args[p->args[j].k.index], &k[i].args[j],
					     err);
			if (ret)
				return ret;
		}
	}
	return 0;
}

/* A USDT probe: its sites into the set's, *@nk of them. */
static int resolve_usdt(struct probe_set *s, struct probe_spec *p, unsigned int *nk,
			struct error *err)
{
	unsigned int room = KTP_MAX_PROBE_SITES - s->nk, i;
	struct ktp_probe_spec base;
	struct usdt_site *sites;
	char provider[KTP_PROBE_TARGET_MAX], *name;
	int ret;

	ret = real_path(p, err);
	if (ret)
		return ret;
	strcpy(provider, p->symbol);
	name = strchr(provider, ':');
	*name++ = '\0';
	sites = calloc(room + 1, sizeof(*sites));
	if (!sites)
		return error_set(err, -ENOMEM, NULL);
	ret = elf_usdt_find(p->path, provider, name, sites, room, err);
	if (ret < 0)
		goto out;
	*nk = (unsigned int)ret;
	ret = usdt_args(p, &sites[0], err);
	if (ret)
		goto out;
	s->k[s->nk].nargs = (uint8_t)p->nargs;
	for (i = 0; i < p->nargs; i++)
		s->k[s->nk].args[i] = p->args[i].k;
	strcpy(s->k[s->nk].target, p->path);
	base = s->k[s->nk];
	ret = usdt_sites(p, sites, *nk, &base, &s->k[s->nk], err);
out:
	free(sites);
	return ret;
}

int probe_set_add(struct probe_set *s, const char *text, struct error *err)
{
	struct probe_spec *p = &s->specs[s->n];
	struct ktp_probe_spec *k = &s->k[s->nk];
	unsigned int i, nk = 1;
	int ret;

	if (s->n == KTP_MAX_PROBES)
		return error_set(err, -E2BIG, "at most %d probes", KTP_MAX_PROBES);
	if (s->nk == KTP_MAX_PROBE_SITES)
		return error_set(err, -E2BIG, "at most %d probe sites (a USDT probe's each count)",
				 KTP_MAX_PROBE_SITES);
	ret = probe_spec_parse(text, p, err);
	if (ret)
		return ret;
	for (i = 0; i < s->n; i++)
		if (!strcmp(s->specs[i].name, p->name))
			return error_set(err, -EINVAL, "two probes named %s (name one NAME=...)",
					 p->name);
	memset(k, 0, sizeof(*k));
	k->kind = p->kind;
	k->id = (uint16_t)s->n;
	k->flags = p->stacks;
	k->nargs = p->nargs;
	for (i = 0; i < p->nargs; i++)
		k->args[i] = p->args[i].k;
	if (p->usdt) {
		ret = resolve_usdt(s, p, &nk, err);
	} else if (probe_spec_is_user(p)) {
		ret = resolve_user(p, k, err);
		/* A function's own first instruction: its caller is at the stack pointer. */
		if (p->kind == KTP_PROBE_UPROBE && p->symbol[0] && !p->offset)
			k->flags |= KTP_PROBE_AT_ENTRY;
	} else {
		strcpy(k->target, p->symbol);
		k->offset = p->offset;
	}
	if (ret)
		return ret;
	s->nk += nk;
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
