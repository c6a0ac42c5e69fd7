#!/usr/bin/env python3
"""Inputs and checks for exact-math.mlir.

  math_table.py make X.bin N       special values, then random f32 values
                                   (spread over exp's range, [-1, 1] and
                                   near 0), N multiple of 128
  math_table.py check DIR
      DIR/E.bin = exp(X), A = exp2(X), L = log(X), T = tanh(X), R =
      rsqrt(X), F = erf(X): each within 2 ulp of the f32 nearest the double result, and
      exactly the function's value where that is 0, infinite or NaN;
      S = sqrt(|X|) / (|X| + 1) + floor(X): each step correctly rounded
      (the double results of sqrt and of single operations on f32 values,
      rounded to f32, are the correctly rounded f32 results). Prints the
      largest error of each function.
"""
import array
import math
import random
import struct
import sys

SPECIAL = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, 127.99, 128.0, -149.5, -150.0,
           -150.5, -126.0, 0.625, -0.625, 0.6249, 9.0, 9.2, -9.2, 1.4142135,
           0.70710677, 1e-40, 88.72283935546875, 88.7228,
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

d = sys.argv[2]
x, e, s = (load(f"{d}/{n}.bin") for n in ("X", "E", "S"))
others = {n: load(f"{d}/{f}.bin") for n, f in (("exp2", "A"), ("log", "L"), ("tanh", "T"),
                                              ("rsqrt", "R"), ("erf", "F"))}
INF, NAN = float("inf"), float("nan")


def reference(name, v):
    """The f32 nearest the function's value (None: NaN)."""
    if math.isnan(v):
        return NAN
    try:
        if name == "exp":
            return f32(math.exp(v))
        if name == "exp2":
            return f32(2.0 ** v)
        if name == "log":
            return NAN if v < 0 else -INF if v == 0 else INF if v == INF else f32(math.log(v))
        if name == "tanh":
            return f32(math.tanh(v))
        if name == "erf":
            return f32(math.erf(v))
        # rsqrt: IEEE 754's rSqrt(-0) is -inf.
        return NAN if v < 0 else math.copysign(INF, v) if v == 0 else 0.0 if v == INF else f32(1 / math.sqrt(v))
    except OverflowError:
        return INF


def within(name, got, ref):
    """The error in ulps, or None if not acceptable."""
    if math.isnan(ref):
        return 0 if math.isnan(got) else None
    if math.isinf(ref) or ref == 0.0 or math.isinf(got) or got == 0.0:
        return 0 if got == ref and math.copysign(1, got) == math.copysign(1, ref) else None
    u = abs(ordered(got) - ordered(ref))
    return u if u <= 2 else None


bad = 0
worst = {n: 0 for n in ("exp", "exp2", "log", "tanh", "rsqrt", "erf")}
for i, xi in enumerate(x):
    ok = True
    for name, out in [("exp", e)] + list(others.items()):
        u = within(name, out[i], reference(name, xi))
        if u is None:
            ok = False
            if bad == 0:
                print(f"at x = {xi!r}: {name} {out[i]!r}, expected {reference(name, xi)!r}")
        else:
            worst[name] = max(worst[name], u)
    a = abs(xi)
    if math.isnan(xi) or math.isinf(xi):
        ok_s = math.isnan(s[i])
    else:
        q = f32(f32(math.sqrt(a)) / f32(a + 1.0))
        ok_s = s[i] == f32(q + math.floor(xi))
    if not (ok and ok_s):
        if bad == 0 and not ok_s:
            print(f"at x = {xi!r}: expression {s[i]!r}")
        bad += 1
if bad:
    print(f"{bad} of {len(x)} values wrong")
    sys.exit(1)
print(f"{len(x)} values: " + ", ".join(f"{n} within {u} ulp" for n, u in worst.items()) + ", the rest exact")
