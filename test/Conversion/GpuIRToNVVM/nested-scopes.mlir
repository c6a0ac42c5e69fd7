// RUN: rake-translate --gpuir-to-ptx %s | FileCheck %s
// RUN: rake-opt %s --rake-check > /dev/null
// The file's two procedures are one PTX module (one .version, two kernels).
// RUN: rake-translate --gpuir-to-ptx %s | grep -c "^\.version" | FileCheck %s --check-prefix=ONE
// ONE: {{^1$}}

// Scopes the synchronization check accepts and code generation now lowers
// (both ran on the H200 equal to their sequential meaning: test/GPU).

// A shared buffer allocated inside a gpuir.if: it lives in the kernel's
// dynamic shared memory like any other, and its end of scope is no free
// (code generation used to emit the CPU lowering's free() of a shared
// pointer here, an internal error).
// CHECK-LABEL: .entry if_alloc(
// CHECK: st.shared.b32
// CHECK: bar.sync 0;
// CHECK: ld.shared.b32
// CHECK-NOT: call
// CHECK: ret;
gpuir.proc @if_alloc(%n: index, %A: memref<?xf32, #gpuir.gmem>) attributes {gpuir.check_sizes = [{n = 2}]} {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      gpuir.if %task < 1 {
        %s = gpuir.alloc : memref<128xf32, #gpuir.smem>
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          %z = arith.constant 1.0 : f32
          gpuir.write %z, %s[%t] : memref<128xf32, #gpuir.smem>
        }
        gpuir.fence cuda_in_order -> cuda_in_order
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          %v = gpuir.read %s[127 - %t] : memref<128xf32, #gpuir.smem>
          gpuir.write %v, %A[%task * 128 + %t] : memref<?xf32, #gpuir.gmem>
        }
        gpuir.fence cuda_in_order -> cuda_in_order
      }
    }
  }
}

// A warpgroup loop of one iteration in a CTA of one warpgroup: its unit is
// the whole CTA, so it tiles no dimension of the thread domain; its one
// iteration runs on all the CTA's threads.
// CHECK-LABEL: .entry one_warpgroup(
// CHECK: st.global.b32
gpuir.proc @one_warpgroup(%n: index, %A: memref<?xf32, #gpuir.gmem>) attributes {gpuir.check_sizes = [{n = 2}]} {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      gpuir.for %g = 0 to 1 : cuda_threads<#gpuir.unit<warpgroup>> {
        gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
          %z = arith.constant 1.0 : f32
          gpuir.write %z, %A[%task * 128 + %t] : memref<?xf32, #gpuir.gmem>
        }
      }
    }
  }
}
