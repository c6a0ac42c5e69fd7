//===- DeviceLowering.cpp - GpuIR procedures to kernels -------------------===//
//
// The DeviceLowering class's structure of a kernel: the procedure becomes a
// gpu.func (its parameters, tensor maps, dynamic shared memory, thread and
// cluster indices), the warp groups' code paths (setmaxnreg) and warps
// regions, the persistent walk of the cuda_tasks nest, the dispatch of the
// device ops, sequential loops (unrolled over registers) and cuda_threads
// loops as guarded index functions of the thread's coordinate.
//
//===----------------------------------------------------------------------===//

#include "DeviceLowering.h"

#include "Rake/Analysis/CodegenFacts.h"
#include "Rake/Analysis/KernelABI.h"
#include "Rake/Dialect/GpuIR/Instrs/Sm80.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"

using namespace mlir;
using namespace mlir::rake;
using namespace mlir::rake::gpuir;

namespace mlir::rake::nvvm_detail {

LogicalResult DeviceLowering::lowerProc(ProcOp proc,
                                        gpu::GPUModuleOp gpuModule) {
  Block &body = proc.getBody().front();
  if (failed(verifyOneDeviceFunction(proc)) ||
      failed(verifyStaticBounds(proc)) ||
      failed(verifyVectorAlignment(
          proc, [](Operation *op) -> std::optional<VectorAccess> {
            auto run = [](Value v) {
              auto t = cast<MemRefType>(v.getType());
              return t.getNumElements() * t.getElementTypeBitWidth() / 8;
            };
            if (auto ld = dyn_cast<LdGlobalOp>(op))
              return VectorAccess{ld.getSrc(), run(ld.getSrc())};
            if (auto st = dyn_cast<StGlobalOp>(op))
              return VectorAccess{st.getDst(), run(st.getDst())};
            return std::nullopt;
          })))
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

/// Warp specialization: one code path per named warp group, taken by the
/// group's warps, which first set their register count (setmaxnreg); each
/// path holds the whole task nest without the other groups' warps
/// regions. Without warp groups, one path for every thread.
LogicalResult DeviceLowering::lowerPaths(DeviceFunctionOp device) {
  auto groups = device.getWarpGroups();
  if (!groups)
    return lowerDevice(device);
  Location loc = device.getLoc();
  // The groups' register counts were checked against the count each
  // thread starts with by the op's verifier (verifyRegisterCounts).
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
LogicalResult DeviceLowering::lowerWarps(WarpsOp warps) {
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
LogicalResult DeviceLowering::lowerDevice(DeviceFunctionOp device) {
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
  // A task that uses shared memory or mbarriers (which live in it, their
  // phases carrying over) ends with its CTA's threads meeting (the
  // synchronization check assumes it): the next task of this CTA reuses
  // that memory. Other task-local memory is per thread.
  bool mbarriers = false;
  nest.back().getBodyBlock()->walk([&](AllocOp a) {
    if (auto t = dyn_cast<BarrierType>(a.getResult().getType()))
      mbarriers |= t.isMbarrier();
  });
  if (usesSharedMemory || mbarriers) {
    if (asyncWritesReuseGeneric)
      proxyFence(loc);
    ctaBarrier(loc);
  }
  return success();
}

LogicalResult DeviceLowering::visitStmt(ForOp loop) {
  if (loop.getMode() == LoopMode::cuda_threads)
    return lowerThreadLoop(loop);
  return lowerSeqLoop(loop);
}

LogicalResult DeviceLowering::visitStmt(AllocOp alloc) {
  return lowerAlloc(alloc);
}

// Shared and register buffers need no free.
LogicalResult DeviceLowering::visitStmt(FreeOp) { return success(); }

// A fused region's ops carry its marker in their locations
// (markFusedRegions); the region itself lowers to its body, as the
// sequential lowering's scopes do.
LogicalResult DeviceLowering::visitScope(Operation *op, Block &body) {
  if (auto warps = dyn_cast<WarpsOp>(op))
    return lowerWarps(warps);
  return Lowering::visitScope(op, body);
}

/// A sequential loop; loops with constant bounds over register buffers
/// are marked for unrolling.
LogicalResult DeviceLowering::lowerSeqLoop(ForOp loop) {
  Location loc = loop.getLoc();
  auto [lb, ub] = loopBounds(loop);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto scfFor = scf::ForOp::create(b, loc, lb, ub, one);
  std::optional<int64_t> lo = getConstantIntValue(lb),
                         hi = getConstantIntValue(ub);
  // A fused region's loops are unrolled whatever they index: its machine
  // code may have no loops (rake-verify's fused-region rule).
  if (lo && hi &&
      ((*hi - *lo <= kMaxUnroll && indexesRegisters(loop)) ||
       loop->getParentOfType<FusedOp>()))
    scfFor->setAttr(kUnroll, b.getUnitAttr());
  map.map(loop.getInductionVar(), scfFor.getInductionVar());
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(scfFor.getBody()->getTerminator());
  return lowerBlock(*loop.getBodyBlock());
}

/// Whether the loop's variable selects registers: it is used (directly
/// or through index arithmetic) by an access or window of a register
/// buffer inside the loop.
bool DeviceLowering::indexesRegisters(ForOp loop) {
  auto isRmem = [](Value v) {
    auto t = dyn_cast<MemRefType>(v.getType());
    return t && isa_and_nonnull<RmemAttr>(t.getMemorySpace());
  };
  bool found = false;
  loop.getBodyBlock()->walk([&](AccessOpInterface access) {
    if (!found && isRmem(access.getBuffer()) &&
        llvm::is_contained(access.getIndices(), loop.getInductionVar()))
      found = true;
    // Instructions on register fragments inside the loop: their windows
    // are found above; a whole buffer passed in a loop is loop-invariant.
  });
  return found;
}

/// Iteration i of a cuda_threads loop runs on the threads whose coordinate
/// in the loop's dimension, relative to the enclosing box, lies in
/// [offset + i * step, offset + i * step + box).
LogicalResult DeviceLowering::lowerThreadLoop(ForOp loop) {
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
FailureOr<Value> DeviceLowering::boxStartOf(const CollDim &dim,
                                            Operation *op) {
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

} // namespace mlir::rake::nvvm_detail
