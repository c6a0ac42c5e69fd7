#!/usr/bin/env python3
"""Independent reference for examples/transpose.mlir: Y[c][r] = X[r][c].
Usage: check_transpose.py X.bin Y.bin R C"""
import struct
import sys

def load(path):
    data = open(path, "rb").read()
    return struct.unpack("<%df" % (len(data) // 4), data)

X, Y = load(sys.argv[1]), load(sys.argv[2])
R, C = int(sys.argv[3]), int(sys.argv[4])
assert len(X) == R * C and len(Y) == R * C, "sizes do not match R x C"
bad = [(r, c) for r in range(R) for c in range(C) if Y[c * R + r] != X[r * C + c]]
if bad:
    print("mismatch at %d of %d elements, first at X[%d][%d]" % (len(bad), R * C, *bad[0]))
    sys.exit(1)
print("transpose: %d elements match" % (R * C))
