#!/usr/bin/env python3
"""The Hopper GEMMs of bench/gemm against cuBLAS, in one process on the same
inputs. Runs on the GPU machine (PyTorch with CUDA); bench/gemm/run.sh
prepares the verified bundles and WORKDIR/kernels.txt (one line a kernel:
name, tile rows BM, tile columns BN, task group G (0: none), tiles per task
T, output type, launcher flags) and builds the launcher, which runs each
kernel through the C runtime from its bundle.

For each shape MxNxK: random bf16 A (M x K) and Bt (N x K); each kernel
whose tiling divides the shape, through rake-launch (its first run checked
against torch's f32 product of the same inputs, then the mean of --repeat
runs); cuBLAS through torch on the same A and Bt, like for like: a bf16
output against torch.matmul (bf16 out, f32 accumulation), an f32 output
against torch.mm(..., out_dtype=torch.float32) (cuBLAS writing f32). Prints
TFLOP/s, the ratio (cuBLAS time / ours: above 1 is faster than cuBLAS) and
the largest error relative to the largest |C|; exits 1 if an error is
above its bound (1e-4 for f32 output, 1e-2 for bf16: one rounding). TF32
kernels (f32 inputs) run on random f32 A and Bt against cuBLAS TF32
(torch.matmul with allow_tf32), their error measured against the exact
product of the inputs as the tensor cores read them (13 low significand bits
dropped).

usage: bench.py LAUNCHER WORKDIR [MxNxK ...]"""
import os
import re
import subprocess
import sys

import numpy
import torch

launcher, work = sys.argv[1:3]
shapes = [tuple(int(x) for x in s.split("x")) for s in sys.argv[3:]] or [
    (4096, 4096, 4096), (6144, 6144, 6144), (8192, 8192, 8192),
    (8192, 8192, 1024), (256, 8192, 8192)]
kernels = []
for line in open(f"{work}/kernels.txt"):
    name, bm, bn, g, t, out, inp, launch = line.split(maxsplit=7)
    kernels.append((name, int(bm), int(bn), int(g), int(t), out, inp, launch.split()))
repeat = 20
torch.manual_seed(0)
print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}")
print(f"{'kernel':>24} {'shape':>16} {'out':>4} {'ms':>8} {'TF/s':>7} "
      f"{'cuBLAS ms':>10} {'cuBLAS TF/s':>12} {'ratio':>6} {'max err':>9}")


def time_torch(fn, n):
    fn()
    torch.cuda.synchronize()
    start, stop = torch.cuda.Event(True), torch.cuda.Event(True)
    start.record()
    for _ in range(n):
        fn()
    stop.record()
    torch.cuda.synchronize()
    return start.elapsed_time(stop) / n


def cublas_f32(a, bt):
    try:
        return torch.mm(a, bt.t(), out_dtype=torch.float32)
    except TypeError:
        return None


status = 0
best = {}
def tf32(x):
    """x as the tensor cores read a tf32 operand: without its 13 low
    significand bits."""
    return (x.view(torch.int32) & -8192).view(torch.float32)


for m, n, k in shapes:
    flops = 2.0 * m * n * k
    shape = f"{m}x{n}x{k}"
    inputs, ref_ms = {}, {}
    for inp in sorted({kk[6] for kk in kernels}):
        if inp == "bf16":
            a = torch.randn(m, k, device="cuda").to(torch.bfloat16)
            bt = torch.randn(n, k, device="cuda").to(torch.bfloat16)
            a.cpu().view(torch.int16).numpy().tofile(f"{work}/A.{inp}.bin")
            bt.cpu().view(torch.int16).numpy().tofile(f"{work}/Bt.{inp}.bin")
            ref = a.float() @ bt.float().t()
            ref_ms[("bf16", "bf16")] = time_torch(lambda: torch.matmul(a, bt.t()), repeat)
            if cublas_f32(a, bt) is not None:
                ref_ms[("bf16", "f32")] = time_torch(lambda: cublas_f32(a, bt), repeat)
        else:
            # cuBLAS TF32: f32 tensors with TF32 tensor-core math allowed.
            a = torch.randn(m, k, device="cuda")
            bt = torch.randn(n, k, device="cuda")
            a.cpu().numpy().tofile(f"{work}/A.{inp}.bin")
            bt.cpu().numpy().tofile(f"{work}/Bt.{inp}.bin")
            ref = (tf32(a).double() @ tf32(bt).double().t()).float()
            torch.backends.cuda.matmul.allow_tf32 = True
            ref_ms[("tf32", "f32")] = time_torch(lambda: torch.matmul(a, bt.t()), repeat)
            torch.backends.cuda.matmul.allow_tf32 = False
        inputs[inp] = (ref, ref.abs().max().item())
    for (inp, out), ms in ref_ms.items():
        print(f"{'cuBLAS ' + inp:>24} {shape:>16} {out:>4} {ms:>8.3f} "
              f"{flops / ms / 1e9:>7.1f}")
    for name, bm, bn, g, t, out, inp, launch in kernels:
        rows = bm * t * max(g, 1)
        kb = 32 if inp == "tf32" else 64
        if m % rows or n % bn or k % kb:
            continue
        ctype = "f32" if out == "f32" else "bf16"
        et = "f32" if inp == "tf32" else "bf16"
        ref, scale = inputs[inp]
        proc = subprocess.run(
            [launcher, f"{work}/{name}", name,
             *[f for f in launch if not f.startswith("t:")], "--repeat",
             str(repeat), f"i:{m // rows}", f"i:{n // bn}", f"i:{k // kb}",
             f"m:{et}:{m}x{k}:{work}/A.{inp}.bin:-", f"m:{et}:{n}x{k}:{work}/Bt.{inp}.bin:-",
             f"m:{ctype}:{m}x{n}:-:{work}/C.bin",
             # Tensor maps (TMA kernels) follow the parameters.
             *[f for f in launch if f.startswith("t:")]],
            capture_output=True, text=True)
        if proc.returncode != 0:
            print(proc.stdout, proc.stderr)
            status = 1
            continue
        ms = float(re.search(r"mean time over \d+ runs: ([0-9.]+) ms",
                             proc.stdout)[1])
        if ctype == "f32":
            c = torch.from_numpy(numpy.fromfile(f"{work}/C.bin", dtype=numpy.float32))
        else:
            c = torch.from_numpy(numpy.fromfile(f"{work}/C.bin", dtype=numpy.int16)).view(torch.bfloat16)
        c = c.view(m, n).cuda().float()
        err = ((c - ref).abs().max() / scale).item()
        if err > (1e-4 if ctype == "f32" else 1e-2):
            status = 1
        cub = ref_ms.get((inp, ctype))
        ratio = cub / ms if cub else float("nan")
        print(f"{name:>24} {shape:>16} {ctype:>4} {ms:>8.3f} {flops / ms / 1e9:>7.1f} "
              f"{cub or float('nan'):>10.3f} {flops / cub / 1e9 if cub else float('nan'):>12.1f} "
              f"{ratio:>6.2f} {err:>9.2e}")
        key = (shape, inp, ctype)
        if ratio == ratio and ratio > best.get(key, (0, ""))[0]:
            best[key] = (ratio, name)
print("best ratio to cuBLAS (same output type):")
for (shape, inp, ctype), (ratio, name) in best.items():
    print(f"  {shape:>16} {inp:>4} in {ctype:>4} out {ratio:.2f} {name}")
sys.exit(status)
