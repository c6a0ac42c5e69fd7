//===- SyncTimelines.cpp - the sync timeline table ------------------------===//
//
// Each sync timeline is defined once here, as data: the qualitative timelines
// whose accesses it orders and makes visible (full), those it only orders in
// time (temporal, which includes full), and whether it is transitive.
//
//===----------------------------------------------------------------------===//

#include "Rake/Dialect/GpuIR/IR/GpuIR.h"

using namespace mlir;
using namespace mlir::rake::gpuir;

namespace {
using Q = QualTimeline;

// The groups are named in GpuIR.h (qual_groups).
constexpr Q cudaInOrder = qual_groups::kCudaInOrder;
constexpr Q wgmmaRmem = qual_groups::kWgmmaRmem;
constexpr Q wgmmaAll = qual_groups::kWgmmaAll;
constexpr Q asyncProxy = qual_groups::kAsyncProxy;
constexpr Q cudaDevice = qual_groups::kCudaDevice;

struct Entry {
  SyncTimeline tl;
  SyncTimelineInfo info;
};

// The temporal set always contains the full set.
constexpr Entry makeEntry(SyncTimeline tl, Q full, Q temporalOnly,
                          bool transitive) {
  return {tl, {full, full | temporalOnly, transitive}};
}

const Entry kTable[] = {
    makeEntry(SyncTimeline::empty, Q::none, Q::none, false),
    makeEntry(SyncTimeline::cpu_in_order, Q::cpu_in_order, Q::none, true),
    makeEntry(SyncTimeline::cuda_stream_sync, cudaDevice, Q::none, true),
    makeEntry(SyncTimeline::cuda_in_order, cudaInOrder, cudaDevice, true),
    makeEntry(SyncTimeline::cuda_temporal, Q::none, cudaDevice, false),
    makeEntry(SyncTimeline::Sm80_cp_async, Q::Sm80_cp_async, Q::none, false),
    makeEntry(SyncTimeline::Sm80_generic, cudaInOrder | Q::Sm80_cp_async,
              cudaDevice, false),
    makeEntry(SyncTimeline::tma_to_smem_async, Q::tma_to_smem_async, Q::none,
              false),
    makeEntry(SyncTimeline::tma_to_gmem_async, Q::tma_to_gmem_async, Q::none,
              false),
    makeEntry(SyncTimeline::wgmma_async_smem, Q::wgmma_async_smem, Q::none,
              false),
    makeEntry(SyncTimeline::wgmma_fence_1, Q::cuda_in_order_rmem | wgmmaRmem,
              Q::none, false),
    makeEntry(SyncTimeline::wgmma_fence_2, wgmmaRmem, Q::none, false),
    makeEntry(SyncTimeline::wgmma_async, wgmmaAll, Q::none, false),
    makeEntry(SyncTimeline::cuda_async_proxy, asyncProxy, Q::none, false),
    makeEntry(SyncTimeline::cuda_async_proxy_wgmma, asyncProxy | wgmmaRmem,
              Q::none, false),
    makeEntry(SyncTimeline::cuda_generic_and_async_proxy,
              cudaInOrder | Q::Sm80_cp_async | asyncProxy, cudaDevice, false),
};
} // namespace

const SyncTimelineInfo &mlir::rake::gpuir::getSyncTimelineInfo(SyncTimeline tl) {
  for (const Entry &e : kTable)
    if (e.tl == tl)
      return e.info;
  llvm_unreachable("every sync timeline has a table entry");
}
