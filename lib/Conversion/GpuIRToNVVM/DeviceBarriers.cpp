//===- DeviceBarriers.cpp - GpuIR synchronization on the device -----------===//
//
// The DeviceLowering class's synchronization: mbarriers (created at the
// kernel's entry, their elements and phase parities), arrives and awaits on
// mbarriers, cluster barriers and cp.async / wgmma commit groups, proxy
// fences, and fences as CTA, cluster, warp and named barriers.
//
//===----------------------------------------------------------------------===//

#include "DeviceLowering.h"

#include "Rake/Analysis/CodegenFacts.h"
#include "Rake/Analysis/KernelABI.h"
#include "Rake/Dialect/GpuIR/Instrs/Sm90a.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/ADT/StringSet.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

using namespace mlir;
using namespace mlir::rake;
using namespace mlir::rake::gpuir;

namespace mlir::rake::nvvm_detail {

/// Creates the device function's mbarriers at the kernel's entry:
/// thread 0 initializes each with the number of threads that arrive on it
/// in a phase, then the CTA meets. Each lives for the whole kernel and
/// its phases carry over from task to task (every task completes the
/// phases it waits for, so the parities stay consistent); an mbarrier
/// allocated at task scope is thereby reused by the CTA's next task.
LogicalResult DeviceLowering::prepareBarriers(DeviceFunctionOp device) {
  collectGenericWrites(device);
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
    // Each CTA holds its part of an array over the cluster's CTAs.
    unsigned ctaDims = mlir::rake::distributedDims(dist, alloc.getResult());
    ArrayRef<int64_t> part = type.getShape().drop_front(ctaDims);
    int64_t elems = 1;
    for (int64_t d : part)
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
    // In-order arrives by whole warps: one lane of each warp arrives
    // after the warp meets (bar.warp.sync orders its lanes' accesses
    // before that lane's arrive), so a phase needs one arrival a warp.
    // (Instructions completing on the barrier arrive one by one: each TMA
    // copy is its own arrival.)
    bool perWarp = *count % 32 == 0;
    for (Operation *user : alloc.getResult().getUsers()) {
      if (auto arrive = dyn_cast<ArriveOp>(user))
        perWarp = perWarp && isInOrder(arrive.getPre()) &&
                  arrivesByWholeWarps(arrive);
      if (auto instr = dyn_cast<InstrOpInterface>(user);
          instr && instr.getTrailingBarrier() == alloc.getResult())
        perWarp = false;
    }
    if (perWarp)
      *count /= 32;
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
    // At the kernel's entry, where LLVM promotes allocas to registers
    // (an alloca after the barriers' initialization would stay in local
    // memory).
    Value parity;
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&kernel.getBody().front());
      parity = memref::AllocaOp::create(
          b, loc, MemRefType::get({}, b.getI32Type()));
    }
    bool preArrived =
        type.getMechanism() == BarrierMechanism::mbarrier_prearrive;
    memref::StoreOp::create(
        b, loc,
        arith::ConstantIntOp::create(b, loc, b.getI32Type(),
                                     preArrived ? -1 : 0),
        parity, ValueRange{});
    mbarriers[alloc.getResult()] = {group, parity, SmallVector<int64_t>(part),
                                    ctaDims, perWarp};
  }
  // Every thread sees the initialized barriers before it uses them; in a
  // cluster, every thread of the cluster (another CTA's copies and arrives
  // may complete on them): the initialization is released to the cluster
  // and the cluster meets.
  if (clusterSize > 1) {
    auto init = scf::IfOp::create(b, loc, first, /*withElse=*/false);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(init.thenBlock()->getTerminator());
      NVVM::FenceMbarrierInitOp::create(b, loc);
    }
    clusterBarrier(loc);
    return success();
  }
  // In one CTA the initializing thread makes the initialized mbarriers
  // visible to the async proxy (a TMA copy's complete_tx, a cp.async
  // arrive) before the CTA meets, as the CUDA programming guide's TMA
  // example does (fence.proxy.async.shared::cta after mbarrier.init).
  if (!mbarriers.empty()) {
    auto init = scf::IfOp::create(b, loc, first, /*withElse=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(init.thenBlock()->getTerminator());
    NVVM::FenceProxyOp::create(
        b, loc, NVVM::ProxyKind::async_shared,
        NVVM::SharedSpaceAttr::get(b.getContext(),
                                   NVVM::SharedSpace::shared_cta));
  }
  NVVM::BarrierOp::create(b, loc);
  return success();
}

/// The element of this CTA's part of an mbarrier array that a barrier
/// expression names (row-major over the dimensions after the CTAs', as
/// the synchronization check numbers a CTA's elements), and the CTAs it
/// names when the CTA coordinate is an interval (a multicast). Intervals
/// elsewhere (several elements of one CTA) are refused.
FailureOr<DeviceLowering::BarrierElements>
DeviceLowering::mbarrierElements(Operation *op, const MBarrier &bar,
                                 AffineMap m, ValueRange operands,
                                 ArrayRef<bool> intervals) {
  Location loc = op->getLoc();
  BarrierElements out;
  out.element = arith::ConstantIndexOp::create(b, loc, 0);
  unsigned r = 0;
  for (size_t d = 0, e = bar.ctaDims + bar.shape.size(); d < e; ++d) {
    bool interval = d < intervals.size() && intervals[d];
    AffineExpr lo = m.getResult(r++);
    AffineExpr hi = interval ? m.getResult(r++) : AffineExpr();
    if (d < bar.ctaDims) {
      if (!interval)
        continue; // The thread's own CTA (the check proved it).
      auto n = dyn_cast<AffineConstantExpr>(
          simplifyAffineExpr(hi - lo, m.getNumDims(), 0));
      if (bar.ctaDims != 1 || !n || n.getValue() < 1)
        return op->emitOpError()
               << "names the mbarriers of several CTAs by an interval that "
                  "code generation cannot lower: one dimension over the "
                  "cluster's CTAs, an interval of constant length";
      out.firstCta = applyExpr(loc, lo, m.getNumDims(), operands);
      out.numCtas = n.getValue();
      continue;
    }
    if (interval)
      return op->emitOpError()
             << "names several mbarriers of one CTA at once, which is not "
                "lowered: name one element (an interval only over the "
                "cluster's CTAs, for a multicast)";
    out.element = arith::MulIOp::create(
        b, loc, out.element,
        arith::ConstantIndexOp::create(b, loc, bar.shape[d - bar.ctaDims]));
    out.element = arith::AddIOp::create(
        b, loc, out.element, applyExpr(loc, lo, m.getNumDims(), operands));
  }
  return out;
}

/// The address of an element of an mbarrier array in CTA `cta` (i32 rank)
/// of the cluster, in the cluster's shared window (mapa).
Value DeviceLowering::remoteMbarrier(const MBarrier &bar, Value element,
                                     Value cta, Location loc) {
  return NVVM::MapaOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext(), 7),
      mbarrierPointer(bar, element, loc), cta);
}

/// The shared-memory address of an element of an mbarrier array, as the
/// NVVM ops that complete on it take it.
Value DeviceLowering::mbarrierPointer(const MBarrier &bar, Value element,
                                      Location loc) {
  return LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext(), 3),
      nvgpu::MBarrierGetOp::create(b, loc, b.getI64Type(), bar.group, element)
          .getResult());
}

/// An arrive: on a cp.async commit group, cp.async.commit_group (on a TMA
/// store group, cp.async.bulk.commit_group); on an
/// mbarrier, each thread of the scope arrives once (mbarrier.arrive, or
/// cp.async.mbarrier.arrive.noinc for the thread's earlier copies, which
/// arrives when they complete).
LogicalResult DeviceLowering::lowerArrive(ArriveOp arrive) {
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
  if (type.getMechanism() == BarrierMechanism::tma_store_group) {
    NVVM::CpAsyncBulkCommitGroupOp::create(b, loc);
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
  if (arrive.getBarriers().size() != 1)
    return arrive.emitOpError()
           << "arrives on several mbarrier arrays at once, which is not "
              "lowered: arrive on each separately";
  const MBarrier &bar = it->second;
  FailureOr<BarrierElements> elems = mbarrierElements(
      arrive, bar, cast<AffineMapAttr>(arrive.getMaps()[0]).getValue(),
      arrive.getBarrierIndices(0),
      cast<DenseBoolArrayAttr>(arrive.getIntervals()[0]).asArrayRef());
  if (failed(elems))
    return failure();
  Value element = elems->element;
  if (arrive.getPre() == SyncTimeline::Sm80_cp_async) {
    if (elems->numCtas)
      return arrive.emitOpError()
             << "arrives on other CTAs' mbarriers after cp.async copies, "
                "which is not lowered: cp.async arrives on its own CTA's";
    NVVM::CpAsyncMBarrierArriveOp::create(
        b, loc, mbarrierPointer(bar, element, loc), /*noinc=*/true);
    return success();
  }
  fenceForAsyncAwaiters(arrive);
  if (!isInOrder(arrive.getPre()))
    return arrive.emitOpError()
           << "arrives on an mbarrier after "
           << stringifySyncTimeline(arrive.getPre())
           << " accesses; only cuda_in_order and Sm80_cp_async arrives are "
              "lowered yet (a TMA copy completes on its own trailing "
              "mbarrier)";
  // On the mbarriers of several CTAs: one release arrive on each, through
  // the cluster's shared window.
  auto arriveOnce = [&] {
    if (!elems->numCtas) {
      nvgpu::MBarrierArriveOp::create(
          b, loc, nvgpu::MBarrierTokenType::get(b.getContext()), bar.group,
          element);
      return;
    }
    Type i32 = b.getI32Type();
    Value first = arith::IndexCastOp::create(b, loc, i32, elems->firstCta);
    // A release at cluster scope only where generic-proxy writes to shared
    // memory may need publishing to another CTA; otherwise (a stage
    // released for the next TMA copy: the reads are done) the default
    // .release.cta, as CUTLASS's cluster barriers arrive (a cluster-scope
    // release on every stage halved the cluster GEMM's speed).
    NVVM::MemScopeKind scope =
        remoteReleaseAtClusterScope(arrive.getBarriers().front())
            ? NVVM::MemScopeKind::CLUSTER
            : NVVM::MemScopeKind::CTA;
    for (int64_t c = 0; c < elems->numCtas; ++c)
      NVVM::MBarrierArriveOp::create(
          b, loc, Type(),
          remoteMbarrier(bar, element,
                         arith::AddIOp::create(
                             b, loc, first,
                             arith::ConstantIntOp::create(b, loc, i32, c)),
                         loc),
          Value(), scope, /*relaxed=*/false);
  };
  if (!bar.perWarp) {
    arriveOnce();
    return success();
  }
  Value all = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0xffffffff);
  NVVM::SyncWarpOp::create(b, loc, all);
  Value lane = arith::RemUIOp::create(
      b, loc, ctaThreadId, arith::ConstantIndexOp::create(b, loc, 32));
  auto leader = scf::IfOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane,
                            arith::ConstantIndexOp::create(b, loc, 0)),
      /*withElse=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(leader.thenBlock()->getTerminator());
  arriveOnce();
  return success();
}

/// Whether the arrive's threads are whole warps that reach it together:
/// the arrive is directly in a warp group's region or the device function
/// (all of the group's or CTA's warps), or its collective is an aligned
/// block of a multiple of 32 consecutive threads.
bool DeviceLowering::arrivesByWholeWarps(ArriveOp arrive) {
  for (Operation *p = arrive->getParentOp(); p; p = p->getParentOp()) {
    if (isa<WarpsOp>(p))
      return true;
    if (isa<DeviceFunctionOp>(p))
      return blockDim % 32 == 0;
    if (auto loop = dyn_cast<ForOp>(p);
        loop && loop.getMode() == LoopMode::cuda_threads)
      break;
  }
  const CollTiling *scope = coll.getScopeTiling(arrive);
  int64_t n = scope ? scope->getNumThreads() : 0;
  return n > 0 && n % 32 == 0 && isAlignedBlock(*scope, n);
}

static bool isShared(Value v) {
  auto t = dyn_cast<MemRefType>(v.getType());
  auto mem = t ? dyn_cast_or_null<MemoryTypeAttrInterface>(t.getMemorySpace())
               : MemoryTypeAttrInterface();
  return mem && mem.isSharedMemory();
}

/// A buffer parameter of the procedure (global memory).
static bool isGlobalParam(Value v) {
  auto arg = dyn_cast<BlockArgument>(v);
  return arg && isa<MemRefType>(arg.getType()) &&
         isa<ProcOp>(arg.getOwner()->getParentOp());
}

/// Each access of `op` to shared memory or to a buffer parameter: (the
/// buffer's allocation or parameter, through the async proxy?, a write?).
static void forEachMemoryAccess(
    Operation *op, llvm::function_ref<void(Value, bool, bool)> fn) {
  constexpr QualTimeline async = QualTimeline::tma_to_smem_async |
                                 QualTimeline::tma_to_gmem_async |
                                 QualTimeline::wgmma_async_smem;
  auto relevant = [](Value v) {
    return isShared(v) || isGlobalParam(viewedBuffer(v));
  };
  if (auto access = dyn_cast<AccessOpInterface>(op)) {
    if (access.getAccessKind() != AccessKind::Window &&
        relevant(access.getBuffer()))
      fn(viewedBuffer(access.getBuffer()), false,
         access.getAccessKind() != AccessKind::Read);
    return;
  }
  if (auto instr = dyn_cast<InstrOpInterface>(op))
    for (const InstrParam &p : instr.getParams())
      if (Value v = op->getOperand(p.operandIndex); relevant(v))
        fn(viewedBuffer(v), bitEnumContainsAny(p.qual, async),
           p.access != AccessMode::read);
}

/// The buffers written through the generic proxy: shared buffers and
/// buffer parameters written by gpuir.write or gpuir.reduce, or by an
/// instruction other than a TMA copy. Where the async proxy (TMA) accesses
/// a parameter that the generic proxy writes, proxy fences must cover
/// global memory too.
void DeviceLowering::collectGenericWrites(DeviceFunctionOp device) {
  genericWrites.clear();
  asyncGlobalWrites.clear();
  device.walk([&](Operation *op) {
    forEachMemoryAccess(op, [&](Value buffer, bool asyncProxy, bool write) {
      if (write && !asyncProxy)
        genericWrites.insert(buffer);
      if (write && asyncProxy && isGlobalParam(buffer))
        asyncGlobalWrites.insert(buffer);
    });
  });
  asyncGlobalAfterGeneric = false;
  asyncWritesReuseGeneric = false;
  device.walk([&](Operation *op) {
    forEachMemoryAccess(op, [&](Value buffer, bool asyncProxy, bool write) {
      asyncGlobalAfterGeneric |= asyncProxy && isGlobalParam(buffer) &&
                                 genericWrites.contains(buffer);
      // A TMA copy writing bytes that a buffer of an earlier lifetime (the
      // same buffer in the CTA's previous task, or a sibling block's
      // buffer at the same offsets) had written through the generic proxy.
      if (asyncProxy && write && isShared(buffer))
        for (Value written : genericWrites)
          asyncWritesReuseGeneric |= mayAlias(buffer, written);
    });
  });
}

/// Whether two buffers may share bytes: the same one, or two shared
/// allocations whose places in the layout overlap (code generation gives
/// sibling blocks' buffers the same offsets).
bool DeviceLowering::mayAlias(Value a, Value b) {
  if (a == b)
    return true;
  auto allocA = a.getDefiningOp<AllocOp>(), allocB = b.getDefiningOp<AllocOp>();
  if (!allocA || !allocB || !isShared(a) || !isShared(b))
    return false;
  // The bytes of the CTA's own part, as the layout placed them: another
  // CTA's part of a buffer shared out over the cluster is in that CTA's
  // shared memory, so it shares no byte with this CTA's buffers. (The
  // whole type, which counted every CTA's part from the buffer's offset,
  // made a cluster GEMM's ring overlap its epilogue's staging buffer.)
  auto range = [&](AllocOp alloc) {
    int64_t offset = sharedLayout.offsets.lookup(alloc);
    return std::pair(offset, offset + sharedLayout.sizes.lookup(alloc));
  };
  auto [loA, hiA] = range(allocA);
  auto [loB, hiB] = range(allocB);
  return loA < hiB && loB < hiA;
}

/// The threads that await a barrier run the warp groups whose gpuir.warps
/// regions hold those awaits (every region of such a group, at any depth:
/// a group's warps run all of its regions) and the code outside every
/// group's region; what they access after an await is among those ops'
/// accesses.
bool DeviceLowering::awaitersTouchGenericWrites(Value barrier, bool asyncOnly) {
  if (genericWrites.empty())
    return false;
  if (asyncWritesReuseGeneric)
    return true;
  return anyAwaitingOp(barrier, [&](Operation *op) {
    bool found = false;
    forEachMemoryAccess(op, [&](Value buffer, bool asyncProxy, bool) {
      if (asyncProxy || !asyncOnly)
        for (Value written : genericWrites)
          found |= mayAlias(buffer, written);
    });
    return found;
  });
}

/// Whether `pred` holds for an op that the threads awaiting `barrier` run.
bool DeviceLowering::anyAwaitingOp(Value barrier,
                                       function_ref<bool(Operation *)> pred) {
  llvm::StringSet<> groups;
  bool everyPath = false;
  for (Operation *user : barrier.getUsers()) {
    if (!isa<AwaitOp>(user))
      continue;
    auto warps = user->getParentOfType<WarpsOp>();
    if (!warps)
      everyPath = true;
    for (; warps; warps = warps->getParentOfType<WarpsOp>())
      groups.insert(warps.getGroup());
  }
  auto awaiting = [&](Operation *op) {
    auto warps = op->getParentOfType<WarpsOp>();
    if (everyPath || !warps)
      return true;
    for (; warps; warps = warps->getParentOfType<WarpsOp>())
      if (groups.contains(warps.getGroup()))
        return true;
    return false;
  };
  Operation *device = barrier.getParentRegion()->getParentOp();
  while (device && !isa<DeviceFunctionOp>(device))
    device = device->getParentOp();
  bool found = false;
  device->walk([&](Operation *op) {
    if (!found && awaiting(op))
      found = pred(op);
  });
  return found;
}

/// Whether an arrive on another CTA's barrier must release at cluster
/// scope: its awaiters may touch what the generic proxy wrote, or they pass
/// the ordering on with releases of their own (arrives, fences: a relay)
/// while some generic write reaches other CTAs (global memory, or shared
/// memory distributed over the cluster), which a CTA-scope release would
/// not publish to them.
bool DeviceLowering::remoteReleaseAtClusterScope(Value barrier) {
  if (awaitersTouchGenericWrites(barrier, /*asyncOnly=*/false))
    return true;
  // What a TMA store wrote to global memory, waited for before the arrive
  // and read by the awaiters in another CTA, is published to them only by a
  // release at cluster scope too: a CTA-scope release and acquire do not
  // synchronize threads of different CTAs (an adversarial review: a relay
  // through a TMA store and a TMA load was accepted with CTA scope).
  if (!asyncGlobalWrites.empty() &&
      anyAwaitingOp(barrier, [&](Operation *op) {
        bool found = false;
        forEachMemoryAccess(op, [&](Value buffer, bool, bool) {
          found |= asyncGlobalWrites.contains(buffer);
        });
        return found;
      }))
    return true;
  bool crossCta = llvm::any_of(genericWrites, [&](Value w) {
    return isGlobalParam(w) || (isShared(w) && dist.getSharding(w));
  });
  return crossCta && anyAwaitingOp(barrier, [](Operation *op) {
           return isa<ArriveOp, FenceOp>(op);
         });
}

/// Whether some arrive on the barrier comes from other CTAs (an interval
/// over the cluster's CTAs) with a release at cluster scope: its awaits
/// must then acquire at cluster scope.
bool DeviceLowering::acquiresAtClusterScope(Value barrier) {
  bool remote = false;
  for (Operation *user : barrier.getUsers())
    if (auto arrive = dyn_cast<ArriveOp>(user))
      for (Attribute intervals : arrive.getIntervals())
        remote |= llvm::is_contained(
            cast<DenseBoolArrayAttr>(intervals).asArrayRef(), true);
  return remote && remoteReleaseAtClusterScope(barrier);
}

/// Whether accesses after an await for `post` include async-proxy ones (TMA
/// copies, wgmma's shared operands).
static bool postIsAsyncProxy(SyncTimeline post) {
  QualTimeline async = QualTimeline::tma_to_smem_async |
                       QualTimeline::tma_to_gmem_async |
                       QualTimeline::wgmma_async_smem;
  return bitEnumContainsAny(getSyncTimelineInfo(post).full, async);
}

/// Whether cp.async copies complete on the barrier (an arrive after
/// Sm80_cp_async accesses).
static bool arrivedByCpAsync(Value barrier) {
  for (Operation *user : barrier.getUsers())
    if (auto arrive = dyn_cast<ArriveOp>(user);
        arrive && arrive.getPre() == SyncTimeline::Sm80_cp_async &&
        llvm::is_contained(arrive.getBarriers(), barrier))
      return true;
  return false;
}

/// fence.proxy.async for the CTA's shared memory, or for every state space
/// where the async proxy also accesses global memory the generic proxy
/// writes (a TMA copy of a buffer parameter the kernel stores into).
void DeviceLowering::proxyFence(Location loc) {
  if (asyncGlobalAfterGeneric) {
    NVVM::FenceProxyOp::create(b, loc, NVVM::ProxyKind::async,
                               NVVM::SharedSpaceAttr());
    return;
  }
  NVVM::FenceProxyOp::create(
      b, loc, NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(b.getContext(),
                                 NVVM::SharedSpace::shared_cta));
}

/// Generic-proxy accesses before an in-order arrive, async-proxy accesses
/// (TMA, wgmma) after the awaits: the writer's proxy fence.
void DeviceLowering::fenceForAsyncAwaiters(ArriveOp arrive) {
  // Without generic writes to shared memory that the awaiters access
  // through the async proxy there is nothing to make visible: generic
  // reads before async-proxy writes (a stage released for the next TMA
  // copy) are ordered by the barrier alone.
  Value barrier = arrive.getBarriers().front();
  if (isInOrder(arrive.getPre()) && awaitedByAsyncProxy(barrier) &&
      awaitersTouchGenericWrites(barrier, /*asyncOnly=*/true))
    proxyFence(arrive.getLoc());
}

/// Whether an await on the barrier makes accesses before the arrive
/// visible to accesses of the async proxy (TMA, wgmma's shared operands)
/// after it: generic-proxy writes read through the async proxy need the
/// writer's fence.proxy.async. (Accesses only ordered in time, as a TMA
/// copy overwriting what in-order reads read, need none: the mbarrier
/// orders them, as CUTLASS's pipelines rely on.)
bool DeviceLowering::awaitedByAsyncProxy(Value barrier) {
  for (Operation *user : barrier.getUsers())
    if (auto await = dyn_cast<AwaitOp>(user);
        await && postIsAsyncProxy(await.getPost()))
      return true;
  return false;
}

/// Records the register buffers (each thread's part, as lowered) that the
/// instruction writes asynchronously: a wgmma's accumulators.
void DeviceLowering::noteAsyncRegisters(InstrOpInterface instr) {
  for (const InstrParam &p : instr.getParams()) {
    if (p.access == AccessMode::read ||
        !bitEnumContainsAny(p.qual, QualTimeline::wgmma_async_rmem_d))
      continue;
    Value root = viewedBuffer(instr->getOperand(p.operandIndex));
    if (Value local = map.lookupOrNull(root))
      asyncRegisters.insert(local);
  }
}

/// After a wait for all asynchronous register writes, each register of those
/// buffers passes through an empty asm statement with side effects: LLVM
/// may not move a read of an accumulator (a conversion of the epilogue,
/// say) above the wait, which would make ptxas serialize every wgmma of
/// the kernel (its C7514 warning) to keep the read correct.
void DeviceLowering::fenceAsyncRegisters(Location loc) {
  for (Value local : asyncRegisters) {
    auto type = cast<MemRefType>(local.getType());
    Type elem = type.getElementType();
    if (!elem.isF32() && !elem.isInteger(32))
      continue;
    StringRef constraints = elem.isF32() ? "=f,0" : "=r,0";
    SmallVector<int64_t> index(type.getRank(), 0);
    for (int64_t i = 0, e = type.getNumElements(); i < e; ++i) {
      SmallVector<Value> at;
      int64_t rest = i;
      for (int64_t d = type.getRank() - 1; d >= 0; --d) {
        index[d] = rest % type.getDimSize(d);
        rest /= type.getDimSize(d);
      }
      for (int64_t x : index)
        at.push_back(arith::ConstantIndexOp::create(b, loc, x));
      Value v = memref::LoadOp::create(b, loc, local, at);
      auto fence = LLVM::InlineAsmOp::create(
          b, loc, elem, ValueRange{v}, "", constraints,
          /*has_side_effects=*/true, /*is_align_stack=*/false,
          LLVM::tailcallkind::TailCallKind::None,
          LLVM::AsmDialectAttr(), ArrayAttr());
      memref::StoreOp::create(b, loc, fence.getResult(0), local, at);
    }
  }
}

/// barrier.cluster.arrive and .wait count every thread of the cluster.
/// (A wgmma commit group is committed and waited for by warpgroups.)
LogicalResult DeviceLowering::checkWholeCluster(Operation *op) {
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

/// An await: on a commit group, cp.async.wait_group n (cp.async.bulk.wait_group
/// n on a TMA store group: all but the newest
/// n groups of the thread are done; groups of other commit-group
/// variables only make it wait longer); on an mbarrier, each thread waits
/// for the next phase of the element (mbarrier.try_wait.parity in a loop)
/// and flips its parity bit.
LogicalResult DeviceLowering::lowerAwait(AwaitOp await) {
  Location loc = await.getLoc();
  auto type = cast<BarrierType>(await.getBarrier().getType());
  if (type.getMechanism() == BarrierMechanism::cp_async_group) {
    NVVM::CpAsyncWaitGroupOp::create(
        b, loc, static_cast<int32_t>(await.getOutstanding().value_or(0)));
    // cp.async writes shared memory through the generic proxy; the check
    // makes them visible to the async proxy after an await for it (a TMA
    // copy over them, a wgmma reading them), which takes each awaiting
    // thread's fence.proxy.async once the copies are complete.
    if (postIsAsyncProxy(await.getPost()))
      proxyFence(loc);
    return success();
  }
  if (type.getMechanism() == BarrierMechanism::wgmma_group) {
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc,
                                       await.getOutstanding().value_or(0));
    // Only after all groups: with some outstanding, the registers of the
    // newest may still be written.
    if (await.getOutstanding().value_or(0) == 0)
      fenceAsyncRegisters(loc);
    return success();
  }
  if (type.getMechanism() == BarrierMechanism::tma_store_group) {
    // The whole group (its shared memory read and its global writes done),
    // or with `read` only the reads of its sources (.read).
    NVVM::CpAsyncBulkWaitGroupOp::create(
        b, loc, static_cast<int32_t>(await.getOutstanding().value_or(0)),
        await.getReadAttr());
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
  // An await names one element of its own CTA (no intervals: no error).
  Value element = mbarrierElements(await, bar, await.getMap(),
                                   await.getIndices(), {})
                      ->element;
  Type i32 = b.getI32Type();
  Value shift = arith::IndexCastOp::create(b, loc, i32, element);
  Value bits = memref::LoadOp::create(b, loc, bar.parity, ValueRange{});
  Value one = arith::ConstantIntOp::create(b, loc, i32, 1);
  Value bit = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, bits, shift), one);
  Value parity = arith::TruncIOp::create(b, loc, b.getI1Type(), bit);
  // A skip counts the phase as awaited: the parity advances, nothing waits.
  if (!await.getSkip()) {
    if (acquiresAtClusterScope(await.getBarrier())) {
      // Other CTAs' releases at cluster scope publish their writes to this
      // one: the wait acquires at cluster scope too (mbarrier.try_wait's
      // default .acquire.cta would not synchronize with them).
      Value addr = mbarrierPointer(bar, element, loc);
      Value phase = arith::ExtUIOp::create(b, loc, i32, parity);
      Value limit = arith::ConstantIntOp::create(b, loc, i32, 10000000);
      auto loop = scf::WhileOp::create(b, loc, TypeRange{}, ValueRange{});
      {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(b.createBlock(&loop.getBefore()));
        Value done = NVVM::MBarrierTryWaitOp::create(
            b, loc, b.getI1Type(), addr, phase, limit,
            NVVM::MemScopeKindAttr::get(b.getContext(),
                                        NVVM::MemScopeKind::CLUSTER));
        Value notDone = arith::XOrIOp::create(
            b, loc, done,
            arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1));
        scf::ConditionOp::create(b, loc, notDone, ValueRange{});
        b.setInsertionPointToStart(b.createBlock(&loop.getAfter()));
        scf::YieldOp::create(b, loc);
      }
    } else {
      Value ticks = arith::ConstantIndexOp::create(b, loc, 10000000);
      nvgpu::MBarrierTryWaitParityOp::create(b, loc, bar.group, parity, ticks,
                                             element);
    }
  }
  Value flipped = arith::XOrIOp::create(
      b, loc, bits, arith::ShLIOp::create(b, loc, one, shift));
  memref::StoreOp::create(b, loc, flipped, bar.parity, ValueRange{});
  // cp.async copies that complete on this mbarrier wrote through the generic
  // proxy and the arrive (cp.async.mbarrier.arrive) has no proxy fence: the
  // awaiting threads fence once the phase completed, before their async-proxy
  // accesses.
  if (!await.getSkip() && postIsAsyncProxy(await.getPost()) &&
      arrivedByCpAsync(await.getBarrier()))
    proxyFence(loc);
  return success();
}

LogicalResult DeviceLowering::lowerFence(FenceOp fence) {
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
  // Also before an in-order fence where shared memory written through the
  // generic proxy is reused by TMA copies (reuseProxyFence).
  if (toAsyncProxy || asyncWritesReuseGeneric)
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
void DeviceLowering::ctaBarrier(Location loc) {
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
void DeviceLowering::clusterBarrier(Location loc) {
  UnitAttr aligned = currentGroup.empty() ? b.getUnitAttr() : UnitAttr();
  NVVM::ClusterArriveOp::create(b, loc, aligned);
  NVVM::ClusterWaitOp::create(b, loc, aligned);
}

/// Whether each collective of `tiling` is n consecutive threads starting
/// at a multiple of n: the dimensions, innermost first, are whole, then at
/// most one is cut into boxes at multiples of the box, then the rest are
/// single coordinates.
bool DeviceLowering::isAlignedBlock(const CollTiling &tiling, int64_t n) {
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

} // namespace mlir::rake::nvvm_detail
