// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ktprof_abi.h"
#include "symbols/elf-usdt.h"
#include "util/infile.h"

#define NT_STAPSDT 3

/* x86-64 register names as the assembler writes them, by pt_regs slot. */
static const struct {
	const char *name;
	unsigned int reg;
} reg_names[] = {
	{ "rax", KTP_REG_AX }, { "eax", KTP_REG_AX }, { "ax", KTP_REG_AX }, { "al", KTP_REG_AX },
	{ "rbx", KTP_REG_BX }, { "ebx", KTP_REG_BX }, { "bx", KTP_REG_BX }, { "bl", KTP_REG_BX },
	{ "rcx", KTP_REG_CX }, { "ecx", KTP_REG_CX }, { "cx", KTP_REG_CX }, { "cl", KTP_REG_CX },
	{ "rdx", KTP_REG_DX }, { "edx", KTP_REG_DX }, { "dx", KTP_REG_DX }, { "dl", KTP_REG_DX },
	{ "rsi", KTP_REG_SI }, { "esi", KTP_REG_SI }, { "si", KTP_REG_SI }, { "sil", KTP_REG_SI },
	{ "rdi", KTP_REG_DI }, { "edi", KTP_REG_DI }, { "di", KTP_REG_DI }, { "dil", KTP_REG_DI },
	{ "rbp", KTP_REG_BP }, { "ebp", KTP_REG_BP }, { "bp", KTP_REG_BP }, { "bpl", KTP_REG_BP },
	{ "rsp", KTP_REG_SP }, { "esp", KTP_REG_SP }, { "sp", KTP_REG_SP }, { "spl", KTP_REG_SP },
	{ "rip", KTP_REG_IP },
};

/* "%rdi", "%r8d": its pt_regs slot, or -1. */
static int reg_index(const char *s, size_t len)
{
	char name[8];
	unsigned int i, n;

	if (len < 2 || len >= sizeof(name) || s[0] != '%')
		return -1;
	memcpy(name, s + 1, len - 1);
	name[len - 1] = '\0';
	/* r8..r15 with their d, w and b halves. */
	if (name[0] == 'r' && isdigit((unsigned char)name[1])) {
		char *end;

		n = (unsigned int)strtoul(name + 1, &end, 10);
		if (n < 8 || n > 15 || (*end && (strchr("dwb", *end) == NULL || end[1])))
			return -1;
		return KTP_REG_R8 + (int)(n - 8);
	}
	for (i = 0; i < sizeof(reg_names) / sizeof(reg_names[0]); i++)
		if (!strcmp(name, reg_names[i].name))
			return (int)reg_names[i].reg;
	return -1;
}

static int parse_int(const char *s, size_t len, int64_t *v)
{
	char buf[32], *end;

	if (!len || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	*v = strtoll(buf, &end, 0);
	return errno || *end ? -1 : 0;
}

/* "DISP(%REG)", "(%REG)", "SYM[+-N](%rip)" */
static int parse_memory(const char *op, struct usdt_arg *a, char *sym, unsigned int symlen,
			struct error *err)
{
	const char *open = strchr(op, '('), *close = strrchr(op, ')');
	const char *plus;
	int reg;

	if (!close || close[1] || close < open)
		return error_set(err, -EINVAL, "USDT argument \"%s\": not an operand", op);
	if (memchr(open, ',', (size_t)(close - open)))
		return error_set(err, -EINVAL, "USDT argument \"%s\": an index register is not read",
				 op);
	reg = reg_index(open + 1, (size_t)(close - open - 1));
	if (reg < 0)
		return error_set(err, -EINVAL, "USDT argument \"%s\": unknown register", op);
	a->loc = USDT_MEM;
	a->reg = (unsigned int)reg;
	a->disp = 0;
	if (open == op || !parse_int(op, (size_t)(open - op), &a->disp))
		return 0;
	/* Not a number: a symbol, with an offset, relative to the ip. */
	if (reg != KTP_REG_IP)
		return error_set(err, -EINVAL, "USDT argument \"%s\": bad displacement", op);
	plus = op + strcspn(op, "+-(");
	if (plus != open && parse_int(plus, (size_t)(open - plus), &a->disp))
		return error_set(err, -EINVAL, "USDT argument \"%s\": bad displacement", op);
	if ((size_t)(plus - op) >= symlen)
		return error_set(err, -EINVAL, "USDT argument \"%s\": symbol too long", op);
	memcpy(sym, op, (size_t)(plus - op));
	sym[plus - op] = '\0';
	return 0;
}

int elf_usdt_parse_arg(const char *text, struct usdt_arg *a, char *sym, unsigned int symlen,
		       struct error *err)
{
	const char *at = strchr(text, '@'), *op;
	int64_t size;
	int reg;

	memset(a, 0, sizeof(*a));
	sym[0] = '\0';
	/* The size is optional in the format; without it, a word. */
	if (at) {
		if (parse_int(text, (size_t)(at - text), &size) ||
		    (llabs(size) != 1 && llabs(size) != 2 && llabs(size) != 4 && llabs(size) != 8))
			return error_set(err, -EINVAL, "USDT argument \"%s\": bad size", text);
		op = at + 1;
	} else {
		size = 8;
		op = text;
	}
	a->size = (unsigned int)llabs(size);
	a->is_signed = size < 0;
	if (op[0] == '$') {
		a->loc = USDT_CONST;
		if (parse_int(op + 1, strlen(op + 1), &a->disp))
			return error_set(err, -EINVAL, "USDT argument \"%s\": bad constant", text);
		return 0;
	}
	if (op[0] == '%') {
		reg = reg_index(op, strlen(op));
		if (reg < 0 || reg == KTP_REG_IP)
			return error_set(err, -EINVAL, "USDT argument \"%s\": a register these probes "
					 "do not read", text);
		a->loc = USDT_REG;
		a->reg = (unsigned int)reg;
		return 0;
	}
	return parse_memory(op, a, sym, symlen, err);
}

struct usdt_file {
	Elf *elf;
	const char *path;
	uint64_t base;		/* .stapsdt.base's address, 0: none */
};

/* A virtual address of the file to its file offset; -1 if none maps it. */
static int vaddr_offset(Elf *elf, uint64_t vaddr, uint64_t *off)
{
	size_t i, n;

	if (elf_getphdrnum(elf, &n))
		return -1;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD &&
		    vaddr >= ph.p_vaddr && vaddr < ph.p_vaddr + ph.p_filesz) {
			*off = vaddr - ph.p_vaddr + ph.p_offset;
			return 0;
		}
	}
	return -1;
}

/* Symbol @name's address (.symtab, else .dynsym): 0, or -1. */
static int symbol_vaddr(Elf *elf, const char *name, uint64_t *vaddr)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return -1;
	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *data = NULL;
		GElf_Shdr sh;
		size_t i;

		if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM) ||
		    !sh.sh_entsize)
			continue;
		data = elf_getdata(scn, NULL);
		for (i = 0; data && i < sh.sh_size / sh.sh_entsize; i++) {
			const char *s;
			GElf_Sym sym;

			if (!gelf_getsym(data, (int)i, &sym) || sym.st_shndx == SHN_UNDEF)
				continue;
			s = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (s && !strcmp(s, name)) {
				*vaddr = sym.st_value;
				return 0;
			}
		}
	}
	return -1;
}

/* The arguments' text of one site at @pc into @site. */
static int site_args(const struct usdt_file *f, const char *text, uint64_t pc,
		     struct usdt_site *site, struct error *err)
{
	char *copy = strdup(text), *save = NULL, *w, sym[128];
	int ret = 0;

	if (!copy)
		return error_set(err, -ENOMEM, NULL);
	for (w = strtok_r(copy, " ", &save); w && !ret; w = strtok_r(NULL, " ", &save)) {
		struct usdt_arg *a = &site->args[site->nargs];
		uint64_t at;

		if (site->nargs == USDT_MAX_ARGS) {
			ret = error_set(err, -EINVAL, "more than %d USDT arguments", USDT_MAX_ARGS);
			break;
		}
		ret = elf_usdt_parse_arg(w, a, sym, sizeof(sym), err);
		if (ret)
			break;
		/* At the hit the ip is the site's: the symbol is this far from it. */
		if (sym[0]) {
			if (symbol_vaddr(f->elf, sym, &at)) {
				ret = error_set(err, -EINVAL, "USDT argument \"%s\": %s has no symbol %s",
						w, f->path, sym);
				break;
			}
			a->disp += (int64_t)(at - pc);
		}
		site->nargs++;
	}
	free(copy);
	return ret;
}

/* One note's description: the site, if it is PROVIDER:NAME's (1), else 0. */
static int read_note(const struct usdt_file *f, const char *desc, size_t len, const char *provider,
		     const char *name, struct usdt_site *site, struct error *err)
{
	const char *prov, *nm, *args, *end = desc + len;
	uint64_t pc, base, sema;
	int ret;

	if (len < 3 * 8 + 3)
		return 0;
	memcpy(&pc, desc, 8);
	memcpy(&base, desc + 8, 8);
	memcpy(&sema, desc + 16, 8);
	prov = desc + 24;
	nm = memchr(prov, '\0', (size_t)(end - prov));
	if (!nm++ || nm >= end)
		return 0;
	args = memchr(nm, '\0', (size_t)(end - nm));
	if (!args++ || args >= end || !memchr(args, '\0', (size_t)(end - args)))
		return 0;
	if (strcmp(prov, provider) || strcmp(nm, name))
		return 0;
	/* A prelinked file moved: its sites moved with .stapsdt.base. */
	if (f->base && base) {
		pc += f->base - base;
		if (sema)
			sema += f->base - base;
	}
	memset(site, 0, sizeof(*site));
	if (vaddr_offset(f->elf, pc, &site->offset) ||
	    (sema && vaddr_offset(f->elf, sema, &site->sema_offset)))
		return error_set(err, -EINVAL, "%s: USDT %s:%s is at an address no segment maps",
				 f->path, provider, name);
	ret = site_args(f, args, pc, site, err);
	return ret ? ret : 1;
}

static int read_notes(const struct usdt_file *f, Elf_Scn *scn, const char *provider,
		      const char *name, struct usdt_site *sites, unsigned int max, unsigned int *n,
		      struct error *err)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t off = 0, name_off, desc_off;
	GElf_Nhdr nh;
	int ret;

	while (data && (off = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		if (nh.n_type != NT_STAPSDT || nh.n_namesz != sizeof("stapsdt") ||
		    memcmp((const char *)data->d_buf + name_off, "stapsdt", sizeof("stapsdt")))
			continue;
		if (*n == max) {
			struct usdt_site spare;

			ret = read_note(f, (const char *)data->d_buf + desc_off, nh.n_descsz,
					provider, name, &spare, err);
			if (ret > 0)
				return error_set(err, -E2BIG, "USDT %s:%s has more than %u sites",
						 provider, name, max);
			if (ret < 0)
				return ret;
			continue;
		}
		ret = read_note(f, (const char *)data->d_buf + desc_off, nh.n_descsz, provider,
				name, &sites[*n], err);
		if (ret < 0)
			return ret;
		*n += (unsigned int)ret;
	}
	return 0;
}

/* The file's .note.stapsdt sections and .stapsdt.base's address. */
static int scan(struct usdt_file *f, const char *provider, const char *name,
		struct usdt_site *sites, unsigned int max, unsigned int *n, struct error *err)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	int ret;

	if (elf_getshdrstrndx(f->elf, &shstrndx))
		return error_set(err, -ENOEXEC, "%s: no section names", f->path);
	while ((scn = elf_nextscn(f->elf, scn))) {
		GElf_Shdr sh;
		const char *sname;

		if (!gelf_getshdr(scn, &sh))
			continue;
		sname = elf_strptr(f->elf, shstrndx, sh.sh_name);
		if (sname && !strcmp(sname, ".stapsdt.base"))
			f->base = sh.sh_addr;
	}
	while ((scn = elf_nextscn(f->elf, scn))) {
		GElf_Shdr sh;
		const char *sname;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		sname = elf_strptr(f->elf, shstrndx, sh.sh_name);
		if (!sname || strcmp(sname, ".note.stapsdt"))
			continue;
		ret = read_notes(f, scn, provider, name, sites, max, n, err);
		if (ret)
			return ret;
	}
	return 0;
}

int elf_usdt_find(const char *path, const char *provider, const char *name,
		  struct usdt_site *sites, unsigned int max, struct error *err)
{
	struct usdt_file f = { .path = path };
	unsigned int n = 0;
	int fd, ret;

	fd = infile_open(AT_FDCWD, path, INFILE_DISK_ONLY);
	if (fd < 0)
		return error_set(err, fd, "%s: %s", path, error_str(fd));
	elf_version(EV_CURRENT);
	f.elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!f.elf || elf_kind(f.elf) != ELF_K_ELF || gelf_getclass(f.elf) != ELFCLASS64) {
		ret = error_set(err, -ENOEXEC, "%s: not a 64-bit ELF file", path);
	} else {
		ret = scan(&f, provider, name, sites, max, &n, err);
		if (!ret && !n)
			ret = error_set(err, -ENOENT, "%s has no USDT probe %s:%s", path, provider,
					name);
	}
	if (f.elf)
		elf_end(f.elf);
	close(fd);
	return ret ? ret : (int)n;
}
