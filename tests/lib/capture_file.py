#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Capture files written from the documented layout (docs/capture-format.md),
not from ktprof's headers: the bad inputs of tests/bad-input/ that a test
makes rather than stores.

usage: capture_file.py kallsyms-bomb IN OUT   IN's chunks, then 16 KALLSYMS
                                               chunks of 64 MiB of 'z' each
       capture_file.py streams IN OUT N       IN's META and KALLSYMS, then
                                               N STREAM chunks of CPUs 0..N-1,
                                               each one sub-buffer header
       capture_file.py fix IN OUT             IN with the sequence numbers and
                                               CRCs of its complete chunks set
                                               right (as fuzz-capture does)
"""
import struct
import sys
import zlib

FILE_HEADER = struct.Struct('<8sHHIQQ')  # magic, major, minor, size, created, reserved
CHUNK = struct.Struct('<IHHIIIIQ')       # magic, type, flags, cpu, raw, stored, crc, seq
CHUNK_MAGIC = 0x4843544b
META, KALLSYMS, STREAM, END = 1, 3, 6, 8
ZLIB = 0x1
# struct ktp_subbuf (kmod/include/uapi/ktprof_abi.h): type, flags, size,
# ts_delta, magic, cpu, abi major, minor, seq, lost, ts, session id
SUBBUF = struct.Struct('<BBHIIHBBQQQQ')


def chunks(data):
    """(type, flags, cpu, raw bytes) of each chunk of a capture."""
    size = FILE_HEADER.unpack_from(data, 0)[3]
    off, out = size, []
    while off + CHUNK.size <= len(data):
        _, typ, flags, cpu, _, stored, _, _ = CHUNK.unpack_from(data, off)
        body = data[off + CHUNK.size:off + CHUNK.size + stored]
        out.append((typ, flags, cpu, zlib.decompress(body) if flags & ZLIB else body))
        off += CHUNK.size + stored
    return out


def chunk(seq, typ, cpu, raw, stored=None):
    """One chunk; @stored: the zlib form of @raw when given."""
    flags, body = (ZLIB, stored) if stored is not None else (0, raw)
    head = CHUNK.pack(CHUNK_MAGIC, typ, flags, cpu, len(raw), len(body), 0, seq)
    crc = zlib.crc32(body, zlib.crc32(head))
    return CHUNK.pack(CHUNK_MAGIC, typ, flags, cpu, len(raw), len(body), crc, seq) + body


def capture(parts):
    """A file of (type, cpu, raw, stored) parts, then its END chunk."""
    out = bytearray(FILE_HEADER.pack(b'KTPROF\0C', 1, 1, FILE_HEADER.size, 0, 0))
    for seq, (typ, cpu, raw, stored) in enumerate(parts):
        out += chunk(seq, typ, cpu, raw, stored)
    out += chunk(len(parts), END, 0, struct.pack('<QQ', len(parts), 0))
    return bytes(out)


def fix(data):
    """Sequence numbers and CRCs of the complete chunks, set right."""
    out = bytearray(data)
    off, seq = FILE_HEADER.unpack_from(data, 0)[3], 0
    while off + CHUNK.size <= len(data):
        magic, typ, flags, cpu, raw, stored, _, _ = CHUNK.unpack_from(data, off)
        if stored > len(data) - off - CHUNK.size:
            break
        body = data[off + CHUNK.size:off + CHUNK.size + stored]
        head = CHUNK.pack(magic, typ, flags, cpu, raw, stored, 0, seq)
        CHUNK.pack_into(out, off, magic, typ, flags, cpu, raw, stored,
                        zlib.crc32(body, zlib.crc32(head)), seq)
        off += CHUNK.size + stored
        seq += 1
    return bytes(out)


def main():
    what, src, dst = sys.argv[1:4]
    if what == 'fix':
        open(dst, 'wb').write(fix(open(src, 'rb').read()))
        return
    have = [(t, c, raw, zlib.compress(raw)) for t, _, c, raw in chunks(open(src, 'rb').read())
            if t != END]
    if what == 'kallsyms-bomb':
        raw = b'z' * (64 << 20)
        # 64 MiB each once inflated, 65 KB each on disk.
        have += [(KALLSYMS, 0, raw, zlib.compress(raw, 9))] * 16
    elif what == 'streams':
        have = [p for p in have if p[0] in (META, KALLSYMS)]
        for cpu in range(int(sys.argv[4])):
            sb = SUBBUF.pack(1, 0, SUBBUF.size, 0, 0x3150544b, cpu & 0xffff, 1, 1, 0, 0,
                             1000000000, 6182160)
            have.append((STREAM, cpu, sb, None))
    else:
        sys.exit(__doc__)
    open(dst, 'wb').write(capture(have))


if __name__ == '__main__':
    main()
