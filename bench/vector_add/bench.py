#!/usr/bin/env python3
"""examples/vector_add.mlir (one float per thread) and
examples/vector_add_v4.mlir (16-byte vector loads and stores, 4 floats per
thread) called from Python on torch tensors through their verified bundles,
against torch.add(A, B, out=C) on the same tensors, in one run on the same
GPU. Prints each time, its bandwidth (12 bytes per element) and the ratio
torch time / Rake time (1.00: as fast as torch), checks each result against
A + B exactly, and checks that the vector kernel refuses a buffer that is
not 16-byte aligned (exits 1 on any failure).

usage: bench.py SCALAR_BUNDLE V4_BUNDLE [N ...] [--repeat N] [--rounds R]"""
import argparse
import statistics
import sys

import torch

import rake

parser = argparse.ArgumentParser(description="vector_add and vector_add_v4 against torch.add")
parser.add_argument("scalar_bundle")
parser.add_argument("v4_bundle")
parser.add_argument("sizes", type=int, nargs="*", default=[1 << 24, 1 << 28])
parser.add_argument("--repeat", type=int, default=20)
parser.add_argument("--rounds", type=int, default=5)
args = parser.parse_args()
scalar_bundle, v4_bundle, sizes, rounds = args.scalar_bundle, args.v4_bundle, args.sizes, args.rounds


def time_ms(fn):
    """One sample of `--repeat` back-to-back calls after one warm-up call."""
    return rake.bench(fn, warmup=1, repeat=1, batch=args.repeat).median_ms


print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}")
scalar = rake.load(scalar_bundle)
v4 = rake.load(v4_bundle)
print(v4.describe())
status = 0
torch.manual_seed(0)
for n in sizes:
    A = torch.randn(n, device="cuda")
    B = torch.randn(n, device="cuda")
    C = torch.empty_like(A)
    R = torch.empty_like(A)
    ref = A + B
    for name, fn in (("vector_add", lambda: scalar(n, A, B, C)),
                     ("vector_add_v4", lambda: v4(n, A, B, C))):
        C.fill_(float("nan"))
        fn()
        torch.cuda.synchronize()
        ok = torch.equal(C, ref)
        times = {"rake": [], "torch": []}
        for _ in range(rounds):
            times["rake"].append(time_ms(fn))
            times["torch"].append(time_ms(lambda: torch.add(A, B, out=R)))
        t = {k: statistics.median(v) for k, v in times.items()}
        gbytes = 12 * n / 1e9
        print(f"{name} n={n}: rake {t['rake']:.4f} ms ({gbytes / t['rake'] * 1e3:.0f} GB/s), "
              f"torch.add {t['torch']:.4f} ms ({gbytes / t['torch'] * 1e3:.0f} GB/s); "
              f"torch/rake {t['torch'] / t['rake']:.3f}; {'equal to A + B' if ok else 'DIFFERS from A + B'}")
        status |= not ok
# A buffer one float in is 4-byte aligned only: the runtime refuses it.
A = torch.randn(1025, device="cuda")
try:
    v4(1024, A[1:], A[1:], torch.empty(1024, device="cuda"))
    torch.cuda.synchronize()
    print("misaligned buffer: ACCEPTED (wrong)")
    status = 1
except (rake.ArgumentError, rake.RuntimeFailure) as e:
    print(f"misaligned buffer: refused: {e}")
sys.exit(status)
