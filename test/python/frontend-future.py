# A module written with `from __future__ import annotations` (each
# annotation kept as its source text): the frontend evaluates the parameter
# annotations where the function was written, its closure included, and
# records the same procedure as without it (an adversarial review: the
# frontend refused every parameter as unannotated).
# REQUIRES: python-bindings
# RUN: %rake_python %s | FileCheck %s
from __future__ import annotations

import rake
from rake.frontend import *


def make(width):
    @proc(check_sizes=[{"n": 64}])
    def vadd(n: index, A: gmem(f32, "?", extents=lambda n: [n]),
             B: gmem(f32, "?", extents=lambda n: [n])):
        with device_function(block=width):
            for task in cuda_tasks(0, ceildiv(n, width)):
                for t in cuda_threads(0, width, unit=thread):
                    with if_(task * width + t < n):
                        B[task * width + t] = A[task * width + t] + 1.0
    return vadd


p = make(32)
# CHECK: gpuir.proc @vadd(%n: index, %A: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n)>}, %B: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n)>})
print(p.text.splitlines()[0])
# CHECK-NEXT: checked: True
p.module().check()
print("checked: True")


# An annotation naming something that does not exist is a clear error.
def broken():
    @proc
    def q(n: index, A: gmem(f32, "?", undefined_name)):
        pass


try:
    broken()
except TypeError as e:
    # CHECK-NEXT: TypeError: the annotation of parameter A of q ("gmem(f32, '?', undefined_name)") cannot be evaluated: name 'undefined_name' is not defined
    print(f"TypeError: {e}")
