#!/usr/bin/env python3
"""Independent reference for examples/vector_add.mlir: C = A + B in IEEE
single precision (a double sum rounded once to single is the single sum).
Usage: check_vector_add.py A.bin B.bin C.bin"""
import struct
import sys

def load(path):
    data = open(path, "rb").read()
    return struct.unpack("<%df" % (len(data) // 4), data)

A, B, C = (load(p) for p in sys.argv[1:4])
f32 = lambda v: struct.unpack("<f", struct.pack("<f", v))[0]
bad = [i for i in range(len(C)) if C[i] != f32(A[i] + B[i])]
if bad:
    print("mismatch at %d of %d elements, first at %d" % (len(bad), len(C), bad[0]))
    sys.exit(1)
print("vector_add: %d elements match" % len(C))
