// The sequential behavior of tma_store copies the shared box into the
// global window: the tile-copy kernel (test/GPU/Inputs/tma_store_tiles.mlir,
// A through shared memory to C) leaves C equal to A, byte for byte; the GPU
// test compares the same kernel with the hardware.
// RUN: rm -rf %t && mkdir -p %t
// RUN: rake-run --seq %rake_src/test/GPU/Inputs/tma_store_tiles.mlir --sizes=n=3 --shape=A=192x32,C=192x32 --save-inputs=%t/in --output-dir=%t/out | FileCheck %s
// CHECK: @tile_store ran (sequential meaning, seed 1)
// CHECK-NEXT: A: 192x32xf32 checksum [[SUM:[0-9a-f]+]]
// CHECK-NEXT: C: 192x32xf32 checksum [[SUM]]
// RUN: cmp %t/in/A.bin %t/out/C.bin
// C's generated input differs from A (so the copy is what made them equal).
// RUN: not cmp -s %t/in/A.bin %t/in/C.bin
