/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The capture file format (docs/capture-format.md): a file header, then
 * chunks, each with its own header and CRC, written as the data comes, so
 * a file cut anywhere reads up to its last complete chunk.
 *
 * All integers are little-endian.
 */
#ifndef KTPROF_CAPTURE_FORMAT_H
#define KTPROF_CAPTURE_FORMAT_H

#include <stdint.h>
#include <zlib.h>

#define KTPC_MAGIC "KTPROF\0C"
#define KTPC_MAJOR 1
#define KTPC_MINOR 1
#define KTPC_CHUNK_MAGIC 0x4843544bU	/* "KTCH" */
#define KTPC_CHUNK_MAX (64u << 20)	/* raw or stored bytes of a chunk */

/*
 * Limits a reader holds a capture to (docs/capture-format.md), so that a
 * small file cannot make it allocate without bound: the CPUs a capture
 * may have streams of (CPU numbers below it; Linux's NR_CPUS goes up to
 * 8192 on x86-64), the raw bytes of one STREAM chunk (writers write at
 * most 1 MiB), and what each metadata section may hold once uncompressed.
 */
#define KTPC_MAX_CPUS 8192u
#define KTPC_STREAM_CHUNK_MAX (4u << 20)

struct ktpc_file_header {
	char magic[8];
	uint16_t major;
	uint16_t minor;
	uint32_t header_size;	/* bytes; chunks start here */
	uint64_t created_ns;	/* CLOCK_REALTIME when written */
	uint64_t reserved;
} __attribute__((packed));

enum ktpc_chunk_type {
	KTPC_META = 1,		/* CaptureMeta (protobuf) */
	KTPC_TOPOLOGY,		/* Topology (protobuf) */
	KTPC_KALLSYMS,		/* /proc/kallsyms text */
	KTPC_MODULES,		/* /proc/modules text */
	KTPC_PROCMAPS,		/* "pid PID\n" + /proc/PID/maps lines, per process */
	KTPC_STREAM,		/* relay bytes of CPU @cpu, in order */
	KTPC_STATS,		/* Stats (protobuf), the module's final counts */
	KTPC_END,		/* the writer finished: struct ktpc_end */
	KTPC_FILES,		/* the FILE records of CPU @cpu's stream (1.1) */
	KTPC_NR_TYPES
};

#define KTPC_CHUNK_ZLIB 0x1	/* stored bytes are zlib-compressed */

struct ktpc_chunk_header {
	uint32_t magic;		/* KTPC_CHUNK_MAGIC */
	uint16_t type;		/* enum ktpc_chunk_type */
	uint16_t flags;		/* KTPC_CHUNK_* */
	uint32_t cpu;		/* KTPC_STREAM: the CPU; else 0 */
	uint32_t raw_len;	/* bytes once uncompressed */
	uint32_t stored_len;	/* bytes that follow */
	uint32_t crc;		/* crc32 of this header (crc = 0) and the
				 * stored bytes */
	uint64_t seq;		/* chunk number, from 0 */
} __attribute__((packed));

/* Payload of KTPC_END. */
struct ktpc_end {
	uint64_t chunks;	/* chunks before this one */
	uint64_t stream_bytes;	/* raw relay bytes, all CPUs */
} __attribute__((packed));

/* Sections whose chunks concatenate; of the others the last chunk counts. */
static inline int ktpc_section_concat(unsigned int type)
{
	return type == KTPC_KALLSYMS || type == KTPC_MODULES ||
	       type == KTPC_PROCMAPS || type == KTPC_FILES;
}

/*
 * The raw bytes section @type may hold, all its chunks together: writers
 * write no more, readers refuse a capture that claims more.
 */
static inline uint32_t ktpc_section_max(unsigned int type)
{
	switch (type) {
	case KTPC_META:		/* a few hundred bytes and the options */
	case KTPC_TOPOLOGY:	/* about 20 bytes per CPU */
		return 1u << 20;
	case KTPC_MODULES:	/* /proc/modules: tens of KB */
		return 4u << 20;
	case KTPC_STATS:	/* as text (a dump directory's), ~450 bytes per CPU */
		return 16u << 20;
	case KTPC_KALLSYMS:	/* a kernel with every module loaded: ~20 MB */
	case KTPC_FILES:	/* FILE records, one per file and CPU */
		return 64u << 20;
	case KTPC_PROCMAPS:	/* every process's maps */
		return 256u << 20;
	case KTPC_END:
		return sizeof(struct ktpc_end);
	}
	return KTPC_CHUNK_MAX;
}

/* The CRC a chunk header must carry for @stored (its stored_len bytes). */
static inline uint32_t ktpc_chunk_crc(const struct ktpc_chunk_header *h,
				      const void *stored)
{
	struct ktpc_chunk_header copy = *h;

	copy.crc = 0;
	return crc32(crc32(0, (const Bytef *)&copy, sizeof(copy)),
		     (const Bytef *)stored, h->stored_len);
}

_Static_assert(sizeof(struct ktpc_file_header) == 32, "file header");
_Static_assert(sizeof(struct ktpc_chunk_header) == 32, "chunk header");

#endif
