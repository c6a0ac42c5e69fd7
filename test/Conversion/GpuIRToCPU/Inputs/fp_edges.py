#!/usr/bin/env python3
"""Inputs and an independent reference for fp-edges.mlir (P = x * y + w,
Q = x / y, R = sqrt(x), S = x - y, each f32 operation rounded to nearest
even with subnormals kept, no contraction).

  fp_edges.py make DIR     writes DIR/{X,Y,W}.bin and prints n
  fp_edges.py check DIR    compares DIR/{P,Q,R,S}.bin with the reference

The reference computes each operation in Python's double arithmetic and
rounds once to f32: for +, -, *, / and sqrt of f32 operands that is the
correctly rounded f32 result (53 >= 2 * 24 + 2 bits: double rounding is
innocuous), with IEEE's special cases (division by zero, sqrt of a
negative, infinities, NaN) written out. Results agree bit for bit; any NaN
matches any NaN (the payload is not specified)."""
import math
import struct
import sys

F32_MAX = struct.unpack("<f", struct.pack("<I", 0x7F7FFFFF))[0]
# Halfway between F32_MAX and 2^128: from there on, round to infinity.
OVERFLOW = F32_MAX + 2.0 ** 103


def f32(x: float) -> float:
    """x rounded to the nearest f32, ties to even."""
    if math.isnan(x) or math.isinf(x):
        return x
    if abs(x) >= OVERFLOW:
        return math.copysign(math.inf, x)
    if abs(x) > F32_MAX:
        return math.copysign(F32_MAX, x)
    return struct.unpack("<f", struct.pack("<f", x))[0]


def bits(v: float) -> int:
    return struct.unpack("<I", struct.pack("<f", v))[0]


def val(b: int) -> float:
    return struct.unpack("<f", struct.pack("<I", b))[0]


def div(x, y):
    if y == 0:
        if x == 0 or math.isnan(x):
            return math.nan
        return math.copysign(math.inf, x) * math.copysign(1.0, y)
    return f32(x / y) if not (math.isinf(x) and math.isinf(y)) else math.nan


def sqrt(x):
    if math.isnan(x) or x < 0:
        return math.nan
    return f32(math.sqrt(x))  # sqrt(-0) is -0


# The edge values: signed zeros, the smallest and largest subnormals, the
# smallest normal, ones and their neighbours, the largest finite value,
# infinities, a NaN, and ordinary values.
EDGES = [0x00000000, 0x80000000, 0x00000001, 0x807FFFFF, 0x00800000,
         0x3F800000, 0xBF800000, 0x3F800001, 0x3F7FFFFF, 0x7F7FFFFF,
         0xFF7FFFFF, 0x7F800000, 0xFF800000, 0x7FC00000, 0x40400000,
         0x3DCCCCCD]


def inputs():
    xs, ys, ws = [], [], []
    for a in EDGES:
        for b in EDGES:
            xs.append(a)
            ys.append(b)
            ws.append(EDGES[(len(ws) * 7) % len(EDGES)])
    # x * y + w where an FMA would differ: (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24
    # rounds (a tie, to even) to 1 + 2^-11, so P = 0; fused it is 2^-24.
    xs.append(bits(1 + 2.0 ** -12)); ys.append(bits(1 + 2.0 ** -12)); ws.append(bits(-(1 + 2.0 ** -11)))
    # Ties: 1 + 2^-24 is halfway; to even gives 1 (x - y with y = -2^-24).
    xs.append(bits(1.0)); ys.append(bits(-(2.0 ** -24))); ws.append(0)
    # 1 + 3 * 2^-24 is halfway between odd and even: up to 1 + 2^-22.
    xs.append(bits(1 + 2.0 ** -23)); ys.append(bits(-(2.0 ** -24))); ws.append(0)
    # Subnormal results: 2^-149 * 0.5 rounds (a tie) to 0; 3 * 2^-150 to 2^-148.
    xs.append(0x00000001); ys.append(bits(0.5)); ws.append(0)
    xs.append(0x00000003); ys.append(bits(0.5)); ws.append(0)
    # A quotient and a root that round: 1 / 3, 2 / 3, sqrt(2).
    xs.append(bits(1.0)); ys.append(bits(3.0)); ws.append(0)
    xs.append(bits(2.0)); ys.append(bits(3.0)); ws.append(0)
    xs.append(bits(2.0)); ys.append(bits(1.0)); ws.append(0)
    return xs, ys, ws


def write(path, words):
    with open(path, "wb") as f:
        f.write(struct.pack(f"<{len(words)}I", *words))


def read(path):
    data = open(path, "rb").read()
    return list(struct.unpack(f"<{len(data) // 4}I", data))


def main():
    step, d = sys.argv[1], sys.argv[2]
    xs, ys, ws = inputs()
    if step == "make":
        for name, words in (("X", xs), ("Y", ys), ("W", ws)):
            write(f"{d}/{name}.bin", words)
        print(len(xs))
        return
    ops = {
        "P": lambda x, y, w: f32(f32(x * y) + w) if not math.isnan(f32(x * y)) else math.nan,
        "Q": lambda x, y, w: div(x, y),
        "R": lambda x, y, w: sqrt(x),
        "S": lambda x, y, w: f32(x - y),
    }
    bad = 0
    for name, op in ops.items():
        got = read(f"{d}/{name}.bin")
        for i, (xb, yb, wb) in enumerate(zip(xs, ys, ws)):
            x, y, w = val(xb), val(yb), val(wb)
            try:
                want = op(x, y, w)
            except (OverflowError, ValueError):
                want = math.nan
            g = val(got[i])
            same = (math.isnan(g) and math.isnan(want)) or got[i] == bits(want)
            if not same:
                bad += 1
                if bad <= 5:
                    print(f"{name}[{i}]: x={x!r} y={y!r} w={w!r}: got {g!r} "
                          f"(0x{got[i]:08x}), expected {want!r} (0x{bits(want):08x})")
    print(f"fp_edges: {4 * len(xs)} results, {bad} differ from the reference")
    sys.exit(1 if bad else 0)


main()
