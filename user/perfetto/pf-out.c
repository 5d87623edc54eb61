// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "perfetto/pb.h"
#include "perfetto/pf-out.h"
#include "util/outfile.h"

#define PF_OUT_BUF (1 << 20)

struct pf_out {
	struct outfile *of;
	FILE *f;
	gzFile gz;
	uint8_t *buf;
	size_t len;
	int error;
};

struct pf_out *pf_out_open(const char *path)
{
	struct pf_out *o = calloc(1, sizeof(*o));
	size_t n = strlen(path);
	int err, fd = -1;

	if (!o)
		return NULL;
	o->buf = malloc(PF_OUT_BUF);
	o->of = o->buf ? outfile_open(path, 0644, 0) : NULL;
	if (!o->of) {
		err = o->buf ? errno : ENOMEM;
		goto fail;
	}
	/* zlib and stdio close their own descriptor; the outfile keeps its own. */
	fd = dup(outfile_fd(o->of));
	if (fd < 0) {
		err = errno;
		goto fail;
	}
	if (n > 3 && !strcmp(path + n - 3, ".gz"))
		o->gz = gzdopen(fd, "wb6");
	else
		o->f = fdopen(fd, "wb");
	if (!o->gz && !o->f) {
		err = errno ? errno : ENOMEM;
		goto fail;
	}
	return o;
fail:
	if (fd >= 0)
		close(fd);
	if (o->of)
		outfile_discard(o->of);
	free(o->buf);
	free(o);
	errno = err;
	return NULL;
}

static int flush(struct pf_out *o)
{
	if (o->error || !o->len)
		return o->error;
	if (o->gz) {
		if (gzwrite(o->gz, o->buf, o->len) != (int)o->len)
			o->error = -EIO;
	} else if (fwrite(o->buf, 1, o->len, o->f) != o->len) {
		o->error = -errno;
	}
	o->len = 0;
	return o->error;
}

int pf_out_raw(struct pf_out *o, const void *pkt, size_t size)
{
	uint8_t head[11];
	size_t n;

	if (o->error)
		return o->error;
	head[0] = 0x0a;	/* Trace.packet, length-delimited */
	n = 1 + pb_varint_at(head + 1, size);
	if (o->len + n + size > PF_OUT_BUF && flush(o))
		return o->error;
	memcpy(o->buf + o->len, head, n);
	o->len += n;
	if (n + size > PF_OUT_BUF) {
		/* Larger than the buffer: write it through. */
		if (!flush(o) && (o->gz ? gzwrite(o->gz, pkt, size) != (int)size :
				  fwrite(pkt, 1, size, o->f) != size))
			o->error = -EIO;
	} else {
		memcpy(o->buf + o->len, pkt, size);
		o->len += size;
	}
	return o->error;
}

int pf_out_begin(struct pf_out *o, size_t max, struct pb_buf *b)
{
	size_t start;

	if (o->error)
		return o->error;
	if (o->len + max + 11 > PF_OUT_BUF && flush(o))
		return o->error;
	if (max + 11 > PF_OUT_BUF)
		return -EMSGSIZE;
	pb_init(b, o->buf + o->len, PF_OUT_BUF - o->len);
	start = pb_open(b, 1);	/* Trace.packet */
	if (start != 2)
		return -EMSGSIZE;
	return 0;
}

int pf_out_end(struct pf_out *o, struct pb_buf *b)
{
	pb_close(b, 2);
	if (b->overflow)
		return o->error = -EMSGSIZE;
	o->len += b->len;
	return 0;
}

int pf_out_packet(struct pf_out *o, const Perfetto__Protos__TracePacket *pkt)
{
	size_t size = perfetto__protos__trace_packet__get_packed_size(pkt);
	uint8_t *big;
	int ret;

	if (o->error)
		return o->error;
	if (o->len + size + 11 <= PF_OUT_BUF) {
		o->buf[o->len++] = 0x0a;
		o->len += pb_varint_at(o->buf + o->len, size);
		o->len += perfetto__protos__trace_packet__pack(pkt, o->buf + o->len);
		return 0;
	}
	big = malloc(size);
	if (!big)
		return o->error = -ENOMEM;
	perfetto__protos__trace_packet__pack(pkt, big);
	ret = pf_out_raw(o, big, size);
	free(big);
	return ret;
}

static void pf_out_free(struct pf_out *o)
{
	free(o->buf);
	free(o);
}

int pf_out_close(struct pf_out *o)
{
	int ret = flush(o);

	if (o->gz) {
		if (gzclose(o->gz) != Z_OK && !ret)
			ret = -EIO;
	} else if (fclose(o->f) && !ret) {
		ret = -errno;
	}
	if (ret)
		outfile_discard(o->of);
	else
		ret = outfile_close(o->of);
	pf_out_free(o);
	return ret;
}

void pf_out_abort(struct pf_out *o)
{
	if (o->gz)
		gzclose(o->gz);
	else
		fclose(o->f);
	outfile_discard(o->of);
	pf_out_free(o);
}
