// Rake's tools print an error with its source line, without MLIR's dump of
// the whole operation in generic form after it; the option brings it back.
// RUN: not rake-opt %s --rake-sync-check 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: not rake-translate --gpuir-to-ptx %s 2>&1 | FileCheck %s --check-prefix=TRANSLATE
// RUN: not rake-opt %s --convert-gpuir-to-nvvm 2>&1 | FileCheck %s --check-prefix=TRANSLATE
// RUN: not rake-opt %s --convert-gpuir-to-nvvm --mlir-print-op-on-diagnostic 2>&1 | FileCheck %s --check-prefix=DUMP

// OPT: error: out-of-bounds access: thread 63 of task 0 read s[64], but index 64 of dimension 0 is outside its extent 64
// OPT-NEXT: %v = gpuir.read %s[%t + 1]
// OPT-NOT: see current operation
// TRANSLATE: error: 'gpuir.read' op the index of dimension 0 can leave the extent 64 of its buffer for some sizes
// TRANSLATE-NOT: see current operation
// DUMP: see current operation
gpuir.proc @past_the_end(%A: memref<64xf32, #gpuir.gmem>) {
  gpuir.device_function block(64) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      %s = gpuir.alloc : memref<64xf32, #gpuir.smem>
      gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
        %v = gpuir.read %s[%t + 1] : memref<64xf32, #gpuir.smem>
        gpuir.write %v, %A[%t] : memref<64xf32, #gpuir.gmem>
      }
    }
  }
}
