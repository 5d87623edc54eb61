// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>

#include "symbols/symbolizer-capture.h"

struct symbolizer *symbolizer_for_kernel(struct input *in, const char *symfs,
					 struct error *err)
{
	struct symbolizer *s;
	const char *kallsyms;

	if (input_kallsyms(in, &kallsyms, err))
		return NULL;
	s = symbolizer_new(kallsyms, symfs);
	if (!s)
		error_set(err, -ENOMEM, NULL);
	return s;
}
