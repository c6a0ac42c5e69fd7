//===- SequentialLowering.cpp - GpuIR statements to scf/memref ------------===//

#include "Rake/Conversion/Common/SequentialLowering.h"
#include "Rake/Conversion/Common/LeafPatterns.h"

using namespace mlir;
using namespace mlir::rake;
using namespace mlir::rake::gpuir;

arith::CmpIPredicate mlir::rake::gpuir::cmpPredicate(int32_t p) {
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

LogicalResult Lowering::lowerProc(ProcOp proc) {
  currentProc = proc;
  SmallVector<Type> inputs;
  for (Type t : proc.getArgumentTypes())
    inputs.push_back(cpuType(t));
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

std::string Lowering::bufferName(Value v) {
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

void Lowering::checkBounds(Operation *op, StringRef kind, Value source,
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

LogicalResult Lowering::lowerBlock(Block &block) {
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

Value Lowering::applyExpr(Location loc, AffineExpr expr, unsigned numDims,
                ValueRange operands) {
  SmallVector<Value> mapped;
  for (Value v : operands)
    mapped.push_back(this->map.lookupOrDefault(v));
  auto m = AffineMap::get(numDims, 0, expr);
  return affine::AffineApplyOp::create(b, loc, m, mapped);
}

SmallVector<Value> Lowering::applyAll(Location loc, AffineMap m, ValueRange operands) {
  SmallVector<Value> out;
  for (AffineExpr e : m.getResults())
    out.push_back(applyExpr(loc, e, m.getNumDims(), operands));
  return out;
}

std::pair<Value, Value> Lowering::loopBounds(ForOp loop) {
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

SmallVector<Value> Lowering::instrOperands(Operation *op) {
  SmallVector<Value> out;
  for (Value v : op->getOperands())
    out.push_back(isa<BarrierType>(v.getType()) ? Value()
                                                : map.lookupOrDefault(v));
  return out;
}


//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

LogicalResult Lowering::visitStmt(ForOp loop) {
  auto [lb, ub] = loopBounds(loop);
  Value one = arith::ConstantIndexOp::create(b, loop.getLoc(), 1);
  auto scfFor = scf::ForOp::create(b, loop.getLoc(), lb, ub, one);
  map.map(loop.getInductionVar(), scfFor.getInductionVar());
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(scfFor.getBody()->getTerminator());
  return lowerBlock(*loop.getBodyBlock());
}

LogicalResult Lowering::visitStmt(IfOp ifOp) {
  Location loc = ifOp.getLoc();
  AffineMap m = ifOp.getMap();
  SmallVector<Value> vals = applyAll(loc, m, ifOp.getOperands());
  // An `or` of `and`s of comparisons.
  Value cond;
  for (auto [begin, end] : conditionAlternatives(ifOp.getPredicates(),
                                                 ifOp.getAlternativeSizes())) {
    Value all;
    for (unsigned i = begin; i < end; ++i) {
      Value c = arith::CmpIOp::create(b, loc,
                                      cmpPredicate(ifOp.getPredicates()[i]),
                                      vals[2 * i], vals[2 * i + 1]);
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

// Parallelism and synchronization are annotations: a scope's body runs
// once, in place; synchronization does nothing.
LogicalResult Lowering::visitScope(Operation *, Block &body) {
  return lowerBlock(body);
}

LogicalResult Lowering::visitStmt(AllocOp alloc) {
  if (isa<BarrierType>(alloc.getResult().getType()))
    return success();
  SmallVector<Value> sizes;
  for (Value v : alloc.getDynamicSizes())
    sizes.push_back(map.lookupOrDefault(v));
  auto type = cast<MemRefType>(cpuType(alloc.getResult().getType()));
  map.map(alloc.getResult(),
          memref::AllocOp::create(b, alloc.getLoc(), type, sizes).getResult());
  return success();
}

LogicalResult Lowering::visitStmt(FreeOp freeOp) {
  if (!isa<BarrierType>(freeOp.getBuffer().getType()))
    memref::DeallocOp::create(b, freeOp.getLoc(),
                              map.lookup(freeOp.getBuffer()));
  return success();
}

LogicalResult Lowering::lowerAccess(AccessOpInterface access) {
  Location loc = access->getLoc();
  Value source = access.getBuffer();
  SmallVector<Value> idx =
      accessIndices(source, access.getMap(), access.getIndices(), loc);
  AccessKind kind = access.getAccessKind();
  checkBounds(access, kind == AccessKind::Read    ? "read"
                      : kind == AccessKind::Write ? "write"
                                                  : "reduction",
              source, idx);
  Value buf = map.lookup(source);
  if (kind == AccessKind::Read) {
    map.map(access->getResult(0),
            memref::LoadOp::create(b, loc, buf, idx).getResult());
    return success();
  }
  Value v = map.lookupOrDefault(access.getStoredValue());
  if (kind == AccessKind::Reduce) {
    Value old = memref::LoadOp::create(b, loc, buf, idx);
    v = isa<FloatType>(v.getType())
            ? arith::AddFOp::create(b, loc, old, v).getResult()
            : arith::AddIOp::create(b, loc, old, v).getResult();
  }
  memref::StoreOp::create(b, loc, v, buf, idx);
  return success();
}

LogicalResult Lowering::visitStmt(CallOp call) {
  SmallVector<Value> args;
  for (Value v : call.getArgs())
    args.push_back(map.lookupOrDefault(v));
  func::CallOp::create(b, call.getLoc(), call.getCallee(), TypeRange(), args);
  return success();
}

LogicalResult Lowering::lowerInstrSequential(InstrOpInterface instr,
                                             RewriterBase &rewriter) {
  // A behavior's scratch buffers (a shuffle's copy of the lanes' values)
  // move to the function's entry: instructions run in loops over tasks and
  // threads, whose stack would otherwise grow by one buffer per iteration.
  Block *block = b.getInsertionBlock();
  Block::iterator at = b.getInsertionPoint();
  Operation *last = at == block->begin() ? nullptr : &*std::prev(at);
  if (failed(instr.buildSequential(b, instrOperands(instr))))
    return failure();
  auto func = block->getParentOp()->getParentOfType<func::FuncOp>();
  if (auto self = dyn_cast<func::FuncOp>(block->getParentOp()))
    func = self;
  if (!func)
    return success();
  Block &entry = func.getBody().front();
  Block::iterator first =
      last ? std::next(last->getIterator()) : block->begin();
  for (Operation &made : llvm::make_early_inc_range(
           llvm::make_range(first, b.getInsertionPoint())))
    if (auto alloca = dyn_cast<memref::AllocaOp>(made);
        alloca && alloca.getDynamicSizes().empty() &&
        alloca.getSymbolOperands().empty() && block != &entry)
      rewriter.moveOpBefore(alloca, &entry, entry.begin());
  return success();
}

void Lowering::populateLeafPatterns(RewritePatternSet &patterns) {
  populateSequentialLeafPatterns(*this, patterns);
}

LogicalResult Lowering::lowerLeaf(Operation *op) {
  if (!leafPatterns) {
    RewritePatternSet patterns(getContext());
    populateLeafPatterns(patterns);
    leafPatterns = std::make_unique<FrozenRewritePatternSet>(
        std::move(patterns));
    placeholders = ModuleOp::create(UnknownLoc::get(getContext()));
  }
  // The copy's operands: the lowered values, and for operands with none (a
  // barrier on the CPU) a placeholder of their type outside the output,
  // never the input's value, whose uses the device lowering inspects.
  IRMapping operands;
  for (Value v : op->getOperands()) {
    if (Value lowered = map.lookupOrNull(v)) {
      operands.map(v, lowered);
      continue;
    }
    Value &placeholder = placeholderOf[v.getType()];
    if (!placeholder) {
      OpBuilder pb = OpBuilder::atBlockEnd(placeholders->getBody());
      placeholder = UnrealizedConversionCastOp::create(
                        pb, op->getLoc(), v.getType(), ValueRange())
                        .getResult(0);
    }
    operands.map(v, placeholder);
  }
  Operation *copy = b.clone(*op, operands);
  // What the patterns build is legal; the copy neither legal nor illegal,
  // so that a copy no pattern lowers stays (unlegalized) with only the
  // error its pattern gave (or the one below).
  ConversionTarget target(*getContext());
  target.markUnknownOpDynamicallyLegal(
      [copy](Operation *other) -> std::optional<bool> {
        if (other == copy)
          return std::nullopt;
        return true;
      });
  // Whether the conversion erased the copy (its patterns do when they
  // succeed): notified once the conversion has committed its changes.
  struct Erased : RewriterBase::Listener {
    Operation *copy;
    bool erased = false;
    explicit Erased(Operation *copy) : copy(copy) {}
    void notifyOperationErased(Operation *op) override {
      erased |= op == copy;
    }
  } watch(copy);
  ConversionConfig config;
  config.foldingMode = DialectConversionFoldingMode::Never;
  config.listener = &watch;
  bool reported = false;
  LogicalResult converted = failure();
  {
    ScopedDiagnosticHandler errors(getContext(), [&](Diagnostic &d) {
      reported |= d.getSeverity() == DiagnosticSeverity::Error;
      return failure(); // and on to the context's handler
    });
    assert(!currentLeaf && "a leaf pattern lowered another statement");
    currentLeaf = op;
    converted = applyPartialConversion(copy, target, *leafPatterns, config);
    currentLeaf = nullptr;
  }
  if (succeeded(converted) && watch.erased)
    return success();
  // The copy never stays: its operands include placeholders that die with
  // this lowering.
  if (!watch.erased)
    copy->erase();
  // A pattern that refuses the statement says why, at the statement; every
  // leaf the visitor routes here has a pattern, so this is a lowering bug.
  if (!reported)
    return op->emitOpError() << "was not lowered and no pattern said why "
                                "(an internal error of the lowering)";
  return failure();
}

LogicalResult Lowering::visitOther(Operation *op) {
  if (op->getNumRegions() != 0)
    return op->emitOpError() << "cannot be lowered to the sequential meaning";
  // Scalar arithmetic on data values keeps its meaning.
  b.clone(*op, map);
  return success();
}

LogicalResult Lowering::visitUnhandledStmt(Operation *op) {
  return op->emitOpError() << "cannot be lowered to the sequential meaning";
}

SmallVector<Value> Lowering::accessIndices(Value buffer, AffineMap m,
                                           ValueRange operands, Location loc) {
  return applyAll(loc, m, operands);
}

FailureOr<unsigned> Lowering::lowerWindow(WindowOp window, unsigned dropped) {
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

