// RUN: rake-opt %examples/reverse_tiles.mlir | FileCheck %s --check-prefix=REVERSE
// RUN: rake-opt %examples/warp_sums.mlir --rake-check | FileCheck %s --check-prefix=WARPS

// The kernels under examples/ are what users read first: they must always
// parse and verify.

// REVERSE-LABEL: gpuir.proc @reverse_tiles
// REVERSE: gpuir.device_function block(256)
// REVERSE: gpuir.fence cuda_in_order -> cuda_in_order

// The first example compiles to PTX for sm_90a: a persistent kernel of 256
// threads with its tile in shared memory, bar.sync where the fence stands
// and at the end of each task.
// RUN: rake-translate --gpuir-to-ptx %examples/reverse_tiles.mlir | FileCheck %s --check-prefix=PTX
// PTX: .target sm_90a
// PTX: .extern .shared .align 128 .b8 __dynamic_shmem__0[];
// PTX: .visible .entry reverse_tiles(
// PTX: .maxntid 256, 1, 1
// PTX: mov.u32 {{.*}}, %ctaid.x;
// PTX: mov.u32 {{.*}}, %nctaid.x;
// PTX: ld.global.b32
// PTX-NEXT: st.shared.b32
// PTX-NEXT: bar.sync 0;
// PTX-NEXT: ld.shared.b32
// PTX: st.global.b32
// PTX-NEXT: bar.sync 0;

// The warp example passes the check, runs on the CPU equal to an
// independent reference, and compiles to PTX with warp barriers.
// WARPS: gpuir.proc @warp_sums
// RUN: rm -rf %t && rake-run --seq %examples/warp_sums.mlir --sizes=rows=37 --shape=X=37,S=37 --output-dir=%t
// RUN: rake-example-ref warp_sums %t/X.bin %t/S.bin | FileCheck %s --check-prefix=WREF
// WREF: warp_sums: 148 sums match
// RUN: rake-translate --gpuir-to-ptx %examples/warp_sums.mlir | FileCheck %s --check-prefix=WPTX
// WPTX: .maxntid 128, 1, 1
// WPTX-DAG: bar.sync 0;
// WPTX-DAG: st.shared.b32 {{.*}}
// WPTX-NEXT: bar.warp.sync -1;

// Vector add and the shared-memory transpose: checked, run on the CPU equal
// to independent references (partial tiles included), compiled to PTX (no
// barrier in vector add: it has no shared memory to protect).
// RUN: rake-opt %examples/vector_add.mlir --rake-check | FileCheck %s --check-prefix=VADD
// VADD: gpuir.proc @vector_add
// RUN: rm -rf %t.v && rake-run --seq %examples/vector_add.mlir --sizes=n=1000 --shape=A=1000,B=1000,C=1000 --output-dir=%t.v
// RUN: rake-example-ref vector_add %t.v/A.bin %t.v/B.bin %t.v/C.bin | FileCheck %s --check-prefix=VREF
// VREF: vector_add: 1000 elements match
// The same with 16-byte vector accesses and a tail of one element (n = 1001):
// checked, equal to the reference, and lowered to ld/st.global.v4.
// RUN: rake-opt %examples/vector_add_v4.mlir --rake-check | FileCheck %s --check-prefix=V4
// V4: gpuir.proc @vector_add_v4
// RUN: rm -rf %t.v4 && rake-run --seq %examples/vector_add_v4.mlir --sizes=n=1001 --shape=A=1001,B=1001,C=1001 --output-dir=%t.v4
// RUN: rake-example-ref vector_add %t.v4/A.bin %t.v4/B.bin %t.v4/C.bin | FileCheck %s --check-prefix=V4REF
// V4REF: vector_add: 1001 elements match
// RUN: rake-translate --gpuir-to-ptx %examples/vector_add_v4.mlir | FileCheck %s --check-prefix=V4PTX
// V4PTX-COUNT-2: ld.global.v4.b32
// V4PTX: st.global.v4.b32
// V4PTX-NOT: .local
// RUN: rake-translate --gpuir-to-ptx %examples/vector_add.mlir | FileCheck %s --check-prefix=VPTX
// VPTX: .maxntid 256, 1, 1
// VPTX: add.rn.f32
// VPTX-NOT: bar.sync
// RUN: rake-opt %examples/transpose.mlir --rake-check | FileCheck %s --check-prefix=TRANS
// TRANS: gpuir.proc @transpose
// RUN: rm -rf %t.t && rake-run --seq %examples/transpose.mlir --sizes=R=70,C=100 --shape=X=70x100,Y=100x70 --output-dir=%t.t
// RUN: rake-example-ref transpose %t.t/X.bin %t.t/Y.bin 70 100 | FileCheck %s --check-prefix=TREF
// TREF: transpose: 7000 elements match
// RUN: rake-translate --gpuir-to-ptx %examples/transpose.mlir | FileCheck %s --check-prefix=TPTX
// TPTX: .extern .shared .align 128 .b8 __dynamic_shmem__0[];
// TPTX-DAG: st.shared.b32
// TPTX-DAG: ld.shared.b32
// Two barriers: the CTA fence and the end of a task that used the tile.
// RUN: rake-translate --gpuir-to-ptx %examples/transpose.mlir | grep -cE "bar.sync[[:space:]]+0;" | FileCheck %s --check-prefix=TBARS
// TBARS: {{^}}2{{$}}

// A warpgroup fence is a named barrier per warpgroup. The kernel reverses X
// in place; its input (saved before the run) and output match the reference.
// RUN: rake-opt %examples/warpgroup_reverse.mlir --rake-check | FileCheck %s --check-prefix=WG
// WG: gpuir.proc @warpgroup_reverse
// RUN: rm -rf %t.w && rake-run --seq %examples/warpgroup_reverse.mlir --sizes=n=5 --shape=X=1280 --save-inputs=%t.w/in --output-dir=%t.w/out
// RUN: rake-example-ref reverse_tiles %t.w/in/X.bin %t.w/out/X.bin 128 | FileCheck %s --check-prefix=WGREF
// WGREF: reverse_tiles: 1280 elements match (tiles of 128)
// RUN: rake-translate --gpuir-to-ptx %examples/warpgroup_reverse.mlir | FileCheck %s --check-prefix=WGPTX
// WGPTX: bar.sync %r{{[0-9]+}}, 128;

// Block sums: the warp butterfly of shfl.sync.bfly passes the check (each
// lane's own register write needs no fence before the shuffle), equals the
// reference on the CPU, and compiles to five shuffles per warp with the
// partial sums in registers (no local memory).
// RUN: rake-opt %examples/block_sums.mlir --rake-check | FileCheck %s --check-prefix=BSUM
// BSUM: gpuir.proc @block_sums
// RUN: rm -rf %t.b && rake-run --seq %examples/block_sums.mlir --sizes=rows=9 --shape=X=9,S=9 --output-dir=%t.b
// RUN: rake-example-ref block_sums %t.b/X.bin %t.b/S.bin | FileCheck %s --check-prefix=BREF
// BREF: block_sums: 9 sums match
// RUN: rake-translate --gpuir-to-ptx %examples/block_sums.mlir | FileCheck %s --check-prefix=BPTX
// BPTX: .maxntid 256, 1, 1
// BPTX-NOT: .local
// BPTX: shfl.sync.bfly.b32 {{.*}}, 16, 31, -1;
// BPTX-NEXT: add.rn.f32
// BPTX: shfl.sync.bfly.b32 {{.*}}, 8, 31, -1;
// BPTX: shfl.sync.bfly.b32 {{.*}}, 4, 31, -1;
// BPTX: shfl.sync.bfly.b32 {{.*}}, 2, 31, -1;
// BPTX: shfl.sync.bfly.b32 {{.*}}, 1, 31, -1;
// BPTX: st.shared.b32
// BPTX: bar.sync 0;

// The Sm80 matrix multiply (cp.async double buffering, ldmatrix, mma.sync). It
// passes the check, its sequential meaning equals the reference within the
// error bound of f32 sums (256 x 128 x 96: two tiles of M, three slices of
// K), and its PTX holds the asynchronous copies, their commit and wait
// (cp.async.wait_group 0 where the await stands), the matrix loads and
// 4 x 8 x 2 mma.sync per slice, with the accumulators in registers.
// RUN: rake-opt %examples/gemm_sm80.mlir --rake-check | FileCheck %s --check-prefix=GEMM
// GEMM: gpuir.proc @gemm_sm80
// RUN: rm -rf %t.g && rake-run --seq %examples/gemm_sm80.mlir --sizes=Mt=2,Nt=1,Kt=3 --shape=A=256x96,B=96x128,C=256x128 --output-dir=%t.g
// RUN: rake-example-ref gemm %t.g/A.bin %t.g/B.bin %t.g/C.bin 256 128 96 | FileCheck %s --check-prefix=GREF
// GREF: gemm: 32768 elements match
// RUN: rake-translate --gpuir-to-ptx %examples/gemm_sm80.mlir > %t.gemm.ptx
// RUN: FileCheck %s --check-prefix=GPTX < %t.gemm.ptx
// GPTX: .extern .shared .align 128 .b8 __dynamic_shmem__0[];
// GPTX: .maxntid 128, 1, 1
// GPTX-NOT: .local
// GPTX-DAG: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16;
// GPTX-DAG: cp.async.commit_group;
// GPTX-DAG: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// GPTX-DAG: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// GPTX-DAG: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// GPTX-DAG: cp.async.wait_group 0;
// GPTX-NEXT: bar.sync 0;
// RUN: grep -c "mma.sync.aligned.m16n8k16" %t.gemm.ptx | FileCheck %s --check-prefix=GMMA
// GMMA: {{^}}64{{$}}

// Warp specialization: the check accepts the producer's cp.async copies read
// by the consumers after the producer's wait and the CTA fence; the CPU
// meaning equals the reference; the PTX has one path per warp group, each
// starting with its setmaxnreg, the producer's holding the copies and their
// wait, the consumer's the reads, and both the same two barriers per task
// (the fence and the end of the task), so that the paths meet; barrier.sync,
// not bar.sync, whose aligned form requires every thread of the CTA at the
// same instruction. .minnctapersm gives ptxas the register count at entry
// that setmaxnreg redistributes.
// RUN: rake-opt %examples/warp_specialized.mlir --rake-check | FileCheck %s --check-prefix=WS
// WS: gpuir.proc @warp_specialized
// RUN: rm -rf %t.ws && rake-run --seq %examples/warp_specialized.mlir --sizes=rows=5 --shape=X=5,Y=5 --output-dir=%t.ws
// RUN: rake-example-ref mirror_products %t.ws/X.bin %t.ws/Y.bin | FileCheck %s --check-prefix=WSREF
// WSREF: mirror_products: 5120 elements match
// RUN: rake-translate --gpuir-to-ptx %examples/warp_specialized.mlir | FileCheck %s --check-prefix=WSPTX
// WSPTX: .maxntid 256, 1, 1
// WSPTX-NEXT: .minnctapersm 1
// WSPTX: setmaxnreg.dec.sync.aligned.u32 40;
// WSPTX-NOT: ld.shared
// WSPTX: cp.async.cg.shared.global
// WSPTX: cp.async.commit_group;
// WSPTX-NEXT: cp.async.wait_group 0;
// WSPTX-NEXT: barrier.sync 0;
// WSPTX-NEXT: barrier.sync 0;
// WSPTX-NOT: ld.shared
// WSPTX: setmaxnreg.inc.sync.aligned.u32 232;
// WSPTX-NOT: cp.async
// WSPTX: barrier.sync 0;
// WSPTX-NOT: barrier.sync
// WSPTX: ld.shared.b32
// WSPTX: mul.rn.f32
// WSPTX: barrier.sync 0;
// WSPTX-NOT: {{bar|barrier}}.sync

// A warp-specialized ring of two stages on mbarriers: the check accepts it
// (the producer's copies reach the consumers through "full", the consumers'
// reads are ordered before the refill through "empty"); the CPU meaning
// equals the reference exactly; the PTX initializes the four mbarriers once,
// before the paths split: "full" with the 128 threads whose cp.async
// copies arrive on it, "empty" with the 4 warps whose lane 0 arrives for
// its warp after bar.warp.sync; the
// producer path waits on "empty", copies, and arrives on "full" when its
// copies land; the consumer path waits on "full", reads, arrives on "empty".
// RUN: rake-opt %examples/ring_sums.mlir --rake-check | FileCheck %s --check-prefix=RING
// RING: gpuir.proc @ring_sums
// RUN: rm -rf %t.r && rake-run --seq %examples/ring_sums.mlir --sizes=rows=3,K=7 --shape=X=3x7,Y=3 --output-dir=%t.r
// RUN: rake-example-ref ring_sums %t.r/X.bin %t.r/Y.bin 7 | FileCheck %s --check-prefix=RREF
// RREF: ring_sums: 3072 sums match
// RUN: rake-translate --gpuir-to-ptx %examples/ring_sums.mlir | FileCheck %s --check-prefix=RPTX
// RPTX: mov.b32 [[COUNT:%r[0-9]+]], 128;
// RPTX-COUNT-2: mbarrier.init.shared.b64 {{.*}}, [[COUNT]];
// RPTX: mov.b32 [[NWARP:%r[0-9]+]], 4;
// RPTX-COUNT-2: mbarrier.init.shared.b64 {{.*}}, [[NWARP]];
// RPTX: bar.sync 0;
// RPTX: setmaxnreg.dec.sync.aligned.u32 40;
// RPTX-NOT: ld.shared
// RPTX: mbarrier.try_wait.parity.shared.b64
// RPTX: cp.async.cg.shared.global
// RPTX: cp.async.mbarrier.arrive.noinc.shared.b64
// RPTX: setmaxnreg.inc.sync.aligned.u32 232;
// RPTX-NOT: cp.async
// RPTX: mbarrier.try_wait.parity.shared.b64
// RPTX: ld.shared.b32
// RPTX: bar.warp.sync -1;
// RPTX: mbarrier.arrive.shared.b64

// Clusters: two CTAs exchange rows through global memory across a fence of
// the whole cluster (barrier.cluster); with a fence of each CTA instead,
// the check names the other CTA's write.
// RUN: rake-opt %examples/cluster_exchange.mlir --rake-check | FileCheck %s --check-prefix=CLU
// CLU: gpuir.proc @cluster_exchange
// RUN: rm -rf %t.c && rake-run --seq %examples/cluster_exchange.mlir --sizes=n=4 --shape=X=4,Y=4,Z=4 --output-dir=%t.c --launch-args=%t.c.args
// RUN: rake-example-ref cluster_exchange %t.c/X.bin %t.c/Y.bin %t.c/Z.bin | FileCheck %s --check-prefix=CREF
// CREF: cluster_exchange: 1024 elements match
// RUN: FileCheck %s --check-prefix=CARGS < %t.c.args
// CARGS: cluster_exchange --block 128 --blocks-per-sm 2 --smem 512 --cluster 2 i:4
// RUN: rake-translate --gpuir-to-ptx %examples/cluster_exchange.mlir | FileCheck %s --check-prefix=CPTX
// CPTX: .explicitcluster
// CPTX-NEXT: .reqnctapercluster 2, 1, 1
// CPTX: mov.u32 {{.*}}, %cluster_ctarank;
// CPTX: barrier.cluster.arrive.aligned;
// CPTX-NEXT: barrier.cluster.wait.aligned;
// RUN: sed 's/^      gpuir.fence cuda_in_order -> cuda_in_order$/      gpuir.for %c = 0 to 2 : cuda_threads<#gpuir.unit<cta_in_cluster>> {\n        gpuir.fence cuda_in_order -> cuda_in_order\n      }/' %examples/cluster_exchange.mlir > %t.ctafence.mlir
// RUN: not rake-opt %t.ctafence.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=CFENCE
// CFENCE: error: RAW hazard: thread 0 of task 0 read Y[0, 1, 0] on cuda_in_order_ram, written by thread 128 of task 0 on cuda_in_order_ram without synchronization that orders it before

// Hopper's wgmma: the check accepts the ring of cp.async stages (in the
// 128-byte swizzle) read by wgmma after fence.proxy.async, its CPU meaning
// equals the reference (C = A Bt^T) within f32 rounding, and its PTX has
// the swizzled copies (the chunk index xor the row), four wgmma.m64n128k16
// per slice between wgmma.fence and commit/wait, and the fence to the async
// proxy before the CTA barrier.
// RUN: rake-opt %examples/gemm_sm90a.mlir --rake-check | FileCheck %s --check-prefix=G90
// G90: gpuir.proc @gemm_sm90a
// RUN: rm -rf %t.g9 && rake-run --seq %examples/gemm_sm90a.mlir --sizes=Mt=1,Nt=1,Kt=5 --shape=A=256x320,Bt=128x320,C=256x128 --output-dir=%t.g9
// RUN: rake-example-ref gemm_nt %t.g9/A.bin %t.g9/Bt.bin %t.g9/C.bin 256 128 320 | FileCheck %s --check-prefix=G90REF
// G90REF: gemm_nt: 32768 elements match
// RUN: rake-translate --gpuir-to-ptx %examples/gemm_sm90a.mlir | FileCheck %s --check-prefix=G90PTX
// G90PTX: .extern .shared .align 1024 .b8 __dynamic_shmem__0[];
// G90PTX-NOT: .local
// G90PTX: xor.b64
// G90PTX: cp.async.cg.shared.global
// G90PTX: wgmma.fence.sync.aligned;
// G90PTX-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// G90PTX: wgmma.commit_group.sync.aligned;
// G90PTX-NEXT: wgmma.wait_group.sync.aligned 1;
// G90PTX: fence.proxy.async.shared::cta;
// G90PTX-NEXT: bar.sync 0;

// Hopper's TMA: the check accepts one thread filling each swizzled stage
// with two TMA copies that complete on the stage's mbarrier, its CPU meaning
// equals the reference, and its PTX has the two 2-D tensor copies on the
// stage's mbarrier, its expect_tx of their 48 KiB, the parity wait before
// the wgmma, and the tensor maps as the kernel's last two parameters.
// RUN: rake-opt %examples/gemm_sm90a_tma.mlir --rake-check | FileCheck %s --check-prefix=TCHK
// TCHK: gpuir.proc @gemm_sm90a_tma
// RUN: rm -rf %t.tma && rake-run --seq %examples/gemm_sm90a_tma.mlir --sizes=Mt=1,Nt=1,Kt=5 --shape=A=256x320,Bt=128x320,C=256x128 --output-dir=%t.tma --launch-args=%t.tma.args
// RUN: rake-example-ref gemm_nt %t.tma/A.bin %t.tma/Bt.bin %t.tma/C.bin 256 128 320 | FileCheck %s --check-prefix=TMAREF
// TMAREF: gemm_nt: 32768 elements match
// The launcher encodes one tensor map per (buffer, box, swizzle).
// RUN: FileCheck %s --check-prefix=TMAARGS < %t.tma.args
// TMAARGS: gemm_sm90a_tma --block 512 --blocks-per-sm 1 --smem 196608 i:1 i:1 i:5 m:bf16:256x320:in/A.bin:gpu/A.bin m:bf16:128x320:in/Bt.bin:gpu/Bt.bin m:f32:256x128:in/C.bin:gpu/C.bin t:3:256x64:128 t:4:128x64:128
// RUN: rake-translate --gpuir-to-ptx %examples/gemm_sm90a_tma.mlir | FileCheck %s --check-prefix=TMAPTX
// TMAPTX: .param .u64 .ptr .align 1 gemm_sm90a_tma_param_24,
// TMAPTX-NEXT: .param .u64 .ptr .align 1 gemm_sm90a_tma_param_25
// TMAPTX-NOT: .local
// The initializing thread's fence after mbarrier.init, before the CTA meets.
// TMAPTX: mbarrier.init.shared.b64
// TMAPTX: fence.proxy.async.shared::cta;
// TMAPTX-NEXT: {{^\$L__BB[0-9_]+:}}
// TMAPTX-NEXT: bar.sync 0;
// TMAPTX: fence.proxy.async.shared::cta;
// TMAPTX-NEXT: bar.sync 0;
// Each copy arrives on the stage's full mbarrier expecting its bytes, then
// completes them there.
// TMAPTX: mov.b32 [[BYTES:%r[0-9]+]], 32768;
// TMAPTX-NEXT: mbarrier.arrive.expect_tx.shared.b64 %rd{{[0-9]+}}, [[[BAR:%rd[0-9]+]]], [[BYTES]];
// TMAPTX: cvta.to.shared::cluster.u64 [[DSTA:%rd[0-9]+]],
// TMAPTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [[[DSTA]]], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [[[BAR]]];
// TMAPTX: mov.b32 [[BYTESB:%r[0-9]+]], 16384;
// TMAPTX-NEXT: mbarrier.arrive.expect_tx.shared.b64 %rd{{[0-9]+}}, [[[BAR]]], [[BYTESB]];
// TMAPTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [[[BAR]]];
// TMAPTX: mbarrier.try_wait.parity.shared.b64
// TMAPTX: wgmma.fence.sync.aligned;
// TMAPTX-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16

// RMSNorm and softmax with math.sqrt and math.exp: the check accepts them,
// and their sequential meaning is within the error bound of its f32
// evaluation order of an independent double-precision reference.
// RUN: rake-opt %examples/rmsnorm.mlir --rake-check | FileCheck %s --check-prefix=RMS
// RMS: gpuir.proc @rmsnorm
// RUN: rm -rf %t.rms && rake-run --seq %examples/rmsnorm.mlir --sizes=rows=5 --output-dir=%t.rms
// RUN: %python %S/Inputs/check_norms.py rmsnorm %t.rms/X.bin %t.rms/W.bin %t.rms/Y.bin | FileCheck %s --check-prefix=RMSREF
// RMSREF: rmsnorm: 5120 elements within the bound
// RUN: rake-opt %examples/softmax.mlir --rake-check | FileCheck %s --check-prefix=SOFTMAX
// SOFTMAX: gpuir.proc @softmax
// RUN: rm -rf %t.sm && rake-run --seq %examples/softmax.mlir --sizes=rows=5 --output-dir=%t.sm
// RUN: %python %S/Inputs/check_norms.py softmax %t.sm/X.bin %t.sm/Y.bin | FileCheck %s --check-prefix=SMREF
// SMREF: softmax: 5120 elements within the bound
// The fused forms (one warp per row of 1000 floats in 16-byte runs, a tail
// of 26 lanes, the warp's reductions by shuffles): the check accepts them, their sequential
// meaning is within the same bounds of the double-precision reference, and
// their PTX marks the fused region in the line table, with no device-memory
// access under its line.
// RUN: rake-opt %examples/fused_rmsnorm.mlir --rake-check | FileCheck %s --check-prefix=FRMS
// FRMS: gpuir.fused {
// RUN: rm -rf %t.frms && rake-run --seq %examples/fused_rmsnorm.mlir --sizes=blocks=2 --output-dir=%t.frms
// RUN: %python %S/Inputs/check_norms.py rmsnorm --cols=1000 %t.frms/X.bin %t.frms/W.bin %t.frms/Y.bin | FileCheck %s --check-prefix=FRMSREF
// FRMSREF: rmsnorm: 16000 elements within the bound
// RUN: rake-opt %examples/fused_softmax.mlir --rake-check | FileCheck %s --check-prefix=FSM
// FSM: gpuir.fused {
// RUN: rm -rf %t.fsm && rake-run --seq %examples/fused_softmax.mlir --sizes=rows=16 --output-dir=%t.fsm
// RUN: %python %S/Inputs/check_norms.py softmax --cols=1000 %t.fsm/X.bin %t.fsm/Y.bin | FileCheck %s --check-prefix=FSMREF
// FSMREF: softmax: 16000 elements within the bound
// RUN: rake-translate --gpuir-to-ptx %examples/fused_rmsnorm.mlir -o %t.frms.ptx
// RUN: FileCheck %s --check-prefix=FRMSPTX < %t.frms.ptx
// FRMSPTX-NOT: {{approx|ftz|__nv_}}
// FRMSPTX: ld.global.v4
// FRMSPTX: .loc [[F:[0-9]+]] 2 0
// FRMSPTX: shfl.sync.bfly
// FRMSPTX: sqrt.rn.f32
// FRMSPTX: .loc [[F]] 1 0
// FRMSPTX: st.global.v4
// FRMSPTX: .file [[F]] "rake-fused-regions"
// No global access is under the region's line (ptxas may interleave the two
// lines' instructions; the cubin's check is rake-verify's).
// RUN: awk '/^[[:space:]]*\.loc/ {line = $3} /(ld|st)\.global/ && line == 2 {print "in the region: " $0; bad = 1} END {exit bad}' %t.frms.ptx
// RUN: rake-translate --gpuir-to-ptx %examples/fused_softmax.mlir -o %t.fsm.ptx
// RUN: FileCheck %s --check-prefix=FSMPTX < %t.fsm.ptx
// FSMPTX-NOT: {{approx|ftz|ex2|__nv_}}
// FSMPTX: ld.global.v4
// FSMPTX: .loc [[F:[0-9]+]] 2 0
// FSMPTX: rcp.rn.f32
// FSMPTX: .loc [[F]] 1 0
// FSMPTX: st.global.v4
// RUN: awk '/^[[:space:]]*\.loc/ {line = $3} /(ld|st)\.global/ && line == 2 {print "in the region: " $0; bad = 1} END {exit bad}' %t.fsm.ptx
// Their kernels use only correctly rounded instructions.
// RUN: rake-translate --gpuir-to-ptx %examples/rmsnorm.mlir -o %t.rms.ptx
// RUN: FileCheck %s --check-prefix=RMSPTX < %t.rms.ptx
// RMSPTX-NOT: {{approx|ftz|__nv_}}
// RMSPTX: sqrt.rn.f32
// RMSPTX: rcp.rn.f32
// RUN: rake-translate --gpuir-to-ptx %examples/softmax.mlir -o %t.sm.ptx
// RUN: FileCheck %s --check-prefix=SMPTX < %t.sm.ptx
// SMPTX-NOT: {{approx|ftz|ex2|__nv_}}
// SMPTX: div.rn.f32
