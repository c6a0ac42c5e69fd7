//===- SyncCheckSymmetry.cpp - one task of each class of equivalent tasks -===//
//
// The symmetry reduction across device tasks (docs/SyncCheck.md,
// "Symmetry across tasks") and checkSynchronization, which uses it:
//
// 1. planTasks reads the procedure's structure. When every task runs the
//    same statements on its own allocations, and the task indices appear
//    only as added terms of the indices of global variables (the same term
//    in every index of a variable) and in guards and loop bounds, two tasks
//    whose guards and loop bounds come out the same behave identically up
//    to a translation of their global accesses. Tasks are classed by those
//    outcomes (an interval analysis of each guard over the loops around
//    it), and the first task of each class represents it.
// 2. Each representative is interpreted alone, on the context's thread
//    pool, and records the elements of global variables it touched.
// 3. proveAcrossTasks translates each class's footprint to every member:
//    no member may leave a variable's extents, and no two tasks may touch
//    one element when either writes it (tasks are never ordered with each
//    other inside a kernel, so such a pair is a race for the full check).
//
// Whatever the plan cannot prove is left to the full interpretation of
// every task, whose reports are the ones the user sees: the reduction
// changes the time of a check, never its verdict or its messages.
//
//===----------------------------------------------------------------------===//

#include "SyncCheckInternal.h"

#include "mlir/IR/Threading.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <map>

using namespace mlir;
using namespace mlir::rake;
using namespace mlir::rake::amir;

namespace mlir::rake::sync_check_detail {
namespace {

using Coeffs = SmallVector<int64_t, 3>;

/// A closed integer interval, or unknown where the analysis cannot bound
/// the value.
struct Interval {
  int64_t lo = 0, hi = 0;
  bool known = false;
  static Interval point(int64_t v) { return {v, v, true}; }
};

Interval addIntervals(Interval a, Interval b) {
  if (!a.known || !b.known)
    return {};
  std::optional<int64_t> lo = llvm::checkedAdd(a.lo, b.lo),
                         hi = llvm::checkedAdd(a.hi, b.hi);
  if (!lo || !hi)
    return {};
  return {*lo, *hi, true};
}

Interval mulIntervals(Interval a, Interval b) {
  if (!a.known || !b.known)
    return {};
  int64_t lo = std::numeric_limits<int64_t>::max(),
          hi = std::numeric_limits<int64_t>::min();
  for (int64_t x : {a.lo, a.hi})
    for (int64_t y : {b.lo, b.hi}) {
      std::optional<int64_t> p = llvm::checkedMul(x, y);
      if (!p)
        return {};
      lo = std::min(lo, *p);
      hi = std::max(hi, *p);
    }
  return {lo, hi, true};
}

/// A bound of the values of `e` when each operand lies in its interval.
Interval intervalOf(AffineExpr e, ArrayRef<Interval> dims) {
  switch (e.getKind()) {
  case AffineExprKind::Constant:
    return Interval::point(cast<AffineConstantExpr>(e).getValue());
  case AffineExprKind::DimId:
    return dims[cast<AffineDimExpr>(e).getPosition()];
  case AffineExprKind::SymbolId:
    return Interval::point(0); // as the interpreter evaluates symbols
  default:
    break;
  }
  auto bin = cast<AffineBinaryOpExpr>(e);
  Interval l = intervalOf(bin.getLHS(), dims),
           r = intervalOf(bin.getRHS(), dims);
  switch (e.getKind()) {
  case AffineExprKind::Add:
    return addIntervals(l, r);
  case AffineExprKind::Mul:
    return mulIntervals(l, r);
  default:
    break;
  }
  // Division and remainder by a positive constant; anything else unknown.
  if (!l.known || !r.known || r.lo != r.hi || r.lo <= 0)
    return {};
  int64_t c = r.lo;
  switch (e.getKind()) {
  case AffineExprKind::FloorDiv:
    return {llvm::divideFloorSigned(l.lo, c), llvm::divideFloorSigned(l.hi, c),
            true};
  case AffineExprKind::CeilDiv:
    return {llvm::divideCeilSigned(l.lo, c), llvm::divideCeilSigned(l.hi, c),
            true};
  case AffineExprKind::Mod:
    if (llvm::divideFloorSigned(l.lo, c) == llvm::divideFloorSigned(l.hi, c))
      return {((l.lo % c) + c) % c, ((l.hi % c) + c) % c, true};
    return {0, c - 1, true};
  default:
    return {};
  }
}

/// A guard predicate or loop bound whose value depends on the task: the
/// coefficients of the task indices in it (it is their weighted sum plus a
/// part `rest` that does not depend on them), and, for a guard, the
/// comparison of that value with 0.
struct Dependence {
  Coeffs coeffs;
  /// The range of the rest over the loops around it (guards only).
  Interval rest;
  /// The predicate (a gpuir::CmpPredicate), or -1 for a loop bound.
  int predicate = -1;
};

/// Everything planTasks found, for the run and the proofs.
struct TaskPlan {
  SmallVector<Value> ivs;
  /// The task loops' values of each task, in the order they run.
  std::vector<Coeffs> coords;
  std::vector<unsigned> classOf;
  /// The first task of each class, ascending.
  SmallVector<int64_t> reps;
  /// The global variables, in allocation order, and for each the
  /// coefficients of the task indices in every index of each dimension.
  SmallVector<Operation *> globals;
  DenseMap<Operation *, SmallVector<Coeffs>> coeffs;
  DenseMap<Operation *, SmallVector<int64_t>> extents;
};

class Planner {
public:
  Planner(ProcOp proc, ArrayRef<int64_t> controls)
      : proc(proc), controls(controls) {}

  std::optional<TaskPlan> plan(std::string &why) {
    if (!structure(why) || !scanTask(why))
      return std::nullopt;
    classify();
    return std::move(result);
  }

private:
  bool fail(std::string &why, const Twine &reason) {
    why = reason.str();
    return false;
  }

  bool isTaskIv(Value v) const { return taskIndex.count(v); }

  bool mentionsTask(AffineExpr e, ValueRange operands) const {
    bool found = false;
    e.walk([&](AffineExpr sub) {
      if (auto d = dyn_cast<AffineDimExpr>(sub))
        found |= isTaskIv(operands[d.getPosition()]);
    });
    return found;
  }

  /// The coefficients of the task indices in `e`, if `e` is their
  /// weighted sum plus terms free of them.
  std::optional<Coeffs> taskCoefficients(AffineExpr e,
                                         ValueRange operands) const {
    Coeffs zero(result.ivs.size(), 0);
    if (!mentionsTask(e, operands))
      return zero;
    if (auto d = dyn_cast<AffineDimExpr>(e)) {
      zero[taskIndex.lookup(operands[d.getPosition()])] = 1;
      return zero;
    }
    auto bin = dyn_cast<AffineBinaryOpExpr>(e);
    if (!bin)
      return std::nullopt;
    if (e.getKind() == AffineExprKind::Add) {
      std::optional<Coeffs> l = taskCoefficients(bin.getLHS(), operands),
                            r = taskCoefficients(bin.getRHS(), operands);
      if (!l || !r)
        return std::nullopt;
      for (auto [a, b] : llvm::zip(*l, *r))
        a += b;
      return l;
    }
    if (e.getKind() == AffineExprKind::Mul) {
      AffineExpr var = bin.getLHS();
      auto c = dyn_cast<AffineConstantExpr>(bin.getRHS());
      if (!c) {
        var = bin.getRHS();
        c = dyn_cast<AffineConstantExpr>(bin.getLHS());
      }
      std::optional<Coeffs> inner;
      if (c)
        inner = taskCoefficients(var, operands);
      if (!inner)
        return std::nullopt;
      for (int64_t &a : *inner)
        a *= c.getValue();
      return inner;
    }
    return std::nullopt; // a division or remainder of a task index
  }

  /// The intervals of a map's operands: control values exactly, the task
  /// indices at 0 (for the rest of a separable expression) or over all
  /// tasks, loop variables over their loop's range.
  SmallVector<Interval> operandIntervals(ValueRange operands,
                                         bool taskAtZero) const {
    SmallVector<Interval> dims;
    for (Value v : operands) {
      if (auto it = taskIndex.find(v); it != taskIndex.end())
        dims.push_back(taskAtZero ? Interval::point(0)
                                  : taskRange[it->second]);
      else if (auto c = controlValue.find(v); c != controlValue.end())
        dims.push_back(Interval::point(c->second));
      else
        dims.push_back(ranges.lookup(v));
    }
    return dims;
  }

  bool structure(std::string &why);
  bool scanTask(std::string &why);
  bool scanAccess(Operation *op, Value variable, ValueRange indices,
                  AffineMap map, ArrayRef<bool> intervals, std::string &why);
  void classify();

  ProcOp proc;
  ArrayRef<int64_t> controls;
  DenseMap<Value, int64_t> controlValue;
  DenseMap<Value, unsigned> taskIndex;
  SmallVector<Interval> taskRange;
  LoopOp inner;
  DenseMap<Value, Interval> ranges;
  SmallVector<Dependence> dependences;
  TaskPlan result;
};

/// The procedure launches one device function whose body is a nest of task
/// loops over ranges fixed by the sizes, and does nothing else but allocate
/// global variables and fence: no access outside the tasks.
bool Planner::structure(std::string &why) {
  Block &body = proc.getBody().front();
  for (auto [arg, v] : llvm::zip(body.getArguments(), controls))
    controlValue[arg] = v;
  GuardOp device;
  for (Operation &op : body) {
    if (auto alloc = dyn_cast<AllocOp>(op)) {
      if (alloc.getShared() || isa<BarrierType>(alloc.getResult().getType()))
        return fail(why, "a shared or barrier variable is allocated outside "
                         "the device function");
      SmallVector<int64_t> extents(alloc.getShape());
      if (std::optional<AffineMap> map = alloc.getExtents()) {
        SmallVector<int64_t> dims;
        for (Value v : alloc.getExtentOperands())
          dims.push_back(controlValue.lookup(v));
        SmallVector<int64_t> declared = evalMap(*map, dims);
        for (auto [d, extent] : llvm::enumerate(extents))
          if (extent < 0)
            extent = declared[d];
      }
      result.globals.push_back(alloc);
      result.extents[alloc] = std::move(extents);
      continue;
    }
    if (isa<FenceOp>(op))
      continue;
    auto guard = dyn_cast<GuardOp>(op);
    if (!device && guard && guard.getThreads() &&
        isa<DomainAttr>(*guard.getThreads()) &&
        guard.getPredicates().empty() && guard.getElseBody().empty()) {
      device = guard;
      continue;
    }
    return fail(why, "the procedure does more than launch one device "
                     "function: " +
                         op.getName().getStringRef() + " at its top level");
  }
  if (!device)
    return fail(why, "the procedure launches no device function");
  Block *block = &device.getBody().front();
  while (true) {
    auto loops = block->getOps<LoopOp>();
    auto loop = llvm::find_if(loops, [](LoopOp l) { return l.getTasks(); });
    if (loop == loops.end())
      break;
    if (!llvm::hasSingleElement(*block))
      return fail(why, "the device function has statements outside its "
                       "innermost task loop");
    LoopOp l = *loop;
    auto bound = [&](AffineMap map, ValueRange operands)
        -> std::optional<int64_t> {
      SmallVector<int64_t> dims;
      for (Value v : operands) {
        auto it = controlValue.find(v);
        if (it == controlValue.end())
          return std::nullopt;
        dims.push_back(it->second);
      }
      return evalExpr(map.getResult(0), dims);
    };
    std::optional<int64_t> lb = bound(l.getLowerMap(), l.getLowerOperands()),
                           ub = bound(l.getUpperMap(), l.getUpperOperands());
    if (!lb || !ub)
      return fail(why, "a task loop's bounds depend on an outer task index");
    taskIndex[l.getBody().getArgument(0)] = result.ivs.size();
    result.ivs.push_back(l.getBody().getArgument(0));
    taskRange.push_back({*lb, std::max(*lb, *ub - 1), true});
    inner = l;
    block = &l.getBody().front();
    if (*ub <= *lb)
      return fail(why, "no task runs");
  }
  if (!inner)
    return fail(why, "the device function has no task loop");
  // The tasks in the order the interpreter numbers them.
  int64_t total = 1;
  for (Interval r : taskRange)
    if (!(total = llvm::checkedMul(total, r.hi - r.lo + 1).value_or(0)) ||
        total > (int64_t(1) << 22))
      return fail(why, "too many tasks to enumerate");
  Coeffs c;
  for (Interval r : taskRange)
    c.push_back(r.lo);
  for (int64_t n = 0; n < total; ++n) {
    result.coords.push_back(c);
    for (size_t d = c.size(); d-- > 0;) {
      if (++c[d] <= taskRange[d].hi)
        break;
      c[d] = taskRange[d].lo;
    }
  }
  return true;
}

/// Inside a task: where the task indices appear. Loop bounds and guards may
/// depend on them (separably: a weighted sum plus the rest); indices of
/// global variables may add a translation that is the same in every index
/// of a variable; nothing else may use them. Every variable is the task's
/// own or global, and only accesses touch the global ones.
bool Planner::scanTask(std::string &why) {
  bool ok = true;
  inner.getBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (!ok)
      return WalkResult::interrupt();
    auto local = [&](Value v) {
      Operation *def = v.getDefiningOp();
      return def && inner->isProperAncestor(def);
    };
    if (auto loop = dyn_cast<LoopOp>(op)) {
      for (auto [map, operands] :
           {std::pair(loop.getLowerMap(), loop.getLowerOperands()),
            std::pair(loop.getUpperMap(), loop.getUpperOperands())}) {
        std::optional<Coeffs> c =
            taskCoefficients(map.getResult(0), operands);
        if (!c) {
          ok = fail(why, "a loop bound in the task is not a sum of multiples "
                         "of the task indices and other terms");
          return WalkResult::interrupt();
        }
        if (llvm::any_of(*c, [](int64_t x) { return x != 0; }))
          dependences.push_back({*c, {}, -1});
      }
      Interval lb = intervalOf(loop.getLowerMap().getResult(0),
                               operandIntervals(loop.getLowerOperands(),
                                                false)),
               ub = intervalOf(loop.getUpperMap().getResult(0),
                               operandIntervals(loop.getUpperOperands(),
                                                false));
      Interval iv;
      if (lb.known && ub.known && ub.hi - 1 >= lb.lo)
        iv = {lb.lo, ub.hi - 1, true};
      ranges[loop.getBody().getArgument(0)] = iv;
      return WalkResult::advance();
    }
    if (auto guard = dyn_cast<GuardOp>(op)) {
      AffineMap map = guard.getMap();
      for (auto [i, p] : llvm::enumerate(guard.getPredicates())) {
        AffineExpr d = map.getResult(2 * i) - map.getResult(2 * i + 1);
        std::optional<Coeffs> c = taskCoefficients(d, guard.getOperands());
        if (!c) {
          ok = fail(why, "a guard in the task is not a sum of multiples of "
                         "the task indices and other terms");
          return WalkResult::interrupt();
        }
        if (llvm::any_of(*c, [](int64_t x) { return x != 0; }))
          dependences.push_back(
              {*c, intervalOf(d, operandIntervals(guard.getOperands(), true)),
               static_cast<int>(p)});
      }
      return WalkResult::advance();
    }
    if (auto a = dyn_cast<CheckReadsOp>(op))
      ok = scanAccess(op, a.getVariable(), a.getIndices(), a.getMap(),
                      a.getIntervals(), why);
    else if (auto a = dyn_cast<CheckMutatesOp>(op))
      ok = scanAccess(op, a.getVariable(), a.getIndices(), a.getMap(),
                      a.getIntervals(), why);
    else if (auto a = dyn_cast<RecordReadOp>(op))
      ok = scanAccess(op, a.getVariable(), a.getIndices(), a.getMap(),
                      a.getIntervals(), why);
    else if (auto a = dyn_cast<RecordMutateOp>(op))
      ok = scanAccess(op, a.getVariable(), a.getIndices(), a.getMap(),
                      a.getIntervals(), why);
    else
      for (Value v : op->getOperands()) {
        if (isTaskIv(v)) {
          ok = fail(why, op->getName().getStringRef() +
                             " in the task depends on a task index");
          break;
        }
        if (isa<DataType, BarrierType>(v.getType()) && !local(v)) {
          ok = fail(why, op->getName().getStringRef() +
                             " in the task uses a variable of the device "
                             "function or the procedure");
          break;
        }
      }
    return ok ? WalkResult::advance() : WalkResult::interrupt();
  });
  return ok;
}

bool Planner::scanAccess(Operation *op, Value variable, ValueRange indices,
                         AffineMap map, ArrayRef<bool> intervals,
                         std::string &why) {
  Operation *def = variable.getDefiningOp();
  if (def && inner->isProperAncestor(def)) {
    for (AffineExpr e : map.getResults())
      if (mentionsTask(e, indices))
        return fail(why, "an index of the task's own variable depends on a "
                         "task index");
    return true;
  }
  if (!def || !result.extents.count(def))
    return fail(why, "the task accesses a variable of the device function");
  // Per dimension, the coefficients of its index (both ends of an
  // interval); a whole access has none.
  SmallVector<Coeffs> dims;
  unsigned r = 0;
  for (bool isInterval : intervals) {
    std::optional<Coeffs> c = taskCoefficients(map.getResult(r), indices);
    if (c && isInterval &&
        taskCoefficients(map.getResult(r + 1), indices) != c)
      c.reset();
    if (!c)
      return fail(why, "an index of " +
                           cast<AllocOp>(def).getName() +
                           " is not its own term plus multiples of the "
                           "task indices");
    dims.push_back(*c);
    r += isInterval ? 2 : 1;
  }
  size_t rank = result.extents[def].size();
  if (intervals.empty())
    dims.assign(rank, Coeffs(result.ivs.size(), 0));
  auto [it, inserted] = result.coeffs.try_emplace(def, dims);
  if (!inserted && it->second != dims)
    return fail(why, "the indices of " + cast<AllocOp>(def).getName() +
                         " move by different multiples of the task indices");
  (void)op;
  return true;
}

/// Classes the tasks by the outcome of each task-dependent guard (true for
/// every value the loops around it can take, false for every one, or the
/// exact value of its task part) and the values of task-dependent loop
/// bounds.
void Planner::classify() {
  std::map<SmallVector<int64_t>, unsigned> classes;
  for (auto [ordinal, c] : llvm::enumerate(result.coords)) {
    SmallVector<int64_t> key;
    for (const Dependence &d : dependences) {
      int64_t s = 0;
      for (auto [k, x] : llvm::zip(d.coeffs, c))
        s += k * x;
      int outcome = 2;
      if (d.predicate >= 0 && d.rest.known) {
        int64_t lo = s + d.rest.lo, hi = s + d.rest.hi;
        bool always = false, never = false;
        switch (static_cast<gpuir::CmpPredicate>(d.predicate)) {
        case gpuir::CmpPredicate::eq:
          always = lo == 0 && hi == 0;
          never = hi < 0 || lo > 0;
          break;
        case gpuir::CmpPredicate::lt:
          always = hi < 0;
          never = lo >= 0;
          break;
        case gpuir::CmpPredicate::le:
          always = hi <= 0;
          never = lo > 0;
          break;
        case gpuir::CmpPredicate::gt:
          always = lo > 0;
          never = hi <= 0;
          break;
        case gpuir::CmpPredicate::ge:
          always = lo >= 0;
          never = hi < 0;
          break;
        }
        outcome = always ? 1 : never ? 0 : 2;
      }
      key.push_back(outcome);
      if (outcome == 2)
        key.push_back(s);
    }
    auto [it, inserted] = classes.try_emplace(key, result.reps.size());
    if (inserted)
      result.reps.push_back(ordinal);
    result.classOf.push_back(it->second);
  }
}

/// A box moved by `delta` (an unbounded end stays unbounded).
Box translate(const Box &b, ArrayRef<int64_t> delta) {
  Box t = b;
  for (size_t d = 0; d < t.lo.size(); ++d) {
    t.lo[d] += delta[d];
    if (t.hi[d] < gpuir::kUnboundedExtent)
      t.hi[d] += delta[d];
  }
  return t;
}

bool nonEmpty(const Box &b) {
  for (size_t d = 0; d < b.lo.size(); ++d)
    if (b.hi[d] <= b.lo[d])
      return false;
  return true;
}

void widen(std::optional<Box> &hull, const Box &b) {
  if (!hull) {
    hull = b;
    return;
  }
  for (size_t d = 0; d < b.lo.size(); ++d) {
    hull->lo[d] = std::min(hull->lo[d], b.lo[d]);
    hull->hi[d] = std::max(hull->hi[d], b.hi[d]);
  }
}

/// The proofs of step 3 for one global variable.
class VariableProof {
public:
  VariableProof(const TaskPlan &plan, ArrayRef<Footprint> footprints,
                Operation *alloc)
      : plan(plan), footprints(footprints), alloc(alloc),
        name(cast<AllocOp>(alloc).getName().str()),
        coeffs(plan.coeffs.lookup(alloc)),
        extents(plan.extents.lookup(alloc)) {}

  bool prove(std::string &why) {
    if (!plan.coeffs.count(alloc))
      return true; // not accessed by the tasks
    for (unsigned k = 0; k < plan.reps.size(); ++k)
      accesses.push_back(footprints[k].accesses.lookup(alloc));
    return inBounds(why) && disjoint(why);
  }

private:
  /// How far task `t`'s accesses lie from its representative's.
  SmallVector<int64_t> delta(int64_t t) const {
    const Coeffs &c = plan.coords[t];
    const Coeffs &r = plan.coords[plan.reps[plan.classOf[t]]];
    SmallVector<int64_t> out;
    for (const Coeffs &row : coeffs) {
      int64_t s = 0;
      for (auto [k, a, b] : llvm::zip(row, c, r))
        s += k * (a - b);
      out.push_back(s);
    }
    return out;
  }

  /// Each dimension of each access inside the extent, as the
  /// interpreter's bounds check asks of every check, for every task.
  bool inBounds(std::string &why) {
    size_t rank = extents.size();
    for (unsigned k = 0; k < plan.reps.size(); ++k) {
      // Per dimension: the range of the accesses not empty along it, and
      // the lowest start of those that run to the end.
      SmallVector<std::optional<std::pair<int64_t, int64_t>>> finite(rank);
      SmallVector<std::optional<int64_t>> open(rank);
      for (const Footprint::Access &a : accesses[k])
        for (size_t d = 0; d < rank && d < a.box.lo.size(); ++d) {
          if (a.box.hi[d] >= gpuir::kUnboundedExtent) {
            open[d] = std::min(open[d].value_or(a.box.lo[d]), a.box.lo[d]);
          } else if (a.box.hi[d] > a.box.lo[d]) {
            auto &f = finite[d];
            f = {std::min(f ? f->first : a.box.lo[d], a.box.lo[d]),
                 std::max(f ? f->second : a.box.hi[d], a.box.hi[d])};
          }
        }
      for (size_t t = 0; t < plan.coords.size(); ++t) {
        if (plan.classOf[t] != k)
          continue;
        SmallVector<int64_t> dt = delta(t);
        for (size_t d = 0; d < rank; ++d) {
          if (extents[d] < 0)
            continue;
          bool ok = (!finite[d] || (finite[d]->first + dt[d] >= 0 &&
                                    finite[d]->second + dt[d] <= extents[d])) &&
                    (!open[d] || *open[d] + dt[d] >= 0);
          if (!ok) {
            why = "task " + std::to_string(t) + " may access " + name +
                  " outside its extents";
            return false;
          }
        }
      }
    }
    return true;
  }

  /// No element touched by two tasks when either writes it.
  bool disjoint(std::string &why) {
    size_t n = plan.coords.size(), classes = plan.reps.size();
    SmallVector<std::optional<Box>> writeHull(classes), hull(classes);
    bool writes = false;
    for (unsigned k = 0; k < classes; ++k)
      for (const Footprint::Access &a : accesses[k]) {
        if (!nonEmpty(a.box))
          continue;
        widen(hull[k], a.box);
        if (a.mutate) {
          widen(writeHull[k], a.box);
          writes = true;
        }
      }
    if (!writes || n < 2)
      return true;
    std::vector<SmallVector<int64_t>> deltas(n);
    std::vector<std::optional<Box>> hw(n), ha(n);
    SmallVector<size_t> order;
    int64_t maxSpan = 0;
    for (size_t t = 0; t < n; ++t) {
      unsigned k = plan.classOf[t];
      deltas[t] = delta(t);
      if (hull[k]) {
        ha[t] = translate(*hull[k], deltas[t]);
        order.push_back(t);
        if (!ha[t]->lo.empty())
          maxSpan = std::max(maxSpan, ha[t]->hi[0] - ha[t]->lo[0]);
      }
      if (writeHull[k])
        hw[t] = translate(*writeHull[k], deltas[t]);
    }
    auto lo0 = [&](size_t t) { return ha[t]->lo.empty() ? 0 : ha[t]->lo[0]; };
    llvm::sort(order, [&](size_t a, size_t b) { return lo0(a) < lo0(b); });
    for (size_t t = 0; t < n; ++t) {
      if (!hw[t])
        continue;
      // The tasks whose accesses can reach this one's writes along the
      // first dimension, then exactly.
      auto begin = order.begin(), end = order.end();
      if (!hw[t]->lo.empty()) {
        int64_t from = hw[t]->lo[0] - maxSpan, to = hw[t]->hi[0];
        begin = llvm::partition_point(
            order, [&](size_t u) { return lo0(u) <= from; });
        end = std::partition_point(begin, order.end(),
                                   [&](size_t u) { return lo0(u) < to; });
      }
      for (auto it = begin; it != end; ++it) {
        size_t u = *it;
        if (u == t || !hw[t]->overlaps(*ha[u]))
          continue;
        if ((work += 1) > kWorkLimit)
          return tooMuch(why);
        if (!exactlyDisjoint(t, u, why))
          return false;
      }
    }
    return true;
  }

  /// Task `t`'s writes against each access of task `u`: in `u`'s
  /// representative's coordinates, through its accesses sorted by their
  /// start in the first dimension.
  bool exactlyDisjoint(size_t t, size_t u, std::string &why) {
    unsigned ku = plan.classOf[u];
    Sorted &sorted = sortedAccesses(ku);
    SmallVector<int64_t> dt = delta(t), du = delta(u);
    SmallVector<int64_t> rel;
    for (auto [a, b] : llvm::zip(dt, du))
      rel.push_back(a - b);
    for (const Footprint::Access &w : accesses[plan.classOf[t]]) {
      if (!w.mutate || !nonEmpty(w.box))
        continue;
      Box wt = translate(w.box, rel);
      auto begin = sorted.order.begin(), end = sorted.order.end();
      if (!wt.lo.empty()) {
        int64_t from = wt.lo[0] - sorted.maxSpan, to = wt.hi[0];
        auto lo0 = [&](unsigned i) { return accesses[ku][i].box.lo[0]; };
        begin = llvm::partition_point(sorted.order,
                                      [&](unsigned i) { return lo0(i) <= from; });
        end = std::partition_point(begin, sorted.order.end(),
                                   [&](unsigned i) { return lo0(i) < to; });
      }
      for (auto it = begin; it != end; ++it) {
        if ((work += 1) > kWorkLimit)
          return tooMuch(why);
        if (wt.overlaps(accesses[ku][*it].box)) {
          why = "tasks " + std::to_string(std::min(t, u)) + " and " +
                std::to_string(std::max(t, u)) + " both access elements of " +
                name + " that one of them writes";
          return false;
        }
      }
    }
    return true;
  }

  /// A class's non-empty accesses by their start in the first dimension.
  struct Sorted {
    SmallVector<unsigned> order;
    int64_t maxSpan = 0;
  };
  Sorted &sortedAccesses(unsigned k) {
    auto [it, inserted] = sorted.try_emplace(k);
    if (!inserted)
      return it->second;
    const std::vector<Footprint::Access> &list = accesses[k];
    for (auto [i, a] : llvm::enumerate(list))
      if (nonEmpty(a.box)) {
        it->second.order.push_back(i);
        if (!a.box.lo.empty())
          it->second.maxSpan =
              std::max(it->second.maxSpan, a.box.hi[0] - a.box.lo[0]);
      }
    if (!list.empty() && !list.front().box.lo.empty())
      llvm::stable_sort(it->second.order, [&](unsigned a, unsigned b) {
        return list[a].box.lo[0] < list[b].box.lo[0];
      });
    return it->second;
  }

  bool tooMuch(std::string &why) {
    why = "too many pairs of tasks may share elements of " + name +
          " to compare them";
    return false;
  }

  static constexpr int64_t kWorkLimit = 50'000'000;
  const TaskPlan &plan;
  ArrayRef<Footprint> footprints;
  Operation *alloc;
  std::string name;
  SmallVector<Coeffs> coeffs;
  SmallVector<int64_t> extents;
  SmallVector<std::vector<Footprint::Access>> accesses;
  DenseMap<unsigned, Sorted> sorted;
  int64_t work = 0;
};

} // namespace

static bool proveAcrossTasks(const TaskPlan &plan,
                             ArrayRef<Footprint> footprints,
                             std::string &why) {
  for (Operation *alloc : plan.globals)
    if (!VariableProof(plan, footprints, alloc).prove(why))
      return false;
  return true;
}

} // namespace mlir::rake::sync_check_detail

/// The error of a check that ran out of its budget: nothing is proven.
static unsigned reportBudget(ProcOp proc, const SyncCheckOptions &options,
                             const sync_check_detail::RunLimits &limits,
                             SyncCheckStats &st) {
  st.outOfBudget = true;
  InFlightDiagnostic d = mlir::emitError(proc.getLoc())
                         << "the synchronization check ran past its budget of "
                         << llvm::formatv("{0}", options.budgetSeconds)
                         << " s after interpreting " << limits.done;
  if (limits.total >= 0)
    d << " of the " << limits.total;
  d << " " << limits.what;
  d << ", so the procedure is not proven at "
    << (options.sizes.empty() ? std::string("these sizes") : options.sizes)
    << "; give it more time "
       "(--rake-sync-check=\"budget=SECONDS\", 0 for no limit) or check "
       "smaller sizes";
  if (!st.reduction.empty())
    d << " (every task is interpreted: " << st.reduction << ")";
  return 1;
}

unsigned mlir::rake::checkSynchronization(ProcOp proc,
                                          ArrayRef<int64_t> controls,
                                          const SyncCheckOptions &options,
                                          SyncCheckStats *stats) {
  using namespace sync_check_detail;
  SyncCheckStats local;
  SyncCheckStats &st = stats ? *stats : local;
  RunLimits limits;
  if (options.budgetSeconds > 0)
    limits.deadline =
        std::chrono::steady_clock::now() +
        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
            std::chrono::duration<double>(options.budgetSeconds));
  // Counted for the budget's report even without a progress callback.
  limits.progress = options.progress
                        ? options.progress
                        : std::function<void(int64_t, int64_t)>(
                              [](int64_t, int64_t) {});
  auto full = [&](std::string reason, int64_t total) {
    st.reduction = std::move(reason);
    limits.total = total;
    limits.done = 0;
    limits.what = "tasks";
    Interpreter interp(options);
    interp.limitBy(&limits);
    unsigned errors = interp.run(proc, controls);
    st.tasks = st.interpreted = interp.tasksRun();
    if (limits.expired)
      return reportBudget(proc, options, limits, st);
    return errors;
  };
  if (!options.symmetry)
    return full("the symmetry reduction is off", -1);
  std::string why;
  std::optional<TaskPlan> plan = Planner(proc, controls).plan(why);
  if (!plan)
    return full(why, -1);
  int64_t total = plan->coords.size();
  // Each representative alone, silently and to its end, so that its
  // footprint is whole even where it has a hazard.
  size_t classes = plan->reps.size();
  std::vector<Footprint> footprints(classes);
  std::vector<unsigned> errors(classes, 0);
  SyncCheckOptions silentOptions = options;
  silentOptions.maxErrors = 0;
  limits.total = classes;
  limits.what = "representative tasks";
  parallelFor(proc->getContext(), 0, classes, [&](size_t k) {
    llvm::DenseSet<int64_t> only{plan->reps[k]};
    Interpreter interp(silentOptions);
    interp.restrictTo(&only, /*silent=*/true, &footprints[k]);
    interp.limitBy(&limits);
    errors[k] = interp.run(proc, controls);
  });
  if (limits.expired)
    return reportBudget(proc, options, limits, st);
  if (!proveAcrossTasks(*plan, footprints, why)) {
    unsigned found = full(why, total);
    st.tasks = total; // also those after the first report
    return found;
  }
  st.tasks = total;
  st.classes = classes;
  st.interpreted = classes;
  auto bad = llvm::find_if(errors, [](unsigned e) { return e != 0; });
  if (bad == errors.end())
    return 0;
  // The first task with a hazard is a representative (each class's first
  // task comes before the rest of its class), every task before it is
  // clean, and no other task's accesses meet its own: the full check's
  // first report is this representative's first.
  if (options.maxErrors != 1) {
    unsigned found = full("a task has a hazard, and max-errors asks for more "
                          "than the first report",
                          total);
    st.tasks = total;
    return found;
  }
  llvm::DenseSet<int64_t> only{plan->reps[bad - errors.begin()]};
  Interpreter interp(options);
  interp.restrictTo(&only, /*silent=*/false, nullptr);
  return interp.run(proc, controls);
}
