// The kernels test/GPU/soundness.mlir runs on the GPU pass the check and
// compile.
// RUN: rake-opt %rake_src/test/GPU/Inputs/ring_full_per_slot.mlir --rake-check > /dev/null
// RUN: rake-opt %rake_src/test/GPU/Inputs/all_arrive.mlir --rake-check > /dev/null
// RUN: rake-opt %rake_src/test/GPU/Inputs/arrive_after_ack.mlir --rake-check > /dev/null
// RUN: rake-opt %rake_src/test/GPU/Inputs/halves_and_whole.mlir --rake-check > /dev/null
// RUN: rake-translate --gpuir-to-ptx %rake_src/test/GPU/Inputs/ring_full_per_slot.mlir -o /dev/null
// RUN: rake-translate --gpuir-to-ptx %rake_src/test/GPU/Inputs/all_arrive.mlir -o /dev/null
// RUN: rake-translate --gpuir-to-ptx %rake_src/test/GPU/Inputs/arrive_after_ack.mlir -o /dev/null
// RUN: rake-opt %rake_src/test/GPU/Inputs/if_alloc.mlir --rake-check > /dev/null
// RUN: rake-translate --gpuir-to-ptx %rake_src/test/GPU/Inputs/if_alloc.mlir -o /dev/null
// RUN: rake-opt %rake_src/test/GPU/Inputs/one_warpgroup.mlir --rake-check > /dev/null
// RUN: rake-translate --gpuir-to-ptx %rake_src/test/GPU/Inputs/one_warpgroup.mlir -o /dev/null
// RUN: rake-opt %rake_src/test/GPU/Inputs/staging_tile.mlir --rake-check > /dev/null
// RUN: rake-translate --gpuir-to-ptx %rake_src/test/GPU/Inputs/staging_tile.mlir -o /dev/null
// RUN: rake-opt %rake_src/test/GPU/Inputs/warps_tile.mlir --rake-check > /dev/null
// RUN: rake-translate --gpuir-to-ptx %rake_src/test/GPU/Inputs/warps_tile.mlir -o /dev/null
// RUN: rake-translate --gpuir-to-ptx %rake_src/test/GPU/Inputs/halves_and_whole.mlir | FileCheck %s
// CHECK: bar.sync {{%r[0-9]+}}, 64;
// CHECK: bar.sync 6, 128;
