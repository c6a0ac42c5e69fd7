//===- DeviceLowering.h - GpuIR device code to GPU kernels ----------------===//
//
// The lowering of a GpuIR procedure whose body is a device function to a
// gpu.func kernel (private to the GpuIRToNVVM library). Its member functions
// are defined by concern: DeviceLowering.cpp (the kernel, warp paths, the
// task nest and loops), DevicePatterns.cpp (the leaf statements' conversion
// patterns), DeviceMemory.cpp (shared and register memory, TMA) and
// DeviceBarriers.cpp (mbarriers, arrives, awaits, commit groups and
// fences).
//
//===----------------------------------------------------------------------===//

#ifndef RAKE_LIB_CONVERSION_GPUIRTONVVM_DEVICELOWERING_H
#define RAKE_LIB_CONVERSION_GPUIRTONVVM_DEVICELOWERING_H

#include "Rake/Analysis/CollectiveAnalysis.h"
#include "Rake/Analysis/DistributedMemory.h"
#include "Rake/Analysis/KernelABI.h"
#include "Rake/Dialect/GpuIR/IR/GpuIR.h"
#include "Rake/Dialect/GpuIR/Instrs/Sm90a.h"
#include "Rake/Conversion/Common/SequentialLowering.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

#include <map>

namespace mlir::rake::nvvm_detail {

using namespace mlir::rake::gpuir;

inline bool isInOrder(SyncTimeline t) {
  return t == SyncTimeline::cuda_in_order;
}

class DeviceLowering : public Lowering, public DeviceKernel {
public:
  DeviceLowering(OpBuilder &b, const CollectiveAnalysis &coll,
                 const DistributedMemoryAnalysis &dist, StringRef chip)
      : Lowering(b), coll(coll), dist(dist), chip(chip.str()) {}

  LogicalResult lowerProc(ProcOp proc, gpu::GPUModuleOp gpuModule);

private:
  /// An mbarrier array of the CTA: its barriers in shared memory, and the
  /// register holding, per element, the parity of the phase this thread
  /// waits for next.
  struct MBarrier {
    Value group;
    Value parity;
    /// The shape of one CTA's part (the dimensions over the CTAs of the
    /// cluster dropped: each CTA holds its own barriers, at the same
    /// offsets, so that a multicast signals each destination's own).
    SmallVector<int64_t> shape;
    /// How many leading dimensions of the array are over CTAs.
    unsigned ctaDims = 0;
    /// Every arrive on it comes from whole warps in step: lane 0 of each
    /// warp arrives for the warp (the count is in warps).
    bool perWarp = false;
  };

  /// Frees at block ends are implicit on the device.
  LogicalResult lowerBlock(Block &block) override {
    for (Operation &op : block)
      if (failed(lowerOp(&op)))
        return failure();
    return success();
  }

  // What the structural statements mean on the device (the StmtVisitor
  // handlers the sequential lowering's are replaced by); the rest lower as
  // there.
  using Lowering::visitStmt;
  LogicalResult visitStmt(ForOp loop) override;
  LogicalResult visitStmt(AllocOp alloc) override;
  LogicalResult visitStmt(FreeOp freeOp) override;
  LogicalResult visitScope(Operation *op, Block &body) override;

  // The leaf statements: the shared access patterns and the device's own
  // (DevicePatterns.cpp), which call the handlers below.
  void populateLeafPatterns(RewritePatternSet &patterns) override;
  template <typename> friend struct DeviceSyncPattern;
  friend struct DeviceWindowPattern;
  friend struct DeviceInstrPattern;
  LogicalResult checkAccess(Operation *op, Value buffer) override {
    return checkNotSwizzled(op, buffer);
  }
  LogicalResult lowerInstr(InstrOpInterface instr);
  LogicalResult lowerSync(FenceOp fence) { return lowerFence(fence); }
  LogicalResult lowerSync(ArriveOp arrive) { return lowerArrive(arrive); }
  LogicalResult lowerSync(AwaitOp await) { return lowerAwait(await); }

  // The kernel's structure and loops (DeviceLowering.cpp).
  LogicalResult lowerPaths(DeviceFunctionOp device);
  LogicalResult lowerWarps(WarpsOp warps);
  LogicalResult lowerDevice(DeviceFunctionOp device);
  LogicalResult lowerSeqLoop(ForOp loop);
  static bool indexesRegisters(ForOp loop);
  LogicalResult lowerThreadLoop(ForOp loop);
  FailureOr<Value> boxStartOf(const CollDim &dim, Operation *op);

  // The kernel state instructions ask for (DeviceKernel; DeviceMemory.cpp).
  Value getThreadId() override { return threadId; }
  StringRef getChip() override { return chip; }
  Value getControlValueI32(Location loc, AffineExpr e, unsigned numDims,
                           ValueRange operands) override;
  FailureOr<Completion> expectBytes(Operation *instr, int64_t bytes,
                                    Value dst) override;
  Value getBarrierAddress(Operation *instr, const Completion &c) override;
  FailureOr<Value> getTensorMap(Operation *instr) override;

  // Memory (DeviceMemory.cpp).
  LogicalResult checkNotSwizzled(Operation *op, Value buffer);
  SmallVector<Value> accessIndices(Value buffer, AffineMap m,
                                   ValueRange operands, Location loc) override;
  LogicalResult lowerLocalWindow(WindowOp window);
  LogicalResult lowerAlloc(AllocOp alloc);

  // Synchronization (DeviceBarriers.cpp).
  LogicalResult prepareBarriers(DeviceFunctionOp device);
  struct BarrierElements {
    /// This CTA's element (row-major over the dimensions after the CTAs').
    Value element;
    /// The CTAs named (a range of ranks, for a multicast), or none: the
    /// thread's own CTA.
    Value firstCta;
    int64_t numCtas = 0;
  };
  FailureOr<BarrierElements> mbarrierElements(Operation *op,
                                              const MBarrier &bar, AffineMap m,
                                              ValueRange operands,
                                              ArrayRef<bool> intervals);
  Value mbarrierPointer(const MBarrier &bar, Value element, Location loc);
  Value remoteMbarrier(const MBarrier &bar, Value element, Value cta,
                       Location loc);
  LogicalResult lowerArrive(ArriveOp arrive);
  void proxyFence(Location loc);
  void fenceForAsyncAwaiters(ArriveOp arrive);
  static bool awaitedByAsyncProxy(Value barrier);
  LogicalResult checkWholeCluster(Operation *op);
  LogicalResult lowerAwait(AwaitOp await);
  LogicalResult lowerFence(FenceOp fence);
  void ctaBarrier(Location loc);
  void clusterBarrier(Location loc);
  static bool isAlignedBlock(const CollTiling &tiling, int64_t n);

  static constexpr StringLiteral kUnroll = "rake.unroll";
  /// Loops over registers up to this trip count are unrolled: a thread has
  /// at most 255 registers, so a loop over more elements than that cannot
  /// keep them in registers anyway (a wgmma.m64n256 accumulator is 128).
  static constexpr int64_t kMaxUnroll = 256;

  const CollectiveAnalysis &coll;
  const DistributedMemoryAnalysis &dist;
  /// The SM the kernel is compiled for.
  std::string chip;
  /// How many leading dimensions of a register buffer (or window of one)
  /// are distributed over threads, and so absent from each thread's part.
  DenseMap<Value, unsigned> distributedDims;
  int64_t blockDim = 0;
  gpu::GPUFuncOp kernel;
  SharedMemoryLayout sharedLayout;
  /// The warp group whose code path is being built (empty without warp
  /// specialization).
  StringRef currentGroup;
  /// The first named-barrier id of each group size of the device function,
  /// and the next free id.
  std::map<int64_t, int64_t> namedBarrierBase;
  int64_t nextNamedBarrier = 1;
  /// The registers a thread has (PTX: at most 255 per thread).
  static constexpr int64_t kMaxRegistersPerThread = 255;
  /// The mbarrier arrays, by their gpuir.alloc.
  DenseMap<Value, MBarrier> mbarriers;
  /// Each thread's part of the register buffers that instructions write
  /// asynchronously (wgmma accumulators), fenced after each wait.
  llvm::SetVector<Value> asyncRegisters;
  void noteAsyncRegisters(InstrOpInterface instr);
  bool arrivesByWholeWarps(ArriveOp arrive);
  /// The shared buffers (their allocations) and buffer parameters that
  /// some thread writes through the generic proxy (a write, a reduction,
  /// or an instruction other than a TMA copy).
  llvm::SmallPtrSet<Value, 8> genericWrites;
  /// The buffer parameters that some thread writes through the async proxy
  /// (TMA stores).
  llvm::SmallPtrSet<Value, 8> asyncGlobalWrites;
  /// Whether a TMA copy accesses a buffer parameter that the generic proxy
  /// writes: proxy fences then cover global memory too.
  bool asyncGlobalAfterGeneric = false;
  /// Whether a TMA copy writes shared bytes that a buffer of another
  /// lifetime (the CTA's previous task, a sibling block) may have written
  /// through the generic proxy: the check orders such reuse in time only
  /// (a barrier), which does not order accesses of different proxies, so
  /// every in-order fence, in-order arrive and task-end barrier is then
  /// preceded by fence.proxy.async.
  bool asyncWritesReuseGeneric = false;
  void collectGenericWrites(DeviceFunctionOp device);
  bool mayAlias(Value a, Value b);
  bool acquiresAtClusterScope(Value barrier);
  /// Whether the threads that await `barrier` may access, after the await,
  /// a buffer (or shared bytes) some thread writes through the generic proxy (with
  /// `asyncOnly`, through the async proxy): only then must an arrive on it
  /// publish such writes (fence.proxy.async, a cluster-scope release).
  bool awaitersTouchGenericWrites(Value barrier, bool asyncOnly);
  /// Whether `pred` holds for some op run by the threads that await
  /// `barrier`.
  bool anyAwaitingOp(Value barrier, function_ref<bool(Operation *)> pred);
  /// Whether an arrive on another CTA's `barrier` releases at cluster scope.
  bool remoteReleaseAtClusterScope(Value barrier);
  void fenceAsyncRegisters(Location loc);
  /// The tensor maps of the kernel's TMA copies; their addresses are the
  /// kernel's last parameters.
  KernelTensorMaps tensorMaps;
  /// The dynamic shared memory (null when the kernel has no shared buffer).
  Value sharedBase;
  /// The thread's index in its cluster (what the collective tilings
  /// number) and in its CTA.
  Value threadId;
  Value ctaThreadId;
  int64_t clusterSize = 1;
  /// The start of the current box of threads in each tiled dimension of the
  /// thread domain, by (pitch, extent).
  std::map<std::pair<int64_t, int64_t>, Value> boxStarts;
  bool usesSharedMemory = false;
};

} // namespace mlir::rake::nvvm_detail

#endif // RAKE_LIB_CONVERSION_GPUIRTONVVM_DEVICELOWERING_H
