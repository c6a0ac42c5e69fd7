"""Inputs and the independent reference of defined-integer.mlir.

  defined_integer.py make DIR        writes DIR/X.bin, S.bin (2 x 32 i32) and
                                     F.bin (2 x 32 f32): edge values
  defined_integer.py check OUT DIR   compares OUT/Y.bin (2 x 11 x 32 i32)
                                     with the definitions (docs/GpuIR.md
                                     "Integer arithmetic") computed here

Shifts by 32 or more: 0 (shli, shrui), the sign (shrsi). fptosi/fptoui:
truncate toward zero, saturate to the type's range, NaN gives 0. Division
by zero: quotient 0, remainder the dividend; the signed minimum by -1:
quotient itself, remainder 0. floordivsi and ceildivsi round down and up."""
import math
import struct
import sys

N = 64
MIN, MAX = -2**31, 2**31 - 1


def make(d):
    xs = [0, 1, -1, 5, -5, 7, MIN, MAX, 123456789, -987654321, 0x80000000 - 2**32, 64,
          -64, 100, -100, 3, MIN, MIN, MAX, 1, -7, 7, 2**30, -2**30, 255, -256, 1000, -1000,
          MIN, 42, -42, 9]
    ss = [31, 32, 33, -1, 0, 2, -1, 0, 1, 64, 100, -32, 3, 0, 7, 0, 1, -1, -1, 31, 2, -2, 30,
          31, 8, 4, 0, 9, 2**31 - 1 - 2**32 + 2**32, 5, 40, 1]
    xs = (xs + [i * 977 - 15000 for i in range(32)])[:N]
    ss = (ss + [(i * 7) % 40 - 5 for i in range(32)])[:N]
    fs = [0.0, -0.0, 1.5, -1.5, 2.5, -2.5, 2147483520.0, 2147483648.0, -2147483648.0,
          -2147483904.0, 4294967040.0, 4294967296.0, 3e9, -3e9, float("inf"), float("-inf"),
          float("nan"), -float("nan"), 1e-40, -0.99, 0.99, 1e30, -1e30, 65535.9, -65536.5,
          12345.678, -12345.678, 3.4e38, -3.4e38, 0.5, -0.5, 7.0]
    fs = (fs + [i * 1.7e7 - 5e8 for i in range(32)])[:N]
    open(f"{d}/X.bin", "wb").write(struct.pack(f"<{N}i", *xs))
    open(f"{d}/S.bin", "wb").write(struct.pack(f"<{N}i", *[((s + 2**31) % 2**32) - 2**31 for s in ss]))
    open(f"{d}/F.bin", "wb").write(struct.pack(f"<{N}f", *fs))


def wrap(v):
    return ((v + 2**31) % 2**32) - 2**31


def u(v):
    return v % 2**32


def results(x, s, f):
    su = u(s)
    shl = 0 if su >= 32 else wrap(u(x) << su)
    shru = 0 if su >= 32 else wrap(u(x) >> su)
    shrs = x >> min(su, 31)
    if math.isnan(f):
        fsi = fui = 0
    else:
        t = math.trunc(f) if math.isfinite(f) else (2**40 if f > 0 else -2**40)
        fsi = min(max(t, MIN), MAX)
        fui = wrap(min(max(t, 0), 2**32 - 1))

    def tdiv(a, b):
        q = abs(a) // abs(b)
        return q if (a >= 0) == (b >= 0) else -q
    if s == 0:
        ds, rs, fd, cd = 0, x, 0, 0
    elif x == MIN and s == -1:
        ds, rs, fd, cd = MIN, 0, MIN, MIN
    else:
        ds = tdiv(x, s)
        rs = x - ds * s
        fd = x // s
        cd = -((-x) // s)
    if su == 0:
        du, ru = 0, x
    else:
        du, ru = wrap(u(x) // su), wrap(u(x) % su)
    return [shl, shru, shrs, fsi, fui, wrap(ds), wrap(rs), du, ru, wrap(fd), wrap(cd)]


def check(out, d):
    xs = struct.unpack(f"<{N}i", open(f"{d}/X.bin", "rb").read())
    ss = struct.unpack(f"<{N}i", open(f"{d}/S.bin", "rb").read())
    fs = struct.unpack(f"<{N}f", open(f"{d}/F.bin", "rb").read())
    ys = struct.unpack(f"<{2 * 11 * 32}i", open(f"{out}/Y.bin", "rb").read())
    names = ["shli", "shrui", "shrsi", "fptosi", "fptoui", "divsi", "remsi", "divui",
             "remui", "floordivsi", "ceildivsi"]
    bad = 0
    for t in range(2):
        for l in range(32):
            k = t * 32 + l
            ref = results(xs[k], ss[k], fs[k])
            for i in range(11):
                got = ys[(t * 11 + i) * 32 + l]
                if got != ref[i]:
                    if bad < 5:
                        print(f"MISMATCH {names[i]}({xs[k]}, {ss[k]}, {fs[k]}): {got} != {ref[i]}")
                    bad += 1
    print(f"defined integer: {2 * 11 * 32 - bad} of {2 * 11 * 32} results equal the reference")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2])
    else:
        check(sys.argv[2], sys.argv[3])
