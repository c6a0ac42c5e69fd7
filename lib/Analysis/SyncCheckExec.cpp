//===- SyncCheckExec.cpp - the interpreter's statements -------------------===//
//
// The synchronization check's interpretation of AMIR, op by op (see
// SyncCheckInternal.h): the evaluation of indices, windows and guards, the
// threads of each statement, loops (tasks, thread loops and collapsed
// sequential loops), allocations and frees, recorded accesses, and the
// arrives and awaits of barriers and commit groups.
//
//===----------------------------------------------------------------------===//

#include "SyncCheckInternal.h"

using namespace mlir;
using namespace mlir::rake;
using namespace mlir::rake::amir;

namespace mlir::rake::sync_check_detail {

unsigned Interpreter::run(ProcOp proc, ArrayRef<int64_t> controls) {
  for (auto [arg, v] :
       llvm::zip(proc.getBody().front().getArguments(), controls))
    env[arg] = v;
  current.kind = ThreadSet::Cpu;
  runBlock(proc.getBody().front());
  return errors;
}

int64_t Interpreter::tasksRun() const { return nextTask; }

void Interpreter::runBlock(Block &block) {
  for (Operation &op : block) {
    if (stopped())
      return;
    exec(&op);
  }
}

bool Interpreter::stopped() {
  if (options.maxErrors && errors >= options.maxErrors)
    return true;
  if (!limits || !limits->deadline)
    return false;
  if (limits->expired.load(std::memory_order_relaxed))
    return true;
  // The clock, every few hundred statements.
  if ((++ticks & 255) == 0 &&
      std::chrono::steady_clock::now() > *limits->deadline) {
    limits->expired = true;
    return true;
  }
  return false;
}

int64_t Interpreter::eval(AffineExpr e, ValueRange operands) {
  SmallVector<int64_t> dims;
  for (Value v : operands)
    dims.push_back(env.lookup(v));
  return evaluateControlExpr(e, dims);
}

Box Interpreter::evalWindow(Var &var, ValueRange operands, AffineMap map,
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

bool Interpreter::conditionHolds(GuardOp guard) {
  if (guard.getPredicates().empty())
    return true;
  SmallVector<int64_t> dims;
  for (Value v : guard.getOperands())
    dims.push_back(env.lookup(v));
  return rake::conditionHolds(guard.getPredicates(),
                              guard.getAlternativeSizes(),
                              evalMap(guard.getMap(), dims));
}

/// Narrows the current threads by a tile or slice of a mapping.
bool Interpreter::narrow(Attribute mapping, int64_t i) {
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

void Interpreter::visitStmt(GuardOp guard) {
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
}

void Interpreter::visitStmt(AllocOp alloc) {
  if (alloc.getShared() && current.kind == ThreadSet::Device)
    checkPendingFrees(current.task, alloc,
                      "a later allocation that may take its memory");
  auto var = std::make_unique<Var>();
  var->name = alloc.getName().str();
  var->shape.assign(alloc.getShape().begin(), alloc.getShape().end());
  var->shared = alloc.getShared();
  var->global = current.kind == ThreadSet::Cpu;
  var->alloc = alloc;
  if (auto bt = dyn_cast<BarrierType>(alloc.getResult().getType())) {
    var->isBarrier = true;
    var->mechanism = bt.getMechanism();
  }
  SmallVector<std::pair<unsigned, int64_t>> negative;
  var->extents = allocExtents(
      alloc, [&](Value v) { return env.lookup(v); }, &negative);
  for (auto [d, extent] : negative)
    report(alloc,
           "negative extent: dimension " + std::to_string(d) + " of " +
               var->name + " is declared " + std::to_string(extent) +
               " long at these sizes; no index is inside it (declare "
               "extents that are sizes: zero or more for every size the "
               "kernel runs at)",
           {});
  if (std::optional<int64_t> arrivals = alloc.getArrivals())
    var->arrivals = *arrivals;
  vars[alloc.getResult()] = var.get();
  storage.push_back(std::move(var));
}

void Interpreter::visitStmt(FenceOp fence) {
  // A fence of the whole cluster is the CTA's one hardware cluster barrier
  // (barrier.cluster.arrive, then wait): inside the window between an arrive
  // on a cluster_sync variable and its await, each thread would arrive twice
  // before waiting.
  if (current.kind == ThreadSet::Device && !clusterPending.empty() &&
      current.domain) {
    int64_t all = 1;
    for (int64_t d : *current.domain)
      all *= d;
    if (threadCount(current) == all)
      for (const auto &[other, threads, arrive, key] : clusterPending)
        if (threads.intersects(current)) {
          report(fence,
                 "a fence of the whole cluster between an arrive on " +
                     other->name + " and its await: " + describe(threads) +
                     " arrived on " + other->name +
                     " and did not await it yet; the fence is the CTA's one "
                     "hardware cluster barrier (barrier.cluster.arrive and "
                     "wait), which every cluster_sync variable uses, so its "
                     "arrive may complete the phase of " + other->name +
                     " early (a race or a hang): await " + other->name +
                     " before the fence",
                 {});
          return;
        }
  }
  uint32_t pre = static_cast<uint32_t>(fence.getPre());
  SmallVector<Captured> captured = capture(pre, fence.getTransitive(), fence);
  publish(captured, syncActors(), static_cast<uint32_t>(fence.getFull()),
          static_cast<uint32_t>(fence.getTemporal()), fence);
}

void Interpreter::visitUnhandledStmt(Operation *op) {
  // Once per statement, not per execution of it.
  if (!unknownReported.insert(op).second)
    return;
  report(op, "the synchronization check cannot interpret '" +
                 op->getName().getStringRef().str() +
                 "'; an abstract-machine procedure holds only AMIR "
                 "statements (docs/AMIR.md)",
         {});
}

/// The threads a synchronization statement acts for: at CPU scope the
/// whole stream (a launch or a stream synchronization), else the current
/// collective.
ThreadSet Interpreter::syncActors() {
  if (current.kind == ThreadSet::Cpu) {
    ThreadSet all;
    all.kind = ThreadSet::Everything;
    return all;
  }
  return current;
}

void Interpreter::execLoop(LoopOp loop) {
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
    if (newTask && onlyTasks && !onlyTasks->contains(nextTask)) {
      ++nextTask;
      continue;
    }
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
      if (limits && !limits->expired)
        limits->taskDone();
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
bool Interpreter::collapsible(LoopOp loop) {
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
    if (auto access = dyn_cast<amir::AccessOpInterface>(op)) {
      ok &= !access.isOutOfOrder();
      return;
    }
    ok = false;
  });
  // One pass runs the nest at the loop's first value: an inner loop whose
  // bounds use a variable of the nest would run its other trip counts
  // nowhere (at lb it may not run at all), so such a loop is interpreted
  // iteration by iteration.
  if (ok)
    loop.walk([&](LoopOp inner) {
      for (ValueRange bounds :
           {ValueRange(inner.getLowerOperands()),
            ValueRange(inner.getUpperOperands())})
        for (Value v : bounds)
          ok &= !llvm::is_contained(ivs, v);
    });
  if (ok)
    loop.walk([&](amir::AccessOpInterface access) {
      AffineMap map = access.getMap();
      ValueRange operands = access.getIndices();
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
std::optional<int64_t> Interpreter::coefficient(AffineExpr e,
                                                ValueRange operands, Value v) {
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

Var *Interpreter::lookup(Operation *op, Value v) {
  Var *var = vars.lookup(v);
  if (var && var->freed) {
    report(op, "use after free: " + describe(current) + " use " + var->name + " after it was freed",
           {{var->freeOp, "freed here"}});
    return nullptr;
  }
  return var;
}

void Interpreter::visitRecord(amir::AccessOpInterface access) {
  Operation *op = access;
  bool mutate = access.isMutation(), outOfOrder = access.isOutOfOrder();
  Var *var = lookup(op, access.getVariable());
  if (!var)
    return;
  Box region = evalWindow(*var, access.getIndices(), access.getMap(),
                          access.getIntervals());
  if (footprint && var->global && current.kind == ThreadSet::Device)
    footprint->add(var->alloc, region, mutate);
  addRecord(op, var, std::move(region), static_cast<uint32_t>(access.getQuals()),
            mutate, outOfOrder, access.getOrderAttr(), /*last=*/true);
}

RecordPtr Interpreter::addRecord(Operation *op, Var *var, Box region,
                                 uint32_t qual, bool mutate, bool outOfOrder,
                                 StringAttr order, bool last) {
  auto r = std::make_shared<Record>();
  r->region = std::move(region);
  r->actors = current;
  r->qual = qual;
  r->mutate = mutate;
  r->outOfOrder = outOfOrder;
  r->op = op;
  r->var = var;
  r->seq = ++seq;
  r->order = order;
  // In order: visible to its own threads on its timeline (with an order
  // key, only to their accesses with the same key: visibleTo).
  if (!outOfOrder && !r->order)
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
                                      Level::temporally_ordered, r->order);
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
  if (last)
    lastRecords[lastRecordsNext++ % lastRecords.size()] = r;
  return r;
}

int64_t Interpreter::linearize(const Var &var, ArrayRef<int64_t> index) {
  int64_t l = 0;
  for (auto [i, d] : llvm::enumerate(var.shape))
    l = l * std::max<int64_t>(d, 1) + (i < index.size() ? index[i] : 0);
  return l;
}

/// The elements of a barrier window (several for a multicast).
SmallVector<int64_t> Interpreter::elements(const Var &var, const Box &box) {
  SmallVector<int64_t> out;
  forEachPoint(box.lo, box.hi,
               [&](ArrayRef<int64_t> idx) { out.push_back(linearize(var, idx)); });
  return out;
}

/// Whether the hardware counts a barrier's arrivals into phases (an
/// mbarrier), which the checks of phase order below are about.
bool Interpreter::phased(const Var &var) {
  return var.mechanism == BarrierMechanism::mbarrier ||
         var.mechanism == BarrierMechanism::mbarrier_prearrive;
}

/// Whether a thread's arrivals on the barrier must alternate with the
/// phases' completions: mbarriers, and the cluster barrier (a thread that
/// arrives again before waiting may be counted in the phase it already
/// arrived on).
bool Interpreter::ordersPhases(const Var &var) {
  return phased(var) || var.mechanism == BarrierMechanism::cluster_sync;
}

/// Arrivals on one barrier in one iteration of the enclosing sequential
/// loops (by several collectives, or several instructions completing on
/// it) make one phase.
llvm::hash_code Interpreter::phaseKey() {
  llvm::hash_code h = llvm::hash_combine(current.task);
  for (auto &[loop, i] : iterationKeys)
    h = llvm::hash_combine(h, loop, i);
  return h;
}

void Interpreter::execArrive(ArriveOp arrive) {
  Var *var = lookup(arrive, arrive.getBarrier());
  if (!var)
    return;
  // A CTA has one hardware cluster barrier: every cluster_sync variable is
  // lowered to it, so an arrive on one while the same threads' arrive on
  // another is not yet awaited may complete that other phase early.
  if (var->mechanism == BarrierMechanism::cluster_sync &&
      current.kind == ThreadSet::Device) {
    llvm::hash_code here = phaseKey();
    for (const auto &[other, threads, first, key] : clusterPending)
      if (other == var && key == here && threads.intersects(current)) {
        report(arrive,
               "cluster barrier arrived on twice: " + describe(current) +
                   " arrive on " + var->name + " while " +
                   describe(threads) + " arrived on it and did not await "
                   "it yet; the CTA's hardware cluster barrier "
                   "(barrier.cluster) takes one arrive a thread before its "
                   "wait, so this arrive may complete the phase early (a "
                   "race or a hang): await " + var->name +
                   " between the two arrives",
               {{first, "the first arrive"}});
        return;
      } else if (other != var && threads.intersects(current)) {
        report(arrive,
               "two cluster barriers interleaved: " + describe(current) +
                   " arrive on " + var->name + " while " +
                   describe(threads) + " arrived on " + other->name +
                   " and did not await it yet; each CTA has one hardware "
                   "cluster barrier (barrier.cluster), which every "
                   "cluster_sync variable uses, so this arrive may complete "
                   "the phase of " + other->name +
                   " early (a race or a hang): await " + other->name +
                   " before arriving on another cluster barrier",
               {});
        return;
      }
    clusterPending.push_back({var, current, arrive, phaseKey()});
  }
  Box box = evalWindow(*var, arrive.getIndices(), arrive.getMap(),
                       arrive.getIntervals());
  if (!barrierInBounds(arrive, *var, box, "arrive on"))
    return;
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
    captured = capture(pre, arrive.getTransitive(), arrive);
  }
  // An arrive writes the mbarrier's word in shared memory (another CTA's,
  // for a remote arrive): like any access of shared memory it must be
  // ordered before every thread that may reuse the memory once it is
  // freed (an arrive on another CTA's mbarrier after the task's last
  // cluster barrier may reach it after that CTA moved on or exited). It
  // comes after the captures above, so that it is not one of the
  // accesses this arrive itself publishes. (A trailing barrier's
  // completion comes with the instruction's own accesses, recorded.)
  if (phased(*var) && !arrive.getLast() && current.kind == ThreadSet::Device)
    addRecord(arrive, var, box,
              static_cast<uint32_t>(QualTimeline::cuda_in_order_ram),
              /*mutate=*/true, /*outOfOrder=*/false, {}, /*last=*/false);
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
void Interpreter::arriveInto(ArriveOp arrive, const Var &var, int64_t e,
                             BarrierElem &elem, size_t q,
                             const RecordPtr &arrival) {
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
size_t Interpreter::awaiterKey() {
  return llvm::hash_combine(
      current.task,
      llvm::hash_combine_range(current.lo.begin(), current.lo.end()),
      llvm::hash_combine_range(current.hi.begin(), current.hi.end()));
}

/// The wait_group of a commit-group mechanism (AwaitOp on a commit group).
void Interpreter::awaitCommitGroups(AwaitOp await, BarrierElem &elem,
                                    const ThreadSet &to, uint32_t full,
                                    uint32_t temporal) {
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
  bool readOnly = await.getRead();
  std::vector<bool> &done =
      (readOnly ? view.readDone : view.done)[{full, temporal}];
  done.resize(view.mine.size(), false);
  // Each thread's wait_group n completes the groups that thread committed
  // but its own newest n (the groups of the collective's other threads
  // do not count): group i is complete when every awaiting thread that
  // committed it committed at least n groups after it (counted, as a
  // lower bound, by later groups whose committers include all of them).
  auto complete = [&](size_t i) {
    if (keep == 0)
      return true;
    for (const ThreadSet &a : elem.phases[view.mine[i]].arrivers) {
      std::optional<ThreadSet> own = a.intersect(to);
      if (!own)
        continue;
      int64_t later = 0;
      for (size_t j = i + 1; j < view.mine.size() && later < keep; ++j)
        later += llvm::any_of(elem.phases[view.mine[j]].arrivers,
                              [&](const ThreadSet &b) {
                                return b.contains(*own);
                              });
      if (later < keep)
        return false;
    }
    return true;
  };
  // A thread's wait_group covers only its own copies: each record
  // becomes visible to the threads that made it. wait_group.read covers
  // only the copies' reads of their shared-memory sources: their global
  // writes (and anything else the group captured) stay in flight.
  for (size_t i = 0; i < view.mine.size(); ++i) {
    if (done[i] || !complete(i))
      continue;
    done[i] = true;
    ArrayRef<Captured> captured = elem.phases[view.mine[i]].captured;
    SmallVector<Captured> reads;
    if (readOnly)
      for (const Captured &c : captured)
        if (!c.record->mutate && c.record->var && c.record->var->shared &&
            !c.record->var->isToken)
          reads.push_back(c);
    publish(readOnly ? ArrayRef<Captured>(reads) : captured, to, full,
            temporal, await, /*ownOnly=*/true);
  }
}

/// Whether the threads awaiting this element are one collective, as code
/// generation's phase parities need (else a report, and false).
bool Interpreter::awaitedByOneCollective(AwaitOp await, Var &var,
                                         BarrierElem &elem, const Box &box) {
  // Code generation keeps one phase parity bit per thread and element: a
  // thread's awaits of an element count together, whatever collective
  // makes them, so they must all come from one collective.
  if (!phased(var) || current.kind != ThreadSet::Device)
    return true;
  for (const ThreadSet &other : elem.awaiters)
    if (!(other == current) && other.intersects(current)) {
      report(await,
             "await from two collectives: " + describe(current) +
                 " await " + var.name + "[" + std::to_string(
                     elements(var, box).front()) +
                 "], which " + describe(other) +
                 " awaited before; each thread keeps one phase parity "
                 "per mbarrier element and advances it at every await, "
                 "so the phases these awaits wait for are not the ones "
                 "the check would count (a hang or a stale phase): "
                 "await each element from one collective",
             {});
      return false;
    }
  if (!llvm::is_contained(elem.awaiters, current))
    elem.awaiters.push_back(current);
  return true;
}

void Interpreter::execAwait(AwaitOp await) {
  Var *var = lookup(await, await.getBarrier());
  if (!var)
    return;
  if (var->mechanism == BarrierMechanism::cluster_sync)
    llvm::erase_if(clusterPending, [&](const auto &p) {
      return p.var == var && p.threads.intersects(current);
    });
  Box box = evalWindow(*var, await.getIndices(), await.getMap(),
                       await.getIntervals());
  if (!barrierInBounds(await, *var, box, "await"))
    return;
  BarrierElem &elem = var->elems[elements(*var, box).front()];
  uint32_t full = static_cast<uint32_t>(await.getFull());
  uint32_t temporal = static_cast<uint32_t>(await.getTemporal());
  ThreadSet to = syncActors();
  if (gpuir::isCommitGroup(var->mechanism)) {
    awaitCommitGroups(await, elem, to, full, temporal);
    return;
  }
  if (!awaitedByOneCollective(await, *var, elem, box))
    return;
  size_t key = awaiterKey();
  int64_t j = elem.awaited[key]++;
  int64_t lag = await.getLag().value_or(0);
  if (var->mechanism == BarrierMechanism::mbarrier_prearrive)
    lag += 1;
  int64_t target = j - lag;
  int64_t e = elements(*var, box).front();
  // A skip counts the phase and waits for nothing: no phase is ordered
  // before or after it. What it costs is checked at the threads' next
  // await of the element (below).
  if (await.getSkip()) {
    elem.skipped.insert(key);
    return;
  }
  bool afterSkip = elem.skipped.erase(key) > 0;
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
  // A wait sees only the parity of the element's current phase: after
  // these threads skipped phase target - 1, it must have completed before
  // the wait begins, or the wait, seeing it in progress, passes at once.
  // (Threads that awaited target - 1 themselves saw it complete.)
  if (afterSkip && target >= 1 &&
      !tokenSeen(*elem.phases[target - 1].completion, syncActors(),
                 /*byAll=*/true)) {
    report(await,
           "await after a skipped phase that may be in progress: " +
               describe(current) + " await phase " + std::to_string(target) +
               " of " + elementName(*var, e) + " after skipping phase " +
               std::to_string(target - 1) + ", but nothing orders the "
               "await after phase " + std::to_string(target - 1) +
               " completes; the wait sees only the parity of the current "
               "phase, so while phase " + std::to_string(target - 1) +
               " is in progress it passes at once: synchronize with the "
               "threads that await phase " + std::to_string(target - 1) +
               " before this await",
           {{elem.phases[target - 1].op,
             "an arrive of phase " + std::to_string(target - 1)}});
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

/// A cluster_sync variable's arrives must be awaited before its scope
/// ends: every such variable is the CTA's one hardware cluster barrier, so
/// the next arrive of the same threads (on another variable, or the CTA's
/// next task) would be their second before a wait.
void Interpreter::checkClusterAwaited(FreeOp freeOp, const Var &var) {
  for (const ClusterArrive &p : clusterPending) {
    if (p.var != &var)
      continue;
    SmallVector<std::pair<Operation *, std::string>> notes = {
        {p.arrive, "the arrive"}};
    Operation *site = freeSite(freeOp, var, notes);
    report(site,
           "cluster barrier arrive without await: " + describe(p.threads) +
               " arrived on " + var.name + " and did not await it before " +
               var.name + " is freed; each CTA has one hardware cluster "
               "barrier (barrier.cluster), which every cluster_sync variable "
               "and the CTA's next task use, so the threads' next arrive on "
               "it would be their second before a wait (a race or a hang): "
               "await " + var.name + " before it is freed",
           notes);
    break;
  }
  llvm::erase_if(clusterPending,
                 [&](const ClusterArrive &p) { return p.var == &var; });
}

void Interpreter::execFree(FreeOp freeOp) {
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
  if (var->isBarrier && ordersPhases(*var))
    checkAcrossTasks(*var);
  if (var->mechanism == BarrierMechanism::cluster_sync)
    checkClusterAwaited(freeOp, *var);
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

} // namespace mlir::rake::sync_check_detail
