#!/usr/bin/env python3
"""The fused RMSNorm and softmax (examples/fused_rmsnorm.mlir,
examples/fused_softmax.mlir, rows of 1000 floats, one warp per row) called
from Python on torch tensors through their verified bundles, against a copy
of the same tensor (Y.copy_(X): the same bytes read and written, the
bandwidth a memory-bound kernel can reach) and against PyTorch's own
rms_norm and softmax, in one run on the same GPU. Prints the times, the
bandwidth of each, the ratio copy time / Rake time (1.00: as fast as the
copy; the target is >= 0.90) and torch time / Rake time, and the largest
error of Rake's result against a float64 reference (exits 1 if it exceeds
the bound printed).

Each timing is the mean over `--repeat` back-to-back calls between two CUDA
events, after warm-up, taken in `--rounds` rounds of Rake, copy and torch in
turn (the clocks drift over a run) and compared by their medians.

usage: bench.py RMSNORM_BUNDLE SOFTMAX_BUNDLE [ROWS ...] [--repeat N] [--rounds R]"""
import argparse
import statistics
import sys

import torch

import rake

parser = argparse.ArgumentParser(description="fused RMSNorm and softmax against the copy bandwidth")
parser.add_argument("rms_bundle")
parser.add_argument("softmax_bundle")
parser.add_argument("rows", type=int, nargs="*", default=[32768, 131072])
parser.add_argument("--repeat", type=int, default=20)
parser.add_argument("--rounds", type=int, default=5)
args = parser.parse_args()
rms_bundle, softmax_bundle, row_counts = args.rms_bundle, args.softmax_bundle, args.rows
COLS = 1000


def time_ms(fn):
    """One sample of `--repeat` back-to-back calls after one warm-up call."""
    return rake.bench(fn, warmup=1, repeat=1, batch=args.repeat).median_ms


def compare(name, fns):
    times = {k: [] for k in fns}
    for _ in range(args.rounds):
        for k, fn in fns.items():
            times[k].append(time_ms(fn))
    return {k: statistics.median(v) for k, v in times.items()}


print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}")
rms = rake.load(rms_bundle)
softmax = rake.load(softmax_bundle)
print(rms.describe())
print(softmax.describe())


def rows_per_task(kernel):
    """The rows one task of the kernel normalizes: X's first extent is
    (blocks * R); 1 where it is (rows), a kernel that takes the number of
    rows itself (its last task guarded: bench/fused/variants/*_w*.mlir)."""
    extent = next(p for p in kernel.signature if p["name"] == "X")["extents"][0]
    parts = extent.strip("()").split("*")
    return int(parts[1]) if len(parts) > 1 else 1


R_RMS, R_SOFTMAX = rows_per_task(rms), rows_per_task(softmax)
status = 0
torch.manual_seed(0)
for rows in row_counts:
    if rows % R_RMS or rows % R_SOFTMAX:
        sys.exit(f"bench.py: {rows} rows: a multiple of {R_RMS} and {R_SOFTMAX} rows is needed")
    X = torch.randn(rows, COLS, device="cuda", dtype=torch.float32)
    W = torch.randn(COLS, device="cuda", dtype=torch.float32)
    Y = torch.empty_like(X)
    C = torch.empty_like(X)
    gbytes = 2 * X.numel() * 4 / 1e9
    X64, W64 = X.double(), W.double()
    cases = [
        ("rmsnorm", lambda: rms(rows // R_RMS, X, W, Y),
         lambda: torch.nn.functional.rms_norm(X, (COLS,), W, eps=1e-6),
         X64 / torch.sqrt((X64 * X64).mean(dim=1, keepdim=True) + 1e-6) * W64),
        ("softmax", lambda: softmax(rows // R_SOFTMAX, X, Y),
         lambda: torch.softmax(X, dim=1),
         torch.softmax(X64, dim=1)),
    ]
    for name, run, ref_fn, ref in cases:
        Y.fill_(float("nan"))
        run()
        torch.cuda.synchronize()
        scale = ref.abs().max().item()
        err = (Y.double() - ref).abs().max().item() / scale
        bound = 1e-5
        ok = err <= bound and not torch.isnan(Y).any().item()
        t = compare(name, {"rake": run, "copy": lambda: C.copy_(X), "torch": ref_fn})
        print(f"{name} {rows}x{COLS}: rake {t['rake']:.4f} ms ({gbytes / t['rake'] * 1e3:.0f} GB/s), "
              f"copy {t['copy']:.4f} ms ({gbytes / t['copy'] * 1e3:.0f} GB/s), "
              f"torch {t['torch']:.4f} ms; copy/rake {t['copy'] / t['rake']:.3f}, "
              f"torch/rake {t['torch'] / t['rake']:.3f}; max error {err:.2e} of max |ref| "
              f"(bound {bound:.0e}) {'ok' if ok else 'TOO LARGE'}")
        if not ok:
            status = 1
sys.exit(status)
