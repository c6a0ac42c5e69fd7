"""Inputs and the independent reference of sm80-masked-collectives.mlir.

  sm80_masked.py make DIR     writes DIR/X.bin (34 x 32 f32) and DIR/V.bin
                              (34 x 32 i32): row t's data lanes (0 .. t - 2)
                              hold values, its padding lanes NaN and -1
  sm80_masked.py check DIR    compares DIR/S.bin, P.bin, B.bin (the sums,
                              prefix sums and ballots) with the published
                              orders computed here in binary32, bit for bit

A padding lane supplies -0.0 to the sums (0 to the ballot); a sum that took
a padding lane's NaN, or a ballot that counted its -1, differs."""
import math
import random
import struct
import sys

ROWS, LANES = 34, 32


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def add(a, b):
    # The sum of two binary32 values rounded once: exact in binary64, then
    # rounded to binary32 (53 >= 2 * 24 + 2 bits).
    if math.isnan(a) or math.isnan(b):
        return math.nan
    return f32(a + b)


def active(t):
    return t - 1  # the kernel's active(%t - 1)


def make(d):
    rnd = random.Random(7)
    xs, vs = [], []
    for t in range(ROWS):
        for l in range(LANES):
            if l < active(t):
                # Values of both signs and magnitudes whose sums round.
                xs.append(f32(rnd.choice([-1, 1]) * rnd.uniform(0, 1) * 2.0 ** rnd.randint(-8, 8)))
                vs.append(rnd.choice([0, 0, 1, 7, -3]))
            else:
                xs.append(math.nan)
                vs.append(-1)
    open(f"{d}/X.bin", "wb").write(struct.pack(f"<{len(xs)}f", *xs))
    open(f"{d}/V.bin", "wb").write(struct.pack(f"<{len(vs)}i", *vs))


def reference(d):
    xs = struct.unpack(f"<{ROWS * LANES}f", open(f"{d}/X.bin", "rb").read())
    vs = struct.unpack(f"<{ROWS * LANES}i", open(f"{d}/V.bin", "rb").read())
    S, P, B = [], [], []
    for t in range(ROWS):
        n = active(t)
        x = [xs[t * LANES + l] if l < n else -0.0 for l in range(LANES)]
        s = list(x)
        for dist in (16, 8, 4, 2, 1):  # the butterfly, every lane at once
            s = [add(s[l], s[l ^ dist]) for l in range(LANES)]
        p = list(x)
        for dist in (1, 2, 4, 8, 16):  # the scan: v[l - d] + v[l]
            p = [add(p[l - dist], p[l]) if l >= dist else p[l] for l in range(LANES)]
        mask = 0
        for l in range(LANES):
            if l < n and vs[t * LANES + l] != 0:
                mask |= 1 << l
        mask = struct.unpack("<i", struct.pack("<I", mask))[0]
        S += s
        P += p
        B += [mask] * LANES
    return S, P, B


def check(d, ref_dir):
    S, P, B = reference(ref_dir)
    bad = 0
    for name, want, fmt in (("S", S, "f"), ("P", P, "f"), ("B", B, "i")):
        got = struct.unpack(f"<{ROWS * LANES}{fmt}", open(f"{d}/{name}.bin", "rb").read())
        for i, (g, w) in enumerate(zip(got, want)):
            gb = struct.pack(f"<{fmt}", g)
            wb = struct.pack(f"<{fmt}", w)
            if gb != wb:
                if bad < 5:
                    print(f"{name}[{i // LANES}, {i % LANES}] (active {active(i // LANES)}): {g!r} != {w!r}")
                bad += 1
    # Spot facts the test names: empty data sums to -0.0, a full warp.
    print(f"empty rows: S[1, 0] = {struct.unpack('<I', struct.pack('<f', S[1 * LANES]))[0]:#010x}")
    print(f"masked collectives: {ROWS * LANES * 3 - bad} of {ROWS * LANES * 3} results equal the reference" +
          ("" if bad == 0 else " (MISMATCH)"))
    return bad == 0


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2])
    else:
        sys.exit(0 if check(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else sys.argv[2]) else 1)
