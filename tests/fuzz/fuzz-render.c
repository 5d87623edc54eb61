// SPDX-License-Identifier: GPL-2.0
/*
 * The renderers on a capture file, the inputs of fuzz-capture: its whole
 * report as text, JSON and HTML, and its diff with itself likewise. The
 * JSON must parse strictly, in UTF-8, with finite numbers; the HTML may
 * hold only the elements the renderers write, with no event handler and
 * no script URL (fuzz.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_capture_file(data, size);

	if (!path)
		return 0;
	fuzz_report(path, fuzz_symfs());
	fuzz_diff(path, fuzz_symfs());
	return 0;
}
