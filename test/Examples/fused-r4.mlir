// bench/fused/fused_{rmsnorm,softmax}_r4.mlir are what bench/fused/make_r4.sh
// writes from the examples (4 rows a CTA, 3 CTAs an SM), pass the check,
// and compute bit for bit what the examples compute on the same 16 rows.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %rake_src/bench/fused/make_r4.sh %t
// RUN: diff -u %rake_src/bench/fused/fused_rmsnorm_r4.mlir %t/fused_rmsnorm_r4.mlir
// RUN: diff -u %rake_src/bench/fused/fused_softmax_r4.mlir %t/fused_softmax_r4.mlir
// RUN: rake-opt %t/fused_rmsnorm_r4.mlir --rake-check -o /dev/null
// RUN: rake-opt %t/fused_softmax_r4.mlir --rake-check -o /dev/null
// RUN: rake-run --seq %examples/fused_rmsnorm.mlir --sizes=blocks=2 --shape=X=16,Y=16 --output-dir=%t/rms8 > /dev/null
// RUN: rake-run --seq %t/fused_rmsnorm_r4.mlir --sizes=blocks=4 --shape=X=16,Y=16 --output-dir=%t/rms4 > /dev/null
// RUN: cmp %t/rms8/Y.bin %t/rms4/Y.bin
// RUN: rake-run --seq %examples/fused_softmax.mlir --sizes=blocks=2 --shape=X=16,Y=16 --output-dir=%t/sm8 > /dev/null
// RUN: rake-run --seq %t/fused_softmax_r4.mlir --sizes=blocks=4 --shape=X=16,Y=16 --output-dir=%t/sm4 > /dev/null
// RUN: cmp %t/sm8/Y.bin %t/sm4/Y.bin
// The launch shape: 128 threads, 3 CTAs an SM.
// RUN: rake-translate --gpuir-to-ptx %t/fused_rmsnorm_r4.mlir | FileCheck %s
// CHECK: .maxntid 128, 1, 1
