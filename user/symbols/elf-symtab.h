/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Function symbols of one ELF file (.symtab, else .dynsym), looked up by
 * file offset, with the file's GNU build id. Loaded once, then lookups are
 * binary searches.
 */
#ifndef KTPROF_ELF_SYMTAB_H
#define KTPROF_ELF_SYMTAB_H

#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

struct elf_symtab;

struct usym {
	const char *name;
	uint64_t offset;	/* of the address from the symbol */
};

/* NULL with the reason in @err (may be NULL): not ELF, unreadable, ... */
struct elf_symtab *elf_symtab_open(const char *path, struct error *err);
void elf_symtab_free(struct elf_symtab *t);

/* The GNU build id; returns its length (0: none). */
unsigned int elf_symtab_build_id(const struct elf_symtab *t, const uint8_t **id);

/* The function containing file offset @off: 0 or -ENOENT. */
int elf_symtab_lookup(const struct elf_symtab *t, uint64_t off, struct usym *out);

unsigned int elf_symtab_count(const struct elf_symtab *t);

/*
 * The file offset of function @name's first instruction (what a uprobe
 * takes): 0, or -ENOENT when the file has no such function.
 */
int elf_symtab_find(const struct elf_symtab *t, const char *name, uint64_t *off);

#endif
