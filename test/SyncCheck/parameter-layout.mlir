// RUN: rake-opt %s -split-input-file -verify-diagnostics --rake-check -o /dev/null
// A kernel's buffer parameter is checked as a row-major array from its
// first element (what the runtime requires of the caller's buffer), while
// code generation addresses it through its layout. A static layout that
// is not row-major from the start is refused: with a stride of 0 every
// thread's element is one word (a race the check took for distinct
// elements), with a stride of 2 or an offset the writes leave the buffer
// (an adversarial review found all three accepted).

// expected-error @+1 {{buffer parameter A of a kernel has layout strided<[0]>; the check takes a kernel's buffer parameters as row-major arrays from their first element (as the runtime requires of the caller's buffers), and code generation would address it through the layout: give the parameter the identity layout (windows of it may be strided)}}
gpuir.proc @stride0(%A: memref<64xf32, strided<[0]>, #gpuir.gmem>, %X: memref<64xf32, #gpuir.gmem>) {
  gpuir.device_function block(64) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
        %x = gpuir.read %X[%t] : memref<64xf32, #gpuir.gmem>
        gpuir.write %x, %A[%t] : memref<64xf32, strided<[0]>, #gpuir.gmem>
      }
    }
  }
}

// -----

// expected-error @+1 {{buffer parameter A of a kernel has layout strided<[2]>}}
gpuir.proc @stride2(%A: memref<64xf32, strided<[2]>, #gpuir.gmem>) {
  gpuir.device_function block(64) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
        %z = arith.constant 0.0 : f32
        gpuir.write %z, %A[%t] : memref<64xf32, strided<[2]>, #gpuir.gmem>
      }
    }
  }
}

// -----

// expected-error @+1 {{buffer parameter A of a kernel has layout strided<[1], offset: 64>}}
gpuir.proc @offset(%A: memref<64xf32, strided<[1], offset: 64>, #gpuir.gmem>) {
  gpuir.device_function block(64) {
    gpuir.for %task = 0 to 1 : cuda_tasks {
      gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
        %z = arith.constant 0.0 : f32
        gpuir.write %z, %A[%t] : memref<64xf32, strided<[1], offset: 64>, #gpuir.gmem>
      }
    }
  }
}

// -----

// Row-major strides written out, and a dynamic stride and offset (the
// caller's, which the runtime checks), pass.
gpuir.proc @row_major(%n: index, %A: memref<4x64xf32, strided<[64, 1]>, #gpuir.gmem>,
    %B: memref<?x64xf32, strided<[?, 1], offset: ?>, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n, 64)>})
    attributes {gpuir.check_sizes = [{n = 4}]} {
  gpuir.device_function block(64) {
    gpuir.for %task = 0 to 4 : cuda_tasks {
      gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
        %x = gpuir.read %A[%task, %t] : memref<4x64xf32, strided<[64, 1]>, #gpuir.gmem>
        gpuir.write %x, %B[%task, %t] : memref<?x64xf32, strided<[?, 1], offset: ?>, #gpuir.gmem>
      }
    }
  }
}
