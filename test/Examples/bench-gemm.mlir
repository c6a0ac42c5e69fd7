// The Hopper GEMMs of bench/gemm: the checked-in kernels (gemm_*.mlir) are
// what the generator writes from variants.txt, each (and the split-K sum,
// splitk_sum2_bf16.mlir) passes the synchronization check at its check
// sizes, and the fastest (docs/Performance.md) compute the sequential
// meaning, compile to the instructions the schedule needs and verify as
// bundles.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %rake_src/bench/gemm/run.sh generate %t/gen
// RUN: for f in %t/gen/*.mlir; do diff -u %rake_src/bench/gemm/$(basename $f) $f || exit 1; done
// RUN: test $(ls %t/gen | wc -l) -eq $(ls %rake_src/bench/gemm/gemm_*.mlir | wc -l)
// RUN: for f in %rake_src/bench/gemm/*.mlir; do rake-opt $f --rake-check -o /dev/null || exit 1; done

// The sequential meaning at a small size against an independent reference
// (bf16 out: the f32 sum rounded once; f32 out: the sum's error bound).
// RUN: rake-run --seq %rake_src/bench/gemm/gemm_128x256_g8_bf16.mlir --sizes=Mg=1,Nt=1,Kt=2 --shape=A=1024x128,Bt=256x128,C=1024x256 --output-dir=%t/bf16
// RUN: rake-example-ref gemm_nt_bf16 %t/bf16/A.bin %t/bf16/Bt.bin %t/bf16/C.bin 1024 256 128 | FileCheck %s --check-prefix=REF16
// REF16: gemm_nt_bf16: 262144 elements match
// The ping-pong schedule (each warpgroup its own 128x128 tiles, tasks of 4
// side by side in N): the same product.
// RUN: rake-run --seq %rake_src/bench/gemm/gemm_128x128p_g8_bf16.mlir --sizes=Mg=1,Nt=1,Kt=2 --shape=A=1024x128,Bt=512x128,C=1024x512 --output-dir=%t/pp
// RUN: rake-example-ref gemm_nt_bf16 %t/pp/A.bin %t/pp/Bt.bin %t/pp/C.bin 1024 512 128 | FileCheck %s --check-prefix=REFPP
// REFPP: gemm_nt_bf16: 524288 elements match
// N = 192 tiles (five stages of 40 KiB beside the staging buffers, 224 KiB):
// the same product, one wgmma.m64n192k16 a step.
// RUN: rake-run --seq %rake_src/bench/gemm/gemm_128x192_g8s_bf16.mlir --sizes=Mg=1,Nt=2,Kt=2 --shape=A=1024x128,Bt=384x128,C=1024x384 --output-dir=%t/n192
// RUN: rake-example-ref gemm_nt_bf16 %t/n192/A.bin %t/n192/Bt.bin %t/n192/C.bin 1024 384 128 | FileCheck %s --check-prefix=REF192
// REF192: gemm_nt_bf16: 393216 elements match
// RUN: rake-translate --gpuir-to-ptx %rake_src/bench/gemm/gemm_128x192_g8s_bf16.mlir | FileCheck %s --check-prefix=PTX192
// PTX192: wgmma.mma_async.sync.aligned.m64n192k16.f32.bf16.bf16
// RUN: rake-translate --gpuir-to-ptx %rake_src/bench/gemm/gemm_128x128p_g8_bf16.mlir -o %t/pp.ptx
// RUN: FileCheck %s --check-prefix=PPPTX < %t/pp.ptx
// PPPTX: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// The ping-pong GEMM on one shared ring: the same product; its skips wait
// for nothing (the PTX waits on mbarriers at 11 places: the producer's 4
// and the consumers' 4 ring awaits, one a tile, and 3 turn awaits; the 4
// skip loops only advance parities).
// RUN: rake-run --seq %rake_src/bench/gemm/gemm_128x128q6_g8_bf16.mlir --sizes=Mg=1,Nt=1,Kt=2 --shape=A=1024x128,Bt=512x128,C=1024x512 --output-dir=%t/q6
// RUN: rake-example-ref gemm_nt_bf16 %t/q6/A.bin %t/q6/Bt.bin %t/q6/C.bin 1024 512 128 | FileCheck %s --check-prefix=REFPP
// RUN: rake-translate --gpuir-to-ptx %rake_src/bench/gemm/gemm_128x128q6_g8_bf16.mlir -o %t/q6.ptx
// RUN: test $(grep -c "mbarrier.try_wait" %t/q6.ptx) -eq 11
// RUN: FileCheck %s --check-prefix=PPPTX < %t/q6.ptx
// Each consumer warpgroup of the ping-pong is a warp group of its own
// (consumer0, consumer1: pingpong.py says why), so each has its own code
// path: the PTX raises the register count twice and lowers it once, and
// each warpgroup's 8 products a slice (2 halves x 4 steps), its ring wait
// and its 16 TMA stores a tile (4 parts of 4 boxes) appear once in its own
// path (q6t1: 2 producer waits, 2 consumer waits, 1 turn wait).
// RUN: rake-translate --gpuir-to-ptx %rake_src/bench/gemm/gemm_128x128q6t1_g8_bf16.mlir -o %t/q6t1.ptx
// RUN: test $(grep -cE "setmaxnreg.inc.sync.aligned.u32[[:space:]]+232" %t/q6t1.ptx) -eq 2
// RUN: test $(grep -cE "setmaxnreg.dec.sync.aligned.u32[[:space:]]+40" %t/q6t1.ptx) -eq 1
// RUN: test $(grep -c "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16" %t/q6t1.ptx) -eq 16
// RUN: test $(grep -c "mbarrier.try_wait.parity" %t/q6t1.ptx) -eq 5
// RUN: test $(grep -c "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group" %t/q6t1.ptx) -eq 32
// RUN: rake-run --seq %rake_src/bench/gemm/gemm_128x256_g8_f32.mlir --sizes=Mg=1,Nt=2,Kt=3 --shape=A=1024x192,Bt=512x192,C=1024x512 --output-dir=%t/f32
// RUN: rake-example-ref gemm_nt %t/f32/A.bin %t/f32/Bt.bin %t/f32/C.bin 1024 512 192 | FileCheck %s --check-prefix=REF32
// REF32: gemm_nt: 524288 elements match
// TF32: f32 inputs multiplied as the tensor cores read tf32 (13 low
// significand bits dropped); the full f32 product is not what it computes.
// RUN: rake-run --seq %rake_src/bench/gemm/gemm_128x256_g8_tf32.mlir --sizes=Mg=1,Nt=1,Kt=3 --shape=A=1024x96,Bt=256x96,C=1024x256 --output-dir=%t/tf32
// RUN: rake-example-ref gemm_nt_tf32 %t/tf32/A.bin %t/tf32/Bt.bin %t/tf32/C.bin 1024 256 96 | FileCheck %s --check-prefix=REFTF32
// REFTF32: gemm_nt_tf32: 262144 elements match
// RUN: not rake-example-ref gemm_nt_f32 %t/tf32/A.bin %t/tf32/Bt.bin %t/tf32/C.bin 1024 256 96 | FileCheck %s --check-prefix=NOTF32
// NOTF32: gemm_nt_f32: mismatch at {{[0-9]+}} of 262144 elements
// The TF32 ping-pong (one shared ring, f32 parts of 64 x 32 stored as
// boxes of 64 x 8): the same TF32 product, one wgmma.m64n128k8 a step and
// half of a tile.
// RUN: rake-run --seq %rake_src/bench/gemm/gemm_128x128q6t1_g8_tf32.mlir --sizes=Mg=1,Nt=1,Kt=3 --shape=A=1024x96,Bt=256x96,C=1024x256 --output-dir=%t/pptf32
// RUN: rake-example-ref gemm_nt_tf32 %t/pptf32/A.bin %t/pptf32/Bt.bin %t/pptf32/C.bin 1024 256 96 | FileCheck %s --check-prefix=REFTF32
// RUN: rake-translate --gpuir-to-ptx %rake_src/bench/gemm/gemm_128x128q6t1_g8_tf32.mlir | FileCheck %s --check-prefix=PPTF32
// PPTF32: wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32
// PPTF32: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group

// In the kernel a producer at 40 registers fills the stages by TMA on
// mbarriers; consumers at 232 wait with try_wait.parity, multiply with four
// wgmma.m64n256k16 per slice and release each stage one warp at a time; the
// epilogue waits for all products and rounds them to bf16.
// RUN: rake-translate --gpuir-to-ptx %rake_src/bench/gemm/gemm_128x256_g8_bf16.mlir -o %t/g.ptx
// RUN: FileCheck %s --check-prefix=PRODUCER < %t/g.ptx
// RUN: FileCheck %s --check-prefix=CONSUMER < %t/g.ptx
// RUN: FileCheck %s --check-prefix=EPILOGUE < %t/g.ptx
// PRODUCER: setmaxnreg.dec.sync.aligned.u32 40;
// PRODUCER: mbarrier.try_wait.parity.shared.b64
// PRODUCER: mbarrier.arrive.expect_tx.shared.b64
// PRODUCER: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PRODUCER: mbarrier.arrive.expect_tx.shared.b64
// PRODUCER: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// CONSUMER: setmaxnreg.inc.sync.aligned.u32 232;
// CONSUMER: mbarrier.try_wait.parity.shared.b64
// CONSUMER-COUNT-4: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16
// CONSUMER: wgmma.commit_group.sync.aligned;
// CONSUMER-NEXT: wgmma.wait_group.sync.aligned 1;
// CONSUMER: bar.warp.sync -1;
// CONSUMER: mbarrier.arrive.shared.b64
// EPILOGUE-DAG: wgmma.wait_group.sync.aligned 0;
// EPILOGUE-DAG: cvt.rn.bf16x2.f32
// (test/Verifier/bench-gemm.test verifies its bundle.)

// The TF32 kernel: four wgmma.m64n256k8 of tf32 per slice of 32 f32.
// RUN: rake-translate --gpuir-to-ptx %rake_src/bench/gemm/gemm_128x256_g8_tf32.mlir -o %t/t.ptx
// RUN: FileCheck %s --check-prefix=TF32-PTX < %t/t.ptx
// TF32-PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// TF32-PTX-COUNT-4: wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32
// TF32-PTX: wgmma.commit_group.sync.aligned;

// The cluster GEMM: mbarriers initialized and released to the cluster before
// any CTA arrives on another's; each CTA's producer expects its A copy on
// its own full mbarrier and its half of B on both CTAs' (remote arrives
// through mapa), then multicasts that half into both (mask 0b11); consumers
// release a stage in both CTAs (at cluster scope: test/Conversion/GpuIRToNVVM/
// cluster-acquire.mlir says why); the cluster meets after the epilogue.
// RUN: rake-translate --gpuir-to-ptx %rake_src/bench/gemm/gemm_128x256_g4c2_bf16.mlir -o %t/c2.ptx
// RUN: FileCheck %s --check-prefix=CLUSTER < %t/c2.ptx
// CLUSTER: .reqnctapercluster 2, 1, 1
// CLUSTER: mov.b32 [[FULL:%r[0-9]+]], 3;
// CLUSTER-NEXT: mbarrier.init.shared.b64 [__mbarrier], [[FULL]];
// CLUSTER: fence.mbarrier_init.release.cluster;
// CLUSTER: barrier.cluster.arrive.aligned;
// CLUSTER-NEXT: barrier.cluster.wait.aligned;
// CLUSTER: mbarrier.arrive.expect_tx.shared.b64 %rd{{[0-9]+}}, [[[BAR:%rd[0-9]+]]], [[BYTES:%r[0-9]+]];
// CLUSTER: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [[[BAR]]];
// CLUSTER: mapa.shared::cluster.u64 [[R0:%rd[0-9]+]], [[BAR]], 0;
// CLUSTER-NEXT: mbarrier.arrive.expect_tx.shared::cluster.b64 _, [[[R0]]], [[BYTES]];
// CLUSTER-NEXT: mapa.shared::cluster.u64 [[R1:%rd[0-9]+]], [[BAR]], 1;
// CLUSTER-NEXT: mbarrier.arrive.expect_tx.shared::cluster.b64 _, [[[R1]]], [[BYTES]];
// CLUSTER: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [%rd{{[0-9]+}}], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [[[BAR]]], %rs{{[0-9]+}};
// CLUSTER: barrier.cluster.arrive;
// CLUSTER: mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%rd{{[0-9]+}}]
// CLUSTER-NEXT: mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%rd{{[0-9]+}}]
// With the epilogue through shared memory (c2s), the K loop releases a stage
// with no proxy fence before it: the staging buffer, written through the
// generic proxy, shares no byte with the ring in a CTA's layout (code
// generation once measured a cluster-distributed buffer by its whole type,
// so the B ring seemed to overlap it, and fenced before every release).
// RUN: rake-translate --gpuir-to-ptx %rake_src/bench/gemm/gemm_128x256_g8c2s_bf16.mlir -o %t/c2s.ptx
// RUN: FileCheck %s --check-prefix=C2S < %t/c2s.ptx
// C2S: wgmma.commit_group.sync.aligned;
// C2S-NEXT: wgmma.wait_group.sync.aligned 1;
// C2S-NOT: fence.proxy.async
// C2S: mbarrier.arrive.release.cluster.shared::cluster.b64
// C2S: wgmma.wait_group.sync.aligned 0;
// C2S: fence.proxy.async.shared::cta;
// Its sequential meaning against the reference (two clusters of tiles down M).
// RUN: rake-run --seq %rake_src/bench/gemm/gemm_128x256_g4c2_bf16.mlir --sizes=Mg=1,Nt=1,Kt=2 --shape=A=1024x128,Bt=256x128,C=1024x256 --output-dir=%t/c2
// RUN: rake-example-ref gemm_nt_bf16 %t/c2/A.bin %t/c2/Bt.bin %t/c2/C.bin 1024 256 128 | FileCheck %s --check-prefix=REFC2
// REFC2: gemm_nt_bf16: 262144 elements match

// The epilogue through shared memory and TMA stores (--store tma): the same
// C as the reference, and in its PTX each consumer warpgroup's staging
// writes, fence.proxy.async and its named barrier, then one thread's four
// TMA stores of a quarter (64 x 16 boxes) committed as a bulk group, the
// wait until the group before last has read its buffer (wait_group.read 1)
// and, at the end, until all have.
// RUN: rake-run --seq %rake_src/bench/gemm/gemm_128x256_g8s_bf16.mlir --sizes=Mg=1,Nt=1,Kt=2 --shape=A=1024x128,Bt=256x128,C=1024x256 --output-dir=%t/g8s
// RUN: rake-example-ref gemm_nt_bf16 %t/g8s/A.bin %t/g8s/Bt.bin %t/g8s/C.bin 1024 256 128 | FileCheck %s --check-prefix=REFG8S
// REFG8S: gemm_nt_bf16: 262144 elements match
// RUN: rake-translate --gpuir-to-ptx %rake_src/bench/gemm/gemm_128x256_g8s_bf16.mlir -o %t/g8s.ptx
// RUN: FileCheck %s --check-prefix=STORE < %t/g8s.ptx
// The consumers' releases of the stages in the K loop come without
// fence.proxy.async: the producer that awaits them touches only the stages,
// through TMA, never the staging buffers the consumers write.
// The flagship's whole schedule: the producer at 40 registers waits for a
// free stage and fills it with two TMA loads completing on its mbarrier;
// the consumers at 232 registers wait on the stage's parity and multiply
// with wgmma.m64n256k16 (four a slice).
// STORE: setmaxnreg.dec.sync.aligned.u32 40;
// STORE: mbarrier.try_wait.parity
// STORE-COUNT-2: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// STORE: setmaxnreg.inc.sync.aligned.u32 232;
// STORE: mbarrier.try_wait.parity
// STORE-COUNT-4: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16
// STORE: wgmma.commit_group.sync.aligned;
// STORE-NOT: fence.proxy.async
// STORE: mbarrier.arrive.shared.b64
// STORE-NOT: fence.proxy.async
// STORE: mbarrier.arrive.shared.b64
// STORE-NOT: st.global
// STORE: st.shared.b32
// STORE: fence.proxy.async.shared::cta;
// STORE-NEXT: bar.sync %r{{[0-9]+}}, 128;
// STORE-COUNT-4: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// STORE-NEXT: cp.async.bulk.commit_group;
// STORE: cp.async.bulk.wait_group.read 1;
// STORE: cp.async.bulk.wait_group.read 0;
// STORE-NOT: st.global

// Split K (make_gemm.py --split 2 --mtiles 2, M = 256): the two partial
// planes the GEMM writes, added and rounded by splitk_sum2_bf16, are the
// product within the error of f32 sums and one bf16 rounding (K = 256:
// each plane sums the slices of its parity).
// RUN: rake-run --seq %rake_src/bench/gemm/gemm_128x256_k2m2_f32.mlir --sizes=Nt=1,Kt=2 --shape=A=256x256,Bt=256x256,C=512x256 --output-dir=%t/k2
// RUN: rake-run --seq %rake_src/bench/gemm/splitk_sum2_bf16.mlir --sizes=q=16384 --shape=P=131072,C=65536 --input=P=%t/k2/C.bin --output-dir=%t/k2sum
// RUN: rake-example-ref gemm_nt_bf16 %t/k2/A.bin %t/k2/Bt.bin %t/k2sum/C.bin 256 256 256 | FileCheck %s --check-prefix=SPLITK
// SPLITK: gemm_nt_bf16: 65536 elements match
// Each plane alone is not the product (so the sum is what makes it one).
// RUN: head -c 262144 %t/k2/C.bin > %t/k2/plane0.bin
// RUN: not rake-example-ref gemm_nt %t/k2/A.bin %t/k2/Bt.bin %t/k2/plane0.bin 256 256 256
// The sum's 16-byte loads, one rounding of each pair of sums, 8-byte stores.
// RUN: rake-translate --gpuir-to-ptx %rake_src/bench/gemm/splitk_sum2_bf16.mlir | FileCheck %s --check-prefix=SUM
// SUM-COUNT-2: ld.global.v4.b32
// SUM: cvt.rn.bf16x2.f32
// SUM: st.global.v2.b32
