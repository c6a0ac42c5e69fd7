"""Inputs and an independent reference for the block-scaled mma kernels
(Inputs/sm120a-mma-*.mlir): D = C + sum over k of A[r][k] SF_A[r][k / blk]
B[k][c] SF_B[k / blk][c], each product exact, rounded to f32, added to the
f32 sum in order of k.

  block_scale_ref.py make DIR AFMT BFMT SFMT K BYTE_A BYTE_B [nan-scale]
      writes DIR/{A,B,SFA,SFB,C}.bin (one byte per narrow element) and
      DIR/expected.bin
  block_scale_ref.py compare DIR   compares DIR/o/D.bin with DIR/expected.bin
"""
import math
import random
import struct
import sys

# (exponent bits, mantissa bits, bias, signed)
FORMATS = {
    "e2m1": (2, 1, 1, True), "e3m2": (3, 2, 3, True), "e2m3": (2, 3, 1, True),
    "e4m3": (4, 3, 7, True), "e5m2": (5, 2, 15, True),
    "ue8m0": (8, 0, 127, False), "ue4m3": (4, 3, 7, False),
}


def decode(fmt, bits):
    e_bits, m_bits, bias, signed = FORMATS[fmt]
    if fmt == "ue8m0":
        return math.nan if bits == 0xFF else 2.0 ** (bits - 127)
    if fmt == "ue4m3" and bits >= 0x80:
        return math.nan
    e = (bits >> m_bits) & ((1 << e_bits) - 1)
    m = bits & ((1 << m_bits) - 1)
    if fmt in ("e4m3", "ue4m3") and e == 15 and m == 7:
        return math.nan
    if fmt == "e5m2" and e == 31:
        mag = math.inf if m == 0 else math.nan
    elif e == 0:
        mag = m * 2.0 ** (1 - bias - m_bits)
    else:
        mag = (1 + m / 2.0 ** m_bits) * 2.0 ** (e - bias)
    sign = signed and (bits >> (e_bits + m_bits)) & 1
    return -mag if sign else mag


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def finite_codes(fmt):
    e_bits, m_bits, _, signed = FORMATS[fmt]
    n = 1 << (e_bits + m_bits + (1 if signed else 0))
    return [c for c in range(n) if math.isfinite(decode(fmt, c))]


def make(d, afmt, bfmt, sfmt, k, byte_a, byte_b, nan_scale=False):
    rng = random.Random(7)
    blocks = {32: 1}.get(k, 4 if sfmt == "ue4m3" else 2)
    blk = k // blocks
    a = [[rng.choice(finite_codes(afmt)) for _ in range(k)] for _ in range(16)]
    b = [[rng.choice(finite_codes(bfmt)) for _ in range(8)] for _ in range(k)]
    # Scales near 1 (products stay well inside f32); four per row/column.
    lo, hi = (124, 130) if sfmt == "ue8m0" else (0x30, 0x40)
    sfa = [[rng.randint(lo, hi) for _ in range(4)] for _ in range(16)]
    sfb = [[rng.randint(lo, hi) for _ in range(8)] for _ in range(4)]
    if nan_scale:
        sfa[0][byte_a] = 0xB8 if sfmt == "ue4m3" else 0xFF
    c = [[f32(rng.uniform(-4, 4)) for _ in range(8)] for _ in range(16)]
    put = lambda name, rows, fmt: open(f"{d}/{name}.bin", "wb").write(
        struct.pack(f"<{len(rows) * len(rows[0])}{fmt}",
                    *[v for row in rows for v in row]))
    put("A", a, "B")
    put("B", b, "B")
    put("SFA", sfa, "B")
    put("SFB", sfb, "B")
    put("C", c, "f")
    out = []
    for r in range(16):
        for col in range(8):
            s = c[r][col]
            for kk in range(k):
                j = kk // blk
                p = (decode(afmt, a[r][kk]) * decode(sfmt, sfa[r][byte_a + j]) *
                     decode(bfmt, b[kk][col]) * decode(sfmt, sfb[byte_b + j][col]))
                s = f32(s + f32(p)) if math.isfinite(p) else math.nan
            out.append(s)
    open(f"{d}/expected.bin", "wb").write(struct.pack("<128f", *out))


def compare(d):
    got = struct.unpack("<128f", open(f"{d}/o/D.bin", "rb").read())
    want = struct.unpack("<128f", open(f"{d}/expected.bin", "rb").read())
    bad = [i for i in range(128)
           if not (got[i] == want[i] or (math.isnan(got[i]) and math.isnan(want[i])))]
    nans = sum(1 for v in got if math.isnan(v))
    if bad:
        i = bad[0]
        print(f"{len(bad)} of 128 differ; D[{i // 8}][{i % 8}] = {got[i]}, "
              f"expected {want[i]}")
    else:
        print(f"all 128 equal ({nans} NaN)")


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], int(sys.argv[6]),
             int(sys.argv[7]), int(sys.argv[8]), len(sys.argv) > 9)
    else:
        compare(sys.argv[2])
