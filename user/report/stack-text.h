/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A captured stack (model/stack-table.h) as text, for the sections that
 * show stacks (report --offcpu, report --probes): each frame symbolized,
 * kernel frames by the capture's kallsyms, user frames in the address
 * space of the process that took them.
 */
#ifndef KTPROF_STACK_TEXT_H
#define KTPROF_STACK_TEXT_H

#include <stdint.h>
#include <stdio.h>

#include "report/json-doc.h"
#include "report/report.h"

/* Frame @i of stack @stack (user frames in process @pid) into @buf. */
const char *stack_text_frame(const struct report *r, uint32_t stack, uint32_t pid, unsigned int i,
			     char *buf, size_t len);

/* Every frame of @stack a line, after @indent; "[no stack]" for STACK_NONE. */
void stack_text_write(FILE *out, const struct report *r, uint32_t stack, uint32_t pid,
		      const char *indent);

/* @stack's kernel frames (@user 0) or user frames as a JSON array; [] for STACK_NONE. */
json_object *stack_text_json(struct json_ctx *c, int user, uint32_t stack, uint32_t pid);

#endif
