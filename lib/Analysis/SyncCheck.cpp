//===- SyncCheck.cpp - the abstract machine interpreter -------------------===//
//
// The synchronization check's judgements and its entry point (the
// interpreter is declared in SyncCheckInternal.h; its statements are in
// SyncCheckExec.cpp and its records in SyncCheckState.cpp): the hazard check
// of an access and its notes, bounds, the order and count of mbarrier
// arrivals, accesses in flight at a free, the descriptions of threads and
// windows in the reports, and checkSynchronization.
//
//===----------------------------------------------------------------------===//

#include "SyncCheckInternal.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::rake;
using namespace mlir::rake::amir;

namespace mlir::rake::sync_check_detail {

/// Writes of memory through the async proxy (TMA), and through the generic
/// proxy (st, cp.async), as the PTX memory model's proxies.
static bool isAsyncProxyWrite(uint32_t q) {
  return q & static_cast<uint32_t>(QualTimeline::tma_to_smem_async |
                                   QualTimeline::tma_to_gmem_async);
}
static bool isAsyncProxyAccess(uint32_t q) {
  return q & static_cast<uint32_t>(QualTimeline::tma_to_smem_async |
                                   QualTimeline::tma_to_gmem_async |
                                   QualTimeline::wgmma_async_smem);
}
static bool isGenericProxyWrite(uint32_t q) {
  return q & static_cast<uint32_t>(QualTimeline::cuda_in_order_ram |
                                   QualTimeline::Sm80_cp_async);
}

/// Whether accesses on the timeline are asynchronous instructions'.
static bool isAsync(uint32_t q) {
  return !(q & static_cast<uint32_t>(QualTimeline::cuda_in_order_ram |
                                     QualTimeline::cuda_in_order_rmem |
                                     QualTimeline::cpu_in_order));
}

static std::string qualName(uint32_t q) {
  return gpuir::stringifyQualTimeline(static_cast<QualTimeline>(q));
}

void Interpreter::visitCheck(amir::AccessOpInterface check) {
  Operation *op = check;
  bool mutate = check.isMutation();
  Level required = *check.getCheckedLevel();
  Var *var = lookup(op, check.getVariable());
  if (!var)
    return;
  Box region = evalWindow(*var, check.getIndices(), check.getMap(),
                          check.getIntervals());
  if (footprint && var->global && current.kind == ThreadSet::Device)
    footprint->add(var->alloc, region, mutate);
  uint32_t qual = static_cast<uint32_t>(check.getQuals());
  StringAttr order = check.getOrderAttr();
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
                   crossProxy ? Level::fully_ordered : required, order)) {
      hazard = r;
      proxyHazard = crossProxy &&
                    visibleTo(*r, current, qual, required, order);
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
    if (r->order && order && r->order != order &&
        r->actors.contains(current))
      notes.push_back(
          {r->op, "the earlier wgmma is " + r->order.str() + ", this one " +
                      order.str() + ": the PTX ISA orders accumulator "
                      "accesses only between wgmma instructions of one "
                      "shape; write gpuir.fence wgmma_fence_1 -> "
                      "wgmma_fence_2 (wgmma.fence) between them"});
    else if (proxyHazard)
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
    else if (!r->captured && isAsync(r->qual) && r->outOfOrder)
      // Nothing can wait for an asynchronous access no arrive or fence
      // ever took: the missing statement is that arrive, not the later
      // synchronization that could not see it.
      notes.push_back(
          {r->op, "the asynchronous access on " + qualName(r->qual) +
                      " is never waited for: no arrive or fence on " +
                      qualName(r->qual) + " after it captures it (commit "
                      "it with gpuir.arrive " + qualName(r->qual) +
                      " >> a barrier or commit group, then await that)"});
    else if (amir::ArriveOp arrive = awaitMissing(*r, current))
      // The access was committed to a barrier that these threads never
      // waited on: the missing statement is the await.
      notes.push_back(
          {arrive, (arrive.getLast() ? "the earlier access completes on "
                                       "its trailing barrier " +
                                           barrierName(arrive)
                                     : "the earlier access completes on "
                                       "this arrive on " +
                                           barrierName(arrive)) +
                       ", but " + describe(current) +
                       (StringRef(describe(current)).starts_with("thread ")
                            ? " does not await "
                            : " do not await ") +
                       barrierName(arrive) +
                       " before this access: add a gpuir.await on it whose "
                       "second timeline covers " + qualName(qual)});
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
/// The first index of dimension `d` of `region` outside [0, extent), if
/// any. An end of exactly kUnboundedExtent is the whole dimension's (a
/// buffer passed whole, a window to the end): it ends at the extent, and
/// starts inside it or at its end. Any other coordinate at or beyond
/// +-kUnboundedExtent is outside every extent the check handles (an
/// adversarial review: an index past 2^40 was taken for the marker and the
/// access for empty).
static std::optional<int64_t> outsideIndex(const Box &region, size_t d,
                                           int64_t extent) {
  int64_t lo = region.hi.size() > d ? region.lo[d] : 0, hi = region.hi[d];
  bool toEnd = hi == gpuir::kUnboundedExtent;
  if (lo >= gpuir::kUnboundedExtent || lo <= -gpuir::kUnboundedExtent ||
      hi > gpuir::kUnboundedExtent)
    return lo >= gpuir::kUnboundedExtent || lo < 0 ? lo : hi - 1;
  // No extent known: the dimension still starts at 0 (a buffer's first
  // element), so a negative start is outside it whatever its size.
  if (extent < 0)
    return lo < 0 && hi > lo ? std::optional<int64_t>(lo) : std::nullopt;
  if (toEnd)
    return lo < 0 ? std::optional<int64_t>(lo)
           : lo > extent ? std::optional<int64_t>(lo)
                         : std::nullopt;
  if (hi <= lo || (lo >= 0 && hi <= extent))
    return std::nullopt;
  return lo < 0 ? lo : hi - 1;
}

bool Interpreter::inBounds(Operation *op, const Var &var, const Box &region,
                           bool mutate) {
  for (size_t d = 0; d < region.lo.size() && d < var.extents.size(); ++d) {
    int64_t extent = var.extents[d];
    std::optional<int64_t> out = outsideIndex(region, d, extent);
    if (!out)
      continue;
    int64_t outside = *out;
    report(op, "out-of-bounds access: " + describe(current) + " " +
                   (mutate ? "write " : "read ") + describe(var, region) +
                   ", but index " + std::to_string(outside) +
                   " of dimension " + std::to_string(d) +
                   (extent < 0 ? std::string(" is outside it (no extent is "
                                             "declared for it; its indices "
                                             "start at 0)")
                               : " is outside its extent " +
                                     std::to_string(extent)),
           {{var.alloc, var.name + " is declared here"}});
    return false;
  }
  return true;
}

bool Interpreter::barrierInBounds(Operation *op, const Var &var,
                                  const Box &region, StringRef what) {
  for (size_t d = 0; d < region.lo.size() && d < var.extents.size(); ++d) {
    int64_t extent = var.extents[d];
    std::optional<int64_t> out = outsideIndex(region, d, extent);
    if (!out)
      continue;
    int64_t outside = *out;
    report(op, "out-of-bounds barrier element: " + describe(current) + " " +
                   what.str() + " " + describe(var, region) + ", but index " +
                   std::to_string(outside) + " of dimension " +
                   std::to_string(d) + " is outside its extent " +
                   std::to_string(extent) +
                   " (code generation makes only those barriers: another "
                   "element's address is another barrier or other memory)",
           {{var.alloc, var.name + " is declared here"}});
    return false;
  }
  return true;
}

/// An arrive whose first timeline took the earlier access (it completes on
/// that barrier) when no synchronization ever made the access visible to
/// any thread: nobody awaited the barrier, so what `t` misses is an await
/// of it. (Where some threads awaited it and `t` did not, or the arrive's
/// first timeline left the access out, the other notes say so.)
amir::ArriveOp Interpreter::awaitMissing(const Record &r, const ThreadSet &t) {
  if (!r.captured || lastSyncFor(r, t) || lastVisVia(r))
    return nullptr;
  // Not a commit group: awaiting one does not name the group (outstanding
  // counts do), so the fix is not "await it".
  for (Operation *by : llvm::reverse(r.capturedBy))
    if (auto arrive = dyn_cast<amir::ArriveOp>(by))
      if (static_cast<uint32_t>(arrive.getPre()) & r.qual)
        if (Var *var = vars.lookup(arrive.getBarrier());
            var && !gpuir::isCommitGroup(var->mechanism))
          return arrive;
  return nullptr;
}

/// The barrier an arrive names, as its source does ("full").
std::string Interpreter::barrierName(amir::ArriveOp arrive) {
  Var *var = vars.lookup(arrive.getBarrier());
  return var && !var->name.empty() ? var->name : std::string("its barrier");
}

/// A fence or arrive that the earlier access's threads made after it,
/// whose first timeline left the access out: the likely mistake.
const SyncEvent *Interpreter::missedSync(const Record &r) {
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
Operation *Interpreter::lastSyncFor(const Record &r, const ThreadSet &t) {
  Operation *found = nullptr;
  for (const Vis &v : r.vis)
    if (v.via && v.threads.intersects(t))
      found = v.via;
  return found;
}

/// The last synchronization that made a record visible to anyone.
const Vis *Interpreter::lastVisVia(const Record &r) {
  const Vis *found = nullptr;
  for (const Vis &v : r.vis)
    if (v.via)
      found = &v;
  return found;
}

std::string Interpreter::elementName(const Var &var, int64_t e) {
  if (var.shape.empty())
    return var.name;
  return var.name + "[" + std::to_string(e) + "]";
}

/// The current threads arrive into phase `q` of an element: they must do
/// so after phase q - 1 completed, or the hardware counts the arrival
/// toward q - 1 (completing it early, with the arrivals of q still to
/// come). Its awaiters, and what they synchronize with, are ordered after
/// it; so is a single thread that alone made every arrival of q - 1.
void Interpreter::checkArrivalOrder(ArriveOp arrive, const Var &var, int64_t e,
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
void Interpreter::closePhase(const Var &var, int64_t e, BarrierElem &elem,
                             size_t q) {
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

/// Code generation initializes an mbarrier once per kernel: its phases
/// carry over into the CTA's next task, whose arrivals on an element come
/// from the threads that arrive on it in this one. The barrier that ends a
/// task orders the threads of one CTA only, so an arrival from another CTA
/// of the cluster could complete the next phase before this task's last
/// await of the element sees the one it waits for. Each such await (its
/// follow, pending since no phase after it began) must be ordered before
/// every thread that arrived on the element.
void Interpreter::checkAcrossTasks(const Var &var) {
  for (auto &[e, elem] : var.elems)
    for (auto &[q, follows] : elem.pending)
      for (const Follow &f : follows)
        for (const Phase &p : elem.phases) {
          // As within a task (arriveInto): one arrival of the phase ordered
          // after the await, or the awaiters arriving themselves, each
          // after its own wait, keeps the phase from completing before it.
          int64_t self = 0;
          bool ordered = false;
          for (const ThreadSet &a : p.arrivers) {
            ordered |= tokenSeen(*f.token, a, /*byAll=*/false);
            if (std::optional<ThreadSet> own = f.awaiters.intersect(a))
              self += threadCount(*own);
          }
          if (ordered || self >= threadCount(f.awaiters))
            continue;
          // Once per await: every task repeats it.
          if (!acrossTasksReported.insert(f.await).second)
            return;
          report(f.await,
                 "mbarrier phase run-ahead across tasks: " +
                     describe(f.awaiters) + " await phase " +
                     std::to_string(q - 1) + " of " + elementName(var, e) +
                     " last in the task, and nothing orders that await "
                     "before " + describe(p.arrivers.front()) +
                     ", which arrive on it again in the next task: the "
                     "barrier is initialized once per kernel and its phases "
                     "carry over, while the barrier that ends a task orders "
                     "one CTA's threads only, so the next task's arrivals "
                     "could complete two phases before this wait; end the "
                     "task with a cluster barrier (gpuir.arrive and "
                     "gpuir.await on a cluster_sync barrier)",
                 {{p.op, "an arrive by " + describe(p.arrivers.front())}});
          return;
        }
}

void Interpreter::reportRunAhead(const Var &var, int64_t e, const Follow &f,
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
void Interpreter::checkCount(Operation *at, const Var &var, int64_t e, Phase &p,
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
                 (isa_and_nonnull<ArriveOp>(p.op) &&
                          cast<ArriveOp>(p.op).getLast()
                      ? " (the arrivals of the instructions completing on "
                        "it in one loop body)"
                      : " (the threads of its arrive statement)") +
                 "; a phase with "
                 "fewer never completes, one with more completes early",
         {{p.op, "the arrive"}});
}

bool Interpreter::orderedBefore(const Record &r, const ThreadSet &who) {
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
Operation *Interpreter::freeSite(
    Operation *freeOp, const Var &var,
    SmallVectorImpl<std::pair<Operation *, std::string>> &notes) {
  auto amirFree = dyn_cast<FreeOp>(freeOp);
  if (!amirFree || !amirFree.getImplicit() || !var.alloc)
    return freeOp;
  notes.push_back({freeOp, "freed here, at the end of its scope"});
  return var.alloc;
}

void Interpreter::reportFree(Operation *freeOp, const Var &var, const Record &r,
                             StringRef unorderedWith, Operation *reuse,
                             StringRef reuseNote) {
  bool neverWaited = !r.captured && isAsync(r.qual);
  std::string kind =
      neverWaited ? "free without arrive" : "free without sync";
  SmallVector<std::pair<Operation *, std::string>> notes = {
      {r.op, isa<amir::ArriveOp>(r.op) ? "the arrive" : "the access"}};
  if (reuse)
    notes.push_back({reuse, reuseNote.str()});
  Operation *site = freeSite(freeOp, var, notes);
  bool arrive = isa<amir::ArriveOp>(r.op);
  report(site, kind + ": " + var.name + " is freed while " +
                     (arrive ? "an arrive on"
                      : r.mutate ? "a write of"
                                 : "a read of") +
                     " " +
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
void Interpreter::checkPendingFrees(int64_t task, Operation *reuse,
                                    StringRef note) {
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
void Interpreter::checkPhasesBalanced(FreeOp freeOp, const Var &var) {
  // Code generation initializes an mbarrier once per kernel and each
  // thread's parity bit carries over to the CTA's next task: a thread that
  // skips an element's phases in one task and awaits it in another takes
  // those phases for its own. So the threads awaiting an element (where it
  // completes phases) must be the same in every task.
  for (const auto &[e, elem] : var.elems) {
    if (elem.phases.empty())
      continue;
    AwaiterSet set;
    int64_t task = -1;
    for (const ThreadSet &a : elem.awaiters) {
      set.push_back({SmallVector<int64_t, 8>(a.lo.begin(), a.lo.end()),
                     SmallVector<int64_t, 8>(a.hi.begin(), a.hi.end())});
      task = a.task;
    }
    llvm::sort(set);
    AwaiterSet arrivers;
    for (const Phase &p : elem.phases)
      for (const ThreadSet &a : p.arrivers)
        arrivers.push_back(
            {SmallVector<int64_t, 8>(a.lo.begin(), a.lo.end()),
             SmallVector<int64_t, 8>(a.hi.begin(), a.hi.end())});
    llvm::sort(arrivers);
    arrivers.erase(std::unique(arrivers.begin(), arrivers.end()),
                   arrivers.end());
    if (task < 0 && !elem.phases.front().arrivers.empty())
      task = elem.phases.front().arrivers.front().task;
    auto [it, first] =
        awaiterSetsSeen.insert({{var.alloc, e}, {task, {set, arrivers}}});
    if (first || it->second.second == std::make_pair(set, arrivers))
      continue;
    auto name = [&](const AwaiterSet &s) -> std::string {
      if (s.empty())
        return "no thread";
      std::string out;
      for (const auto &[lo, hi] : s) {
        ThreadSet t;
        t.kind = ThreadSet::Device;
        t.task = -2;
        t.lo.assign(lo.begin(), lo.end());
        t.hi.assign(hi.begin(), hi.end());
        t.domain = elem.awaiters.empty()
                       ? elem.phases.front().arrivers.front().domain
                       : elem.awaiters.front().domain;
        std::string d = describe(t);
        // describe names the task; the sets are compared without it.
        size_t cut = d.find(" of task");
        out += (out.empty() ? "" : ", ") + d.substr(0, cut);
      }
      return out;
    };
    SmallVector<std::pair<Operation *, std::string>> notes;
    Operation *site = freeSite(freeOp, var, notes);
    const auto &[seenAwaiters, seenArrivers] = it->second.second;
    if (seenAwaiters == set) {
      // The same awaiters, other arrivers: the last awaits of a task were
      // ordered before its own arrivers only (checkAcrossTasks), while
      // another task's may complete phases first (an adversarial review:
      // a CTA's remote arrive in the next task completed two phases of an
      // element before the await of the task before; a hang on the GPU).
      report(site,
             "mbarrier arrived on by different threads in different tasks: "
             "element " + std::to_string(e) + " of " + var.name +
                 " completes phases in task " + std::to_string(task) +
                 " with arrivals from " + name(arrivers) + ", but in task " +
                 std::to_string(it->second.first) + " from " +
                 name(seenArrivers) +
                 "; its phases carry over to the CTA's next task (an "
                 "mbarrier is initialized once per kernel), and a task's "
                 "last awaits are ordered only before the threads that "
                 "arrive in it, so another task's arrivals could complete "
                 "two phases before such an await: arrive on each element "
                 "with the same threads in every task",
             notes);
      return;
    }
    report(site,
           "mbarrier awaited by different threads in different tasks: "
           "element " + std::to_string(e) + " of " + var.name +
               " completes phases in task " + std::to_string(task) +
               " and is awaited there by " + name(set) + ", but in task " +
               std::to_string(it->second.first) + " by " +
               name(seenAwaiters) +
               "; each thread's phase parity carries over to the CTA's "
               "next task (an mbarrier is initialized once per kernel), "
               "so a thread that skips an element's phases in one task "
               "takes them for its own in a later one: await each element "
               "with the same threads in every task",
           notes);
    return;
  }
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

std::string Interpreter::describe(const ThreadSet &t) {
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

std::string Interpreter::describe(const Var &var, const Box &b) {
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

void Interpreter::report(Operation *op, const std::string &message,
                         ArrayRef<std::pair<Operation *, std::string>> notes) {
  ++errors;
  if (silent)
    return;
  InFlightDiagnostic diag = mlir::emitError(op->getLoc()) << message;
  if (!options.sizes.empty())
    diag << " (at " << options.sizes << ")";
  for (auto &[noteOp, text] : notes)
    diag.attachNote(noteOp->getLoc()) << text;
}

} // namespace mlir::rake::sync_check_detail
