// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/probe-spec.h"

static const char *const kind_names[] = {
	[KTP_PROBE_KPROBE] = "kprobe",
	[KTP_PROBE_KRETPROBE] = "kretprobe",
	[KTP_PROBE_UPROBE] = "uprobe",
	[KTP_PROBE_URETPROBE] = "uretprobe",
};

/* The spec's prefix of each kind, as probe_spec_parse() reads it. */
static const char *const kind_prefixes[] = {
	[KTP_PROBE_KPROBE] = "k",
	[KTP_PROBE_KRETPROBE] = "kr",
	[KTP_PROBE_UPROBE] = "u",
	[KTP_PROBE_URETPROBE] = "ur",
};

/* As struct pt_regs names them, by enum ktp_probe_reg. */
static const char *const reg_names[KTP_NR_REGS] = {
	"ax", "bx", "cx", "dx", "si", "di", "bp", "sp", "r8", "r9",
	"r10", "r11", "r12", "r13", "r14", "r15", "ip",
};

struct probe_type {
	const char *name;
	enum ktp_probe_fetch fetch;
	enum probe_show show;
};

static const struct probe_type types[] = {
	{ "u8", KTP_FETCH_U8, PROBE_SHOW_UNSIGNED },
	{ "u16", KTP_FETCH_U16, PROBE_SHOW_UNSIGNED },
	{ "u32", KTP_FETCH_U32, PROBE_SHOW_UNSIGNED },
	{ "u64", KTP_FETCH_U64, PROBE_SHOW_UNSIGNED },
	{ "s8", KTP_FETCH_U8, PROBE_SHOW_SIGNED },
	{ "s16", KTP_FETCH_U16, PROBE_SHOW_SIGNED },
	{ "s32", KTP_FETCH_U32, PROBE_SHOW_SIGNED },
	{ "s64", KTP_FETCH_U64, PROBE_SHOW_SIGNED },
	{ "x8", KTP_FETCH_U8, PROBE_SHOW_HEX },
	{ "x16", KTP_FETCH_U16, PROBE_SHOW_HEX },
	{ "x32", KTP_FETCH_U32, PROBE_SHOW_HEX },
	{ "x64", KTP_FETCH_U64, PROBE_SHOW_HEX },
	{ "str", KTP_FETCH_STR, PROBE_SHOW_STRING },
	{ "ustr", KTP_FETCH_USTR, PROBE_SHOW_STRING },
};

const char *probe_kind_name(enum ktp_probe_kind kind)
{
	return kind >= KTP_PROBE_KPROBE && kind <= KTP_PROBE_URETPROBE ?
	       kind_names[kind] : "probe";
}

/* Names are C identifiers, so that every output format takes them as keys. */
static int name_ok(const char *s, size_t len)
{
	size_t i;

	if (!len || len >= PROBE_NAME_MAX || isdigit((unsigned char)s[0]))
		return 0;
	for (i = 0; i < len; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '.' &&
		    s[i] != '%')
			return 0;
	return 1;
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || *end ? -1 : 0;
}

/* "FUNC[+OFF]" into @symbol and @offset; a uprobe's may be "0xOFF" alone. */
static int parse_location(char *s, struct probe_spec *p, struct error *err)
{
	char *plus = strchr(s, '+');

	p->offset = 0;
	if (plus) {
		*plus = '\0';
		if (parse_u64(plus + 1, &p->offset))
			return error_set(err, -EINVAL, "bad offset \"+%s\"", plus + 1);
		if (probe_spec_is_return(p) && p->offset)
			return error_set(err, -EINVAL, "a return probe takes a function, not an offset into it");
	}
	/*
	 * A uprobe's 0xOFF is a place in the file, not a symbol: no +OFF after
	 * it (as a symbol "0x10" it would read back as the offset 0x10).
	 */
	if (probe_spec_is_user(p) && s[0] == '0' && s[1] == 'x') {
		if (plus)
			return error_set(err, -EINVAL, "a file offset takes no +OFF: \"%s+%s\"", s, plus + 1);
		if (parse_u64(s, &p->offset))
			return error_set(err, -EINVAL, "bad file offset \"%s\"", s);
		p->symbol[0] = '\0';
		return 0;
	}
	if (!*s)
		return error_set(err, -EINVAL, "no function named");
	if (strlen(s) >= sizeof(p->symbol))
		return error_set(err, -EINVAL, "function name too long");
	if (strpbrk(s, " \t/:"))
		return error_set(err, -EINVAL, "bad function name \"%s\"", s);
	strcpy(p->symbol, s);
	return 0;
}

/* A uprobe's PATH, up to @end. */
static int parse_path(const char *s, const char *end, struct probe_spec *p, struct error *err)
{
	if ((size_t)(end - s) >= sizeof(p->path))
		return error_set(err, -EINVAL, "path too long");
	if (memchr(s, ' ', (size_t)(end - s)) || memchr(s, '\t', (size_t)(end - s)))
		return error_set(err, -EINVAL, "a path with white space cannot be probed");
	memcpy(p->path, s, (size_t)(end - s));
	p->path[end - s] = '\0';
	return 0;
}

/* "PATH:PROVIDER:PROBE" of a USDT probe. */
static int parse_usdt(char *loc, struct probe_spec *p, struct error *err)
{
	char *name = strrchr(loc, ':'), *provider;
	int ret;

	if (!name || name == loc)
		return error_set(err, -EINVAL, "want usdt:PATH:PROVIDER:PROBE");
	*name++ = '\0';
	provider = strrchr(loc, ':');
	if (!provider || provider == loc || !*name || !provider[1])
		return error_set(err, -EINVAL, "want usdt:PATH:PROVIDER:PROBE");
	ret = parse_path(loc, provider, p, err);
	if (ret)
		return ret;
	provider++;
	if (strlen(provider) + strlen(name) + 2 > sizeof(p->symbol) ||
	    strpbrk(provider, " \t/+") || strpbrk(name, " \t/+"))
		return error_set(err, -EINVAL, "bad USDT probe \"%s:%s\"", provider, name);
	p->kind = KTP_PROBE_UPROBE;
	p->usdt = 1;
	snprintf(p->symbol, sizeof(p->symbol), "%s:%s", provider, name);
	return 0;
}

/* "k:FUNC", "u:PATH:SYMBOL": the kind, the target and the default name. */
static int parse_target(char *s, struct probe_spec *p, struct error *err)
{
	char *colon = strchr(s, ':'), *loc;
	unsigned int k;
	int ret;

	if (!colon)
		return error_set(err, -EINVAL, "\"%s\": want k:, kr:, u:, ur: or usdt: before the target", s);
	*colon = '\0';
	loc = colon + 1;
	if (!strcmp(s, "usdt"))
		return parse_usdt(loc, p, err);
	p->kind = 0;
	for (k = KTP_PROBE_KPROBE; k <= KTP_PROBE_URETPROBE; k++)
		if (!strcmp(s, kind_prefixes[k]))
			p->kind = k;
	if (!p->kind)
		return error_set(err, -EINVAL, "unknown probe kind \"%s\" (k, kr, u, ur, usdt)", s);
	if (probe_spec_is_user(p)) {
		char *last = strrchr(loc, ':');

		if (!last || last == loc)
			return error_set(err, -EINVAL, "want %s:PATH:SYMBOL", s);
		ret = parse_path(loc, last, p, err);
		if (ret)
			return ret;
		loc = last + 1;
	}
	return parse_location(loc, p, err);
}

static int parse_src(const char *s, const struct probe_spec *p, struct ktp_probe_arg *k,
		     struct error *err)
{
	unsigned int i;

	if (!strcmp(s, "ret") || !strcmp(s, "$retval")) {
		if (!probe_spec_is_return(p))
			return error_set(err, -EINVAL, "\"ret\" is for return probes (kr:, ur:)");
		k->src = KTP_ARG_RET;
		return 0;
	}
	if (p->usdt && !strncmp(s, "arg", 3)) {
		char *end;
		unsigned long n = strtoul(s + 3, &end, 10);

		if (*end || n < 1 || n > 12 || !isdigit((unsigned char)s[3]))
			return error_set(err, -EINVAL, "a USDT probe has arguments arg1..arg12: \"%s\"", s);
		k->src = KTP_ARG_FN;
		k->index = (uint8_t)(n - 1);
		return 0;
	}
	if ((!strncmp(s, "arg", 3) || !strncmp(s, "$arg", 4)) && s[strlen(s) - 1] >= '1' &&
	    s[strlen(s) - 1] <= '6' && strlen(s) == (s[0] == '$' ? 5U : 4U)) {
		if (probe_spec_is_return(p))
			return error_set(err, -EINVAL, "a return probe has no arguments left: \"%s\"", s);
		if (p->offset)
			return error_set(err, -EINVAL, "\"%s\" is only known at a function's entry (no +OFF)", s);
		k->src = KTP_ARG_FN;
		k->index = s[strlen(s) - 1] - '1';
		return 0;
	}
	if (s[0] == '%') {
		for (i = 0; i < KTP_NR_REGS; i++)
			if (!strcmp(s + 1, reg_names[i])) {
				k->src = KTP_ARG_REG;
				k->index = i;
				return 0;
			}
		return error_set(err, -EINVAL, "unknown register \"%s\"", s);
	}
	return error_set(err, -EINVAL, "unknown argument source \"%s\" (arg1..arg6, %%REG, ret)", s);
}

/* "ANAME=SRC[:TYPE]" */
static int parse_arg(char *s, const struct probe_spec *p, struct probe_arg *a,
		     struct error *err)
{
	char *eq = strchr(s, '='), *colon;
	const char *type = "x64";
	unsigned int i;
	int ret;

	if (!eq)
		return error_set(err, -EINVAL, "argument \"%s\": want NAME=SRC[:TYPE]", s);
	*eq = '\0';
	if (!name_ok(s, strlen(s)))
		return error_set(err, -EINVAL, "bad argument name \"%s\"", s);
	strcpy(a->name, s);
	colon = strchr(eq + 1, ':');
	if (colon) {
		*colon = '\0';
		type = colon + 1;
		/* Only a USDT argument's type has another default: its note's. */
		a->typed = p->usdt;
	}
	memset(&a->k, 0, sizeof(a->k));
	ret = parse_src(eq + 1, p, &a->k, err);
	if (ret)
		return ret;
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcmp(type, types[i].name))
			break;
	if (i == sizeof(types) / sizeof(types[0]))
		return error_set(err, -EINVAL, "argument %s: unknown type \"%s\" "
				 "(u8..u64, s8..s64, x8..x64, str, ustr)", a->name, type);
	a->k.fetch = types[i].fetch;
	a->show = types[i].show;
	/* A uprobe's strings are the process's: always read as user memory. */
	if (probe_spec_is_user(p) && a->k.fetch == KTP_FETCH_STR)
		a->k.fetch = KTP_FETCH_USTR;
	return 0;
}

/*
 * FUNC, FUNC_0xOFF, FILE_0xOFF, with "%return" for return probes: what a
 * name may hold (name_ok()), so that the capture's list reads back.
 */
static void default_name(struct probe_spec *p)
{
	const char *base = p->symbol, *ret = probe_spec_is_return(p) ? "%return" : "";
	char tail[40] = "";
	size_t i, n = 0, room;

	if (!*base)
		base = strrchr(p->path, '/') ? strrchr(p->path, '/') + 1 : p->path;
	/* PROVIDER:PROBE as PROVIDER.PROBE below. */
	if (!p->symbol[0] || p->offset)
		snprintf(tail, sizeof(tail), "_0x%" PRIx64 "%s", p->offset, ret);
	else
		snprintf(tail, sizeof(tail), "%s", ret);
	room = PROBE_NAME_MAX - 2 - strlen(tail);
	if (!base[0] || isdigit((unsigned char)base[0]))
		p->name[n++] = '_';
	for (i = 0; base[i] && n < room; i++)
		p->name[n++] = isalnum((unsigned char)base[i]) || base[i] == '_' ||
			       base[i] == '.' ? base[i] : p->usdt && base[i] == ':' ? '.' : '_';
	strcpy(p->name + n, tail);
}

/* "stack" (the kind's own), "=k", "=u", "=ku": KTP_PROBE_STACK_*. */
static int parse_stack(const char *s, struct probe_spec *p, struct error *err)
{
	if (!*s)
		p->stacks = probe_spec_is_user(p) ? KTP_PROBE_STACK_USER : KTP_PROBE_STACK_KERNEL;
	else if (!strcmp(s, "=k"))
		p->stacks = KTP_PROBE_STACK_KERNEL;
	else if (!strcmp(s, "=u"))
		p->stacks = KTP_PROBE_STACK_USER;
	else if (!strcmp(s, "=ku") || !strcmp(s, "=uk"))
		p->stacks = KTP_PROBE_STACK_KERNEL | KTP_PROBE_STACK_USER;
	else
		return error_set(err, -EINVAL, "bad \"stack%s\" (stack, stack=k, stack=u, stack=ku)", s);
	/* A uprobe hits in user mode: it has no kernel stack of its own. */
	if (probe_spec_is_user(p) && (p->stacks & KTP_PROBE_STACK_KERNEL))
		return error_set(err, -EINVAL, "a uprobe has a user stack only (stack=u)");
	return 0;
}

static int parse_words(char *s, struct probe_spec *p, struct error *err)
{
	char *save = NULL, *w = strtok_r(s, " \t\n", &save), *eq;
	unsigned int i;
	int ret;

	if (!w)
		return error_set(err, -EINVAL, "empty probe");
	/* NAME=k:... : kinds have no '=', and a name has no ':'. */
	eq = strchr(w, '=');
	if (eq && memchr(w, ':', eq - w) == NULL) {
		if (!name_ok(w, eq - w))
			return error_set(err, -EINVAL, "bad probe name \"%.*s\"", (int)(eq - w), w);
		memcpy(p->name, w, eq - w);
		p->name[eq - w] = '\0';
		w = eq + 1;
	}
	ret = parse_target(w, p, err);
	if (ret)
		return ret;
	if (!p->name[0])
		default_name(p);
	while ((w = strtok_r(NULL, " \t\n", &save))) {
		if (!strncmp(w, "stack", 5) && (!w[5] || w[5] == '=')) {
			ret = parse_stack(w + 5, p, err);
			if (ret)
				return ret;
			continue;
		}
		if (p->nargs == KTP_PROBE_MAX_ARGS)
			return error_set(err, -EINVAL, "more than %d arguments", KTP_PROBE_MAX_ARGS);
		ret = parse_arg(w, p, &p->args[p->nargs], err);
		if (ret)
			return ret;
		for (i = 0; i < p->nargs; i++)
			if (!strcmp(p->args[i].name, p->args[p->nargs].name))
				return error_set(err, -EINVAL, "argument %s named twice",
						 p->args[i].name);
		p->nargs++;
	}
	return 0;
}

int probe_spec_parse(const char *text, struct probe_spec *p, struct error *err)
{
	char *s = strdup(text);
	int ret;

	if (!s)
		return error_set(err, -ENOMEM, NULL);
	memset(p, 0, sizeof(*p));
	ret = parse_words(s, p, err);
	free(s);
	return ret;
}

static const char *type_name(const struct probe_arg *a)
{
	unsigned int i;

	if (a->k.fetch == KTP_FETCH_USTR)
		return "ustr";
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (types[i].fetch == a->k.fetch && types[i].show == a->show)
			return types[i].name;
	return "x64";
}

static int format_src(const struct ktp_probe_arg *k, char *buf, size_t len)
{
	switch (k->src) {
	case KTP_ARG_FN:
		return snprintf(buf, len, "arg%u", k->index + 1);
	case KTP_ARG_REG:
		return snprintf(buf, len, "%%%s", k->index < KTP_NR_REGS ? reg_names[k->index] : "?");
	default:
		return snprintf(buf, len, "ret");
	}
}

const char *probe_spec_format(const struct probe_spec *p, char *buf, unsigned int len)
{
	size_t n = 0;
	unsigned int i;
	char src[16];

#define PUT(...) (n += snprintf(buf + n, n < len ? len - n : 0, __VA_ARGS__))
	PUT("%s=%s:", p->name, p->usdt ? "usdt" :
	    p->kind <= KTP_PROBE_URETPROBE && p->kind ? kind_prefixes[p->kind] : "k");
	if (probe_spec_is_user(p))
		PUT("%s:", p->path);
	/* A file offset is the whole location, 0x0 too (else nothing reads back). */
	if (p->usdt)
		PUT("%s", p->symbol);
	else if (!p->symbol[0])
		PUT("0x%" PRIx64, p->offset);
	else if (p->offset)
		PUT("%s+0x%" PRIx64, p->symbol, p->offset);
	else
		PUT("%s", p->symbol);
	for (i = 0; i < p->nargs; i++) {
		format_src(&p->args[i].k, src, sizeof(src));
		/* A USDT argument not yet resolved has its note's type, not x64. */
		if (p->usdt && !p->args[i].typed)
			PUT(" %s=%s", p->args[i].name, src);
		else
			PUT(" %s=%s:%s", p->args[i].name, src, type_name(&p->args[i]));
	}
	if (p->stacks)
		PUT(" stack=%s%s", p->stacks & KTP_PROBE_STACK_KERNEL ? "k" : "",
		    p->stacks & KTP_PROBE_STACK_USER ? "u" : "");
#undef PUT
	return buf;
}

int probe_table_parse(const char *text, struct probe_table *t, struct error *err)
{
	const char *line = text;
	struct error why;
	char buf[2048];
	int ret;

	memset(t, 0, sizeof(*t));
	while (line && *line) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		struct probe_spec *grown;

		if (len >= sizeof(buf) || t->n >= KTP_MAX_PROBES) {
			probe_table_fini(t);
			return error_set(err, -ERROR_BAD_META, "probe list too long");
		}
		memcpy(buf, line, len);
		buf[len] = '\0';
		line = nl ? nl + 1 : NULL;
		if (!len)
			continue;
		grown = realloc(t->probes, (t->n + 1) * sizeof(*grown));
		if (!grown) {
			probe_table_fini(t);
			return error_set(err, -ENOMEM, NULL);
		}
		t->probes = grown;
		ret = probe_spec_parse(buf, &t->probes[t->n], &why);
		if (ret) {
			/* The failing line's id, before the table (and its count) goes. */
			unsigned int id = t->n;

			probe_table_fini(t);
			return error_set(err, -ERROR_BAD_META, "probe %u: %s", id, error_msg(&why));
		}
		t->n++;
	}
	return 0;
}

int probe_stats_get(const char *text, unsigned int id, uint64_t *hits, uint64_t *missed)
{
	unsigned int got;

	while (text && *text) {
		if (sscanf(text, "%u %" SCNu64 " %" SCNu64, &got, hits, missed) == 3 && got == id)
			return 1;
		text = strchr(text, '\n');
		text = text ? text + 1 : NULL;
	}
	*hits = *missed = 0;
	return 0;
}

void probe_table_fini(struct probe_table *t)
{
	free(t->probes);
	t->probes = NULL;
	t->n = 0;
}
