#!/usr/bin/env python3
"""The Sm80 GEMM kernels against cuBLAS, measured in the same run on the
same inputs. Runs on the GPU machine (PyTorch with CUDA); run.sh prepares
the kernels' verified bundles, their launch shapes (WORKDIR/kernels.txt:
name, bundle, launcher flags) and the launcher, which runs each kernel
through the C runtime from its bundle.

For each size M = N = K: random bf16 A (M x K) and B (K x N); each kernel
through rake-launch (first run checked against torch's f32 product of the
same inputs, then the mean of --repeat runs); torch.matmul in bf16 (cuBLAS,
f32 accumulation) timed with CUDA events. Prints TFLOP/s and the ratio.

usage: bench.py LAUNCHER WORKDIR SIZE..."""
import os
import re
import subprocess
import sys

import numpy
import torch

launcher, work = sys.argv[1:3]
sizes = [int(s) for s in sys.argv[3:]] or [2048, 4096, 8192]
# name, bundle folder, width of a K slice, B as k x n ("kn") or n x k ("nk"), height
# of a tile of C, launcher flags
kernels = [line.split(maxsplit=5) for line in open(f"{work}/kernels.txt")]
repeat = 20
os.makedirs(work, exist_ok=True)
torch.manual_seed(0)
print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}")
print(f"{'kernel':>18} {'M=N=K':>6} {'rake ms':>9} {'rake TF/s':>10} "
      f"{'cuBLAS ms':>10} {'cuBLAS TF/s':>12} {'ratio':>6} {'max rel err':>12}")


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


status = 0
for s in sizes:
    assert s % 128 == 0, "sizes must be multiples of 128"
    m = n = k = s
    a = torch.randn(m, k, device="cuda").to(torch.bfloat16)
    b = torch.randn(k, n, device="cuda").to(torch.bfloat16)
    a.cpu().view(torch.int16).numpy().tofile(f"{work}/A.bin")
    b.cpu().view(torch.int16).numpy().tofile(f"{work}/B.bin")
    b.t().contiguous().cpu().view(torch.int16).numpy().tofile(f"{work}/Bt.bin")
    ref = a.float() @ b.float()
    cublas = time_torch(lambda: torch.matmul(a, b), repeat)
    flops = 2.0 * m * n * k
    for name, bundle, slice_, form, mtile, launch in kernels:
        bmat = (f"m:bf16:{k}x{n}:{work}/B.bin:-" if form == "kn"
                else f"m:bf16:{n}x{k}:{work}/Bt.bin:-")
        out = subprocess.run(
            [launcher, f"{work}/{bundle}", name,
             *[f for f in launch.split() if not f.startswith("t:")], "--repeat",
             str(repeat), f"i:{m // int(mtile)}", f"i:{n // 128}",
             f"i:{k // int(slice_)}", f"m:bf16:{m}x{k}:{work}/A.bin:-", bmat,
             f"m:f32:{m}x{n}:-:{work}/C.bin",
             # Tensor maps (TMA kernels) follow the parameters.
             *[f for f in launch.split() if f.startswith("t:")]],
            capture_output=True, text=True)
        if out.returncode != 0:
            print(out.stdout, out.stderr)
            sys.exit(1)
        ms = float(re.search(r"mean time over \d+ runs: ([0-9.]+) ms",
                             out.stdout)[1])
        c = torch.from_numpy(numpy.fromfile(f"{work}/C.bin", dtype=numpy.float32))
        c = c.view(m, n).cuda()
        err = ((c - ref).abs().max() / ref.abs().max()).item()
        if err > 1e-4:
            status = 1
        print(f"{name:>18} {s:>6} {ms:>9.3f} {flops / ms / 1e9:>10.1f} "
              f"{cublas:>10.3f} {flops / cublas / 1e9:>12.1f} "
              f"{cublas / ms:>6.2f} {err:>12.2e}")
sys.exit(status)
