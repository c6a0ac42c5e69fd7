// The examples on the GPU against their sequential meaning. Needs a CUDA
// device and toolkit beside the build: skipped (UNSUPPORTED) elsewhere,
// including CI. On a machine with a GPU but no MLIR build, use
// scripts/gpu-run.sh prepare here and run there (docs/Codegen.md).
// REQUIRES: gpu
// RUN: rm -rf %t
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/rev %examples/reverse_tiles.mlir --sizes=n=65536 --shape=A=65536,B=65536
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/warps %examples/warp_sums.mlir --sizes=rows=1000 --shape=X=1000,S=1000
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/vadd %examples/vector_add.mlir --sizes=n=100003 --shape=A=100003,B=100003,C=100003
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/trans %examples/transpose.mlir --sizes=R=300,C=170 --shape=X=300x170,Y=170x300
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/wg %examples/warpgroup_reverse.mlir --sizes=n=1000 --shape=X=256000
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/bsum %examples/block_sums.mlir --sizes=rows=1000 --shape=X=1000,S=1000
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/gemm %examples/gemm_sm80.mlir --rtol=1e-4 --atol=1e-4 --sizes=Mt=4,Nt=3,Kt=16 --shape=A=512x512,B=512x384,C=512x384
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/ws %examples/warp_specialized.mlir --sizes=rows=1000 --shape=X=1000,Y=1000
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/gemm4 %rake_src/bench/gemm_examples/gemm_sm80_4stage.mlir --rtol=1e-4 --atol=1e-4 --sizes=Mt=3,Nt=4,Kt=13 --shape=A=384x416,B=416x512,C=384x512
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/ring %examples/ring_sums.mlir --sizes=rows=500,K=9 --shape=X=500x9,Y=500
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/clu %examples/cluster_exchange.mlir --sizes=n=3000 --shape=X=3000,Y=3000,Z=3000
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/g90 %examples/gemm_sm90a.mlir --rtol=1e-4 --atol=1e-4 --sizes=Mt=2,Nt=3,Kt=10 --shape=A=512x640,Bt=384x640,C=512x384
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/g90core %rake_src/bench/gemm_examples/gemm_sm90a_core.mlir --rtol=1e-4 --atol=1e-4 --sizes=Mt=2,Nt=3,Kt=10 --shape=A=512x640,Bt=384x640,C=512x384
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/tma %examples/gemm_sm90a_tma.mlir --rtol=1e-4 --atol=1e-4 --sizes=Mt=2,Nt=3,Kt=10 --shape=A=512x640,Bt=384x640,C=512x384
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/tmaws %rake_src/bench/gemm_examples/gemm_sm90a_ws.mlir --rtol=1e-4 --atol=1e-4 --sizes=Mt=2,Nt=3,Kt=10 --shape=A=512x640,Bt=384x640,C=512x384
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/tmawslag %rake_src/bench/gemm_examples/gemm_sm90a_ws_lag.mlir --rtol=1e-4 --atol=1e-4 --sizes=Mt=2,Nt=3,Kt=10 --shape=A=512x640,Bt=384x640,C=512x384
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/tmaws2 %rake_src/bench/gemm_examples/gemm_sm90a_ws2.mlir --rtol=1e-4 --atol=1e-4 --sizes=Mt=2,Nt=3,Kt=10 --shape=A=512x640,Bt=384x640,C=512x384
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/rms %examples/rmsnorm.mlir --sizes=rows=300
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/softmax %examples/softmax.mlir --sizes=rows=300
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/frms %examples/fused_rmsnorm.mlir --sizes=blocks=3
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/fsoftmax %examples/fused_softmax.mlir --sizes=rows=23
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/vadd4 %examples/vector_add_v4.mlir --sizes=n=100003 --shape=A=100003,B=100003,C=100003
// RUN: %python %rake_src/test/Conversion/GpuIRToCPU/Inputs/math_table.py make %t/table.bin 8192
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/mtab %rake_src/test/Conversion/GpuIRToCPU/exact-math.mlir --sizes=n=64 --input=X=%t/table.bin
// The TMA store, the flagship GEMM (TMA-store epilogue) and the split-K pair.
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/tstore %rake_src/test/GPU/Inputs/tma_store_tiles.mlir --sizes=n=200 --shape=A=12800x32,C=12800x32
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/flag %rake_src/bench/gemm/gemm_128x256_g8s_bf16.mlir --rtol=1e-2 --atol=1e-2 --sizes=Mg=1,Nt=3,Kt=10 --shape=A=1024x640,Bt=768x640,C=1024x768
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/k2 %rake_src/bench/gemm/gemm_128x256_k2m2_f32.mlir --rtol=1e-4 --atol=1e-4 --sizes=Nt=2,Kt=3 --shape=A=256x384,Bt=512x384,C=512x512
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/k2sum %rake_src/bench/gemm/splitk_sum2_bf16.mlir --sizes=q=65536 --shape=P=524288,C=262144
// RUN: %rake_src/scripts/gpu-run.sh run %t/tstore %t/flag %t/k2 %t/k2sum | FileCheck %s --check-prefix=STORE
// STORE-DAG: tile_store: C.bin equals the sequential meaning
// STORE-DAG: gemm_128x256_g8s_bf16: C.bin matches the sequential meaning within rtol 0.01 atol 0.01
// STORE-DAG: gemm_128x256_k2m2_f32: C.bin matches the sequential meaning within rtol 0.0001 atol 0.0001
// STORE-DAG: splitk_sum2_bf16: C.bin equals the sequential meaning
// STORE-NOT: differs from the sequential meaning
// RUN: %rake_src/scripts/gpu-run.sh run %t/mtab %t/rms %t/softmax %t/frms %t/fsoftmax %t/vadd4 %t/rev %t/warps %t/vadd %t/trans %t/wg %t/bsum %t/gemm %t/ws %t/gemm4 %t/ring %t/clu %t/g90 %t/g90core %t/tma %t/tmaws %t/tmawslag %t/tmaws2 | FileCheck %s
// CHECK-DAG: reverse_tiles: B.bin equals the sequential meaning
// CHECK-DAG: warp_sums: S.bin equals the sequential meaning
// CHECK-DAG: vector_add: C.bin equals the sequential meaning
// CHECK-DAG: vector_add_v4: C.bin equals the sequential meaning
// CHECK-DAG: transpose: Y.bin equals the sequential meaning
// CHECK-DAG: warpgroup_reverse: X.bin equals the sequential meaning
// CHECK-DAG: block_sums: S.bin equals the sequential meaning
// CHECK-DAG: math_table: E.bin equals the sequential meaning
// CHECK-DAG: math_table: S.bin equals the sequential meaning
// CHECK-DAG: rmsnorm: Y.bin equals the sequential meaning
// CHECK-DAG: softmax: Y.bin equals the sequential meaning
// CHECK-DAG: fused_rmsnorm: Y.bin equals the sequential meaning
// CHECK-DAG: fused_softmax: Y.bin equals the sequential meaning
// CHECK-DAG: gemm_sm80: C.bin matches the sequential meaning within rtol 0.0001 atol 0.0001
// CHECK-DAG: warp_specialized: Y.bin equals the sequential meaning
// CHECK-DAG: gemm_sm80_4stage: C.bin matches the sequential meaning within rtol 0.0001 atol 0.0001
// CHECK-DAG: ring_sums: Y.bin equals the sequential meaning
// CHECK-DAG: cluster_exchange: Z.bin equals the sequential meaning
// CHECK-DAG: gemm_sm90a: C.bin matches the sequential meaning within rtol 0.0001 atol 0.0001
// CHECK-DAG: gemm_sm90a_core: C.bin matches the sequential meaning within rtol 0.0001 atol 0.0001
// CHECK-DAG: gemm_sm90a_tma: C.bin matches the sequential meaning within rtol 0.0001 atol 0.0001
// CHECK-DAG: gemm_sm90a_ws: C.bin matches the sequential meaning within rtol 0.0001 atol 0.0001
// CHECK-DAG: gemm_sm90a_ws_lag: C.bin matches the sequential meaning within rtol 0.0001 atol 0.0001
// CHECK-DAG: gemm_sm90a_ws2: C.bin matches the sequential meaning within rtol 0.0001 atol 0.0001
// CHECK-NOT: differ from the sequential meaning
