#!/usr/bin/env python3
"""Wrong arguments from torch on a real GPU: each refused before anything is
launched, with the parameter, what it must be and what it was.

usage: torch_errors.py VECTOR_ADD_BUNDLE"""
import sys

import torch

import rake

k = rake.load(sys.argv[1])
n = 1000
a = torch.randn(n, device="cuda")
b = torch.randn(n, device="cuda")
c = torch.empty(n, device="cuda")


def refused(what, f):
    try:
        f()
        torch.cuda.synchronize()
        print(f"{what}: accepted")
    except (rake.ArgumentError, rake.RuntimeFailure) as e:
        print(f"{what}: {type(e).__name__}: {e}")


k(n, a, b, c)
torch.cuda.synchronize()
print("ok:", bool(torch.equal(c, a + b)))
refused("cpu", lambda: k(n, a.cpu(), b, c))
refused("dtype", lambda: k(n, a.double(), b, c))
refused("shape", lambda: k(n, a[:999], b, c))
refused("stride", lambda: k(n, torch.randn(2 * n, device="cuda")[::2], b, c))
refused("misaligned", lambda: k(n - 1, a[1:], b[1:], c[1:]))
refused("count", lambda: k(n, a, b))
s = torch.cuda.Stream()
with torch.cuda.stream(s):
    c.zero_()
    k(n, a, b, c)  # on torch's current stream: s
s.synchronize()
print("on a side stream:", bool(torch.equal(c, a + b)))
c.zero_()
k(n, a, b, c, stream=s)
s.synchronize()
print("stream=:", bool(torch.equal(c, a + b)))
