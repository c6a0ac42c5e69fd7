//===- GpuIRToNVVM.cpp - GpuIR device functions to GPU kernels ------------===//
//
// A procedure whose body is a device function becomes a kernel in a
// gpu.module, from where MLIR's GPU and NVVM lowerings take it to PTX.
//
// - Persistent kernel: the host launches as many CTAs as fill the device
//   (SMs times blocks_per_sm, recorded on the kernel); the cuda_tasks nest
//   is walked in lexicographic order, CTA b taking tasks b, b + gridDim, ...
// - A cuda_threads loop becomes an index function of the thread's
//   coordinate in its scope's tiling (from the collective analysis), under a
//   guard that keeps the threads with no iteration out.
// - Shared memory: each allocation is a workgroup buffer of the kernel.
// - A fence on the in-order timelines is bar.sync over a CTA, bar.warp.sync
//   over a warp and a named barrier over an aligned group of warps.
// - Clusters, warp paths (one code path per path, setmaxnreg), split
//   barriers on mbarriers and commit groups, and the Sm80/Sm90a instructions
//   are lowered (docs/Codegen.md).
//
// What cannot be lowered (register buffers too large for registers, shared
// memory past the profile's limit, accesses proven out of bounds) is
// refused with a diagnostic at the op.
//
//===----------------------------------------------------------------------===//

#include "Rake/Analysis/CodegenFacts.h"
#include "Rake/Analysis/CollectiveAnalysis.h"
#include "Rake/Analysis/DistributedMemory.h"
#include "Rake/Analysis/KernelABI.h"
#include "Rake/Conversion/Passes.h"
#include "Rake/Dialect/GpuIR/IR/GpuIR.h"
#include "Rake/Dialect/GpuIR/Instrs/Sm90a.h"
#include "../GpuIRToCPU/SequentialLowering.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/NVGPUToNVVM/NVGPUToNVVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

#include <map>

namespace mlir::rake {
#define GEN_PASS_DEF_CONVERTGPUIRTONVVM
#include "Rake/Conversion/Passes.h.inc"
} // namespace mlir::rake

using namespace mlir;
using namespace mlir::rake;
using namespace mlir::rake::gpuir;

namespace {

bool isInOrder(SyncTimeline t) {
  return t == SyncTimeline::cuda_in_order;
}

class DeviceLowering : public Lowering {
public:
  DeviceLowering(OpBuilder &b, const CollectiveAnalysis &coll,
                 const DistributedMemoryAnalysis &dist)
      : Lowering(b), coll(coll), dist(dist) {}

  LogicalResult lowerProc(ProcOp proc, gpu::GPUModuleOp gpuModule) {
    Block &body = proc.getBody().front();
    if (failed(verifyOneDeviceFunction(proc)) ||
        failed(verifyStaticBounds(proc)))
      return failure();
    DeviceFunctionOp device;
    for (Operation &op : body) {
      if (auto d = dyn_cast<DeviceFunctionOp>(&op); d && !device) {
        device = d;
        continue;
      }
      return op.emitOpError()
             << "is CPU code beside the device function; only a procedure "
                "whose body is one device function is lowered to a kernel yet";
    }
    if (!device)
      return proc.emitOpError() << "has no device function to lower";
    blockDim = device.getBlockDim();
    clusterSize = device.getCluster();

    SmallVector<Type> inputs;
    for (auto [i, t] : llvm::enumerate(proc.getArgumentTypes())) {
      if (auto memref = dyn_cast<MemRefType>(t)) {
        if (!isa<GmemAttr, GmemAtomic16Attr>(memref.getMemorySpace()))
          return proc.emitOpError()
                 << "parameter #" << i << " is not in global memory; a "
                 << "kernel takes only global buffers and index values";
        inputs.push_back(cpuType(t));
        continue;
      }
      if (!t.isIntOrIndex())
        return proc.emitOpError()
               << "parameter #" << i << " of type " << t
               << " cannot be passed to a kernel yet";
      inputs.push_back(t);
    }
    // The tensor maps of its TMA copies follow, as generic addresses.
    FailureOr<KernelTensorMaps> maps = collectTensorMaps(device);
    if (failed(maps))
      return failure();
    tensorMaps = std::move(*maps);
    for (size_t i = 0; i < tensorMaps.maps.size(); ++i)
      inputs.push_back(LLVM::LLVMPointerType::get(b.getContext()));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(gpuModule.getBody());
    kernel = gpu::GPUFuncOp::create(b, proc.getLoc(), proc.getSymName(),
                                    b.getFunctionType(inputs, {}));
    kernel->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
    kernel.setKnownBlockSizeAttr(b.getDenseI32ArrayAttr(
        {static_cast<int32_t>(blockDim), 1, 1}));
    kernel->setAttr("rake.blocks_per_sm",
                    b.getI64IntegerAttr(device.getBlocksPerSm()));
    if (clusterSize > 1) {
      // Launched in clusters of clusterSize CTAs along x (.reqnctapercluster).
      kernel.setKnownClusterSizeAttr(b.getDenseI32ArrayAttr(
          {static_cast<int32_t>(clusterSize), 1, 1}));
      kernel->setAttr("rake.cluster", b.getI64IntegerAttr(clusterSize));
    }
    Block &entry = kernel.getBody().front();
    for (auto [from, to] : llvm::zip(body.getArguments(), entry.getArguments()))
      map.map(from, to);
    b.setInsertionPointToStart(&entry);
    Location loc = device.getLoc();
    // All shared buffers are views of the dynamic shared memory; the launch
    // passes rake.shared_bytes as its size.
    sharedLayout = layOutSharedMemory(device, dist);
    if (sharedLayout.bytes > kMaxSharedBytesPerCta)
      return device.emitOpError()
             << "needs " << sharedLayout.bytes
             << " bytes of shared memory per CTA for the buffers that are "
                "live at once; a CTA has at most "
             << kMaxSharedBytesPerCta
             << " (227 KiB on sm_90a): use fewer stages or smaller tiles";
    kernel->setAttr("rake.shared_bytes",
                    b.getI64IntegerAttr(sharedLayout.bytes));
    // The kernel's whole ABI, as rake-bundle, rake-run and the C API read it.
    if (FailureOr<KernelABI> abi = kernelABI(proc); succeeded(abi))
      kernel->setAttr(kKernelABIAttrName,
                      kernelABIToAttr(b.getContext(), *abi));
    // The dynamic shared memory's alignment, for the extern declaration
    // (the largest any kernel of the module needs).
    auto moduleAlign = gpuModule->getAttrOfType<IntegerAttr>(
        "rake.shared_alignment");
    if (!moduleAlign || moduleAlign.getInt() < sharedLayout.alignment)
      gpuModule->setAttr("rake.shared_alignment",
                         b.getI64IntegerAttr(sharedLayout.alignment));
    if (sharedLayout.bytes > 0)
      sharedBase = gpu::DynamicSharedMemoryOp::create(
          b, loc,
          MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                          MemRefLayoutAttrInterface(),
                          gpu::AddressSpaceAttr::get(
                              b.getContext(), gpu::AddressSpace::Workgroup)));
    // A thread's index in its CTA, and in its cluster (the collective
    // analysis numbers a cluster's threads CTA by CTA).
    // The tensor maps are in global memory, written by the launcher before
    // the launch and never modified on the device: TMA reads them as they
    // are (no tensor-map proxy fence, which PTX 8.0 lacks).
    ctaThreadId = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
    threadId = ctaThreadId;
    if (clusterSize > 1) {
      Value rank = arith::IndexCastOp::create(
          b, loc, b.getIndexType(),
          NVVM::ClusterId::create(b, loc, b.getI32Type()));
      threadId = arith::AddIOp::create(
          b, loc,
          arith::MulIOp::create(
              b, loc, rank, arith::ConstantIndexOp::create(b, loc, blockDim)),
          ctaThreadId);
    }
    if (failed(prepareBarriers(device)))
      return failure();
    namedBarrierBase.clear();
    nextNamedBarrier = 1;
    if (failed(lowerPaths(device)))
      return failure();
    gpu::ReturnOp::create(b, proc.getLoc());
    // Loops over registers run unrolled, so that every register index is a
    // constant and the buffers stay in registers; inner loops first.
    SmallVector<scf::ForOp> unroll;
    kernel.walk([&](scf::ForOp loop) {
      if (loop->hasAttr(kUnroll))
        unroll.push_back(loop);
    });
    for (scf::ForOp loop : unroll)
      if (failed(loopUnrollFull(loop)))
        return proc.emitOpError() << "could not unroll a loop over registers";
    return success();
  }

private:
  /// Warp specialization: one code path per named warp group, taken by the
  /// group's warps, which first set their register count (setmaxnreg); each
  /// path holds the whole task nest without the other groups' warps
  /// regions. Without warp groups, one path for every thread.
  LogicalResult lowerPaths(DeviceFunctionOp device) {
    auto groups = device.getWarpGroups();
    if (!groups)
      return lowerDevice(device);
    Location loc = device.getLoc();
    // setmaxnreg moves registers between the warps of a CTA: ptxas gives
    // each thread the count the launch bounds allow (maxntid x minnctapersm
    // CTAs share an SM's 65536 registers), and the groups' new counts must
    // fit in what the CTA holds, or an increase waits forever.
    int64_t entry = std::min<int64_t>(
        248, (65536 / (blockDim * device.getBlocksPerSm())) / 8 * 8);
    int64_t needed = 0;
    for (auto g : groups->getAsRange<WarpGroupAttr>())
      needed += g.getCount() * 32 *
                (g.getChange() == RegisterChange::none ? entry
                                                       : g.getRegisters());
    if (needed > blockDim * entry)
      return device.emitOpError()
             << "the warp groups' register counts need " << needed
             << " registers, but a CTA of " << blockDim << " threads at "
             << device.getBlocksPerSm() << " per SM holds " << blockDim * entry
             << " (" << entry << " a thread); setmaxnreg.inc would wait "
                "forever";
    kernel->setAttr("nvvm.minctasm",
                    b.getI32IntegerAttr(device.getBlocksPerSm()));
    int64_t first = 0;
    for (auto g : groups->getAsRange<WarpGroupAttr>()) {
      int64_t count = g.getCount();
      if (g.getChange() != RegisterChange::none &&
          (first % 4 != 0 || count % 4 != 0))
        return device.emitOpError()
               << "warp group '" << g.getName().getValue()
               << "' sets its register count, but setmaxnreg is executed by "
                  "whole warpgroups and the group's warps ["
               << first << ", " << first + count
               << ") are not whole aligned warpgroups";
      Value lo = arith::ConstantIndexOp::create(b, loc, first * 32);
      Value hi = arith::ConstantIndexOp::create(b, loc, (first + count) * 32);
      Value in = arith::AndIOp::create(
          b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                ctaThreadId, lo),
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                ctaThreadId, hi));
      auto path = scf::IfOp::create(b, loc, in, /*withElse=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(path.thenBlock()->getTerminator());
      if (g.getChange() != RegisterChange::none)
        NVVM::SetMaxRegisterOp::create(
            b, loc, static_cast<int32_t>(g.getRegisters()),
            g.getChange() == RegisterChange::inc
                ? NVVM::SetMaxRegisterAction::increase
                : NVVM::SetMaxRegisterAction::decrease);
      currentGroup = g.getName().getValue();
      if (failed(lowerDevice(device)))
        return failure();
      first += count;
    }
    currentGroup = StringRef();
    return success();
  }

  /// A warps region: lowered on its own group's path only, for the warps of
  /// its range, with the box of threads starting at its first thread.
  LogicalResult lowerWarps(WarpsOp warps) {
    if (warps.getGroup() != currentGroup)
      return success();
    const CollTiling *inside = coll.getTilingInside(warps);
    const TileOp *tile = nullptr;
    const CollDim *tiled = nullptr;
    if (inside)
      for (const CollDim &dim : inside->getDims())
        for (const TileOp &t : dim.ops)
          if (t.owner == warps.getOperation()) {
            tile = &t;
            tiled = &dim;
          }
    if (!tile)
      return warps.emitOpError() << "has no collective tiling";
    Location loc = warps.getLoc();
    // The thread's coordinate in the tiled dimension, relative to the
    // enclosing box.
    AffineExpr tid = getAffineDimExpr(0, b.getContext());
    Value c = affine::AffineApplyOp::create(
        b, loc,
        AffineMap::get(1, 0, tid.floorDiv(tiled->pitch) % tiled->extent),
        ValueRange{threadId});
    FailureOr<Value> start = boxStartOf(*tiled, warps);
    if (failed(start))
      return failure();
    Value rel = arith::SubIOp::create(b, loc, c, *start);
    Value lo = arith::ConstantIndexOp::create(b, loc, tile->offset);
    Value hi = arith::ConstantIndexOp::create(b, loc, tile->offset + tile->box);
    Value in = arith::AndIOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, rel, lo),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, rel, hi));
    auto guardIf = scf::IfOp::create(b, loc, in, /*withElse=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(guardIf.thenBlock()->getTerminator());
    auto saved = boxStarts;
    boxStarts[{tiled->pitch, tiled->extent}] =
        arith::AddIOp::create(b, loc, *start, lo);
    LogicalResult result = lowerBlock(warps.getBody().front());
    boxStarts = saved;
    return result;
  }

  /// The device function's body: one nest of cuda_tasks loops, walked by
  /// the persistent CTAs.
  LogicalResult lowerDevice(DeviceFunctionOp device) {
    // The verifier makes the body a perfect nest of cuda_tasks loops.
    SmallVector<ForOp> nest;
    auto loop = cast<ForOp>(device.getBody().front().front());
    while (true) {
      nest.push_back(loop);
      Block *inner = loop.getBodyBlock();
      auto next = inner->getOperations().size() == 1
                      ? dyn_cast<ForOp>(inner->front())
                      : ForOp();
      if (!next || next.getMode() != LoopMode::cuda_tasks)
        break;
      loop = next;
    }

    Location loc = device.getLoc();
    // Bounds of every task loop, which may not depend on another's index.
    SmallVector<Value> lbs, trips;
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value total = arith::ConstantIndexOp::create(b, loc, 1);
    Value limit = arith::ConstantIndexOp::create(b, loc, 0xffffffffLL);
    Value tooMany = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 0);
    for (ForOp loop : nest) {
      for (Value v : llvm::concat<Value>(loop.getLowerOperands(),
                                          loop.getUpperOperands()))
        if (llvm::any_of(nest, [&](ForOp o) {
              return o.getInductionVar() == v;
            }))
          return loop.emitOpError()
                 << "has bounds that depend on an enclosing task index; "
                    "task loops with such bounds are not distributed yet";
      auto [lb, ub] = loopBounds(loop);
      Value trip = arith::SubIOp::create(b, loc, ub, lb);
      trip = arith::MaxSIOp::create(b, loc, trip, zero);
      lbs.push_back(lb);
      trips.push_back(trip);
      total = arith::MulIOp::create(b, loc, total, trip);
      tooMany = arith::OrIOp::create(
          b, loc, tooMany,
          arith::OrIOp::create(
              b, loc,
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, trip,
                                    limit),
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, total,
                                    limit)));
    }
    // Task indices are split into loop indices in 32-bit arithmetic (64-bit
    // division is a subroutine call that the artifact verifier cannot trust
    // and that is slow); a launch with 2^32 or more tasks traps, a failed
    // launch rather than wrong results.
    {
      auto trap = scf::IfOp::create(b, loc, tooMany, /*withElse=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(trap.thenBlock()->getTerminator());
      LLVM::Trap::create(b, loc);
    }
    // Cluster c (CTAs c * clusterSize ...) runs tasks c, c + clusters, ...
    Value first = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
    Value step = gpu::GridDimOp::create(b, loc, gpu::Dimension::x);
    if (clusterSize > 1) {
      Value size = arith::ConstantIndexOp::create(b, loc, clusterSize);
      first = arith::DivUIOp::create(b, loc, first, size);
      step = arith::DivUIOp::create(b, loc, step, size);
    }
    auto tasks = scf::ForOp::create(b, loc, first, total, step);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(tasks.getBody()->getTerminator());
    // Lexicographic order: the innermost index varies fastest.
    Type i32 = b.getI32Type();
    Value rest = arith::IndexCastOp::create(b, loc, i32, tasks.getInductionVar());
    for (int i = static_cast<int>(nest.size()) - 1; i >= 0; --i) {
      Value trip32 = arith::IndexCastOp::create(b, loc, i32, trips[i]);
      Value within = arith::IndexCastUIOp::create(
          b, loc, b.getIndexType(),
          arith::RemUIOp::create(b, loc, rest, trip32));
      map.map(nest[i].getInductionVar(),
              arith::AddIOp::create(b, loc, lbs[i], within).getResult());
      rest = arith::DivUIOp::create(b, loc, rest, trip32);
    }
    // Each CTA starts its task with the whole block as the box of threads.
    boxStarts.clear();
    if (failed(lowerBlock(*nest.back().getBodyBlock())))
      return failure();
    // A task that uses shared memory ends with its CTA's threads meeting
    // (the synchronization check assumes it): the next task of this CTA
    // reuses that memory. Other task-local memory is per thread.
    if (usesSharedMemory)
      ctaBarrier(loc);
    return success();
  }

  LogicalResult lowerOp(Operation *op) override {
    if (auto loop = dyn_cast<ForOp>(op)) {
      if (loop.getMode() == LoopMode::cuda_threads)
        return lowerThreadLoop(loop);
      return lowerSeqLoop(loop);
    }
    if (auto fence = dyn_cast<FenceOp>(op))
      return lowerFence(fence);
    if (auto warps = dyn_cast<WarpsOp>(op))
      return lowerWarps(warps);
    if (auto arrive = dyn_cast<ArriveOp>(op))
      return lowerArrive(arrive);
    if (auto await = dyn_cast<AwaitOp>(op))
      return lowerAwait(await);
    if (auto tma = dyn_cast<TmaLoadOp>(op))
      return lowerTmaLoad(tma);
    if (auto instr = dyn_cast<InstrOpInterface>(op))
      return instr.buildDevice(b, instrOperands(op), threadId);
    if (auto alloc = dyn_cast<AllocOp>(op))
      return lowerAlloc(alloc);
    if (isa<FreeOp>(op))
      return success(); // Shared and register buffers need no free.
    if (auto read = dyn_cast<ReadOp>(op);
        read && failed(checkNotSwizzled(op, read.getMemref())))
      return failure();
    if (auto write = dyn_cast<WriteOp>(op);
        write && failed(checkNotSwizzled(op, write.getMemref())))
      return failure();
    if (auto reduce = dyn_cast<ReduceOp>(op);
        reduce && failed(checkNotSwizzled(op, reduce.getMemref())))
      return failure();
    if (auto window = dyn_cast<WindowOp>(op))
      return lowerLocalWindow(window);
    return Lowering::lowerOp(op);
  }

  /// The arrive on the tma_to_smem_async timeline that follows a TMA copy
  /// in its block: the copy completes on its mbarrier.
  static ArriveOp tmaArriveAfter(Operation *op) {
    for (Operation *next = op->getNextNode(); next; next = next->getNextNode())
      if (auto arrive = dyn_cast<ArriveOp>(next);
          arrive && arrive.getPre() == SyncTimeline::tma_to_smem_async)
        return arrive;
    return nullptr;
  }

  /// A TMA copy: its tensor map (a kernel parameter), the mbarrier of the
  /// arrive after it, and the box's coordinates (the window's starts).
  LogicalResult lowerTmaLoad(TmaLoadOp tma) {
    Location loc = tma.getLoc();
    ArriveOp arrive = tmaArriveAfter(tma);
    if (!arrive)
      return tma.emitOpError()
             << "has no 'gpuir.arrive tma_to_smem_async' after it in its "
                "block; the copy completes on that arrive's mbarrier";
    auto it = mbarriers.find(arrive.getBarriers().front());
    if (it == mbarriers.end())
      return tma.emitOpError()
             << "completes on the barrier of its arrive, which is not an "
                "mbarrier";
    Value element = mbarrierElement(
        it->second, cast<AffineMapAttr>(arrive.getMaps()[0]).getValue(),
        arrive.getBarrierIndices(0), loc);
    Value mbar = mbarrierPointer(it->second, element, loc);
    auto window = tma.getSrc().getDefiningOp<WindowOp>();
    SmallVector<Value> starts;
    for (AffineExpr start : window.getStarts())
      starts.push_back(arith::IndexCastOp::create(
          b, loc, b.getI32Type(),
          applyExpr(loc, start, window.getMap().getNumDims(),
                    window.getIndices())));
    Value map = kernel.getArgument(
        kernel.getNumArguments() - tensorMaps.maps.size() +
        tensorMaps.byOp.lookup(tma));
    SmallVector<Value> operands = instrOperands(tma);
    // TMA's coordinates run from the innermost dimension: column, row.
    operands.append({map, mbar, starts[1], starts[0]});
    return cast<InstrOpInterface>(tma.getOperation())
        .buildDevice(b, operands, threadId);
  }

  /// Plain reads and writes of swizzled shared memory would need the
  /// swizzle applied to their addresses: refused for now.
  LogicalResult checkNotSwizzled(Operation *op, Value buffer) {
    if (isSwizzledBuffer(buffer.getType()))
      return op->emitOpError()
             << "accesses swizzled shared memory element by element; only "
                "the instructions that know the swizzle (cp.async, wgmma) "
                "access it yet";
    return success();
  }

  /// The indices of an access in this thread's part of a buffer: those of
  /// the dimensions distributed over threads are dropped (the distributed
  /// memory analysis has proven that they name this thread's part).
  SmallVector<Value> accessIndices(Value buffer, AffineMap m,
                                   ValueRange operands, Location loc) override {
    SmallVector<Value> idx = applyAll(loc, m, operands);
    unsigned k = distributedDims.lookup(buffer);
    return SmallVector<Value>(idx.begin() + k, idx.end());
  }

  /// A window of a buffer distributed over threads views this thread's
  /// part: the distributed dimensions are dropped; those the window keeps
  /// (as intervals) remain distributed in the result.
  LogicalResult lowerLocalWindow(WindowOp window) {
    FailureOr<unsigned> kept =
        lowerWindow(window, distributedDims.lookup(window.getSource()));
    if (failed(kept))
      return failure();
    if (*kept)
      distributedDims[window.getResult()] = *kept;
    return success();
  }

  /// A sequential loop; loops with constant bounds over register buffers
  /// are marked for unrolling.
  LogicalResult lowerSeqLoop(ForOp loop) {
    Location loc = loop.getLoc();
    auto [lb, ub] = loopBounds(loop);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    auto scfFor = scf::ForOp::create(b, loc, lb, ub, one);
    std::optional<int64_t> lo = getConstantIntValue(lb),
                           hi = getConstantIntValue(ub);
    if (lo && hi && *hi - *lo <= kMaxUnroll && indexesRegisters(loop))
      scfFor->setAttr(kUnroll, b.getUnitAttr());
    map.map(loop.getInductionVar(), scfFor.getInductionVar());
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(scfFor.getBody()->getTerminator());
    return lowerBlock(*loop.getBodyBlock());
  }

  /// Whether the loop's variable selects registers: it is used (directly
  /// or through index arithmetic) by an access or window of a register
  /// buffer inside the loop.
  static bool indexesRegisters(ForOp loop) {
    auto isRmem = [](Value v) {
      auto t = dyn_cast<MemRefType>(v.getType());
      return t && isa_and_nonnull<RmemAttr>(t.getMemorySpace());
    };
    bool found = false;
    loop.getBodyBlock()->walk([&](Operation *op) {
      if (found)
        return;
      Value buf;
      ValueRange idx;
      if (auto r = dyn_cast<ReadOp>(op))
        buf = r.getMemref(), idx = r.getIndices();
      else if (auto w = dyn_cast<WriteOp>(op))
        buf = w.getMemref(), idx = w.getIndices();
      else if (auto d = dyn_cast<ReduceOp>(op))
        buf = d.getMemref(), idx = d.getIndices();
      else if (auto win = dyn_cast<WindowOp>(op))
        buf = win.getSource(), idx = win.getIndices();
      if (buf && isRmem(buf) &&
          llvm::is_contained(idx, loop.getInductionVar()))
        found = true;
      // Instructions on register fragments inside the loop: their windows
      // are found above; a whole buffer passed in a loop is loop-invariant.
    });
    return found;
  }

  /// An mbarrier array of the CTA: its barriers in shared memory, and the
  /// register holding, per element, the parity of the phase this thread
  /// waits for next.
  struct MBarrier {
    Value group;
    Value parity;
    SmallVector<int64_t> shape;
  };

  /// Creates the device function's mbarriers at the kernel's entry:
  /// thread 0 initializes each with the number of threads that arrive on it
  /// in a phase, then the CTA meets. Each lives for the whole kernel and
  /// its phases carry over from task to task (every task completes the
  /// phases it waits for, so the parities stay consistent); an mbarrier
  /// allocated at task scope is thereby reused by the CTA's next task.
  LogicalResult prepareBarriers(DeviceFunctionOp device) {
    SmallVector<AllocOp> allocs;
    device.walk([&](AllocOp alloc) {
      if (auto t = dyn_cast<BarrierType>(alloc.getResult().getType());
          t && t.isMbarrier())
        allocs.push_back(alloc);
    });
    if (allocs.empty())
      return success();
    Location loc = device.getLoc();
    MLIRContext *ctx = b.getContext();
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        ctaThreadId, zero);
    for (AllocOp alloc : allocs) {
      auto type = cast<BarrierType>(alloc.getResult().getType());
      Operation *parent = alloc->getParentOp();
      auto parentLoop = dyn_cast<ForOp>(parent);
      bool taskScope =
          isa<DeviceFunctionOp>(parent) ||
          (parentLoop && parentLoop.getMode() == LoopMode::cuda_tasks);
      if (!taskScope)
        return alloc.emitOpError()
               << "allocates an mbarrier inside a loop or region of a task; "
                  "code generation keeps mbarriers for the whole kernel and "
                  "needs them allocated at task scope";
      int64_t elems = 1;
      for (int64_t d : type.getShape())
        elems *= d;
      if (elems > 32)
        return alloc.emitOpError()
               << "allocates " << elems
               << " mbarriers; code generation keeps their phases in one "
                  "32-bit register and handles at most 32";
      // How many threads arrive on each element in a phase: the count the
      // synchronization check holds every phase to.
      FailureOr<int64_t> count = mbarrierArrivals(alloc, coll);
      if (failed(count))
        return failure();
      auto groupType = nvgpu::MBarrierGroupType::get(
          ctx,
          gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup),
          static_cast<unsigned>(elems));
      Value group = nvgpu::MBarrierCreateOp::create(b, loc, groupType);
      {
        auto init = scf::IfOp::create(b, loc, first, /*withElse=*/false);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(init.thenBlock()->getTerminator());
        Value n = arith::ConstantIndexOp::create(b, loc, *count);
        for (int64_t e = 0; e < elems; ++e)
          nvgpu::MBarrierInitOp::create(
              b, loc, group, n, arith::ConstantIndexOp::create(b, loc, e),
              Value());
      }
      // A barrier that starts arrived once: each thread's first wait on an
      // element is for the phase before the current one, which is done.
      Value parity = memref::AllocaOp::create(
          b, loc, MemRefType::get({}, b.getI32Type()));
      bool preArrived =
          type.getMechanism() == BarrierMechanism::mbarrier_prearrive;
      memref::StoreOp::create(
          b, loc,
          arith::ConstantIntOp::create(b, loc, b.getI32Type(),
                                       preArrived ? -1 : 0),
          parity, ValueRange{});
      mbarriers[alloc.getResult()] = {group, parity,
                                      SmallVector<int64_t>(type.getShape())};
    }
    // Every thread sees the initialized barriers before it uses them.
    NVVM::BarrierOp::create(b, loc);
    return success();
  }

  /// The element of an mbarrier array a barrier expression names, as an
  /// index (row-major, as the synchronization check numbers them).
  Value mbarrierElement(const MBarrier &bar, AffineMap m, ValueRange operands,
                        Location loc) {
    SmallVector<Value> idx = applyAll(loc, m, operands);
    Value linear = arith::ConstantIndexOp::create(b, loc, 0);
    for (auto [i, d] : llvm::enumerate(bar.shape)) {
      linear = arith::MulIOp::create(
          b, loc, linear, arith::ConstantIndexOp::create(b, loc, d));
      linear = arith::AddIOp::create(b, loc, linear, idx[i]);
    }
    return linear;
  }

  /// The shared-memory address of an element of an mbarrier array, as the
  /// NVVM ops that complete on it take it.
  Value mbarrierPointer(const MBarrier &bar, Value element, Location loc) {
    return LLVM::IntToPtrOp::create(
        b, loc, LLVM::LLVMPointerType::get(b.getContext(), 3),
        nvgpu::MBarrierGetOp::create(b, loc, b.getI64Type(), bar.group, element)
            .getResult());
  }

  /// An arrive: on a cp.async commit group, cp.async.commit_group; on an
  /// mbarrier, each thread of the scope arrives once (mbarrier.arrive, or
  /// cp.async.mbarrier.arrive.noinc for the thread's earlier copies, which
  /// arrives when they complete).
  LogicalResult lowerArrive(ArriveOp arrive) {
    Location loc = arrive.getLoc();
    auto type = cast<BarrierType>(arrive.getBarriers().front().getType());
    if (type.getMechanism() == BarrierMechanism::cp_async_group) {
      NVVM::CpAsyncCommitGroupOp::create(b, loc);
      return success();
    }
    if (type.getMechanism() == BarrierMechanism::wgmma_group) {
      NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
      return success();
    }
    if (type.getMechanism() == BarrierMechanism::cluster_sync) {
      if (failed(checkWholeCluster(arrive)))
        return failure();
      fenceForAsyncAwaiters(arrive);
      NVVM::ClusterArriveOp::create(
          b, loc, currentGroup.empty() ? b.getUnitAttr() : UnitAttr());
      return success();
    }
    auto it = mbarriers.find(arrive.getBarriers().front());
    if (!type.isMbarrier() || it == mbarriers.end())
      return arrive.emitOpError()
             << "arrives on a " << stringifyBarrierMechanism(type.getMechanism())
             << " barrier; only mbarriers and cp.async commit groups are "
                "lowered yet";
    if (arrive.getBarriers().size() != 1 ||
        llvm::is_contained(
            cast<DenseBoolArrayAttr>(arrive.getIntervals()[0]).asArrayRef(),
            true))
      return arrive.emitOpError()
             << "arrives on several mbarriers at once (a multicast arrive), "
                "which is not lowered yet: arrive on each CTA's mbarrier "
                "separately";
    const MBarrier &bar = it->second;
    Value element = mbarrierElement(
        bar, cast<AffineMapAttr>(arrive.getMaps()[0]).getValue(),
        arrive.getBarrierIndices(0), loc);
    if (arrive.getPre() == SyncTimeline::Sm80_cp_async) {
      NVVM::CpAsyncMBarrierArriveOp::create(
          b, loc, mbarrierPointer(bar, element, loc), /*noinc=*/true);
      return success();
    }
    if (arrive.getPre() == SyncTimeline::tma_to_smem_async) {
      // One arrive for this thread's copies since its previous such arrive
      // in the block, expecting their bytes.
      int64_t bytes = 0;
      for (Operation *prev = arrive->getPrevNode(); prev;
           prev = prev->getPrevNode()) {
        if (auto before = dyn_cast<ArriveOp>(prev);
            before && before.getPre() == SyncTimeline::tma_to_smem_async)
          break;
        if (auto tma = dyn_cast<TmaLoadOp>(prev))
          bytes += tma.getBytes();
      }
      if (bytes == 0)
        return arrive.emitOpError()
               << "arrives on the tma_to_smem_async timeline with no "
                  "gpuir.sm90a.tma_load before it in its block";
      nvgpu::MBarrierArriveExpectTxOp::create(
          b, loc, bar.group, arith::ConstantIndexOp::create(b, loc, bytes),
          element, Value());
      return success();
    }
    fenceForAsyncAwaiters(arrive);
    if (!isInOrder(arrive.getPre()))
      return arrive.emitOpError()
             << "arrives on an mbarrier after "
             << stringifySyncTimeline(arrive.getPre())
             << " accesses; only cuda_in_order, Sm80_cp_async and "
                "tma_to_smem_async arrives are lowered yet";
    nvgpu::MBarrierArriveOp::create(
        b, loc, nvgpu::MBarrierTokenType::get(b.getContext()), bar.group,
        element);
    return success();
  }

  /// fence.proxy.async for the CTA's shared memory.
  void proxyFence(Location loc) {
    NVVM::FenceProxyOp::create(
        b, loc, NVVM::ProxyKind::async_shared,
        NVVM::SharedSpaceAttr::get(b.getContext(),
                                   NVVM::SharedSpace::shared_cta));
  }

  /// Generic-proxy accesses before an in-order arrive, async-proxy accesses
  /// (TMA, wgmma) after the awaits: the writer's proxy fence.
  void fenceForAsyncAwaiters(ArriveOp arrive) {
    if (isInOrder(arrive.getPre()) &&
        awaitedByAsyncProxy(arrive.getBarriers().front()))
      proxyFence(arrive.getLoc());
  }

  /// Whether an await on the barrier makes accesses before the arrive
  /// visible to accesses of the async proxy (TMA, wgmma's shared operands)
  /// after it: generic-proxy writes read through the async proxy need the
  /// writer's fence.proxy.async. (Accesses only ordered in time, as a TMA
  /// copy overwriting what in-order reads read, need none: the mbarrier
  /// orders them, as CUTLASS's pipelines rely on.)
  static bool awaitedByAsyncProxy(Value barrier) {
    QualTimeline async = QualTimeline::tma_to_smem_async |
                         QualTimeline::tma_to_gmem_async |
                         QualTimeline::wgmma_async_smem;
    for (Operation *user : barrier.getUsers())
      if (auto await = dyn_cast<AwaitOp>(user);
          await && bitEnumContainsAny(
                       getSyncTimelineInfo(await.getPost()).full, async))
        return true;
    return false;
  }

  /// barrier.cluster.arrive and .wait count every thread of the cluster.
  /// (A wgmma commit group is committed and waited for by warpgroups.)
  LogicalResult checkWholeCluster(Operation *op) {
    const CollTiling *scope = coll.getScopeTiling(op);
    int64_t n = scope ? scope->getNumThreads() : 0;
    if (n != blockDim * clusterSize)
      return op->emitOpError()
             << "uses a cluster barrier from " << n
             << " threads; barrier.cluster counts all " << blockDim * clusterSize
             << " threads of the cluster, so arrive and await on it from the "
                "whole cluster";
    return success();
  }

  /// An await: on a commit group, cp.async.wait_group n (all but the newest
  /// n groups of the thread are done; groups of other commit-group
  /// variables only make it wait longer); on an mbarrier, each thread waits
  /// for the next phase of the element (mbarrier.try_wait.parity in a loop)
  /// and flips its parity bit.
  LogicalResult lowerAwait(AwaitOp await) {
    Location loc = await.getLoc();
    auto type = cast<BarrierType>(await.getBarrier().getType());
    if (type.getMechanism() == BarrierMechanism::cp_async_group) {
      NVVM::CpAsyncWaitGroupOp::create(
          b, loc, static_cast<int32_t>(await.getOutstanding().value_or(0)));
      return success();
    }
    if (type.getMechanism() == BarrierMechanism::wgmma_group) {
      NVVM::WgmmaWaitGroupSyncOp::create(b, loc,
                                         await.getOutstanding().value_or(0));
      return success();
    }
    if (type.getMechanism() == BarrierMechanism::cluster_sync) {
      if (failed(checkWholeCluster(await)))
        return failure();
      NVVM::ClusterWaitOp::create(
          b, loc, currentGroup.empty() ? b.getUnitAttr() : UnitAttr());
      return success();
    }
    auto it = mbarriers.find(await.getBarrier());
    if (!type.isMbarrier() || it == mbarriers.end())
      return await.emitOpError()
             << "awaits a " << stringifyBarrierMechanism(type.getMechanism())
             << " barrier; only mbarriers and cp.async commit groups are "
                "lowered yet";
    if (failed(verifyMbarrierLag(await)))
      return failure();
    if (!isInOrder(await.getPost()) &&
        await.getPost() != SyncTimeline::tma_to_smem_async &&
        await.getPost() != SyncTimeline::wgmma_async)
      return await.emitOpError()
             << "awaits an mbarrier for " << stringifySyncTimeline(await.getPost())
             << " accesses; only cuda_in_order, tma_to_smem_async and "
                "wgmma_async awaits are lowered yet";
    const MBarrier &bar = it->second;
    Value element =
        mbarrierElement(bar, await.getMap(), await.getIndices(), loc);
    Type i32 = b.getI32Type();
    Value shift = arith::IndexCastOp::create(b, loc, i32, element);
    Value bits = memref::LoadOp::create(b, loc, bar.parity, ValueRange{});
    Value one = arith::ConstantIntOp::create(b, loc, i32, 1);
    Value bit = arith::AndIOp::create(
        b, loc, arith::ShRUIOp::create(b, loc, bits, shift), one);
    Value parity = arith::TruncIOp::create(b, loc, b.getI1Type(), bit);
    Value ticks = arith::ConstantIndexOp::create(b, loc, 10000000);
    nvgpu::MBarrierTryWaitParityOp::create(b, loc, bar.group, parity, ticks,
                                           element);
    Value flipped = arith::XOrIOp::create(
        b, loc, bits, arith::ShLIOp::create(b, loc, one, shift));
    memref::StoreOp::create(b, loc, flipped, bar.parity, ValueRange{});
    return success();
  }

  /// Frees at block ends are implicit on the device.
  LogicalResult lowerBlock(Block &block) override {
    for (Operation &op : block)
      if (failed(lowerOp(&op)))
        return failure();
    return success();
  }

  LogicalResult lowerAlloc(AllocOp alloc) {
    Type t = alloc.getResult().getType();
    if (auto barrier = dyn_cast<BarrierType>(t)) {
      // A thread's cp.async commit groups live in the hardware; mbarriers
      // were made at the kernel's entry (prepareBarriers).
      if (barrier.getMechanism() == BarrierMechanism::cp_async_group ||
          barrier.getMechanism() == BarrierMechanism::wgmma_group ||
          barrier.getMechanism() == BarrierMechanism::cluster_sync ||
          barrier.isMbarrier())
        return success();
      return alloc.emitOpError()
             << "allocates a barrier of mechanism "
             << stringifyBarrierMechanism(barrier.getMechanism())
             << "; only mbarriers, cluster barriers, cp.async and wgmma commit "
                "groups are lowered yet";
    }
    auto type = cast<MemRefType>(t);
    Attribute space = type.getMemorySpace();
    if (auto swizzled = dyn_cast<SmemSwizzledAttr>(space)) {
      // Rows of 128 bytes in the 128-byte swizzle (a 16-byte chunk c of row
      // r at chunk c xor (r mod 8)): the buffer is its logical row-major
      // view, and the instructions that know the swizzle (cp.async, wgmma)
      // address it themselves; other accesses are refused.
      Type elt = type.getElementType();
      int64_t rowBytes =
          type.getRank() ? type.getShape().back() *
                               (elt.isIntOrFloat() ? elt.getIntOrFloatBitWidth() / 8 : 8)
                         : 0;
      if (swizzled.getBytes() != 128 || rowBytes != 128)
        return alloc.emitOpError()
               << "allocates shared memory in the " << swizzled.getBytes()
               << "-byte swizzle with rows of " << rowBytes
               << " bytes; only the 128-byte swizzle of 128-byte rows is "
                  "lowered yet";
    }
    if (isa<SmemAttr, SmemAtomic16Attr, SmemSwizzledAttr>(space)) {
      // Each CTA holds its part of a buffer shared out over the cluster.
      unsigned k = mlir::rake::distributedDims(dist, alloc.getResult());
      distributedDims[alloc.getResult()] = k;
      auto wg = MemRefType::get(
          type.getShape().drop_front(k), type.getElementType(),
          MemRefLayoutAttrInterface(),
          gpu::AddressSpaceAttr::get(b.getContext(),
                                     gpu::AddressSpace::Workgroup));
      // A view at the buffer's offset, made once at the kernel's entry.
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointAfter(sharedBase.getDefiningOp());
      Value offset = arith::ConstantIndexOp::create(
          b, alloc.getLoc(), sharedLayout.offsets.lookup(alloc));
      map.map(alloc.getResult(),
              memref::ViewOp::create(b, alloc.getLoc(), wg, sharedBase, offset,
                                     ValueRange{})
                  .getResult());
      usesSharedMemory = true;
      return success();
    }
    if (isa<RmemAttr>(space)) {
      // Each thread holds its part: the dimensions the distributed memory
      // analysis found distributed over threads are dropped.
      const Sharding *sharding = dist.getSharding(alloc.getResult());
      unsigned k = sharding ? sharding->pitches.size() : 0;
      auto local = MemRefType::get(type.getShape().drop_front(k),
                                   type.getElementType());
      // A buffer beyond a thread's 255 registers cannot live in them: it
      // would spill to local memory. (Buffers that are not live at once
      // share registers, so only each buffer is held to the limit here;
      // rake-verify refuses any spill of the cubin.)
      int64_t bits = type.getElementType().isIntOrFloat()
                         ? type.getElementType().getIntOrFloatBitWidth()
                         : 64;
      int64_t words = (local.getNumElements() * bits + 31) / 32;
      if (words > kMaxRegistersPerThread)
        return alloc.emitOpError()
               << "needs " << words
               << " 32-bit registers per thread; a thread has at most "
               << kMaxRegistersPerThread
               << ": use smaller fragments or shared memory";
      // At the kernel's entry, where LLVM promotes allocas to registers.
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&kernel.getBody().front());
      map.map(alloc.getResult(),
              memref::AllocaOp::create(b, alloc.getLoc(), local).getResult());
      distributedDims[alloc.getResult()] = k;
      return success();
    }
    // The verifier keeps host and global allocations out of device code and
    // gives the others static shapes.
    return alloc.emitOpError() << "allocates " << space
                               << " memory, which is not lowered yet";
  }

  /// Iteration i of a cuda_threads loop runs on the threads whose coordinate
  /// in the loop's dimension, relative to the enclosing box, lies in
  /// [offset + i * step, offset + i * step + box).
  LogicalResult lowerThreadLoop(ForOp loop) {
    Location loc = loop.getLoc();
    const CollTiling *inside = coll.getTilingInside(loop);
    if (!inside)
      return loop.emitOpError() << "has no collective tiling";
    SmallVector<std::pair<unsigned, TileOp>> ops;
    for (auto [d, dim] : llvm::enumerate(inside->getDims()))
      for (const TileOp &t : dim.ops)
        if (t.owner == loop.getOperation())
          ops.push_back({static_cast<unsigned>(d), t});
    if (ops.empty()) {
      // The unit is the whole enclosing box (a warpgroup loop in a CTA of
      // one warpgroup): one iteration, by all of the box's threads.
      auto [lb, ub] = loopBounds(loop);
      auto guardIf = scf::IfOp::create(
          b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, lb, ub),
          /*withElse=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(guardIf.thenBlock()->getTerminator());
      map.map(loop.getInductionVar(), lb);
      return lowerBlock(*loop.getBodyBlock());
    }
    if (ops.size() != 1)
      return loop.emitOpError()
             << "tiles " << ops.size()
             << " dimensions of the thread domain; only loops that tile one "
                "are lowered yet";
    auto [d, t] = ops.front();
    if (t.div != 1 || t.mod != 0)
      return loop.emitOpError()
             << "splits a dimension of the thread domain; split tilings are "
                "not lowered yet";
    const CollDim &dim = inside->getDims()[d];
    // The thread's coordinate in the dimension.
    auto ctx = b.getContext();
    AffineExpr tid = getAffineDimExpr(0, ctx);
    AffineExpr coord = tid.floorDiv(dim.pitch) % dim.extent;
    Value c = affine::AffineApplyOp::create(
        b, loc, AffineMap::get(1, 0, coord), ValueRange{threadId});
    FailureOr<Value> boxStart = boxStartOf(dim, loop);
    if (failed(boxStart))
      return failure();
    Value rel = arith::SubIOp::create(b, loc, c, *boxStart);
    Value off = arith::ConstantIndexOp::create(b, loc, t.offset);
    Value pos = arith::SubIOp::create(b, loc, rel, off);
    Value stepV = arith::ConstantIndexOp::create(b, loc, t.step);
    Value boxV = arith::ConstantIndexOp::create(b, loc, t.box);
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value i = arith::FloorDivSIOp::create(b, loc, pos, stepV);
    Value inBox = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::slt,
        arith::RemSIOp::create(b, loc, pos, stepV), boxV);
    auto [lb, ub] = loopBounds(loop);
    Value iv = arith::AddIOp::create(b, loc, lb, i);
    Value cond = arith::AndIOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, pos, zero),
        inBox);
    cond = arith::AndIOp::create(
        b, loc, cond,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, iv, ub));
    auto guardIf = scf::IfOp::create(b, loc, cond, /*withElse=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(guardIf.thenBlock()->getTerminator());
    map.map(loop.getInductionVar(), iv);
    // Inside, the box starts where this iteration's does.
    auto saved = boxStarts;
    boxStarts[{dim.pitch, dim.extent}] = arith::AddIOp::create(
        b, loc, *boxStart,
        arith::AddIOp::create(b, loc, off,
                              arith::MulIOp::create(b, loc, i, stepV)));
    LogicalResult result = lowerBlock(*loop.getBodyBlock());
    boxStarts = saved;
    return result;
  }

  /// Where, in a dimension of the thread domain, the current box of threads
  /// starts (0 at a task's start: the whole cluster). Each dimension keeps
  /// its own start (a cluster's CTA dimension and its thread dimension are
  /// tiled by different loops). A dimension that splits one already
  /// narrowed is not lowered yet.
  FailureOr<Value> boxStartOf(const CollDim &dim, Operation *op) {
    auto it = boxStarts.find({dim.pitch, dim.extent});
    if (it != boxStarts.end())
      return it->second;
    int64_t lo = dim.pitch, hi = dim.pitch * dim.extent;
    for (auto &[key, value] : boxStarts) {
      int64_t klo = key.first, khi = key.first * key.second;
      if (lo < khi && klo < hi)
        return op->emitOpError()
               << "tiles a dimension of the thread domain that splits one "
                  "an enclosing loop already narrowed; such tilings are not "
                  "lowered yet";
    }
    return arith::ConstantIndexOp::create(b, op->getLoc(), 0).getResult();
  }

  LogicalResult lowerFence(FenceOp fence) {
    const CollTiling *scope = coll.getScopeTiling(fence);
    int64_t n = scope ? scope->getNumThreads() : 0;
    Location loc = fence.getLoc();
    // Accumulator registers' in-order accesses before the warpgroup's next
    // wgmma: wgmma.fence, by each warpgroup of the scope.
    if (fence.getPre() == SyncTimeline::wgmma_fence_1 &&
        fence.getPost() == SyncTimeline::wgmma_fence_2) {
      if (n % 128 != 0)
        return fence.emitOpError()
               << "is a wgmma fence over " << n
               << " threads; wgmma.fence is executed by whole warpgroups";
      NVVM::WgmmaFenceAlignedOp::create(b, loc);
      return success();
    }
    // Generic-proxy writes of shared memory (st.shared, cp.async) before
    // async-proxy reads (wgmma operands): fence.proxy.async by each thread,
    // then the barrier of the scope.
    bool toAsyncProxy =
        fence.getPost() == SyncTimeline::cuda_async_proxy ||
        fence.getPost() == SyncTimeline::cuda_generic_and_async_proxy;
    if (!isInOrder(fence.getPre()) ||
        !(isInOrder(fence.getPost()) || toAsyncProxy))
      return fence.emitOpError()
             << "orders asynchronous timelines; only fences after in-order "
                "accesses, to in-order accesses or the async proxy, and "
                "wgmma fences are lowered yet";
    if (toAsyncProxy)
      proxyFence(loc);
    if (clusterSize > 1 && n == blockDim * clusterSize) {
      clusterBarrier(loc);
      return success();
    }
    if (n == blockDim) {
      ctaBarrier(loc);
      return success();
    }
    if (n == 32) {
      Value all = arith::ConstantIntOp::create(b, loc, b.getI32Type(),
                                               0xffffffff);
      NVVM::SyncWarpOp::create(b, loc, all);
      return success();
    }
    // A group of whole warps: a named barrier per group (ids 1..15; 0 is
    // the CTA's), when the groups are aligned blocks of n consecutive
    // threads, so that a thread's group is tid / n. Each group size has
    // its own range of ids: groups of different sizes can be live at once
    // (a warpgroup's halves while another warpgroup meets whole), and two
    // groups on one id with different counts fault.
    if (n % 32 != 0 || !scope || !isAlignedBlock(*scope, n))
      return fence.emitOpError()
             << "synchronizes " << n
             << " threads that are not whole warps forming one aligned block "
                "of consecutive threads; such fences are not lowered yet";
    int64_t groups = blockDim / n;
    auto [slot, isNew] = namedBarrierBase.try_emplace(n, nextNamedBarrier);
    if (isNew)
      nextNamedBarrier += groups;
    if (nextNamedBarrier - 1 > 15 && namedBarrierBase.size() == 1)
      return fence.emitOpError()
             << "synchronizes groups of " << n << " threads: " << groups
             << " named barriers, but a CTA has 15 besides barrier 0";
    if (nextNamedBarrier - 1 > 15) {
      std::string sizes;
      llvm::raw_string_ostream os(sizes);
      llvm::interleave(
          namedBarrierBase, os,
          [&](const auto &entry) {
            os << blockDim / entry.first << " of " << entry.first;
          },
          ", ");
      return fence.emitOpError()
             << "synchronizes groups of " << n << " threads: with the other "
             << "group sizes of this device function it needs "
             << nextNamedBarrier - 1 << " named barriers (" << sizes
             << " threads), but a CTA has 15 besides barrier 0";
    }
    Value size = arith::ConstantIndexOp::create(b, loc, n);
    Value base = arith::ConstantIndexOp::create(b, loc, slot->second);
    Value id = arith::AddIOp::create(
        b, loc, arith::DivUIOp::create(b, loc, ctaThreadId, size), base);
    Value id32 = arith::IndexCastOp::create(b, loc, b.getI32Type(), id);
    Value n32 = arith::ConstantIntOp::create(b, loc, b.getI32Type(), n);
    NVVM::BarrierOp::create(b, loc, TypeRange{}, id32, n32, {}, Value());
    return success();
  }

  /// A barrier of the CTA's threads. Not gpu.barrier: its canonicalization
  /// merges adjacent barriers, which would give a warp group's code path
  /// fewer barrier instances than the other paths it must meet. With warp
  /// specialization the paths meet at different instructions, which the
  /// aligned form (bar.sync) forbids: barrier.sync, not aligned.
  void ctaBarrier(Location loc) {
    if (currentGroup.empty()) {
      NVVM::BarrierOp::create(b, loc);
      return;
    }
    Value zero = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0);
    LLVM::CallIntrinsicOp::create(
        b, loc, b.getStringAttr("llvm.nvvm.barrier.cta.sync.all"),
        ValueRange{zero});
  }

  /// A barrier of the cluster's threads: barrier.cluster.arrive (release)
  /// then barrier.cluster.wait (acquire); aligned unless warp groups reach
  /// it at different instructions.
  void clusterBarrier(Location loc) {
    UnitAttr aligned = currentGroup.empty() ? b.getUnitAttr() : UnitAttr();
    NVVM::ClusterArriveOp::create(b, loc, aligned);
    NVVM::ClusterWaitOp::create(b, loc, aligned);
  }

  /// Whether each collective of `tiling` is n consecutive threads starting
  /// at a multiple of n: the dimensions, innermost first, are whole, then at
  /// most one is cut into boxes at multiples of the box, then the rest are
  /// single coordinates.
  static bool isAlignedBlock(const CollTiling &tiling, int64_t n) {
    SmallVector<const CollDim *> dims;
    for (const CollDim &d : tiling.getDims())
      dims.push_back(&d);
    llvm::sort(dims, [](const CollDim *a, const CollDim *b) {
      return a->pitch < b->pitch;
    });
    int64_t threads = 1;
    bool cut = false;
    for (const CollDim *d : dims) {
      int64_t box = d->box();
      if (cut) {
        if (box != 1)
          return false;
        continue;
      }
      if (box == d->extent) {
        threads *= box;
        continue;
      }
      if (d->extent % box != 0)
        return false;
      for (const TileOp &t : d->ops)
        if (t.div != 1 || t.mod != 0 || t.offset % box != 0 ||
            t.step % box != 0)
          return false;
      threads *= box;
      cut = true;
    }
    return threads == n;
  }

  static constexpr StringLiteral kUnroll = "rake.unroll";
  static constexpr int64_t kMaxUnroll = 64;

  const CollectiveAnalysis &coll;
  const DistributedMemoryAnalysis &dist;
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

struct ConvertGpuIRToNVVM
    : rake::impl::ConvertGpuIRToNVVMBase<ConvertGpuIRToNVVM> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    CollectiveAnalysis coll(module);
    if (failed(coll.emitErrors()))
      return signalPassFailure();
    DistributedMemoryAnalysis dist(module, coll);
    if (failed(dist.emitErrors()))
      return signalPassFailure();
    OpBuilder b(module.getContext());
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    b.getUnitAttr());
    // One device module for all the procedures' kernels, so that a file of
    // several procedures compiles to one PTX module (and one cubin).
    gpu::GPUModuleOp gpuModule;
    for (ProcOp proc : llvm::to_vector(module.getOps<ProcOp>())) {
      b.setInsertionPoint(proc);
      if (!gpuModule)
        gpuModule = gpu::GPUModuleOp::create(
            b, proc.getLoc(), (proc.getSymName() + "_device").str());
      DeviceLowering lowering(b, coll, dist);
      if (failed(lowering.lowerProc(proc, gpuModule)))
        return signalPassFailure();
      proc.erase();
    }
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// The pipeline to PTX
//===----------------------------------------------------------------------===//

namespace {
enum class BinaryFormat { isa, bin, fatbin };
struct PtxPipelineOptions : PassPipelineOptions<PtxPipelineOptions> {
  PassOptions::Option<std::string> chip{*this, "chip",
                                        llvm::cl::desc("The target SM"),
                                        llvm::cl::init("sm_90a")};
  PassOptions::Option<BinaryFormat> format{
      *this, "format",
      llvm::cl::desc("What gpu-module-to-binary makes"),
      llvm::cl::init(BinaryFormat::isa),
      llvm::cl::values(
          clEnumValN(BinaryFormat::isa, "isa", "PTX text"),
          clEnumValN(BinaryFormat::bin, "bin", "a cubin (needs ptxas)"),
          clEnumValN(BinaryFormat::fatbin, "fatbin", "a fat binary"))};
};
} // namespace

namespace {
/// MLIR lowers gpu.dynamic_shared_memory to an internal zero-sized shared
/// global, which the NVPTX back end demotes to a one-byte static variable
/// that the dynamic buffer would overlap. An external declaration is what
/// PTX means by dynamic shared memory (`.extern .shared ... []`); it is
/// aligned for every use of the layout (SharedMemoryLayout's alignments).
struct ExternDynamicSharedMemory
    : PassWrapper<ExternDynamicSharedMemory, OperationPass<gpu::GPUModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ExternDynamicSharedMemory)
  StringRef getArgument() const override {
    return "rake-extern-dynamic-shared-memory";
  }
  StringRef getDescription() const override {
    return "Declare the dynamic shared memory global external and aligned";
  }
  void runOnOperation() override {
    int64_t alignment = SharedMemoryLayout::kAlignment;
    if (auto attr = getOperation()->getAttrOfType<IntegerAttr>(
            "rake.shared_alignment"))
      alignment = attr.getInt();
    getOperation().walk([&](LLVM::GlobalOp global) {
      auto array = dyn_cast<LLVM::LLVMArrayType>(global.getGlobalType());
      if (global.getAddrSpace() != 3 || !array || array.getNumElements() != 0)
        return;
      global.setLinkage(LLVM::Linkage::External);
      global.setAlignment(alignment);
    });
  }
};
} // namespace

void mlir::rake::buildGpuIRToPtxPipeline(OpPassManager &pm, StringRef chip,
                                         StringRef format,
                                         StringRef ptxasOptions) {
  pm.addPass(createConvertGpuIRToNVVM());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  GpuNVVMAttachTargetOptions target;
  target.chip = chip.str();
  pm.addPass(createGpuNVVMAttachTarget(target));
  OpPassManager &device = pm.nest<gpu::GPUModuleOp>();
  device.addPass(memref::createExpandStridedMetadataPass());
  device.addPass(createLowerAffinePass());
  device.addPass(createSCFToControlFlowPass());
  device.addPass(createConvertNVGPUToNVVMPass());
  device.addPass(createConvertGpuOpsToNVVMOps());
  device.addPass(createConvertVectorToLLVMPass());
  // NVVM ops that are PTX with a loop (mbarrier.try_wait.parity) become
  // inline assembly.
  device.addPass(createConvertNVVMToLLVMPass());
  device.addPass(std::make_unique<ExternDynamicSharedMemory>());
  pm.addPass(createReconcileUnrealizedCastsPass());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = format.str();
  binary.cmdOptions = ptxasOptions.str();
  pm.addPass(createGpuModuleToBinaryPass(binary));
}

void mlir::rake::registerGpuIRToPtxPipeline() {
  PassPipelineRegistration<PtxPipelineOptions>(
      "rake-gpuir-to-ptx",
      "Lower GpuIR kernels to a gpu.binary: convert-gpuir-to-nvvm, then "
      "MLIR's GPU lowering to NVVM and the NVPTX back end (format=isa: PTX "
      "text; bin: a cubin through ptxas)",
      [](OpPassManager &pm, const PtxPipelineOptions &o) {
        StringRef format = o.format == BinaryFormat::isa   ? "isa"
                           : o.format == BinaryFormat::bin ? "bin"
                                                           : "fatbin";
        buildGpuIRToPtxPipeline(pm, o.chip, format);
      });
}
