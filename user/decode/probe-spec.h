/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Probes of the user's choosing (record --probe): their text, parsed.
 *
 *   [NAME=]k:FUNC[+OFF] [ARG]...       a kprobe
 *   [NAME=]kr:FUNC [ARG]...            FUNC's return
 *   [NAME=]u:PATH:SYMBOL[+OFF] [ARG]...  a uprobe (or u:PATH:0xOFFSET, an
 *                                      offset in the file, without +OFF)
 *   [NAME=]ur:PATH:SYMBOL [ARG]...     its return
 *   [NAME=]usdt:PATH:PROVIDER:PROBE [ARG]...  a USDT probe (<sys/sdt.h>),
 *                                      every site of it, its semaphore set
 *   ARG = ANAME=SRC[:TYPE], or stack[=k|u|ku]: each hit's kernel and/or
 *         user stack (stack alone: a kprobe's kernel stack, a uprobe's
 *         user stack)
 *   SRC = arg1..arg6 (the function's arguments, x86-64 ABI; a USDT
 *         probe's arguments arg1..arg12, where the note says they are),
 *         %REG (%di, %ax, ...), ret (return probes)
 *   TYPE = u8 u16 u32 u64 s8 s16 s32 s64 x8 x16 x32 x64 (default x64; a
 *          USDT argument's from its note), str (a kernel string; a user
 *          string in a uprobe), ustr (a user string, read without faulting)
 *
 * NAME defaults to FUNC or SYMBOL (FUNC_0xOFF, FILE_0xOFF with an offset;
 * other characters than letters, digits, _ and . as _), PROVIDER.PROBE
 * for USDT, with "%return" for return probes. A USDT probe without ARGs
 * takes all its arguments, arg1..argN. Words are split at white space, so
 * a path with spaces cannot be named. A capture keeps each probe's text
 * as probe_spec_format() writes it, one a line, in its meta
 * (probe_table).
 */
#ifndef KTPROF_PROBE_SPEC_H
#define KTPROF_PROBE_SPEC_H

#include <stdint.h>

#include "ktprof_abi.h"
#include "util/error.h"

#define PROBE_NAME_MAX 64

/* How an argument is shown: the kernel's fetch and the sign and base. */
enum probe_show {
	PROBE_SHOW_UNSIGNED,
	PROBE_SHOW_SIGNED,
	PROBE_SHOW_HEX,
	PROBE_SHOW_STRING,
};

struct probe_arg {
	char name[PROBE_NAME_MAX];
	struct ktp_probe_arg k;	/* src, index, fetch */
	enum probe_show show;
	int typed;		/* a USDT probe's: its TYPE was given */
};

struct probe_spec {
	char name[PROBE_NAME_MAX];
	enum ktp_probe_kind kind;
	char path[KTP_PROBE_TARGET_MAX];	/* uprobes: the file */
	char symbol[KTP_PROBE_TARGET_MAX];	/* the function, "" for an offset;
						 * USDT: "PROVIDER:PROBE" */
	uint64_t offset;	/* from the symbol, or in the file */
	int usdt;		/* a USDT probe (kind KTP_PROBE_UPROBE) */
	unsigned int stacks;	/* KTP_PROBE_STACK_* */
	unsigned int nargs;
	struct probe_arg args[KTP_PROBE_MAX_ARGS];
};

/* Parse @text (see above) into @p. -EINVAL with the reason in @err. */
int probe_spec_parse(const char *text, struct probe_spec *p, struct error *err);

/* @p as text probe_spec_parse() reads back, in @buf. */
const char *probe_spec_format(const struct probe_spec *p, char *buf, unsigned int len);

/* Whether @p is a return probe. */
static inline int probe_spec_is_return(const struct probe_spec *p)
{
	return p->kind == KTP_PROBE_KRETPROBE || p->kind == KTP_PROBE_URETPROBE;
}

/* Whether @p is a uprobe or a return uprobe. */
static inline int probe_spec_is_user(const struct probe_spec *p)
{
	return p->kind == KTP_PROBE_UPROBE || p->kind == KTP_PROBE_URETPROBE;
}

/* A signed argument's kept value (masked to its width), sign-extended. */
static inline int64_t probe_arg_signed(const struct probe_arg *a, uint64_t v)
{
	unsigned int bits = a->k.fetch == KTP_FETCH_U8 ? 8 : a->k.fetch == KTP_FETCH_U16 ? 16 :
			    a->k.fetch == KTP_FETCH_U32 ? 32 : 64;

	if (bits < 64 && (v >> (bits - 1) & 1))
		return (int64_t)(v | ~0ULL << bits);
	return (int64_t)v;
}

/* "kprobe", "kretprobe", "uprobe", "uretprobe". */
const char *probe_kind_name(enum ktp_probe_kind kind);

/* @p's kind as the tools show it: probe_kind_name(), "usdt" for a USDT probe. */
static inline const char *probe_spec_kind(const struct probe_spec *p)
{
	return p->usdt ? "usdt" : probe_kind_name(p->kind);
}

/* A capture's probes, by id (their index), from its meta text. */
struct probe_table {
	unsigned int n;
	struct probe_spec *probes;
};

/* Parse meta text, one probe_spec_format() line each; an empty table for NULL. */
int probe_table_parse(const char *text, struct probe_table *t, struct error *err);
void probe_table_fini(struct probe_table *t);

/*
 * The module's count of probe @id in META probe_stats ("ID HITS MISSES"
 * lines, NULL: none): 1 with *@hits and *@missed, 0 when it has no line.
 */
int probe_stats_get(const char *text, unsigned int id, uint64_t *hits, uint64_t *missed);

/* Probe @id, or NULL when the capture has no such probe. */
static inline const struct probe_spec *probe_table_get(const struct probe_table *t,
							unsigned int id)
{
	return id < t->n ? &t->probes[id] : NULL;
}

#endif
