#!/usr/bin/env python3
"""Writes a copy of a cubin whose line table starts BYTES later: adds BYTES
to the addend of every relocation of .debug_line (the addresses of its
sequences), so that the first instructions have no row.

usage: shift_line_table.py IN.cubin OUT.cubin BYTES"""
import struct
import sys

src, dst, shift = sys.argv[1], sys.argv[2], int(sys.argv[3], 0)
data = bytearray(open(src, "rb").read())
shoff, = struct.unpack_from("<Q", data, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)


def section(i):
    name, kind, flags, addr, offset, size = struct.unpack_from("<IIQQQQ", data, shoff + i * shentsize)
    return name, offset, size


_, stroff, _ = section(shstrndx)
count = 0
for i in range(shnum):
    name, offset, size = section(i)
    end = data.index(b"\0", stroff + name)
    if data[stroff + name:end] == b".rela.debug_line":
        for r in range(offset, offset + size, 24):
            addend, = struct.unpack_from("<q", data, r + 16)
            struct.pack_into("<q", data, r + 16, addend + shift)
            count += 1
if not count:
    sys.exit("shift_line_table.py: no .rela.debug_line in " + src)
open(dst, "wb").write(data)
