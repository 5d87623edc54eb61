// SPDX-License-Identifier: GPL-2.0
/*
 * The debugfs "marker" file, like ftrace's trace_marker: each write is a
 * MARK record with the writer's pid and text (a trailing newline taken
 * off; "B " and "E " prefixes make a span's begin and end). Text beyond
 * KTP_MARK_MAX is cut, and the whole write counts as taken. With no
 * session running there is nowhere to write: ENODATA.
 */
#include <linux/fs.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "ktprof.h"

static void ktp_mark_write(const char *text, size_t len, unsigned int flags)
{
	struct ktp_mark *r;
	u32 size = ALIGN(sizeof(*r) + len, 4);
	struct ktp_wr w;

	r = ktp_reserve(&w, KTP_REC_MARK, flags, size);
	if (!r)
		return;
	r->pid = current->pid;
	r->len = len;
	r->pad = 0;
	memcpy(r->text, text, len);
	memset(r->text + len, 0, size - sizeof(*r) - len);
	ktp_commit(&w);
}

static ssize_t ktp_marker_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	size_t len = min_t(size_t, count, KTP_MARK_MAX);
	unsigned int flags = count > KTP_MARK_MAX ? KTP_MARK_TRUNC : 0;
	char *buf, *text;

	if (READ_ONCE(ktp_session.state) != KTP_SESSION_RUNNING)
		return -ENODATA;
	buf = memdup_user(ubuf, len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	text = buf;
	if (len && text[len - 1] == '\n' && !(flags & KTP_MARK_TRUNC))
		len--;
	if (len >= 2 && (text[0] == 'B' || text[0] == 'E') && text[1] == ' ') {
		flags |= text[0] == 'B' ? KTP_MARK_BEGIN : KTP_MARK_END;
		text += 2;
		len -= 2;
	}
	ktp_mark_write(text, len, flags);
	kfree(buf);
	return count;
}

const struct file_operations ktp_marker_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = ktp_marker_write,
	.llseek = noop_llseek,
};
