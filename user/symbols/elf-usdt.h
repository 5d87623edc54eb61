/* SPDX-License-Identifier: GPL-2.0 */
/*
 * USDT probes of one ELF file (SystemTap's <sys/sdt.h>): the notes in its
 * .note.stapsdt, each a site of probe PROVIDER:NAME with its address, its
 * semaphore's (0: none) and its arguments in the assembler's words
 * ("-4@%edi 8@$3 -4@-20(%rbp) 8@counter(%rip)"). Addresses come back as
 * file offsets, what a uprobe and its reference counter take.
 */
#ifndef KTPROF_ELF_USDT_H
#define KTPROF_ELF_USDT_H

#include <stdint.h>

#include "util/error.h"

#define USDT_MAX_ARGS 12	/* as <sys/sdt.h> allows */

enum usdt_loc {
	USDT_REG,		/* a register's value */
	USDT_MEM,		/* the memory at register + disp */
	USDT_CONST,		/* disp itself */
};

struct usdt_arg {
	unsigned int size;	/* bytes: 1, 2, 4 or 8 */
	int is_signed;
	enum usdt_loc loc;
	unsigned int reg;	/* enum ktp_probe_reg */
	int64_t disp;		/* memory: from the register; ip: from the site */
};

struct usdt_site {
	uint64_t offset;	/* the site's, in the file */
	uint64_t sema_offset;	/* its semaphore's, in the file; 0: none */
	unsigned int nargs;
	struct usdt_arg args[USDT_MAX_ARGS];
};

/*
 * The sites of PROVIDER:NAME in @path, @max at most, into @sites; their
 * number, or a negative errno with the reason in @err: no such probe, an
 * argument these probes cannot read (an index register, a high byte
 * register), more than @max sites.
 */
int elf_usdt_find(const char *path, const char *provider, const char *name,
		  struct usdt_site *sites, unsigned int max, struct error *err);

/*
 * One argument's text ("-4@-20(%rbp)") into @a; a symbol's place
 * ("8@counter+8(%rip)") has the symbol's name in @sym (else "") and the
 * offset from it in @a->disp, for the caller to make the displacement
 * from the site. 0, or -EINVAL with the reason in @err.
 */
int elf_usdt_parse_arg(const char *text, struct usdt_arg *a, char *sym, unsigned int symlen,
		       struct error *err);

#endif
