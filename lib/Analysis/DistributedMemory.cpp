//===- DistributedMemory.cpp - how buffers are sharded over threads -------===//

#include "Rake/Analysis/DistributedMemory.h"

#include "mlir/IR/AffineExprVisitor.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::rake;
using namespace mlir::rake::gpuir;

namespace {

/// A control expression as sum(coeff * key) + constant. Keys are loop
/// variables (their Value's opaque pointer) or the synthetic loops of an
/// instruction's distributed parameters.
struct LinearForm {
  llvm::MapVector<const void *, int64_t> coeffs;
  int64_t constant = 0;
  bool linear = true;

  LinearForm &operator+=(const LinearForm &o) {
    for (auto [k, c] : o.coeffs)
      coeffs[k] += c;
    constant += o.constant;
    linear &= o.linear;
    return *this;
  }
  LinearForm scaled(int64_t s) const {
    LinearForm r = *this;
    for (auto &kc : r.coeffs)
      kc.second *= s;
    r.constant *= s;
    return r;
  }
  void dropZeros() {
    llvm::MapVector<const void *, int64_t> kept;
    for (auto [k, c] : coeffs)
      if (c)
        kept[k] = c;
    coeffs = std::move(kept);
  }
};

LinearForm linearize(AffineExpr e, ValueRange operands) {
  LinearForm f;
  if (auto c = dyn_cast<AffineConstantExpr>(e)) {
    f.constant = c.getValue();
    return f;
  }
  if (auto d = dyn_cast<AffineDimExpr>(e)) {
    f.coeffs[operands[d.getPosition()].getAsOpaquePointer()] = 1;
    return f;
  }
  auto bin = cast<AffineBinaryOpExpr>(e);
  LinearForm l = linearize(bin.getLHS(), operands);
  LinearForm r = linearize(bin.getRHS(), operands);
  switch (e.getKind()) {
  case AffineExprKind::Add:
    l += r;
    return l;
  case AffineExprKind::Mul:
    if (r.coeffs.empty())
      return l.scaled(r.constant);
    if (l.coeffs.empty())
      return r.scaled(l.constant);
    break;
  default:
    break;
  }
  f.linear = false;
  for (auto [k, c] : l.coeffs)
    f.coeffs[k] = 0;
  for (auto [k, c] : r.coeffs)
    f.coeffs[k] = 0;
  return f;
}

/// One coordinate of an access: a point, or an interval [lo, hi).
struct Coord {
  LinearForm lo;
  bool interval = false;
  int64_t extent = 0; // For intervals with a constant extent.
  /// For an interval bound to a synthetic loop of an instruction parameter.
  const void *syntheticKey = nullptr;
};

/// An access of the buffer: by which op, at which coordinates.
struct Access {
  Operation *op;
  SmallVector<Coord> coords;
  /// The instruction's parameter may touch the copies of several owners.
  bool multicast = false;
  /// The units an instruction parameter's leading intervals are
  /// distributed over.
  SmallVector<CollUnitAttr> distributed;
};

/// The value of the variable of a loop that runs once with constant bounds.
std::optional<int64_t> singleIterationValue(Value v) {
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg)
    return std::nullopt;
  auto loop = dyn_cast<ForOp>(arg.getOwner()->getParentOp());
  if (!loop || loop.getInductionVar() != v)
    return std::nullopt;
  auto lo = dyn_cast<AffineConstantExpr>(loop.getLowerMap().getResult(0));
  auto hi = dyn_cast<AffineConstantExpr>(loop.getUpperMap().getResult(0));
  if (!lo || !hi || hi.getValue() != lo.getValue() + 1)
    return std::nullopt;
  return lo.getValue();
}

/// Coordinates of a window's source dims.
SmallVector<Coord> windowCoords(AffineMap map, ValueRange operands,
                                ArrayRef<bool> intervals) {
  SmallVector<Coord> coords;
  unsigned r = 0;
  for (bool isInterval : intervals) {
    Coord c;
    c.lo = linearize(map.getResult(r++), operands);
    if (isInterval) {
      c.interval = true;
      LinearForm hi = linearize(map.getResult(r++), operands);
      LinearForm diff = hi;
      diff += c.lo.scaled(-1);
      diff.dropZeros();
      c.extent = diff.coeffs.empty() && diff.linear ? diff.constant : 0;
    }
    coords.push_back(c);
  }
  return coords;
}

} // namespace

DistributedMemoryAnalysis::DistributedMemoryAnalysis(
    Operation *root, const CollectiveAnalysis &coll)
    : coll(coll) {
  root->walk([&](AllocOp alloc) {
    if (getDeviceScope(alloc) != DeviceScope::CUDA)
      return;
    Type type = alloc.getResult().getType();
    CollUnitAttr native;
    if (auto memref = dyn_cast<MemRefType>(type)) {
      auto mem =
          dyn_cast_or_null<MemoryTypeAttrInterface>(memref.getMemorySpace());
      if (mem)
        native = dyn_cast_or_null<CollUnitAttr>(mem.getNativeUnit());
    } else if (auto barrier = dyn_cast<BarrierType>(type)) {
      if (barrier.isMbarrier())
        native = CollUnitAttr::get(alloc.getContext(),
                                   CollUnitKind::cta_in_cluster, 1, 0);
    }
    if (native)
      analyze(alloc, alloc.getResult(), native);
  });
}

const Sharding *DistributedMemoryAnalysis::getSharding(Value buffer) const {
  auto it = shardings.find(buffer);
  return it == shardings.end() ? nullptr : &it->second;
}

LogicalResult DistributedMemoryAnalysis::emitErrors() const {
  for (const AnalysisError &e : errors) {
    InFlightDiagnostic diag = e.op->emitOpError() << e.message;
    for (auto &[loc, text] : e.notes)
      diag.attachNote(loc) << text;
  }
  return failure(!errors.empty());
}

/// Collects the accesses of `value` (a buffer or a window of one) with its
/// coordinates expressed in the buffer's dimensions. `outer` maps the
/// value's dimensions to the buffer's (identity for the buffer itself).
static LogicalResult
collectAccesses(Value value, ArrayRef<Coord> outer, SmallVectorImpl<Access> &out,
                std::string &error, Operation *&errorOp) {
  // Composes coordinates of `value` (one per interval of `outer`) into the
  // buffer's coordinates.
  auto compose = [&](ArrayRef<Coord> inner) {
    if (outer.empty())
      return SmallVector<Coord>(inner.begin(), inner.end());
    SmallVector<Coord> result;
    size_t k = 0;
    for (const Coord &o : outer) {
      if (!o.interval) {
        result.push_back(o);
        continue;
      }
      Coord c = inner[k++];
      c.lo += o.lo;
      result.push_back(c);
    }
    return result;
  };
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    if (isa<FreeOp>(user))
      continue;
    if (auto access = dyn_cast<AccessOpInterface>(user)) {
      if (&use != &access.getBufferOperand())
        continue; // The value a write stores.
      SmallVector<Coord> coords = compose(windowCoords(
          access.getMap(), access.getIndices(), access.getIntervalFlags()));
      if (!access.isElementAccess()) {
        if (failed(collectAccesses(user->getResult(0), coords, out, error,
                                   errorOp)))
          return failure();
        continue;
      }
      out.push_back({user, coords});
      continue;
    }
    if (auto arrive = dyn_cast<ArriveOp>(user)) {
      unsigned i = 0;
      for (; i < arrive.getBarriers().size(); ++i)
        if (&arrive->getOpOperand(i) == &use)
          break;
      Access a{user, compose(windowCoords(
                         cast<AffineMapAttr>(arrive.getMaps()[i]).getValue(),
                         arrive.getBarrierIndices(i),
                         cast<DenseBoolArrayAttr>(arrive.getIntervals()[i])
                             .asArrayRef()))};
      a.multicast = llvm::any_of(a.coords, [](const Coord &c) { return c.interval; });
      out.push_back(a);
      continue;
    }
    if (auto await = dyn_cast<AwaitOp>(user)) {
      out.push_back({user, compose(windowCoords(await.getMap(), await.getIndices(),
                                                SmallVector<bool>(await.getMap().getNumResults(), false)))});
      continue;
    }
    if (auto instr = dyn_cast<InstrOpInterface>(user)) {
      if (use.get() == instr.getTrailingBarrier()) {
        // The coordinates of its trailing barrier, as an arrive's: a point
        // coordinate over the CTAs must name the thread's own CTA; an
        // interval names several (a multicast).
        SmallVector<Value> indices;
        AffineMap map;
        SmallVector<bool> intervals;
        instr.getTrailingBarrierCoords(indices, map, intervals);
        Access a{user, compose(windowCoords(map, indices, intervals))};
        a.multicast = llvm::is_contained(intervals, true);
        out.push_back(a);
        continue;
      }
      for (const InstrParam &param : instr.getParams()) {
        if (param.operandIndex != use.getOperandNumber())
          continue;
        Access a{user, SmallVector<Coord>(outer.begin(), outer.end())};
        a.multicast = param.multicast;
        for (Attribute u : param.distributedUnits)
          a.distributed.push_back(cast<CollUnitAttr>(u));
        // A buffer passed whole: every dimension is a full interval.
        if (outer.empty()) {
          auto type = cast<MemRefType>(value.getType());
          for (int64_t d : type.getShape()) {
            Coord c;
            c.interval = true;
            c.extent = ShapedType::isDynamic(d) ? 0 : d;
            a.coords.push_back(c);
          }
        }
        out.push_back(a);
      }
      continue;
    }
    error = "cannot see how '" + user->getName().getStringRef().str() +
            "' accesses it; distributed memory analysis understands GpuIR "
            "accesses and instructions (InstrOpInterface)";
    errorOp = user;
    return failure();
  }
  return success();
}

namespace {

/// The distribution an access implies, and where its distributed
/// dimensions end.
struct FoundSharding {
  Sharding sharding;
  Operation *op;
  SmallVector<Coord> coords;
  size_t next;
};

/// A refinement made since the allocation on a dimension that selects a
/// copy: its key and thread pitch.
struct CopySplit {
  const void *key;
  int64_t pitch;
  Operation *owner;
};

/// The refinements of an access's completed tiling on the dimensions that
/// select a copy, and what they say about the copies it reaches.
struct CopySplits {
  SmallVector<CopySplit> splits;
  int64_t specOffset = 0;
  bool spansCopies = false;
  bool undecidable = false;
};

/// How an access's leading dimensions select copies: the sharding they
/// imply, how many split loops they cover, where they end, and the first
/// problem found (empty if none).
struct DistributedPrefix {
  Sharding sharding;
  size_t covered = 0;
  size_t next = 0;
  std::string problem;
};

/// The state shared by the checks of one distributed buffer's accesses.
struct BufferAccessChecker {
  const CollectiveAnalysis &coll;
  SmallVectorImpl<AnalysisError> &errors;
  const CollTiling &allocTiling;
  int64_t blockDim;
  int64_t clusterDim;
  const ConcreteUnit &nativeUnit;
  const std::string &name;
  const std::string &nativeText;
  const std::pair<Location, std::string> &allocNote;
  std::string &why;
  // Keys of the synthetic loops of instruction parameters.
  SmallVector<std::unique_ptr<char>> syntheticKeys = {};

  std::optional<FoundSharding> check(Access &access);
  LogicalResult distributeOverParams(Access &access, CollTiling &scope);
  void reportUnindexedLoop(const Access &access, ArrayRef<CopySplit> splits);
  const FoundSharding &checkSameDistribution(ArrayRef<FoundSharding> found);
};

} // namespace

/// How diagnostics name a native unit ("thread", "warp", "CTA", or the
/// unit attribute itself).
static std::string describeNativeUnit(CollUnitAttr native) {
  std::string nativeText;
  switch (native.getKind()) {
  case CollUnitKind::thread:
    nativeText = "thread";
    break;
  case CollUnitKind::warp:
    nativeText = "warp";
    break;
  case CollUnitKind::cta_in_cluster:
    nativeText = "CTA";
    break;
  default: {
    llvm::raw_string_ostream os(nativeText);
    os << native;
  }
  }
  return nativeText;
}

/// How diagnostics name the distributed buffer or mbarrier array.
static std::string describeBuffer(Value buffer, const std::string &nativeText) {
  if (auto memref = dyn_cast<MemRefType>(buffer.getType()))
    return "the " +
           cast<MemoryTypeAttrInterface>(memref.getMemorySpace())
               .getMemoryName()
               .str() +
           " buffer (one copy per " + nativeText + ")";
  return "the mbarrier array (one copy per " + nativeText + ")";
}

/// Sorts the accesses into program order within the allocation's procedure.
static void sortInProgramOrder(Operation *alloc,
                               SmallVectorImpl<Access> &accesses) {
  DenseMap<Operation *, unsigned> position;
  alloc->getParentOfType<ProcOp>()->walk<WalkOrder::PreOrder>(
      [&](Operation *op) { position[op] = position.size(); });
  llvm::stable_sort(accesses, [&](const Access &a, const Access &b) {
    return position[a.op] < position[b.op];
  });
}

/// Collects the refinements made since the allocation (at `allocDepth`) on
/// the dimensions of the completed tiling `t` that select a copy.
static CopySplits findCopySplits(const Access &access, const CollTiling &t,
                                 ArrayRef<DimExpectation> expectations,
                                 unsigned allocDepth) {
  CopySplits result;
  SmallVector<CopySplit> &splits = result.splits;
  for (auto [dim, expect] : llvm::zip(t.getDims(), expectations)) {
    if (expect != DimExpectation::Subdivided)
      continue;
    if (dim.box() != 1)
      result.spansCopies = true;
    for (const TileOp &op : dim.ops) {
      if (op.level < allocDepth)
        continue;
      if (op.div != 1) {
        result.undecidable = true;
        continue;
      }
      if (op.count == 1) {
        result.specOffset += dim.pitch * op.offset;
        continue;
      }
      const void *key = op.iv ? op.iv.getAsOpaquePointer() : nullptr;
      if (!key) {
        // A synthetic loop: find the coordinate it binds.
        for (const Coord &c : access.coords)
          if (c.syntheticKey && op.owner == access.op &&
              llvm::none_of(splits, [&](const CopySplit &s) {
                return s.key == c.syntheticKey;
              })) {
            key = c.syntheticKey;
            break;
          }
      }
      splits.push_back({key, dim.pitch * op.step, op.owner});
    }
  }
  return result;
}

/// Matches the access's leading dimensions to the split loops' variables,
/// deducing the thread pitch of each distributed dimension.
static DistributedPrefix matchDistributedPrefix(const Access &access,
                                                ArrayRef<CopySplit> splits,
                                                int64_t specOffset) {
  DistributedPrefix result;
  SmallVector<const void *> keys;
  for (const CopySplit &s : splits)
    keys.push_back(s.key);
  Sharding &sharding = result.sharding;
  sharding.base = specOffset;
  size_t &covered = result.covered;
  size_t &k = result.next;
  std::string &problem = result.problem;
  for (; k < access.coords.size() && covered < keys.size(); ++k) {
    const Coord &c = access.coords[k];
    LinearForm f = c.lo;
    if (c.syntheticKey)
      f.coeffs[c.syntheticKey] += 1;
    f.dropZeros();
    if (c.interval && !c.syntheticKey) {
      problem = "dimension " + std::to_string(k) +
                " selects a copy but is indexed by an interval";
      break;
    }
    if (!f.linear) {
      problem = "the index of dimension " + std::to_string(k) +
                ", which selects a copy, is not a sum of loop variables "
                "times constants";
      break;
    }
    std::optional<int64_t> pitch;
    bool any = false;
    for (auto [key, coeff] : f.coeffs) {
      auto it = llvm::find_if(splits, [&](const CopySplit &s) { return s.key == key; });
      if (it == splits.end()) {
        problem = "the index of dimension " + std::to_string(k) +
                  ", which selects a copy, depends on a variable that does "
                  "not select threads";
        break;
      }
      any = true;
      ++covered;
      if (it->pitch % coeff != 0 ||
          (pitch && *pitch != it->pitch / coeff)) {
        problem = "the index of dimension " + std::to_string(k) +
                  " does not follow the threads of the loops it uses";
        break;
      }
      pitch = it->pitch / coeff;
    }
    if (!problem.empty())
      break;
    if (!any) {
      problem = "dimension " + std::to_string(k) +
                " comes before the dimensions that select a copy but is "
                "indexed by a constant";
      break;
    }
    sharding.pitches.push_back(*pitch);
    sharding.base -= *pitch * f.constant;
  }
  return result;
}

/// The owner of the first split loop whose variable indexes no coordinate
/// of the access, or null if there is none.
static Operation *findUnindexedSplitLoop(const Access &access,
                                         ArrayRef<CopySplit> splits) {
  Operation *loop = nullptr;
  for (const CopySplit &s : splits) {
    bool used = false;
    for (const Coord &c : access.coords) {
      if (c.syntheticKey == s.key || c.lo.coeffs.count(s.key))
        used = true;
    }
    if (!used) {
      loop = s.owner;
      break;
    }
  }
  return loop;
}

/// How diagnostics print a sharding: "[pitches] from thread base".
static std::string shardingText(const Sharding &s) {
  std::string r = "[";
  llvm::raw_string_ostream os(r);
  llvm::interleaveComma(s.pitches, os);
  os << "] from thread " << s.base;
  return r;
}

/// Where a sharding gives one thread two elements of the buffer's
/// distributed (leading) dimensions: " over its leading extents [...], which
/// gives elements [...] and [...] to the same thread (t)", or nothing when
/// the element-to-thread map is one-to-one (or the extents are not static).
static std::optional<std::string> sharedThread(Type type,
                                               const Sharding &sharding) {
  auto memref = dyn_cast<MemRefType>(type);
  ArrayRef<int64_t> pitches = sharding.pitches;
  if (!memref || size_t(memref.getRank()) < pitches.size())
    return std::nullopt;
  ArrayRef<int64_t> extents = memref.getShape().take_front(pitches.size());
  int64_t count = 1;
  for (int64_t e : extents) {
    if (ShapedType::isDynamic(e) || count > (1 << 20))
      return std::nullopt;
    count *= e;
  }
  // The multi-index of the flat (row-major) element number `flat`.
  auto indexOf = [&](int64_t flat) {
    SmallVector<int64_t> idx(extents.size());
    for (size_t d = extents.size(); d-- > 0;) {
      idx[d] = flat % extents[d];
      flat /= extents[d];
    }
    return idx;
  };
  auto text = [](ArrayRef<int64_t> v) {
    std::string r;
    llvm::raw_string_ostream os(r);
    os << "[";
    llvm::interleaveComma(v, os);
    os << "]";
    return r;
  };
  llvm::DenseMap<int64_t, int64_t> first; // thread -> its first element
  for (int64_t e = 0; e < count; ++e) {
    SmallVector<int64_t> idx = indexOf(e);
    int64_t thread = 0;
    for (size_t d = 0; d < idx.size(); ++d)
      thread += idx[d] * pitches[d];
    auto [it, fresh] = first.try_emplace(thread, e);
    if (!fresh)
      return " over its leading extents " + text(extents) +
             ", which gives elements " + text(indexOf(it->second)) + " and " +
             text(idx) + " to the same thread (" +
             std::to_string(thread + sharding.base) + ")";
  }
  return std::nullopt;
}

/// Extends an access's sharding towards the reference's pitches with the
/// following dimensions that constants (or single-iteration loop variables)
/// index.
static Sharding extendToReference(const FoundSharding &f,
                                  const Sharding &ref) {
  Sharding extended = f.sharding;
  for (size_t k = f.next;
       extended.pitches.size() < ref.pitches.size() && k < f.coords.size();
       ++k) {
    LinearForm lo = f.coords[k].lo;
    lo.dropZeros();
    if (f.coords[k].interval || !lo.linear)
      break;
    // The variable of a single-iteration loop is a constant.
    bool constant = true;
    for (auto [key, coeff] : lo.coeffs) {
      std::optional<int64_t> v =
          singleIterationValue(Value::getFromOpaquePointer(key));
      if (!v) {
        constant = false;
        break;
      }
      lo.constant += coeff * *v;
    }
    if (!constant)
      break;
    int64_t pitch = ref.pitches[extended.pitches.size()];
    extended.pitches.push_back(pitch);
    extended.base -= pitch * lo.constant;
  }
  return extended;
}

/// Binds the leading intervals of an instruction parameter distributed over
/// units to synthetic cuda_threads loops, refining `scope` by each.
LogicalResult BufferAccessChecker::distributeOverParams(Access &access,
                                                        CollTiling &scope) {
  size_t nextInterval = 0;
  for (CollUnitAttr u : access.distributed) {
    while (nextInterval < access.coords.size() &&
           !access.coords[nextInterval].interval)
      ++nextInterval;
    if (nextInterval == access.coords.size() ||
        access.coords[nextInterval].extent <= 0) {
      errors.push_back({access.op,
                        "passes " + name +
                            " to a parameter distributed over threads, but "
                            "the window has no interval of constant size "
                            "for the distributed dimension",
                        {}});
      return failure();
    }
    Coord &c = access.coords[nextInterval++];
    auto unit = evaluateUnit(u.getCollType(), blockDim, clusterDim, why);
    syntheticKeys.push_back(std::make_unique<char>());
    c.syntheticKey = syntheticKeys.back().get();
    FailureOr<CollTiling> derived =
        failed(unit) ? FailureOr<CollTiling>(failure())
                     : scope.derive(access.op, Value(), *unit, 0, c.extent,
                                    /*tiled=*/true, why);
    if (failed(derived)) {
      errors.push_back({access.op,
                        "cannot distribute " + name + " over the " +
                            std::to_string(c.extent) +
                            " collectives its parameter asks for: " + why,
                        {}});
      return failure();
    }
    scope = *derived;
  }
  return success();
}

/// Reports an access from a split loop whose variable indexes no leading
/// dimension: its iterations' threads would share one copy.
void BufferAccessChecker::reportUnindexedLoop(const Access &access,
                                              ArrayRef<CopySplit> splits) {
  Operation *loop = findUnindexedSplitLoop(access, splits);
  SmallVector<std::pair<Location, std::string>, 2> notes{allocNote};
  if (loop)
    notes.push_back({loop->getLoc(), "the cuda_threads loop"});
  errors.push_back(
      {access.op,
       "accesses " + name + " from each iteration of a cuda_threads "
           "loop, but its indices do not depend on the loop's variable: "
           "each " + nativeText + " would use its own copy where the "
           "program means one; give the buffer a leading dimension "
           "indexed by the loop variable, or access it outside the loop",
       notes});
}

/// Checks one access; returns the distribution it implies, or nothing if it
/// implies none (a multicast, no scope tiling, or an error it reported).
std::optional<FoundSharding> BufferAccessChecker::check(Access &access) {
  const CollTiling *tiling = coll.getScopeTiling(access.op);
  if (!tiling)
    return std::nullopt;
  CollTiling scope = *tiling;

  // An instruction parameter distributed over units: its leading
  // intervals are iterated by synthetic cuda_threads loops inside the
  // instruction's collective.
  if (failed(distributeOverParams(access, scope)))
    return std::nullopt;

  auto completed = scope.completeWith(nativeUnit, why);
  if (failed(completed)) {
    errors.push_back({access.op,
                      "cannot relate the threads that access " + name +
                          " to the copies of its " + nativeText +
                          " memory: " + why,
                      {}});
    return std::nullopt;
  }
  const CollTiling &t = completed->first;

  // The refinements made since the allocation on the dimensions that
  // select a copy, their keys and thread pitches.
  CopySplits copySplits = findCopySplits(access, t, completed->second,
                                         allocTiling.getDepth());
  if (copySplits.undecidable) {
    errors.push_back({access.op,
                      "cannot decide which copy of " + name +
                          " this access uses: a cuda_threads loop's range "
                          "crosses the boundary between copies",
                      {}});
    return std::nullopt;
  }
  if (copySplits.spansCopies && !access.multicast) {
    errors.push_back(
        {access.op,
         "accesses " + name + " from " + scope.describe() +
             ", which spans several copies; access it from a scope within "
             "one " + nativeText,
         {allocNote}});
    return std::nullopt;
  }
  if (access.multicast)
    return std::nullopt;

  // Find the distributed prefix: the leading dimensions whose indices are
  // the split loops' variables.
  DistributedPrefix prefix =
      matchDistributedPrefix(access, copySplits.splits, copySplits.specOffset);
  if (prefix.problem.empty() && prefix.covered < copySplits.splits.size()) {
    // Some split loop's variable indexes no leading dimension: its
    // iterations' threads would share one copy.
    reportUnindexedLoop(access, copySplits.splits);
    return std::nullopt;
  }
  if (!prefix.problem.empty()) {
    errors.push_back({access.op, "accesses " + name + ", but " + prefix.problem,
                      {allocNote}});
    return std::nullopt;
  }
  return FoundSharding{prefix.sharding, access.op, access.coords, prefix.next};
}

/// Picks the reference distribution and reports the first access whose
/// distribution differs from it; returns the reference.
const FoundSharding &
BufferAccessChecker::checkSameDistribution(ArrayRef<FoundSharding> found) {
  // The distribution is the one with the most distributed dimensions. An
  // access from fewer split loops (a single-iteration cuda_threads loop:
  // lane 0 of each warp) names the rest of the distributed dimensions by
  // constants, which pick its thread within the copies.
  const FoundSharding *ref = &found.front();
  for (const FoundSharding &f : found)
    if (f.sharding.pitches.size() > ref->sharding.pitches.size())
      ref = &f;
  for (const FoundSharding &f : found) {
    Sharding extended = extendToReference(f, ref->sharding);
    if (extended == ref->sharding)
      continue;
    errors.push_back(
        {f.op,
         "accesses " + name + " with a different distribution (pitches " +
             shardingText(extended) + ") than another access (pitches " +
             shardingText(ref->sharding) +
             "); every access must use the same copy for the same threads",
         {{ref->op->getLoc(), "the other access"}, allocNote}});
    break;
  }
  return *ref;
}

/// Whether a sharding over CTAs gives copy (d0, d1, ...) to the CTA whose
/// rank is the row-major number of (d0, d1, ...): pitches of whole CTAs of
/// `blockDim` threads, copy 0 at thread 0.
static bool ownCtaSharding(Type type, const Sharding &s, int64_t blockDim) {
  ArrayRef<int64_t> shape;
  if (auto memref = dyn_cast<MemRefType>(type))
    shape = memref.getShape();
  else if (auto barrier = dyn_cast<BarrierType>(type))
    shape = barrier.getShape();
  if (shape.size() < s.pitches.size() || s.base != 0)
    return false;
  int64_t pitch = blockDim;
  for (size_t d = s.pitches.size(); d-- > 0;) {
    if (s.pitches[d] != pitch)
      return false;
    if (ShapedType::isDynamic(shape[d]))
      return d == 0;
    pitch *= shape[d];
  }
  return true;
}

void DistributedMemoryAnalysis::analyze(Operation *alloc, Value buffer,
                                        CollUnitAttr native) {
  const CollTiling *allocTiling = coll.getScopeTiling(alloc);
  if (!allocTiling)
    return;
  auto [blockDim, clusterDim] = coll.getLaunchShape(alloc);
  std::string why;
  auto nativeUnit =
      evaluateUnit(native.getCollType(), blockDim, clusterDim, why);
  if (failed(nativeUnit))
    return;
  std::string nativeText = describeNativeUnit(native);
  std::string name = describeBuffer(buffer, nativeText);
  std::pair<Location, std::string> allocNote{alloc->getLoc(),
                                             "the buffer is allocated here"};

  SmallVector<Access> accesses;
  Operation *errorOp = nullptr;
  if (failed(collectAccesses(buffer, {}, accesses, why, errorOp))) {
    errors.push_back({errorOp, "uses " + name + ", but " + why, {allocNote}});
    return;
  }

  // Check the accesses in program order, so the first one found wrong is
  // the first one a reader meets.
  sortInProgramOrder(alloc, accesses);
  size_t errorsBefore = errors.size();

  BufferAccessChecker checker{coll,       errors,     *allocTiling,
                              blockDim,   clusterDim, *nativeUnit,
                              name,       nativeText, allocNote,
                              why};
  // The distribution each access implies, and where its distributed
  // dimensions end.
  SmallVector<FoundSharding> found;
  for (Access &access : accesses) {
    // One report per buffer: later accesses usually repeat the first mistake.
    if (errors.size() != errorsBefore)
      break;
    if (std::optional<FoundSharding> f = checker.check(access))
      found.push_back(std::move(*f));
  }
  if (errors.size() != errorsBefore || found.empty()) {
    shardings[buffer] = Sharding{};
    return;
  }

  const FoundSharding &ref = checker.checkSameDistribution(found);
  if (errors.size() != errorsBefore) {
    shardings[buffer] = Sharding{};
    return;
  }
  // Code generation drops the distributed dimensions: each thread keeps one
  // element of them. So the element-to-thread map (sum of index times pitch)
  // must be one-to-one over their extents; two accesses that agree on the
  // pitches but index different dimensions (R[32w + l, 0] and R[l, w]) would
  // otherwise give one thread two elements in one register.
  if (std::optional<std::string> clash =
          sharedThread(buffer.getType(), ref.sharding)) {
    errors.push_back({ref.op,
                      "distributes " + name + " with pitches " +
                          shardingText(ref.sharding) + *clash +
                          "; each thread must own one element of the "
                          "distributed dimensions (index them by the same "
                          "loop variables in every access, or make a "
                          "dimension's pitch at least the lower dimensions' "
                          "pitch times extent)",
                      {allocNote}});
    shardings[buffer] = Sharding{};
    return;
  }
  // A copy of CTA memory is named by the CTA's rank in the cluster: an
  // interval over the CTAs (a multicast copy, a remote arrive) takes its
  // coordinates as ranks, and code generation lowers a point coordinate as
  // the accessing thread's own CTA. So a point coordinate must be the
  // thread's own rank: the copy at (d0, d1, ...) belongs to the CTA of that
  // row-major rank (pitches of whole CTAs, copy 0 at CTA 0).
  if (native.getKind() == CollUnitKind::cta_in_cluster &&
      !ref.sharding.pitches.empty() &&
      !ownCtaSharding(buffer.getType(), ref.sharding, blockDim)) {
    errors.push_back(
        {found.front().op,
         "names a copy of " + name + " other than its own CTA's by a point "
             "coordinate (pitches " + shardingText(ref.sharding) +
             "); code generation would use the thread's own copy: index "
             "the CTA dimensions by the CTA's own coordinates, and name "
             "another CTA's copy only by an interval (a multicast or a "
             "remote arrive)",
         {allocNote}});
    shardings[buffer] = Sharding{};
    return;
  }
  shardings[buffer] = ref.sharding;
}
