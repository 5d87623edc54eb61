/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Perfetto trace output: TracePackets framed as the Trace message's
 * repeated field 1, streamed to a file, gzip-compressed when the name ends
 * in ".gz". Created through util/outfile.h: the file appears, whole, when
 * closed.
 */
#ifndef KTPROF_PF_OUT_H
#define KTPROF_PF_OUT_H

#include <stddef.h>
#include <stdint.h>

#include "perfetto.pb-c.h"
#include "perfetto/pb.h"

struct pf_out;

/* NULL with errno (ERROR_NOT_REGULAR: @path exists as something else). */
struct pf_out *pf_out_open(const char *path);

/* 0 or -errno (the first error sticks). */
int pf_out_packet(struct pf_out *o, const Perfetto__Protos__TracePacket *pkt);

/* A packet encoded by the caller (see pb.h); 0 or -errno. */
int pf_out_raw(struct pf_out *o, const void *pkt, size_t size);

/*
 * A packet encoded in place: pf_out_begin() gives a buffer of at least
 * @max bytes for the TracePacket's fields, pf_out_end() commits them.
 */
int pf_out_begin(struct pf_out *o, size_t max, struct pb_buf *b);
int pf_out_end(struct pf_out *o, struct pb_buf *b);

/* Flush, close and move into place; 0 or -errno. Frees @o. */
int pf_out_close(struct pf_out *o);

/* Remove what was written. Frees @o. */
void pf_out_abort(struct pf_out *o);

#endif
