// RUN: rake-opt %s | rake-opt | FileCheck %s

// The block-scaled mma of sm_120a round-trips in each form: kind::mxf8f6f4
// with a mixed pair and a byte of a shared scale register, NVFP4 (ue4m3
// scales, four blocks) and MXFP4 (ue8m0, two); the selectors left at their
// defaults (0) are not printed.

// CHECK-LABEL: gpuir.proc @forms
// CHECK: gpuir.sm120a.mma_block_scale %{{.*}}, %{{.*}}, %{{.*}} scale(%{{.*}}, %{{.*}}) {byte_id_a = 2 : i64, thread_id_b = 3 : i64} : memref<32x4xf32, #gpuir.rmem>, memref<32x16xf4E2M1FN, #gpuir.rmem>, memref<32x8xf6E3M2FN, #gpuir.rmem>, memref<32x4xf8E8M0FNU, #gpuir.rmem>, memref<32x4xf8E8M0FNU, #gpuir.rmem>
// CHECK: gpuir.sm120a.mma_block_scale %{{.*}}, %{{.*}}, %{{.*}} scale(%{{.*}}, %{{.*}}) {thread_id_a = 1 : i64} : memref<32x4xf32, #gpuir.rmem>, memref<32x32xf4E2M1FN, #gpuir.rmem>, memref<32x16xf4E2M1FN, #gpuir.rmem>, memref<32x4xf8E4M3FN, #gpuir.rmem>, memref<32x4xf8E4M3FN, #gpuir.rmem>
// CHECK: gpuir.sm120a.mma_block_scale %{{.*}}, %{{.*}}, %{{.*}} scale(%{{.*}}, %{{.*}}) : memref<32x4xf32, #gpuir.rmem>, memref<32x32xf4E2M1FN, #gpuir.rmem>, memref<32x16xf4E2M1FN, #gpuir.rmem>, memref<32x4xf8E8M0FNU, #gpuir.rmem>, memref<32x4xf8E8M0FNU, #gpuir.rmem>
gpuir.proc @forms() {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      %d = gpuir.alloc : memref<32x4xf32, #gpuir.rmem>
      %a = gpuir.alloc : memref<32x16xf4E2M1FN, #gpuir.rmem>
      %b = gpuir.alloc : memref<32x8xf6E3M2FN, #gpuir.rmem>
      %e8 = gpuir.alloc : memref<32x4xf8E8M0FNU, #gpuir.rmem>
      gpuir.sm120a.mma_block_scale %d, %a, %b scale(%e8, %e8) {byte_id_a = 2, thread_id_b = 3, byte_id_b = 0} : memref<32x4xf32, #gpuir.rmem>, memref<32x16xf4E2M1FN, #gpuir.rmem>, memref<32x8xf6E3M2FN, #gpuir.rmem>, memref<32x4xf8E8M0FNU, #gpuir.rmem>, memref<32x4xf8E8M0FNU, #gpuir.rmem>
      %a4 = gpuir.alloc : memref<32x32xf4E2M1FN, #gpuir.rmem>
      %b4 = gpuir.alloc : memref<32x16xf4E2M1FN, #gpuir.rmem>
      %u4 = gpuir.alloc : memref<32x4xf8E4M3FN, #gpuir.rmem>
      gpuir.sm120a.mma_block_scale %d, %a4, %b4 scale(%u4, %u4) {thread_id_a = 1} : memref<32x4xf32, #gpuir.rmem>, memref<32x32xf4E2M1FN, #gpuir.rmem>, memref<32x16xf4E2M1FN, #gpuir.rmem>, memref<32x4xf8E4M3FN, #gpuir.rmem>, memref<32x4xf8E4M3FN, #gpuir.rmem>
      gpuir.sm120a.mma_block_scale %d, %a4, %b4 scale(%e8, %e8) : memref<32x4xf32, #gpuir.rmem>, memref<32x32xf4E2M1FN, #gpuir.rmem>, memref<32x16xf4E2M1FN, #gpuir.rmem>, memref<32x4xf8E8M0FNU, #gpuir.rmem>, memref<32x4xf8E8M0FNU, #gpuir.rmem>
    }
  }
}
