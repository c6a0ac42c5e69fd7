//===- SyncCheckPlan.cpp - which device tasks are equivalent ---------------===//
//
// planTasks (SyncCheckInternal.h): the structure the symmetry reduction and
// the all-sizes mode rest on (docs/SyncCheck.md, "Symmetry across tasks").
// When every task runs the same statements on its own allocations, and the
// task indices appear only as added terms of the indices of global
// variables (the same term in every index of a variable) and in guards and
// loop bounds, two tasks whose guards and loop bounds come out the same
// behave identically up to a translation of their global accesses. Tasks
// are classed by those outcomes (an interval analysis of each guard over
// the loops around it), and the first task of each class represents it.
//
//===----------------------------------------------------------------------===//

#include "SyncCheckInternal.h"

#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"

#include <map>

using namespace mlir;
using namespace mlir::rake;
using namespace mlir::rake::amir;

namespace mlir::rake::sync_check_detail {
namespace {

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

class Planner {
public:
  Planner(ProcOp proc, ArrayRef<int64_t> controls, int64_t anyTaskBelow)
      : proc(proc), controls(controls), anyTaskBelow(anyTaskBelow) {}

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

  /// Whether `e`, where it depends on a task index, stays inside 64 bits
  /// for every task and every value of the loops around it (as the
  /// interpreter evaluates it, in 64-bit arithmetic).
  bool fitsEveryTask(AffineExpr e, ValueRange operands) const {
    if (!mentionsTask(e, operands))
      return true;
    SmallVector<Interval> dims = operandIntervals(operands, false);
    if (anyTaskBelow)
      for (auto [v, d] : llvm::zip(operands, dims))
        if (taskIndex.count(v))
          d = {0, anyTaskBelow - 1, true};
    return intervalOf(e, dims).known;
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
  /// Nonzero: fitsEveryTask takes every task index below it, whatever the
  /// sizes (the all-sizes mode).
  int64_t anyTaskBelow;
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
      SmallVector<int64_t> extents = allocExtents(
          alloc, [&](Value v) { return controlValue.lookup(v); });
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
      return evaluateControlExpr(map.getResult(0), dims);
    };
    std::optional<int64_t> lb = bound(l.getLowerMap(), l.getLowerOperands()),
                           ub = bound(l.getUpperMap(), l.getUpperOperands());
    if (!lb || !ub)
      return fail(why, "a task loop's bounds depend on an outer task index");
    taskIndex[l.getBody().getArgument(0)] = result.ivs.size();
    result.taskLoops.push_back(l);
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
        if (!fitsEveryTask(map.getResult(0), operands)) {
          ok = fail(why, "a loop bound in the task may leave 64 bits in "
                         "some task");
          return WalkResult::interrupt();
        }
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
        // The interpreter evaluates each side in 64 bits: a side that
        // wraps in some task could change the outcome there while the
        // difference, taken exactly, does not depend on the task (an
        // adversarial review).
        if (!fitsEveryTask(map.getResult(2 * i), guard.getOperands()) ||
            !fitsEveryTask(map.getResult(2 * i + 1), guard.getOperands())) {
          ok = fail(why, "a guard's arithmetic in the task may leave 64 "
                         "bits in some task");
          return WalkResult::interrupt();
        }
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
    if (auto a = dyn_cast<amir::AccessOpInterface>(op))
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
  result.taskDependent = !dependences.empty();
  std::map<SmallVector<int64_t>, unsigned> classes;
  for (auto [ordinal, c] : llvm::enumerate(result.coords)) {
    SmallVector<int64_t> key;
    for (const Dependence &d : dependences) {
      // Checked: a task part or bound past 64 bits would wrap and put tasks
      // whose guards differ into one class (an adversarial review). Such a
      // task gets a class of its own (it is interpreted); a bound that
      // overflows leaves the outcome to the exact task part.
      int64_t s = 0;
      bool overflow = false;
      for (auto [k, x] : llvm::zip(d.coeffs, c)) {
        int64_t term = 0;
        overflow |= __builtin_mul_overflow(k, x, &term) ||
                    __builtin_add_overflow(s, term, &s);
      }
      if (overflow) {
        key.push_back(3);
        key.push_back(int64_t(ordinal));
        continue;
      }
      int outcome = 2;
      int64_t lo = 0, hi = 0;
      if (d.predicate >= 0 && d.rest.known &&
          !__builtin_add_overflow(s, d.rest.lo, &lo) &&
          !__builtin_add_overflow(s, d.rest.hi, &hi)) {
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

} // namespace

std::optional<TaskPlan> planTasks(ProcOp proc, ArrayRef<int64_t> controls,
                                  std::string &why, int64_t anyTaskBelow) {
  return Planner(proc, controls, anyTaskBelow).plan(why);
}

} // namespace mlir::rake::sync_check_detail
