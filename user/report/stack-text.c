// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>

#include "model/stack-table.h"
#include "report/json-build.h"
#include "report/render.h"
#include "report/stack-text.h"
#include "symbols/symbolizer.h"
#include "util/text.h"

const char *stack_text_frame(const struct report *r, uint32_t stack, uint32_t pid, unsigned int i,
			     char *buf, size_t len)
{
	const struct stack_entry *e = stack_table_get(&r->model->stacks, stack);
	uint64_t ip = stack_table_frames(&r->model->stacks, stack)[i];
	struct frame f;

	if (!r->model->sym) {
		snprintf(buf, len, "0x%" PRIx64, ip);
		return buf;
	}
	symbolizer_frame(r->model->sym, pid, ip, i < e->nr_kernel, &f);
	return frame_str(&f, 0, buf, len);
}

void stack_text_write(FILE *out, const struct report *r, uint32_t stack, uint32_t pid,
		      const char *indent)
{
	const struct stack_entry *e;
	char buf[512];
	uint32_t j;

	if (stack == STACK_NONE) {
		fprintf(out, "%s[no stack]\n", indent);
		return;
	}
	e = stack_table_get(&r->model->stacks, stack);
	for (j = 0; j < (uint32_t)e->nr_kernel + e->nr_user; j++)
		fprintf(out, "%s%s\n", indent,
			text_esc(stack_text_frame(r, stack, pid, j, buf, sizeof(buf))));
	if (e->truncated)
		fprintf(out, "%s[cut at the frame limit]\n", indent);
}

json_object *stack_text_json(struct json_ctx *c, int user, uint32_t stack, uint32_t pid)
{
	const struct report *r = render_report(c);
	json_object *arr = json_object_new_array();
	const struct stack_entry *e;
	unsigned int j, from, to;
	char buf[512];

	if (stack == STACK_NONE)
		return arr;
	e = stack_table_get(&r->model->stacks, stack);
	from = user ? e->nr_kernel : 0;
	to = user ? e->nr_kernel + e->nr_user : e->nr_kernel;
	for (j = from; j < to; j++)
		json_build_push(c->b, arr, json_doc_str(stack_text_frame(r, stack, pid, j, buf,
								    sizeof(buf))));
	return arr;
}
