// The examples on the GPU called from Python on torch tensors (rake.load:
// the C runtime opens each verified bundle; test/GPU/Inputs/torch_examples.py),
// each output compared with the sequential meaning. Needs a GPU, torch and
// the build: skipped elsewhere, including CI. On a GPU machine without MLIR,
// prepare the folders here and carry them with python/rake and the runtime
// (scripts/build-runtime.sh builds librake_runtime.so there; docs/Python.md).
// REQUIRES: gpu, torch
// RUN: rm -rf %t
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/vadd %examples/vector_add.mlir --sizes=n=100003 --shape=A=100003,B=100003,C=100003
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/rev %examples/reverse_tiles.mlir --sizes=n=65536 --shape=A=65536,B=65536
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/warps %examples/warp_sums.mlir --sizes=rows=1000 --shape=X=1000,S=1000
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/trans %examples/transpose.mlir --sizes=R=300,C=170 --shape=X=300x170,Y=170x300
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/wg %examples/warpgroup_reverse.mlir --sizes=n=1000 --shape=X=256000
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/bsum %examples/block_sums.mlir --sizes=rows=1000 --shape=X=1000,S=1000
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/gemm %examples/gemm_sm80.mlir --rtol=1e-4 --atol=1e-4 --sizes=Mt=4,Nt=3,Kt=16 --shape=A=512x512,B=512x384,C=512x384
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/ws %examples/warp_specialized.mlir --sizes=rows=1000 --shape=X=1000,Y=1000
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/ring %examples/ring_sums.mlir --sizes=rows=500,K=9 --shape=X=500x9,Y=500
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/clu %examples/cluster_exchange.mlir --sizes=n=3000 --shape=X=3000,Y=3000,Z=3000
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/g90 %examples/gemm_sm90a.mlir --rtol=1e-4 --atol=1e-4 --sizes=Mt=2,Nt=3,Kt=10 --shape=A=512x640,Bt=384x640,C=512x384
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/tma %examples/gemm_sm90a_tma.mlir --rtol=1e-4 --atol=1e-4 --sizes=Mt=2,Nt=3,Kt=10 --shape=A=512x640,Bt=384x640,C=512x384
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/rms %examples/rmsnorm.mlir --sizes=rows=300
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/softmax %examples/softmax.mlir --sizes=rows=300
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/flag %rake_src/bench/gemm/gemm_128x256_g8s_bf16.mlir --rtol=1e-2 --atol=1e-2 --sizes=Mg=1,Nt=2,Kt=3 --shape=A=1024x192,Bt=512x192,C=1024x512
// RUN: env PYTHONPATH=%rake_python_dir %rake_python %rake_src/test/GPU/Inputs/torch_examples.py %t/vadd %t/rev %t/warps %t/trans %t/wg %t/bsum %t/gemm %t/ws %t/ring %t/clu %t/g90 %t/tma %t/rms %t/softmax %t/flag | FileCheck %s
// CHECK-DAG: vector_add: C.bin equals the sequential meaning (Python, torch tensors)
// CHECK-DAG: reverse_tiles: B.bin equals the sequential meaning (Python, torch tensors)
// CHECK-DAG: warp_sums: S.bin equals the sequential meaning (Python, torch tensors)
// CHECK-DAG: transpose: Y.bin equals the sequential meaning (Python, torch tensors)
// CHECK-DAG: warpgroup_reverse: X.bin equals the sequential meaning (Python, torch tensors)
// CHECK-DAG: block_sums: S.bin equals the sequential meaning (Python, torch tensors)
// CHECK-DAG: gemm_sm80: C.bin matches the sequential meaning within rtol 1e-4 atol 1e-4 (Python, torch tensors)
// CHECK-DAG: warp_specialized: Y.bin equals the sequential meaning (Python, torch tensors)
// CHECK-DAG: ring_sums: Y.bin equals the sequential meaning (Python, torch tensors)
// CHECK-DAG: cluster_exchange: Z.bin equals the sequential meaning (Python, torch tensors)
// CHECK-DAG: gemm_sm90a: C.bin matches the sequential meaning within rtol 1e-4 atol 1e-4 (Python, torch tensors)
// CHECK-DAG: gemm_sm90a_tma: C.bin matches the sequential meaning within rtol 1e-4 atol 1e-4 (Python, torch tensors)
// CHECK-DAG: rmsnorm: Y.bin equals the sequential meaning (Python, torch tensors)
// CHECK-DAG: softmax: Y.bin equals the sequential meaning (Python, torch tensors)
// CHECK-DAG: gemm_128x256_g8s_bf16: C.bin matches the sequential meaning within rtol 1e-2 atol 1e-2 (Python, torch tensors)
// CHECK-NOT: differs from the sequential meaning

// Wrong arguments from torch on the GPU, and launches on torch streams.
// RUN: env PYTHONPATH=%rake_python_dir %rake_python %rake_src/test/GPU/Inputs/torch_errors.py %t/vadd/bundle | FileCheck %s --check-prefix=ERR
// ERR: ok: True
// ERR-NEXT: cpu: ArgumentError: argument 'A' is a tensor on the CPU; kernels run on the GPU: pass a CUDA tensor (A.cuda())
// ERR-NEXT: dtype: ArgumentError: argument 'A' must have element type f32 (torch.float32), got torch.float64
// ERR-NEXT: shape: ArgumentError: argument 'A' must have shape (1000,) (its extents (n) at n=1000), got (999,)
// ERR-NEXT: stride: ArgumentError: argument 'A' must be contiguous and row-major (strides (1,) in elements), got strides (2,): pass A.contiguous()
// ERR-NEXT: misaligned: ArgumentError: argument 'A' must start at a 16-byte aligned address, got 0x{{[0-9a-f]+}}: a view that starts inside another tensor can break this; pass a fresh tensor
// ERR-NEXT: count: ArgumentError: vector_add() takes 4 arguments (n, A, B, C), 3 given
// ERR-NEXT: on a side stream: True
// ERR-NEXT: stream=: True

// Kernels written in Python (rake.frontend), compiled with rake.compile and
// called on torch tensors, against torch.
// RUN: env PYTHONPATH=%rake_python_dir %rake_python %rake_src/test/GPU/Inputs/torch_frontend.py both %t/cache %rake_src/test/Verifier/Inputs/disasm | FileCheck %s --check-prefix=FRONT
// FRONT: vector_add (rake.frontend) on torch tensors equals torch: True
// FRONT: reverse_tiles (rake.frontend) on torch tensors equals torch: True

// The narrower-format warning: f32 tensors multiplied as tf32 whose every
// value is exact in bf16 are named on the kernel's first call.
// RUN: rake-bundle %rake_src/test/Conversion/GpuIRToCPU/Inputs/sm80-mma-tf32.mlir -o %t/mma_tf32 --disasm-dir=%rake_src/test/Verifier/Inputs/disasm > /dev/null
// RUN: env PYTHONPATH=%rake_python_dir %rake_python %rake_src/test/GPU/Inputs/torch_formats.py %t/mma_tf32 | FileCheck %s --check-prefix=FMT
// FMT: mma_tf32(A: f32[16, 8] as tf32, B: f32[8, 8] as tf32, C: f32[16, 8], D: f32[16, 8])
// FMT-NEXT: bf16 values: True 2
// FMT-NEXT: FormatWarning: kernel 'mma_tf32': every value of argument 'A' is exact in bf16, and the kernel multiplies it as tf32: a bf16 kernel would take the same values in half the bytes, exactly
// FMT-NEXT: FormatWarning: kernel 'mma_tf32': every value of argument 'B' is exact in bf16, and the kernel multiplies it as tf32: a bf16 kernel would take the same values in half the bytes, exactly
// FMT-NEXT: f32 values: 0
