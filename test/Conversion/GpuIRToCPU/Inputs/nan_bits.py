#!/usr/bin/env python3
"""Inputs and an independent reference for nan-bits.mlir.

  nan_bits.py make DIR        writes DIR/X.bin (32 f32 bit patterns: NaNs of
                              both signs and several payloads, signaling
                              and quiet, and ordinary values) and DIR/S.bin
  nan_bits.py check OUT DIR   compares OUT/Y.bin (6 x 32 i32)

The rule (docs/GpuIR.md, "NaN"): a NaN's sign and payload are not
specified, so where they would show in a number both sides read every NaN
as the canonical one: its bits are all ones but the sign (0x7fffffff for
f32, 0x7fff for f16), and it gives a positive sign."""
import math
import struct
import sys

NANS = [0x7FC00000, 0xFFC00000, 0x7F800001, 0xFF800001, 0x7FC12345,
        0xFFFFFFFF, 0x7FFFFFFF, 0xFFA00000]
OTHERS = [0x00000000, 0x80000000, 0x3F800000, 0xBF800000, 0x7F800000,
          0xFF800000, 0x00000001, 0x80000001, 0x7F7FFFFF, 0x477FE000,
          0x477FF000, 0xC2F60000]


def make(d):
    xs = (NANS + OTHERS + NANS)[:32]
    xs += [0x3E800000] * (32 - len(xs))
    open(f"{d}/X.bin", "wb").write(struct.pack("<32I", *xs))
    ss = [(l * 7919 - 100000) for l in range(32)]
    open(f"{d}/S.bin", "wb").write(struct.pack("<32i", *ss))


def isnan(b):
    return (b & 0x7F800000) == 0x7F800000 and (b & 0x007FFFFF) != 0


def f32(b):
    return struct.unpack("<f", struct.pack("<I", b))[0]


def f16bits(b):
    """The f32 bit pattern b rounded to f16, to nearest even."""
    if isnan(b):
        return 0x7FFF
    return struct.unpack("<H", struct.pack("<e", f32(b)))[0] if abs(f32(b)) < 65520 \
        else (0xFC00 if b >> 31 else 0x7C00)


def check(out, d):
    xs = struct.unpack("<32I", open(f"{d}/X.bin", "rb").read())
    ss = struct.unpack("<32i", open(f"{d}/S.bin", "rb").read())
    ys = struct.unpack("<192I", open(f"{out}/Y.bin", "rb").read())
    bad = 0
    for l in range(32):
        x = xs[l]
        want = [
            0x7FFFFFFF if isnan(x) else x,
            0x7FFFFFFF if isnan(x) else x,
            0x3F800000 if isnan(x) or not (x >> 31) else 0xBF800000,
            (lambda h: h | 0xFFFF0000 if h & 0x8000 else h)(f16bits(x)),
            0,
            ss[l] & 0xFFFFFFFF,
        ]
        for i, w in enumerate(want):
            got = ys[i * 32 + l]
            if got != w:
                bad += 1
                print(f"lane {l} result {i}: x = {x:#010x}: got {got:#010x}, want {w:#010x}")
    nans = sum(isnan(x) for x in xs)
    print(f"nan bits: {6 * 32 - bad} of {6 * 32} results equal the reference ({nans} NaN inputs)")


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2])
    else:
        check(sys.argv[2], sys.argv[3])
