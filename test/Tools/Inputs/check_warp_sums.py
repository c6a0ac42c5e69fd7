#!/usr/bin/env python3
"""Independent reference for examples/warp_sums.mlir: S[r, w] is twice the
sum of X[r, 32w : 32w + 32] (32-bit wrap-around).
Usage: check_warp_sums.py X.bin S.bin"""
import struct
import sys

x = open(sys.argv[1], "rb").read()
s = open(sys.argv[2], "rb").read()
X = struct.unpack("<%di" % (len(x) // 4), x)
S = struct.unpack("<%di" % (len(s) // 4), s)
rows = len(X) // 128
assert len(S) == rows * 4, "S must hold 4 sums per row"
wrap = lambda v: (v + 2**31) % 2**32 - 2**31
bad = [(r, w) for r in range(rows) for w in range(4)
       if S[r * 4 + w] != wrap(2 * sum(X[r * 128 + w * 32: r * 128 + w * 32 + 32]))]
if bad:
    print("mismatch at %d of %d sums, first at row %d warp %d" % (len(bad), rows * 4, *bad[0]))
    sys.exit(1)
print("warp_sums: %d sums match" % (rows * 4))
