//===- SyncCheck.cpp - the abstract machine interpreter -------------------===//

#include "Rake/Analysis/SyncCheck.h"
#include "Rake/Dialect/GpuIR/IR/Syntax.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <limits>
#include <map>
#include <memory>

using namespace mlir;
using namespace mlir::rake;
using namespace mlir::rake::amir;
using gpuir::BarrierMechanism;
using gpuir::QualTimeline;

namespace {

using Level = VisibilityLevel;

/// Coordinates in a device function's thread domain (the interpreter
/// refuses deeper domains). Trivially copyable and small, since thread sets
/// are copied on every synchronization and kept in every record.
constexpr size_t kMaxDomainRank = 8;
struct Coords {
  std::array<int64_t, kMaxDomainRank> v{};
  uint8_t n = 0;
  size_t size() const { return n; }
  bool empty() const { return n == 0; }
  int64_t &operator[](size_t i) { return v[i]; }
  int64_t operator[](size_t i) const { return v[i]; }
  void push_back(int64_t x) { v[n++] = x; }
  void assign(size_t count, int64_t x) {
    n = count;
    for (size_t i = 0; i < count; ++i)
      v[i] = x;
  }
  template <typename It> void assign(It b, It e) {
    n = 0;
    for (; b != e; ++b)
      push_back(*b);
  }
  const int64_t *begin() const { return v.data(); }
  const int64_t *end() const { return v.data() + n; }
  bool operator==(const Coords &o) const {
    return n == o.n && std::equal(begin(), end(), o.begin());
  }
};

/// The index of an element, as a map key without a heap allocation.
struct ElementKey {
  std::array<int64_t, 8> v{};
  uint8_t n = 0;
  static std::optional<ElementKey> of(ArrayRef<int64_t> index) {
    if (index.size() > 8)
      return std::nullopt;
    ElementKey k;
    k.n = index.size();
    std::copy(index.begin(), index.end(), k.v.begin());
    return k;
  }
  bool operator<(const ElementKey &o) const {
    return std::lexicographical_compare(v.begin(), v.begin() + n, o.v.begin(),
                                        o.v.begin() + o.n);
  }
};

/// A set of threads: the CPU, a box of one task's threads in the device
/// function's coordinate system, or everything (the stream, at CPU scope).
struct ThreadSet {
  enum Kind : uint8_t { Cpu, Device, Everything } kind = Cpu;
  int64_t task = -1;
  Coords lo, hi;
  /// The domain the box is in, for descriptions.
  const SmallVector<int64_t> *domain = nullptr;

  bool intersects(const ThreadSet &o) const {
    if (kind == Everything || o.kind == Everything)
      return true;
    if (kind != o.kind)
      return false;
    if (kind == Cpu)
      return true;
    if (task != o.task || lo.size() != o.lo.size())
      return false;
    for (size_t i = 0; i < lo.size(); ++i)
      if (hi[i] <= o.lo[i] || o.hi[i] <= lo[i])
        return false;
    return true;
  }
  bool contains(const ThreadSet &o) const {
    if (kind == Everything)
      return true;
    if (o.kind == Everything || kind != o.kind)
      return false;
    if (kind == Cpu)
      return true;
    if (task != o.task || lo.size() != o.lo.size())
      return false;
    for (size_t i = 0; i < lo.size(); ++i)
      if (o.lo[i] < lo[i] || hi[i] < o.hi[i])
        return false;
    return true;
  }
  bool operator==(const ThreadSet &o) const {
    return kind == o.kind && task == o.task && lo == o.lo && hi == o.hi;
  }
  /// The threads in both sets, if any.
  std::optional<ThreadSet> intersect(const ThreadSet &o) const {
    if (kind == Everything)
      return o;
    if (o.kind == Everything || kind == Cpu)
      return *this;
    if (!intersects(o))
      return std::nullopt;
    ThreadSet r = *this;
    for (size_t i = 0; i < lo.size(); ++i) {
      r.lo[i] = std::max(lo[i], o.lo[i]);
      r.hi[i] = std::min(hi[i], o.hi[i]);
    }
    return r;
  }
};

struct Box {
  SmallVector<int64_t, 4> lo, hi;
  bool overlaps(const Box &o) const {
    for (size_t i = 0; i < lo.size() && i < o.lo.size(); ++i)
      if (hi[i] <= o.lo[i] || o.hi[i] <= lo[i])
        return false;
    return true;
  }
  bool contains(const Box &o) const {
    for (size_t i = 0; i < lo.size() && i < o.lo.size(); ++i)
      if (o.lo[i] < lo[i] || hi[i] < o.hi[i])
        return false;
    return true;
  }
};

/// Calls `fn` with each point of the box [lo, hi), last coordinate
/// fastest; once for rank 0, never for an empty box.
template <typename Fn>
void forEachPoint(ArrayRef<int64_t> lo, ArrayRef<int64_t> hi, Fn fn) {
  for (size_t i = 0; i < lo.size(); ++i)
    if (hi[i] <= lo[i])
      return;
  SmallVector<int64_t, 8> c(lo.begin(), lo.end());
  while (true) {
    fn(ArrayRef<int64_t>(c));
    size_t d = c.size();
    while (true) {
      if (d == 0)
        return;
      --d;
      if (++c[d] < hi[d])
        break;
      c[d] = lo[d];
    }
  }
}

/// Whether a box is a single element.
bool isPointBox(const Box &b) {
  for (size_t i = 0; i < b.lo.size(); ++i)
    if (b.hi[i] != b.lo[i] + 1)
      return false;
  return true;
}

/// The one dimension along which `next` continues `box` (equal extents in
/// every other dimension), or -1.
int continuingAxis(const Box &box, const Box &next) {
  if (box.lo.size() != next.lo.size())
    return -1;
  int axis = -1;
  for (size_t d = 0; d < box.lo.size(); ++d) {
    if (box.lo[d] == next.lo[d] && box.hi[d] == next.hi[d])
      continue;
    if (axis != -1 || box.hi[d] != next.lo[d])
      return -1;
    axis = d;
  }
  return axis;
}

struct Vis {
  ThreadSet threads;
  uint32_t quals;
  Level level;
  Operation *via;
};

struct Var;

struct Record {
  uint64_t seq = 0;
  Var *var = nullptr;
  Box region;
  ThreadSet actors;
  uint32_t qual;
  bool mutate;
  bool outOfOrder;
  Operation *op;
  SmallVector<Vis, 2> vis;
  /// Whether a fence or arrive ever captured it.
  bool captured = false;
  /// A TMA copy completes on the mbarrier of the first arrive on its
  /// timeline after it, and on no later one: set once that arrive took it.
  bool claimed = false;
  /// Superseded by a later access; skipped, and erased when next met.
  bool dead = false;
  /// The last fences and arrives that captured it, for reports.
  SmallVector<Operation *, 2> capturedBy;
  /// For an arrival token: the barrier elements whose next phase has not
  /// closed yet (a multicast arrive arrives on several).
  int32_t holds = 0;
};
using RecordPtr = std::shared_ptr<Record>;

struct Captured {
  RecordPtr record;
  /// Captured for full visibility, or only for time order.
  bool full;
};

struct SyncEvent {
  uint64_t seq;
  Operation *op;
  ThreadSet actors;
  uint32_t pre;
};

/// An await of phase p by a collective, which the next phase (p + 1) must
/// not be able to complete before: the hardware wait sees only the parity
/// of the current phase, so if p + 1 completed too the awaiters would take
/// p + 2 for the phase they wait for (a hang, or a wait that returns a
/// phase late).
struct Follow {
  /// Made by the await, visible to what the awaiters do after it.
  RecordPtr token;
  Operation *await;
  ThreadSet awaiters;
  /// Whether an arrival of the next phase is ordered after the await.
  bool ordered = false;
  /// Awaiting threads that arrive into the next phase themselves (each
  /// after its own wait); all of them together order the phase after it.
  int64_t selfArrived = 0;
};

struct Phase {
  llvm::hash_code key;
  /// Whether an await already matched it; later arrivals start a new phase.
  bool awaited = false;
  SmallVector<Captured> captured;
  SmallVector<ThreadSet, 2> arrivers;
  Operation *op;
  /// The thread arrivals so far (each thread of an arriving collective
  /// arrives once).
  int64_t threads = 0;
  /// Stands for the phase's completion: visible to those ordered after it
  /// (its awaiters, and whatever they synchronize with afterwards).
  RecordPtr completion;
  /// Stand for each arrival: threads ordered after all of them are ordered
  /// after the completion too.
  SmallVector<RecordPtr, 2> arrivals;
  /// The awaits of the previous phase that this phase must follow.
  SmallVector<Follow, 2> follows;
  /// No more arrivals join it (the next phase began, an await matched it,
  /// or the barrier was freed); its follows and count are judged.
  bool closed = false;
  bool countChecked = false;
};

/// One collective's view of a commit group: the groups it committed, and
/// how many it has waited for on each pair of timelines.
struct CommitView {
  size_t scanned = 0;
  std::vector<size_t> mine;
  std::map<std::pair<uint32_t, uint32_t>, int64_t> done;
};

struct BarrierElem {
  std::vector<Phase> phases;
  /// Follows of phases that no arrive has begun yet, by phase.
  std::map<int64_t, SmallVector<Follow, 2>> pending;
  std::map<size_t, CommitView> commits;
  /// Awaits made so far, per awaiting collective.
  std::map<size_t, int64_t> awaited;
};

struct Var {
  std::string name;
  SmallVector<int64_t> shape;
  bool shared = false;
  /// Allocated by the CPU (global memory): outlives every task.
  bool global = false;
  bool isBarrier = false;
  BarrierMechanism mechanism = BarrierMechanism::mbarrier;
  /// The extent of each dimension at these sizes (-1: not declared).
  SmallVector<int64_t> extents;
  /// The thread arrivals that complete a phase of an mbarrier, as code
  /// generation initializes it (-1: unknown).
  int64_t arrivals = -1;
  /// The pseudo variable of phase and await tokens: ordering facts between
  /// synchronization events, carried by the same capture and publication
  /// as accesses, on every timeline.
  bool isToken = false;
  /// The live records, reads and writes apart (a read checks only writes):
  /// single elements by their index, so that a check of an element finds
  /// them directly, and boxes by the start of their first two dimensions
  /// (so that the rows of a matrix written by many tasks, each its own
  /// column range, are not all visited by a check of one of them).
  struct Boxes {
    std::multimap<std::pair<int64_t, int64_t>, RecordPtr> map;
    /// The largest extent of a box along dimensions 0 and 1.
    int64_t maxSpan = 1, maxSpan1 = 1;
    void noteSpans(const Box &b) {
      if (b.lo.size() > 0)
        maxSpan = std::max(maxSpan, b.hi[0] - b.lo[0]);
      if (b.lo.size() > 1)
        maxSpan1 = std::max(maxSpan1, b.hi[1] - b.lo[1]);
    }
    static std::pair<int64_t, int64_t> keyOf(const Box &b) {
      return {b.lo.empty() ? 0 : b.lo[0], b.lo.size() > 1 ? b.lo[1] : 0};
    }
    void insert(const RecordPtr &r) {
      noteSpans(r->region);
      map.emplace(keyOf(r->region), r);
    }
    void erase(const Record *r) {
      auto range = map.equal_range(keyOf(r->region));
      for (auto it = range.first; it != range.second; ++it)
        if (it->second.get() == r) {
          map.erase(it);
          return;
        }
    }
  };
  struct Index {
    std::multimap<ElementKey, RecordPtr> points;
    Boxes boxes;
    /// Finished tasks' records merged into tiles (summarizeTask): kept apart
    /// so that their larger extents do not widen the searches of the rest.
    Boxes summaries;
  };
  Index reads, writes;
  /// Takes a record that died outside a sweep out of its index, so that its
  /// memory goes now rather than when a later access meets it.
  void unindex(const Record *r);
  /// Recent in-order reads by their threads and timeline.
  DenseMap<llvm::hash_code, SmallVector<RecordPtr, 4>> readsBy;
  bool freed = false;

  template <typename Fn> void forEachRecord(Fn fn) {
    for (Index *index : {&reads, &writes}) {
      for (auto &[key, r] : index->points)
        if (!r->dead)
          fn(r);
      for (Boxes *boxes : {&index->boxes, &index->summaries})
        for (auto &[key, r] : boxes->map)
          if (!r->dead)
            fn(r);
    }
  }
  Operation *freeOp = nullptr;
  Operation *alloc = nullptr;
  std::map<int64_t, BarrierElem> elems;
};

void Var::unindex(const Record *r) {
  Index &index = r->mutate ? writes : reads;
  if (isPointBox(r->region)) {
    if (std::optional<ElementKey> key = ElementKey::of(r->region.lo)) {
      auto range = index.points.equal_range(*key);
      for (auto it = range.first; it != range.second; ++it)
        if (it->second.get() == r) {
          index.points.erase(it);
          return;
        }
    }
  }
  index.boxes.erase(r);
  index.summaries.erase(r);
}

bool visibleTo(const Record &r, const ThreadSet &t, uint32_t qual,
               Level level) {
  for (const Vis &v : r.vis)
    if ((v.quals & qual) && v.level >= level && v.threads.contains(t))
      return true;
  return false;
}

/// Writes of memory through the async proxy (TMA), and through the generic
/// proxy (st, cp.async), as the PTX memory model's proxies.
bool isAsyncProxyWrite(uint32_t q) {
  return q & static_cast<uint32_t>(QualTimeline::tma_to_smem_async |
                                   QualTimeline::tma_to_gmem_async);
}
bool isAsyncProxyAccess(uint32_t q) {
  return q & static_cast<uint32_t>(QualTimeline::tma_to_smem_async |
                                   QualTimeline::tma_to_gmem_async |
                                   QualTimeline::wgmma_async_smem);
}
bool isGenericProxyWrite(uint32_t q) {
  return q & static_cast<uint32_t>(QualTimeline::cuda_in_order_ram |
                                   QualTimeline::Sm80_cp_async);
}

/// Whether accesses on the timeline are asynchronous instructions'.
bool isAsync(uint32_t q) {
  return !(q & static_cast<uint32_t>(QualTimeline::cuda_in_order_ram |
                                     QualTimeline::cuda_in_order_rmem |
                                     QualTimeline::cpu_in_order));
}

/// An affine expression's value for integer dims, without building new
/// expressions (AffineMap::compose uniques every intermediate).
int64_t evalExpr(AffineExpr e, ArrayRef<int64_t> dims) {
  switch (e.getKind()) {
  case AffineExprKind::Constant:
    return cast<AffineConstantExpr>(e).getValue();
  case AffineExprKind::DimId:
    return dims[cast<AffineDimExpr>(e).getPosition()];
  case AffineExprKind::SymbolId:
    return 0;
  default:
    break;
  }
  auto bin = cast<AffineBinaryOpExpr>(e);
  int64_t l = evalExpr(bin.getLHS(), dims), r = evalExpr(bin.getRHS(), dims);
  switch (e.getKind()) {
  case AffineExprKind::Add:
    return l + r;
  case AffineExprKind::Mul:
    return l * r;
  case AffineExprKind::Mod:
    return r ? ((l % r) + r) % r : 0;
  case AffineExprKind::FloorDiv:
    return r ? llvm::divideFloorSigned(l, r) : 0;
  case AffineExprKind::CeilDiv:
    return r ? llvm::divideCeilSigned(l, r) : 0;
  default:
    llvm_unreachable("every affine expression kind is handled");
  }
}

SmallVector<int64_t> evalMap(AffineMap map, ArrayRef<int64_t> dims) {
  SmallVector<int64_t> out;
  for (AffineExpr e : map.getResults())
    out.push_back(evalExpr(e, dims));
  return out;
}

std::string qualName(uint32_t q) {
  return gpuir::stringifyQualTimeline(static_cast<QualTimeline>(q));
}

class Interpreter {
public:
  Interpreter(const SyncCheckOptions &options) : options(options) {}

  unsigned run(ProcOp proc, ArrayRef<int64_t> controls) {
    for (auto [arg, v] :
         llvm::zip(proc.getBody().front().getArguments(), controls))
      env[arg] = v;
    current.kind = ThreadSet::Cpu;
    runBlock(proc.getBody().front());
    return errors;
  }

  int64_t tasksRun() const { return nextTask; }

private:
  void runBlock(Block &block) {
    for (Operation &op : block) {
      if (stopped())
        return;
      exec(&op);
    }
  }
  bool stopped() const {
    return options.maxErrors && errors >= options.maxErrors;
  }

  int64_t eval(AffineExpr e, ValueRange operands) {
    SmallVector<int64_t> dims;
    for (Value v : operands)
      dims.push_back(env.lookup(v));
    return evalExpr(e, dims);
  }

  Box evalWindow(Var &var, ValueRange operands, AffineMap map,
                 ArrayRef<bool> intervals) {
    SmallVector<int64_t> dims, lastDims;
    bool collapsedOperand = false;
    for (Value v : operands) {
      dims.push_back(env.lookup(v));
      auto it = collapsed.find(v);
      collapsedOperand |= it != collapsed.end();
      lastDims.push_back(it != collapsed.end() ? it->second : dims.back());
    }
    // A check and the record that follows it evaluate the same window.
    if (cachedWindow.map == map && cachedWindow.var == &var &&
        cachedWindow.dims == dims && cachedWindow.lastDims == lastDims &&
        cachedWindow.intervals == intervals)
      return cachedWindow.box;
    SmallVector<int64_t> vals = evalMap(map, dims);
    SmallVector<int64_t> lastVals =
        collapsedOperand ? evalMap(map, lastDims) : vals;
    Box b;
    unsigned r = 0;
    for (bool isInterval : intervals) {
      // Over a collapsed loop's range, each coordinate moves by 0 or 1 per
      // iteration (see collapsible()): the union of the boxes is the hull of
      // the first and last.
      int64_t lo = std::min(vals[r], lastVals[r]);
      int64_t hiFirst = isInterval ? vals[r + 1] : vals[r] + 1;
      int64_t hiLast = isInterval ? lastVals[r + 1] : lastVals[r] + 1;
      r += isInterval ? 2 : 1;
      b.lo.push_back(lo);
      b.hi.push_back(std::max(hiFirst, hiLast));
    }
    // A scalar variable (or one accessed whole) has one element.
    if (intervals.empty())
      for (size_t i = 0; i < var.shape.size(); ++i) {
        b.lo.push_back(0);
        b.hi.push_back(var.shape[i] < 0 ? gpuir::kUnboundedExtent
                                        : var.shape[i]);
      }
    cachedWindow = {map, &var, std::move(dims), std::move(lastDims),
                    ArrayRef<bool>(intervals), b};
    return b;
  }

  bool conditionHolds(GuardOp guard) {
    if (guard.getPredicates().empty())
      return true;
    SmallVector<int64_t> dims;
    for (Value v : guard.getOperands())
      dims.push_back(env.lookup(v));
    SmallVector<int64_t> vals = evalMap(guard.getMap(), dims);
    for (auto [i, p] : llvm::enumerate(guard.getPredicates())) {
      int64_t l = vals[2 * i], r = vals[2 * i + 1];
      bool ok = false;
      switch (static_cast<gpuir::CmpPredicate>(p)) {
      case gpuir::CmpPredicate::eq:
        ok = l == r;
        break;
      case gpuir::CmpPredicate::lt:
        ok = l < r;
        break;
      case gpuir::CmpPredicate::le:
        ok = l <= r;
        break;
      case gpuir::CmpPredicate::gt:
        ok = l > r;
        break;
      case gpuir::CmpPredicate::ge:
        ok = l >= r;
        break;
      }
      if (!ok)
        return false;
    }
    return true;
  }

  /// Narrows the current threads by a tile or slice of a mapping.
  bool narrow(Attribute mapping, int64_t i) {
    if (auto tile = dyn_cast<TileAttr>(mapping)) {
      int64_t c = (tile.getOffset() + i * tile.getStep()) / tile.getDiv();
      if (tile.getMod())
        c %= tile.getMod();
      int64_t d = tile.getDim();
      if (d >= static_cast<int64_t>(current.lo.size()))
        return false;
      current.lo[d] += c;
      current.hi[d] = current.lo[d] + tile.getBox();
      return true;
    }
    if (auto slice = dyn_cast<SliceAttr>(mapping)) {
      int64_t d = slice.getDim();
      if (d >= static_cast<int64_t>(current.lo.size()))
        return false;
      int64_t start = current.lo[d];
      current.lo[d] = start + slice.getLo();
      current.hi[d] = start + slice.getHi();
      return true;
    }
    if (auto list = dyn_cast<ArrayAttr>(mapping)) {
      for (Attribute a : list)
        if (!narrow(a, i))
          return false;
      return true;
    }
    return false;
  }

  void exec(Operation *op) {
    if (auto loop = dyn_cast<LoopOp>(op))
      return execLoop(loop);
    if (auto guard = dyn_cast<GuardOp>(op)) {
      ThreadSet saved = current;
      if (auto threads = guard.getThreads()) {
        if (auto domainAttr = dyn_cast<DomainAttr>(*threads);
            domainAttr && domainAttr.getExtents().size() > kMaxDomainRank) {
          report(guard, "the synchronization check supports thread domains "
                        "of at most " +
                            std::to_string(kMaxDomainRank) +
                            " dimensions; this device function's has " +
                            std::to_string(domainAttr.getExtents().size()),
                 {});
          return;
        }
        if (auto domainAttr = dyn_cast<DomainAttr>(*threads)) {
          domains.push_back(std::make_unique<SmallVector<int64_t>>(
              domainAttr.getExtents()));
          current.kind = ThreadSet::Device;
          current.domain = domains.back().get();
          current.lo.assign(domainAttr.getExtents().size(), 0);
          current.hi.assign(domainAttr.getExtents().begin(),
                            domainAttr.getExtents().end());
        } else {
          narrow(*threads, 0);
        }
      }
      if (conditionHolds(guard))
        runBlock(guard.getBody().front());
      else if (!guard.getElseBody().empty())
        runBlock(guard.getElseBody().front());
      current = saved;
      return;
    }
    if (auto alloc = dyn_cast<AllocOp>(op)) {
      if (alloc.getShared() && current.kind == ThreadSet::Device)
        checkPendingFrees(current.task, alloc,
                          "a later allocation that may take its memory");
      auto var = std::make_unique<Var>();
      var->name = alloc.getName().str();
      var->shape.assign(alloc.getShape().begin(), alloc.getShape().end());
      var->shared = alloc.getShared();
      var->global = current.kind == ThreadSet::Cpu;
      var->alloc = op;
      if (auto bt = dyn_cast<BarrierType>(alloc.getResult().getType())) {
        var->isBarrier = true;
        var->mechanism = bt.getMechanism();
      }
      var->extents = var->shape;
      if (std::optional<AffineMap> map = alloc.getExtents()) {
        SmallVector<int64_t> dims;
        for (Value v : alloc.getExtentOperands())
          dims.push_back(env.lookup(v));
        SmallVector<int64_t> declared = evalMap(*map, dims);
        for (auto [d, extent] : llvm::enumerate(var->extents))
          if (extent < 0)
            extent = declared[d];
      }
      if (std::optional<int64_t> arrivals = alloc.getArrivals())
        var->arrivals = *arrivals;
      vars[alloc.getResult()] = var.get();
      storage.push_back(std::move(var));
      return;
    }
    if (auto freeOp = dyn_cast<FreeOp>(op))
      return execFree(freeOp);
    if (auto rec = dyn_cast<RecordReadOp>(op))
      return record(op, rec.getVariable(), rec.getIndices(), rec.getMap(),
                    rec.getIntervals(), rec.getQuals(), false,
                    rec.getOutOfOrder());
    if (auto rec = dyn_cast<RecordMutateOp>(op))
      return record(op, rec.getVariable(), rec.getIndices(), rec.getMap(),
                    rec.getIntervals(), rec.getQuals(), true,
                    rec.getOutOfOrder());
    if (auto check = dyn_cast<CheckReadsOp>(op))
      return execCheck(op, check.getVariable(), check.getIndices(),
                       check.getMap(), check.getIntervals(), check.getQuals(),
                       /*mutate=*/false, check.getRequiredLevel());
    if (auto check = dyn_cast<CheckMutatesOp>(op))
      return execCheck(op, check.getVariable(), check.getIndices(),
                       check.getMap(), check.getIntervals(), check.getQuals(),
                       /*mutate=*/true, check.getRequiredLevel());
    if (isa<CheckBarrierOp>(op))
      return;
    if (auto fence = dyn_cast<FenceOp>(op)) {
      uint32_t pre = static_cast<uint32_t>(fence.getPre());
      SmallVector<Captured> captured = capture(pre, fence.getTransitive(), op);
      publish(captured, syncActors(), static_cast<uint32_t>(fence.getFull()),
              static_cast<uint32_t>(fence.getTemporal()), op);
      return;
    }
    if (auto arrive = dyn_cast<ArriveOp>(op))
      return execArrive(arrive);
    if (auto await = dyn_cast<AwaitOp>(op))
      return execAwait(await);
  }

  /// The threads a synchronization statement acts for: at CPU scope the
  /// whole stream (a launch or a stream synchronization), else the current
  /// collective.
  ThreadSet syncActors() {
    if (current.kind == ThreadSet::Cpu) {
      ThreadSet all;
      all.kind = ThreadSet::Everything;
      return all;
    }
    return current;
  }

  void execLoop(LoopOp loop) {
    int64_t lb = eval(loop.getLowerMap().getResult(0), loop.getLowerOperands());
    int64_t ub = eval(loop.getUpperMap().getResult(0), loop.getUpperOperands());
    Value iv = loop.getBody().getArgument(0);
    bool threadLoop = loop.getThreads().has_value();
    // Each iteration of the innermost loop over tasks is a device task.
    bool newTask = loop.getTasks() &&
                   llvm::none_of(loop.getBody().front().getOps<LoopOp>(),
                                 [](LoopOp inner) { return inner.getTasks(); });
    if (!threadLoop && !loop.getTasks() && lb < ub && collapsible(loop)) {
      // One pass for the whole range: the same threads make the same
      // in-order accesses in every iteration, so the iterations cannot race
      // with each other and each access covers the union of its elements.
      env[iv] = lb;
      collapsed[iv] = ub - 1;
      runBlock(loop.getBody().front());
      collapsed.erase(iv);
      return;
    }
    for (int64_t i = lb; i < ub && !stopped(); ++i) {
      env[iv] = i;
      ThreadSet saved = current;
      if (newTask) {
        current.task = nextTask++;
        if (current.kind == ThreadSet::Device)
          current.lo.assign(current.lo.size(), 0),
              current.hi.assign(current.domain->begin(),
                                current.domain->end());
      } else if (threadLoop) {
        narrow(*loop.getThreads(), i - lb);
      }
      if (!threadLoop)
        iterationKeys.push_back({loop, i});
      runBlock(loop.getBody().front());
      if (!threadLoop)
        iterationKeys.pop_back();
      if (newTask) {
        checkPendingFrees(current.task, loop,
                          "the CTA's next task reuses its memory after the "
                          "barrier that ends this one");
        summarizeTask(current.task);
        // No collective of a finished task synchronizes again.
        taskRecords.erase(current.task);
        taskTokens.erase(current.task);
        events.erase(current.task);
      }
      current = saved;
    }
  }

  /// Whether a sequential loop can run as one pass over its whole range: its
  /// body (and nested loops) only checks and records in-order accesses, and
  /// every coordinate depends on at most one of the collapsed loop
  /// variables, with coefficient -1, 0 or 1, each variable in at most one
  /// coordinate, so that the union of an access's boxes is a box.
  bool collapsible(LoopOp loop) {
    auto it = collapsibleCache.find(loop);
    if (it != collapsibleCache.end())
      return it->second;
    SmallVector<Value> ivs;
    bool ok = true;
    loop.walk([&](Operation *op) {
      if (auto inner = dyn_cast<LoopOp>(op)) {
        if (inner.getThreads() || inner.getTasks())
          ok = false;
        ivs.push_back(inner.getBody().getArgument(0));
        return;
      }
      if (isa<CheckReadsOp, CheckMutatesOp>(op))
        return;
      if (auto r = dyn_cast<RecordReadOp>(op)) {
        ok &= !r.getOutOfOrder();
        return;
      }
      if (auto r = dyn_cast<RecordMutateOp>(op)) {
        ok &= !r.getOutOfOrder();
        return;
      }
      ok = false;
    });
    if (ok)
      loop.walk([&](Operation *op) {
        if (!isa<CheckReadsOp, CheckMutatesOp, RecordReadOp, RecordMutateOp>(
                op))
          return;
        AffineMap map = cast<AffineMapAttr>(op->getAttr("map")).getValue();
        ValueRange operands = op->getOperands().drop_front();
        SmallVector<unsigned> dimsOf(ivs.size(), 0);
        for (AffineExpr e : map.getResults()) {
          unsigned depending = 0;
          for (auto [k, iv] : llvm::enumerate(ivs)) {
            std::optional<int64_t> c = coefficient(e, operands, iv);
            if (!c || *c < -1 || *c > 1) {
              ok = false;
              return;
            }
            if (*c) {
              ++depending;
              ++dimsOf[k];
            }
          }
          ok &= depending <= 1;
        }
        for (unsigned n : dimsOf)
          ok &= n <= 2; // lo and hi of one interval
      });
    collapsibleCache[loop] = ok;
    return ok;
  }

  /// The coefficient of `v` in `e` (over `operands`), if `e` is linear in it.
  static std::optional<int64_t> coefficient(AffineExpr e, ValueRange operands,
                                            Value v) {
    if (isa<AffineConstantExpr>(e))
      return 0;
    if (auto d = dyn_cast<AffineDimExpr>(e))
      return operands[d.getPosition()] == v ? 1 : 0;
    if (isa<AffineSymbolExpr>(e))
      return 0;
    auto bin = cast<AffineBinaryOpExpr>(e);
    std::optional<int64_t> l = coefficient(bin.getLHS(), operands, v);
    std::optional<int64_t> r = coefficient(bin.getRHS(), operands, v);
    if (!l || !r)
      return std::nullopt;
    switch (e.getKind()) {
    case AffineExprKind::Add:
      return *l + *r;
    case AffineExprKind::Mul:
      if (auto c = dyn_cast<AffineConstantExpr>(bin.getRHS()))
        return *l * c.getValue();
      if (auto c = dyn_cast<AffineConstantExpr>(bin.getLHS()))
        return *r * c.getValue();
      return (*l || *r) ? std::nullopt : std::optional<int64_t>(0);
    default:
      // floordiv, ceildiv, mod: only if the variable does not appear.
      return (*l || *r) ? std::nullopt : std::optional<int64_t>(0);
    }
  }

  Var *lookup(Operation *op, Value v) {
    Var *var = vars.lookup(v);
    if (var && var->freed) {
      report(op, "use after free: " + describe(current) + " use " + var->name + " after it was freed",
             {{var->freeOp, "freed here"}});
      return nullptr;
    }
    return var;
  }

  void record(Operation *op, Value v, ValueRange indices, AffineMap map,
              ArrayRef<bool> intervals, QualTimeline q, bool mutate,
              bool outOfOrder) {
    Var *var = lookup(op, v);
    if (!var)
      return;
    auto r = std::make_shared<Record>();
    r->region = evalWindow(*var, indices, map, intervals);
    r->actors = current;
    r->qual = static_cast<uint32_t>(q);
    r->mutate = mutate;
    r->outOfOrder = outOfOrder;
    r->op = op;
    r->var = var;
    r->seq = ++seq;
    if (!outOfOrder)
      r->vis.push_back({current, r->qual, Level::fully_ordered, nullptr});
    // Drop what this access supersedes: older accesses it covers that were
    // already ordered before it on its own timeline (a write, in order or
    // not: whatever must be ordered after the old access must be ordered
    // after this one, which covers it and comes later), or the same
    // threads' earlier in-order reads of part of the region (a read).
    // Without this the asynchronous copies into a ring of stages would
    // pile up, one record per iteration, and every synchronization would
    // rescan them.
    if (mutate) {
      forEachOverlap(*var, r->region, /*includeReads=*/true,
                     [&](const RecordPtr &o) {
                       return r->region.contains(o->region) &&
                              visibleTo(*o, current, r->qual,
                                        Level::temporally_ordered);
                     });
    } else if (!mutate && !outOfOrder) {
      // The same threads' earlier in-order reads on the same timeline that
      // this read covers say nothing more: find them by their threads.
      llvm::hash_code key = llvm::hash_combine(
          current.task, r->qual,
          llvm::hash_combine_range(current.lo.begin(), current.lo.end()),
          llvm::hash_combine_range(current.hi.begin(), current.hi.end()));
      auto [entry, inserted] = var->readsBy.try_emplace(key);
      if (inserted && current.kind == ThreadSet::Device)
        readsByOfTask[current.task].push_back({var, key});
      auto &list = entry->second;
      llvm::erase_if(list, [&](const RecordPtr &o) {
        if (o->actors == current && o->qual == r->qual &&
            r->region.contains(o->region)) {
          o->dead = true;
          o->var->unindex(o.get());
          return true;
        }
        return false;
      });
      if (list.size() >= 64)
        list.erase(list.begin());
      list.push_back(r);
    }
    Var::Index &index = mutate ? var->writes : var->reads;
    std::optional<ElementKey> pointKey =
        isPoint(r->region) ? ElementKey::of(r->region.lo) : std::nullopt;
    if (pointKey) {
      index.points.emplace(*pointKey, r);
    } else {
      index.boxes.insert(r);
    }
    if (current.kind == ThreadSet::Device)
      taskRecords[current.task].push_back(r);
    lastRecords[lastRecordsNext++ % lastRecords.size()] = r;
  }

  static bool isPoint(const Box &b) { return isPointBox(b); }

  /// Calls `drop(record)` on each record of `index` that overlaps `box`,
  /// erasing those for which it returns true.
  template <typename Fn>
  static void forEachOverlap(Var::Index &index, const Box &box, Fn drop) {
    auto &points = index.points;
    auto it = points.begin(), end = points.end();
    std::optional<ElementKey> lo = ElementKey::of(box.lo);
    if (lo && !box.lo.empty()) {
      it = points.lower_bound(*lo);
      if (isPoint(box)) {
        end = points.upper_bound(*lo);
      } else {
        ElementKey hi = *lo;
        std::fill(hi.v.begin(), hi.v.begin() + hi.n, INT64_MIN);
        hi.v[0] = box.hi[0];
        end = points.lower_bound(hi);
      }
    }
    sweep(points, it, end, box, drop);
    sweepBoxes(index.boxes, box, drop);
    sweepBoxes(index.summaries, box, drop);
  }

  template <typename Fn>
  static void sweepBoxes(Var::Boxes &index, const Box &box, Fn &drop) {
    auto &boxes = index.map;
    if (boxes.empty())
      return;
    if (box.lo.empty()) {
      sweep(boxes, boxes.begin(), boxes.end(), box, drop);
      return;
    }
    constexpr int64_t lowest = std::numeric_limits<int64_t>::min();
    auto bit = boxes.lower_bound({box.lo[0] - index.maxSpan + 1, lowest});
    if (box.lo.size() == 1) {
      sweep(boxes, bit, boxes.lower_bound({box.hi[0], lowest}), box, drop);
      return;
    }
    // Each first coordinate in range, then only the second coordinates
    // that can reach the box.
    while (bit != boxes.end() && bit->first.first < box.hi[0]) {
      int64_t row = bit->first.first;
      auto rowBegin =
          boxes.lower_bound({row, box.lo[1] - index.maxSpan1 + 1});
      auto rowEnd = boxes.lower_bound({row, box.hi[1]});
      sweep(boxes, rowBegin, rowEnd, box, drop);
      bit = boxes.lower_bound({row + 1, lowest});
    }
  }

  /// Visits the records in [it, end) that overlap `box`, erasing (and
  /// killing) those `drop` returns true for and any already dead.
  template <typename Map, typename Fn>
  static void sweep(Map &map, typename Map::iterator it,
                    typename Map::iterator end, const Box &box, Fn &drop) {
    while (it != end) {
      Record &r = *it->second;
      if (r.dead || (r.region.overlaps(box) && drop(it->second))) {
        r.dead = true;
        it = map.erase(it);
      } else {
        ++it;
      }
    }
  }

  template <typename Fn>
  static void forEachOverlap(Var &var, const Box &box, bool includeReads,
                             Fn drop) {
    forEachOverlap(var.writes, box, drop);
    if (includeReads)
      forEachOverlap(var.reads, box, drop);
  }

  void execCheck(Operation *op, Value v, ValueRange indices, AffineMap map,
                 ArrayRef<bool> intervals, QualTimeline q, bool mutate,
                 Level required) {
    Var *var = lookup(op, v);
    if (!var)
      return;
    Box region = evalWindow(*var, indices, map, intervals);
    uint32_t qual = static_cast<uint32_t>(q);
    if (!inBounds(op, *var, region, mutate))
      return;
    RecordPtr hazard;
    bool proxyHazard = false;
    forEachOverlap(*var, region, /*includeReads=*/mutate,
                   [&](const RecordPtr &r) {
      if (hazard || !(mutate || r->mutate))
        return false;
      // A write through the async proxy (TMA) of bytes that the generic
      // proxy wrote: the PTX memory model orders accesses of different
      // proxies only through a proxy fence, so time order is not enough.
      bool crossProxy = mutate && r->mutate && isAsyncProxyWrite(qual) &&
                        isGenericProxyWrite(r->qual);
      if (!visibleTo(*r, current, qual,
                     crossProxy ? Level::fully_ordered : required)) {
        hazard = r;
        proxyHazard = crossProxy &&
                      visibleTo(*r, current, qual, required);
      }
      return false;
    });
    if (RecordPtr r = hazard) {
      std::string kind = hazardName(hazardKind(mutate, r->mutate));
      std::string verb = mutate ? "write" : "read";
      std::string earlier = r->mutate ? "written" : "read";
      std::string message =
          kind + " hazard: " + describe(current) + " " + verb + " " +
          describe(*var, region) + " on " + qualName(qual) + ", " + earlier +
          " by " + describe(r->actors) + " on " + qualName(r->qual) +
          " without synchronization that orders it before";
      SmallVector<std::pair<Operation *, std::string>> notes;
      notes.push_back({r->op, std::string("the earlier ") +
                                  (r->mutate ? "write" : "read") + " of " +
                                  describe(*var, r->region)});
      if (proxyHazard)
        notes.push_back(
            {lastSyncFor(*r, current) ? lastSyncFor(*r, current) : r->op,
             "this synchronization orders the generic-proxy write before "
             "the async-proxy write only in time; accesses of different "
             "proxies are ordered by a proxy fence: write it as gpuir.fence "
             "cuda_in_order -> cuda_generic_and_async_proxy "
             "(fence.proxy.async)"});
      else if (Operation *sync = lastSyncFor(*r, current);
               sync && !mutate && isAsyncProxyAccess(qual) &&
               isGenericProxyWrite(r->qual))
        notes.push_back(
            {sync, "this synchronization orders the earlier write for " +
                       describe(current) + ", but its second timeline "
                       "leaves out " + qualName(qual) +
                       ": a write of the generic proxy is read through the "
                       "async proxy only after a fence to it (gpuir.fence "
                       "cuda_in_order -> cuda_generic_and_async_proxy, "
                       "which is fence.proxy.async)"});
      else if (const SyncEvent *missed = missedSync(*r))
        notes.push_back(
            {missed->op, "this synchronization by " +
                             describe(missed->actors) +
                             " does not include " + qualName(r->qual) +
                             " in its first timeline, so it does not order "
                             "the earlier access"});
      else if (Operation *sync = lastSyncFor(*r, current))
        notes.push_back(
            {sync, "this synchronization orders it, but not for " +
                       describe(current) + " on " + qualName(qual) +
                       " at the level needed"});
      else if (!r->captured && isAsync(r->qual))
        notes.push_back({r->op, "the asynchronous access is never waited for "
                                "(no fence, arrive or await on its timeline "
                                "captures it)"});
      else if (const Vis *other = lastVisVia(*r))
        notes.push_back(
            {other->via, "this synchronization is too weak: it orders the "
                         "earlier access for " + describe(other->threads) +
                         " only, not for " + describe(current) +
                         "; synchronize a collective that holds both (a "
                         "fence of their common unit, or a barrier they "
                         "both arrive on and await)"});
      report(op, message, notes);
    }
  }

  /// Whether every element of `region` lies inside the variable's extents
  /// (those it knows); else reports the access. An index outside its
  /// buffer lands in whatever code generation placed next to it: a race
  /// with that buffer's accesses that no record here would show.
  bool inBounds(Operation *op, const Var &var, const Box &region,
                bool mutate) {
    for (size_t d = 0; d < region.lo.size() && d < var.extents.size(); ++d) {
      int64_t extent = var.extents[d];
      // An unbounded end is the whole dimension (a buffer passed whole).
      int64_t hi = region.hi[d] >= gpuir::kUnboundedExtent ? extent
                                                           : region.hi[d];
      if (extent < 0 || hi <= region.lo[d] ||
          (region.lo[d] >= 0 && hi <= extent))
        continue;
      int64_t outside = region.lo[d] < 0 ? region.lo[d] : region.hi[d] - 1;
      report(op, "out-of-bounds access: " + describe(current) + " " +
                     (mutate ? "write " : "read ") + describe(var, region) +
                     ", but index " + std::to_string(outside) +
                     " of dimension " + std::to_string(d) +
                     " is outside its extent " + std::to_string(extent),
             {{var.alloc, var.name + " is declared here"}});
      return false;
    }
    return true;
  }

  /// Merges `r` into `into` when both are the same threads' accesses of one
  /// variable on one timeline with the same visibility and `r` continues
  /// `into` along one dimension (without moving its first coordinate, which
  /// indexes it). `r` is then dead.
  /// Whether two records' visibility lists hold the same entries.
  static bool sameVis(const Record &a, const Record &b) {
    if (a.vis.size() != b.vis.size())
      return false;
    for (const Vis &v : b.vis)
      if (llvm::none_of(a.vis, [&](const Vis &o) {
            return o.level == v.level && o.quals == v.quals &&
                   o.threads == v.threads;
          }))
        return false;
    return true;
  }

  static bool mergeInto(Record &into, Record &r) {
    if (into.var != r.var || !(into.actors == r.actors) ||
        into.qual != r.qual || into.mutate != r.mutate ||
        into.outOfOrder != r.outOfOrder || into.captured != r.captured ||
        into.claimed != r.claimed)
      return false;
    int axis = continuingAxis(into.region, r.region);
    if (axis == -1 || !sameVis(into, r))
      return false;
    into.region.hi[axis] = r.region.hi[axis];
    Var::Index &index = into.mutate ? into.var->writes : into.var->reads;
    index.boxes.noteSpans(into.region);
    r.dead = true;
    r.var->unindex(&r);
    return true;
  }

  /// Once a task is over, no later access is by its threads: what its
  /// threads could see of its own accesses no longer matters, and its box
  /// records of a global variable made by one op that differ only in their
  /// threads (the rows of C that its threads wrote) become one record over
  /// the union of the boxes and of the threads. Keeps the memory of the
  /// check proportional to the tiles written, not to the threads.
  void summarizeTask(int64_t task) {
    // Its threads' recent reads are never looked up again.
    if (auto keys = readsByOfTask.find(task); keys != readsByOfTask.end()) {
      for (auto [var, key] : keys->second)
        var->readsBy.erase(key);
      readsByOfTask.erase(keys);
    }
    auto it = taskRecords.find(task);
    if (it == taskRecords.end())
      return;
    SmallVector<RecordPtr> live;
    for (auto &w : it->second)
      if (RecordPtr r = w.lock(); r && !r->dead && r->var->global &&
                                  r->actors.kind == ThreadSet::Device &&
                                  r->actors.task == task)
        live.push_back(r);
    for (RecordPtr &r : live)
      llvm::erase_if(r->vis, [&](const Vis &v) {
        return v.threads.kind == ThreadSet::Device && v.threads.task == task;
      });
    std::stable_sort(live.begin(), live.end(),
                     [](const RecordPtr &a, const RecordPtr &b) {
                       if (a->var != b->var)
                         return a->var->name < b->var->name;
                       return std::lexicographical_compare(
                           a->region.lo.begin(), a->region.lo.end(),
                           b->region.lo.begin(), b->region.lo.end());
                     });
    Record *into = nullptr;
    llvm::SmallPtrSet<Record *, 8> grown;
    for (RecordPtr &r : live) {
      bool merged = false;
      if (into && !isPoint(r->region) && !isPoint(into->region) &&
          into->var == r->var && into->op == r->op && into->qual == r->qual &&
          into->mutate == r->mutate && into->outOfOrder == r->outOfOrder &&
          into->captured == r->captured && sameVis(*into, *r) &&
          into->actors.lo.size() == r->actors.lo.size()) {
        int axis = continuingAxis(into->region, r->region);
        if (axis != -1) {
          into->region.hi[axis] = r->region.hi[axis];
          for (size_t d = 0; d < into->actors.lo.size(); ++d) {
            into->actors.lo[d] = std::min(into->actors.lo[d], r->actors.lo[d]);
            into->actors.hi[d] = std::max(into->actors.hi[d], r->actors.hi[d]);
          }
          Var::Index &index = r->mutate ? r->var->writes : r->var->reads;
          index.boxes.erase(r.get());
          if (grown.insert(into).second)
            index.boxes.erase(into);
          r->dead = true;
          merged = true;
        }
      }
      if (!merged)
        into = r.get();
    }
    // The merged records move to the summaries with their final extents.
    for (RecordPtr &r : live)
      if (grown.contains(r.get())) {
        Var::Index &index = r->mutate ? r->var->writes : r->var->reads;
        index.summaries.insert(r);
      }
    tileTask(live);
  }

  /// The records of one op of a finished task (same variable, timeline,
  /// mode and visibility) that tile a box exactly, each element once, become
  /// one record of that box (groups of kTileRecords or more): a
  /// warpgroup's accumulators written to C as pairs of elements by 128
  /// threads, 8192 records, become one tile.
  /// Nothing is lost: the elements are the same, their visibility is the
  /// same, and the threads that made them are the task's, no longer running.
  static constexpr size_t kTileRecords = 256;
  void tileTask(SmallVector<RecordPtr> &live) {
    std::map<std::tuple<Var *, Operation *, uint32_t, bool, bool, uint8_t>,
             SmallVector<RecordPtr>>
        groups;
    for (RecordPtr &r : live)
      if (!r->dead)
        groups[{r->var, r->op, r->qual, r->mutate, r->outOfOrder,
                uint8_t(r->captured) | uint8_t(r->claimed) << 1}]
            .push_back(r);
    for (auto &[key, group] : groups) {
      // Small groups stay apart: a later hazard against one of them names
      // the exact thread and element; large ones (the cost this saves) are
      // reported as their tile.
      if (group.size() < kTileRecords)
        continue;
      Record &first = *group.front();
      Box box = first.region;
      int64_t elements = 0;
      bool ok = true;
      for (RecordPtr &r : group) {
        if (!sameVis(first, *r) || r->region.lo.size() != box.lo.size() ||
            r->actors.lo.size() != first.actors.lo.size()) {
          ok = false;
          break;
        }
        int64_t n = 1;
        for (size_t d = 0; d < box.lo.size(); ++d) {
          box.lo[d] = std::min(box.lo[d], r->region.lo[d]);
          box.hi[d] = std::max(box.hi[d], r->region.hi[d]);
          n *= r->region.hi[d] - r->region.lo[d];
        }
        elements += n;
      }
      int64_t volume = 1;
      for (size_t d = 0; ok && d < box.lo.size(); ++d)
        volume *= box.hi[d] - box.lo[d];
      // Exact tiling: as many elements as the box, none twice.
      if (!ok || elements != volume || volume > (int64_t(1) << 24))
        continue;
      std::vector<bool> seen(size_t(volume), false);
      for (RecordPtr &r : group) {
        SmallVector<int64_t> at(r->region.lo.begin(), r->region.lo.end());
        while (ok) {
          int64_t linear = 0;
          for (size_t d = 0; d < box.lo.size(); ++d)
            linear = linear * (box.hi[d] - box.lo[d]) + (at[d] - box.lo[d]);
          if (seen[size_t(linear)]) {
            ok = false;
            break;
          }
          seen[size_t(linear)] = true;
          size_t d = at.size();
          while (d > 0) {
            --d;
            if (++at[d] < r->region.hi[d])
              break;
            at[d] = r->region.lo[d];
            if (d == 0) {
              d = size_t(-1);
              break;
            }
          }
          if (d == size_t(-1) || at.empty())
            break;
        }
        if (!ok)
          break;
      }
      if (!ok)
        continue;
      Var &var = *first.var;
      Var::Index &index = first.mutate ? var.writes : var.reads;
      for (RecordPtr &r : group)
        var.unindex(r.get());
      Record &into = first;
      into.region = box;
      for (RecordPtr &r : llvm::drop_begin(group)) {
        for (size_t d = 0; d < into.actors.lo.size(); ++d) {
          into.actors.lo[d] = std::min(into.actors.lo[d], r->actors.lo[d]);
          into.actors.hi[d] = std::max(into.actors.hi[d], r->actors.hi[d]);
        }
        r->dead = true;
      }
      index.summaries.insert(group.front());
    }
  }

  static void markCaptured(Record &r, Operation *by) {
    r.captured = true;
    if (!llvm::is_contained(r.capturedBy, by)) {
      if (r.capturedBy.size() == 4)
        r.capturedBy.erase(r.capturedBy.begin());
      r.capturedBy.push_back(by);
    }
  }

  /// A fence or arrive that the earlier access's threads made after it,
  /// whose first timeline left the access out: the likely mistake.
  const SyncEvent *missedSync(const Record &r) {
    auto it = events.find(r.actors.kind == ThreadSet::Device ? r.actors.task
                                                              : -1);
    if (it == events.end())
      return nullptr;
    for (const SyncEvent &e : llvm::reverse(it->second))
      if (e.seq > r.seq && !(e.pre & r.qual) && e.actors.intersects(r.actors) &&
          !llvm::is_contained(r.capturedBy, e.op))
        return &e;
    return nullptr;
  }

  /// The last synchronization that widened a record's visibility to threads
  /// overlapping `t`.
  Operation *lastSyncFor(const Record &r, const ThreadSet &t) {
    Operation *found = nullptr;
    for (const Vis &v : r.vis)
      if (v.via && v.threads.intersects(t))
        found = v.via;
    return found;
  }

  /// The last synchronization that made a record visible to anyone.
  static const Vis *lastVisVia(const Record &r) {
    const Vis *found = nullptr;
    for (const Vis &v : r.vis)
      if (v.via)
        found = &v;
    return found;
  }

  /// The accesses a synchronization by the current threads on `pre`
  /// captures: their own on those timelines, and (when transitive) those
  /// that earlier synchronization made fully visible to them on `pre`. A
  /// transitive synchronization also carries time order: an access already
  /// ordered before these threads on any timeline is ordered before what
  /// follows the synchronization (captured temporally only).
  SmallVector<Captured> capture(uint32_t pre, bool transitive, Operation *op,
                                bool claim = false) {
    ThreadSet s = syncActors();
    events[s.kind == ThreadSet::Device ? s.task : -1].push_back(
        {++seq, op, s, pre});
    SmallVector<Captured> out;
    auto consider = [&](const RecordPtr &r) {
        // A token travels with every synchronization of threads ordered
        // after it, whatever its timelines: one thread of a fence's
        // collective suffices (the fence waits for all of them), and so
        // does one arrival of a phase (it completes after all of them).
        if (r->var->isToken) {
          if (!r->dead && (tokenSeen(*r, s, /*byAll=*/false) ||
                           tokenTakenBy(*r, s)))
            out.push_back({r, true});
          return;
        }
        // An arrive after TMA copies takes only those no earlier such arrive
        // took: each copy completes on one mbarrier.
        if (claim && r->claimed)
          return;
        bool full = (r->qual & pre) && r->actors.intersects(s);
        if (claim && full)
          r->claimed = true;
        bool temporal = false;
        if (transitive && !full)
          for (const Vis &v : r->vis) {
            if (!v.threads.intersects(s))
              continue;
            if ((v.quals & pre) && v.level == Level::fully_ordered) {
              full = true;
              break;
            }
            if (v.level >= Level::temporally_ordered)
              temporal = true;
          }
        if (full || temporal) {
          markCaptured(*r, op);
          out.push_back({r, full});
        }
    };
    if (s.kind == ThreadSet::Device) {
      // A device collective can only capture its own task's accesses.
      auto &list = taskRecords[s.task];
      size_t kept = 0;
      // The last box record of each global variable, threads and timeline
      // seen in this scan: a record that continues it with the same
      // visibility is merged into it, so the loads of consecutive tiles of a
      // matrix stay one record instead of one per iteration. (Task-local
      // buffers are freed with their task and keep their records apart, for
      // precise reports.)
      SmallVector<std::pair<llvm::hash_code, Record *>, 8> lastBox;
      out.reserve(list.size());
      for (size_t i = 0; i < list.size(); ++i) {
        RecordPtr r = list[i].lock();
        if (!r || r->dead)
          continue;
        if (r->var->global && !isPoint(r->region)) {
          llvm::hash_code key = llvm::hash_combine(
              r->var, r->qual, r->mutate, r->outOfOrder,
              llvm::hash_combine_range(r->actors.lo.begin(),
                                       r->actors.lo.end()),
              llvm::hash_combine_range(r->actors.hi.begin(),
                                       r->actors.hi.end()));
          auto found = llvm::find_if(
              lastBox, [&](const auto &entry) { return entry.first == key; });
          if (found != lastBox.end() && mergeInto(*found->second, *r))
            continue;
          if (found != lastBox.end())
            found->second = r.get();
          else
            lastBox.push_back({key, r.get()});
        }
        consider(r);
        list[kept++] = list[i];
      }
      list.resize(kept);
      auto &tokenList = taskTokens[s.task];
      llvm::erase_if(tokenList, [](const std::weak_ptr<Record> &w) {
        RecordPtr r = w.lock();
        return !r || r->dead;
      });
      for (const std::weak_ptr<Record> &w : tokenList)
        consider(w.lock());
      return out;
    }
    for (auto &var : storage)
      if (!var->freed)
        var->forEachRecord(consider);
    return out;
  }

  /// Adds a visibility entry unless an existing one already implies it;
  /// drops the entries it implies. Keeps each record's list short however
  /// often its threads synchronize.
  static bool implied(const Record &r, const ThreadSet &to, uint32_t quals,
                      Level level) {
    for (const Vis &o : r.vis)
      if (o.level >= level && (o.quals & quals) == quals &&
          o.threads.contains(to))
        return true;
    return false;
  }

  static void addVis(Record &r, const Vis &v) {
    r.vis.erase(std::remove_if(r.vis.begin(), r.vis.end(),
                               [&](const Vis &o) {
                                 return v.level >= o.level &&
                                        (v.quals & o.quals) == o.quals &&
                                        v.threads.contains(o.threads);
                               }),
                r.vis.end());
    r.vis.push_back(v);
  }

  /// Makes captured records visible to `to`; with `ownOnly` (a commit
  /// group's wait) each only to the threads of `to` that made it.
  void publish(ArrayRef<Captured> records, const ThreadSet &toAll,
               uint32_t full, uint32_t temporal, Operation *via,
               bool ownOnly = false) {
    for (const Captured &c : records) {
      Record &r = *c.record;
      if (r.dead)
        continue;
      if (r.var->isToken) {
        // A thread's own commit groups order nothing for others.
        if (!ownOnly && !implied(r, toAll, ~0u, Level::fully_ordered))
          addVis(r, {toAll, ~0u, Level::fully_ordered, via});
        continue;
      }
      std::optional<ThreadSet> own =
          ownOnly ? r.actors.intersect(toAll) : std::optional<ThreadSet>(toAll);
      if (!own)
        continue;
      const ThreadSet &to = *own;
      if (!c.full) {
        if ((full | temporal) &&
            !implied(r, to, full | temporal, Level::temporally_ordered))
          addVis(r, {to, full | temporal, Level::temporally_ordered, via});
        continue;
      }
      if (full && !implied(r, to, full, Level::fully_ordered))
        addVis(r, {to, full, Level::fully_ordered, via});
      if ((temporal & ~full) &&
          !implied(r, to, temporal & ~full, Level::temporally_ordered))
        addVis(r, {to, temporal & ~full, Level::temporally_ordered, via});
    }
  }

  int64_t linearize(const Var &var, ArrayRef<int64_t> index) {
    int64_t l = 0;
    for (auto [i, d] : llvm::enumerate(var.shape))
      l = l * std::max<int64_t>(d, 1) + (i < index.size() ? index[i] : 0);
    return l;
  }

  /// The elements of a barrier window (several for a multicast).
  SmallVector<int64_t> elements(const Var &var, const Box &box) {
    SmallVector<int64_t> out;
    forEachPoint(box.lo, box.hi,
                 [&](ArrayRef<int64_t> idx) { out.push_back(linearize(var, idx)); });
    return out;
  }


  /// Whether threads `t` are ordered after the whole event a token stands
  /// for (every thread's part of it): some of them (enough for a
  /// collective's synchronization, which waits for all its threads, or for
  /// an arrival, whose phase completes after all its arrivals), or all.
  static bool tokenSeen(const Record &token, const ThreadSet &t, bool byAll) {
    for (const Vis &v : token.vis)
      if (v.level >= Level::temporally_ordered &&
          (byAll ? v.threads.contains(t) : v.threads.intersects(t)))
        return true;
    // All of `t`, through several entries (the warpgroups of a consumer
    // group, each of which awaited on its own).
    if (!byAll || t.kind != ThreadSet::Device)
      return false;
    int64_t n = threadCount(t);
    if (n == 0 || n > (int64_t(1) << 16))
      return false;
    std::vector<bool> seen(size_t(n), false);
    int64_t covered = 0;
    for (const Vis &v : token.vis) {
      if (v.level < Level::temporally_ordered)
        continue;
      std::optional<ThreadSet> part = v.threads.intersect(t);
      if (!part || part->kind != ThreadSet::Device)
        continue;
      forEachThread(*part, [&](ArrayRef<int64_t> c) {
        int64_t linear = 0;
        for (size_t i = 0; i < c.size(); ++i)
          linear = linear * (t.hi[i] - t.lo[i]) + (c[i] - t.lo[i]);
        if (!seen[size_t(linear)]) {
          seen[size_t(linear)] = true;
          ++covered;
        }
      });
    }
    return covered == n;
  }

  /// Calls `fn` with the coordinates of each thread of a device box.
  template <typename Fn>
  static void forEachThread(const ThreadSet &t, Fn fn) {
    forEachPoint(ArrayRef<int64_t>(t.lo.begin(), t.lo.end()),
                 ArrayRef<int64_t>(t.hi.begin(), t.hi.end()), fn);
  }


  /// Whether a synchronization by `s` orders the whole event of a token
  /// before what follows it: every thread of the event takes part, each
  /// after its own part of the event.
  static bool tokenTakenBy(const Record &token, const ThreadSet &s) {
    return threadCount(token.actors) > 0 && s.contains(token.actors);
  }

  /// A token for an event of the current threads now (none: a phase's
  /// completion, which no thread has observed yet). A single thread is
  /// ordered after its own event; a collective's threads only after their
  /// own parts of it, until a synchronization joins them.
  RecordPtr makeToken(bool byCurrent, Operation *op) {
    auto r = std::make_shared<Record>();
    r->var = &tokens;
    r->actors = current;
    if (!byCurrent)
      r->actors.hi = r->actors.lo;
    r->qual = 0;
    r->mutate = false;
    r->outOfOrder = false;
    r->op = op;
    r->seq = ++seq;
    if (byCurrent && threadCount(current) == 1)
      r->vis.push_back({current, ~0u, Level::fully_ordered, nullptr});
    if (current.kind == ThreadSet::Device)
      taskTokens[current.task].push_back(r);
    return r;
  }

  static int64_t threadCount(const ThreadSet &t) {
    if (t.kind != ThreadSet::Device)
      return 1;
    int64_t n = 1;
    for (size_t i = 0; i < t.lo.size(); ++i)
      n *= std::max<int64_t>(0, t.hi[i] - t.lo[i]);
    return n;
  }

  /// Whether the hardware counts a barrier's arrivals into phases (an
  /// mbarrier), which the checks of phase order below are about.
  static bool phased(const Var &var) {
    return var.mechanism == BarrierMechanism::mbarrier ||
           var.mechanism == BarrierMechanism::mbarrier_prearrive;
  }
  /// Whether a thread's arrivals on the barrier must alternate with the
  /// phases' completions: mbarriers, and the cluster barrier (a thread that
  /// arrives again before waiting may be counted in the phase it already
  /// arrived on).
  static bool ordersPhases(const Var &var) {
    return phased(var) || var.mechanism == BarrierMechanism::cluster_sync;
  }

  std::string elementName(const Var &var, int64_t e) {
    if (var.shape.empty())
      return var.name;
    return var.name + "[" + std::to_string(e) + "]";
  }

  /// The current threads arrive into phase `q` of an element: they must do
  /// so after phase q - 1 completed, or the hardware counts the arrival
  /// toward q - 1 (completing it early, with the arrivals of q still to
  /// come). Its awaiters, and what they synchronize with, are ordered after
  /// it; so is a single thread that alone made every arrival of q - 1.
  void checkArrivalOrder(ArriveOp arrive, const Var &var, int64_t e,
                         BarrierElem &elem, size_t q) {
    if (q == 0)
      return;
    Phase &prev = elem.phases[q - 1];
    if (tokenSeen(*prev.completion, current, /*byAll=*/true) ||
        llvm::all_of(prev.arrivals, [&](const RecordPtr &a) {
          return tokenSeen(*a, current, /*byAll=*/true);
        }))
      return;
    report(arrive, "arrive into an unfinished phase: " + describe(current) +
                       " arrive on " + elementName(var, e) + " for phase " +
                       std::to_string(q) + ", but nothing orders the arrive "
                       "after phase " + std::to_string(q - 1) +
                       " completes, so the hardware may count it toward "
                       "phase " + std::to_string(q - 1) +
                       "; await phase " + std::to_string(q - 1) +
                       " (or synchronize with its awaiters) before arriving",
           {{prev.op, "an arrive of phase " + std::to_string(q - 1)}});
  }

  /// Judges a phase that takes no more arrivals: every await of the phase
  /// before it must be followed by one of its arrivals.
  void closePhase(const Var &var, int64_t e, BarrierElem &elem, size_t q) {
    Phase &p = elem.phases[q];
    if (p.closed)
      return;
    p.closed = true;
    for (Follow &f : p.follows)
      if (!f.ordered) {
        reportRunAhead(var, e, f, p, q);
        break;
      }
    // What only the judgements of this phase needed.
    for (Follow &f : p.follows)
      f.token->dead = true;
    if (q > 0) {
      Phase &prev = elem.phases[q - 1];
      prev.completion->dead = true;
      for (RecordPtr &a : prev.arrivals)
        if (--a->holds <= 0)
          a->dead = true;
    }
  }

  void reportRunAhead(const Var &var, int64_t e, const Follow &f,
                      const Phase &next, size_t q) {
    report(f.await,
           "mbarrier phase run-ahead: phase " + std::to_string(q) + " of " +
               elementName(var, e) + " can complete before " +
               describe(f.awaiters) + " await phase " +
               std::to_string(int64_t(q) - 1) +
               ": the wait sees only the parity of the current phase, so it "
               "would miss phase " + std::to_string(int64_t(q) - 1) +
               " and wait for a later one; order an arrive of phase " +
               std::to_string(q) + " after this await",
           {{next.op, "an arrive of phase " + std::to_string(q) +
                          ", not ordered after the await"}});
  }

  /// A phase must get exactly the arrivals code generation initializes
  /// the mbarrier with: fewer never complete it (its awaiters hang), more
  /// complete it early and spill into the next phase.
  void checkCount(Operation *at, const Var &var, int64_t e, Phase &p,
                  size_t q) {
    if (var.arrivals < 0 || p.countChecked || p.threads == var.arrivals)
      return;
    p.countChecked = true;
    report(at, "arrive count mismatch: phase " + std::to_string(q) +
                   " of " + elementName(var, e) + " gets " +
                   std::to_string(p.threads) +
                   " thread arrivals, but code generation initializes the "
                   "mbarrier to complete a phase at " +
                   std::to_string(var.arrivals) +
                   " (the threads of its arrive statement); a phase with "
                   "fewer never completes, one with more completes early",
           {{p.op, "the arrive"}});
  }

  /// Arrivals on one barrier in one iteration of the enclosing sequential
  /// loops (by several collectives, or several instructions completing on
  /// it) make one phase.
  llvm::hash_code phaseKey() {
    llvm::hash_code h = llvm::hash_combine(current.task);
    for (auto &[loop, i] : iterationKeys)
      h = llvm::hash_combine(h, loop, i);
    return h;
  }

  void execArrive(ArriveOp arrive) {
    Var *var = lookup(arrive, arrive.getBarrier());
    if (!var)
      return;
    Box box = evalWindow(*var, arrive.getIndices(), arrive.getMap(),
                         arrive.getIntervals());
    SmallVector<Captured> captured;
    if (std::optional<int64_t> last = arrive.getLast()) {
      // An instruction completing on its trailing barrier: only its own
      // accesses, the threads' last records.
      events[current.kind == ThreadSet::Device ? current.task : -1].push_back(
          {++seq, arrive, current, static_cast<uint32_t>(arrive.getPre())});
      for (size_t i = 1; i <= lastRecords.size(); ++i) {
        const RecordPtr &r =
            lastRecords[(lastRecordsNext - i) % lastRecords.size()];
        if (!r || (int64_t)captured.size() >= *last)
          break;
        markCaptured(*r, arrive);
        captured.push_back({r, true});
      }
      // The instruction issues after what its threads were ordered after,
      // and completes later still.
      if (current.kind == ThreadSet::Device)
        for (const std::weak_ptr<Record> &w : taskTokens[current.task])
          if (RecordPtr r = w.lock();
              r && !r->dead && (tokenSeen(*r, current, false) ||
                                tokenTakenBy(*r, current)))
            captured.push_back({r, true});
    } else {
      uint32_t pre = static_cast<uint32_t>(arrive.getPre());
      bool tmaOnMbarrier =
          pre == static_cast<uint32_t>(QualTimeline::tma_to_smem_async) &&
          !gpuir::isCommitGroup(var->mechanism);
      captured = capture(pre, arrive.getTransitive(), arrive, tmaOnMbarrier);
    }
    llvm::hash_code key = phaseKey();
    RecordPtr arrival = ordersPhases(*var) ? makeToken(true, arrive) : nullptr;
    for (int64_t e : elements(*var, box)) {
      BarrierElem &elem = var->elems[e];
      bool commit = gpuir::isCommitGroup(var->mechanism);
      if (!commit && !elem.phases.empty() && elem.phases.back().key == key &&
          !elem.phases.back().awaited) {
        Phase &p = elem.phases.back();
        p.captured.append(captured.begin(), captured.end());
        p.arrivers.push_back(current);
        if (ordersPhases(*var))
          arriveInto(arrive, *var, e, elem, elem.phases.size() - 1, arrival);
        continue;
      }
      if (ordersPhases(*var) && !elem.phases.empty()) {
        closePhase(*var, e, elem, elem.phases.size() - 1);
        if (phased(*var) && !elem.awaited.empty())
          checkCount(elem.phases.back().op, *var, e, elem.phases.back(),
                     elem.phases.size() - 1);
      }
      elem.phases.push_back({key, false, captured, {current}, arrive});
      if (ordersPhases(*var)) {
        Phase &p = elem.phases.back();
        p.completion = makeToken(false, arrive);
        p.captured.push_back({p.completion, true});
        auto pending = elem.pending.find(elem.phases.size() - 1);
        if (pending != elem.pending.end()) {
          p.follows = std::move(pending->second);
          elem.pending.erase(pending);
        }
        arriveInto(arrive, *var, e, elem, elem.phases.size() - 1, arrival);
      }
    }
  }

  /// The current threads' arrival into phase `q` of an mbarrier element.
  void arriveInto(ArriveOp arrive, const Var &var, int64_t e,
                  BarrierElem &elem, size_t q, const RecordPtr &arrival) {
    Phase &p = elem.phases[q];
    p.threads += threadCount(current);
    ++arrival->holds;
    p.arrivals.push_back(arrival);
    p.captured.push_back({arrival, true});
    for (Follow &f : p.follows) {
      if (std::optional<ThreadSet> own = f.awaiters.intersect(current))
        f.selfArrived += threadCount(*own);
      f.ordered |= tokenSeen(*f.token, current, /*byAll=*/false) ||
                   f.selfArrived >= threadCount(f.awaiters);
    }
    checkArrivalOrder(arrive, var, e, elem, q);
  }

  /// Identifies the awaiting collective.
  size_t awaiterKey() {
    return llvm::hash_combine(
        current.task,
        llvm::hash_combine_range(current.lo.begin(), current.lo.end()),
        llvm::hash_combine_range(current.hi.begin(), current.hi.end()));
  }


  void execAwait(AwaitOp await) {
    Var *var = lookup(await, await.getBarrier());
    if (!var)
      return;
    Box box = evalWindow(*var, await.getIndices(), await.getMap(),
                         await.getIntervals());
    BarrierElem &elem = var->elems[elements(*var, box).front()];
    uint32_t full = static_cast<uint32_t>(await.getFull());
    uint32_t temporal = static_cast<uint32_t>(await.getTemporal());
    ThreadSet to = syncActors();
    if (gpuir::isCommitGroup(var->mechanism)) {
      // wait_group n: every group these threads committed but the newest n.
      int64_t keep = await.getOutstanding().value_or(0);
      // The groups these threads committed, found incrementally: phases are
      // only appended.
      CommitView &view = elem.commits[awaiterKey()];
      for (; view.scanned < elem.phases.size(); ++view.scanned)
        if (llvm::any_of(elem.phases[view.scanned].arrivers,
                         [&](const ThreadSet &a) { return a.intersects(to); }))
          view.mine.push_back(view.scanned);
      // Groups completed for these threads before need not be published
      // again on the same timelines.
      int64_t &done = view.done[{full, temporal}];
      // A thread's wait_group covers only its own copies: each record
      // becomes visible to the threads that made it.
      for (size_t i = done; i + keep < view.mine.size(); ++i)
        publish(elem.phases[view.mine[i]].captured, to, full, temporal, await,
                /*ownOnly=*/true);
      done = std::max<int64_t>(done, (int64_t)view.mine.size() - keep);
      return;
    }
    int64_t j = elem.awaited[awaiterKey()]++;
    int64_t lag = await.getLag().value_or(0);
    if (var->mechanism == BarrierMechanism::mbarrier_prearrive)
      lag += 1;
    int64_t target = j - lag;
    int64_t e = elements(*var, box).front();
    if (ordersPhases(*var)) {
      // The next phase must not complete before this wait.
      Follow f{makeToken(true, await), await, current};
      size_t next = std::max<int64_t>(target + 1, 0);
      if (next < elem.phases.size() && elem.phases[next].closed)
        reportRunAhead(*var, e, f, elem.phases[next], next);
      else if (next < elem.phases.size())
        elem.phases[next].follows.push_back(std::move(f));
      else
        elem.pending[next].push_back(std::move(f));
    }
    if (target < 0)
      return; // A slot that starts free: nothing to wait for.
    if (target >= static_cast<int64_t>(elem.phases.size())) {
      report(await, "await without matching arrive: " + describe(current) +
                 " await phase " + std::to_string(target) + " of " +
                 var->name + ", but only " +
                 std::to_string(elem.phases.size()) +
                 " arrives happened on it before",
             {});
      return;
    }
    Phase &p = elem.phases[target];
    p.awaited = true;
    if (p.arrivers.size() != elem.phases.front().arrivers.size()) {
      report(await, "arrive count mismatch: phase " + std::to_string(target) + " of " +
                 var->name + " completes with " +
                 std::to_string(p.arrivers.size()) + " arrives, phase 0 with " +
                 std::to_string(elem.phases.front().arrivers.size()),
             {{p.op, "the arrive"}});
      return;
    }
    if (ordersPhases(*var)) {
      unsigned before = errors;
      if (phased(*var))
        checkCount(await, *var, e, p, target);
      closePhase(*var, e, elem, target);
      if (errors != before)
        return;
    }
    publish(p.captured, to, full, temporal, await);
  }

  void execFree(FreeOp freeOp) {
    Var *var = lookup(freeOp, freeOp.getVariable());
    if (!var)
      return;
    if (var->isBarrier && ordersPhases(*var))
      for (auto &[e, elem] : var->elems)
        for (size_t q = 0; q < elem.phases.size(); ++q) {
          closePhase(*var, e, elem, q);
          if (phased(*var) && !elem.awaited.empty())
            checkCount(elem.phases[q].op, *var, e, elem.phases[q], q);
        }
    if (var->isBarrier && phased(*var))
      checkPhasesBalanced(freeOp, *var);
    // A freed shared-memory region may be reused by any thread of the
    // cluster: every access must be ordered before all of them.
    ThreadSet freers = syncActors();
    if (var->shared && freers.kind == ThreadSet::Device) {
      freers.lo.assign(freers.lo.size(), 0);
      freers.hi.assign(freers.domain->begin(), freers.domain->end());
    }
    // The accesses not yet ordered before the threads that may reuse the
    // memory.
    SmallVector<RecordPtr> unordered;
    var->forEachRecord([&](RecordPtr &r) {
      if (!orderedBefore(*r, var->shared ? freers : r->actors))
        unordered.push_back(r);
    });
    // A shared buffer of a block inside the task (a staging tile in a
    // one-iteration loop or an if, or in a warps region) is reused only by
    // a later allocation of the task or by the CTA's next task, after the
    // barrier that ends this one: its accesses must be ordered by then,
    // not already at the block's end (code generation lays out such
    // buffers like a stack, so any later allocation may take its bytes).
    auto parentLoop = dyn_cast<LoopOp>(freeOp->getParentOp());
    bool nested = var->shared && freers.kind == ThreadSet::Device &&
                  !(parentLoop && parentLoop.getTasks());
    if (nested && !unordered.empty()) {
      for (RecordPtr &r : unordered)
        var->unindex(r.get());
      pendingFrees[freers.task].push_back(
          {var, freeOp, freers, std::move(unordered)});
      unordered.clear();
    } else if (!unordered.empty()) {
      reportFree(freeOp, *var, **llvm::min_element(
                                   unordered, [](const RecordPtr &a,
                                                 const RecordPtr &b) {
                                     return a->seq < b->seq;
                                   }),
                 "unordered with the threads that free it", nullptr, "");
    }
    var->freed = true;
    var->freeOp = freeOp;
    var->forEachRecord([](RecordPtr &r) { r->dead = true; });
    var->reads = Var::Index();
    var->writes = Var::Index();
    var->readsBy.clear();
    for (auto &[e, elem] : var->elems) {
      for (Phase &p : elem.phases) {
        if (p.completion)
          p.completion->dead = true;
        for (RecordPtr &a : p.arrivals)
          a->dead = true;
        for (Follow &f : p.follows)
          f.token->dead = true;
      }
      for (auto &[q, follows] : elem.pending)
        for (Follow &f : follows)
          f.token->dead = true;
    }
    var->elems.clear();
  }

  static bool orderedBefore(const Record &r, const ThreadSet &who) {
    uint32_t quals = static_cast<uint32_t>(QualTimeline::cuda_in_order_ram |
                                           QualTimeline::cuda_in_order_rmem |
                                           QualTimeline::cpu_in_order);
    for (const Vis &v : r.vis)
      if ((v.quals & quals) && v.level >= Level::temporally_ordered &&
          v.threads.contains(who))
        return true;
    return false;
  }

  /// Where a report about a free goes: the free the program wrote, or the
  /// allocation whose scope ended (with a note at the scope's end).
  Operation *freeSite(Operation *freeOp, const Var &var,
                      SmallVectorImpl<std::pair<Operation *, std::string>>
                          &notes) {
    auto amirFree = dyn_cast<FreeOp>(freeOp);
    if (!amirFree || !amirFree.getImplicit() || !var.alloc)
      return freeOp;
    notes.push_back({freeOp, "freed here, at the end of its scope"});
    return var.alloc;
  }

  void reportFree(Operation *freeOp, const Var &var, const Record &r,
                  StringRef unorderedWith, Operation *reuse,
                  StringRef reuseNote) {
    bool neverWaited = !r.captured && isAsync(r.qual);
    std::string kind =
        neverWaited ? "free without arrive" : "free without sync";
    SmallVector<std::pair<Operation *, std::string>> notes = {
        {r.op, "the access"}};
    if (reuse)
      notes.push_back({reuse, reuseNote.str()});
    Operation *site = freeSite(freeOp, var, notes);
    report(site, kind + ": " + var.name + " is freed while " +
                       (r.mutate ? "a write" : "a read") + " of " +
                       describe(var, r.region) + " by " +
                       describe(r.actors) + " on " + qualName(r.qual) +
                       " may still be " +
                       (neverWaited ? std::string("in flight (nothing waits "
                                                  "for it)")
                                    : unorderedWith.str()),
           notes);
  }

  /// The freed nested shared buffers of a task whose accesses were not yet
  /// ordered when their block ended: judged where their memory may be
  /// reused, by `reuse`.
  void checkPendingFrees(int64_t task, Operation *reuse, StringRef note) {
    auto it = pendingFrees.find(task);
    if (it == pendingFrees.end())
      return;
    SmallVector<PendingFree> pending = std::move(it->second);
    pendingFrees.erase(it);
    for (PendingFree &p : pending) {
      for (RecordPtr &r : p.records)
        if (!r->dead && !orderedBefore(*r, p.freers)) {
          reportFree(p.freeOp, *p.var, *r,
                     "unordered with the threads that reuse its memory",
                     reuse, note);
          break;
        }
      for (RecordPtr &r : p.records)
        r->dead = true;
    }
  }

  /// An mbarrier's phases carry over to the next task of the CTA (code
  /// generation makes it once per kernel, and a thread's parity of each
  /// element lives on): every collective that awaits an element must have
  /// awaited each phase completed on it by the end of its lifetime. With
  /// mbarrier_prearrive (or lag), the first awaits are free and the last
  /// arrives give them back, so the counts are equal too.
  void checkPhasesBalanced(FreeOp freeOp, const Var &var) {
    for (const auto &[e, elem] : var.elems) {
      for (const auto &[awaiter, count] : elem.awaited) {
        if (count == static_cast<int64_t>(elem.phases.size()))
          continue;
        SmallVector<std::pair<Operation *, std::string>> notes;
        if (!elem.phases.empty())
          notes.push_back({elem.phases.back().op, "the last arrive on it"});
        Operation *site = freeSite(freeOp, var, notes);
        report(site,
               "unbalanced mbarrier: element " + std::to_string(e) + " of " +
                   var.name + " completes " +
                   std::to_string(elem.phases.size()) +
                   " phases in its lifetime, but a collective awaits it " +
                   std::to_string(count) +
                   " times; its phases carry over to the CTA's next task, so "
                   "each awaiter must await as many phases as are completed",
               notes);
        return;
      }
    }
  }

  std::string describe(const ThreadSet &t) {
    switch (t.kind) {
    case ThreadSet::Cpu:
      return "the CPU";
    case ThreadSet::Everything:
      return "the stream";
    case ThreadSet::Device:
      break;
    }
    // Natural thread indices of the box's corners.
    const SmallVector<int64_t> &d = *t.domain;
    auto natural = [&](ArrayRef<int64_t> c) {
      int64_t n = 0;
      for (size_t i = 0; i < d.size(); ++i)
        n = n * d[i] + c[i];
      return n;
    };
    SmallVector<int64_t> last;
    int64_t count = 1;
    for (size_t i = 0; i < d.size(); ++i) {
      last.push_back(t.hi[i] - 1);
      count *= t.hi[i] - t.lo[i];
    }
    int64_t first = natural(ArrayRef<int64_t>(t.lo.begin(), t.lo.end())),
            end = natural(last);
    std::string s;
    llvm::raw_string_ostream os(s);
    if (count == 1)
      os << "thread " << first;
    else if (end - first + 1 == count)
      os << "threads " << first << ".." << end;
    else
      os << count << " threads from " << first << " to " << end;
    os << " of task " << t.task;
    return s;
  }

  std::string describe(const Var &var, const Box &b) {
    std::string s = var.name + "[";
    llvm::raw_string_ostream os(s);
    for (size_t i = 0; i < b.lo.size(); ++i) {
      if (i)
        os << ", ";
      if (b.hi[i] == b.lo[i] + 1)
        os << b.lo[i];
      else if (b.hi[i] >= gpuir::kUnboundedExtent)
        os << b.lo[i] << ":";
      else
        os << b.lo[i] << ":" << b.hi[i];
    }
    os << "]";
    return s;
  }

  void report(Operation *op, const std::string &message,
              ArrayRef<std::pair<Operation *, std::string>> notes) {
    ++errors;
    InFlightDiagnostic diag = mlir::emitError(op->getLoc()) << message;
    for (auto &[noteOp, text] : notes)
      diag.attachNote(noteOp->getLoc()) << text;
  }

  const SyncCheckOptions &options;
  /// The variable of the synchronization tokens.
  Var tokens = [] {
    Var v;
    v.name = "phase";
    v.isToken = true;
    return v;
  }();
  DenseMap<Value, int64_t> env;
  DenseMap<Value, Var *> vars;
  std::vector<std::unique_ptr<Var>> storage;
  std::vector<std::unique_ptr<SmallVector<int64_t>>> domains;
  SmallVector<std::pair<Operation *, int64_t>> iterationKeys;
  ThreadSet current;
  int64_t nextTask = 0;
  unsigned errors = 0;
  uint64_t seq = 0;
  /// The fences and arrives of each task (-1: the CPU), for reports.
  DenseMap<int64_t, std::vector<SyncEvent>> events;
  /// The last window evaluated.
  struct {
    AffineMap map;
    Var *var = nullptr;
    SmallVector<int64_t> dims, lastDims;
    ArrayRef<bool> intervals;
    Box box;
  } cachedWindow;
  /// The most recent records, for instructions' trailing barriers.
  std::array<RecordPtr, 16> lastRecords;
  size_t lastRecordsNext = 0;
  /// Collapsed loop variables and their last value.
  DenseMap<Value, int64_t> collapsed;
  DenseMap<Operation *, bool> collapsibleCache;
  /// Each task's records, for the synchronization of its collectives.
  DenseMap<int64_t, std::vector<std::weak_ptr<Record>>> taskRecords;
  /// Freed nested shared buffers of each running task whose accesses are
  /// judged at the next reuse of their memory.
  struct PendingFree {
    Var *var;
    Operation *freeOp;
    ThreadSet freers;
    SmallVector<RecordPtr> records;
  };
  DenseMap<int64_t, SmallVector<PendingFree>> pendingFrees;
  /// The synchronization tokens of each running task.
  DenseMap<int64_t, std::vector<std::weak_ptr<Record>>> taskTokens;
  /// The readsBy entries that each running task's threads made.
  DenseMap<int64_t, SmallVector<std::pair<Var *, llvm::hash_code>, 4>>
      readsByOfTask;
};

} // namespace

unsigned mlir::rake::checkSynchronization(ProcOp proc,
                                          ArrayRef<int64_t> controls,
                                          const SyncCheckOptions &options,
                                          SyncCheckStats *stats) {
  Interpreter interp(options);
  unsigned errors = interp.run(proc, controls);
  if (stats)
    stats->tasks = interp.tasksRun();
  return errors;
}
