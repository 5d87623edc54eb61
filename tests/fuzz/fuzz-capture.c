// SPDX-License-Identifier: GPL-2.0
/*
 * A capture file as every command reads it: opened, its metadata and
 * sections read, every chunk checked, every event decoded and symbolized
 * (binaries looked up under a scratch symfs that holds a FIFO at
 * /tmp/ff/app). fuzz-render takes the same inputs through report and
 * diff.
 *
 * So that the fuzzer gets past the checksums, each complete chunk's CRC
 * and sequence number are set right before the file is written, unless bit
 * 0 of the file header's reserved field is set (then damage is kept).
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
	fuzz_input(path, fuzz_symfs());
	return 0;
}
