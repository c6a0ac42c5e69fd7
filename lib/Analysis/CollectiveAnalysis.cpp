//===- CollectiveAnalysis.cpp - which threads run each statement ----------===//

#include "Rake/Analysis/CollectiveAnalysis.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <set>

using namespace mlir;
using namespace mlir::rake;
using namespace mlir::rake::gpuir;

static std::string join(ArrayRef<int64_t> v) {
  std::string s = "[";
  llvm::raw_string_ostream os(s);
  llvm::interleaveComma(v, os);
  os << "]";
  return s;
}

static std::string join(ArrayRef<std::optional<int64_t>> v) {
  std::string s = "[";
  llvm::raw_string_ostream os(s);
  llvm::interleaveComma(v, os, [&](std::optional<int64_t> x) {
    if (x)
      os << *x;
    else
      os << "*";
  });
  os << "]";
  return s;
}

static int64_t product(ArrayRef<int64_t> v) {
  int64_t p = 1;
  for (int64_t x : v)
    p *= x;
  return p;
}

FailureOr<ConcreteUnit> mlir::rake::evaluateUnit(CollTypeAttr type,
                                                 int64_t blockDim,
                                                 int64_t clusterDim,
                                                 std::string &error) {
  ConcreteUnit unit;
  for (const CollSize &s : type.getDomain()) {
    std::optional<int64_t> v = s.evaluate(blockDim, clusterDim);
    if (!v || *v < 1) {
      error = "its domain is not a whole number of threads for blockDim = " +
              std::to_string(blockDim) +
              ", clusterDim = " + std::to_string(clusterDim);
      return failure();
    }
    unit.domain.push_back(*v);
  }
  for (const CollSize &s : type.getBox()) {
    if (s.agnostic) {
      unit.box.push_back(std::nullopt);
      continue;
    }
    std::optional<int64_t> v = s.evaluate(blockDim, clusterDim);
    if (!v || *v < 1) {
      error = "its box is not a whole number of threads for blockDim = " +
              std::to_string(blockDim) +
              ", clusterDim = " + std::to_string(clusterDim);
      return failure();
    }
    unit.box.push_back(*v);
  }
  return unit;
}

//===----------------------------------------------------------------------===//
// Domain alignment
//===----------------------------------------------------------------------===//

/// Suffix products of a mixed-radix domain: the thread pitches at which its
/// dimensions begin, plus the total.
static void addBoundaries(ArrayRef<int64_t> domain, std::set<int64_t> &out) {
  int64_t p = 1;
  out.insert(1);
  for (int64_t e : llvm::reverse(domain)) {
    p *= e;
    out.insert(p);
  }
}

/// The coarsest domain that refines both (same total); nullopt when one
/// dimension boundary does not divide the next (they cannot be aligned).
static std::optional<SmallVector<int64_t>>
commonRefinement(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  std::set<int64_t> bounds;
  addBoundaries(a, bounds);
  addBoundaries(b, bounds);
  SmallVector<int64_t> sorted(bounds.begin(), bounds.end());
  SmallVector<int64_t> domain;
  for (size_t i = sorted.size() - 1; i > 0; --i) {
    if (sorted[i] % sorted[i - 1] != 0)
      return std::nullopt;
    domain.push_back(sorted[i] / sorted[i - 1]);
  }
  return domain;
}

/// Converts a box of `domain` to the same box in `refined`, a refinement of
/// it. A size c of a dimension split into e_1..e_k (outer to inner) becomes
/// (.., c / e_k, min(c, e_k)), which needs c to be a multiple of the inner
/// extents it spans.
static LogicalResult convertBox(ArrayRef<int64_t> domain,
                                ArrayRef<std::optional<int64_t>> box,
                                ArrayRef<int64_t> refined,
                                SmallVectorImpl<std::optional<int64_t>> &out,
                                std::string &error) {
  size_t j = refined.size();
  SmallVector<std::optional<int64_t>> reversed;
  for (size_t i = domain.size(); i-- > 0;) {
    int64_t remaining = domain[i];
    std::optional<int64_t> c = box[i];
    while (remaining > 1) {
      if (j == 0)
        return error = "internal: refinement mismatch", failure();
      int64_t e = refined[--j];
      if (remaining % e != 0)
        return error = "internal: refinement mismatch", failure();
      remaining /= e;
      if (!c) {
        reversed.push_back(std::nullopt);
        continue;
      }
      if (*c > e) {
        if (*c % e != 0) {
          error = "a box of " + std::to_string(*c) +
                  " does not split evenly into groups of " + std::to_string(e);
          return failure();
        }
        reversed.push_back(e);
        c = *c / e;
      } else {
        reversed.push_back(c);
        c = 1;
      }
    }
    if (c && *c != 1 && domain[i] > 1) {
      error = "a box larger than its domain";
      return failure();
    }
  }
  out.assign(reversed.rbegin(), reversed.rend());
  return success();
}

//===----------------------------------------------------------------------===//
// CollTiling
//===----------------------------------------------------------------------===//

CollTiling CollTiling::root(int64_t blockDim, int64_t clusterDim) {
  CollTiling t;
  if (clusterDim > 1)
    t.dims.push_back(CollDim{clusterDim, blockDim, {}});
  t.dims.push_back(CollDim{blockDim, 1, {}});
  return t;
}

SmallVector<int64_t> CollTiling::getDomain() const {
  SmallVector<int64_t> d;
  for (const CollDim &dim : dims)
    d.push_back(dim.extent);
  return d;
}

SmallVector<int64_t> CollTiling::getBox() const {
  SmallVector<int64_t> b;
  for (const CollDim &dim : dims)
    b.push_back(dim.box());
  return b;
}

int64_t CollTiling::getNumThreads() const { return product(getBox()); }

std::string CollTiling::describe() const {
  int64_t n = getNumThreads();
  return "a collective of " + std::to_string(n) +
         (n == 1 ? " thread" : " threads") + " (domain " +
         join(getDomain()) + ", box " + join(getBox()) + ")";
}

LogicalResult CollTiling::splitDim(unsigned index, int64_t f,
                                   std::string &error) {
  CollDim old = dims[index];
  CollDim outer{old.extent / f, old.pitch * f, {}};
  CollDim inner{f, old.pitch, {}};
  bool inInner = false;
  for (const TileOp &op : old.ops) {
    if (!inInner && op.box >= f) {
      bool aligned = op.box % f == 0 && op.offset % f == 0 &&
                     (op.count == 1 || op.step % f == 0) && op.div == 1 &&
                     op.mod == 0;
      if (!aligned) {
        error = "the threads of a collective of " + std::to_string(op.box) +
                " at offset " + std::to_string(op.offset) +
                " (stepping by " + std::to_string(op.step) +
                ") are not aligned to groups of " + std::to_string(f);
        return failure();
      }
      TileOp o = op;
      o.box /= f;
      o.offset /= f;
      o.step /= f;
      outer.ops.push_back(o);
      continue;
    }
    inInner = true;
    int64_t span = op.offset + (op.count - 1) * op.step + op.box;
    if (op.div != 1 || op.mod != 0 || span <= f) {
      inner.ops.push_back(op);
      continue;
    }
    // The loop's range crosses groups of f: its iterations move along both
    // new dimensions, the outer by (start div f), the inner by (start mod f).
    if (f % op.box != 0 || (op.count > 1 && f % op.step != 0 &&
                            op.step % f != 0)) {
      error = "a collective of " + std::to_string(op.box) + " stepping by " +
              std::to_string(op.step) + " does not align to groups of " +
              std::to_string(f);
      return failure();
    }
    TileOp o = op;
    o.box = 1;
    o.div = f;
    outer.ops.push_back(o);
    TileOp i = op;
    i.mod = f;
    inner.ops.push_back(i);
  }
  dims[index] = outer;
  dims.insert(dims.begin() + index + 1, inner);
  return success();
}

LogicalResult CollTiling::refineTo(ArrayRef<int64_t> domain,
                                   std::string &error) {
  std::set<int64_t> bounds;
  addBoundaries(domain, bounds);
  for (size_t i = dims.size(); i-- > 0;) {
    // Split dimension i at every boundary strictly inside it, innermost
    // first; the outer part keeps index i.
    while (true) {
      int64_t lo = dims[i].pitch, hi = dims[i].pitch * dims[i].extent;
      auto it = bounds.upper_bound(lo);
      if (it == bounds.end() || *it >= hi)
        break;
      if (failed(splitDim(i, *it / lo, error)))
        return failure();
    }
  }
  return success();
}

/// Extends a unit's domain that covers fewer threads than the cluster (a
/// unit within a CTA) with a leading dimension for the rest, whose box is
/// `prependBox`.
static LogicalResult
completePartialUnit(SmallVectorImpl<int64_t> &udomain,
                    SmallVectorImpl<std::optional<int64_t>> &ubox,
                    int64_t total, std::optional<int64_t> prependBox,
                    std::string &error) {
  int64_t utotal = product(udomain);
  if (total % utotal != 0) {
    error = "the unit spans " + std::to_string(utotal) +
            " threads, which does not divide the cluster's " +
            std::to_string(total);
    return failure();
  }
  if (utotal != total) {
    udomain.insert(udomain.begin(), total / utotal);
    ubox.insert(ubox.begin(), prependBox);
  }
  return success();
}

/// A unit whose box is larger than its domain needs more threads than the
/// launch has.
static LogicalResult checkUnitFits(const ConcreteUnit &unit,
                                   std::string &error) {
  for (auto [d, b] : llvm::zip(unit.domain, unit.box))
    if (b && *b > d) {
      error = "one collective of the unit needs " + std::to_string(*b) +
              " along a dimension of " + std::to_string(d);
      return failure();
    }
  return success();
}

FailureOr<CollTiling> CollTiling::refinedTo(ArrayRef<int64_t> domain,
                                            std::string &error) const {
  CollTiling t = *this;
  if (failed(t.refineTo(domain, error)))
    return failure();
  if (t.getDomain() != SmallVector<int64_t>(domain)) {
    error = "the domain " + join(getDomain()) + " does not refine to " +
            join(domain);
    return failure();
  }
  return t;
}

FailureOr<std::pair<CollTiling, SmallVector<DimExpectation>>>
CollTiling::completeWith(const ConcreteUnit &unit, std::string &error) const {
  if (failed(checkUnitFits(unit, error)))
    return failure();
  // A unit box entry that neither matches its domain entry nor is `*`
  // becomes a split (domain / box, box) with box (1, box): the unit then asks
  // each dimension for all of it, one coordinate of it, or anything.
  SmallVector<int64_t> udomain;
  SmallVector<std::optional<int64_t>> ubox;
  for (auto [d, b] : llvm::zip(unit.domain, unit.box)) {
    if (!b || *b == d) {
      udomain.push_back(d);
      ubox.push_back(b);
      continue;
    }
    if (d % *b != 0) {
      error = "the unit's box " + std::to_string(*b) + " does not divide " +
              std::to_string(d);
      return failure();
    }
    udomain.push_back(d / *b);
    ubox.push_back(1);
    udomain.push_back(*b);
    ubox.push_back(*b);
  }
  // A unit inside a CTA says nothing of the CTA index: one of it is in a
  // single CTA, so the prepended dimension expects one coordinate.
  if (failed(completePartialUnit(udomain, ubox, product(getDomain()),
                                 /*prependBox=*/1, error)))
    return failure();
  std::optional<SmallVector<int64_t>> common =
      commonRefinement(getDomain(), udomain);
  if (!common) {
    error = "the domains " + join(getDomain()) + " and " + join(udomain) +
            " cannot be aligned";
    return failure();
  }
  CollTiling refined = *this;
  if (failed(refined.refineTo(*common, error)))
    return failure();
  SmallVector<std::optional<int64_t>> box;
  if (failed(convertBox(udomain, ubox, *common, box, error)))
    return failure();
  SmallVector<DimExpectation> expect;
  for (auto [e, b] : llvm::zip(*common, box)) {
    if (!b)
      expect.push_back(DimExpectation::Agnostic);
    else if (*b == e)
      expect.push_back(DimExpectation::Full);
    else
      expect.push_back(DimExpectation::Subdivided);
  }
  return std::make_pair(refined, expect);
}

std::optional<std::string>
CollTiling::unitMismatch(const ConcreteUnit &unit) const {
  std::string error;
  auto completed = completeWith(unit, error);
  if (failed(completed))
    return error;
  const CollTiling &t = completed->first;
  bool match = true;
  SmallVector<std::optional<int64_t>> expected;
  for (auto [dim, expect] : llvm::zip(t.dims, completed->second)) {
    switch (expect) {
    case DimExpectation::Agnostic:
      expected.push_back(std::nullopt);
      break;
    case DimExpectation::Full:
      expected.push_back(dim.extent);
      match &= dim.box() == dim.extent;
      break;
    case DimExpectation::Subdivided:
      expected.push_back(1);
      match &= dim.box() == 1;
      break;
    }
  }
  if (match)
    return std::nullopt;
  return "one collective of the unit is box " + join(expected) +
         " of domain " + join(t.getDomain()) + ", the scope's is box " +
         join(t.getBox());
}

FailureOr<CollTiling> CollTiling::derive(Operation *owner, Value iv,
                                         const ConcreteUnit &unit, int64_t lo,
                                         int64_t hi, bool tiled,
                                         std::string &error) const {
  if (failed(checkUnitFits(unit, error)))
    return failure();
  SmallVector<int64_t> udomain = unit.domain;
  SmallVector<std::optional<int64_t>> ubox = unit.box;
  // The unit lives inside a CTA and is silent about the others.
  if (failed(completePartialUnit(udomain, ubox, product(getDomain()),
                                 /*prependBox=*/std::nullopt, error)))
    return failure();
  std::optional<SmallVector<int64_t>> common =
      commonRefinement(getDomain(), udomain);
  if (!common) {
    error = "the unit's domain " + join(udomain) +
            " cannot be aligned with the scope's " + join(getDomain());
    return failure();
  }
  CollTiling result = *this;
  result.depth = depth + 1;
  if (failed(result.refineTo(*common, error)))
    return failure();
  SmallVector<std::optional<int64_t>> box;
  if (failed(convertBox(udomain, ubox, *common, box, error)))
    return failure();

  SmallVector<size_t> candidates;
  for (size_t i = 0; i < common->size(); ++i) {
    std::optional<int64_t> u = box[i];
    int64_t self = result.dims[i].box(), extent = (*common)[i];
    if (u && *u != self && *u != extent)
      candidates.push_back(i);
  }
  if (candidates.size() > 1) {
    error = "it would divide two dimensions of the scope at once (domain " +
            join(*common) + ", box " + join(result.getBox()) +
            ", unit box " + join(box) +
            "); tile one level of the hierarchy per loop";
    return failure();
  }
  std::optional<size_t> tiledDim;
  if (!candidates.empty()) {
    size_t i = candidates.front();
    int64_t u = *box[i], self = result.dims[i].box();
    tiledDim = i;
    if (hi * u > self) {
      error = "it needs " + std::to_string(hi) + " collectives of " +
              std::to_string(u) + " along a dimension of which the scope has " +
              std::to_string(self);
      return failure();
    }
    TileOp op;
    op.owner = owner;
    op.iv = iv;
    op.level = depth;
    op.lo = lo;
    op.offset = lo * u;
    op.step = tiled ? u : 0;
    op.box = tiled ? u : (hi - lo) * u;
    op.count = tiled ? hi - lo : 1;
    result.dims[i].ops.push_back(op);
  }
  if (!tiledDim && (lo != 0 || hi != 1)) {
    error = "its unit is already the whole scope (" + describe() +
            "), so it can only run one iteration, 0 to 1";
    return failure();
  }
  return result;
}

CollTilingAttr CollTiling::toAttr(MLIRContext *ctx) const {
  SmallVector<std::pair<unsigned, TileOpAttr>> ops;
  for (auto [d, dim] : llvm::enumerate(dims))
    for (const TileOp &op : dim.ops)
      ops.push_back({op.level,
                     TileOpAttr::get(ctx, op.level, d, op.offset, op.step,
                                     op.box, op.count, op.div, op.mod)});
  llvm::stable_sort(ops, [](auto &a, auto &b) { return a.first < b.first; });
  SmallVector<TileOpAttr> attrs;
  for (auto &p : ops)
    attrs.push_back(p.second);
  return CollTilingAttr::get(ctx, getDomain(), attrs);
}

//===----------------------------------------------------------------------===//
// CollectiveAnalysis
//===----------------------------------------------------------------------===//

CollectiveAnalysis::CollectiveAnalysis(Operation *root)
    : ctx(root->getContext()) {
  root->walk([&](DeviceFunctionOp device) { visitDevice(device); });
}

void CollectiveAnalysis::error(
    Operation *op, std::string message,
    SmallVector<std::pair<Location, std::string>, 2> notes) {
  errors.push_back({op, std::move(message), std::move(notes)});
}

LogicalResult CollectiveAnalysis::emitErrors() const {
  for (const AnalysisError &e : errors) {
    InFlightDiagnostic diag = e.op->emitOpError() << e.message;
    for (auto &[loc, text] : e.notes)
      diag.attachNote(loc) << text;
  }
  return failure(!errors.empty());
}

const CollTiling *CollectiveAnalysis::getTilingInside(Operation *op) const {
  auto it = tilings.find(op);
  return it == tilings.end() ? nullptr : it->second.get();
}

const CollTiling *CollectiveAnalysis::getScopeTiling(Operation *op) const {
  for (Operation *p = op->getParentOp(); p; p = p->getParentOp())
    if (const CollTiling *t = getTilingInside(p))
      return t;
  return nullptr;
}

FailureOr<SmallVector<int64_t>>
CollectiveAnalysis::getCommonDomain(DeviceFunctionOp device,
                                    std::string &error) const {
  const CollTiling *root = getTilingInside(device);
  if (!root) {
    error = "the device function has no collective tiling";
    return failure();
  }
  SmallVector<int64_t> domain = root->getDomain();
  bool ok = true;
  device.walk([&](Operation *op) {
    const CollTiling *t = getTilingInside(op);
    if (!t || !ok)
      return;
    std::optional<SmallVector<int64_t>> common =
        commonRefinement(domain, t->getDomain());
    if (!common) {
      error = "the scopes' domains " + join(domain) + " and " +
              join(t->getDomain()) + " have no common refinement";
      ok = false;
      return;
    }
    domain = *common;
  });
  if (!ok)
    return failure();
  return domain;
}

std::pair<int64_t, int64_t>
CollectiveAnalysis::getLaunchShape(Operation *op) const {
  auto device = dyn_cast<DeviceFunctionOp>(op);
  if (!device)
    device = op->getParentOfType<DeviceFunctionOp>();
  if (!device)
    return {0, 0};
  return {device.getBlockDim(), device.getCluster()};
}

static ConcreteUnit concrete(CollUnitAttr unit, int64_t blockDim,
                             int64_t clusterDim, bool &ok) {
  std::string error;
  auto c = evaluateUnit(unit.getCollType(), blockDim, clusterDim, error);
  ok = succeeded(c);
  return ok ? *c : ConcreteUnit();
}

CollUnitAttr CollectiveAnalysis::classify(const CollTiling &tiling,
                                          int64_t blockDim,
                                          int64_t clusterDim) const {
  auto matches = [&](CollUnitKind kind, int64_t scale) -> CollUnitAttr {
    auto unit = CollUnitAttr::get(ctx, kind, scale, 0);
    bool ok;
    ConcreteUnit c = concrete(unit, blockDim, clusterDim, ok);
    if (ok && !tiling.unitMismatch(c))
      return unit;
    return {};
  };
  // The largest structural unit first: a CTA of 128 threads is reported as
  // a CTA, not a warpgroup.
  for (CollUnitKind kind :
       {CollUnitKind::cta_in_cluster, CollUnitKind::cluster,
        CollUnitKind::warpgroup, CollUnitKind::warp, CollUnitKind::quadpair,
        CollUnitKind::thread})
    if (CollUnitAttr u = matches(kind, 1))
      return u;
  int64_t n = tiling.getNumThreads();
  for (auto [kind, size] :
       {std::pair{CollUnitKind::cta_in_cluster, blockDim},
        std::pair{CollUnitKind::warpgroup, int64_t(128)},
        std::pair{CollUnitKind::warp, int64_t(32)},
        std::pair{CollUnitKind::thread, int64_t(1)}})
    if (n % size == 0 && n / size > 1)
      if (CollUnitAttr u = matches(kind, n / size))
        return u;
  return {};
}

void CollectiveAnalysis::visitDevice(DeviceFunctionOp device) {
  int64_t blockDim = device.getBlockDim(), clusterDim = device.getCluster();
  auto root = std::make_unique<CollTiling>(CollTiling::root(blockDim, clusterDim));
  const CollTiling &tiling = *root;
  tilings[device] = std::move(root);
  visitRegion(device.getBody(), tiling, blockDim, clusterDim);
}

/// The cuda_threads loop variables a gpuir.if's condition reads, with the
/// loop that owns each.
static SmallVector<ForOp> threadLoopsRead(IfOp ifOp) {
  SmallVector<ForOp> loops;
  for (Value v : ifOp.getOperands()) {
    auto arg = dyn_cast<BlockArgument>(v);
    if (!arg)
      continue;
    auto loop = dyn_cast<ForOp>(arg.getOwner()->getParentOp());
    if (loop && loop.getLoopMode() == LoopMode::cuda_threads &&
        !llvm::is_contained(loops, loop))
      loops.push_back(loop);
  }
  return loops;
}

void CollectiveAnalysis::visitRegion(Region &region, const CollTiling &tiling,
                                     int64_t blockDim, int64_t clusterDim) {
  for (Operation &op : region.getOps()) {
    if (auto loop = dyn_cast<ForOp>(&op)) {
      if (loop.getLoopMode() != LoopMode::cuda_threads) {
        tilings[loop] = std::make_unique<CollTiling>(tiling);
        visitRegion(loop.getBody(), *tilings[loop], blockDim, clusterDim);
        continue;
      }
      std::optional<int64_t> lo = loop.getConstantLowerBound();
      std::optional<int64_t> hi = loop.getConstantUpperBound();
      if (!lo || !hi) {
        error(loop, "a cuda_threads loop has constant bounds: its iterations "
                    "are assigned to threads when the kernel is compiled");
        continue;
      }
      if (*lo < 0 || *hi <= *lo) {
        error(loop, "a cuda_threads loop runs from a non-negative lower bound "
                    "to a larger upper bound; found " +
                        std::to_string(*lo) + " to " + std::to_string(*hi));
        continue;
      }
      std::string why;
      auto unit = evaluateUnit(loop.getUnit()->getCollType(), blockDim,
                               clusterDim, why);
      FailureOr<CollTiling> derived =
          failed(unit) ? FailureOr<CollTiling>(failure())
                       : tiling.derive(loop, loop.getInductionVar(), *unit,
                                       *lo, *hi, /*tiled=*/true, why);
      if (failed(derived)) {
        std::string unitText;
        llvm::raw_string_ostream os(unitText);
        os << *loop.getUnit();
        error(loop, "cannot give each of its " + std::to_string(*hi - *lo) +
                        " iterations a " + unitText + " of " +
                        tiling.describe() + ": " + why);
        continue;
      }
      tilings[loop] = std::make_unique<CollTiling>(*derived);
      visitRegion(loop.getBody(), *tilings[loop], blockDim, clusterDim);
      continue;
    }
    if (auto warps = dyn_cast<WarpsOp>(&op)) {
      auto device = warps->getParentOfType<DeviceFunctionOp>();
      auto found = device.lookupWarpGroup(warps.getGroup());
      if (!found)
        continue; // The op's verifier reports it.
      int64_t first = found->second;
      int64_t lo = first + warps.getLo().value_or(0);
      int64_t hi = first + warps.getHi().value_or(found->first.getCount());
      bool ok;
      ConcreteUnit unit =
          concrete(CollUnitAttr::get(ctx, CollUnitKind::warp, 1, 0), blockDim,
                   clusterDim, ok);
      std::string why;
      FailureOr<CollTiling> derived =
          tiling.derive(warps, Value(), unit, lo, hi, /*tiled=*/false, why);
      if (failed(derived)) {
        error(warps, "cannot select warps [" + std::to_string(lo) + ", " +
                         std::to_string(hi) + ") of the CTA in " +
                         tiling.describe() + ": " + why);
        continue;
      }
      tilings[warps] = std::make_unique<CollTiling>(*derived);
      visitRegion(warps.getBody(), *tilings[warps], blockDim, clusterDim);
      continue;
    }
    if (auto fused = dyn_cast<FusedOp>(&op)) {
      tilings[fused] = std::make_unique<CollTiling>(tiling);
      visitRegion(fused.getBody(), tiling, blockDim, clusterDim);
      continue;
    }
    if (auto ifOp = dyn_cast<IfOp>(&op)) {
      tilings[ifOp] = std::make_unique<CollTiling>(tiling);
      for (Region *r : {&ifOp.getThenRegion(), &ifOp.getElseRegion()})
        visitRegion(*r, tiling, blockDim, clusterDim);
      continue;
    }
    checkStatement(&op, tiling, blockDim, clusterDim);
    for (Region &r : op.getRegions())
      visitRegion(r, tiling, blockDim, clusterDim);
  }
}

/// Notes for a collective statement that sits under an if on a thread
/// loop's variable: the likely reason its collective is not whole.
static void addDivergenceNotes(
    Operation *op, std::string &message,
    SmallVector<std::pair<Location, std::string>, 2> &notes) {
  for (Operation *p = op->getParentOp(); p && !isa<DeviceFunctionOp>(p);
       p = p->getParentOp()) {
    auto ifOp = dyn_cast<IfOp>(p);
    if (!ifOp)
      continue;
    SmallVector<ForOp> loops = threadLoopsRead(ifOp);
    if (loops.empty())
      continue;
    message += "; its threads may diverge: it is under a gpuir.if on the "
               "variable of a cuda_threads loop, so it runs on the threads of "
               "single iterations rather than on the whole collective";
    notes.push_back({ifOp.getLoc(), "the condition that depends on the "
                                    "thread loop"});
    notes.push_back({loops.front().getLoc(), "the cuda_threads loop"});
    return;
  }
}

void CollectiveAnalysis::checkStatement(Operation *op, const CollTiling &tiling,
                                        int64_t blockDim, int64_t clusterDim) {
  auto unitFits = [&](CollUnitKind kind, int64_t scale) {
    bool ok;
    ConcreteUnit unit = concrete(CollUnitAttr::get(ctx, kind, scale, 0),
                                 blockDim, clusterDim, ok);
    return ok && !tiling.unitMismatch(unit);
  };
  auto report = [&](std::string message) {
    SmallVector<std::pair<Location, std::string>, 2> notes;
    addDivergenceNotes(op, message, notes);
    error(op, std::move(message), std::move(notes));
  };

  // Whether the collective is a set of whole warps of one CTA (a named
  // barrier's participants): complete lanes, a single CTA, any warps.
  auto wholeWarpsOfOneCta = [&]() {
    bool ok;
    ConcreteUnit warp = concrete(CollUnitAttr::get(ctx, CollUnitKind::warp, 1, 0),
                                 blockDim, clusterDim, ok);
    std::string why;
    auto completed = ok ? tiling.completeWith(warp, why)
                        : FailureOr<std::pair<CollTiling,
                                              SmallVector<DimExpectation>>>(
                              failure());
    if (failed(completed))
      return false;
    for (auto [dim, expect] :
         llvm::zip(completed->first.getDims(), completed->second)) {
      if (expect == DimExpectation::Full && dim.box() != dim.extent)
        return false;
      if (dim.pitch >= blockDim && dim.box() != 1)
        return false;
    }
    return true;
  };

  if (isa<FenceOp>(op)) {
    bool whole = unitFits(CollUnitKind::cluster, 1) ||
                 unitFits(CollUnitKind::cta_in_cluster, 1) ||
                 wholeWarpsOfOneCta();
    if (!whole)
      report("a fence synchronizes whole warps of one CTA, a CTA or a "
             "cluster; here it would run on " +
             tiling.describe());
    return;
  }

  auto isClusterSync = [](Value barrier) {
    auto type = dyn_cast<BarrierType>(barrier.getType());
    return type && type.getMechanism() == BarrierMechanism::cluster_sync;
  };
  if (auto arrive = dyn_cast<ArriveOp>(op)) {
    if (llvm::any_of(arrive.getBarriers(), isClusterSync) &&
        !unitFits(CollUnitKind::cluster, 1))
      report("arrives on a cluster barrier, which every thread of the "
             "cluster does together; here it would run on " +
             tiling.describe());
    return;
  }
  if (auto await = dyn_cast<AwaitOp>(op)) {
    if (isClusterSync(await.getBarrier()) &&
        !unitFits(CollUnitKind::cluster, 1))
      report("awaits a cluster barrier, which every thread of the cluster "
             "does together; here it would run on " +
             tiling.describe());
    return;
  }

  if (auto instr = dyn_cast<InstrOpInterface>(op)) {
    CollUnitAttr unitAttr = instr.getCollUnit();
    if (!unitAttr)
      return;
    std::string why;
    auto unit = evaluateUnit(unitAttr.getCollType(), blockDim, clusterDim, why);
    std::string unitText;
    llvm::raw_string_ostream os(unitText);
    os << unitAttr;
    if (failed(unit)) {
      report("runs as a collective of " + unitText + ", but " + why);
      return;
    }
    if (std::optional<std::string> mismatch = tiling.unitMismatch(*unit)) {
      int64_t unitThreads = 1;
      for (std::optional<int64_t> b : unit->box)
        unitThreads *= b.value_or(1);
      std::string advice =
          tiling.getNumThreads() > unitThreads
              ? "put it in a cuda_threads loop over " + unitText
              : "move it out of the loops that narrow its scope below " +
                    unitText;
      report("runs as one collective of " + unitText +
             ", but its scope is " + tiling.describe() + "; " + advice +
             " (" + *mismatch + ")");
    }
  }
}
