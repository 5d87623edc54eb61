// SPDX-License-Identifier: GPL-2.0
#include <errno.h>

#include "report/render.h"

int render_html(const struct report *r, const struct report_view *v, FILE *out)
{
	(void)r, (void)v, (void)out;
	return -ENOSYS;
}
