// The named host pipeline (rake-gpuir-to-llvm-cpu): the sequential meaning in
// the LLVM dialect, which mlir-translate turns into LLVM IR; rake-run --seq
// runs the same pipeline with bounds checks. Math ops lower to LLVM's
// intrinsics (llvm.sqrt is correctly rounded).
// RUN: rake-opt %examples/block_sums.mlir --rake-gpuir-to-llvm-cpu | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=SUMS
// RUN: rake-opt %s --rake-gpuir-to-llvm-cpu | FileCheck %s --check-prefix=MATH
// RUN: rake-opt %s --rake-gpuir-to-llvm-cpu="bounds-checks=true" | FileCheck %s --check-prefix=CHECKED
// RUN: rm -rf %t && rake-run --seq %s --sizes=n=8 --shape=A=8 --save-inputs=%t/in --output-dir=%t/out | FileCheck %s --check-prefix=SEQ
// RUN: %python %S/Inputs/check_roots.py %t/in/A.bin %t/out/A.bin | FileCheck %s --check-prefix=ROOTS

// SUMS: define void @block_sums(
// MATH: llvm.func @roots(
// MATH: llvm.intr.sqrt
// MATH-NOT: llvm.call @abort
// With bounds checks, an index outside A's extent aborts with a message.
// CHECKED: llvm.func @roots(
// CHECKED: llvm.intr.sqrt
// CHECKED: llvm.call @abort
// SEQ: @roots ran (sequential meaning, seed 1)
// ROOTS: roots True
gpuir.proc @roots(%n: index, %A: memref<?xf32, #gpuir.host> {gpuir.extents = affine_map<(n) -> (n)>}) attributes {gpuir.check_sizes = [{n = 8}]} {
  gpuir.for %i = 0 to %n : seq {
    %x = gpuir.read %A[%i] : memref<?xf32, #gpuir.host>
    %r = math.sqrt %x : f32
    gpuir.write %r, %A[%i] : memref<?xf32, #gpuir.host>
  }
}
