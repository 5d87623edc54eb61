/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A raw dump directory as one fuzz input (fuzz-rawdir; build/tools/fuzz-pack
 * makes one from a directory): entries back to back, each
 *   u8  kind: 'f' regular file, 'p' FIFO, 'd' directory, 'l' symlink to data
 *   u8  name length N (1..PACK_NAME_MAX), then N bytes of name
 *   u32 data length L, little-endian, then L bytes of data
 * An entry that does not fit in what is left ends the input; a name with
 * '/' or NUL, "." or "..", or one seen before is skipped.
 */
#ifndef KTPROF_FUZZ_PACK_H
#define KTPROF_FUZZ_PACK_H

#define PACK_NAME_MAX 64

#endif
