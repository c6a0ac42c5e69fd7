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
