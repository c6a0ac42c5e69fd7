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
// PTX: .visible .entry reverse_tiles(
// PTX: .maxntid 256, 1, 1
// PTX: .shared .align 4 .b8 {{.*}}[1024];
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
// RUN: python3 %S/../Tools/Inputs/check_warp_sums.py %t/X.bin %t/S.bin | FileCheck %s --check-prefix=WREF
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
// RUN: python3 %S/../Tools/Inputs/check_vector_add.py %t.v/A.bin %t.v/B.bin %t.v/C.bin | FileCheck %s --check-prefix=VREF
// VREF: vector_add: 1000 elements match
// RUN: rake-translate --gpuir-to-ptx %examples/vector_add.mlir | FileCheck %s --check-prefix=VPTX
// VPTX: .maxntid 256, 1, 1
// VPTX: add.rn.f32
// VPTX-NOT: bar.sync
// RUN: rake-opt %examples/transpose.mlir --rake-check | FileCheck %s --check-prefix=TRANS
// TRANS: gpuir.proc @transpose
// RUN: rm -rf %t.t && rake-run --seq %examples/transpose.mlir --sizes=R=70,C=100 --shape=X=70x100,Y=100x70 --output-dir=%t.t
// RUN: python3 %S/../Tools/Inputs/check_transpose.py %t.t/X.bin %t.t/Y.bin 70 100 | FileCheck %s --check-prefix=TREF
// TREF: transpose: 7000 elements match
// RUN: rake-translate --gpuir-to-ptx %examples/transpose.mlir | FileCheck %s --check-prefix=TPTX
// TPTX: .shared .align 4 .b8 {{.*}}[4224];
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
// RUN: python3 %S/../Tools/Inputs/check_reverse_tiles.py %t.w/in/X.bin %t.w/out/X.bin 128 | FileCheck %s --check-prefix=WGREF
// WGREF: reverse_tiles: 1280 elements match (tiles of 128)
// RUN: rake-translate --gpuir-to-ptx %examples/warpgroup_reverse.mlir | FileCheck %s --check-prefix=WGPTX
// WGPTX: bar.sync %r{{[0-9]+}}, 128;
