//===- SyncCheckAllSizes.cpp - the check for every size of the task grid --===//
//
// The all-sizes mode (docs/SyncCheck.md, "Every size of the task grid"):
// the parameters that size the task grid (each task loop runs from 0 to
// one of them) are left free, the others keep the values given, and the
// check proves the procedure for every grid of at least one task in each
// dimension:
//
// - the grid's sizes may appear only in the task loops' bounds and in the
//   global variables' extents, and no guard or loop bound in a task may
//   depend on the task indices: then every task, at every size, does what
//   task 0 does at grid size 1, moved by its translation (SyncCheckPlan.cpp);
// - task 0 is interpreted at grid size 1, every thread and every iteration;
// - its footprint, moved to every task of every grid, stays inside the
//   extents and never meets another task's where one of them writes: both
//   are integer feasibility questions over the grid sizes, the task indices
//   and their differences, answered exactly by MLIR's Presburger library.
//
// What does not fit is refused with the reason; nothing is claimed for it.
//
//===----------------------------------------------------------------------===//

#include "SyncCheckInternal.h"

#include "mlir/Analysis/Presburger/IntegerRelation.h"
#include "mlir/Analysis/Presburger/PresburgerSpace.h"

using namespace mlir;
using namespace mlir::rake;
using namespace mlir::rake::amir;

namespace mlir::rake::sync_check_detail {
namespace {

/// A linear form over the grid sizes: coefficients and a constant.
struct Linear {
  SmallVector<int64_t> coeffs;
  int64_t constant = 0;
};

class AllSizes {
public:
  AllSizes(ProcOp proc, ArrayRef<int64_t> controls,
           const SyncCheckOptions &options, SyncCheckStats &st)
      : proc(proc), controls(controls.begin(), controls.end()),
        options(options), st(st) {}

  unsigned run();

private:
  unsigned refuse(const Twine &reason) {
    mlir::emitError(proc.getLoc())
        << "the synchronization check cannot prove every size of the task "
           "grid: "
        << reason
        << "; check concrete sizes instead (without all-sizes)";
    return 1;
  }

  std::string name(unsigned arg) {
    ArrayAttr names = proc.getArgNamesAttr();
    if (names && arg < names.size())
      if (auto s = dyn_cast<StringAttr>(names[arg]); s && !s.empty())
        return s.str();
    return "arg" + std::to_string(arg);
  }

  bool findGrid(std::string &why);
  std::optional<Linear> linear(AffineExpr e, ValueRange operands);
  bool inBounds(Operation *alloc, ArrayRef<Footprint::Access> accesses,
                std::string &why);
  bool disjoint(Operation *alloc, ArrayRef<Footprint::Access> accesses,
                std::string &why);
  /// Whether some integer point satisfies every inequality (each a row
  /// of coefficients over the variables and a constant, meaning >= 0).
  static bool feasible(unsigned vars, ArrayRef<SmallVector<int64_t>> rows);

  ProcOp proc;
  SmallVector<int64_t> controls;
  const SyncCheckOptions &options;
  SyncCheckStats &st;
  /// The grid's sizes (argument numbers) and each task loop's one (its
  /// index in `grid`, or -1 for a loop of a constant trip count, in
  /// `loopTrip`).
  SmallVector<unsigned> grid;
  SmallVector<int> loopSize;
  SmallVector<int64_t> loopTrip;
  std::optional<TaskPlan> plan;
};

/// Each task loop runs from 0 to a parameter of its own, used nowhere else
/// but in the extents of global variables, or from 0 to a constant (a
/// group of tasks, the same at every size).
bool AllSizes::findGrid(std::string &why) {
  Block &body = proc.getBody().front();
  for (Operation &op : body) {
    auto guard = dyn_cast<GuardOp>(op);
    if (!guard || !guard.getThreads() || !isa<DomainAttr>(*guard.getThreads()))
      continue;
    Block *block = &guard.getBody().front();
    while (llvm::hasSingleElement(*block)) {
      auto loop = dyn_cast<LoopOp>(block->front());
      if (!loop || !loop.getTasks())
        break;
      auto lb = dyn_cast<AffineConstantExpr>(loop.getLowerMap().getResult(0));
      // A loop of a constant trip count (a group of tasks) is the same at
      // every size.
      if (auto trip =
              dyn_cast<AffineConstantExpr>(loop.getUpperMap().getResult(0));
          lb && lb.getValue() == 0 && trip && trip.getValue() >= 1) {
        loopSize.push_back(-1);
        loopTrip.push_back(trip.getValue());
        block = &loop.getBody().front();
        continue;
      }
      auto ub = dyn_cast<AffineDimExpr>(loop.getUpperMap().getResult(0));
      auto arg = ub ? dyn_cast<BlockArgument>(
                          loop.getUpperOperands()[ub.getPosition()])
                    : BlockArgument();
      if (!lb || lb.getValue() != 0 || !arg || arg.getOwner() != &body) {
        why = "a task loop does not run from 0 to a parameter of the "
              "procedure (write the grid's size as its own parameter, e.g. "
              "the number of tiles)";
        return false;
      }
      if (llvm::is_contained(grid, arg.getArgNumber())) {
        why = name(arg.getArgNumber()) + " bounds two task loops";
        return false;
      }
      grid.push_back(arg.getArgNumber());
      loopSize.push_back(grid.size() - 1);
      loopTrip.push_back(0);
      block = &loop.getBody().front();
    }
  }
  if (grid.empty()) {
    why = "the procedure has no task loop over a parameter";
    return false;
  }
  for (unsigned g : grid)
    for (OpOperand &use : body.getArgument(g).getUses()) {
      Operation *user = use.getOwner();
      auto loop = dyn_cast<LoopOp>(user);
      if (loop && loop.getTasks() &&
          use.getOperandNumber() >= loop.getLowerOperands().size())
        continue;
      if (isa<AllocOp>(user) && user->getBlock() == &body)
        continue;
      why = name(g) + " sizes the task grid but is used inside the tasks "
                      "too (by " +
            user->getName().getStringRef().str() + "); the argument needs "
            "the grid's sizes only in the task loops and the extents of "
            "global variables";
      return false;
    }
  return true;
}

/// `e` over `operands` as a linear form in the grid's sizes (the other
/// parameters at their values), if it is one.
std::optional<Linear> AllSizes::linear(AffineExpr e, ValueRange operands) {
  Linear out;
  out.coeffs.assign(grid.size(), 0);
  bool ok = true;
  auto gridIndex = [&](Value v) -> std::optional<unsigned> {
    auto arg = dyn_cast<BlockArgument>(v);
    if (!arg || arg.getOwner() != &proc.getBody().front())
      return std::nullopt;
    auto it = llvm::find(grid, arg.getArgNumber());
    if (it == grid.end())
      return std::nullopt;
    return it - grid.begin();
  };
  std::function<void(AffineExpr, int64_t)> walk = [&](AffineExpr x,
                                                      int64_t scale) {
    bool mentions = false;
    x.walk([&](AffineExpr sub) {
      if (auto d = dyn_cast<AffineDimExpr>(sub))
        mentions |= gridIndex(operands[d.getPosition()]).has_value();
    });
    if (!mentions) {
      SmallVector<int64_t> dims;
      for (Value v : operands) {
        auto arg = dyn_cast<BlockArgument>(v);
        dims.push_back(arg ? controls[arg.getArgNumber()] : 0);
      }
      out.constant += scale * evaluateControlExpr(x, dims);
      return;
    }
    if (auto d = dyn_cast<AffineDimExpr>(x)) {
      out.coeffs[*gridIndex(operands[d.getPosition()])] += scale;
      return;
    }
    auto bin = dyn_cast<AffineBinaryOpExpr>(x);
    if (bin && x.getKind() == AffineExprKind::Add) {
      walk(bin.getLHS(), scale);
      walk(bin.getRHS(), scale);
      return;
    }
    if (bin && x.getKind() == AffineExprKind::Mul) {
      if (auto c = dyn_cast<AffineConstantExpr>(bin.getRHS()))
        return walk(bin.getLHS(), scale * c.getValue());
      if (auto c = dyn_cast<AffineConstantExpr>(bin.getLHS()))
        return walk(bin.getRHS(), scale * c.getValue());
    }
    ok = false;
  };
  walk(e, 1);
  if (!ok)
    return std::nullopt;
  return out;
}

bool AllSizes::feasible(unsigned vars, ArrayRef<SmallVector<int64_t>> rows) {
  presburger::IntegerPolyhedron poly(
      presburger::PresburgerSpace::getSetSpace(vars));
  for (const SmallVector<int64_t> &row : rows)
    poly.addInequality(row);
  return !poly.isIntegerEmpty();
}

/// Variables: the grid's sizes G, then the task indices t; every t lies in
/// [0, G of its loop), every G >= 1. An access dimension [lo, hi) of task 0
/// moves to [lo + C t, hi + C t); no (G, t) may put it outside the extent.
bool AllSizes::inBounds(Operation *alloc, ArrayRef<Footprint::Access> accesses,
                        std::string &why) {
  auto allocOp = cast<AllocOp>(alloc);
  const SmallVector<Coeffs> &coeffs = plan->coeffs.lookup(alloc);
  size_t k = grid.size(), n = plan->ivs.size(), vars = k + n;
  SmallVector<SmallVector<int64_t>> domain;
  for (size_t g = 0; g < k; ++g) {
    SmallVector<int64_t> row(vars + 1, 0);
    row[g] = 1;
    row[vars] = -1; // G >= 1
    domain.push_back(row);
  }
  for (size_t i = 0; i < n; ++i) {
    SmallVector<int64_t> lo(vars + 1, 0), hi(vars + 1, 0);
    lo[k + i] = 1; // t >= 0
    hi[k + i] = -1;
    if (loopSize[i] >= 0) {
      hi[loopSize[i]] = 1;
      hi[vars] = -1; // G - 1 - t >= 0
    } else {
      hi[vars] = loopTrip[i] - 1; // trip - 1 - t >= 0
    }
    domain.push_back(lo);
    domain.push_back(hi);
  }
  ArrayRef<int64_t> shape = allocOp.getShape();
  for (size_t d = 0; d < shape.size(); ++d) {
    // The extent as a linear form in G (static, declared, or unknown).
    std::optional<Linear> extent;
    if (shape[d] >= 0) {
      extent = Linear{SmallVector<int64_t>(k, 0), shape[d]};
    } else if (std::optional<AffineMap> map = allocOp.getExtents()) {
      extent = linear(map->getResult(d), allocOp.getExtentOperands());
      if (!extent) {
        why = "the extent of dimension " + std::to_string(d) + " of " +
              allocOp.getName().str() + " is not linear in the grid's sizes";
        return false;
      }
    }
    // No extent declared: the check still bounds the dimension at
    // kUnboundedExtent (its representation: an index at or past 2^40 is
    // refused at a concrete size, and no GPU buffer is that large), and
    // only over the tasks code generation runs, each index below 2^32.
    bool unbounded = !extent;
    if (unbounded)
      extent = Linear{SmallVector<int64_t>(k, 0), gpuir::kUnboundedExtent};
    auto [lo, hi, openLo] = dimRange(accesses, d);
    auto violated = [&](SmallVector<int64_t> row) {
      SmallVector<SmallVector<int64_t>> rows = domain;
      if (unbounded)
        for (size_t i = 0; i < n; ++i) { // 2^32 - 1 - t >= 0
          SmallVector<int64_t> cap(vars + 1, 0);
          cap[k + i] = -1;
          cap[vars] = (int64_t(1) << 32) - 1;
          rows.push_back(std::move(cap));
        }
      rows.push_back(std::move(row));
      return feasible(vars, rows);
    };
    auto below = [&](int64_t start) { // start + C t <= -1
      SmallVector<int64_t> row(vars + 1, 0);
      for (size_t i = 0; i < n; ++i)
        row[k + i] = -coeffs[d][i];
      row[vars] = -start - 1;
      return violated(row);
    };
    bool out = (lo && below(*lo)) || (openLo && below(*openLo));
    if (!out && hi) { // hi + C t - extent(G) >= 1
      SmallVector<int64_t> row(vars + 1, 0);
      for (size_t i = 0; i < n; ++i)
        row[k + i] = coeffs[d][i];
      for (size_t g = 0; g < k; ++g)
        row[g] = -extent->coeffs[g];
      row[vars] = *hi - extent->constant - 1;
      out = violated(row);
    }
    if (out && unbounded) {
      why = "for some sizes a task accesses " + allocOp.getName().str() +
            " in dimension " + std::to_string(d) +
            ", which declares no extent, below 0 or at 2^40 or more (the "
            "check's limit)";
      return false;
    }
    if (out) {
      why = "for some sizes a task accesses " + allocOp.getName().str() +
            " outside dimension " + std::to_string(d) + " of its extent";
      return false;
    }
  }
  return true;
}

/// Two tasks a difference v != 0 apart (any v, for a large enough grid)
/// must not reach each other's written elements: the hull of task 0's
/// writes and that of all its accesses moved by C v are disjoint.
bool AllSizes::disjoint(Operation *alloc, ArrayRef<Footprint::Access> accesses,
                        std::string &why) {
  std::optional<Box> writes, all;
  for (const Footprint::Access &a : accesses) {
    if (!nonEmpty(a.box))
      continue;
    widen(all, a.box);
    if (a.mutate)
      widen(writes, a.box);
  }
  if (!writes)
    return true;
  const SmallVector<Coeffs> &coeffs = plan->coeffs.lookup(alloc);
  size_t n = plan->ivs.size();
  for (size_t i = 0; i < n; ++i)
    for (int64_t sign : {1, -1}) {
      SmallVector<SmallVector<int64_t>> rows;
      SmallVector<int64_t> nonzero(n + 1, 0);
      nonzero[i] = sign;
      nonzero[n] = -1; // sign * v_i >= 1
      rows.push_back(nonzero);
      // Task loops of a constant trip count bound their differences.
      for (size_t j = 0; j < n; ++j)
        if (loopSize[j] < 0)
          for (int64_t side : {1, -1}) {
            SmallVector<int64_t> row(n + 1, 0);
            row[j] = side;
            row[n] = loopTrip[j] - 1; // trip - 1 -+ v_j >= 0
            rows.push_back(row);
          }
      for (size_t d = 0; d < writes->lo.size(); ++d) {
        // writes.lo < all.hi + C v  and  all.lo + C v < writes.hi
        if (all->hi[d] < gpuir::kUnboundedExtent) {
          SmallVector<int64_t> row(n + 1, 0);
          for (size_t j = 0; j < n; ++j)
            row[j] = coeffs[d][j];
          row[n] = all->hi[d] - writes->lo[d] - 1;
          rows.push_back(row);
        }
        if (writes->hi[d] < gpuir::kUnboundedExtent) {
          SmallVector<int64_t> row(n + 1, 0);
          for (size_t j = 0; j < n; ++j)
            row[j] = -coeffs[d][j];
          row[n] = writes->hi[d] - all->lo[d] - 1;
          rows.push_back(row);
        }
      }
      if (feasible(n, rows)) {
        why = "for some sizes two tasks access elements of " +
              cast<AllocOp>(alloc).getName().str() +
              " that one of them writes";
        return false;
      }
    }
  return true;
}

unsigned AllSizes::run() {
  std::string why;
  if (!findGrid(why))
    return refuse(why);
  for (unsigned g : grid)
    controls[g] = 1;
  // Every task index code generation can run (fewer than 2^32 tasks).
  plan = planTasks(proc, controls, why, int64_t(1) << 32);
  if (!plan)
    return refuse(why);
  if (plan->taskDependent)
    return refuse("a guard or loop bound in the task depends on the task "
                  "indices (a partial tile, or a task that differs), so "
                  "the tasks' classes depend on the sizes");
  // The sizes named in reports: the grid at 1, the rest as given.
  std::string sizes;
  for (unsigned i = 0; i < controls.size(); ++i)
    sizes += (i ? ", " : "") + name(i) + " = " + std::to_string(controls[i]);
  SyncCheckOptions one = options;
  one.sizes = sizes;
  one.maxErrors = 0;
  Footprint footprint;
  unsigned errors;
  // Task 0 alone (with task loops of constant trip counts, the grid of
  // size 1 has more tasks: translates of it, which the proofs below cover).
  llvm::DenseSet<int64_t> only = {0};
  {
    Interpreter interp(one);
    interp.restrictTo(&only, /*silent=*/true, &footprint);
    errors = interp.run(proc, controls);
  }
  if (errors) {
    // A hazard at grid size 1 is a hazard: reported as the check does.
    one.maxErrors = options.maxErrors;
    Interpreter interp(one);
    return interp.run(proc, controls);
  }
  for (auto &[alloc, accesses] : footprint.accesses)
    if (!inBounds(alloc, accesses, why) || !disjoint(alloc, accesses, why))
      return refuse(why);
  st.tasks = 1;
  st.interpreted = 1;
  std::string claim = "every ";
  for (auto [i, g] : llvm::enumerate(grid))
    claim += (i ? ", " : "") + name(g) + " >= 1";
  std::string fixed;
  for (unsigned i = 0; i < controls.size(); ++i)
    if (!llvm::is_contained(grid, i))
      fixed += (fixed.empty() ? "" : ", ") + name(i) + " = " +
               std::to_string(controls[i]);
  if (!fixed.empty())
    claim += " at " + fixed;
  st.allSizes = claim;
  return 0;
}

} // namespace

unsigned checkAllSizes(ProcOp proc, ArrayRef<int64_t> controls,
                       const SyncCheckOptions &options, SyncCheckStats &st) {
  return AllSizes(proc, controls, options, st).run();
}

} // namespace mlir::rake::sync_check_detail
