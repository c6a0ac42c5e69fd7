# rake.load and kernel calls (python/rake/runtime.py) through the C runtime,
# without a GPU: the stand-in libcuda (test/Runtime/fake-cuda.c) keeps
# "device memory" in host memory and runs vector_add on the host from the
# parameters exactly as the runtime laid them out, so the results are
# checked here. Buffers are passed as objects with __cuda_array_interface__
# over host arrays, and, for the torch path (bf16, devices, CPU tensors),
# as stand-ins that look to the package as torch tensors do. Every wrong
# argument is refused with its exact message before anything is launched.
# REQUIRES: python-bindings, ptxas-pinned
# RUN: rm -rf %t && mkdir -p %t
# RUN: rake-bundle %examples/vector_add.mlir -o %t/vadd --disasm-dir=%rake_src/test/Verifier/Inputs/disasm > %t/vadd.log
# RUN: rake-bundle %examples/gemm_sm90a_tma.mlir -o %t/tma --disasm-dir=%rake_src/test/Verifier/Inputs/disasm > %t/tma.log
# RUN: rake-bundle %S/../Conversion/GpuIRToCPU/Inputs/sm80-mma-tf32.mlir -o %t/mma_tf32 --disasm-dir=%rake_src/test/Verifier/Inputs/disasm > %t/mma_tf32.log
# RUN: env RAKE_LIBCUDA=%fake_cuda %rake_python %s %t 2> %t/driver.log | FileCheck %s
# RUN: FileCheck %s --check-prefix=DRIVER < %t/driver.log

import ctypes
import os
import shutil
import sys

import rake

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "Inputs"))
from fakes import Device, Tensor  # noqa: E402

work = sys.argv[1]


def refused(what, f):
    try:
        f()
        print(what, "accepted")
    except (rake.ArgumentError, rake.RuntimeFailure) as e:
        print(f"{what}: {type(e).__name__}: {e}")


vadd = rake.load(os.path.join(work, "vadd"))
# CHECK: vector_add(n: index, A: f32[n], B: f32[n], C: f32[n])
# CHECK-NEXT:   launch: persistent, 8 CTA(s) per SM of 256 threads, clusters of 1, 0 bytes of dynamic shared memory
# CHECK-NEXT:   registers: {{[0-9]+}} per thread, static shared memory 0 bytes, stack frame 0 bytes
# CHECK-NEXT:   bundle: {{.*}}vadd (nvidia-ptx-sm90a; integrity only: {{.*}})
print(vadd.describe())
print(vadd.parameters)
# CHECK-NEXT: ['n', 'A', 'B', 'C']

n = 1000
A = Device(ctypes.c_float, "<f4", (n,), [i * 0.5 for i in range(n)])
B = Device(ctypes.c_float, "<f4", (n,), [1000.0 - i for i in range(n)])
C = Device(ctypes.c_float, "<f4", (n,))
vadd(n, A, B, C)
ok = all(C.array[i] == A.array[i] + B.array[i] for i in range(n))
# CHECK-NEXT: vector_add on 1000 elements: C == A + B: True
print(f"vector_add on {n} elements: C == A + B: {ok}")
# DRIVER: fake-cuda: cuModuleLoadData: an ELF image (a cubin)
# DRIVER: fake-cuda: cuLaunchKernel vector_add grid 32x1x1 block 256x1x1 shared 0

# The arguments' checks, each naming the parameter, what it must be and what
# it was.
# CHECK-NEXT: count: ArgumentError: vector_add() takes 4 arguments (n, A, B, C), 3 given
refused("count", lambda: vadd(n, A, B))
# CHECK-NEXT: float index: ArgumentError: argument 'n' must be an int (an index), got float 1000.0
refused("float index", lambda: vadd(1000.0, A, B, C))
# CHECK-NEXT: negative index: ArgumentError: argument 'n' must be a non-negative index below 2^63, got -1
refused("negative index", lambda: vadd(-1, A, B, C))
# CHECK-NEXT: dtype: ArgumentError: argument 'B' must have element type f32 (torch.float32), got <f8
refused("dtype", lambda: vadd(n, A, Device(ctypes.c_double, "<f8", (n,)), C))
# CHECK-NEXT: shape: ArgumentError: argument 'C' must have shape (1000,) (its extents (n) at n=1000), got (999,)
refused("shape", lambda: vadd(n, A, B, Device(ctypes.c_float, "<f4", (999,))))
# CHECK-NEXT: rank: ArgumentError: argument 'A' must have shape (1000,) (its extents (n) at n=1000), got (1000, 1)
refused("rank", lambda: vadd(n, Device(ctypes.c_float, "<f4", (1000, 1)), B, C))
# CHECK-NEXT: strided: ArgumentError: argument 'A' must be contiguous and row-major (strides (1,) in elements), got strides (2,): pass A.contiguous()
refused("strided", lambda: vadd(n, Device(ctypes.c_float, "<f4", (n,), strides=(8,)), B, C))
# CHECK-NEXT: misaligned: ArgumentError: argument 'B' must start at a 16-byte aligned address, got 0x{{[0-9a-f]+}}: a view that starts inside another tensor can break this; pass a fresh tensor
refused("misaligned", lambda: vadd(n, A, Device(ctypes.c_float, "<f4", (n,), byte_offset=4), C))
# CHECK-NEXT: not a tensor: ArgumentError: argument 'A' must be a CUDA tensor (a torch.Tensor, or an object with __cuda_array_interface__ or __dlpack__), got list
refused("not a tensor", lambda: vadd(n, [0.0] * n, B, C))
# CHECK-NEXT: cpu tensor: ArgumentError: argument 'A' is a tensor on the CPU; kernels run on the GPU: pass a CUDA tensor (A.cuda())
refused("cpu tensor", lambda: vadd(n, Tensor("float32", (n,), 4, cuda=False), B, C))
# CHECK-NEXT: two devices: ArgumentError: argument 'B' is on cuda:1, argument 'A' on cuda:0: every buffer of a launch must be on one device
refused("two devices", lambda: vadd(n, Tensor("float32", (n,), 4), Tensor("float32", (n,), 4, index=1), C))
# CHECK-NEXT: stream: ArgumentError: stream must be a torch.cuda.Stream, a CUstream handle (int) or None, got str
refused("stream", lambda: vadd(n, A, B, C, stream="default"))
# Buffers that overlap in memory are refused at the launch (the kernel's
# checks take different parameters as distinct; an adversarial review
# launched C = A and C = A shifted by 4 elements).
# CHECK-NEXT: aliased: RuntimeFailure: cannot launch vector_add: kernel 'vector_add': buffers 'A' (0x{{[0-9a-f]+}}..0x{{[0-9a-f]+}}) and 'C' (0x{{[0-9a-f]+}}..0x{{[0-9a-f]+}}) overlap in memory; the kernel's checks take different buffer parameters as distinct
refused("aliased", lambda: vadd(n, A, B, A))


class Shifted:
    """n floats of `base`'s memory from element `by` on."""

    def __init__(self, base, by):
        at = base.__cuda_array_interface__["data"][0] + 4 * by
        self.__cuda_array_interface__ = {"shape": (n,), "typestr": "<f4", "version": 3,
                                         "data": (at, False), "strides": None}


Bo = Device(ctypes.c_float, "<f4", (n,), None)
# CHECK-NEXT: overlapping: RuntimeFailure: cannot launch vector_add: kernel 'vector_add': buffers 'B' (0x{{[0-9a-f]+}}..0x{{[0-9a-f]+}}) and 'C' (0x{{[0-9a-f]+}}..0x{{[0-9a-f]+}}) overlap in memory; the kernel's checks take different buffer parameters as distinct
refused("overlapping", lambda: vadd(n, A, Bo, Shifted(Bo, 4)))

# The TMA GEMM: bf16 operands as torch tensors; its tensor maps are made by
# the runtime from the bundle's record (box, swizzle) and the tensors (the
# stand-in driver logs them), once per buffer and then reused.
gemm = rake.load(os.path.join(work, "tma"))
# CHECK-NEXT: gemm_sm90a_tma(Mt: index, Nt: index, Kt: index, A: bf16[Mt * 256, Kt * 64], Bt: bf16[Nt * 128, Kt * 64], C: f32[Mt * 256, Nt * 128])
print(gemm.describe().splitlines()[0])
# Buffers the tensor cores multiply in another format than their elements'
# say so (the narrower-format warning of a first call reads it).
# CHECK-NEXT: mma_tf32(A: f32[16, 8] as tf32, B: f32[8, 8] as tf32, C: f32[16, 8], D: f32[16, 8])
print(rake.load(os.path.join(work, "mma_tf32")).describe().splitlines()[0])
Mt, Nt, Kt = 2, 3, 10
a = Tensor("bfloat16", (512, 640), 2)
bt = Tensor("bfloat16", (384, 640), 2)
c = Tensor("float32", (512, 384), 4)
gemm(Mt, Nt, Kt, a, bt, c)
gemm(Mt, Nt, Kt, a, bt, c)
# CHECK-NEXT: gemm launched twice
print("gemm launched twice")
# DRIVER: fake-cuda: cuTensorMapEncodeTiled type 9 rank 2 dims 640x512 row stride 1280 box 64x256 swizzle 3
# DRIVER-NEXT: fake-cuda: cuTensorMapEncodeTiled type 9 rank 2 dims 640x384 row stride 1280 box 64x128 swizzle 3
# DRIVER-NEXT: fake-cuda: cuFuncSetAttribute gemm_sm90a_tma MAX_DYNAMIC_SHARED_SIZE_BYTES
# DRIVER-NEXT: fake-cuda: cuLaunchKernel gemm_sm90a_tma grid 4x1x1
# DRIVER-NEXT: fake-cuda: cuFuncSetAttribute gemm_sm90a_tma
# DRIVER-NEXT: fake-cuda: cuLaunchKernel gemm_sm90a_tma grid 4x1x1
# CHECK-NEXT: gemm shape: ArgumentError: argument 'Bt' must have shape (384, 640) (its extents (Nt * 128, Kt * 64) at Mt=2, Nt=3, Kt=10), got (384, 512)
refused("gemm shape", lambda: gemm(Mt, Nt, Kt, a, Tensor("bfloat16", (384, 512), 2), c))
# TMA coordinates are 32-bit signed: a buffer with 2^31 rows is refused
# before any tensor map is made (the check proves TMA kernels below 2^31).
# CHECK-NEXT: gemm 2^31 rows: RuntimeFailure: cannot launch gemm_sm90a_tma: the tensor map of 'A' is 2147483648 x 640: TMA coordinates are 32-bit signed, so each dimension of a buffer copied by TMA must be below 2^31 (split the buffer, or copy it without TMA)
refused("gemm 2^31 rows", lambda: gemm(1 << 23, Nt, Kt, Tensor("bfloat16", (1 << 31, 640), 2, backed=False), bt,
                                        Tensor("float32", (1 << 31, 384), 4, backed=False)))
# CHECK-NEXT: gemm dtype: ArgumentError: argument 'A' must have element type bf16 (torch.bfloat16), got torch.float16
refused("gemm dtype", lambda: gemm(Mt, Nt, Kt, Tensor("float16", (512, 640), 2), bt, c))

# A tampered bundle is refused when it is opened: nothing of it is loaded.
bad = os.path.join(work, "tampered")
shutil.copytree(os.path.join(work, "vadd"), bad)
with open(os.path.join(bad, "kernel.cubin"), "r+b") as f:
    f.seek(200)
    byte = f.read(1)
    f.seek(200)
    f.write(bytes([byte[0] ^ 1]))
try:
    rake.load(bad)
except rake.RuntimeFailure as e:
    # CHECK-NEXT: tampered: RAKE_ERR_INTEGRITY: refused bundle {{.*}}tampered: kernel.cubin has sha256 {{[0-9a-f]+}}; the manifest binds {{[0-9a-f]+}} [rule integrity]
    print(f"tampered: {e.status}: {e}")
# CHECK-NEXT: no bundle: RAKE_ERR_IO: refused bundle {{.*}}missing: cannot read {{.*}}missing/manifest.json
try:
    rake.load(os.path.join(work, "missing"))
except rake.RuntimeFailure as e:
    print(f"no bundle: {e.status}: {e}")
