//===- ScopeRewrites.cpp - rewrites of scopes and memory ------------------===//
//
// lift_scope, wrap_device_function, set_memory, insert_fence, stage_mem and
// the merging of nested guards that simplify does. Memory types, device
// functions and fences are annotations of the sequential meaning (a buffer
// reads the same in any memory, a device function runs its body, a fence
// does nothing), so those rewrites need no precondition on it: the
// synchronization check proves the parallel program they make.
//
//===----------------------------------------------------------------------===//

#include "Rake/Dialect/GpuIR/TransformOps/Rewrites.h"
#include "Dependence.h"
#include "RewriteUtils.h"

#include "Rake/Dialect/GpuIR/IR/Syntax.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

#include <set>

using namespace mlir;
using namespace mlir::rake;
using namespace mlir::rake::gpuir;
using namespace mlir::rake::gpuir::detail;

//===----------------------------------------------------------------------===//
// lift_scope
//===----------------------------------------------------------------------===//

/// The single statement of a scope's body, if it has one.
static Operation *soleStatement(Block *block) {
  return block && llvm::hasSingleElement(*block) ? &block->front() : nullptr;
}

static Block *bodyOf(Operation *scope) {
  if (auto loop = dyn_cast<ForOp>(scope))
    return loop.getBodyBlock();
  if (auto cond = dyn_cast<IfOp>(scope))
    return &cond.getThenRegion().front();
  return nullptr;
}

FailureOr<Operation *> mlir::rake::gpuir::liftScope(RewriterBase &rewriter,
                                                    Operation *stmt,
                                                    Refusal &why) {
  Operation *parent = stmt->getParentOp();
  if (!isa_and_nonnull<ForOp, IfOp>(parent) || !isa<ForOp, IfOp>(stmt))
    return why.refuse(stmt->getLoc(),
                      "lift_scope swaps a gpuir.for or gpuir.if with the "
                      "gpuir.for or gpuir.if around it");
  for (Operation *op : {parent, stmt})
    if (auto cond = dyn_cast<IfOp>(op); cond && cond.hasElse())
      return why.refuse(op->getLoc(),
                        "cannot lift a scope across a gpuir.if with an else "
                        "branch");
  if (soleStatement(bodyOf(parent)) != stmt)
    return why.refuse(stmt->getLoc(),
                      "cannot lift this statement: it is not the only "
                      "statement of the scope around it");
  if (auto outer = dyn_cast<ForOp>(parent)) {
    if (auto inner = dyn_cast<ForOp>(stmt)) {
      FailureOr<std::pair<ForOp, ForOp>> loops =
          reorderLoops(rewriter, outer, why);
      if (failed(loops))
        return failure();
      return loops->first.getOperation();
    }
    // for %i { if c { S } } -> if c { for %i { S } }: c must not use %i.
    if (llvm::is_contained(stmt->getOperands(), outer.getInductionVar()))
      return why.refuse(stmt->getLoc(),
                        "cannot lift this condition out of the loop over " +
                            loopName(outer) + ": it uses " + loopName(outer));
  }
  // The two scopes trade places: stmt goes before parent, stmt's body into
  // parent, parent into stmt.
  Block *inner = bodyOf(stmt);
  Block *outerBody = bodyOf(parent);
  rewriter.moveOpBefore(stmt, parent);
  for (Operation &op : llvm::make_early_inc_range(*inner))
    rewriter.moveOpBefore(&op, outerBody, outerBody->end());
  rewriter.moveOpBefore(parent, inner, inner->end());
  return stmt;
}

//===----------------------------------------------------------------------===//
// wrap_device_function, insert_fence
//===----------------------------------------------------------------------===//

FailureOr<DeviceFunctionOp> mlir::rake::gpuir::wrapDeviceFunction(
    RewriterBase &rewriter, Operation *stmt, int64_t block,
    int64_t blocksPerSm, int64_t cluster, Refusal &why,
    ArrayRef<std::pair<std::string, int64_t>> groups,
    ArrayRef<int64_t> registers) {
  if (stmt->getParentOfType<DeviceFunctionOp>() || isa<DeviceFunctionOp>(stmt))
    return why.refuse(stmt->getLoc(),
                      "cannot wrap this statement in a device function: it "
                      "is in one already");
  if ((groups.empty() && block <= 0) || blocksPerSm <= 0 || cluster <= 0)
    return why.refuse(stmt->getLoc(),
                      "a device function needs positive block, "
                      "blocks_per_sm and cluster sizes");
  if (!registers.empty() && registers.size() != groups.size())
    return why.refuse(stmt->getLoc(), "setmaxnreg takes one register count "
                                      "per warp group");
  // setmaxnreg runs per warpgroup: a group that sets its register count is
  // whole aligned warpgroups (code generation refuses it otherwise).
  int64_t first = 0;
  for (const auto &[k, group] : llvm::enumerate(groups)) {
    const auto &[name, count] = group;
    if (!registers.empty() && registers[k] != 0 &&
        (first % 4 != 0 || count % 4 != 0))
      return why.refuse(stmt->getLoc(),
                        "warp group '" + name + "' sets its register count, "
                        "but setmaxnreg is executed by whole warpgroups and "
                        "the group's warps [" + Twine(first) + ", " +
                            Twine(first + count) +
                            ") are not whole aligned warpgroups");
    first += count;
  }
  SmallVector<Attribute> warpGroups;
  for (const auto &[k, group] : llvm::enumerate(groups)) {
    const auto &[name, count] = group;
    if (count <= 0)
      return why.refuse(stmt->getLoc(), "warp group '" + name +
                                            "' needs at least one warp");
    int64_t regs = registers.empty() ? 0 : registers[k];
    warpGroups.push_back(WarpGroupAttr::get(
        stmt->getContext(), rewriter.getStringAttr(name), count,
        regs < 0   ? RegisterChange::dec
        : regs > 0 ? RegisterChange::inc
                   : RegisterChange::none,
        regs < 0 ? -regs : regs));
  }
  rewriter.setInsertionPoint(stmt);
  auto fn = DeviceFunctionOp::create(
      rewriter, stmt->getLoc(), rewriter.getI64IntegerAttr(cluster),
      rewriter.getI64IntegerAttr(blocksPerSm),
      groups.empty() ? rewriter.getI64IntegerAttr(block) : IntegerAttr(),
      groups.empty() ? ArrayAttr() : rewriter.getArrayAttr(warpGroups));
  Block *body = new Block();
  fn.getBody().push_back(body);
  rewriter.moveOpBefore(stmt, body, body->end());
  std::string message;
  if (succeeded(checkQuietly(
          stmt->getContext(), [&] { return fn.verify(); }, message)))
    return fn;
  rewriter.moveOpBefore(stmt, fn);
  rewriter.eraseOp(fn);
  return why.refuse(stmt->getLoc(),
                    "cannot wrap this statement in this device function: " +
                        message);
}

FailureOr<WarpsOp> mlir::rake::gpuir::wrapWarps(
    RewriterBase &rewriter, Operation *stmt, StringRef group,
    std::optional<std::pair<int64_t, int64_t>> range, Refusal &why) {
  rewriter.setInsertionPoint(stmt);
  auto warps = WarpsOp::create(
      rewriter, stmt->getLoc(), rewriter.getStringAttr(group),
      range ? rewriter.getI64IntegerAttr(range->first) : IntegerAttr(),
      range ? rewriter.getI64IntegerAttr(range->second) : IntegerAttr());
  Block *body = new Block();
  warps.getBody().push_back(body);
  rewriter.moveOpBefore(stmt, body, body->end());
  std::string message;
  if (succeeded(checkQuietly(
          stmt->getContext(), [&] { return warps.verify(); }, message)))
    return warps;
  rewriter.moveOpBefore(stmt, warps);
  rewriter.eraseOp(warps);
  return why.refuse(stmt->getLoc(),
                    "cannot run this statement on warp group '" + group +
                        "': " + message);
}

FailureOr<FenceOp> mlir::rake::gpuir::insertFence(RewriterBase &rewriter,
                                                  Operation *stmt, bool after,
                                                  SyncTimeline pre,
                                                  SyncTimeline post,
                                                  Refusal &why) {
  if (!stmt->getParentOfType<DeviceFunctionOp>())
    return why.refuse(stmt->getLoc(),
                      "a fence goes inside a device function; this statement "
                      "is at CPU scope");
  if (after)
    rewriter.setInsertionPointAfter(stmt);
  else
    rewriter.setInsertionPoint(stmt);
  MLIRContext *ctx = stmt->getContext();
  return FenceOp::create(rewriter, stmt->getLoc(),
                         SyncTimelineAttr::get(ctx, pre),
                         SyncTimelineAttr::get(ctx, post));
}

//===----------------------------------------------------------------------===//
// set_memory
//===----------------------------------------------------------------------===//

static MemRefType withSpace(MemRefType t, Attribute space) {
  return MemRefType::get(t.getShape(), t.getElementType(), t.getLayout(),
                         space);
}

/// The windows of `v` (and theirs) take the new memory type too.
static void retypeWindows(RewriterBase &rewriter, Value v, Attribute space) {
  for (Operation *user : llvm::to_vector(v.getUsers()))
    if (auto window = dyn_cast<WindowOp>(user);
        window && window.getSource() == v) {
      rewriter.modifyOpInPlace(window, [&] {
        window.getResult().setType(withSpace(
            cast<MemRefType>(window.getResult().getType()), space));
      });
      retypeWindows(rewriter, window.getResult(), space);
    }
}

LogicalResult mlir::rake::gpuir::setMemory(RewriterBase &rewriter,
                                           Value buffer, Attribute space,
                                           Refusal &why) {
  auto type = dyn_cast<MemRefType>(buffer.getType());
  Location loc = buffer.getLoc();
  if (!type)
    return why.refuse(loc, "set_memory changes the memory type of a buffer; "
                           "this is not one");
  if (!isa<MemoryTypeAttrInterface>(space))
    return why.refuse(loc, "set_memory takes a GpuIR memory type "
                           "(#gpuir.gmem, #gpuir.smem, #gpuir.rmem, ...)");
  MemRefType newType = withSpace(type, space);
  if (auto arg = dyn_cast<BlockArgument>(buffer)) {
    auto proc = dyn_cast<ProcOp>(arg.getOwner()->getParentOp());
    if (!proc)
      return why.refuse(loc, "set_memory applies to procedure parameters and "
                             "allocations");
    rewriter.modifyOpInPlace(proc, [&] {
      arg.setType(newType);
      SmallVector<Type> inputs(proc.getFunctionType().getInputs());
      inputs[arg.getArgNumber()] = newType;
      proc.setFunctionType(
          FunctionType::get(proc.getContext(), inputs, {}));
    });
  } else if (auto alloc = buffer.getDefiningOp<AllocOp>()) {
    rewriter.modifyOpInPlace(alloc, [&] { buffer.setType(newType); });
  } else {
    return why.refuse(loc, "set_memory applies to procedure parameters and "
                           "allocations, not to windows");
  }
  retypeWindows(rewriter, buffer, space);
  return success();
}

Value mlir::rake::gpuir::lookupBuffer(Operation *stmt, StringRef name) {
  for (Operation *scope = stmt; scope; scope = scope->getParentOp()) {
    if (auto proc = dyn_cast<ProcOp>(scope)) {
      for (BlockArgument arg : proc.getBody().getArguments())
        if (isa<MemRefType>(arg.getType()) && controlName(arg) == name)
          return arg;
      return nullptr;
    }
    Block *block = scope->getBlock();
    if (!block)
      return nullptr;
    for (Operation &op : *block) {
      if (&op == scope)
        break;
      if (auto alloc = dyn_cast<AllocOp>(op))
        if (alloc.getName() && *alloc.getName() == name)
          return alloc.getResult();
    }
  }
  return nullptr;
}

//===----------------------------------------------------------------------===//
// bind_expr
//===----------------------------------------------------------------------===//

FailureOr<AllocOp> mlir::rake::gpuir::bindExpr(RewriterBase &rewriter,
                                               Operation *op, StringRef name,
                                               Attribute space, Refusal &why) {
  Location loc = op->getLoc();
  if (op->getNumResults() != 1 || !op->getParentOfType<ProcOp>())
    return why.refuse(loc, "bind_expr binds the one value an op of a "
                           "gpuir.proc computes; '" +
                               op->getName().getStringRef() + "' has " +
                               Twine(op->getNumResults()) + " results");
  Value v = op->getResult(0);
  Type t = v.getType();
  if (!t.isIntOrIndexOrFloat() || t.isIndex()) {
    std::string typeText;
    llvm::raw_string_ostream os(typeText);
    t.print(os);
    return why.refuse(loc, "bind_expr binds a scalar of an integer or float "
                           "type, not one of type " + typeText);
  }
  if (space && !isa<MemoryTypeAttrInterface>(space))
    return why.refuse(loc, "bind_expr takes a GpuIR memory type for the "
                           "buffer");
  if (!space)
    space = op->getParentOfType<DeviceFunctionOp>()
                ? Attribute(RmemAttr::get(op->getContext()))
                : Attribute(HostAttr::get(op->getContext()));
  rewriter.setInsertionPoint(op);
  auto alloc = AllocOp::create(
      rewriter, loc,
      MemRefType::get({}, t, MemRefLayoutAttrInterface(), space),
      ValueRange(), rewriter.getStringAttr(name));
  rewriter.setInsertionPointAfter(op);
  ControlGroup none{{}, AffineMap::get(0, 0, {}, op->getContext())};
  auto write = WriteOp::create(rewriter, loc, v, alloc.getResult(),
                               ValueRange(), AffineMapAttr::get(none.map));
  auto read = ReadOp::create(rewriter, loc, t, alloc.getResult(), ValueRange(),
                             AffineMapAttr::get(none.map));
  rewriter.replaceUsesWithIf(v, read.getResult(), [&](OpOperand &use) {
    return use.getOwner() != write;
  });
  return alloc;
}

//===----------------------------------------------------------------------===//
// stage_mem
//===----------------------------------------------------------------------===//

namespace {

struct ElementAccess {
  Access access;
  AffineMap map;
  SmallVector<Value> indices;
  SmallVector<SplitIndex> split;
};

} // namespace

/// Whether `stmt` writes every element of the window (offsets in
/// [0, shape)) and reads none, for every value from outside: its loops'
/// bounds and conditions are constants over its own loops, so its
/// writes are enumerated.
static bool writesWholeWindow(Operation *stmt, Value buffer,
                              ArrayRef<SmallVector<AffineExpr>> offsets,
                              ArrayRef<Operation *> writes,
                              ArrayRef<SmallVector<Value>> indices,
                              ArrayRef<int64_t> shape) {
  llvm::DenseMap<Value, int64_t> env;
  std::set<SmallVector<int64_t>> covered;
  auto eval = [&](AffineExpr e, ValueRange ops) -> std::optional<int64_t> {
    SmallVector<int64_t> vals;
    for (auto [i, v] : llvm::enumerate(ops)) {
      auto it = env.find(v);
      if (it == env.end()) {
        if (e.isFunctionOfDim(i))
          return std::nullopt;
        vals.push_back(0);
      } else {
        vals.push_back(it->second);
      }
    }
    return evaluateControlExpr(e, vals);
  };
  bool ok = true;
  std::function<void(Operation *)> run = [&](Operation *op) {
    if (!ok)
      return;
    if (auto loop = dyn_cast<ForOp>(op)) {
      auto lo = eval(loop.getLowerMap().getResult(0), loop.getLowerOperands());
      auto hi = eval(loop.getUpperMap().getResult(0), loop.getUpperOperands());
      if (!lo || !hi || *hi - *lo > (1 << 20)) {
        ok = false;
        return;
      }
      for (int64_t i = *lo; i < *hi && ok; ++i) {
        env[loop.getInductionVar()] = i;
        for (Operation &o : *loop.getBodyBlock())
          run(&o);
      }
      env.erase(loop.getInductionVar());
      return;
    }
    if (auto cond = dyn_cast<IfOp>(op)) {
      SmallVector<int64_t> vals;
      for (AffineExpr e : cond.getMap().getResults()) {
        auto v = eval(e, cond.getOperands());
        if (!v) {
          ok = false;
          return;
        }
        vals.push_back(*v);
      }
      Region &r = conditionHolds(cond.getPredicates(),
                                 cond.getAlternativeSizes(), vals)
                      ? cond.getThenRegion()
                      : cond.getElseRegion();
      if (!r.empty())
        for (Operation &o : r.front())
          run(&o);
      return;
    }
    if (auto read = dyn_cast<ReadOp>(op); read && read.getMemref() == buffer) {
      ok = false;
      return;
    }
    if (isa<ReduceOp>(op) && cast<ReduceOp>(op).getMemref() == buffer) {
      ok = false;
      return;
    }
    for (auto [w, off, ops] : llvm::zip(writes, offsets, indices)) {
      if (w != op)
        continue;
      SmallVector<int64_t> idx;
      for (AffineExpr e : off) {
        auto v = eval(e, ops);
        if (!v) {
          ok = false;
          return;
        }
        idx.push_back(*v);
      }
      covered.insert(idx);
    }
    for (Region &r : op->getRegions())
      for (Block &b : r)
        for (Operation &o : b)
          run(&o);
  };
  run(stmt);
  if (!ok)
    return false;
  int64_t total = 1;
  for (int64_t d : shape)
    total *= d;
  int64_t inside = 0;
  for (const SmallVector<int64_t> &idx : covered) {
    bool in = true;
    for (auto [v, n] : llvm::zip(idx, shape))
      in &= v >= 0 && v < n;
    inside += in;
  }
  return inside == total;
}

namespace {

/// stage_mem, in steps: the element accesses of the buffer in the staged
/// statements (one corner each), the window's corner, the proofs that every
/// access stays in the window and that parallel iterations that write stage
/// disjoint windows, the guards of the copies, then the rewrite.
class Stager {
public:
  Stager(RewriterBase &rewriter, Operation *first, Operation *last,
         Value buffer, ArrayRef<int64_t> shape, ArrayRef<int64_t> padding,
         Attribute space, StringRef name, Refusal &why)
      : rewriter(rewriter), first(first), last(last), stmt(first),
        buffer(buffer), shape(shape), padding(padding), space(space),
        name(name), why(why), ctx(first->getContext()), loc(first->getLoc()),
        type(cast<MemRefType>(buffer.getType())), bufName(controlName(buffer)),
        rank(type.getRank()) {
    for (Operation *op = first;; op = op->getNextNode()) {
      stmts.push_back(op);
      if (op == last)
        break;
    }
  }

  FailureOr<StagedBuffer> run() {
    if (failed(collect()))
      return failure();
    moveCornerConstants();
    if (failed(checkInside()) || failed(checkParallelWindows()) ||
        failed(findExtents()) || failed(findGuards()))
      return failure();
    // The new buffer and the copies.
    SmallVector<int64_t> allocShape(shape);
    for (auto [d, p] : llvm::enumerate(padding))
      allocShape[d] += p;
    base = name.empty() ? bufName + "_staged" : name.str();
    rewriter.setInsertionPoint(stmt);
    alloc = AllocOp::create(rewriter, loc,
                            MemRefType::get(allocShape, type.getElementType(),
                                            MemRefLayoutAttrInterface(), space),
                            ValueRange(), rewriter.getStringAttr(base));

    StagedBuffer staged{alloc, ForOp(), ForOp()};
    rewriter.setInsertionPoint(stmt);
    if (needsCopyIn())
      staged.copyIn = buildCopy(/*in=*/true);
    if (writes) {
      rewriter.setInsertionPointAfter(last);
      staged.copyOut = buildCopy(/*in=*/false);
    }

    // The accesses, redirected: tile[offset].
    for (const ElementAccess &ea : accesses) {
      SmallVector<AffineExpr> offsets;
      for (const SplitIndex &s : ea.split)
        offsets.push_back(s.offset);
      ControlGroup g = simplifyGroup(
          {ea.indices, AffineMap::get(ea.indices.size(), 0, offsets, ctx)});
      Operation *op = ea.access.op;
      rewriter.modifyOpInPlace(op, [&] {
        if (auto element = dyn_cast<AccessOpInterface>(op);
            element && element.isElementAccess())
          element.getBufferOperand().assign(alloc.getResult());
        setControlGroups(op, g);
      });
    }
    return staged;
  }

private:
  /// The accesses, each index split into corner and offset.
  LogicalResult collect() {
    SmallVector<Access> all;
    llvm::SmallPtrSet<Value, 8> innerValues;
    for (Operation *op : stmts) {
      if (failed(collectAccesses(op, all, why)))
        return failure();
      op->walk([&](ForOp loop) { innerValues.insert(loop.getInductionVar()); });
    }
    for (const Access &a : all) {
      if (a.root != buffer)
        continue;
      if (a.whole || a.operand != buffer)
        return why.refuse(a.op->getLoc(),
                          "stage_mem redirects element accesses of " + bufName +
                              "; " + describeAccess(a) +
                              " accesses it through a window");
      ElementAccess ea{a, {}, {}, {}};
      if (auto element = dyn_cast<AccessOpInterface>(a.op);
          element && element.isElementAccess())
        ea.map = element.getMap(),
        ea.indices = llvm::to_vector(element.getIndices());
      llvm::SmallBitVector outerDims(ea.indices.size());
      for (auto [i, v] : llvm::enumerate(ea.indices))
        outerDims[i] = !innerValues.contains(v);
      for (auto [d, e] : llvm::enumerate(ea.map.getResults())) {
        FailureOr<SplitIndex> s = splitIndex(e, outerDims);
        if (failed(s))
          return why.refuse(a.op->getLoc(),
                            "cannot stage " + bufName + ": index " + Twine(d) +
                                " of " + describeAccess(a) +
                                " mixes the loops inside the staged statement "
                                "with values from outside in one term");
        ea.split.push_back(*s);
      }
      // The corner over a common list of outer values.
      SmallVector<AffineExpr> dims;
      for (Value v : ea.indices) {
        if (innerValues.contains(v)) {
          dims.push_back(getAffineConstantExpr(0, ctx));
          continue;
        }
        cornerValues.insert(v);
        dims.push_back(getAffineDimExpr(
            llvm::find(cornerValues, v) - cornerValues.begin(), ctx));
      }
      SmallVector<AffineExpr> c;
      for (const SplitIndex &s : ea.split)
        c.push_back(simplifyAffineExpr(s.corner.replaceDims(dims),
                                       cornerValues.size(), 0));
      if (corner.empty()) {
        corner = c;
      } else if (corner != c) {
        (void)why.refuse(a.op->getLoc(),
                         "cannot stage " + bufName + ": " + describeAccess(a) +
                             " and " + describeAccess(accesses.front().access) +
                             " index it from different corners");
        why.note(accesses.front().access.op->getLoc(),
                 describeAccess(accesses.front().access));
        return failure();
      }
      writes |= a.mode != AccessMode::read;
      accesses.push_back(std::move(ea));
    }
    if (accesses.empty())
      return why.refuse(loc, "cannot stage " + bufName +
                                 ": the statement does not access it");
    cornerOps.assign(cornerValues.begin(), cornerValues.end());
    return success();
  }

  /// The corner's constant: the smallest constant term of the offsets in
  /// each dimension (X[%c + 8] stages from 8; X[%i - 1], X[%i + 1] from -1).
  void moveCornerConstants() {
    for (unsigned d = 0; d < rank; ++d) {
      std::optional<int64_t> least;
      for (const ElementAccess &ea : accesses) {
        int64_t k = 0;
        AffineExpr off =
            simplifyAffineExpr(ea.split[d].offset, ea.indices.size(), 0);
        if (auto c = dyn_cast<AffineConstantExpr>(off))
          k = c.getValue();
        else if (auto bin = dyn_cast<AffineBinaryOpExpr>(off);
                 bin && off.getKind() == AffineExprKind::Add)
          if (auto c = dyn_cast<AffineConstantExpr>(bin.getRHS()))
            k = c.getValue();
        least = least ? std::min(*least, k) : k;
      }
      if (!least || *least == 0)
        continue;
      corner[d] = simplifyAffineExpr(corner[d] + *least, cornerOps.size(), 0);
      for (ElementAccess &ea : accesses)
        ea.split[d].offset = ea.split[d].offset - *least;
    }
  }

  /// Every access stays inside the window: 0 <= offset < shape.
  LogicalResult checkInside() {
    for (const ElementAccess &ea : accesses) {
      for (unsigned d = 0; d < rank; ++d) {
        for (bool below : {true, false}) {
          InstancePair pair(stmt->getParentOp());
          Access a = ea.access;
          if (failed(pair.addInstance(0, a)))
            return why.refuse(a.op->getLoc(), "cannot analyse this access");
          FailureOr<AffineExpr> off =
              pair.align(0, ea.split[d].offset, ea.indices);
          AffineExpr zero = getAffineConstantExpr(0, ctx);
          AffineExpr size = getAffineConstantExpr(shape[d], ctx);
          if (failed(off) ||
              failed(below ? pair.addLt(*off, zero) : pair.addLe(size, *off)))
            return why.refuse(a.op->getLoc(), "cannot analyse this access");
          if (!pair.isEmpty())
            return why.refuse(a.op->getLoc(),
                              "cannot stage " + bufName + " in a window of " +
                                  Twine(shape[d]) + " in dimension " +
                                  Twine(d) + ": " + describeAccess(a) +
                                  " reaches offset " +
                                  printExpr(ea.split[d].offset, ea.indices) +
                                  " from the window's corner " +
                                  printExpr(corner[d], cornerOps) +
                                  ", outside [0, " + Twine(shape[d]) + ")");
        }
      }
    }

    return success();
  }

  // Where the staged statement writes, its copies write the whole window
  // back: two iterations of a parallel loop (threads or tasks, which run at
  // once) between the buffer's scope and the statement must then stage
  // windows that do not overlap, or one thread's copies would write
  // elements another's use. (Reads alone may overlap: each copy-in only
  // reads.)
  LogicalResult checkParallelWindows() {
    if (writes) {
      Operation *scope =
          isa<BlockArgument>(buffer)
              ? cast<BlockArgument>(buffer).getOwner()->getParentOp()
              : buffer.getDefiningOp()->getParentOp();
      for (Operation *p = stmt->getParentOp(); p && p != scope;
           p = p->getParentOp()) {
        auto loop = dyn_cast<ForOp>(p);
        if (!loop || loop.getLoopMode() == LoopMode::seq)
          continue;
        InstancePair pair(scope);
        if (failed(pair.addEnclosing(0, stmt)) ||
            failed(pair.addEnclosing(1, stmt)))
          return why.refuse(loc,
                            "cannot analyse the loops around the statement");
        Value iv = loop.getInductionVar();
        if (failed(pair.addLt(pair.dim(pair.var(0, iv)),
                              pair.dim(pair.var(1, iv)))))
          return why.refuse(loc,
                            "cannot analyse the loops around the statement");
        for (unsigned d = 0; d < rank; ++d) {
          FailureOr<AffineExpr> c0 = pair.align(0, corner[d], cornerOps);
          FailureOr<AffineExpr> c1 = pair.align(1, corner[d], cornerOps);
          AffineExpr size = getAffineConstantExpr(shape[d], ctx);
          if (failed(c0) || failed(c1) || failed(pair.addLt(*c0, *c1 + size)) ||
              failed(pair.addLt(*c1, *c0 + size)))
            return why.refuse(loc, "cannot analyse the window's corner");
        }
        if (!pair.isEmpty())
          return why.refuse(loc,
                            "cannot stage " + bufName +
                                ": the windows of "
                                "two iterations of the parallel loop over " +
                                loopName(loop) +
                                " overlap, and the statement "
                                "writes " +
                                bufName +
                                " (their copies would "
                                "race); stage a window each iteration has to "
                                "itself");
      }
    }

    return success();
  }

  /// The buffer's extents, for the guards of the copies.
  LogicalResult findExtents() {
    if (auto arg = dyn_cast<BlockArgument>(buffer)) {
      auto proc = cast<ProcOp>(arg.getOwner()->getParentOp());
      auto declared = proc.getArgAttrOfType<AffineMapAttr>(arg.getArgNumber(),
                                                           "gpuir.extents");
      for (BlockArgument a : proc.getBody().getArguments())
        if (a.getType().isIndex())
          extentOps.push_back(a);
      for (unsigned d = 0; d < rank; ++d) {
        if (!type.isDynamicDim(d))
          extents.push_back(getAffineConstantExpr(type.getDimSize(d), ctx));
        else if (declared)
          extents.push_back(declared.getValue().getResult(d));
        else
          return why.refuse(loc,
                            "cannot stage " + bufName +
                                ": the copies need its extents; declare "
                                "them with gpuir.extents on the parameter");
      }
    } else {
      auto alloc = buffer.getDefiningOp<AllocOp>();
      unsigned dyn = 0;
      for (unsigned d = 0; d < rank; ++d) {
        if (!type.isDynamicDim(d)) {
          extents.push_back(getAffineConstantExpr(type.getDimSize(d), ctx));
          continue;
        }
        extentOps.push_back(alloc.getDynamicSizes()[dyn++]);
        extents.push_back(getAffineDimExpr(extentOps.size() - 1, ctx));
      }
    }

    return success();
  }

  // Which dimensions need a guard: those where corner + s may leave
  // [0, extent) for some s in [0, shape) at some iteration around stmt.
  LogicalResult findGuards() {
    Operation *proc = stmt->getParentOfType<ProcOp>();
    for (unsigned d = 0; d < rank; ++d) {
      std::pair<bool, bool> need;
      for (bool below : {true, false}) {
        InstancePair pair(proc);
        if (failed(pair.addEnclosing(0, stmt)))
          return why.refuse(loc,
                            "cannot analyse the loops around the statement");
        FailureOr<AffineExpr> c = pair.align(0, corner[d], cornerOps);
        FailureOr<AffineExpr> s =
            pair.addRange(getAffineConstantExpr(0, ctx),
                          getAffineConstantExpr(shape[d], ctx));
        FailureOr<AffineExpr> ext = pair.align(0, extents[d], extentOps);
        if (failed(c) || failed(s) || failed(ext) ||
            failed(below ? pair.addLt(*c + *s, getAffineConstantExpr(0, ctx))
                         : pair.addLe(*ext, *c + *s)))
          return why.refuse(loc,
                            "cannot analyse the loops around the statement");
        (below ? need.first : need.second) = !pair.isEmpty();
      }
      guards.push_back(need);
    }

    return success();
  }

  /// A copy between the buffer's window and the staged buffer (`in`: into
  /// the staged buffer), guarded where the window may leave the extents.
  ForOp buildCopy(bool in) {
    ForOp outer;
    SmallVector<Value> ivs;
    for (unsigned d = 0; d < rank; ++d) {
      ForOp l = makeLoop(rewriter, loc, constantGroup(ctx, 0),
                         constantGroup(ctx, shape[d]),
                         LoopModeAttr::get(ctx, LoopMode::seq), CollUnitAttr(),
                         base + std::to_string(d));
      if (!outer)
        outer = l;
      ivs.push_back(l.getInductionVar());
      rewriter.setInsertionPointToStart(l.getBodyBlock());
    }
    // Operands: the corner's values, the extents', the copy's variables.
    SmallVector<Value> ops(cornerOps);
    unsigned extBase = ops.size();
    llvm::append_range(ops, extentOps);
    unsigned ivBase = ops.size();
    llvm::append_range(ops, ivs);
    auto ext = [&](unsigned d) {
      return extents[d].shiftDims(extentOps.size(), extBase);
    };
    SmallVector<AffineExpr> element, local;
    for (unsigned d = 0; d < rank; ++d) {
      local.push_back(getAffineDimExpr(ivBase + d, ctx));
      element.push_back(corner[d] + local.back());
    }
    SmallVector<AffineExpr> condExprs;
    SmallVector<int32_t> preds;
    for (unsigned d = 0; d < rank; ++d) {
      if (guards[d].first) {
        condExprs.append({element[d], getAffineConstantExpr(0, ctx)});
        preds.push_back(static_cast<int32_t>(CmpPredicate::ge));
      }
      if (guards[d].second) {
        condExprs.append({element[d], ext(d)});
        preds.push_back(static_cast<int32_t>(CmpPredicate::lt));
      }
    }
    if (!preds.empty()) {
      ControlGroup g =
          simplifyGroup({ops, AffineMap::get(ops.size(), 0, condExprs, ctx)});
      auto guard = IfOp::create(
          rewriter, loc, g.operands, AffineMapAttr::get(g.map),
          rewriter.getDenseI32ArrayAttr(preds), DenseI32ArrayAttr());
      guard.getThenRegion().push_back(new Block());
      rewriter.setInsertionPointToStart(&guard.getThenRegion().front());
    }
    ControlGroup src = simplifyGroup(
        {ops, AffineMap::get(ops.size(), 0, in ? element : local, ctx)});
    ControlGroup dst = simplifyGroup(
        {ops, AffineMap::get(ops.size(), 0, in ? local : element, ctx)});
    Value from = in ? buffer : alloc.getResult();
    Value to = in ? alloc.getResult() : buffer;
    auto read = ReadOp::create(rewriter, loc, type.getElementType(), from,
                               src.operands, AffineMapAttr::get(src.map));
    WriteOp::create(rewriter, loc, read.getResult(), to, dst.operands,
                    AffineMapAttr::get(dst.map));
    return outer;
  }

  // No copy-in where the first statement writes the whole window before
  // anything reads it (an accumulator's initialization).
  bool needsCopyIn() {
    {
      SmallVector<SmallVector<AffineExpr>> offsets;
      SmallVector<Operation *> writeOps;
      SmallVector<SmallVector<Value>> indices;
      for (const ElementAccess &ea : accesses)
        if (isa<WriteOp>(ea.access.op) && first->isAncestor(ea.access.op)) {
          SmallVector<AffineExpr> off;
          for (const SplitIndex &sp : ea.split)
            off.push_back(sp.offset);
          offsets.push_back(off);
          writeOps.push_back(ea.access.op);
          indices.push_back(ea.indices);
        }
      if (!writeOps.empty() &&
          writesWholeWindow(first, buffer, offsets, writeOps, indices, shape))
        return false;
    }
    return true;
  }

  RewriterBase &rewriter;
  Operation *first, *last, *stmt;
  Value buffer;
  ArrayRef<int64_t> shape, padding;
  Attribute space;
  StringRef name;
  Refusal &why;
  MLIRContext *ctx;
  Location loc;
  MemRefType type;
  std::string bufName;
  unsigned rank;
  SmallVector<Operation *> stmts;
  SmallVector<ElementAccess> accesses;
  llvm::SetVector<Value> cornerValues;
  SmallVector<Value> cornerOps;
  SmallVector<AffineExpr> corner;
  bool writes = false;
  SmallVector<Value> extentOps;
  SmallVector<AffineExpr> extents;
  /// Per dimension: whether the copies need a guard below zero and past the
  /// extent.
  SmallVector<std::pair<bool, bool>> guards;
  /// The staged buffer and the name its copies' loops start with.
  AllocOp alloc;
  std::string base;
};

} // namespace

FailureOr<StagedBuffer>
mlir::rake::gpuir::stageMem(RewriterBase &rewriter, Operation *first,
                            Operation *last, Value buffer,
                            ArrayRef<int64_t> shape, ArrayRef<int64_t> padding,
                            Attribute space, StringRef name, Refusal &why) {
  if (last->getBlock() != first->getBlock() ||
      (last != first && !first->isBeforeInBlock(last)))
    return why.refuse(last->getLoc(),
                      "stage_mem stages consecutive statements of one block; "
                      "this one is not after the first");
  unsigned rank = cast<MemRefType>(buffer.getType()).getRank();
  if (shape.size() != rank || (!padding.empty() && padding.size() != rank))
    return why.refuse(first->getLoc(), "stage_mem of " + controlName(buffer) +
                                           " needs a shape (and padding) of " +
                                           Twine(rank) + " extents");
  if (!isa<MemoryTypeAttrInterface>(space))
    return why.refuse(first->getLoc(), "stage_mem takes a GpuIR memory type "
                                       "for the staged buffer");
  // A negative padding would shrink the staged buffer below the window (an
  // adversarial review: padding [-6] made a 2-element tile for 8 elements).
  for (auto [d, p] : llvm::enumerate(padding))
    if (p < 0)
      return why.refuse(first->getLoc(),
                        "stage_mem pads each dimension by a non-negative "
                        "number of elements; dimension " +
                            Twine(d) + " has padding " + Twine(p));
  return Stager(rewriter, first, last, buffer, shape, padding, space, name, why)
      .run();
}

//===----------------------------------------------------------------------===//
// Merging nested guards (part of simplify)
//===----------------------------------------------------------------------===//

/// `if a { if b { S } }`, both conjunctions without else: `if a and b { S }`.
static bool mergeGuard(RewriterBase &rewriter, IfOp outer) {
  auto inner = dyn_cast_or_null<IfOp>(soleStatement(&outer.getThenRegion().front()));
  if (!inner || outer.hasElse() || inner.hasElse() ||
      outer.getAlternativeSizes().size() > 1 ||
      inner.getAlternativeSizes().size() > 1)
    return false;
  ControlGroup a{llvm::to_vector(outer.getOperands()), outer.getMap()};
  ControlGroup b{llvm::to_vector(inner.getOperands()), inner.getMap()};
  SmallVector<Value> ops(a.operands);
  SmallVector<AffineExpr> dims;
  for (Value v : b.operands) {
    auto it = llvm::find(ops, v);
    if (it == ops.end()) {
      ops.push_back(v);
      it = ops.end() - 1;
    }
    dims.push_back(getAffineDimExpr(it - ops.begin(), outer.getContext()));
  }
  SmallVector<AffineExpr> results(a.map.getResults());
  for (AffineExpr e : b.map.getResults())
    results.push_back(e.replaceDims(dims));
  SmallVector<int32_t> preds(outer.getPredicates());
  llvm::append_range(preds, inner.getPredicates());
  ControlGroup merged = simplifyGroup(
      {ops, AffineMap::get(ops.size(), 0, results, outer.getContext())});
  rewriter.modifyOpInPlace(outer, [&] {
    setControlGroups(outer, merged);
    outer.setPredicates(preds);
  });
  Block *dest = &outer.getThenRegion().front();
  for (Operation &op :
       llvm::make_early_inc_range(inner.getThenRegion().front()))
    rewriter.moveOpBefore(&op, dest, dest->end());
  rewriter.eraseOp(inner);
  return true;
}

void mlir::rake::gpuir::mergeNestedGuards(RewriterBase &rewriter,
                                          Operation *root) {
  SmallVector<IfOp> ifs;
  root->walk([&](IfOp cond) { ifs.push_back(cond); });
  // Outermost first (walk is post-order): each merge removes the inner if.
  llvm::DenseSet<Operation *> erased;
  for (IfOp cond : llvm::reverse(ifs)) {
    if (erased.contains(cond))
      continue;
    while (true) {
      auto inner = dyn_cast_or_null<IfOp>(
          soleStatement(&cond.getThenRegion().front()));
      if (!inner || !mergeGuard(rewriter, cond))
        break;
      erased.insert(inner);
    }
  }
}

//===----------------------------------------------------------------------===//
// inline
//===----------------------------------------------------------------------===//

LogicalResult mlir::rake::gpuir::inlineCall(RewriterBase &rewriter,
                                            CallOp call, Refusal &why) {
  auto callee = SymbolTable::lookupNearestSymbolFrom<ProcOp>(
      call, call.getCalleeAttr());
  if (!callee)
    return why.refuse(call.getLoc(), "cannot inline the call: '" +
                                         call.getCallee() +
                                         "' is not a gpuir.proc");
  if (callee->isAncestor(call))
    return why.refuse(call.getLoc(), "cannot inline a call of the procedure "
                                     "it is in");
  // A call runs the callee's body with its parameters bound to the
  // arguments: the body, copied in place of the call, does the same.
  IRMapping map;
  Block &body = callee.getBody().front();
  for (auto [param, arg] : llvm::zip(body.getArguments(), call.getArgs()))
    map.map(param, arg);
  rewriter.setInsertionPoint(call);
  for (Operation &op : body)
    rewriter.clone(op, map);
  rewriter.eraseOp(call);
  return success();
}
