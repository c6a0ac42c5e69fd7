#!/usr/bin/env python3
"""Runs prepared examples (scripts/gpu-run.sh prepare DIR ...) from Python on
torch tensors: each DIR's verified bundle opened with rake.load (the C
runtime), its kernel called with the inputs DIR/in as CUDA tensors and the
index values of DIR/args, and every buffer compared with the sequential
meaning DIR/cpu (bit for bit, any NaN matching any NaN, or within DIR's
tolerance). Needs only the C runtime (librake_runtime.so), the package's
load-and-launch part, torch and a GPU: no MLIR.

usage: torch_examples.py DIR..."""
import os
import sys

import torch

import rake

DTYPES = {"f32": torch.float32, "f64": torch.float64, "f16": torch.float16,
          "bf16": torch.bfloat16, "i8": torch.int8, "i16": torch.int16,
          "i32": torch.int32, "i64": torch.int64, "index": torch.int64}


def tensor(path, dtype, shape):
    count = 1
    for d in shape:
        count *= d
    if path == "-":
        return torch.zeros(shape, dtype=dtype, device="cuda")
    with open(path, "rb") as f:
        data = bytearray(f.read())
    return torch.frombuffer(data, dtype=dtype, count=count).reshape(shape).cuda()


status = 0
for d in sys.argv[1:]:
    words = open(os.path.join(d, "args")).read().split()
    name = words[0]
    tol = open(os.path.join(d, "tolerance")).read().split() if os.path.exists(
        os.path.join(d, "tolerance")) else []
    rtol = float(tol[tol.index("--rtol") + 1]) if "--rtol" in tol else 0.0
    atol = float(tol[tol.index("--atol") + 1]) if "--atol" in tol else 0.0
    args, outputs = [], []
    for w in words[1:]:
        f = w.split(":")
        if f[0] == "i":
            args.append(int(f[1]))
        elif f[0] == "m":
            shape = tuple(int(x) for x in f[2].split("x"))
            t = tensor(os.path.join(d, f[3]) if f[3] != "-" else "-", DTYPES[f[1]], shape)
            args.append(t)
            if f[4] != "-":
                outputs.append((os.path.basename(f[4]), t, f[1]))
    kernel = rake.load(os.path.join(d, "bundle"), kernel=name)
    kernel(*args)
    torch.cuda.synchronize()
    for base, t, elt in outputs:
        want = tensor(os.path.join(d, "cpu", base), DTYPES[elt], tuple(t.shape))
        if rtol == 0 and atol == 0 or not t.dtype.is_floating_point:
            bits = {1: torch.int8, 2: torch.int16, 4: torch.int32, 8: torch.int64}[t.element_size()]
            eq = t.view(bits) == want.view(bits)
            if t.dtype.is_floating_point:
                eq |= torch.isnan(t) & torch.isnan(want)
            bad = int((~eq).sum())
            verdict = "equals the sequential meaning" if bad == 0 else \
                f"differs from the sequential meaning in {bad} elements"
        else:
            g, w = t.double(), want.double()
            ok = ((g - w).abs() <= atol + rtol * w.abs()) | (torch.isnan(g) & torch.isnan(w))
            bad = int((~ok).sum())
            verdict = (f"matches the sequential meaning within rtol {tol[tol.index('--rtol') + 1]} "
                       f"atol {tol[tol.index('--atol') + 1]}") if bad == 0 else \
                f"differs from the sequential meaning in {bad} elements"
        if bad:
            status = 1
        print(f"{name}: {base} {verdict} (Python, torch tensors)")
sys.exit(status)
