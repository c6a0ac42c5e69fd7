// A declared extent that is negative at the sizes checked: no index is
// inside it. The check used to take a negative extent for "none declared"
// (its marker is -1) and bounded the dimension only below, so these writes
// of A[0..63] passed at n = 32 (an adversarial review), and the runtime
// skipped its size check the same way (lib/Runtime/LaunchChecks.cpp now
// refuses a negative extent at launch).
// RUN: not rake-opt %s --rake-check 2>&1 | FileCheck %s
// RUN: not rake-opt %s --rake-sync-check=symmetry=false 2>&1 | FileCheck %s
// CHECK: error: negative extent: dimension 0 of A is declared -32 long at these sizes; no index is inside it (declare extents that are sizes: zero or more for every size the kernel runs at) (at n = 32)
// At n = 64 the extent is 0 and the writes are out of bounds; at 128, in.
// RUN: not rake-opt %s --rake-sync-check="sizes=n=64" 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: error: out-of-bounds access: thread 0 of task 0 write A[0], but index 0 of dimension 0 is outside its extent 0
// RUN: rake-opt %s --rake-sync-check="sizes=n=128" -o /dev/null
gpuir.proc @neg_extent(%n: index,
    %A: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n - 64)>},
    %X: memref<64xf32, #gpuir.gmem>)
    attributes {gpuir.check_sizes = [{n = 32}]} {
  gpuir.device_function block(64) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
        %x = gpuir.read %X[%t] : memref<64xf32, #gpuir.gmem>
        gpuir.write %x, %A[%t] : memref<?xf32, #gpuir.gmem>
      }
    }
  }
}
