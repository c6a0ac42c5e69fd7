#!/usr/bin/env python3
"""The split-K GEMM of bench/gemm against cuBLAS, from Python on torch
tensors (rake.load: the C runtime opens each verified bundle).

    splitk.py SPLIT_BUNDLE SUM_BUNDLE [OTHER_BUNDLE ...] [MxNxK]

SPLIT_BUNDLE is make_gemm.py --split 2 --mtiles MT (f32 partial planes of
C, P = 2 M x N), SUM_BUNDLE splitk_sum2_bf16 (C = P0 + P1 rounded to
bf16). One call is both kernels on torch's stream, timed together
(rake.bench) against torch.matmul (bf16 out) on the same A and Bt; OTHER
bundles (plain bf16-out GEMMs of bench/gemm taking Mt, Nt, Kt) are timed
the same way for comparison. Prints the largest error against torch's f32
product relative to the largest |C| (one bf16 rounding: about 4e-3) and
the ratio cuBLAS / Rake; exits 1 when an error is above 1e-2."""
import re
import sys

import torch

import rake

args = sys.argv[1:]
shape = args.pop() if args and re.fullmatch(r"\d+x\d+x\d+", args[-1]) else "256x8192x8192"
m, n, k = (int(x) for x in shape.split("x"))
split, ssum, *others = (rake.load(b) for b in args)
print(split.describe())
print(ssum.describe())
# The split kernel's rows (its A's first extent is M, a constant) and tile.
rows = int(split.signature[2]["extents"][0])
bn = int(re.fullmatch(r"\(\w+ \* (\d+)\)", split.signature[3]["extents"][0])[1])
kb = int(re.fullmatch(r"\(\w+ \* (\d+)\)", split.signature[2]["extents"][1])[1])
assert m == rows, f"the split kernel is written for M = {rows}"
torch.manual_seed(0)
a = torch.randn(m, k, device="cuda").to(torch.bfloat16)
bt = torch.randn(n, k, device="cuda").to(torch.bfloat16)
p = torch.empty(2 * m, n, device="cuda", dtype=torch.float32)
c = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
exact = a.float() @ bt.float().t()
flops = 2.0 * m * n * k
status = 0


def run_split():
    split(n // bn, k // kb, a, bt, p)
    ssum(m * n // 4, p.view(-1), c.view(-1))


def report(name, fn, out):
    global status
    fn()
    torch.cuda.synchronize()
    err = ((out.float() - exact).abs().max() / exact.abs().max()).item()
    r = rake.bench(fn)
    print(f"{name:>28} {shape:>14} {r.median_ms:8.4f} ms {r.tflops(flops):7.1f} TFLOP/s "
          f"cuBLAS / Rake {theirs.median_ms / r.median_ms:5.2f}  max err {err:.2e}")
    if err > 1e-2:
        status = 1


theirs = rake.bench(lambda: torch.matmul(a, bt.t()))
print(f"{'cuBLAS (torch.matmul)':>28} {shape:>14} {theirs.median_ms:8.4f} ms "
      f"{theirs.tflops(flops):7.1f} TFLOP/s")
report("split-K 2 + sum", run_split, c)
for kern in others:
    tm = int(re.fullmatch(r"\(\w+ \* (\d+)\)", kern.signature[3]["extents"][0])[1])
    tn = int(re.fullmatch(r"\(\w+ \* (\d+)\)", kern.signature[4]["extents"][0])[1])
    tk = int(re.fullmatch(r"\(\w+ \* (\d+)\)", kern.signature[3]["extents"][1])[1])
    cc = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    report(kern.name, lambda kern=kern, cc=cc: kern(m // tm, n // tn, k // tk, a, bt, cc), cc)
sys.exit(status)
