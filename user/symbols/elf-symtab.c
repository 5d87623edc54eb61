// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ktprof_abi.h"
#include "symbols/elf-symtab.h"
#include "util/infile.h"

struct elf_func {
	uint64_t start, size;
	uint32_t name;		/* offset into the pool */
};

struct elf_segment {
	uint64_t offset, filesz, vaddr;
};

struct elf_symtab {
	struct elf_func *funcs;
	unsigned int n;
	struct elf_segment *segs;
	unsigned int nsegs;
	char *pool;
	size_t pool_len;
	uint8_t build_id[KTP_BUILD_ID_MAX];
	unsigned int build_id_len;
};

static int by_start(const void *a, const void *b)
{
	const struct elf_func *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	/* Same address: sized symbols first, then by name for stability. */
	return (y->size > 0) - (x->size > 0);
}

static int read_segments(Elf *elf, struct elf_symtab *t)
{
	size_t i, n;

	if (elf_getphdrnum(elf, &n))
		return -EINVAL;
	t->segs = calloc(n ? n : 1, sizeof(*t->segs));
	if (!t->segs)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, i, &ph))
			continue;
		if (ph.p_type == PT_LOAD) {
			t->segs[t->nsegs++] = (struct elf_segment){
				ph.p_offset, ph.p_filesz, ph.p_vaddr,
			};
		} else if (ph.p_type == PT_NOTE && !t->build_id_len) {
			Elf_Data *d = elf_getdata_rawchunk(elf, ph.p_offset,
							   ph.p_filesz,
							   ELF_T_NHDR);
			size_t off = 0, name_off, desc_off;
			GElf_Nhdr nh;

			while (d && (off = gelf_getnote(d, off, &nh, &name_off,
							&desc_off)) > 0) {
				if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
				    !memcmp((char *)d->d_buf + name_off, "GNU", 4) &&
				    nh.n_descsz && nh.n_descsz <= KTP_BUILD_ID_MAX) {
					memcpy(t->build_id,
					       (char *)d->d_buf + desc_off,
					       nh.n_descsz);
					t->build_id_len = nh.n_descsz;
					break;
				}
			}
		}
	}
	return 0;
}

/* Function symbols of the first section of @type; 0 or -errno. */
static int read_symbols(Elf *elf, struct elf_symtab *t, Elf64_Word type)
{
	Elf_Scn *scn = NULL;
	size_t pool_cap = 0;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *d;
		size_t i, count;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != type || !sh.sh_entsize)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d)
			continue;
		count = sh.sh_size / sh.sh_entsize;
		t->funcs = calloc(count ? count : 1, sizeof(*t->funcs));
		if (!t->funcs)
			return -ENOMEM;
		for (i = 0; i < count; i++) {
			GElf_Sym s;
			const char *name;
			size_t len;

			if (!gelf_getsym(d, i, &s) || !s.st_value ||
			    (GELF_ST_TYPE(s.st_info) != STT_FUNC &&
			     GELF_ST_TYPE(s.st_info) != STT_GNU_IFUNC))
				continue;
			name = elf_strptr(elf, sh.sh_link, s.st_name);
			if (!name || !*name)
				continue;
			len = strlen(name) + 1;
			if (t->pool_len + len > pool_cap) {
				char *np;

				pool_cap = pool_cap ? pool_cap * 2 : 1 << 16;
				while (pool_cap < t->pool_len + len)
					pool_cap *= 2;
				np = realloc(t->pool, pool_cap);
				if (!np)
					return -ENOMEM;
				t->pool = np;
			}
			memcpy(t->pool + t->pool_len, name, len);
			t->funcs[t->n++] = (struct elf_func){
				s.st_value, s.st_size, t->pool_len,
			};
			t->pool_len += len;
		}
		return 0;
	}
	return -ENOENT;
}

struct elf_symtab *elf_symtab_open(const char *path, struct error *err)
{
	struct elf_symtab *t = calloc(1, sizeof(*t));
	Elf *elf = NULL;
	int fd, ret;

	if (!t) {
		error_set(err, -ENOMEM, NULL);
		return NULL;
	}
	/* The path comes from a capture: a FIFO, a device, /proc/kcore are not read. */
	fd = infile_open(AT_FDCWD, path, INFILE_DISK_ONLY);
	if (fd < 0) {
		error_set(err, fd, "%s: %s", path, error_str(fd));
		goto fail;
	}
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		error_set(err, -ENOEXEC, "%s: not an ELF file", path);
		goto fail;
	}
	ret = read_segments(elf, t);
	if (!ret) {
		ret = read_symbols(elf, t, SHT_SYMTAB);
		/* Stripped: the dynamic symbols are what is left. */
		if (ret == -ENOENT || (!ret && !t->n)) {
			free(t->funcs);
			t->funcs = NULL;
			t->n = 0;
			ret = read_symbols(elf, t, SHT_DYNSYM);
		}
	}
	if (ret && ret != -ENOENT) {
		error_set(err, ret, "%s: %s", path, error_str(ret));
		goto fail;
	}
	if (t->n)	/* funcs is NULL without a symbol table */
		qsort(t->funcs, t->n, sizeof(*t->funcs), by_start);
	elf_end(elf);
	close(fd);
	return t;
fail:
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
	elf_symtab_free(t);
	return NULL;
}

void elf_symtab_free(struct elf_symtab *t)
{
	if (!t)
		return;
	free(t->funcs);
	free(t->segs);
	free(t->pool);
	free(t);
}

unsigned int elf_symtab_build_id(const struct elf_symtab *t, const uint8_t **id)
{
	*id = t->build_id;
	return t->build_id_len;
}

unsigned int elf_symtab_count(const struct elf_symtab *t)
{
	return t->n;
}

int elf_symtab_lookup(const struct elf_symtab *t, uint64_t off, struct usym *out)
{
	unsigned int i, lo = 0, hi = t->n;
	uint64_t vaddr = 0;
	const struct elf_func *f;
	int found = 0;

	/* File offset to the address the ELF file's symbols use. */
	for (i = 0; i < t->nsegs; i++) {
		if (off >= t->segs[i].offset &&
		    off < t->segs[i].offset + t->segs[i].filesz) {
			vaddr = off - t->segs[i].offset + t->segs[i].vaddr;
			found = 1;
			break;
		}
	}
	if (!found)
		return -ENOENT;
	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (t->funcs[mid].start <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return -ENOENT;
	/* Among symbols at the same start, the first sized one. */
	f = &t->funcs[lo - 1];
	while (f > t->funcs && (f - 1)->start == f->start)
		f--;
	if (f->size && vaddr >= f->start + f->size)
		return -ENOENT;
	out->name = t->pool + f->name;
	out->offset = vaddr - f->start;
	return 0;
}

int elf_symtab_find(const struct elf_symtab *t, const char *name, uint64_t *off)
{
	unsigned int i, s;

	for (i = 0; i < t->n; i++) {
		const struct elf_func *f = &t->funcs[i];

		if (strcmp(t->pool + f->name, name))
			continue;
		/* Its address back to where the file holds its code. */
		for (s = 0; s < t->nsegs; s++) {
			if (f->start >= t->segs[s].vaddr &&
			    f->start < t->segs[s].vaddr + t->segs[s].filesz) {
				*off = f->start - t->segs[s].vaddr + t->segs[s].offset;
				return 0;
			}
		}
	}
	return -ENOENT;
}
