#!/usr/bin/env python3
"""Kernels written in Python (rake.frontend), compiled with rake.compile and
called on torch tensors, against torch on the same tensors.

usage: torch_frontend.py compile CACHE STORE   (needs the build: check,
           bundle, verify into the cache; writes CACHE/kernels.txt)
       torch_frontend.py run CACHE             (needs a GPU and torch only:
           rake.load each entry and compare with torch)
       torch_frontend.py both CACHE STORE"""
import os
import sys

mode, cache = sys.argv[1], sys.argv[2]


def compile_all(store):
    import rake
    from rake.frontend import (ceildiv, cuda_tasks, cuda_threads, device_function,
                               f32, fence, gmem, if_, index, proc, smem, alloc,
                               thread)

    @proc(check_sizes=[{"n": 4096}, {"n": 1000}])
    def vector_add(n: index, A: gmem(f32, "?", extents=lambda n: [n]),
                   B: gmem(f32, "?", extents=lambda n: [n]),
                   C: gmem(f32, "?", extents=lambda n: [n])):
        with device_function(block=256, blocks_per_sm=8):
            for task in cuda_tasks(0, ceildiv(n, 256)):
                for t in cuda_threads(0, 256, unit=thread):
                    with if_(task * 256 + t < n):
                        a = A[task * 256 + t]
                        b = B[task * 256 + t]
                        C[task * 256 + t] = a + b

    @proc(check_sizes=[{"n": 1024}, {"n": 300}])
    def reverse_tiles(n: index,
                      A: gmem(f32, "?", extents=lambda n: [ceildiv(n, 256) * 256]),
                      B: gmem(f32, "?", extents=lambda n: [ceildiv(n, 256) * 256])):
        with device_function(block=256):
            for task in cuda_tasks(0, ceildiv(n, 256)):
                tile = alloc(smem(f32, 256), name="tile")
                for t in cuda_threads(0, 256, unit=thread):
                    tile[t] = A[task * 256 + t]
                fence("cuda_in_order", "cuda_in_order")
                for t in cuda_threads(0, 256, unit=thread):
                    B[task * 256 + t] = tile[255 - t]

    with open(os.path.join(cache, "kernels.txt"), "w") as f:
        for p in (vector_add, reverse_tiles):
            k = rake.compile(p, cache_dir=cache, disasm_dirs=[store])
            f.write(f"{p.name} {os.path.relpath(k.bundle.path, cache)}\n")
            print(f"compiled {p.name}: {k.describe().splitlines()[0]}")


def run_all():
    import torch
    import rake
    status = 0
    for line in open(os.path.join(cache, "kernels.txt")):
        name, entry = line.split()
        k = rake.load(os.path.join(cache, entry))
        if name == "vector_add":
            n = 100003
            a, b = torch.randn(n, device="cuda"), torch.randn(n, device="cuda")
            c = torch.empty_like(a)
            k(n, a, b, c)
            ok = torch.equal(c, a + b)
        else:
            n = 65536
            a = torch.randn(n, device="cuda")
            b = torch.empty_like(a)
            k(n, a, b)
            ok = torch.equal(b, a.view(-1, 256).flip(1).reshape(-1))
        torch.cuda.synchronize()
        status |= not ok
        print(f"{name} (rake.frontend) on torch tensors equals torch: {ok}")
    return status


if mode in ("compile", "both"):
    os.makedirs(cache, exist_ok=True)
    compile_all(sys.argv[3])
if mode in ("run", "both"):
    sys.exit(run_all())
