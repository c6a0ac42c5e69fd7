// RUN: rake-opt %s | FileCheck %s
// RUN: rake-opt %s | rake-opt | FileCheck %s

// Every GpuIR attribute and type in its textual form.

// CHECK-LABEL: gpuir.proc @attributes
gpuir.proc @attributes() attributes {
  // CHECK-SAME: a00_quals_none = #gpuir.quals<none>
  a00_quals_none = #gpuir.quals<none>,
  // CHECK-SAME: a01_quals_set = #gpuir.quals<cuda_in_order_rmem | cuda_in_order_ram | wgmma_async_smem>
  a01_quals_set = #gpuir.quals<wgmma_async_smem | cuda_in_order_ram | cuda_in_order_rmem>,
  // CHECK-SAME: a02_quals_all = #gpuir.quals<cpu_in_order | cpu_cuda_stream | cuda_in_order_rmem | cuda_in_order_ram | Sm80_cp_async | tma_to_smem_async | tma_to_gmem_async | wgmma_async_rmem_a | wgmma_async_rmem_d | wgmma_async_smem | wgmma_zero>
  a02_quals_all = #gpuir.quals<cpu_in_order | cpu_cuda_stream | cuda_in_order_rmem | cuda_in_order_ram | Sm80_cp_async | tma_to_smem_async | tma_to_gmem_async | wgmma_async_rmem_a | wgmma_async_rmem_d | wgmma_async_smem | wgmma_zero>,
  // CHECK-SAME: a03_sync = #gpuir.sync<cuda_generic_and_async_proxy>
  a03_sync = #gpuir.sync<cuda_generic_and_async_proxy>,
  // CHECK-SAME: a04_mode = #gpuir.loop_mode<cuda_threads>
  a04_mode = #gpuir.loop_mode<cuda_threads>,
  // CHECK-SAME: a05_mechanism = #gpuir.mechanism<mbarrier_prearrive>
  a05_mechanism = #gpuir.mechanism<mbarrier_prearrive>,
  // CHECK-SAME: a06_coll = #gpuir.coll<domain [clusterDim, blockDim / 16, 16] box [1, 2, 4]>
  a06_coll = #gpuir.coll<domain [clusterDim, blockDim / 16, 16] box [1, 2, 4]>,
  // CHECK-SAME: a07_coll_any = #gpuir.coll<domain [clusterDim * blockDim] box [*]>
  a07_coll_any = #gpuir.coll<domain [blockDim * clusterDim] box [*]>,
  // CHECK-SAME: a08_coll_frac = #gpuir.coll<domain [clusterDim / 2, 2, blockDim] box [1, 1, 32]>
  a08_coll_frac = #gpuir.coll<domain [clusterDim / 2, 2, blockDim] box [1, 1, 32]>,
  // CHECK-SAME: a09_coll_norm = #gpuir.coll<domain [blockDim / 2] box [3]>
  a09_coll_norm = #gpuir.coll<domain [blockDim * 2 / 4] box [3]>,
  // CHECK-SAME: a10_u0 = #gpuir.unit<thread>
  a10_u0 = #gpuir.unit<thread>,
  // CHECK-SAME: a11_u1 = #gpuir.unit<quadpair>
  a11_u1 = #gpuir.unit<quadpair>,
  // CHECK-SAME: a12_u2 = #gpuir.unit<warp>
  a12_u2 = #gpuir.unit<warp>,
  // CHECK-SAME: a13_u3 = #gpuir.unit<warpgroup>
  a13_u3 = #gpuir.unit<warpgroup>,
  // CHECK-SAME: a14_u4 = #gpuir.unit<cta_in_cluster>
  a14_u4 = #gpuir.unit<cta_in_cluster>,
  // CHECK-SAME: a15_u5 = #gpuir.unit<cluster>
  a15_u5 = #gpuir.unit<cluster>,
  // CHECK-SAME: a16_u6 = #gpuir.unit<warp_in_cluster>
  a16_u6 = #gpuir.unit<warp_in_cluster>,
  // CHECK-SAME: a17_u7 = #gpuir.unit<cta_in_cluster_strided(2)>
  a17_u7 = #gpuir.unit<cta_in_cluster_strided(2)>,
  // CHECK-SAME: a18_u8 = #gpuir.unit<warp_in_cluster_strided(4)>
  a18_u8 = #gpuir.unit<warp_in_cluster_strided(4)>,
  // CHECK-SAME: a19_u9 = #gpuir.unit<8 x thread>
  a19_u9 = #gpuir.unit<8 x thread>,
  // CHECK-SAME: a20_u10 = #gpuir.unit<2 x warpgroup>
  a20_u10 = #gpuir.unit<2 x warpgroup>,
  // CHECK-SAME: a21_u11 = #gpuir.unit<thread>
  a21_u11 = #gpuir.unit<1 x thread>,
  // CHECK-SAME: a22_tile = #gpuir.tile<0: d1 3 x 128>
  a22_tile = #gpuir.tile<level = 0, dim = 1, offset = 0, step = 128, box = 128, count = 3>,
  // CHECK-SAME: a23_tiling = #gpuir.tiling<domain [2, 384] ops [<0: d1 3 x 128>]>
  a23_tiling = #gpuir.tiling<domain [2, 384] ops [#gpuir.tile<level = 0, dim = 1, offset = 0, step = 128, box = 128, count = 3>]>,
  // The compact form reads back; what differs from the defaults is named.
  // CHECK-SAME: a23b_compact = #gpuir.tiling<domain [2, 384] ops [<0: d1 3 x 128>, <1: d1 32 x 1, step 2, offset 32, div 2, mod 4>]>
  a23b_compact = #gpuir.tiling<domain [2, 384] ops [<0: d1 3 x 128>, <1: d1 32 x 1, mod 4, div 2, offset 32, step 2>]>,
  // CHECK-SAME: a24_tiling_root = #gpuir.tiling<domain [256]>
  a24_tiling_root = #gpuir.tiling<domain [256]>,
  // CHECK-SAME: a24b_sharding = #gpuir.sharding<owner = d0 * 64 + d1 * 32 + d2>
  a24b_sharding = #gpuir.sharding<owner = d0 * 64 + d1 * 32 + d2>,
  // CHECK-SAME: a24c_sharding_pitches = #gpuir.sharding<owner = d0 * 256 + d1>
  a24c_sharding_pitches = #gpuir.sharding<[256, 1]>,
  // CHECK-SAME: a24d_sharding_whole = #gpuir.sharding<whole>
  a24d_sharding_whole = #gpuir.sharding<whole>,
  // CHECK-SAME: a24e_sharding_empty = #gpuir.sharding<whole>
  a24e_sharding_empty = #gpuir.sharding<[]>,
  // CHECK-SAME: a25_m0 = #gpuir.host, a26_m1 = #gpuir.gmem, a27_m2 = #gpuir.gmem_atomic16, a28_m3 = #gpuir.smem, a29_m4 = #gpuir.smem_atomic16, a30_m5 = #gpuir.smem_swizzled<64>, a31_m6 = #gpuir.rmem, a32_m7 = #gpuir.urmem, a33_m8 = #gpuir.grid_constant
  a25_m0 = #gpuir.host, a26_m1 = #gpuir.gmem, a27_m2 = #gpuir.gmem_atomic16, a28_m3 = #gpuir.smem, a29_m4 = #gpuir.smem_atomic16,
  a30_m5 = #gpuir.smem_swizzled<64>, a31_m6 = #gpuir.rmem, a32_m7 = #gpuir.urmem, a33_m8 = #gpuir.grid_constant,
  // CHECK-SAME: a34_wg0 = #gpuir.warp_group<"producer" = 1 dec(40)>
  a34_wg0 = #gpuir.warp_group<"producer" = 1 dec(40)>,
  // CHECK-SAME: a35_wg1 = #gpuir.warp_group<"consumer" = 8 inc(232)>
  a35_wg1 = #gpuir.warp_group<"consumer" = 8 inc(232)>,
  // CHECK-SAME: a36_wg2 = #gpuir.warp_group<"idle" = 2>
  a36_wg2 = #gpuir.warp_group<"idle" = 2>,
  // CHECK-SAME: a37_t0 = !gpuir.barrier<mbarrier [2, 4]>
  a37_t0 = !gpuir.barrier<mbarrier [2, 4]>,
  // CHECK-SAME: a38_t1 = !gpuir.barrier<mbarrier_prearrive [4]>
  a38_t1 = !gpuir.barrier<mbarrier_prearrive [4]>,
  // CHECK-SAME: a39_t2 = !gpuir.barrier<cluster_sync>
  a39_t2 = !gpuir.barrier<cluster_sync>,
  // CHECK-SAME: a40_t3 = !gpuir.barrier<cp_async_group>
  a40_t3 = !gpuir.barrier<cp_async_group>,
  // CHECK-SAME: a41_t4 = !gpuir.barrier<tma_store_group>
  a41_t4 = !gpuir.barrier<tma_store_group>,
  // CHECK-SAME: a42_t5 = !gpuir.barrier<wgmma_group>
  a42_t5 = !gpuir.barrier<wgmma_group>
} {
}
