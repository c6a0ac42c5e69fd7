#!/usr/bin/env python3
"""The fastest Rake GEMM called from Python on torch tensors, against the
same bundle launched from C (rake-launch, the C runtime) and against
torch.matmul (cuBLAS), in one run on the same GPU. Prints the times, the
ratio Python / C (the cost of calling from Python: 1.00 is none) and the
ratio cuBLAS / Rake (above 1: faster than cuBLAS), and the largest error of
the Python call's result against torch's f32 product (exits 1 above one
bf16 rounding, 1e-2 of the largest |C|).

Each timing is the mean over `--repeat` back-to-back calls between two CUDA
events, after warm-up, as rake-launch --repeat times it, taken in `--rounds`
rounds of Python, C and cuBLAS in turn (the H200's clocks drift over a run)
and compared by their medians; the host time of one Python call (argument
checks, packing, the launch) is printed too.

usage: python_gemm.py LAUNCHER BUNDLE [MxNxK ...] [--repeat N] [--rounds R]"""
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

import torch

import rake

argv = sys.argv[1:]
repeat, rounds, idle = 50, 5, 1.0
for flag in ("--repeat", "--rounds"):
    if flag in argv:
        i = argv.index(flag)
        if flag == "--repeat":
            repeat = int(argv[i + 1])
        else:
            rounds = int(argv[i + 1])
        del argv[i:i + 2]
launcher, bundle = argv[:2]
shapes = [tuple(int(x) for x in s.split("x")) for s in argv[2:]] or [(8192, 8192, 8192)]

kernel = rake.load(bundle)
sig = kernel.signature
# The tile of each index parameter: the extents of A (rows, K) and Bt (cols).
m_param, n_param, k_param = (p["name"] for p in sig[:3])
a_rows = re.fullmatch(r"\((\w+) \* (\d+)\)", sig[3]["extents"][0])
b_rows = re.fullmatch(r"\((\w+) \* (\d+)\)", sig[4]["extents"][0])
k_cols = re.fullmatch(r"\((\w+) \* (\d+)\)", sig[3]["extents"][1])
bm, bn, bk = int(a_rows[2]), int(b_rows[2]), int(k_cols[2])
out_dtype = {"f32": torch.float32, "bf16": torch.bfloat16}[sig[5]["element"]]
tmaps = []
for p in next(k for k in kernel.bundle.manifest["kernels"] if k["name"] == kernel.name)["abi"]["params"]:
    t = re.fullmatch(r"tensormap\.arg(\d+)\.(\d+x\d+)\.swizzle(\d+)", p.get("role", ""))
    if t:
        tmaps.append(f"t:{t[1]}:{t[2]}:{t[3]}")

print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}, Python {sys.version.split()[0]}")
print(kernel.describe())
status = 0
torch.manual_seed(0)
for m, n, k in shapes:
    a = torch.randn(m, k, device="cuda").to(torch.bfloat16)
    bt = torch.randn(n, k, device="cuda").to(torch.bfloat16)
    c = torch.zeros(m, n, device="cuda", dtype=out_dtype)
    args = (m // bm, n // bn, k // bk, a, bt, c)
    kernel(*args)
    torch.cuda.synchronize()
    ref = a.float() @ bt.float().t()
    err = ((c.float() - ref).abs().max() / ref.abs().max()).item()
    if err > 1e-2:
        status = 1
    flops = 2.0 * m * n * k

    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(20):
        kernel(*args)
    host_us = (time.perf_counter() - t0) / 20 * 1e6
    torch.cuda.synchronize()
    if out_dtype == torch.bfloat16:
        ref_fn = lambda: torch.matmul(a, bt.t())
    else:
        ref_fn = lambda: torch.mm(a, bt.t(), out_dtype=torch.float32)

    def c_launch(tmp):
        t0 = time.perf_counter()
        elt = "f32" if out_dtype == torch.float32 else "bf16"
        proc = subprocess.run(
            [launcher, bundle, kernel.name, "--repeat", str(repeat),
             f"i:{m // bm}", f"i:{n // bn}", f"i:{k // bk}",
             f"m:bf16:{m}x{k}:{tmp}/A.bin:-", f"m:bf16:{n}x{k}:{tmp}/Bt.bin:-",
             f"m:{elt}:{m}x{n}:-:-", *tmaps], capture_output=True, text=True)
        if proc.returncode != 0:
            print(proc.stdout, proc.stderr)
            sys.exit(1)
        idle_seen.append(time.perf_counter() - t0)
        return float(re.search(r"mean time over \d+ runs: ([0-9.]+) ms", proc.stdout)[1])

    # Rounds of Python, C and cuBLAS in turn (the clocks drift over a run);
    # the medians compare.
    pys, cs, cubs, idle_seen = [], [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        a.cpu().view(torch.int16).numpy().tofile(f"{tmp}/A.bin")
        bt.cpu().view(torch.int16).numpy().tofile(f"{tmp}/Bt.bin")
        for _ in range(rounds):
            # Each measurement after the same idle second: the C launcher's
            # start (reading the inputs) leaves the GPU idle before it, and
            # an idle H200 runs its first milliseconds at higher clocks.
            time.sleep(idle)
            pys.append(rake.bench(kernel, *args, warmup=10, repeat=1, batch=repeat).median_ms)
            cs.append(c_launch(tmp))
            time.sleep(idle)
            cubs.append(rake.bench(ref_fn, warmup=10, repeat=1, batch=repeat).median_ms)
    py, c_ms, cub = (statistics.median(v) for v in (pys, cs, cubs))
    print(f"{m}x{n}x{k}: Python {py:.4f} ms ({flops / py / 1e9:.1f} TF/s), "
          f"C {c_ms:.4f} ms ({flops / c_ms / 1e9:.1f} TF/s), "
          f"cuBLAS {cub:.4f} ms ({flops / cub / 1e9:.1f} TF/s)")
    print(f"  Python / C {py / c_ms:.3f}, cuBLAS / Rake (Python) {cub / py:.3f}, "
          f"host time of one call {host_us:.1f} us, max error {err:.2e}")
    print(f"  rounds: Python {' '.join(f'{v:.4f}' for v in pys)}; C {' '.join(f'{v:.4f}' for v in cs)}; "
          f"cuBLAS {' '.join(f'{v:.4f}' for v in cubs)}; each C launcher run took "
          f"{statistics.median(idle_seen):.2f} s")
sys.exit(status)
