//===- SequentialLowering.h - GpuIR statements to scf/memref ----*- C++ -*-===//
//
// The lowering of GpuIR's statements to func/scf/memref/arith that both the
// sequential meaning (convert-gpuir-to-cpu) and the device code
// (convert-gpuir-to-nvvm) start from; the latter overrides what parallelism
// and synchronization mean.
//
//===----------------------------------------------------------------------===//

#ifndef RAKE_LIB_CONVERSION_SEQUENTIALLOWERING_H
#define RAKE_LIB_CONVERSION_SEQUENTIALLOWERING_H

#include "Rake/Dialect/GpuIR/IR/GpuIR.h"
#include "Rake/Dialect/GpuIR/IR/Syntax.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::rake::gpuir {

/// A memref type without its GpuIR memory space.
inline Type cpuType(Type t) {
  auto memref = dyn_cast<MemRefType>(t);
  if (!memref)
    return t;
  return MemRefType::get(memref.getShape(), memref.getElementType(),
                         memref.getLayout());
}

/// The signed integer comparison of a gpuir.if predicate.
inline arith::CmpIPredicate cmpPredicate(int32_t p) {
  switch (static_cast<CmpPredicate>(p)) {
  case CmpPredicate::eq:
    return arith::CmpIPredicate::eq;
  case CmpPredicate::lt:
    return arith::CmpIPredicate::slt;
  case CmpPredicate::le:
    return arith::CmpIPredicate::sle;
  case CmpPredicate::gt:
    return arith::CmpIPredicate::sgt;
  case CmpPredicate::ge:
    return arith::CmpIPredicate::sge;
  }
  return arith::CmpIPredicate::eq;
}

/// Rewrites the math dialect ops under `root` as exactly specified
/// arithmetic, the same for both lowerings (ExactMath.cpp); refuses, at the
/// op, those with no exact lowering. `device`: for the GPU (correctly
/// rounded PTX instructions instead of the LLVM intrinsics that the GPU
/// lowering would turn into libdevice calls).
LogicalResult expandExactMath(Operation *root, bool device);

class Lowering {
public:
  explicit Lowering(OpBuilder &b) : b(b) {}
  virtual ~Lowering() = default;

  /// With a list of sites, each read, write and reduction first checks its
  /// index against the buffer's extents and, outside them, calls
  /// `rake_out_of_bounds(memref<?xindex>)` with [site, rank, index...,
  /// extent..., loop value...]; site n of the list is
  /// "kind|buffer|file:line:col|loop names" (rake-run prints the report).
  std::vector<std::string> *boundsSites = nullptr;

  LogicalResult lowerProc(ProcOp proc) {
    currentProc = proc;
    SmallVector<Type> inputs;
    for (Type t : proc.getArgumentTypes()) {
      if (isa<TensorMapType>(t))
        return proc.emitOpError()
               << "takes a tensor map; the sequential meaning of TMA "
                  "instructions is not lowered yet";
      inputs.push_back(cpuType(t));
    }
    auto func = func::FuncOp::create(b, proc.getLoc(), proc.getSymName(),
                                     b.getFunctionType(inputs, {}));
    Block *entry = func.addEntryBlock();
    for (auto [from, to] :
         llvm::zip(proc.getBody().front().getArguments(), entry->getArguments()))
      map.map(from, to);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(entry);
    if (failed(lowerBlock(proc.getBody().front())))
      return failure();
    func::ReturnOp::create(b, proc.getLoc());
    return success();
  }

protected:
  ProcOp currentProc;

  std::string bufferName(Value v) {
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      ArrayAttr names = currentProc ? currentProc.getArgNamesAttr() : ArrayAttr();
      if (names && arg.getArgNumber() < names.size())
        if (auto n = dyn_cast<StringAttr>(names[arg.getArgNumber()]))
          return n.str();
    }
    if (auto window = v.getDefiningOp<WindowOp>())
      return "a window of " + bufferName(window.getSource());
    return "a buffer";
  }

  void checkBounds(Operation *op, StringRef kind, Value source,
                   ArrayRef<Value> idx) {
    if (!boundsSites || idx.empty())
      return;
    Location loc = op->getLoc();
    Value buf = map.lookup(source);
    Value ok;
    SmallVector<Value> extents;
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    for (auto [d, i] : llvm::enumerate(idx)) {
      Value dim = memref::DimOp::create(b, loc, buf, d);
      extents.push_back(dim);
      Value ge = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, i,
                                       zero);
      Value lt = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, i,
                                       dim);
      Value both = arith::AndIOp::create(b, loc, ge, lt);
      ok = ok ? arith::AndIOp::create(b, loc, ok, both).getResult() : both;
    }
    Value bad = arith::XOrIOp::create(
        b, loc, ok, arith::ConstantIntOp::create(b, loc, 1, 1));
    SmallVector<std::pair<std::string, Value>> loops;
    for (Operation *p = op->getParentOp(); p; p = p->getParentOp())
      if (auto f = dyn_cast<ForOp>(p))
        loops.insert(loops.begin(),
                     {f.getIvName().value_or("loop").str(),
                      map.lookup(f.getInductionVar())});
    std::string where;
    llvm::raw_string_ostream os(where);
    if (auto file = dyn_cast<FileLineColLoc>(loc))
      os << file.getFilename().getValue() << ":" << file.getLine() << ":"
         << file.getColumn();
    else
      os << loc;
    std::string site = kind.str() + "|" + bufferName(source) + "|" + where + "|";
    for (auto [k, l] : llvm::enumerate(loops))
      site += (k ? "," : "") + l.first;
    int64_t siteId = boundsSites->size();
    boundsSites->push_back(site);
    auto ifOp = scf::IfOp::create(b, loc, bad, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    SmallVector<Value> values = {
        arith::ConstantIndexOp::create(b, loc, siteId),
        arith::ConstantIndexOp::create(b, loc, idx.size())};
    values.append(idx.begin(), idx.end());
    values.append(extents.begin(), extents.end());
    for (auto &l : loops)
      values.push_back(l.second);
    Value info = memref::AllocaOp::create(
        b, loc, MemRefType::get({(int64_t)values.size()}, b.getIndexType()));
    for (auto [k, v] : llvm::enumerate(values))
      memref::StoreOp::create(b, loc, v, info,
                              ValueRange{arith::ConstantIndexOp::create(b, loc, k)});
    Value dyn = memref::CastOp::create(
        b, loc, MemRefType::get({ShapedType::kDynamic}, b.getIndexType()),
        info);
    func::CallOp::create(b, loc, "rake_out_of_bounds", TypeRange{},
                         ValueRange{dyn});
  }

  /// Lowers a block's ops, then frees the buffers it allocated and did not
  /// free, as the compiler's free insertion does. (Virtual: the structured
  /// ops lowered here, an if's branches, hold device blocks too.)
  virtual LogicalResult lowerBlock(Block &block) {
    SmallVector<Value> allocated;
    for (Operation &op : block) {
      if (failed(lowerOp(&op)))
        return failure();
      if (auto alloc = dyn_cast<AllocOp>(&op);
          alloc && isa<MemRefType>(alloc.getResult().getType()))
        allocated.push_back(alloc.getResult());
      if (auto freeOp = dyn_cast<FreeOp>(&op))
        llvm::erase(allocated, freeOp.getBuffer());
    }
    for (Value v : llvm::reverse(allocated))
      memref::DeallocOp::create(b, block.getParentOp()->getLoc(),
                                map.lookup(v));
    return success();
  }

  Value applyExpr(Location loc, AffineExpr expr, unsigned numDims,
                  ValueRange operands) {
    SmallVector<Value> mapped;
    for (Value v : operands)
      mapped.push_back(this->map.lookupOrDefault(v));
    auto m = AffineMap::get(numDims, 0, expr);
    return affine::AffineApplyOp::create(b, loc, m, mapped);
  }

  SmallVector<Value> applyAll(Location loc, AffineMap m, ValueRange operands) {
    SmallVector<Value> out;
    for (AffineExpr e : m.getResults())
      out.push_back(applyExpr(loc, e, m.getNumDims(), operands));
    return out;
  }

  /// A loop's lower and upper bounds, at the insertion point.
  std::pair<Value, Value> loopBounds(ForOp loop) {
    Location loc = loop.getLoc();
    // Constant bounds stay constants, so that loops over registers can be
    // unrolled.
    auto constant = [](AffineMap m) -> std::optional<int64_t> {
      if (auto c = dyn_cast<AffineConstantExpr>(m.getResult(0)))
        return c.getValue();
      return std::nullopt;
    };
    std::optional<int64_t> lo = constant(loop.getLowerMap()),
                           hi = constant(loop.getUpperMap());
    if (lo && hi)
      return {arith::ConstantIndexOp::create(b, loc, *lo),
              arith::ConstantIndexOp::create(b, loc, *hi)};
    Value lb = applyExpr(loc, loop.getLowerMap().getResult(0),
                         loop.getLowerMap().getNumDims(),
                         loop.getLowerOperands());
    Value ub = applyExpr(loc, loop.getUpperMap().getResult(0),
                         loop.getUpperMap().getNumDims(),
                         loop.getUpperOperands());
    return {lb, ub};
  }

  virtual LogicalResult lowerOp(Operation *op) {
    Location loc = op->getLoc();
    if (auto loop = dyn_cast<ForOp>(op)) {
      auto [lb, ub] = loopBounds(loop);
      Value one = arith::ConstantIndexOp::create(b, loc, 1);
      auto scfFor = scf::ForOp::create(b, loc, lb, ub, one);
      map.map(loop.getInductionVar(), scfFor.getInductionVar());
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(scfFor.getBody()->getTerminator());
      return lowerBlock(*loop.getBodyBlock());
    }
    if (auto ifOp = dyn_cast<IfOp>(op)) {
      AffineMap m = ifOp.getMap();
      SmallVector<Value> vals = applyAll(loc, m, ifOp.getOperands());
      // An `or` of `and`s of comparisons.
      Value cond;
      for (auto [begin, end] : conditionAlternatives(
               ifOp.getPredicates(),
               ifOp.getAlternativeSizes())) {
        Value all;
        for (unsigned i = begin; i < end; ++i) {
          Value c = arith::CmpIOp::create(
              b, loc, cmpPredicate(ifOp.getPredicates()[i]), vals[2 * i],
              vals[2 * i + 1]);
          all = all ? arith::AndIOp::create(b, loc, all, c).getResult() : c;
        }
        cond = cond ? arith::OrIOp::create(b, loc, cond, all).getResult() : all;
      }
      auto scfIf = scf::IfOp::create(b, loc, cond, ifOp.hasElse());
      {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(scfIf.thenBlock()->getTerminator());
        if (failed(lowerBlock(ifOp.getThenRegion().front())))
          return failure();
      }
      if (ifOp.hasElse()) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(scfIf.elseBlock()->getTerminator());
        if (failed(lowerBlock(ifOp.getElseRegion().front())))
          return failure();
      }
      return success();
    }
    // Parallelism and synchronization are annotations: the body runs once,
    // synchronization does nothing.
    if (auto device = dyn_cast<DeviceFunctionOp>(op))
      return lowerBlock(device.getBody().front());
    if (auto warps = dyn_cast<WarpsOp>(op))
      return lowerBlock(warps.getBody().front());
    if (auto fused = dyn_cast<FusedOp>(op))
      return lowerBlock(*fused.getBodyBlock());
    if (isa<FenceOp, ArriveOp, AwaitOp>(op))
      return success();
    if (auto alloc = dyn_cast<AllocOp>(op)) {
      if (isa<BarrierType>(alloc.getResult().getType()))
        return success();
      SmallVector<Value> sizes;
      for (Value v : alloc.getDynamicSizes())
        sizes.push_back(map.lookupOrDefault(v));
      auto type = cast<MemRefType>(cpuType(alloc.getResult().getType()));
      map.map(alloc.getResult(),
              memref::AllocOp::create(b, loc, type, sizes).getResult());
      return success();
    }
    if (auto freeOp = dyn_cast<FreeOp>(op)) {
      if (!isa<BarrierType>(freeOp.getBuffer().getType()))
        memref::DeallocOp::create(b, loc, map.lookup(freeOp.getBuffer()));
      return success();
    }
    if (auto read = dyn_cast<ReadOp>(op)) {
      SmallVector<Value> idx =
          accessIndices(read.getMemref(), read.getMap(), read.getIndices(), loc);
      checkBounds(op, "read", read.getMemref(), idx);
      map.map(read.getValue(),
              memref::LoadOp::create(b, loc, map.lookup(read.getMemref()), idx)
                  .getResult());
      return success();
    }
    if (auto write = dyn_cast<WriteOp>(op)) {
      SmallVector<Value> idx = accessIndices(write.getMemref(), write.getMap(),
                                             write.getIndices(), loc);
      checkBounds(op, "write", write.getMemref(), idx);
      memref::StoreOp::create(b, loc, map.lookupOrDefault(write.getValue()),
                              map.lookup(write.getMemref()), idx);
      return success();
    }
    if (auto reduce = dyn_cast<ReduceOp>(op)) {
      SmallVector<Value> idx = accessIndices(
          reduce.getMemref(), reduce.getMap(), reduce.getIndices(), loc);
      checkBounds(op, "reduction", reduce.getMemref(), idx);
      Value buf = map.lookup(reduce.getMemref());
      Value old = memref::LoadOp::create(b, loc, buf, idx);
      Value v = map.lookupOrDefault(reduce.getValue());
      Value sum = isa<FloatType>(v.getType())
                      ? arith::AddFOp::create(b, loc, old, v).getResult()
                      : arith::AddIOp::create(b, loc, old, v).getResult();
      memref::StoreOp::create(b, loc, sum, buf, idx);
      return success();
    }
    if (auto window = dyn_cast<WindowOp>(op))
      return success(succeeded(lowerWindow(window)));
    if (auto call = dyn_cast<CallOp>(op)) {
      SmallVector<Value> args;
      for (Value v : call.getArgs())
        args.push_back(map.lookupOrDefault(v));
      func::CallOp::create(b, loc, call.getCallee(), TypeRange(), args);
      return success();
    }
    if (auto instr = dyn_cast<InstrOpInterface>(op)) {
      // A behavior's scratch buffers (a shuffle's copy of the lanes'
      // values) move to the function's entry: instructions run in loops
      // over tasks and threads, whose stack would otherwise grow by one
      // buffer per iteration.
      Block *block = b.getInsertionBlock();
      Block::iterator at = b.getInsertionPoint();
      Operation *last = at == block->begin() ? nullptr : &*std::prev(at);
      if (failed(instr.buildSequential(b, instrOperands(op))))
        return failure();
      auto func = block->getParentOp()->getParentOfType<func::FuncOp>();
      if (auto self = dyn_cast<func::FuncOp>(block->getParentOp()))
        func = self;
      if (!func)
        return success();
      Block &entry = func.getBody().front();
      Block::iterator first = last ? std::next(last->getIterator())
                                   : block->begin();
      for (Operation &made :
           llvm::make_early_inc_range(llvm::make_range(first, b.getInsertionPoint())))
        if (auto alloca = dyn_cast<memref::AllocaOp>(made);
            alloca && alloca.getDynamicSizes().empty() &&
            alloca.getSymbolOperands().empty() && block != &entry)
          alloca->moveBefore(&entry, entry.begin());
      return success();
    }
    if (isa<TensorMapOp>(op))
      return op->emitOpError() << "the sequential meaning of tensor maps is "
                                  "not lowered yet";
    if (op->getNumRegions() != 0)
      return op->emitOpError() << "cannot be lowered to the sequential meaning";
    // Scalar arithmetic on data values keeps its meaning.
    b.clone(*op, map);
    return success();
  }

  /// An instruction's operands as lowered: barriers (which have no
  /// sequential or per-thread value) as null.
  SmallVector<Value> instrOperands(Operation *op) {
    SmallVector<Value> out;
    for (Value v : op->getOperands())
      out.push_back(isa<BarrierType>(v.getType()) ? Value()
                                                  : map.lookupOrDefault(v));
    return out;
  }

  /// The indices of an access in the lowered buffer (all of them; the
  /// device lowering drops those of dimensions distributed over threads).
  virtual SmallVector<Value> accessIndices(Value buffer, AffineMap m,
                                           ValueRange operands, Location loc) {
    return applyAll(loc, m, operands);
  }

  /// A window as a subview of its lowered source. The first `dropped`
  /// dimensions of the source are absent from the lowered source (a
  /// thread's part of a distributed buffer): their coordinates are skipped,
  /// and those the window keeps as intervals are absent from the view too;
  /// their number is returned.
  FailureOr<unsigned> lowerWindow(WindowOp window, unsigned dropped = 0) {
    Location loc = window.getLoc();
    Value source = map.lookup(window.getSource());
    auto sourceType = cast<MemRefType>(source.getType());
    AffineMap m = window.getMap();
    SmallVector<OpFoldResult> offsets, sizes, strides;
    unsigned r = 0, dim = 0, droppedIntervals = 0;
    for (bool isInterval : window.getIntervals()) {
      AffineExpr lo = m.getResult(r++);
      AffineExpr hi = isInterval ? m.getResult(r++) : AffineExpr();
      if (dim++ < dropped) {
        droppedIntervals += isInterval;
        continue;
      }
      offsets.push_back(
          applyExpr(loc, lo, m.getNumDims(), window.getIndices()));
      if (isInterval) {
        AffineExpr extent = simplifyAffineExpr(hi - lo, m.getNumDims(), 0);
        if (auto c = dyn_cast<AffineConstantExpr>(extent))
          sizes.push_back(b.getIndexAttr(c.getValue()));
        else
          sizes.push_back(
              applyExpr(loc, extent, m.getNumDims(), window.getIndices()));
      } else {
        sizes.push_back(b.getIndexAttr(1));
      }
      strides.push_back(b.getIndexAttr(1));
    }
    // The view keeps the lowered source's memory space (the device's
    // workgroup memory).
    auto gpuirType = cast<MemRefType>(window.getResult().getType());
    ArrayRef<int64_t> shape = gpuirType.getShape().drop_front(droppedIntervals);
    MemRefType inferred = memref::SubViewOp::inferRankReducedResultType(
        shape, sourceType, offsets, sizes, strides);
    Value view = memref::SubViewOp::create(b, loc, inferred, source, offsets,
                                           sizes, strides);
    if (dropped == 0) {
      // The declared type (its layout as written), in the source's space.
      auto declared =
          MemRefType::get(gpuirType.getShape(), gpuirType.getElementType(),
                          gpuirType.getLayout(), sourceType.getMemorySpace());
      if (inferred != declared)
        view = memref::CastOp::create(b, loc, declared, view);
    }
    map.map(window.getResult(), view);
    return droppedIntervals;
  }

  OpBuilder &b;
  IRMapping map;
};

} // namespace mlir::rake::gpuir

#endif // RAKE_LIB_CONVERSION_SEQUENTIALLOWERING_H
