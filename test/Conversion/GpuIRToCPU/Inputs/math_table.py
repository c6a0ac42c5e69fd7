#!/usr/bin/env python3
"""Inputs and checks for exact-math.mlir.

  math_table.py make X.bin N       special values, then random f32 values
                                   (spread over exp's range, [-1, 1] and
                                   near 0), N multiple of 128
  math_table.py check X.bin E.bin S.bin
      E = exp(X): within 2 ulp of e^x (the f32 nearest the double result),
      and exactly e^x's value at NaN, +-inf, +-0 and outside the range;
      S = sqrt(|X|) / (|X| + 1) + floor(X): each step correctly rounded
      (the double results of sqrt and of single operations on f32 values,
      rounded to f32, are the correctly rounded f32 results).
"""
import array
import math
import random
import struct
import sys

SPECIAL = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 88.72283935546875, 88.7228,
           88.73, 1000.0, -87.33654, -87.5, -100.0, -103.97, -103.98, -104.0,
           -1000.0, float("inf"), float("-inf"), float("nan"), 1e-30, -1e-30,
           1e-45, -1e-45, 1e-38, 2.0 ** -126, 3.4e38, -3.4e38]


def f32(v):
    try:
        return struct.unpack("<f", struct.pack("<f", v))[0]
    except OverflowError:
        return math.copysign(float("inf"), v)


def ordered(v):
    b = struct.unpack("<i", struct.pack("<f", v))[0]
    return b if b >= 0 else -(b & 0x7FFFFFFF)


def load(path):
    a = array.array("f")
    with open(path, "rb") as f:
        a.frombytes(f.read())
    return a


if sys.argv[1] == "make":
    n = int(sys.argv[3])
    random.seed(7)
    xs = list(SPECIAL)
    while len(xs) < n:
        r = random.random()
        xs.append(random.uniform(-104, 89) if r < 0.5 else
                  random.uniform(-1, 1) if r < 0.8 else random.uniform(-1e-3, 1e-3))
    array.array("f", xs).tofile(open(sys.argv[2], "wb"))
    sys.exit(0)

x, e, s = (load(p) for p in sys.argv[2:5])
bad = worst = 0
for xi, ei, si in zip(x, e, s):
    if math.isnan(xi):
        ok = math.isnan(ei)
    else:
        try:
            ref = f32(math.exp(xi))
        except OverflowError:
            ref = float("inf")
        if math.isinf(ref) or ref == 0.0 or math.isinf(ei) or ei == 0.0:
            ok = ei == ref
        else:
            ulps = abs(ordered(ei) - ordered(ref))
            worst = max(worst, ulps)
            ok = ulps <= 2
    a = abs(xi)
    if math.isnan(xi) or math.isinf(xi):
        ok_s = math.isnan(si)
    else:
        q = f32(f32(math.sqrt(a)) / f32(a + 1.0))
        ok_s = si == f32(q + math.floor(xi))
    if not (ok and ok_s):
        if bad == 0:
            print(f"at x = {xi!r}: exp {ei!r}, expression {si!r}")
        bad += 1
if bad:
    print(f"{bad} of {len(x)} values wrong")
    sys.exit(1)
print(f"{len(x)} values: exp within {worst} ulp, the rest exact")
