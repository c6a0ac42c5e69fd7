//===- SyncCheckInternal.h - the abstract machine's state -------*- C++ -*-===//
//
// What the parts of the synchronization check share (internal to
// lib/Analysis): the abstract machine's state (thread sets, boxes, the
// records of accesses and their visibility, barrier phases, variables) and
// the interpreter, whose members are defined in SyncCheckExec.cpp (the
// statements), SyncCheckState.cpp (records, visibility and tokens) and
// SyncCheck.cpp (the checks, the reports and checkSynchronization).
//
//===----------------------------------------------------------------------===//

#ifndef RAKE_LIB_ANALYSIS_SYNCCHECKINTERNAL_H
#define RAKE_LIB_ANALYSIS_SYNCCHECKINTERNAL_H

#include "Rake/Analysis/SyncCheck.h"
#include "Rake/Dialect/AMIR/IR/Visitors.h"
#include "Rake/Dialect/GpuIR/IR/Syntax.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/MapVector.h"

#include <array>
#include <atomic>
#include <chrono>
#include <mutex>
#include <limits>
#include <map>
#include <set>
#include <memory>

namespace mlir::rake::sync_check_detail {

using gpuir::BarrierMechanism;
using gpuir::QualTimeline;

using Level = amir::VisibilityLevel;

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
  /// The access's order key (amir::AccessOpInterface::getOrderAttr): with
  /// one, the access is visible to its own threads on its timeline only
  /// for later accesses with the same key, and has no entry for that in
  /// `vis`.
  StringAttr order;
  SmallVector<Vis, 2> vis;
  /// Whether a fence or arrive ever captured it.
  bool captured = false;
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
  /// Which of `mine` were completed (published) on each pair of timelines,
  /// by whole waits and by waits on the source reads only (wait_group.read).
  std::map<std::pair<uint32_t, uint32_t>, std::vector<bool>> done, readDone;
};

struct BarrierElem {
  std::vector<Phase> phases;
  /// Follows of phases that no arrive has begun yet, by phase.
  std::map<int64_t, SmallVector<Follow, 2>> pending;
  std::map<size_t, CommitView> commits;
  /// Awaits made so far, per awaiting collective (skips included).
  std::map<size_t, int64_t> awaited;
  /// The awaiting collectives whose last await of it was a skip.
  std::set<size_t> skipped;
  /// The collectives that awaited it (each thread keeps one parity per
  /// element, so its awaits must all be made by one collective).
  SmallVector<ThreadSet, 2> awaiters;
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

/// Whether `r` is visible to threads `t` on a timeline of `qual` at `level`
/// or above, for an access with order key `order` (SyncCheckState.cpp).
bool visibleTo(const Record &r, const ThreadSet &t, uint32_t qual,
               Level level, StringAttr order = {});

SmallVector<int64_t> evalMap(AffineMap map, ArrayRef<int64_t> dims);

using Coeffs = SmallVector<int64_t, 3>;

/// Everything planTasks found, for the run and the proofs (SyncCheckPlan.cpp).
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
  /// The task loops, outer to inner, and whether a guard or loop bound in
  /// the task depends on the task indices (then the classes depend on them).
  SmallVector<amir::LoopOp> taskLoops;
  bool taskDependent = false;
};

/// The extents of an allocation's dimensions: its static shape, the
/// declared extents (evaluated with `valueOf` for their operands) where it
/// is dynamic, -1 where neither says (SyncCheckExec.cpp). A declared extent
/// that evaluates negative is 0 (no index is inside it: an adversarial
/// review found it taken for "none declared", and every index passed);
/// `negative` gets its dimension.
SmallVector<int64_t>
allocExtents(amir::AllocOp alloc, function_ref<int64_t(Value)> valueOf,
             SmallVectorImpl<std::pair<unsigned, int64_t>> *negative = nullptr);

/// The all-sizes mode (SyncCheckAllSizes.cpp): the check for every size of
/// the task grid, the other parameters at `controls`.
unsigned checkAllSizes(amir::ProcOp proc, ArrayRef<int64_t> controls,
                       const SyncCheckOptions &options, SyncCheckStats &st);

/// The structure of `proc` at these sizes, if its tasks can be classed
/// (else why not).
/// `anyTaskBelow` (nonzero): the 64-bit checks of task-dependent guards
/// and bounds take every task index below it, not only those of these sizes.
std::optional<TaskPlan> planTasks(amir::ProcOp proc,
                                  ArrayRef<int64_t> controls,
                                  std::string &why, int64_t anyTaskBelow = 0);

/// A box moved by `delta` (an unbounded end stays unbounded).
inline Box translate(const Box &b, ArrayRef<int64_t> delta) {
  Box t = b;
  for (size_t d = 0; d < t.lo.size(); ++d) {
    t.lo[d] += delta[d];
    if (t.hi[d] < gpuir::kUnboundedExtent)
      t.hi[d] += delta[d];
  }
  return t;
}

inline bool nonEmpty(const Box &b) {
  for (size_t d = 0; d < b.lo.size(); ++d)
    if (b.hi[d] <= b.lo[d])
      return false;
  return true;
}

inline void widen(std::optional<Box> &hull, const Box &b) {
  if (!hull) {
    hull = b;
    return;
  }
  for (size_t d = 0; d < b.lo.size(); ++d) {
    hull->lo[d] = std::min(hull->lo[d], b.lo[d]);
    hull->hi[d] = std::max(hull->hi[d], b.hi[d]);
  }
}

/// What the interpreters of one check share: its deadline (the budget) and
/// the progress of its tasks.
struct RunLimits {
  std::optional<std::chrono::steady_clock::time_point> deadline;
  std::atomic<bool> expired{false};
  std::function<void(int64_t, int64_t)> progress;
  int64_t total = -1;
  /// What the total counts, for the budget's report.
  const char *what = "tasks";
  std::mutex mutex;
  int64_t done = 0;
  void taskDone() {
    if (!progress)
      return;
    std::lock_guard<std::mutex> lock(mutex);
    progress(++done, total);
  }
};

/// The elements of global variables (by their allocation) that one task's
/// checks and records touched, for the symmetry reduction's proofs across
/// tasks (SyncCheckSymmetry.cpp).
struct Footprint {
  struct Access {
    Box box;
    bool mutate;
  };
  llvm::MapVector<Operation *, std::vector<Access>> accesses;
  void add(Operation *alloc, const Box &box, bool mutate) {
    std::vector<Access> &list = accesses[alloc];
    // A check and the record that follows it touch the same elements.
    if (!list.empty() && list.back().mutate == mutate &&
        list.back().box.lo == box.lo && list.back().box.hi == box.hi)
      return;
    list.push_back({box, mutate});
  }
};

/// What the bounds check asks of one dimension of a set of accesses: the
/// range [lo, hi) of those with a finite end that are not empty along it,
/// and the lowest start of those that run to the end of the dimension.
struct DimRange {
  std::optional<int64_t> lo, hi, openLo;
};
inline DimRange dimRange(ArrayRef<Footprint::Access> accesses, size_t d) {
  DimRange r;
  for (const Footprint::Access &a : accesses) {
    if (d >= a.box.lo.size())
      continue;
    if (a.box.hi[d] >= gpuir::kUnboundedExtent) {
      r.openLo = std::min(r.openLo.value_or(a.box.lo[d]), a.box.lo[d]);
    } else if (a.box.hi[d] > a.box.lo[d]) {
      r.lo = std::min(r.lo.value_or(a.box.lo[d]), a.box.lo[d]);
      r.hi = std::max(r.hi.value_or(a.box.hi[d]), a.box.hi[d]);
    }
  }
  return r;
}

class Interpreter : public amir::StmtVisitor<Interpreter> {
public:
  Interpreter(const SyncCheckOptions &options) : options(options) {}
  unsigned run(amir::ProcOp proc, ArrayRef<int64_t> controls);
  int64_t tasksRun() const;
  /// The threads that awaited each element of each mbarrier (by its
  /// allocation) in the tasks where the element completed phases, and those
  /// that arrived on it, as boxes of the device function's coordinates: the
  /// same in every task, since each thread's phase parity carries over to
  /// the CTA's next task and the check of a task's last awaits
  /// (checkAcrossTasks) takes its arrivers for the next task's.
  using AwaiterSet = std::vector<std::pair<SmallVector<int64_t, 8>,
                                           SmallVector<int64_t, 8>>>;
  using AwaiterSets =
      std::map<std::pair<Operation *, int64_t>,
               std::pair<int64_t, std::pair<AwaiterSet, AwaiterSet>>>;
  const AwaiterSets &awaiterSets() const { return awaiterSetsSeen; }
  /// For the symmetry reduction: interpret only the device tasks in `only`
  /// (the others are numbered, not run), count hazards without reporting
  /// them when `silent`, and collect the global accesses into `footprint`.
  void limitBy(RunLimits *l) { limits = l; }
  void restrictTo(const llvm::DenseSet<int64_t> *only, bool silent,
                  Footprint *footprint) {
    onlyTasks = only;
    this->silent = silent;
    this->footprint = footprint;
  }

private:
  // The statements (SyncCheckExec.cpp).
  void runBlock(Block &block);
  bool stopped();
  int64_t eval(AffineExpr e, ValueRange operands);
  Box evalWindow(Var &var, ValueRange operands, AffineMap map,
                 ArrayRef<bool> intervals);
  bool conditionHolds(amir::GuardOp guard);
  bool narrow(Attribute mapping, int64_t i);
  void exec(Operation *op) { dispatchStmt(op); }
  ThreadSet syncActors();

  // Each statement (amir::StmtVisitor); records here, checks in
  // SyncCheck.cpp.
  friend class amir::StmtVisitor<Interpreter>;
  using StmtVisitor::visitStmt;
  void visitStmt(amir::LoopOp loop) { execLoop(loop); }
  void visitStmt(amir::GuardOp guard);
  void visitStmt(amir::AllocOp alloc);
  void visitStmt(amir::FreeOp freeOp) { execFree(freeOp); }
  void visitStmt(amir::FenceOp fence);
  void visitStmt(amir::ArriveOp arrive) { execArrive(arrive); }
  void visitStmt(amir::AwaitOp await) { execAwait(await); }
  void visitRecord(amir::AccessOpInterface access);
  void visitCheck(amir::AccessOpInterface check);
  void visitUnhandledStmt(Operation *op);
  llvm::DenseSet<Operation *> unknownReported;
  void execLoop(amir::LoopOp loop);
  bool collapsible(amir::LoopOp loop);
  static std::optional<int64_t> coefficient(AffineExpr e, ValueRange operands,
                                            Value v);
  Var *lookup(Operation *op, Value v);
  amir::ArriveOp awaitMissing(const Record &r, const ThreadSet &t);
  std::string barrierName(amir::ArriveOp arrive);
  int64_t linearize(const Var &var, ArrayRef<int64_t> index);
  SmallVector<int64_t> elements(const Var &var, const Box &box);
  static bool phased(const Var &var);
  static bool ordersPhases(const Var &var);
  llvm::hash_code phaseKey();
  void execArrive(amir::ArriveOp arrive);
  /// Leaves a record of an access by the current threads (visitRecord's,
  /// and an mbarrier arrive's: the barrier's word in shared memory, which
  /// must be ordered before the memory is freed); `last`: an instruction's
  /// trailing barrier may take it as one of its own accesses.
  RecordPtr addRecord(Operation *op, Var *var, Box region, uint32_t qual,
                      bool mutate, bool outOfOrder, StringAttr order,
                      bool last);
  void arriveInto(amir::ArriveOp arrive, const Var &var, int64_t e,
                  BarrierElem &elem, size_t q, const RecordPtr &arrival);
  size_t awaiterKey();
  void execAwait(amir::AwaitOp await);
  void awaitCommitGroups(amir::AwaitOp await, BarrierElem &elem,
                         const ThreadSet &to, uint32_t full,
                         uint32_t temporal);
  bool awaitedByOneCollective(amir::AwaitOp await, Var &var,
                              BarrierElem &elem, const Box &box);
  void execFree(amir::FreeOp freeOp);

  // Records, visibility and tokens (SyncCheckState.cpp).
  static bool isPoint(const Box &b);
  static bool sameVis(const Record &a, const Record &b);
  static bool mergeInto(Record &into, Record &r);
  void summarizeTask(int64_t task);
  /// Groups of at least this many records of a finished task become one
  /// tile (tileTask).
  static constexpr size_t kTileRecords = 256;
  void tileTask(SmallVector<RecordPtr> &live);
  static void markCaptured(Record &r, Operation *by);
  SmallVector<Captured> capture(uint32_t pre, bool transitive, Operation *op);
  static bool implied(const Record &r, const ThreadSet &to, uint32_t quals,
                      Level level);
  static void addVis(Record &r, const Vis &v);
  void publish(ArrayRef<Captured> records, const ThreadSet &toAll,
               uint32_t full, uint32_t temporal, Operation *via,
               bool ownOnly = false);
  static bool tokenSeen(const Record &token, const ThreadSet &t, bool byAll);
  template <typename Fn>
  static void forEachThread(const ThreadSet &t, Fn fn);
  static bool tokenTakenBy(const Record &token, const ThreadSet &s);
  RecordPtr makeToken(bool byCurrent, Operation *op);
  static int64_t threadCount(const ThreadSet &t);

  // Visiting the records of an index (below).
  template <typename Fn>
  static void forEachOverlap(Var::Index &index, const Box &box, Fn drop);
  template <typename Fn>
  static void sweepBoxes(Var::Boxes &index, const Box &box, Fn &drop);
  template <typename Map, typename Fn>
  static void sweep(Map &map, typename Map::iterator it,
                    typename Map::iterator end, const Box &box, Fn &drop);
  template <typename Fn>
  static void forEachOverlap(Var &var, const Box &box, bool includeReads,
                             Fn drop);

  // The checks and the reports (SyncCheck.cpp).
  bool inBounds(Operation *op, const Var &var, const Box &region,
                bool mutate);
  /// The same for a barrier's elements: `what` is "arrive on" or "await".
  bool barrierInBounds(Operation *op, const Var &var, const Box &region,
                       StringRef what);
  const SyncEvent *missedSync(const Record &r);
  Operation *lastSyncFor(const Record &r, const ThreadSet &t);
  static const Vis *lastVisVia(const Record &r);
  std::string elementName(const Var &var, int64_t e);
  void checkArrivalOrder(amir::ArriveOp arrive, const Var &var, int64_t e,
                         BarrierElem &elem, size_t q);
  void closePhase(const Var &var, int64_t e, BarrierElem &elem, size_t q);
  void reportRunAhead(const Var &var, int64_t e, const Follow &f,
                      const Phase &next, size_t q);
  void checkCount(Operation *at, const Var &var, int64_t e, Phase &p,
                  size_t q);
  static bool orderedBefore(const Record &r, const ThreadSet &who);
  Operation *freeSite(Operation *freeOp, const Var &var,
                      SmallVectorImpl<std::pair<Operation *, std::string>>
                          &notes);
  void reportFree(Operation *freeOp, const Var &var, const Record &r,
                  StringRef unorderedWith, Operation *reuse,
                  StringRef reuseNote);
  void checkPendingFrees(int64_t task, Operation *reuse, StringRef note);
  void checkPhasesBalanced(amir::FreeOp freeOp, const Var &var);
  /// At the free of an mbarrier: its last awaits must be ordered before
  /// every thread that arrives on the element (the next task's arrivals).
  void checkAcrossTasks(const Var &var);
  void checkClusterAwaited(amir::FreeOp freeOp, const Var &var);
  DenseSet<Operation *> acrossTasksReported;
  std::string describe(const ThreadSet &t);
  std::string describe(const Var &var, const Box &b);
  void report(Operation *op, const std::string &message,
              ArrayRef<std::pair<Operation *, std::string>> notes);

  const SyncCheckOptions &options;
  AwaiterSets awaiterSetsSeen;
  /// Arrives on cluster_sync variables not yet awaited by their threads.
  struct ClusterArrive {
    Var *var;
    ThreadSet threads;
    Operation *arrive;
    /// The loop iterations it was made in (phaseKey): a second arrive in
    /// another iteration opens a phase of its own, which the phase rules
    /// judge ("arrive into an unfinished phase").
    llvm::hash_code key;
  };
  SmallVector<ClusterArrive, 2> clusterPending;
  const llvm::DenseSet<int64_t> *onlyTasks = nullptr;
  RunLimits *limits = nullptr;
  unsigned ticks = 0;
  bool silent = false;
  Footprint *footprint = nullptr;
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

/// Calls `drop(record)` on each record of `index` that overlaps `box`,
/// erasing those for which it returns true.
template <typename Fn>
void Interpreter::forEachOverlap(Var::Index &index, const Box &box, Fn drop) {
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
void Interpreter::sweepBoxes(Var::Boxes &index, const Box &box, Fn &drop) {
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
void Interpreter::sweep(Map &map, typename Map::iterator it,
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
void Interpreter::forEachOverlap(Var &var, const Box &box, bool includeReads,
                                 Fn drop) {
  forEachOverlap(var.writes, box, drop);
  if (includeReads)
    forEachOverlap(var.reads, box, drop);
}

} // namespace mlir::rake::sync_check_detail

#endif // RAKE_LIB_ANALYSIS_SYNCCHECKINTERNAL_H
