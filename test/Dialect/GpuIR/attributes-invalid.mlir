// RUN: rake-opt %s -split-input-file -verify-diagnostics

// Malformed GpuIR attributes and types: each is a diagnostic at its
// location, never a crash.

// expected-error @+1 {{collective type needs at least one dimension}}
gpuir.proc @a() attributes {x = #gpuir.coll<domain [] box []>} {}

// -----

// expected-error @+1 {{collective type has a domain of 2 dimensions but a box of 1; they must have the same number}}
gpuir.proc @a() attributes {x = #gpuir.coll<domain [clusterDim, blockDim] box [1]>} {}

// -----

// expected-error @+1 {{'*' is allowed in a collective type's box, not its domain}}
gpuir.proc @a() attributes {x = #gpuir.coll<domain [*] box [1]>} {}

// -----

// expected-error @+1 {{collective sizes are positive}}
gpuir.proc @a() attributes {x = #gpuir.coll<domain [0] box [1]>} {}

// -----

// expected-error @+1 {{unknown collective size 'gridDim'; expected an integer, 'blockDim' or 'clusterDim'}}
gpuir.proc @a() attributes {x = #gpuir.coll<domain [gridDim] box [1]>} {}

// -----

// expected-error @+1 {{collective size divisor must be positive}}
gpuir.proc @a() attributes {x = #gpuir.coll<domain [blockDim / 0] box [1]>} {}

// -----

// expected-error @+1 {{unknown collective unit 'block'; expected thread, quadpair, warp, warpgroup, cta_in_cluster (or cta), cluster, warp_in_cluster, cta_in_cluster_strided(n) or warp_in_cluster_strided(n)}}
gpuir.proc @a() attributes {x = #gpuir.unit<block>} {}

// -----

// expected-error @+1 {{collective unit scale must be positive, found 0}}
gpuir.proc @a() attributes {x = #gpuir.unit<0 x warp>} {}

// -----

// expected-error @+1 {{quadpair cannot be scaled}}
gpuir.proc @a() attributes {x = #gpuir.unit<2 x quadpair>} {}

// -----

// expected-error @+1 {{cta_in_cluster_strided needs a positive CTA stride, found 0}}
gpuir.proc @a() attributes {x = #gpuir.unit<cta_in_cluster_strided(0)>} {}

// -----

// expected-error @+1 {{shared-memory swizzle must be 32, 64 or 128 bytes, found 48}}
gpuir.proc @a() attributes {x = #gpuir.smem_swizzled<48>} {}

// -----

// expected-error @+1 {{barrier array dimensions must be positive, found 0}}
gpuir.proc @a() attributes {x = !gpuir.barrier<mbarrier [0]>} {}

// -----

// expected-error @+2 {{expected one of [mbarrier, mbarrier_prearrive, cluster_sync, cp_async_group, tma_store_group, wgmma_group] for barrier completion mechanism, got: named_barrier}}
// expected-error @+1 {{failed to parse GpuIR_BarrierType parameter 'mechanism'}}
gpuir.proc @a() attributes {x = !gpuir.barrier<named_barrier>} {}

// -----

// expected-error @+2 {{expected ::mlir::rake::gpuir::QualTimeline to be one of: none, cpu_in_order, cpu_cuda_stream, cuda_in_order_rmem, cuda_in_order_ram, Sm80_cp_async, tma_to_smem_async, tma_to_gmem_async, wgmma_async_rmem_a, wgmma_async_rmem_d, wgmma_async_smem, wgmma_zero}}
// expected-error @+1 {{failed to parse GpuIR_QualTimelineAttr parameter 'value'}}
gpuir.proc @a() attributes {x = #gpuir.quals<cuda_everything>} {}

// -----

// expected-error @+2 {{expected ::mlir::rake::gpuir::SyncTimeline to be one of: empty, cpu_in_order, cuda_stream_sync, cuda_in_order, cuda_temporal, Sm80_cp_async, Sm80_generic, tma_to_smem_async, tma_to_gmem_async, wgmma_async_smem, wgmma_fence_1, wgmma_fence_2, wgmma_async, cuda_async_proxy, cuda_async_proxy_wgmma, cuda_generic_and_async_proxy}}
// expected-error @+1 {{failed to parse GpuIR_SyncTimelineAttr parameter 'value'}}
gpuir.proc @a() attributes {x = #gpuir.sync<cuda_everything>} {}

// -----

gpuir.proc @a(%n: index) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to %n : cuda_tasks {
      // expected-error @+1 {{unknown collective unit 'warps'}}
      gpuir.for %w = 0 to 1 : cuda_threads<#gpuir.unit<warps>> {
      }
    }
  }
}

// -----

gpuir.proc @a(%x: memref<4xf32, #gpuir.host>) {
  // expected-error @+1 {{invalid SSA name}}
  %v = gpuir.read %x[%] : memref<4xf32, #gpuir.host>
}

// -----

gpuir.proc @a(%x: memref<4xf32, #gpuir.host>) {
  // expected-error @+1 {{use of undeclared SSA value name}}
  %v = gpuir.read %x[%i] : memref<4xf32, #gpuir.host>
}

// -----

gpuir.proc @a(%x: memref<4xf32, #gpuir.host>, %i: index) {
  // expected-error @+1 {{non-affine expression: at least one of the multiply operands has to be either a constant or symbolic}}
  %v = gpuir.read %x[%i * %i] : memref<4xf32, #gpuir.host>
}

// -----

// expected-error @+1 {{expected the dimension as dN, e.g. d0}}
gpuir.proc @a() attributes {x = #gpuir.tile<0: x1 3 x 128>} {}

// -----

// expected-error @+1 {{expected step, offset, div or mod}}
gpuir.proc @a() attributes {x = #gpuir.tile<0: d1 3 x 128, stride 2>} {}

// -----

// expected-error @+1 {{expected d1: the owner is a sum over the distributed dimensions d0, d1, ... in order, each times its thread pitch}}
gpuir.proc @a() attributes {x = #gpuir.sharding<owner = d0 * 64 + d2>} {}

// -----

// expected-error @+1 {{expected d0: the owner is a sum over the distributed dimensions d0, d1, ... in order, each times its thread pitch}}
gpuir.proc @a() attributes {x = #gpuir.sharding<owner = t0 * 64>} {}

// -----

// expected-error @+1 {{expected d0: the owner is a sum over the distributed dimensions d0, d1, ... in order, each times its thread pitch}}
gpuir.proc @a() attributes {x = #gpuir.sharding<owner = 256 * d0>} {}

// -----

// expected-error @+1 {{expected d1: the owner is a sum over the distributed dimensions d0, d1, ... in order, each times its thread pitch}}
gpuir.proc @a() attributes {x = #gpuir.sharding<owner = d0 * 256 + d01>} {}

// -----

// expected-error @+1 {{expected 'whole', 'owner = d0 * PITCH + ...' or a list of pitches}}
gpuir.proc @a() attributes {x = #gpuir.sharding<all>} {}
