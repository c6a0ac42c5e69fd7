#!/usr/bin/env python3
"""An independent reference for examples/rmsnorm.mlir and softmax.mlir:
recomputes each row in double precision from the f32 inputs and checks
every f32 output within the bound that its f32 evaluation order allows
(the sum of 1024 terms: at most 1025 roundings of 2^-24 relative to the sum
of magnitudes; each other operation one rounding, exp two ulp).

  check_norms.py rmsnorm [--cols=N] X.bin W.bin Y.bin
  check_norms.py softmax [--cols=N] X.bin Y.bin

Rows have 1024 floats unless --cols says otherwise (the fused examples':
1000, not a multiple of 32, so their last step is a tail of 8 lanes).
"""
import array
import math
import sys


def floats(path):
    a = array.array("f")
    with open(path, "rb") as f:
        a.frombytes(f.read())
    return a


args = sys.argv[1:]
n = 1024
for a in list(args):
    if a.startswith("--cols="):
        n = int(a[len("--cols="):])
        args.remove(a)
mode = args[0]
x = floats(args[1])
y = floats(args[-1])
w = floats(args[2]) if mode == "rmsnorm" else None
u = 2.0 ** -24
assert len(x) == len(y) and len(x) % n == 0
bad = 0
worst = 0.0
for r in range(len(x) // n):
    row = x[r * n:(r + 1) * n]
    if mode == "rmsnorm":
        ss = sum(v * v for v in row)
        scale = 1.0 / math.sqrt(ss / n + 1e-6)
        # The sum's error, halved by the square root, and 6 more roundings.
        rel = 0.5 * (n + 1) * u + 8 * u
        want = [v * scale * wv for v, wv in zip(row, w)]
    else:
        m = max(row)
        es = [math.exp(v - m) for v in row]
        s = sum(es)
        want = [e / s for e in es]
        # exp within 2 ulp of e^(x - m), x - m rounded once (relative
        # error |x - m| u in e^(x - m)), the sum, the division (or the
        # reciprocal and the product: two roundings).
        spread = max(abs(v - m) for v in row)
        rel = (n + 1) * u + (spread + 5) * u
    for j, (got, ref) in enumerate(zip(y[r * n:(r + 1) * n], want)):
        err = abs(got - ref) / max(abs(ref), 1e-30)
        worst = max(worst, err / rel)
        if err > rel:
            if bad == 0:
                print(f"{mode}: at [{r}][{j}]: {got!r}, expected {ref!r}")
            bad += 1
if bad:
    print(f"{mode}: {bad} of {len(y)} elements outside the bound")
    sys.exit(1)
print(f"{mode}: {len(y)} elements within the bound (worst {worst:.2f} of it)")
