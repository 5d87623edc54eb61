/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal protobuf encoder for the few messages written per event, where
 * protobuf-c's descriptor-driven packing (sizes, then bytes, for every
 * nesting level) costs more than all the rest of a conversion. Fields are
 * written in the order called; callers write them by ascending number so
 * that the bytes equal protobuf-c's. Field numbers come from the protoc-c
 * descriptors (pb_field_number), so proto/ stays the one definition.
 */
#ifndef KTPROF_PB_H
#define KTPROF_PB_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <protobuf-c/protobuf-c.h>

enum { PB_VARINT = 0, PB_FIXED64 = 1, PB_LEN = 2 };

struct pb_buf {
	uint8_t *p;
	size_t len, cap;
	int overflow;	/* something did not fit: the bytes are unusable */
};

static inline void pb_init(struct pb_buf *b, uint8_t *mem, size_t cap)
{
	b->p = mem;
	b->len = 0;
	b->cap = cap;
	b->overflow = 0;
}

static inline size_t pb_varint_at(uint8_t *p, uint64_t v)
{
	uint8_t *q = p;

	if (v < 0x80) {		/* tags and small values: most varints */
		p[0] = (uint8_t)v;
		return 1;
	}
	do {
		*q++ = (uint8_t)v | 0x80;
		v >>= 7;
	} while (v >= 0x80);
	*q++ = (uint8_t)v;
	return (size_t)(q - p);
}

static inline void pb_varint(struct pb_buf *b, uint64_t v)
{
	if (b->len + 10 > b->cap) {
		b->overflow = 1;
		return;
	}
	b->len += pb_varint_at(b->p + b->len, v);
}

static inline void pb_tag(struct pb_buf *b, uint32_t field, unsigned int wire)
{
	pb_varint(b, (uint64_t)field << 3 | wire);
}

static inline void pb_uint(struct pb_buf *b, uint32_t field, uint64_t v)
{
	pb_tag(b, field, PB_VARINT);
	pb_varint(b, v);
}

static inline void pb_fixed64(struct pb_buf *b, uint32_t field, uint64_t v)
{
	pb_tag(b, field, PB_FIXED64);
	if (b->len + 8 > b->cap) {
		b->overflow = 1;
		return;
	}
	memcpy(b->p + b->len, &v, 8);	/* little-endian hosts only, as x86 */
	b->len += 8;
}

static inline void pb_bytes(struct pb_buf *b, uint32_t field, const void *data,
			    size_t len)
{
	pb_tag(b, field, PB_LEN);
	pb_varint(b, len);
	if (b->len + len > b->cap) {
		b->overflow = 1;
		return;
	}
	memcpy(b->p + b->len, data, len);
	b->len += len;
}

static inline void pb_string(struct pb_buf *b, uint32_t field, const char *s)
{
	pb_bytes(b, field, s, strlen(s));
}

/*
 * A nested message: pb_open() before its fields, pb_close() after. One
 * length byte is reserved; a longer message is moved up to make room.
 */
static inline size_t pb_open(struct pb_buf *b, uint32_t field)
{
	pb_tag(b, field, PB_LEN);
	if (b->len + 1 > b->cap) {
		b->overflow = 1;
		return b->len;
	}
	return ++b->len;
}

static inline void pb_close(struct pb_buf *b, size_t start)
{
	size_t len = b->len - start;
	uint8_t head[10];
	size_t n;

	if (b->overflow)
		return;
	if (len < 0x80) {	/* the byte pb_open() kept: no copy */
		b->p[start - 1] = (uint8_t)len;
		return;
	}
	n = pb_varint_at(head, len);
	if (b->len + n - 1 > b->cap) {
		b->overflow = 1;
		return;
	}
	memmove(b->p + start + n - 1, b->p + start, len);
	b->len += n - 1;
	memcpy(b->p + start - 1, head, n);
}

/* The number of field @name of @desc; 0 if the proto lacks it. */
uint32_t pb_field_number(const ProtobufCMessageDescriptor *desc, const char *name);

#endif
