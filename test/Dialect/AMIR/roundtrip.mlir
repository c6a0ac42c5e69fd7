// RUN: rake-opt %s | FileCheck %s
// RUN: rake-opt %s | rake-opt | FileCheck %s
// RUN: rake-opt -mlir-print-op-generic %s | rake-opt | FileCheck %s

// Every AMIR operation, attribute and type in its textual form: the shape of
// the reverse-tiles kernel after conversion to the abstract machine.

// CHECK-LABEL: amir.proc @reverse_tiles(%{{.*}}: index)
amir.proc @reverse_tiles(%n: index) {
  // CHECK: %[[A:.*]] = amir.alloc "A" [] : !amir.data
  %A = amir.alloc "A" [] : !amir.data
  // CHECK: amir.fence pre(cpu_in_order) full(cpu_in_order | cuda_in_order_rmem | cuda_in_order_ram) temporal(cpu_in_order | cuda_in_order_rmem | cuda_in_order_ram) transitive
  amir.fence pre(cpu_in_order) full(cpu_in_order | cuda_in_order_rmem | cuda_in_order_ram) temporal(cpu_in_order | cuda_in_order_rmem | cuda_in_order_ram) transitive
  // CHECK: amir.guard threads(#amir.domain<[256]>) {
  amir.guard threads(#amir.domain<[256]>) {
    // CHECK: amir.loop %[[T:.*]] = 0 to %{{.*}} ceildiv 256 tasks {
    amir.loop %task = 0 to %n ceildiv 256 tasks {
      // CHECK: %[[TILE:.*]] = amir.alloc "tile" [256] shared : !amir.data
      %tile = amir.alloc "tile" [256] shared : !amir.data
      // CHECK: %[[BAR:.*]] = amir.alloc "bar" [4] : !amir.barrier<mbarrier>
      %bar = amir.alloc "bar" [4] : !amir.barrier<mbarrier>
      // CHECK: amir.loop %[[I:.*]] = 0 to 256 threads(#amir.tile<dim = 0, offset = 0, step = 1, box = 1>) {
      amir.loop %t = 0 to 256 threads(#amir.tile<dim = 0, offset = 0, step = 1, box = 1>) {
        // CHECK: amir.check_reads %[[A]][%[[T]] * 256 + %[[I]]] on cuda_in_order_ram : !amir.data
        amir.check_reads %A[%task * 256 + %t] on cuda_in_order_ram : !amir.data
        // CHECK: amir.record_read %[[A]][%[[T]] * 256 + %[[I]]] on cuda_in_order_ram : !amir.data
        amir.record_read %A[%task * 256 + %t] on cuda_in_order_ram : !amir.data
        // CHECK: amir.check_mutates %[[TILE]][%[[I]]] on cuda_in_order_ram : !amir.data
        amir.check_mutates %tile[%t] on cuda_in_order_ram : !amir.data
        // CHECK: amir.record_mutate %[[TILE]][%[[I]]] on cuda_in_order_ram : !amir.data
        amir.record_mutate %tile[%t] on cuda_in_order_ram : !amir.data
        // CHECK: amir.check_reads %[[TILE]][0 : 256] on cuda_in_order_ram at atomic_only : !amir.data
        amir.check_reads %tile[0 : 256] on cuda_in_order_ram at atomic_only : !amir.data
        // CHECK: amir.check_mutates %[[TILE]][0 : 256] on cuda_in_order_ram at fully_ordered : !amir.data
        amir.check_mutates %tile[0 : 256] on cuda_in_order_ram at fully_ordered : !amir.data
      }
      // CHECK: amir.arrive %[[BAR]][%[[T]] mod 4] pre(cuda_in_order_rmem | cuda_in_order_ram) on cuda_in_order_ram transitive : !amir.barrier<mbarrier>
      amir.arrive %bar[%task mod 4] pre(cuda_in_order_rmem | cuda_in_order_ram) on cuda_in_order_ram transitive : !amir.barrier<mbarrier>
      // CHECK: amir.await %[[BAR]][%[[T]] mod 4] full(cuda_in_order_rmem | cuda_in_order_ram) temporal(cuda_in_order_ram) lag(1) : !amir.barrier<mbarrier>
      amir.await %bar[%task mod 4] full(cuda_in_order_rmem | cuda_in_order_ram) temporal(cuda_in_order_ram) lag(1) : !amir.barrier<mbarrier>
      // CHECK: amir.guard (%[[T]] < 4 and %[[T]] >= 1) threads(#amir.slice<dim = 0, lo = 0, hi = 128>) {
      amir.guard (%task < 4 and %task >= 1) threads(#amir.slice<dim = 0, lo = 0, hi = 128>) {
        // CHECK: amir.fence pre(cuda_in_order_ram) full(cuda_in_order_ram) temporal(none)
        // CHECK-NOT: transitive
        amir.fence pre(cuda_in_order_ram) full(cuda_in_order_ram) temporal(none)
      }
      // CHECK: amir.guard (%[[T]] == 0) {
      // CHECK: } else {
      amir.guard (%task == 0) {
      } else {
        // CHECK: amir.loop %{{.*}} = 0 to 64 threads([#amir.tile<dim = 0, offset = 0, step = 1, box = 1, div = 32>, #amir.tile<dim = 1, offset = 0, step = 1, box = 1, mod = 32>]) {
        amir.loop %i = 0 to 64 threads([#amir.tile<dim = 0, offset = 0, step = 1, box = 1, div = 32>, #amir.tile<dim = 1, offset = 0, step = 1, box = 1, mod = 32>]) {
          // CHECK: amir.record_mutate %[[TILE]][0 : 64] on tma_to_smem_async out_of_order : !amir.data
          amir.record_mutate %tile[0 : 64] on tma_to_smem_async out_of_order : !amir.data
        }
      }
      %cg = amir.alloc "cg" [] : !amir.barrier<wgmma_group>
      // CHECK: amir.await %{{.*}} full(wgmma_async_rmem_d) temporal(wgmma_async_rmem_d) outstanding(0) : !amir.barrier<wgmma_group>
      amir.await %cg full(wgmma_async_rmem_d) temporal(wgmma_async_rmem_d) outstanding(0) : !amir.barrier<wgmma_group>
      // CHECK: amir.free %[[TILE]] : !amir.data
      amir.free %tile : !amir.data
      // CHECK: amir.free %[[BAR]] : !amir.barrier<mbarrier>
      amir.free %bar : !amir.barrier<mbarrier>
    }
  }
}

// CHECK-LABEL: amir.proc @attributes
// CHECK-SAME: v0 = #amir.visibility<invisible>, v1 = #amir.visibility<atomic_only>, v2 = #amir.visibility<unordered>, v3 = #amir.visibility<temporally_ordered>, v4 = #amir.visibility<fully_ordered>
amir.proc @attributes() attributes {
  v0 = #amir.visibility<invisible>, v1 = #amir.visibility<atomic_only>,
  v2 = #amir.visibility<unordered>, v3 = #amir.visibility<temporally_ordered>,
  v4 = #amir.visibility<fully_ordered>
} {
}
