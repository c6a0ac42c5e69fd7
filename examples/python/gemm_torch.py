#!/usr/bin/env python3
"""The flagship Hopper GEMM called from Python on torch tensors, against
torch.matmul (cuBLAS) on the same tensors.

    python3 examples/python/gemm_torch.py BUNDLE [MxNxK]

BUNDLE is a verified bundle of a bench/gemm kernel (rake-bundle, or
rake.compile's cache entry); the kernel's tile sizes are read from its
signature. Prints the largest error against torch's f32 product (relative
to the largest |C|: one bf16 rounding is about 4e-3), the times and the
ratio cuBLAS / Rake (above 1: faster than cuBLAS). Exits 1 when the error
is above 1e-2."""
import re
import sys

import torch

import rake

bundle = sys.argv[1]
m, n, k = (int(x) for x in (sys.argv[2] if len(sys.argv) > 2 else "8192x8192x8192").split("x"))
gemm = rake.load(bundle)
print(gemm.describe())
tile = [int(re.fullmatch(r"\(\w+ \* (\d+)\)", e)[1]) for e in
        (gemm.signature[3]["extents"][0], gemm.signature[4]["extents"][0],
         gemm.signature[3]["extents"][1])]
out = {"bf16": torch.bfloat16, "f32": torch.float32}[gemm.signature[5]["element"]]
torch.manual_seed(0)
a = torch.randn(m, k, device="cuda").to(torch.bfloat16)
bt = torch.randn(n, k, device="cuda").to(torch.bfloat16)
c = torch.empty(m, n, device="cuda", dtype=out)
args = (m // tile[0], n // tile[1], k // tile[2], a, bt, c)
gemm(*args)
ref = torch.matmul(a, bt.t()) if out == torch.bfloat16 else a.float() @ bt.float().t()
exact = a.float() @ bt.float().t()
err = ((c.float() - exact).abs().max() / exact.abs().max()).item()
err_ref = ((ref.float() - exact).abs().max() / exact.abs().max()).item()
ours = rake.bench(gemm, *args)
theirs = rake.bench(lambda: torch.matmul(a, bt.t()) if out == torch.bfloat16
                    else torch.mm(a, bt.t(), out_dtype=torch.float32))
flops = 2.0 * m * n * k
print(f"{m}x{n}x{k}: max error {err:.2e} (torch.matmul's {err_ref:.2e})")
print(f"  Rake from Python {ours.median_ms:.3f} ms ({ours.tflops(flops):.0f} TFLOP/s), "
      f"torch.matmul {theirs.median_ms:.3f} ms ({theirs.tflops(flops):.0f} TFLOP/s), "
      f"cuBLAS / Rake {theirs.median_ms / ours.median_ms:.2f}")
sys.exit(0 if err <= 1e-2 else 1)
