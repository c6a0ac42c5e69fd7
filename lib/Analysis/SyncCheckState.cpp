//===- SyncCheckState.cpp - the abstract machine's records ----------------===//
//
// The synchronization check's record keeping (see SyncCheckInternal.h): the
// index of a variable's records, the visibility of a record, the merging
// of records (continuing boxes, and a finished task's records into tiles),
// the capture and publication of records by fences, arrives and awaits, and
// the tokens that stand for synchronization events.
//
//===----------------------------------------------------------------------===//

#include "SyncCheckInternal.h"

#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::rake;
using namespace mlir::rake::amir;

namespace mlir::rake::sync_check_detail {

SmallVector<int64_t>
allocExtents(AllocOp alloc, function_ref<int64_t(Value)> valueOf,
             SmallVectorImpl<std::pair<unsigned, int64_t>> *negative) {
  SmallVector<int64_t> extents(alloc.getShape());
  if (std::optional<AffineMap> map = alloc.getExtents()) {
    SmallVector<int64_t> dims;
    for (Value v : alloc.getExtentOperands())
      dims.push_back(valueOf(v));
    SmallVector<int64_t> declared = evalMap(*map, dims);
    for (auto [d, extent] : llvm::enumerate(extents)) {
      if (extent >= 0)
        continue;
      extent = std::max<int64_t>(declared[d], 0);
      if (declared[d] < 0 && negative)
        negative->push_back({unsigned(d), declared[d]});
    }
  }
  return extents;
}

SmallVector<int64_t> evalMap(AffineMap map, ArrayRef<int64_t> dims) {
  SmallVector<int64_t> out;
  for (AffineExpr e : map.getResults())
    out.push_back(evaluateControlExpr(e, dims));
  return out;
}


/// Whether a box is a single element.
static bool isPointBox(const Box &b) {
  for (size_t i = 0; i < b.lo.size(); ++i)
    if (b.hi[i] != b.lo[i] + 1)
      return false;
  return true;
}

/// The one dimension along which `next` continues `box` (equal extents in
/// every other dimension), or -1.
static int continuingAxis(const Box &box, const Box &next) {
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
               Level level, StringAttr order) {
  // Accesses with one order key on one timeline (wgmma accumulators of one
  // shape) are ordered for their own threads without a synchronization.
  if (r.order && r.order == order && (r.qual & qual) && r.actors.contains(t))
    return true;
  for (const Vis &v : r.vis)
    if ((v.quals & qual) && v.level >= level && v.threads.contains(t))
      return true;
  return false;
}

bool Interpreter::isPoint(const Box &b) { return isPointBox(b); }

/// Merges `r` into `into` when both are the same threads' accesses of one
/// variable on one timeline with the same visibility and `r` continues
/// `into` along one dimension (without moving its first coordinate, which
/// indexes it). `r` is then dead.
/// Whether two records' visibility lists hold the same entries.
bool Interpreter::sameVis(const Record &a, const Record &b) {
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

bool Interpreter::mergeInto(Record &into, Record &r) {
  if (into.var != r.var || !(into.actors == r.actors) ||
      into.qual != r.qual || into.order != r.order || into.mutate != r.mutate ||
      into.outOfOrder != r.outOfOrder || into.captured != r.captured)
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
void Interpreter::summarizeTask(int64_t task) {
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
void Interpreter::tileTask(SmallVector<RecordPtr> &live) {
  std::map<std::tuple<Var *, Operation *, uint32_t, bool, bool, uint8_t>,
           SmallVector<RecordPtr>>
      groups;
  for (RecordPtr &r : live)
    if (!r->dead)
      groups[{r->var, r->op, r->qual, r->mutate, r->outOfOrder,
              uint8_t(r->captured)}]
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

void Interpreter::markCaptured(Record &r, Operation *by) {
  r.captured = true;
  if (!llvm::is_contained(r.capturedBy, by)) {
    if (r.capturedBy.size() == 4)
      r.capturedBy.erase(r.capturedBy.begin());
    r.capturedBy.push_back(by);
  }
}

/// The accesses a synchronization by the current threads on `pre`
/// captures: their own on those timelines, and (when transitive) those
/// that earlier synchronization made fully visible to them on `pre`. A
/// transitive synchronization also carries time order: an access already
/// ordered before these threads on any timeline is ordered before what
/// follows the synchronization (captured temporally only).
SmallVector<Captured> Interpreter::capture(uint32_t pre, bool transitive,
                                           Operation *op) {
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
      bool full = (r->qual & pre) && r->actors.intersects(s);
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
bool Interpreter::implied(const Record &r, const ThreadSet &to, uint32_t quals,
                          Level level) {
  for (const Vis &o : r.vis)
    if (o.level >= level && (o.quals & quals) == quals &&
        o.threads.contains(to))
      return true;
  return false;
}

void Interpreter::addVis(Record &r, const Vis &v) {
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
void Interpreter::publish(ArrayRef<Captured> records, const ThreadSet &toAll,
                          uint32_t full, uint32_t temporal, Operation *via,
                          bool ownOnly) {
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

/// Whether threads `t` are ordered after the whole event a token stands
/// for (every thread's part of it): some of them (enough for a
/// collective's synchronization, which waits for all its threads, or for
/// an arrival, whose phase completes after all its arrivals), or all.
bool Interpreter::tokenSeen(const Record &token, const ThreadSet &t,
                            bool byAll) {
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
void Interpreter::forEachThread(const ThreadSet &t, Fn fn) {
  forEachPoint(ArrayRef<int64_t>(t.lo.begin(), t.lo.end()),
               ArrayRef<int64_t>(t.hi.begin(), t.hi.end()), fn);
}

/// Whether a synchronization by `s` orders the whole event of a token
/// before what follows it: every thread of the event takes part, each
/// after its own part of the event.
bool Interpreter::tokenTakenBy(const Record &token, const ThreadSet &s) {
  return threadCount(token.actors) > 0 && s.contains(token.actors);
}

/// A token for an event of the current threads now (none: a phase's
/// completion, which no thread has observed yet). A single thread is
/// ordered after its own event; a collective's threads only after their
/// own parts of it, until a synchronization joins them.
RecordPtr Interpreter::makeToken(bool byCurrent, Operation *op) {
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

int64_t Interpreter::threadCount(const ThreadSet &t) {
  if (t.kind != ThreadSet::Device)
    return 1;
  int64_t n = 1;
  for (size_t i = 0; i < t.lo.size(); ++i)
    n *= std::max<int64_t>(0, t.hi[i] - t.lo[i]);
  return n;
}

} // namespace mlir::rake::sync_check_detail
