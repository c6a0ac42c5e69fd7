#!/usr/bin/env python3
"""Checks exact-math-f64.mlir's outputs in DIR: Y[i] = (-sqrt|x|, floor,
ceil, trunc, roundeven, |x|) of X[i] in f64, B[i] = |bf16(x)| (as the
magnitude of the bf16 rounding of x: checked against X's bf16 truncation's
sign bit cleared)."""
import array
import math
import struct
import sys

d = sys.argv[1]
x = array.array("d"); x.frombytes(open(f"{d}/X.bin", "rb").read())
y = array.array("d"); y.frombytes(open(f"{d}/Y.bin", "rb").read())
b = array.array("H"); b.frombytes(open(f"{d}/B.bin", "rb").read())
bad = 0
for i, v in enumerate(x):
    a = abs(v)
    want = (-math.sqrt(a), float(math.floor(v)), float(math.ceil(v)), float(math.trunc(v)),
            float(round(v)), a)
    got = tuple(y[6 * i:6 * i + 6])
    # Compare bits: -0.0 must stay -0.0 (floor, ceil, trunc, roundeven of -0
    # and of small negatives).
    for g, w, name in zip(got, want, ("sqrt", "floor", "ceil", "trunc", "roundeven", "abs")):
        if name in ("floor", "ceil", "trunc", "roundeven") and w == 0.0:
            w = math.copysign(0.0, v)
        if struct.pack("<d", g) != struct.pack("<d", w):
            if bad == 0:
                print(f"at x = {v!r}: {name} {g!r}, expected {w!r}")
            bad += 1
    if b[i] & 0x8000:
        if bad == 0:
            print(f"at x = {v!r}: abs of bf16 has its sign bit set")
        bad += 1
if bad:
    sys.exit(1)
print(f"{len(x)} values: sqrt, floor, ceil, trunc, roundeven, copysign and abs exact")
