//===- GpuIRToAMIR.cpp - GpuIR to the abstract machine --------------------===//

#include "Rake/Conversion/GpuIRToAMIR/GpuIRToAMIR.h"
#include "Rake/Analysis/CodegenFacts.h"
#include "Rake/Conversion/Passes.h"
#include "Rake/Dialect/GpuIR/IR/Visitors.h"

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::rake {
#define GEN_PASS_DEF_CONVERTGPUIRTOAMIR
#include "Rake/Conversion/Passes.h.inc"
} // namespace mlir::rake

using namespace mlir;
using namespace mlir::rake;
using namespace mlir::rake::gpuir;

namespace {

using Q = QualTimeline;

/// Every device access (the quals a kernel launch orders): GpuIR.h's group.
constexpr Q kDeviceQuals = gpuir::qual_groups::kKernelDevice;
constexpr Q kAllQuals = kDeviceQuals | Q::cpu_in_order | Q::cpu_cuda_stream;

/// A window of an AMIR variable, in GpuIR terms: per dimension of the
/// variable a start (and an end, for an interval) as affine expressions of
/// GpuIR control values.
struct Window {
  Value var;
  SmallVector<Value> operands;
  SmallVector<AffineExpr> lo;
  SmallVector<AffineExpr> hi; // Null for a point.
  MemoryTypeAttrInterface memory;
  bool exempt = false;
};

class Converter : public StmtVisitor<Converter, LogicalResult> {
public:
  Converter(const CollectiveAnalysis &coll, OpBuilder &b) : coll(coll), b(b) {}

  FailureOr<amir::ProcOp> convert(ProcOp proc);

  // Each statement's abstract-machine program (StmtVisitor).
  using StmtVisitor::visitStmt;
  LogicalResult visitStmt(ForOp loop) { return convertFor(loop); }
  LogicalResult visitStmt(DeviceFunctionOp device) {
    return convertDevice(device);
  }
  LogicalResult visitStmt(IfOp ifOp) { return convertIf(ifOp); }
  LogicalResult visitStmt(WarpsOp warps) { return convertWarps(warps); }
  /// A fused region is a promise about code generation; its statements run
  /// where it stands.
  LogicalResult visitStmt(FusedOp fused) {
    return convertBlock(*fused.getBodyBlock());
  }
  LogicalResult visitStmt(AllocOp alloc) { return convertAlloc(alloc); }
  LogicalResult visitStmt(FreeOp freeOp);
  LogicalResult visitStmt(CallOp call);
  LogicalResult visitAccess(AccessOpInterface access);
  LogicalResult visitSync(Operation *op) { return convertSync(op); }
  LogicalResult visitInstr(InstrOpInterface instr) {
    return convertInstr(instr);
  }
  LogicalResult visitOther(Operation *op);
  LogicalResult visitUnhandledStmt(Operation *op) { return visitOther(op); }

private:
  LogicalResult convertBlock(Block &block, bool endsTask = false);
  /// The barrier of each CTA that ends a device task.
  LogicalResult emitCtaBarriers(Operation *at);
  /// A GpuIR if as an AMIR guard, with its then and else blocks.
  LogicalResult convertIf(IfOp ifOp);
  /// A warps region as an AMIR guard on the threads it maps to.
  LogicalResult convertWarps(WarpsOp warps);
  /// An allocation as an AMIR variable and its whole-variable window.
  LogicalResult convertAlloc(AllocOp alloc);
  /// A window op's window, composed into its source's coordinates.
  LogicalResult convertWindow(WindowOp window);
  LogicalResult convertFor(ForOp loop);
  LogicalResult convertDevice(DeviceFunctionOp device);
  LogicalResult convertInstr(InstrOpInterface instr);
  FailureOr<Window> perThread(InstrOpInterface instr, const InstrParam &p,
                              const Window &w);
  LogicalResult convertSync(Operation *op);

  /// Emits `kind` on a window: the variable, its index operands (mapped to
  /// AMIR), the map and interval flags.
  template <typename OpT, typename... Args>
  void emitOnWindow(Location loc, const Window &w, Args &&...args);

  FailureOr<Window> windowOf(Operation *user, Value memref);
  QualTimeline plainQual(Operation *op, const Window &w);
  Value mapIndex(Value v) { return indexMap.lookupOrNull(v); }
  SmallVector<Attribute> threadMapping(Operation *scopeOp);

  const CollectiveAnalysis &coll;
  OpBuilder &b;
  IRMapping indexMap;
  DenseMap<Value, Window> windows;
  /// Variables freed explicitly, which the block end does not free again.
  DenseSet<Value> freed;
  /// The common coordinate system of the device function being converted,
  /// and its launch shape.
  SmallVector<int64_t> domain;
  int64_t blockDim = 0, clusterDim = 1;
};

} // namespace

FailureOr<Window> Converter::windowOf(Operation *user, Value memref) {
  auto it = windows.find(memref);
  if (it == windows.end()) {
    user->emitOpError() << "accesses a buffer that the conversion to the "
                           "abstract machine cannot trace to an allocation "
                           "or parameter";
    return failure();
  }
  return it->second;
}

QualTimeline Converter::plainQual(Operation *op, const Window &w) {
  if (getDeviceScope(op) == DeviceScope::CPU)
    return Q::cpu_in_order;
  if (isa_and_nonnull<RmemAttr, UniformRmemAttr>(w.memory))
    return Q::cuda_in_order_rmem;
  return Q::cuda_in_order_ram;
}

template <typename OpT, typename... Args>
void Converter::emitOnWindow(Location loc, const Window &w, Args &&...args) {
  SmallVector<Value> amirOperands;
  for (Value v : w.operands)
    amirOperands.push_back(mapIndex(v));
  SmallVector<AffineExpr> exprs;
  SmallVector<bool> intervals;
  for (auto [lo, hi] : llvm::zip(w.lo, w.hi)) {
    exprs.push_back(lo);
    intervals.push_back(static_cast<bool>(hi));
    if (hi)
      exprs.push_back(hi);
  }
  auto map = AffineMap::get(amirOperands.size(), 0, exprs, b.getContext());
  OpT::create(b, loc, w.var, amirOperands, AffineMapAttr::get(map),
              b.getDenseBoolArrayAttr(intervals), std::forward<Args>(args)...);
}

/// A barrier expression's window: the barrier variable at the coordinates of
/// a map over `indices` (lo, and hi for an interval).
static Window barrierWindow(const Window &barrier, ValueRange indices,
                            AffineMap map, ArrayRef<bool> intervals) {
  Window w = barrier;
  w.operands.assign(indices.begin(), indices.end());
  w.lo.clear();
  w.hi.clear();
  unsigned r = 0;
  for (bool isInterval : intervals) {
    w.lo.push_back(map.getResult(r++));
    w.hi.push_back(isInterval ? map.getResult(r++) : AffineExpr());
  }
  return w;
}

/// Composes `indices` (affine in `operands`) into the window `w`: point
/// accesses of its intervals, in order.
static Window compose(const Window &w, ArrayRef<Value> operands, AffineMap map,
                      bool asPoints) {
  Window r = w;
  // Shift the access's dims after the window's operands.
  unsigned base = r.operands.size();
  r.operands.append(operands.begin(), operands.end());
  unsigned k = 0;
  for (size_t d = 0; d < r.lo.size(); ++d) {
    if (!r.hi[d])
      continue;
    AffineExpr idx = map.getResult(k++).shiftDims(map.getNumDims(), base);
    r.lo[d] = r.lo[d] + idx;
    if (asPoints)
      r.hi[d] = AffineExpr();
  }
  return r;
}

/// Whether every access of a buffer (through its windows) is an in-order
/// register access. Each thread accesses only its own part of a register
/// buffer (the distributed memory analysis proves it, the sync check runs
/// it first), so such accesses happen in one thread's program order and
/// cannot race: they need not be recorded, which keeps the check of
/// register-heavy kernels (mma.sync fragments) fast.
static bool onlyInOrderUses(Value v) {
  for (OpOperand &use : v.getUses()) {
    Operation *user = use.getOwner();
    if (isa<ReadOp, WriteOp, ReduceOp, FreeOp>(user))
      continue;
    if (auto window = dyn_cast<WindowOp>(user)) {
      if (!onlyInOrderUses(window.getResult()))
        return false;
      continue;
    }
    auto instr = dyn_cast<InstrOpInterface>(user);
    if (!instr)
      return false;
    for (const InstrParam &p : instr.getParams())
      if (p.operandIndex == use.getOperandNumber() &&
          p.qual != Q::cuda_in_order_rmem)
        return false;
  }
  return true;
}

/// Whether an arrive statement names the barrier (else code generation
/// refuses it, and the check reports the awaits that nothing completes).
/// Whether anything arrives on the barrier: an arrive statement, or an
/// instruction completing on it (its trailing barrier).
static bool hasArrivals(AllocOp alloc) {
  return llvm::any_of(alloc.getResult().getUsers(), [&](Operation *user) {
    auto instr = dyn_cast<InstrOpInterface>(user);
    return isa<ArriveOp>(user) ||
           (instr && instr.getTrailingBarrier() == alloc.getResult());
  });
}

/// An element access: its checks, then its record.
LogicalResult Converter::visitAccess(AccessOpInterface access) {
  if (auto window = dyn_cast<WindowOp>(access.getOperation()))
    return convertWindow(window);
  FailureOr<Window> w = windowOf(access, access.getBuffer());
  if (failed(w))
    return failure();
  if (w->exempt)
    return success();
  ValueRange indices = access.getIndices();
  Window point =
      compose(*w, SmallVector<Value>(indices.begin(), indices.end()),
              access.getMap(), /*asPoints=*/true);
  auto qual = QualTimelineAttr::get(b.getContext(), plainQual(access, *w));
  Location loc = access->getLoc();
  bool read = access.readsElement(), mutate = access.mutatesElement();
  if (read)
    emitOnWindow<amir::CheckReadsOp>(loc, point, qual, nullptr, StringAttr());
  if (mutate)
    emitOnWindow<amir::CheckMutatesOp>(loc, point, qual, nullptr, StringAttr());
  if (read && !mutate)
    emitOnWindow<amir::RecordReadOp>(loc, point, qual, UnitAttr(), StringAttr());
  if (mutate)
    emitOnWindow<amir::RecordMutateOp>(loc, point, qual, UnitAttr(), StringAttr());
  return success();
}

LogicalResult Converter::convertInstr(InstrOpInterface instr) {
  Operation *op = instr;
  Location loc = op->getLoc();
  SmallVector<InstrParam> params = instr.getParams();
  for (const InstrParam &p : params) {
    FailureOr<Window> w = windowOf(op, op->getOperand(p.operandIndex));
    if (failed(w))
      return failure();
    if (w->exempt)
      continue;
    auto qual = QualTimelineAttr::get(b.getContext(), p.qual);
    StringAttr order =
        p.orderKey.empty() ? StringAttr() : b.getStringAttr(p.orderKey);
    bool read = p.access != AccessMode::write;
    bool mutate = p.access != AccessMode::read;
    OpBuilder::InsertionGuard guard(b);
    FailureOr<Window> part = perThread(instr, p, *w);
    if (failed(part))
      return failure();
    if (read)
      emitOnWindow<amir::CheckReadsOp>(loc, *part, qual, nullptr, order);
    if (mutate)
      emitOnWindow<amir::CheckMutatesOp>(loc, *part, qual, nullptr, order);
  }
  // Record after checking every parameter: an instruction's accesses happen
  // together.
  for (const InstrParam &p : params) {
    Window w = windows.lookup(op->getOperand(p.operandIndex));
    if (w.exempt)
      continue;
    auto qual = QualTimelineAttr::get(b.getContext(), p.qual);
    UnitAttr ooo = p.outOfOrder ? b.getUnitAttr() : UnitAttr();
    StringAttr order =
        p.orderKey.empty() ? StringAttr() : b.getStringAttr(p.orderKey);
    OpBuilder::InsertionGuard guard(b);
    FailureOr<Window> part = perThread(instr, p, w);
    if (failed(part))
      return failure();
    if (p.access == AccessMode::read)
      emitOnWindow<amir::RecordReadOp>(loc, *part, qual, ooo, order);
    else
      emitOnWindow<amir::RecordMutateOp>(loc, *part, qual, ooo, order);
  }
  if (Value barrier = instr.getTrailingBarrier()) {
    // The instruction completes through the barrier: it arrives there with
    // its own timeline's accesses.
    SmallVector<Value> indices;
    AffineMap map;
    SmallVector<bool> intervals;
    instr.getTrailingBarrierCoords(indices, map, intervals);
    FailureOr<Window> w = windowOf(op, barrier);
    if (failed(w))
      return failure();
    Window bw = barrierWindow(*w, indices, map, intervals);
    Q pre = Q::none;
    for (const InstrParam &p : params)
      pre = pre | p.qual;
    auto preAttr = QualTimelineAttr::get(b.getContext(), pre);
    auto on = QualTimelineAttr::get(b.getContext(), Q::cuda_in_order_ram);
    int64_t recorded = llvm::count_if(params, [&](const InstrParam &p) {
      return !windows.lookup(op->getOperand(p.operandIndex)).exempt;
    });
    emitOnWindow<amir::ArriveOp>(loc, bw, preAttr, on, UnitAttr(),
                                 b.getI64IntegerAttr(recorded));
  }
  return success();
}

/// A parameter distributed over units (a warp's register fragment, one row
/// per lane) that an instruction accesses in order is accessed by each unit
/// in its own part: the leading intervals of its window become the
/// variables of synthetic thread loops over the units, opened at the
/// insertion point (which the caller restores), and the window is narrowed
/// to one unit's part. So a lane's own write before a warp's mma.sync needs
/// no fence. Asynchronous accesses (wgmma's accumulator) stay accesses of
/// the whole collective: only a wait of the collective observes them, and
/// one record instead of one per thread keeps the check fast.
FailureOr<Window> Converter::perThread(InstrOpInterface instr,
                                       const InstrParam &p, const Window &w) {
  if (p.distributedUnits.empty() || p.qual != Q::cuda_in_order_rmem)
    return w;
  Operation *op = instr;
  Location loc = op->getLoc();
  MLIRContext *ctx = b.getContext();
  const CollTiling *scope = coll.getScopeTiling(op);
  if (!scope)
    return op->emitOpError() << "has no collective tiling";
  CollTiling tiling = *scope;
  Window part = w;
  size_t d = 0;
  for (Attribute u : p.distributedUnits) {
    while (d < part.lo.size() && !part.hi[d])
      ++d;
    auto extent = d < part.lo.size()
                      ? dyn_cast<AffineConstantExpr>(simplifyAffineExpr(
                            part.hi[d] - part.lo[d], part.operands.size(), 0))
                      : AffineConstantExpr();
    if (!extent)
      return op->emitOpError()
             << "parameter '" << p.name
             << "' is distributed over threads, but its window has no "
                "interval of constant size for the distributed dimension";
    std::string error;
    auto unit = evaluateUnit(cast<CollUnitAttr>(u).getCollType(), blockDim,
                             clusterDim, error);
    FailureOr<CollTiling> derived =
        failed(unit) ? FailureOr<CollTiling>(failure())
                     : tiling.derive(op, Value(), *unit, 0, extent.getValue(),
                                     /*tiled=*/true, error);
    FailureOr<CollTiling> refined =
        failed(derived) ? FailureOr<CollTiling>(failure())
                        : derived->refinedTo(domain, error);
    if (failed(refined))
      return op->emitOpError() << "cannot run parameter '" << p.name
                               << "' over its threads: " << error;
    tiling = *derived;
    SmallVector<Attribute> tiles;
    for (auto [dim, cd] : llvm::enumerate(refined->getDims()))
      for (const TileOp &t : cd.ops)
        if (t.owner == op && t.level + 1 == refined->getDepth())
          tiles.push_back(amir::TileAttr::get(ctx, dim, t.offset, t.step,
                                              t.box, t.div, t.mod));
    Attribute threads = tiles.size() == 1 ? tiles.front()
                                          : Attribute(b.getArrayAttr(tiles));
    auto loop = amir::LoopOp::create(
        b, loc, ValueRange(), ValueRange(),
        AffineMapAttr::get(AffineMap::getConstantMap(0, ctx)),
        AffineMapAttr::get(AffineMap::getConstantMap(extent.getValue(), ctx)),
        threads, UnitAttr(), b.getStringAttr(p.name.str() + "_part"));
    Block *body = new Block();
    loop.getBody().push_back(body);
    Value iv = body->addArgument(b.getIndexType(), loc);
    indexMap.map(iv, iv);
    part.operands.push_back(iv);
    part.lo[d] = part.lo[d] + getAffineDimExpr(part.operands.size() - 1, ctx);
    part.hi[d] = AffineExpr();
    ++d;
    b.setInsertionPointToStart(body);
  }
  return part;
}

SmallVector<Attribute> Converter::threadMapping(Operation *scopeOp) {
  SmallVector<Attribute> result;
  const CollTiling *t = coll.getTilingInside(scopeOp);
  if (!t)
    return result;
  std::string error;
  FailureOr<CollTiling> refined = t->refinedTo(domain, error);
  if (failed(refined))
    return result;
  for (auto [d, dim] : llvm::enumerate(refined->getDims()))
    for (const TileOp &op : dim.ops) {
      if (op.owner != scopeOp)
        continue;
      if (isa<WarpsOp>(scopeOp)) {
        int64_t lo = op.start(0);
        result.push_back(amir::SliceAttr::get(b.getContext(), d, lo, lo + op.box));
      } else {
        result.push_back(amir::TileAttr::get(b.getContext(), d, op.offset,
                                             op.step, op.box, op.div, op.mod));
      }
    }
  return result;
}

/// The bounds of a loop's lower or upper map, over AMIR operands.
static std::pair<AffineMap, SmallVector<Value>>
mapBound(AffineMap map, ValueRange operands, IRMapping &indexMap) {
  SmallVector<Value> mapped;
  for (Value v : operands)
    mapped.push_back(indexMap.lookup(v));
  return {map, mapped};
}

LogicalResult Converter::convertFor(ForOp loop) {
  auto [lbMap, lbOps] =
      mapBound(loop.getLowerMap(), loop.getLowerOperands(), indexMap);
  auto [ubMap, ubOps] =
      mapBound(loop.getUpperMap(), loop.getUpperOperands(), indexMap);
  Attribute threads;
  if (loop.getLoopMode() == LoopMode::cuda_threads) {
    SmallVector<Attribute> tiles = threadMapping(loop);
    if (tiles.size() == 1)
      threads = tiles.front();
    else if (!tiles.empty())
      threads = b.getArrayAttr(tiles);
  }
  auto amirLoop = amir::LoopOp::create(
      b, loop.getLoc(), lbOps, ubOps, AffineMapAttr::get(lbMap),
      AffineMapAttr::get(ubMap), threads,
      loop.getLoopMode() == LoopMode::cuda_tasks ? b.getUnitAttr()
                                                 : UnitAttr(),
      loop.getIvNameAttr());
  Block *body = new Block();
  amirLoop.getBody().push_back(body);
  Value iv = body->addArgument(b.getIndexType(), loop.getLoc());
  indexMap.map(loop.getInductionVar(), iv);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(body);
  bool innermostTasks =
      loop.getLoopMode() == LoopMode::cuda_tasks &&
      !llvm::any_of(loop.getBodyBlock()->getOps<ForOp>(), [](ForOp inner) {
        return inner.getLoopMode() == LoopMode::cuda_tasks;
      });
  return convertBlock(*loop.getBodyBlock(), innermostTasks);
}

LogicalResult Converter::convertDevice(DeviceFunctionOp device) {
  std::string error;
  FailureOr<SmallVector<int64_t>> common = coll.getCommonDomain(device, error);
  if (failed(common))
    return device.emitOpError()
           << "cannot give its collectives one coordinate system: " << error;
  domain = *common;
  blockDim = device.getBlockDim();
  clusterDim = device.getCluster();
  MLIRContext *ctx = b.getContext();
  Location loc = device.getLoc();
  auto quals = [&](Q q) { return QualTimelineAttr::get(ctx, q); };
  // The launch orders everything before it (the CPU's accesses and earlier
  // kernels') before the kernel's device accesses.
  amir::FenceOp::create(b, loc, quals(kAllQuals), quals(kDeviceQuals),
                        quals(kDeviceQuals), b.getUnitAttr());
  auto guard = amir::GuardOp::create(
      b, loc, ValueRange(), AffineMapAttr::get(AffineMap::get(ctx)),
      b.getDenseI32ArrayAttr({}), amir::DomainAttr::get(ctx, domain),
      DenseI32ArrayAttr());
  Block *body = new Block();
  guard.getBody().push_back(body);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(body);
    if (failed(convertBlock(device.getBody().front())))
      return failure();
  }
  // The kernel's completion, in stream order: its accesses become visible to
  // the stream, which a CPU fence cuda_stream_sync -> cpu_in_order waits on.
  amir::FenceOp::create(b, loc, quals(kDeviceQuals), quals(Q::cpu_cuda_stream),
                        quals(Q::cpu_cuda_stream), b.getUnitAttr());
  return success();
}

LogicalResult Converter::convertSync(Operation *op) {
  MLIRContext *ctx = b.getContext();
  auto quals = [&](Q q) { return QualTimelineAttr::get(ctx, q); };
  Location loc = op->getLoc();
  if (auto fence = dyn_cast<FenceOp>(op)) {
    const SyncTimelineInfo &pre = getSyncTimelineInfo(fence.getPre());
    const SyncTimelineInfo &post = getSyncTimelineInfo(fence.getPost());
    amir::FenceOp::create(b, loc, quals(pre.full), quals(post.full),
                          quals(post.temporal),
                          pre.transitive ? b.getUnitAttr() : UnitAttr());
    return success();
  }
  if (auto arrive = dyn_cast<ArriveOp>(op)) {
    const SyncTimelineInfo &pre = getSyncTimelineInfo(arrive.getPre());
    for (unsigned i = 0, e = arrive.getBarriers().size(); i < e; ++i) {
      FailureOr<Window> w = windowOf(op, arrive.getBarriers()[i]);
      if (failed(w))
        return failure();
      AffineMap map = cast<AffineMapAttr>(arrive.getMaps()[i]).getValue();
      ArrayRef<bool> intervals =
          cast<DenseBoolArrayAttr>(arrive.getIntervals()[i]).asArrayRef();
      Window bw =
          barrierWindow(*w, arrive.getBarrierIndices(i), map, intervals);
      emitOnWindow<amir::ArriveOp>(
          loc, bw, quals(pre.full), quals(Q::cuda_in_order_ram),
          pre.transitive ? b.getUnitAttr() : UnitAttr(), IntegerAttr());
    }
    return success();
  }
  auto await = cast<AwaitOp>(op);
  // What the check accepts is what code generation lowers.
  if (failed(verifyMbarrierLag(await)))
    return failure();
  const SyncTimelineInfo &post = getSyncTimelineInfo(await.getPost());
  FailureOr<Window> w = windowOf(op, await.getBarrier());
  if (failed(w))
    return failure();
  Window bw = barrierWindow(
      *w, await.getIndices(), await.getMap(),
      SmallVector<bool>(await.getMap().getNumResults(), false));
  IntegerAttr lag = await.getLagAttr(), outstanding = await.getOutstandingAttr();
  // Only wgmma.fence makes register accesses visible to a wgmma's register
  // operands (the PTX ISA requires it between them); code generation lowers
  // an await with none, so an await makes nothing visible to them (an await
  // for wgmma_async standing in for `fence wgmma_fence_1 -> wgmma_fence_2`
  // was accepted: found by an adversarial review).
  Q full = post.full & ~qual_groups::kWgmmaRmem;
  emitOnWindow<amir::AwaitOp>(loc, bw, quals(full), quals(post.temporal),
                              lag, outstanding, await.getReadAttr(),
                              await.getSkipAttr());
  return success();
}

LogicalResult Converter::convertIf(IfOp ifOp) {
  Location loc = ifOp.getLoc();
  SmallVector<Value> operands;
  for (Value v : ifOp.getOperands())
    operands.push_back(mapIndex(v));
  auto guard = amir::GuardOp::create(b, loc, operands, ifOp.getMapAttr(),
                                     ifOp.getPredicatesAttr(), Attribute(),
                                     ifOp.getClausesAttr());
  guard.getBody().push_back(new Block());
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&guard.getBody().front());
    if (failed(convertBlock(ifOp.getThenRegion().front())))
      return failure();
  }
  if (ifOp.hasElse()) {
    guard.getElseBody().push_back(new Block());
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&guard.getElseBody().front());
    if (failed(convertBlock(ifOp.getElseRegion().front())))
      return failure();
  }
  return success();
}

LogicalResult Converter::convertWarps(WarpsOp warps) {
  MLIRContext *ctx = b.getContext();
  Location loc = warps.getLoc();
  SmallVector<Attribute> slices = threadMapping(warps);
  Attribute threads;
  if (slices.size() == 1)
    threads = slices.front();
  else if (!slices.empty())
    threads = b.getArrayAttr(slices);
  auto guard = amir::GuardOp::create(b, loc, ValueRange(),
                                     AffineMapAttr::get(AffineMap::get(ctx)),
                                     b.getDenseI32ArrayAttr({}), threads,
                                     DenseI32ArrayAttr());
  guard.getBody().push_back(new Block());
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(&guard.getBody().front());
  return convertBlock(warps.getBody().front());
}

LogicalResult Converter::convertAlloc(AllocOp alloc) {
  MLIRContext *ctx = b.getContext();
  Location loc = alloc.getLoc();
  Type type = alloc.getResult().getType();
  Window w;
  SmallVector<int64_t> shape;
  bool shared = false;
  Type varType = amir::DataType::get(ctx);
  if (auto memref = dyn_cast<MemRefType>(type)) {
    shape.assign(memref.getShape().begin(), memref.getShape().end());
    w.memory = cast<MemoryTypeAttrInterface>(memref.getMemorySpace());
    shared = w.memory.isSharedMemory();
    w.exempt = w.memory.isSyncExempt() ||
               (isa<RmemAttr>(w.memory) && onlyInOrderUses(alloc.getResult()));
  } else {
    auto barrier = cast<BarrierType>(type);
    shape.assign(barrier.getShape().begin(), barrier.getShape().end());
    varType = amir::BarrierType::get(ctx, barrier.getMechanism());
    shared = barrier.isMbarrier();
  }
  // A dynamic dimension's extent is the alloc's size operand for it.
  SmallVector<Value> sizes;
  SmallVector<AffineExpr> extents;
  unsigned nextSize = 0;
  for (int64_t &d : shape) {
    if (ShapedType::isDynamic(d)) {
      d = -1;
      sizes.push_back(mapIndex(alloc.getDynamicSizes()[nextSize]));
      extents.push_back(b.getAffineDimExpr(nextSize++));
    } else {
      extents.push_back(b.getAffineConstantExpr(d));
    }
  }
  auto amirAlloc = amir::AllocOp::create(
      b, loc, varType,
      alloc.getNameAttr() ? alloc.getNameAttr() : b.getStringAttr("buffer"),
      b.getDenseI64ArrayAttr(shape), shared ? b.getUnitAttr() : UnitAttr());
  if (!sizes.empty()) {
    amirAlloc.getExtentOperandsMutable().assign(sizes);
    amirAlloc.setExtentsAttr(
        AffineMapAttr::get(AffineMap::get(sizes.size(), 0, extents, ctx)));
  }
  // The arrivals code generation initializes an mbarrier with: every
  // phase the check interprets must complete with exactly as many.
  if (auto barrier = dyn_cast<BarrierType>(type);
      barrier && barrier.isMbarrier() && hasArrivals(alloc)) {
    FailureOr<int64_t> arrivals = mbarrierArrivals(alloc, coll);
    if (failed(arrivals))
      return failure();
    amirAlloc.setArrivalsAttr(b.getI64IntegerAttr(*arrivals));
  }
  w.var = amirAlloc;
  for (int64_t d : shape) {
    w.lo.push_back(b.getAffineConstantExpr(0));
    w.hi.push_back(b.getAffineConstantExpr(d < 0 ? kUnboundedExtent : d));
  }
  windows[alloc.getResult()] = w;
  return success();
}

LogicalResult Converter::convertWindow(WindowOp window) {
  FailureOr<Window> src = windowOf(window, window.getSource());
  if (failed(src))
    return failure();
  // The window's coordinates, composed into its source's.
  Window w = *src;
  unsigned base = w.operands.size();
  w.operands.append(window.getIndices().begin(), window.getIndices().end());
  AffineMap map = window.getMap();
  unsigned r = 0, k = 0;
  SmallVector<AffineExpr> lo, hi;
  for (size_t d = 0; d < src->lo.size(); ++d) {
    if (!src->hi[d]) {
      lo.push_back(src->lo[d]);
      hi.push_back(AffineExpr());
      continue;
    }
    bool isInterval = window.getIntervals()[k++];
    AffineExpr l = map.getResult(r++).shiftDims(map.getNumDims(), base);
    lo.push_back(src->lo[d] + l);
    if (isInterval) {
      AffineExpr h = map.getResult(r++).shiftDims(map.getNumDims(), base);
      hi.push_back(src->lo[d] + h);
    } else {
      hi.push_back(AffineExpr());
    }
  }
  w.lo = lo;
  w.hi = hi;
  windows[window.getResult()] = w;
  return success();
}

LogicalResult Converter::visitStmt(FreeOp freeOp) {
  FailureOr<Window> w = windowOf(freeOp, freeOp.getBuffer());
  if (failed(w))
    return failure();
  amir::FreeOp::create(b, freeOp.getLoc(), w->var, UnitAttr());
  freed.insert(w->var);
  return success();
}

LogicalResult Converter::visitStmt(CallOp call) {
  return call.emitOpError()
         << "calls '" << call.getCallee()
         << "'; the synchronization check needs calls inlined first";
}

LogicalResult Converter::visitOther(Operation *op) {
  // Scalar arithmetic on data values has no memory effects to check.
  if (op->getNumRegions() == 0 && isMemoryEffectFree(op))
    return success();
  return op->emitOpError()
         << "has effects that the synchronization check cannot see; use "
            "GpuIR accesses or an instruction (InstrOpInterface)";
}

LogicalResult Converter::emitCtaBarriers(Operation *at) {
  MLIRContext *ctx = b.getContext();
  Location loc = at->getLoc();
  auto quals = [&](Q q) { return QualTimelineAttr::get(ctx, q); };
  Q inOrder = Q::cuda_in_order_ram | Q::cuda_in_order_rmem;
  auto emitFence = [&]() {
    amir::FenceOp::create(b, loc, quals(inOrder), quals(Q::none),
                          quals(kDeviceQuals), b.getUnitAttr());
  };
  if (clusterDim == 1) {
    emitFence();
    return success();
  }
  // One iteration per CTA, in the device function's coordinates.
  std::string error;
  auto cta = evaluateUnit(
      CollUnitAttr::get(ctx, CollUnitKind::cta_in_cluster, 1, 0).getCollType(),
      blockDim, clusterDim, error);
  FailureOr<CollTiling> perCta =
      failed(cta) ? FailureOr<CollTiling>(failure())
                  : CollTiling::root(blockDim, clusterDim)
                        .derive(at, Value(), *cta, 0, clusterDim,
                                /*tiled=*/true, error);
  if (succeeded(perCta))
    perCta = perCta->refinedTo(domain, error);
  if (failed(perCta))
    return at->emitOpError() << "cannot place the barrier that ends a task: "
                             << error;
  SmallVector<Attribute> tiles;
  for (auto [d, dim] : llvm::enumerate(perCta->getDims()))
    for (const TileOp &op : dim.ops)
      tiles.push_back(amir::TileAttr::get(ctx, d, op.offset, op.step, op.box,
                                          op.div, op.mod));
  Attribute threads = tiles.size() == 1 ? tiles.front()
                                        : Attribute(b.getArrayAttr(tiles));
  auto zero = AffineMapAttr::get(AffineMap::getConstantMap(0, ctx));
  auto count = AffineMapAttr::get(AffineMap::getConstantMap(clusterDim, ctx));
  auto loop = amir::LoopOp::create(b, loc, ValueRange(), ValueRange(), zero,
                                   count, threads, UnitAttr(),
                                   b.getStringAttr("cta"));
  Block *body = new Block();
  loop.getBody().push_back(body);
  body->addArgument(b.getIndexType(), loc);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(body);
  emitFence();
  return success();
}

LogicalResult Converter::convertBlock(Block &block, bool endsTask) {
  SmallVector<Value> allocated;
  for (Operation &op : block) {
    if (failed(dispatchStmt(&op)))
      return failure();
    if (auto alloc = dyn_cast<AllocOp>(&op))
      allocated.push_back(alloc.getResult());
  }
  Location loc = block.getParentOp()->getLoc();
  if (!block.empty())
    loc = block.back().getLoc();
  if (endsTask) {
    // Code generation ends each device task with a barrier of each CTA
    // (bar.sync) before the next task reuses its shared memory: in-order
    // accesses, and what the CTA's threads already waited for, are ordered
    // before anything the CTA does next. Ordering across the CTAs of a
    // cluster (before a free of shared memory, which any CTA may reuse) is
    // the program's to write, with a cluster barrier.
    if (failed(emitCtaBarriers(block.getParentOp())))
      return failure();
  }
  // Free what the block allocated and did not free, as the compiler's free
  // insertion will.
  for (Value v : llvm::reverse(allocated)) {
    Value var = windows.lookup(v).var;
    if (var && !freed.contains(var))
      amir::FreeOp::create(b, loc, var, b.getUnitAttr());
  }
  return success();
}

FailureOr<amir::ProcOp> Converter::convert(ProcOp proc) {
  MLIRContext *ctx = b.getContext();
  if (failed(verifyOneDeviceFunction(proc)))
    return failure();
  SmallVector<Type> controlTypes;
  SmallVector<DictionaryAttr> argAttrs;
  for (auto [i, t] : llvm::enumerate(proc.getArgumentTypes()))
    if (isa<IndexType>(t)) {
      controlTypes.push_back(t);
      argAttrs.push_back(proc.getArgAttrDict(i) ? proc.getArgAttrDict(i)
                                                : DictionaryAttr::get(ctx));
    }
  SmallVector<Attribute> names;
  if (ArrayAttr all = proc.getArgNamesAttr())
    for (auto [i, t] : llvm::enumerate(proc.getArgumentTypes()))
      if (isa<IndexType>(t))
        names.push_back(all[i]);
  auto amirProc = amir::ProcOp::create(
      b, proc.getLoc(), b.getStringAttr(proc.getSymName().str() + ".amir"),
      TypeAttr::get(b.getFunctionType(controlTypes, {})), StringAttr(),
      b.getArrayAttr(SmallVector<Attribute>(argAttrs.begin(), argAttrs.end())),
      ArrayAttr(), names.empty() ? ArrayAttr() : b.getArrayAttr(names));
  for (NamedAttribute attr : proc->getDiscardableAttrs())
    amirProc->setAttr(attr.getName(), attr.getValue());
  Block *body = new Block();
  amirProc.getBody().push_back(body);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(body);
  Block &entry = proc.getBody().front();
  SmallVector<Value> controls;
  for (BlockArgument arg : entry.getArguments())
    if (isa<IndexType>(arg.getType())) {
      indexMap.map(arg, body->addArgument(arg.getType(), arg.getLoc()));
      controls.push_back(indexMap.lookup(arg));
    }
  for (BlockArgument arg : entry.getArguments()) {
    auto memref = dyn_cast<MemRefType>(arg.getType());
    if (!memref)
      continue; // Tensor maps are CPU-side descriptions.
    Window w;
    w.memory = cast<MemoryTypeAttrInterface>(memref.getMemorySpace());
    w.exempt = w.memory.isSyncExempt();
    SmallVector<int64_t> shape(memref.getShape());
    for (int64_t &d : shape)
      if (ShapedType::isDynamic(d))
        d = -1;
    w.var = amir::AllocOp::create(
        b, arg.getLoc(), amir::DataType::get(ctx),
        b.getStringAttr(
            proc.getArgNamesAttr() &&
                    !cast<StringAttr>(proc.getArgNamesAttr()[arg.getArgNumber()])
                         .getValue()
                         .empty()
                ? cast<StringAttr>(proc.getArgNamesAttr()[arg.getArgNumber()])
                      .getValue()
                      .str()
                : "parameter #" + std::to_string(arg.getArgNumber())),
        b.getDenseI64ArrayAttr(shape), UnitAttr());
    // The extents the procedure declares for its dynamic dimensions, over
    // its control parameters: the check proves every access within them.
    if (auto extents = proc.getArgAttrOfType<AffineMapAttr>(
            arg.getArgNumber(), kExtentsAttrName)) {
      auto alloc = cast<amir::AllocOp>(w.var.getDefiningOp());
      alloc.getExtentOperandsMutable().assign(controls);
      alloc.setExtentsAttr(extents);
    }
    for (int64_t d : shape) {
      w.lo.push_back(b.getAffineConstantExpr(0));
      w.hi.push_back(b.getAffineConstantExpr(d < 0 ? kUnboundedExtent : d));
    }
    windows[arg] = w;
  }
  if (failed(convertBlock(entry)))
    return failure();
  return amirProc;
}

FailureOr<amir::ProcOp> mlir::rake::convertProcToAMIR(ProcOp proc,
                                                      const CollectiveAnalysis &coll,
                                                      OpBuilder &builder) {
  Converter converter(coll, builder);
  return converter.convert(proc);
}

namespace {
struct ConvertGpuIRToAMIR
    : rake::impl::ConvertGpuIRToAMIRBase<ConvertGpuIRToAMIR> {
  void runOnOperation() override {
    auto &coll = getAnalysis<CollectiveAnalysis>();
    if (failed(coll.emitErrors()))
      return signalPassFailure();
    ModuleOp module = getOperation();
    OpBuilder b(module.getContext());
    for (ProcOp proc : llvm::to_vector(module.getOps<ProcOp>())) {
      b.setInsertionPointAfter(proc);
      if (failed(convertProcToAMIR(proc, coll, b)))
        return signalPassFailure();
    }
  }
};
} // namespace
