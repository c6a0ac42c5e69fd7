// RUN: rake-opt %examples/reverse_tiles.mlir | FileCheck %s --check-prefix=REVERSE

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
