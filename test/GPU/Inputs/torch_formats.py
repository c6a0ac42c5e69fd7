#!/usr/bin/env python3
"""The narrower-format warning on a real GPU: the mma_tf32 kernel
(test/Conversion/GpuIRToCPU/Inputs/sm80-mma-tf32.mlir) multiplies A and B
as tf32; called with f32 tensors whose every value is exact in bf16 it
warns once per argument on its first call (rake.FormatWarning), and not
for values that need more bits.

usage: torch_formats.py MMA_TF32_BUNDLE"""
import sys
import warnings

import torch

import rake

path = sys.argv[1]
print(rake.load(path).describe().splitlines()[0])


def call(a, b, exact_inputs):
    k = rake.load(path)
    c = torch.zeros(16, 8, device="cuda")
    d = torch.empty(16, 8, device="cuda")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        k(a, b, c, d)
        k(a, b, c, d)  # the first call only
        torch.cuda.synchronize()
    # Values exact in bf16 are exact in tf32: D = A B exactly.
    ok = torch.equal(d, a @ b) if exact_inputs else None
    return ok, [f"{w.category.__name__}: {w.message}" for w in caught]


exact = torch.randn(16, 8, device="cuda").to(torch.bfloat16).float()
eye = torch.eye(8, device="cuda")
ok, ws = call(exact, eye, True)
print("bf16 values:", ok, len(ws))
for w in ws:
    print(w)
_, ws = call(torch.randn(16, 8, device="cuda") + 2**-12, eye + torch.rand(8, 8, device="cuda") * 2**-9, False)
print("f32 values:", len(ws))
