//===- LaneAnalysis.h - The dataflow over a SASS function ------*- C++ -*-===//
//
// Private to lib/Verifier: the forward dataflow behind the divergent-control
// rule (lane uniformity, Divergence.cpp) and the address-pattern rule (data
// origins, DataOrigins.cpp), over one function's basic blocks.
//
//===----------------------------------------------------------------------===//

#ifndef RAKE_VERIFIER_LANEANALYSIS_H
#define RAKE_VERIFIER_LANEANALYSIS_H

#include "Divergence.h"
#include "SassOperands.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rake::verifier::lanes {

using namespace rake::verifier::sass;


/// Lane uniformity of a value: the same in every lane of a warp; a lane
/// index (32 w + lane with w the same in every lane: threadIdx.x of a block
/// whose width is a multiple of 32, or %laneid); or anything else.
enum Lanes : uint8_t { Uniform = 0, LaneIndex = 1, Varying = 2 };

inline Lanes join(Lanes a, Lanes b) { return a == b ? a : Varying; }

/// What a register is known to hold beyond its uniformity, within the
/// straight-line code that computed it: floor(x / d) or d floor(x / d) of a
/// lane index x in register `src` (the remainder idiom's parts).
struct Tag {
  enum Kind : uint8_t { Quotient, Multiple } kind;
  int src;
  int64_t d;
  bool operator==(const Tag &o) const {
    return kind == o.kind && src == o.src && d == o.d;
  }
};

/// Where a value comes from memory: the index of the load (or mma, atomic,
/// branch on loaded data) it was computed from, or -1.
using Origin = int32_t;

struct State {
  Lanes lanes[kSlots] = {};
  std::map<int, Tag> tags;
  /// The data origin of each register and predicate, and of each uniform
  /// register and predicate.
  Origin origin[kSlots];
  Origin uorigin[kUniformSlots];
  /// Registers last written under a guard (its text, "@!P0"), with what the
  /// write gave them: an instruction under the same guard, with the
  /// guard's predicate not written since, reads that value.
  std::map<int, std::pair<std::string, Origin>> guarded;
  /// What the thread stored at each 4-byte word of its stack frame (by
  /// offset from the stack pointer R1, stored by STL [R1+imm]): a reload
  /// of known words gives their origins. A word not here is unknown, and
  /// a reload that reads one is data.
  std::map<int64_t, Origin> local;
  State() {
    std::fill(std::begin(origin), std::end(origin), -1);
    std::fill(std::begin(uorigin), std::end(uorigin), -1);
  }
  bool operator==(const State &o) const {
    return std::equal(std::begin(lanes), std::end(lanes),
                      std::begin(o.lanes)) &&
           tags == o.tags &&
           std::equal(std::begin(origin), std::end(origin),
                      std::begin(o.origin)) &&
           std::equal(std::begin(uorigin), std::end(uorigin),
                      std::begin(o.uorigin)) &&
           guarded == o.guarded && local == o.local;
  }
  /// Joins `o` into this state; whether anything changed. (An origin, once
  /// known, stays: the lattice is "from no load" below "from load k".)
  bool merge(const State &o) {
    bool changed = false;
    for (int i = 0; i < kSlots; ++i) {
      Lanes j = join(lanes[i], o.lanes[i]);
      changed |= j != lanes[i];
      lanes[i] = j;
      if (origin[i] < 0 && o.origin[i] >= 0) {
        origin[i] = o.origin[i];
        changed = true;
      }
    }
    for (int i = 0; i < kUniformSlots; ++i)
      if (uorigin[i] < 0 && o.uorigin[i] >= 0) {
        uorigin[i] = o.uorigin[i];
        changed = true;
      }
    for (auto it = guarded.begin(); it != guarded.end();) {
      auto other = o.guarded.find(it->first);
      if (other == o.guarded.end() || other->second != it->second) {
        it = guarded.erase(it);
        changed = true;
      } else {
        ++it;
      }
    }
    for (auto it = local.begin(); it != local.end();) {
      auto other = o.local.find(it->first);
      if (other == o.local.end()) {
        it = local.erase(it);
        changed = true;
        continue;
      }
      if (it->second < 0 && other->second >= 0) {
        it->second = other->second;
        changed = true;
      }
      ++it;
    }
    for (auto it = tags.begin(); it != tags.end();) {
      auto other = o.tags.find(it->first);
      if (other == o.tags.end() || !(other->second == it->second)) {
        it = tags.erase(it);
        changed = true;
      } else {
        ++it;
      }
    }
    return changed;
  }
  void write(int slot) {
    tags.erase(slot);
    for (auto it = tags.begin(); it != tags.end();)
      it = it->second.src == slot ? tags.erase(it) : std::next(it);
  }
};

/// What a called function does to the caller's registers: the registers
/// it may read before writing them (live on entry), and those it writes on
/// every path to its return (must) or on some path (may).
struct CalleeSummary {
  std::vector<bool> liveIn, mustWrite, mayWrite;
  /// The uniform registers and predicates it may write, and those live on
  /// entry.
  std::vector<bool> uniformWrite, uniformLiveIn;
};

class Analysis {
public:
  Analysis(const std::vector<Instr> &code, int64_t start, bool tidIsLane,
           const std::map<std::string, CalleeSummary> *callees = nullptr)
      : code(code), start(start), tidIsLane(tidIsLane), callees(callees) {}
  LaneFindings run();
  CalleeSummary summarize();

private:
  void buildBlocks();
  void postDominators();
  size_t ipdom(size_t b) const;
  std::vector<State> dataflow();
  void transfer(const Instr &in, State &st, bool divergent) const;
  void transferData(const Instr &in, size_t k, State &st) const;
  void transferCall(const Instr &in, size_t k, State &st) const;
  const CalleeSummary *calleeOf(const Instr &call) const;
  void joinRegions(size_t block, State &st) const;
  void computeJoinTaint(const std::vector<State> &at);
  std::vector<DataAddress> dataAddresses(const std::vector<State> &at) const;
  Origin conditionOrigin(const Instr &in, const State &st) const;
  std::vector<std::vector<bool>> regionsOf(const std::vector<State> &at,
                                           std::vector<size_t> &because) const;
  std::vector<bool> regionBlocks(size_t j, size_t stop) const;
  Lanes refine(StringRef opcode, const std::vector<std::string> &ops,
               const State &st, Lanes res, std::optional<Tag> &tag) const;
  bool remainder(const std::vector<std::string> &ops, State &st) const;
  Lanes value(const State &st, StringRef operand) const;
  bool conditionVaries(const Instr &in, const State &st) const;

  const std::vector<Instr> &code;
  int64_t start;
  /// Whether SR_TID.X is 32 w + lane (w the same in every lane): in a
  /// one-dimensional block, or one whose width is a multiple of 32.
  bool tidIsLane;
  const std::map<std::string, CalleeSummary> *callees;
  /// Basic blocks [begin, end) of instruction indices.
  std::vector<std::pair<size_t, size_t>> blocks;
  std::vector<size_t> blockOf;
  std::vector<std::vector<size_t>> succs;
  std::vector<bool> exits;
  /// Post-dominator sets (block count + 1: the virtual exit).
  std::vector<std::vector<bool>> pdom;
  /// Blocks inside the region of a divergent branch.
  std::vector<bool> divergent;
  /// A region of a branch on loaded data ends at a block (its immediate
  /// post-dominator): there, what the region wrote depends on the data.
  struct JoinTaint {
    Origin origin;
    std::vector<int> slots, uslots;
    bool operator==(const JoinTaint &o) const {
      return origin == o.origin && slots == o.slots && uslots == o.uslots;
    }
  };
  std::vector<std::vector<JoinTaint>> joinTaint;
  /// The instructions the last dataflow reached.
  std::vector<bool> reachedAt;
};

} // namespace rake::verifier::lanes

#endif // RAKE_VERIFIER_LANEANALYSIS_H
