/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Address to function names for samples: kernel addresses through a
 * kallsyms snapshot, user addresses through the MAP and FILE records of
 * the capture (process mappings, file paths and build ids taken when the
 * samples were), then the files' ELF symbols. Each file's symbols are
 * loaded once and kept; a file whose build id differs from the recorded
 * one is refused.
 */
#ifndef KTPROF_SYMBOLIZER_H
#define KTPROF_SYMBOLIZER_H

#include <stddef.h>
#include <stdint.h>

#include "decode/relay-decode.h"

struct symbolizer;

struct frame {
	const char *func;	/* NULL when unresolved */
	uint64_t offset;	/* from func, else from the object's start */
	const char *object;	/* "[kernel]", module name, binary basename,
				 * or "[unknown]" */
	int kernel;
	int resolved;
	/* Where the address lies: for user frames in a known mapping. */
	int mapped;
	uint64_t file_key;	/* identifies the file (device, inode) */
	uint64_t file_offset;
	const char *path;	/* as recorded */
	const uint8_t *build_id;
	unsigned int build_id_len;
};

/*
 * @kallsyms: the snapshot's text, or NULL; @symfs: a directory prefixed to
 * recorded paths when looking for binaries (NULL: the paths as they are).
 */
struct symbolizer *symbolizer_new(const char *kallsyms, const char *symfs);
void symbolizer_free(struct symbolizer *s);

/* Feed records as they come: MAP, FILE and FORK (a new process). */
int symbolizer_on_event(struct symbolizer *s, const struct event *ev);

/* Resolve one address of process @pid. */
void symbolizer_frame(struct symbolizer *s, uint32_t pid, uint64_t ip,
		      int kernel, struct frame *out);

/* "func+0x1a [object]", or "[object]+0x1234" when unresolved. */
const char *frame_str(const struct frame *f, int with_offset, char *buf,
		      size_t len);

/* Files whose build id did not match, and files that could not be read. */
unsigned int symbolizer_mismatched(const struct symbolizer *s);
unsigned int symbolizer_unreadable(const struct symbolizer *s);
int symbolizer_has_kallsyms(struct symbolizer *s);

/* The address of kernel text symbol @name: 0, or -ENOENT. */
int symbolizer_ksym_addr(struct symbolizer *s, const char *name, uint64_t *addr);

#endif
