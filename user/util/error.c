// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/error.h"

static const char *const texts[] = {
#define ERROR_TEXT(name, text) text,
	ERROR_TABLE(ERROR_TEXT)
#undef ERROR_TEXT
};

const char *error_str(int err)
{
	if (err < 0)
		err = -err;
	if (err > ERROR_FIRST && err < ERROR_LAST)
		return texts[err - ERROR_FIRST - 1];
	return strerror(err);
}

int error_set(struct error *e, int code, const char *fmt, ...)
{
	va_list ap;

	if (!e)
		return code;
	e->code = code;
	e->msg[0] = '\0';
	if (fmt) {
		va_start(ap, fmt);
		vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
		va_end(ap);
	}
	return code;
}

const char *error_msg(const struct error *e)
{
	return e->msg[0] ? e->msg : error_str(e->code);
}
