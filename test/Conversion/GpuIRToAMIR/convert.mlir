// RUN: rake-opt %s -split-input-file --convert-gpuir-to-amir | FileCheck %s

// The abstract machine program of each procedure, beside it.

// CHECK-LABEL: amir.proc @reverse_tiles.amir(%n: index)
// CHECK: %[[A:.*]] = amir.alloc "A" [-1] : !amir.data
// CHECK: %[[B:.*]] = amir.alloc "B" [-1] : !amir.data
// The launch orders everything before it before the kernel's accesses.
// CHECK: amir.fence pre(cpu_in_order | cpu_cuda_stream | {{.*}}) full(cuda_in_order_rmem | cuda_in_order_ram | {{.*}}) temporal({{.*}}) transitive
// CHECK: amir.guard threads(#amir.domain<[256]>) {
// CHECK: amir.loop %task = 0 to %n ceildiv 256 tasks {
// CHECK: %[[TILE:.*]] = amir.alloc "tile" [256] shared : !amir.data
// CHECK: amir.loop %t = 0 to 256 threads(#amir.tile<dim = 0, offset = 0, step = 1, box = 1>) {
// CHECK-NEXT: amir.check_reads %[[A]][%task * 256 + %t] on cuda_in_order_ram : !amir.data
// CHECK-NEXT: amir.record_read %[[A]][%task * 256 + %t] on cuda_in_order_ram : !amir.data
// CHECK-NEXT: amir.check_mutates %[[TILE]][%t] on cuda_in_order_ram : !amir.data
// CHECK-NEXT: amir.record_mutate %[[TILE]][%t] on cuda_in_order_ram : !amir.data
// A CTA fence, cuda_in_order -> cuda_in_order: its timelines' sets.
// CHECK: amir.fence pre(cuda_in_order_rmem | cuda_in_order_ram) full(cuda_in_order_rmem | cuda_in_order_ram) temporal(cpu_cuda_stream | cuda_in_order_rmem | cuda_in_order_ram | Sm80_cp_async | tma_to_smem_async | tma_to_gmem_async | wgmma_async_rmem_a | wgmma_async_rmem_d | wgmma_async_smem) transitive
// CHECK: amir.check_reads %[[TILE]][-%t + 255] on cuda_in_order_ram : !amir.data
// The end of a task: the cluster barrier code generation places there, then
// the free of the task's shared memory.
// CHECK: amir.fence pre(cuda_in_order_rmem | cuda_in_order_ram) full(none) temporal({{.*}}) transitive
// CHECK-NEXT: amir.free %[[TILE]] implicit : !amir.data
// The kernel's completion in stream order.
// CHECK: amir.fence pre(cuda_in_order_rmem | {{.*}}) full(cpu_cuda_stream) temporal(cpu_cuda_stream) transitive
gpuir.proc @reverse_tiles(%n: index, %A: memref<?xf32, #gpuir.gmem>, %B: memref<?xf32, #gpuir.gmem>) {
  gpuir.device_function block(256) {
    gpuir.for %task = 0 to %n ceildiv 256 : cuda_tasks {
      %tile = gpuir.alloc : memref<256xf32, #gpuir.smem>
      gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
        %v = gpuir.read %A[%task * 256 + %t] : memref<?xf32, #gpuir.gmem>
        gpuir.write %v, %tile[%t] : memref<256xf32, #gpuir.smem>
      }
      gpuir.fence cuda_in_order -> cuda_in_order
      gpuir.for %t = 0 to 256 : cuda_threads<#gpuir.unit<thread>> {
        %v = gpuir.read %tile[255 - %t] : memref<256xf32, #gpuir.smem>
        gpuir.write %v, %B[%task * 256 + %t] : memref<?xf32, #gpuir.gmem>
      }
    }
  }
}

// -----

// Windows are inlined into their buffers' accesses; instructions become
// checks and records of their parameters by access mode, with the
// out-of-order flag of asynchronous ones, and a trailing barrier an arrive on
// the instruction's own timelines (one arrival a phase: the barrier's count). A reduction is a read and a write. Grid
// constants are exempt: the read of %c leaves no trace.
// CHECK-LABEL: amir.proc @instructions.amir(%n: index)
// CHECK: %[[G:.*]] = amir.alloc "G" [-1, 64, 64] : !amir.data
// CHECK: %[[S:.*]] = amir.alloc "S" [2, 64, 64] shared : !amir.data
// CHECK: %[[BAR:.*]] = amir.alloc "bar" [2] shared arrivals 1 : !amir.barrier<mbarrier>
// CHECK: amir.loop %t = 0 to 1 threads(#amir.tile<dim = 0, offset = 0, step = 1, box = 1>) {
// CHECK-NEXT: amir.check_reads %[[G]][%task, 0 : 64, 0 : 64] on tma_to_smem_async : !amir.data
// CHECK-NEXT: amir.check_mutates %[[S]][%task mod 2, 0 : 64, 0 : 64] on tma_to_smem_async : !amir.data
// CHECK-NEXT: amir.record_read %[[G]][%task, 0 : 64, 0 : 64] on tma_to_smem_async out_of_order : !amir.data
// CHECK-NEXT: amir.record_mutate %[[S]][%task mod 2, 0 : 64, 0 : 64] on tma_to_smem_async out_of_order : !amir.data
// CHECK-NEXT: amir.arrive %[[BAR]][%task mod 2] pre(tma_to_smem_async) on cuda_in_order_ram last(2) : !amir.barrier<mbarrier>
// (Only wgmma.fence makes register accesses visible to wgmma: the await's full set leaves out its register operands.)
// CHECK: amir.await %[[BAR]][%task mod 2] full(wgmma_async_smem) temporal(wgmma_async_rmem_a | wgmma_async_rmem_d | wgmma_async_smem) : !amir.barrier<mbarrier>
// CHECK-NEXT: amir.loop %t = 0 to 1
// CHECK-NEXT: amir.check_reads %[[S]][%task mod 2, 3, 5] on cuda_in_order_ram : !amir.data
// CHECK-NEXT: amir.check_mutates %[[S]][%task mod 2, 3, 5] on cuda_in_order_ram : !amir.data
// CHECK-NEXT: amir.record_mutate %[[S]][%task mod 2, 3, 5] on cuda_in_order_ram : !amir.data
gpuir.proc @instructions(%n: index, %G: memref<?x64x64xf16, #gpuir.gmem>, %c: memref<2xf16, #gpuir.grid_constant>) {
  gpuir.device_function block(128) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      %S = gpuir.alloc : memref<2x64x64xf16, #gpuir.smem>
      %bar = gpuir.alloc : !gpuir.barrier<mbarrier [2]>
      %Sk = gpuir.window %S[%task mod 2, 0 : 64, 0 : 64] : memref<2x64x64xf16, #gpuir.smem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
      gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        %Gk = gpuir.window %G[%task, 0 : 64, 0 : 64] : memref<?x64x64xf16, #gpuir.gmem> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.gmem>
        rtest.example_tma_multicast %Gk, %Sk >> %bar[%task mod 2] : memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.gmem>, memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>, !gpuir.barrier<mbarrier [2]>
      }
      gpuir.await %bar[%task mod 2], wgmma_async : !gpuir.barrier<mbarrier [2]>
      gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        %v = gpuir.read %c[1] : memref<2xf16, #gpuir.grid_constant>
        gpuir.reduce %v, %Sk[3, 5] : memref<64x64xf16, strided<[64, 1], offset: ?>, #gpuir.smem>
      }
    }
  }
}

// -----

// Warps regions are guards with a slice of the CTA's threads; an if is a
// guard with an else; CPU accesses are on cpu_in_order.
// CHECK-LABEL: amir.proc @specialized.amir(%n: index)
// CHECK: amir.check_mutates %{{.*}}[0] on cpu_in_order : !amir.data
// CHECK: amir.guard threads(#amir.domain<[128]>) {
// CHECK: amir.guard threads(#amir.slice<dim = 0, lo = 32, hi = 128>) {
// CHECK: amir.guard (%task < 1) {
// CHECK: } else {
gpuir.proc @specialized(%n: index, %h: memref<4xf32, #gpuir.host>) {
  %v = gpuir.read %h[1] : memref<4xf32, #gpuir.host>
  gpuir.write %v, %h[0] : memref<4xf32, #gpuir.host>
  gpuir.device_function warps(producer = 1, consumer = 3) {
    gpuir.for %task = 0 to %n : cuda_tasks {
      gpuir.warps "consumer" {
        gpuir.if %task < 1 {
          gpuir.fence cuda_in_order -> cuda_in_order
        } else {
          gpuir.fence cuda_in_order -> cuda_in_order
        }
      }
    }
  }
}
