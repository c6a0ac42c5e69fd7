// RUN: rake-opt %examples/reverse_tiles.mlir | FileCheck %s --check-prefix=REVERSE

// The kernels under examples/ are what users read first: they must always
// parse and verify.

// REVERSE-LABEL: gpuir.proc @reverse_tiles
// REVERSE: gpuir.device_function block(256)
// REVERSE: gpuir.fence cuda_in_order -> cuda_in_order
