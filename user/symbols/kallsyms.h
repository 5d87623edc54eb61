/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel symbols from a /proc/kallsyms snapshot, modules included. */
#ifndef KTPROF_KALLSYMS_H
#define KTPROF_KALLSYMS_H

#include <stdint.h>

struct kallsyms;

struct ksym {
	const char *name;
	const char *module;	/* NULL for the kernel image */
	uint64_t offset;	/* of the address from the symbol */
};

/*
 * Parse kallsyms text ("ADDR TYPE NAME [MODULE]" lines). Text symbols
 * only. NULL with errno EINVAL when no line parses, or when every address
 * is zero (a snapshot taken without privileges).
 */
struct kallsyms *kallsyms_parse(const char *text);
void kallsyms_free(struct kallsyms *ks);

/* The symbol containing @addr: 0 and *out filled, or -ENOENT. */
int kallsyms_lookup(const struct kallsyms *ks, uint64_t addr, struct ksym *out);

unsigned int kallsyms_count(const struct kallsyms *ks);

/* The address of the kernel image's text symbol @name: 0, or -ENOENT. */
int kallsyms_addr(const struct kallsyms *ks, const char *name, uint64_t *addr);

#endif
