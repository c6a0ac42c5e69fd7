//===- Replace.cpp - a loop nest replaced by an instruction ---------------===//
//
// replace: a nest of constant-bound loops becomes one instruction whose
// operands are windows of the buffers the nest accesses. Accepted only when
// the two do the same thing: both are run symbolically, element by element,
// the nest as written and the instruction through its sequential behavior
// (InstrOpInterface::buildSequential, the code its sequential meaning is),
// each data value an expression over the operands' initial elements; every
// element either writes must end with the same expression. Expressions are
// compared as written (a * b is not b * a, a sum keeps its order), so an
// accepted replacement computes the same bits.
//
// The windows are inferred from the nest: each index of a buffer splits into
// a corner (the values from outside the nest, the same for every access)
// and an offset over the nest's loops; the dimensions whose offsets vary are
// the window's intervals, from the smallest offset on, as long as the
// instruction's parameter (or the largest offset) says.
//
//===----------------------------------------------------------------------===//

#include "Dependence.h"
#include "Rake/Dialect/GpuIR/IR/Syntax.h"
#include "Rake/Dialect/GpuIR/TransformOps/Rewrites.h"
#include "ReplaceEval.h"
#include "RewriteUtils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Verifier.h"

#include "llvm/ADT/MapVector.h"

#include <map>
#include <unordered_map>
#include <set>

using namespace mlir;
using namespace mlir::rake;
using namespace mlir::rake::gpuir;
using namespace mlir::rake::gpuir::detail;
using namespace mlir::rake::gpuir::replace_detail;

namespace {

/// One buffer the nest accesses, as one operand of the instruction.
struct Operand {
  Value buffer;
  SmallVector<Value> cornerOps;
  SmallVector<AffineExpr> corner;      // per buffer dimension
  SmallVector<std::set<int64_t>> offs; // offsets seen per dimension
  SmallVector<bool> interval;
  SmallVector<int64_t> lo, shape;      // per interval dimension
};

/// A control value of the nest: its loops' variables are concrete.
struct NestRun {
  Operation *nest;
  ArrayRef<Operand> operands;
  Exprs &exprs;
  Memory &mem;
  DenseMap<Value, Val> env;
  Refusal &why;
  bool collectOnly; // first pass: find the offsets only
  DenseMap<Operation *, int> texts;
  DenseMap<Operation *, SmallVector<AffineExpr>> offsets;

  int operandOf(Value buffer) {
    for (auto [k, o] : llvm::enumerate(operands))
      if (o.buffer == buffer)
        return k;
    return -1;
  }

  /// The concrete value of an expression over the nest's variables.
  std::optional<int64_t> eval(AffineExpr e, ValueRange ops) {
    SmallVector<int64_t> vals;
    for (auto [i, v] : llvm::enumerate(ops)) {
      auto it = env.find(v);
      if (it == env.end() || !it->second.concrete) {
        if (e.isFunctionOfDim(i))
          return std::nullopt;
        vals.push_back(0);
        continue;
      }
      vals.push_back(it->second.c);
    }
    return evaluateControlExpr(e, vals);
  }

  LogicalResult run(Block &block) {
    for (Operation &op : block)
      if (failed(runOp(op)))
        return failure();
    return success();
  }
  LogicalResult runOp(Operation &op);
  LogicalResult access(Operation *op, Value buffer, AffineMap map,
                       ValueRange indices, std::optional<int> value,
                       bool reduce);
};

/// The split of an access's index into corner and offset (over the nest's
/// loop variables), evaluated.
LogicalResult NestRun::access(Operation *op, Value buffer, AffineMap map,
                              ValueRange indices, std::optional<int> value,
                              bool reduce) {
  int k = operandOf(buffer);
  if (k < 0)
    return why.refuse(op->getLoc(),
                      "the nest accesses " + controlName(buffer) +
                          ", which is not an operand of the replacement");
  const Operand &o = operands[k];
  // The split of each index into corner and offset, once per op: the
  // corner checked against the operand's, the offsets kept.
  auto cached = offsets.find(op);
  if (cached == offsets.end()) {
  llvm::SmallBitVector outer(indices.size());
  for (auto [i, v] : llvm::enumerate(indices)) {
    auto it = env.find(v);
    outer[i] = it == env.end();
  }
  SmallVector<AffineExpr> offs;
  for (auto [d, e] : llvm::enumerate(map.getResults())) {
    // Corner: the terms over outer values; offset: the rest, concrete.
    FailureOr<SplitIndex> split = splitIndex(e, outer);
    if (failed(split))
      return why.refuse(op->getLoc(),
                        "index " + Twine(d) + " of this access mixes the "
                                              "nest's loops with values "
                                              "from outside in one term");
    AffineExpr corner = split->corner, offset = split->offset;
    // The corner over the operand's outer values must be the operand's.
    SmallVector<AffineExpr> dims;
    for (auto [i, v] : llvm::enumerate(indices)) {
      if (!outer[i]) {
        dims.push_back(getAffineConstantExpr(0, op->getContext()));
        continue;
      }
      auto it = llvm::find(o.cornerOps, v);
      if (it == o.cornerOps.end())
        return why.refuse(op->getLoc(),
                          "this access indexes " + controlName(buffer) +
                              " from another corner than the nest's first "
                              "access of it");
      dims.push_back(getAffineDimExpr(it - o.cornerOps.begin(), op->getContext()));
    }
    AffineExpr c =
        simplifyAffineExpr(corner.replaceDims(dims), o.cornerOps.size(), 0);
    if (c != o.corner[d])
      return why.refuse(op->getLoc(),
                        "this access indexes " + controlName(buffer) +
                            " from another corner than the nest's first "
                            "access of it");
    offs.push_back(offset);
  }
    cached = offsets.try_emplace(op, std::move(offs)).first;
  }
  SmallVector<int64_t> idx;
  for (AffineExpr offset : cached->second) {
    std::optional<int64_t> off = eval(offset, indices);
    if (!off)
      return why.refuse(op->getLoc(), "cannot evaluate this access's index");
    idx.push_back(*off);
  }
  if (collectOnly) {
    auto &offs = const_cast<Operand &>(o).offs;
    for (auto [d, v] : llvm::enumerate(idx))
      offs[d].insert(v);
    return success();
  }
  SmallVector<int64_t> local;
  unsigned r = 0;
  for (auto [d, v] : llvm::enumerate(idx)) {
    if (!o.interval[d])
      continue;
    local.push_back(v - o.lo[r++]);
  }
  int64_t f = flatten(local, o.shape);
  auto it = mem.elements[k].find(f);
  int old = it != mem.elements[k].end() ? it->second : exprs.input(k, f);
  if (!value) {
    Val v;
    v.node = old;
    env[op->getResult(0)] = v;
    return success();
  }
  int stored = *value;
  if (reduce) {
    Type t = cast<MemRefType>(buffer.getType()).getElementType();
    std::string type;
    llvm::raw_string_ostream ts(type);
    ts << ":" << t;
    stored = exprs.op(
        exprs.text((isa<FloatType>(t) ? "arith.addf" : "arith.addi") + type),
        {old, *value});
  }
  mem.elements[k][f] = stored;
  mem.writers[k][f] = op;
  return success();
}

LogicalResult NestRun::runOp(Operation &op) {
  {
    if (auto loop = dyn_cast<ForOp>(op)) {
      std::optional<int64_t> lo =
          eval(loop.getLowerMap().getResult(0), loop.getLowerOperands());
      std::optional<int64_t> hi =
          eval(loop.getUpperMap().getResult(0), loop.getUpperOperands());
      if (!lo || !hi)
        return why.refuse(loop.getLoc(),
                          "the nest's loops need bounds that do not depend "
                          "on values from outside it");
      for (int64_t i = *lo; i < *hi; ++i) {
        Val v;
        v.concrete = true;
        v.c = i;
        env[loop.getInductionVar()] = v;
        if (failed(run(*loop.getBodyBlock())))
          return failure();
      }
      env.erase(loop.getInductionVar());
      return success();
    }
    if (auto cond = dyn_cast<IfOp>(op)) {
      SmallVector<int64_t> vals;
      for (AffineExpr e : cond.getMap().getResults()) {
        std::optional<int64_t> v = eval(e, cond.getOperands());
        if (!v)
          return why.refuse(cond.getLoc(),
                            "the nest's conditions must not depend on values "
                            "from outside it");
        vals.push_back(*v);
      }
      bool holds = conditionHolds(cond.getPredicates(),
                                  cond.getAlternativeSizes(), vals);
      Region &r = holds ? cond.getThenRegion() : cond.getElseRegion();
      if (!r.empty() && failed(run(r.front())))
        return failure();
      return success();
    }
    if (auto a = dyn_cast<AccessOpInterface>(op); a && a.isElementAccess()) {
      std::optional<int> stored;
      if (Value v = a.getStoredValue())
        stored = env.lookup(v).node;
      return access(a, a.getBuffer(), a.getMap(), a.getIndices(), stored,
                    a.getAccessKind() == AccessKind::Reduce);
    }
    if (isa<FenceOp, ArriveOp, AwaitOp>(op))
      return why.refuse(op.getLoc(), "the nest to replace must not "
                                     "synchronize");
    if (!runScalar(&op, exprs, env, texts))
      return why.refuse(op.getLoc(), "a nest to replace holds loops, "
                                     "conditions, accesses and arithmetic; "
                                     "not '" + op.getName().getStringRef() +
                                         "'");
  }
  return success();
}

/// The replacement of a loop nest by an instruction on windows of its
/// buffers, in steps: each operand's corner, the offsets the nest reaches
/// (a first run), the windows and the instruction, then both run on
/// symbolic elements and compared.
class Replacement {
public:
  Replacement(RewriterBase &rewriter, ForOp nest, StringRef instrName,
              RegisteredOperationName name, DictionaryAttr attrs, Refusal &why,
              Value barrier, ArrayRef<Value> barrierOperands,
              AffineMap barrierCoords)
      : rewriter(rewriter), nest(nest), instrName(instrName), name(name),
        attrs(attrs), why(why), barrier(barrier),
        barrierOperands(barrierOperands), barrierCoords(barrierCoords),
        ctx(nest.getContext()), loc(nest.getLoc()) {}

  FailureOr<Operation *> run(ArrayRef<Value> buffers) {
    if (failed(collectOperands(buffers)))
      return failure();
    // First pass: the offsets each operand's accesses reach.
    {
      Memory scratch(operands.size());
      NestRun collect{nest, operands, exprs, scratch, DenseMap<Value, Val>(),
                      why,  true};
      if (failed(collect.runOp(*nest)))
        return failure();
    }
    if (failed(buildInstr()))
      return failure();
    Memory instrMem(operands.size());
    if (failed(runInstr(instrMem))) {
      undo();
      return failure();
    }
    Memory nestMem(operands.size());
    {
      NestRun run{nest, operands, exprs, nestMem, DenseMap<Value, Val>(),
                  why,  false};
      if (failed(run.runOp(*nest))) {
        undo();
        return failure();
      }
    }
    if (failed(compare(instrMem, nestMem))) {
      undo();
      return failure();
    }
    rewriter.eraseOp(nest);
    return instr;
  }

private:
  /// The operands: each buffer's corner, from its first access in the nest.
  LogicalResult collectOperands(ArrayRef<Value> buffers) {
    llvm::SmallPtrSet<Value, 8> inner;
    nest->walk([&](ForOp l) { inner.insert(l.getInductionVar()); });
    for (Value b : buffers) {
      Operand o;
      o.buffer = b;
      unsigned rank = cast<MemRefType>(b.getType()).getRank();
      o.offs.resize(rank);
      AccessOpInterface first;
      nest->walk([&](AccessOpInterface a) {
        if (!first && a.isElementAccess() && a.getBuffer() == b)
          first = a;
      });
      if (!first)
        return why.refuse(loc, "the nest does not access " + controlName(b) +
                                   "; each operand of the replacement is a "
                                   "buffer the nest accesses");
      AffineMap map = first.getMap();
      ValueRange indices = first.getIndices();
      SmallVector<AffineExpr> dims;
      for (Value v : indices) {
        if (inner.contains(v)) {
          dims.push_back(getAffineConstantExpr(0, ctx));
          continue;
        }
        if (!llvm::is_contained(o.cornerOps, v))
          o.cornerOps.push_back(v);
        dims.push_back(getAffineDimExpr(
            llvm::find(o.cornerOps, v) - o.cornerOps.begin(), ctx));
      }
      llvm::SmallBitVector outerDims(indices.size());
      for (auto [i, v] : llvm::enumerate(indices))
        outerDims[i] = !inner.contains(v);
      for (AffineExpr e : map.getResults()) {
        // A term that mixes the nest's loops with outer values is refused
        // when the nest runs; its corner here does not matter.
        FailureOr<SplitIndex> split = splitIndex(e, outerDims);
        AffineExpr corner =
            succeeded(split) ? split->corner : getAffineConstantExpr(0, ctx);
        o.corner.push_back(simplifyAffineExpr(corner.replaceDims(dims),
                                              o.cornerOps.size(), 0));
      }
      operands.push_back(std::move(o));
    }
    return success();
  }

  /// The window of operand k: the dimensions whose offsets vary are
  /// intervals, from the smallest offset to the largest; for a warp's
  /// fragment (`laneDim`: a parameter distributed over the warp's lanes),
  /// its first interval is all 32 lanes, whichever the nest reaches (a
  /// shfl_down's source reads lane l + 8 only below lane 24, yet is the
  /// warp's 32 registers).
  FailureOr<Value> buildWindow(Operand &o, bool laneDim) {
    auto type = cast<MemRefType>(o.buffer.getType());
    unsigned rank = type.getRank();
    for (unsigned d = 0; d < rank; ++d)
      if (o.offs[d].empty())
        return why.refuse(loc, "the nest never reaches " +
                                   controlName(o.buffer) +
                                   " when it runs (or names it twice); each "
                                   "operand is a buffer the nest accesses");
    o.interval.assign(rank, false);
    o.lo.clear();
    o.shape.clear();
    bool any = false;
    for (unsigned d = 0; d < rank; ++d)
      any |= (o.interval[d] = o.offs[d].size() > 1);
    if (!any && rank)
      o.interval[rank - 1] = true;
    SmallVector<AffineExpr> coords;
    SmallVector<bool> intervals;
    SmallVector<int64_t> shape, strides;
    SmallVector<int64_t> srcStrides;
    int64_t srcOffset;
    if (failed(type.getStridesAndOffset(srcStrides, srcOffset)))
      return why.refuse(loc, "cannot make a window of " +
                                 controlName(o.buffer) + ": it has no strides");
    for (unsigned d = 0; d < rank; ++d) {
      int64_t lo = *o.offs[d].begin(), hi = *o.offs[d].rbegin();
      if (!o.interval[d]) {
        coords.push_back(o.corner[d] + lo);
        intervals.push_back(false);
        continue;
      }
      if (laneDim) {
        laneDim = false;
        if (lo < 0 || hi > 31)
          return why.refuse(loc, "the nest reaches lanes " + Twine(lo) +
                                     " to " + Twine(hi) + " of " +
                                     controlName(o.buffer) +
                                     ", a warp's fragment has lanes 0 to 31");
        lo = 0;
        hi = 31;
      }
      o.lo.push_back(lo);
      o.shape.push_back(hi - lo + 1);
      coords.push_back(o.corner[d] + lo);
      coords.push_back(o.corner[d] + hi + 1);
      intervals.push_back(true);
      shape.push_back(hi - lo + 1);
      strides.push_back(srcStrides[d]);
    }
    auto resultType = MemRefType::get(
        shape, type.getElementType(),
        StridedLayoutAttr::get(ctx, ShapedType::kDynamic, strides),
        type.getMemorySpace());
    ControlGroup g = simplifyGroup(
        {o.cornerOps, AffineMap::get(o.cornerOps.size(), 0, coords, ctx)});
    auto window = WindowOp::create(rewriter, loc, resultType, o.buffer,
                                   g.operands, AffineMapAttr::get(g.map),
                                   rewriter.getDenseBoolArrayAttr(intervals),
                                   StringAttr());
    return window.getResult();
  }

  /// The windows and the instruction, as GpuIR's verifier accepts it.
  LogicalResult build(const llvm::SmallBitVector &lanes) {
    rewriter.setInsertionPoint(nest);
    windows.clear();
    for (auto [k, o] : llvm::enumerate(operands)) {
      FailureOr<Value> w = buildWindow(o, k < lanes.size() && lanes[k]);
      if (failed(w))
        return failure();
      windows.push_back(*w);
    }
    OperationState state(loc, name);
    state.addOperands(windows);
    if (barrier) {
      // The trailing barrier: the barrier, its coordinates' operands, their
      // map and (all points) intervals, as custom<TrailingBarrier> holds
      // them.
      state.addOperands(barrier);
      state.addOperands(barrierOperands);
      state.addAttribute("map", AffineMapAttr::get(barrierCoords));
      state.addAttribute("intervals",
                         rewriter.getDenseBoolArrayAttr(SmallVector<bool>(
                             barrierCoords.getNumResults(), false)));
    }
    if (attrs)
      state.addAttributes(attrs.getValue());
    instr = rewriter.create(state);
    return success();
  }

  /// A refusal while building leaves nothing behind.
  void eraseWindows() {
    for (Value w : llvm::reverse(windows))
      rewriter.eraseOp(w.getDefiningOp());
    windows.clear();
  }

  void undo() {
    rewriter.eraseOp(instr);
    eraseWindows();
  }

  /// Whether the op has the operands its definition declares (NOperands or
  /// AtLeastNOperands, as ODS writes them): only then is its interface
  /// asked (its verifier says what else is wrong).
  static bool hasOperands(Operation *op) {
#define RAKE_TRY(N)                                                            \
  if (op->hasTrait<OpTrait::NOperands<N>::Impl>() ||                           \
      op->hasTrait<OpTrait::AtLeastNOperands<N>::Impl>())                      \
    return op->getNumOperands() >= N;
    if (op->hasTrait<OpTrait::OneOperand>() ||
        op->hasTrait<OpTrait::AtLeastNOperands<1>::Impl>())
      return op->getNumOperands() >= 1;
    RAKE_TRY(2) RAKE_TRY(3) RAKE_TRY(4) RAKE_TRY(5) RAKE_TRY(6) RAKE_TRY(7)
    RAKE_TRY(8)
#undef RAKE_TRY
    return false;
  }

  /// The operands that are a warp's fragments: parameters of a warp
  /// instruction distributed over its lanes.
  llvm::SmallBitVector warpFragments() {
    llvm::SmallBitVector lanes(operands.size());
    if (!hasOperands(instr))
      return lanes;
    auto iface = cast<InstrOpInterface>(instr);
    if (CollUnitAttr unit = iface.getCollUnit();
        unit && unit == CollUnitAttr::get(ctx, CollUnitKind::warp, 1, 0))
      for (const InstrParam &p : iface.getParams())
        if (p.operandIndex < operands.size() &&
            p.distributedUnits.size() == 1 &&
            p.distributedUnits[0] ==
                CollUnitAttr::get(ctx, CollUnitKind::thread, 1, 0))
          lanes.set(p.operandIndex);
    return lanes;
  }

  /// The instruction on its windows (built again once its warp fragments
  /// are known), verified.
  LogicalResult buildInstr() {
    if (failed(build(llvm::SmallBitVector()))) {
      eraseWindows();
      return failure();
    }
    llvm::SmallBitVector lanes = warpFragments();
    if (lanes.any()) {
      rewriter.eraseOp(instr);
      eraseWindows();
      if (failed(build(lanes))) {
        eraseWindows();
        return failure();
      }
    }
    std::string message;
    auto valid = [&]() -> LogicalResult {
      for (Value w : windows)
        if (failed(mlir::verify(w.getDefiningOp())))
          return failure();
      return mlir::verify(instr);
    };
    if (failed(checkQuietly(ctx, valid, message))) {
      undo();
      return why.refuse(loc, "the nest cannot become '" + instrName +
                                 "' on windows of its buffers: " + message);
    }
    return success();
  }

  /// The instruction's behavior, run on its operands' elements.
  LogicalResult runInstr(Memory &instrMem) {
    auto iface = cast<InstrOpInterface>(instr);
    SmallVector<Type> argTypes;
    for (Value w : windows) {
      auto t = cast<MemRefType>(w.getType());
      shapes.push_back(SmallVector<int64_t>(t.getShape()));
      argTypes.push_back(MemRefType::get(t.getShape(), t.getElementType()));
    }
    OwningOpRef<ModuleOp> scratch = ModuleOp::create(loc);
    OpBuilder b(ctx);
    b.setInsertionPointToStart(scratch->getBody());
    auto fn = func::FuncOp::create(b, loc, "behavior",
                                   FunctionType::get(ctx, argTypes, {}));
    Block *entry = fn.addEntryBlock();
    b.setInsertionPointToStart(entry);
    SmallVector<Value> args(entry->getArguments());
    // The behavior takes every operand: barriers and their coordinates as
    // null values.
    SmallVector<Value> behaviorOperands(args);
    behaviorOperands.resize(instr->getNumOperands(), Value());
    if (failed(iface.buildSequential(b, behaviorOperands)))
      return why.refuse(loc, "'" + instrName + "' has no sequential behavior");
    func::ReturnOp::create(b, loc);
    DenseMap<Value, Val> env;
    DenseMap<Operation *, int> texts;
    Locals locals;
    BehaviorRun behavior{args, shapes, exprs, instrMem,
                         env,  texts,  why,   locals};
    return behavior.run(*entry);
  }

  /// Element k[f] as users index it.
  std::string coords(unsigned k, int64_t f) {
    SmallVector<int64_t> idx(shapes[k].size());
    for (int d = shapes[k].size() - 1; d >= 0; --d) {
      idx[d] = f % shapes[k][d];
      f /= shapes[k][d];
    }
    std::string s = "[";
    for (auto [i, v] : llvm::enumerate(idx))
      s += (i ? ", " : "") + std::to_string(v);
    return s + "]";
  }

  /// Every element either writes, the same expression.
  LogicalResult compare(Memory &instrMem, Memory &nestMem) {
    SmallVector<std::string> names;
    SmallVector<InstrParam> params = cast<InstrOpInterface>(instr).getParams();
    for (unsigned k = 0; k < operands.size(); ++k) {
      std::string n = controlName(operands[k].buffer);
      for (const InstrParam &p : params)
        if (p.operandIndex == k)
          n = p.name.str();
      names.push_back(n);
    }
    auto at = [&](unsigned k, int64_t f) { return coords(k, f); };
    for (unsigned k = 0; k < operands.size(); ++k) {
      std::set<int64_t> keys;
      for (auto &[f, n] : nestMem.elements[k])
        keys.insert(f);
      for (auto &[f, n] : instrMem.elements[k])
        keys.insert(f);
      for (int64_t f : keys) {
        auto ni = nestMem.elements[k].find(f),
             ii = instrMem.elements[k].find(f);
        bool inNest = ni != nestMem.elements[k].end();
        bool inInstr = ii != instrMem.elements[k].end();
        if (inNest && inInstr && ni->second == ii->second)
          continue;
        std::string where = names[k] + coords(k, f);
        std::string instrSays, nestSays;
        if (inNest && inInstr) {
          auto [x, y] = exprs.firstDifference(ii->second, ni->second);
          instrSays = "computes with " + exprs.print(x, names, at);
          nestSays = "with " + exprs.print(y, names, at);
        } else {
          instrSays = inInstr ? "writes " + exprs.print(ii->second, names, at)
                              : "leaves it unchanged";
          nestSays = inNest ? "writes " + exprs.print(ni->second, names, at)
                            : "leaves it unchanged";
        }
        Operation *writer = inNest ? nestMem.writers[k][f] : nullptr;
        (void)why.refuse(loc, "cannot replace the nest by '" + instrName +
                                  "': for " + where + " the instruction " +
                                  instrSays + ", the nest " + nestSays);
        if (writer)
          why.note(writer->getLoc(), "the nest's write of " + where);
        return failure();
      }
    }
    return success();
  }

  RewriterBase &rewriter;
  ForOp nest;
  StringRef instrName;
  RegisteredOperationName name;
  DictionaryAttr attrs;
  Refusal &why;
  Value barrier;
  ArrayRef<Value> barrierOperands;
  AffineMap barrierCoords;
  MLIRContext *ctx;
  Location loc;
  SmallVector<Operand, 4> operands;
  Exprs exprs;
  SmallVector<Value> windows;
  Operation *instr = nullptr;
  SmallVector<SmallVector<int64_t>> shapes;
};

} // namespace

FailureOr<Operation *> mlir::rake::gpuir::replaceWithInstruction(
    RewriterBase &rewriter, ForOp nest, StringRef instrName,
    ArrayRef<Value> buffers, DictionaryAttr attrs, Refusal &why, Value barrier,
    ArrayRef<Value> barrierOperands, AffineMap barrierCoords) {
  std::optional<RegisteredOperationName> name =
      RegisteredOperationName::lookup(instrName, nest.getContext());
  if (!name || !name->hasInterface<InstrOpInterface>())
    return why.refuse(nest.getLoc(),
                      "'" + instrName + "' is not an instruction");
  return Replacement(rewriter, nest, instrName, *name, attrs, why, barrier,
                     barrierOperands, barrierCoords)
      .run(buffers);
}
