// The sequential meaning of the first example, run on generated inputs and
// checked against an independent reference (test/lib/Reference, C++).
// RUN: rm -rf %t && rake-run --seq %examples/reverse_tiles.mlir --sizes=n=1024 --shape=A=1024,B=1024 --seed=7 --output-dir=%t | FileCheck %s
// RUN: rake-example-ref reverse_tiles %t/A.bin %t/B.bin | FileCheck %s --check-prefix=REF
// CHECK: @reverse_tiles ran (sequential meaning, seed 7)
// CHECK-NEXT: A: 1024xf32 checksum {{[0-9a-f]+}}
// CHECK-NEXT: B: 1024xf32 checksum {{[0-9a-f]+}}
// REF: reverse_tiles: 1024 elements match

// Inputs come back in from files: running on the written A reproduces B.
// RUN: rake-run --seq %examples/reverse_tiles.mlir --sizes=n=1024 --shape=A=1024,B=1024 --input=A=%t/A.bin --output-dir=%t/again
// RUN: cmp %t/B.bin %t/again/B.bin

// The seed changes the inputs; the sizes default to the first entry of
// gpuir.check_sizes (n = 1024).
// RUN: rake-run --seq %examples/reverse_tiles.mlir --shape=A=1024,B=1024 --seed=8 --output-dir=%t/other
// RUN: not cmp -s %t/A.bin %t/other/A.bin

// --save-inputs writes the buffers as the run found them: A is only read,
// B is overwritten.
// RUN: rake-run --seq %examples/reverse_tiles.mlir --shape=A=1024,B=1024 --seed=7 --save-inputs=%t/in > /dev/null
// RUN: cmp %t/in/A.bin %t/A.bin
// RUN: not cmp -s %t/in/B.bin %t/B.bin

// --launch-args writes what runtime/launch/rake-launch needs for the same
// run on the GPU: kernel, block, CTAs per SM, dynamic shared memory, and
// each parameter in order.
// RUN: rake-run --seq %examples/reverse_tiles.mlir --shape=A=1024,B=1024 --launch-args=%t/args > /dev/null
// RUN: FileCheck %s --check-prefix=LAUNCH < %t/args
// LAUNCH: reverse_tiles --block 256 --blocks-per-sm 1 --smem 1024 i:1024 m:f32:1024:in/A.bin:gpu/A.bin m:f32:1024:in/B.bin:gpu/B.bin

// Printing: an integer kernel's elements, exact.
// RUN: rake-run --seq %s --shape=X=4 --print=X | FileCheck %s --check-prefix=PRINT
// PRINT: @count ran
// PRINT-NEXT: X: 4xi32 checksum
// PRINT-NEXT: 0 2 4 6
gpuir.proc @count(%X: memref<?xi32, #gpuir.host>) {
  gpuir.for %i = 0 to 4 : seq {
    %v = arith.index_cast %i : index to i32
    %w = arith.addi %v, %v : i32
    gpuir.write %w, %X[%i] : memref<?xi32, #gpuir.host>
  }
}

// An instruction's scratch (the shuffles' copy of the lanes) lives in the
// function's entry, not in the loops over tasks: 20000 tasks run in the
// stack of one (this crashed at 4000 when each iteration took its own).
// RUN: rm -rf %t.bs && rake-run --seq %examples/block_sums.mlir --sizes=rows=20000 --shape=X=20000,S=20000 --output-dir=%t.bs | FileCheck %s --check-prefix=MANY
// MANY: @block_sums ran (sequential meaning, seed 1)
