//===- SyncCheckSymmetry.cpp - one task of each class of equivalent tasks -===//
//
// The symmetry reduction across device tasks (docs/SyncCheck.md,
// "Symmetry across tasks") and checkSynchronization, which uses it:
//
// 1. planTasks (SyncCheckPlan.cpp) reads the procedure's structure and
//    classes its tasks: tasks of one class behave identically up to a
//    translation of their global accesses; the first task of each class
//    represents it.
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
    return *checkedDelta(t); // inBounds checked it for every task
  }

  /// The same, if it fits 64 bits.
  std::optional<SmallVector<int64_t>> checkedDelta(int64_t t) const {
    const Coeffs &c = plan.coords[t];
    const Coeffs &r = plan.coords[plan.reps[plan.classOf[t]]];
    SmallVector<int64_t> out;
    for (const Coeffs &row : coeffs) {
      std::optional<int64_t> s = 0;
      for (auto [k, a, b] : llvm::zip(row, c, r)) {
        std::optional<int64_t> diff = llvm::checkedSub(a, b);
        std::optional<int64_t> term = diff ? llvm::checkedMul(k, *diff)
                                           : std::nullopt;
        s = s && term ? llvm::checkedAdd(*s, *term) : std::nullopt;
      }
      if (!s)
        return std::nullopt;
      out.push_back(*s);
    }
    return out;
  }

  /// Each dimension of each access inside the extent, as the
  /// interpreter's bounds check asks of every check, for every task.
  bool inBounds(std::string &why) {
    size_t rank = extents.size();
    for (unsigned k = 0; k < plan.reps.size(); ++k) {
      SmallVector<DimRange> ranges;
      for (size_t d = 0; d < rank; ++d)
        ranges.push_back(dimRange(accesses[k], d));
      for (size_t t = 0; t < plan.coords.size(); ++t) {
        if (plan.classOf[t] != k)
          continue;
        std::optional<SmallVector<int64_t>> moved = checkedDelta(t);
        if (!moved) {
          why = "task " + std::to_string(t) + "'s accesses of " + name +
                " lie more than 64 bits away from its representative's";
          return false;
        }
        SmallVector<int64_t> &dt = *moved;
        for (size_t d = 0; d < rank; ++d) {
          if (dt[d] == 0)
            continue; // the representative's own range, interpreted
          // As the interpreter's bounds check (outsideIndex): inside the
          // extent where one is declared, never below 0, and every
          // coordinate within +-kUnboundedExtent, declared or not (an adversarial review:
          // the proof missed an index past 2^40, and a sum that wrapped).
          const int64_t limit = gpuir::kUnboundedExtent, extent = extents[d];
          const DimRange &r = ranges[d];
          bool ok = true;
          if (r.lo) {
            std::optional<int64_t> lo = llvm::checkedAdd(*r.lo, dt[d]),
                                   hi = llvm::checkedAdd(*r.hi, dt[d]);
            ok = lo && hi && *lo > -limit && *lo < limit && *hi <= limit &&
                 *lo >= 0 && (extent < 0 || *hi <= extent);
          }
          if (ok && r.openLo) {
            std::optional<int64_t> lo = llvm::checkedAdd(*r.openLo, dt[d]);
            ok = lo && *lo > -limit && *lo < limit && *lo >= 0 &&
                 (extent < 0 || *lo <= extent);
          }
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
  if (options.allSizes)
    return checkAllSizes(proc, controls, options, st);
  if (!options.symmetry)
    return full("the symmetry reduction is off", -1);
  std::string why;
  std::optional<TaskPlan> plan = planTasks(proc, controls, why);
  if (!plan)
    return full(why, -1);
  int64_t total = plan->coords.size();
  // Each representative alone, silently and to its end, so that its
  // footprint is whole even where it has a hazard.
  size_t classes = plan->reps.size();
  std::vector<Footprint> footprints(classes);
  std::vector<unsigned> errors(classes, 0);
  std::vector<Interpreter::AwaiterSets> awaiters(classes);
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
    awaiters[k] = interp.awaiterSets();
  });
  if (limits.expired)
    return reportBudget(proc, options, limits, st);
  // The threads that await each mbarrier element must be the same in every
  // task (checkPhasesBalanced); where two classes differ, the full check
  // finds the first task that differs and reports it.
  {
    Interpreter::AwaiterSets seen;
    for (const Interpreter::AwaiterSets &sets : awaiters)
      for (const auto &[key, value] : sets) {
        auto [it, first] = seen.insert({key, value});
        if (!first && it->second.second != value.second) {
          unsigned found = full("tasks of different classes await an "
                                "mbarrier element with different threads",
                                total);
          st.tasks = total;
          return found;
        }
      }
  }
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
