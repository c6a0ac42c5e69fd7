//===- Divergence.cpp - Warp collectives under lane-divergent control -----===//
//
// The "divergent-control" rule of the cubin verifier (Divergence.h). Every
// lane of a warp must reach a warp collective (the .sync.aligned
// instructions and shfl/vote with the full mask) together; one that some
// lanes skip hangs or reads what no lane wrote. The compiler's uniformity
// rule refuses such programs at the source; this rule finds them in the
// machine code, for PTX the compiler did not write.
//
//===----------------------------------------------------------------------===//

#include "Divergence.h"
#include "SassOperands.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

using namespace rake::verifier;
using namespace rake::verifier::sass;
using llvm::StringRef;

namespace {

/// Lane uniformity of a value: the same in every lane of a warp; a lane
/// index (32 w + lane with w the same in every lane: threadIdx.x of a block
/// whose width is a multiple of 32, or %laneid); or anything else.
enum Lanes : uint8_t { Uniform = 0, LaneIndex = 1, Varying = 2 };

Lanes join(Lanes a, Lanes b) { return a == b ? a : Varying; }

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
           guarded == o.guarded;
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
};

class Analysis {
public:
  Analysis(const std::vector<Instr> &code, int64_t start,
           const std::map<std::string, CalleeSummary> *callees = nullptr)
      : code(code), start(start), callees(callees) {}
  LaneFindings run();
  CalleeSummary summarize();

private:
  void buildBlocks();
  void postDominators();
  size_t ipdom(size_t b) const;
  std::vector<State> dataflow();
  void transfer(const Instr &in, State &st, bool divergent) const;
  void transferData(const Instr &in, size_t k, State &st,
                    Origin region) const;
  Origin conditionOrigin(const Instr &in, const State &st) const;
  std::vector<std::vector<bool>> regionsOf(const std::vector<State> &at,
                                           bool data,
                                           std::vector<size_t> &because) const;
  Lanes refine(StringRef opcode, const std::vector<std::string> &ops,
               const State &st, Lanes res, std::optional<Tag> &tag) const;
  bool remainder(const std::vector<std::string> &ops, State &st) const;
  Lanes value(const State &st, StringRef operand) const;
  bool conditionVaries(const Instr &in, const State &st) const;

  const std::vector<Instr> &code;
  int64_t start;
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
  /// For each block inside the region of a branch on loaded data, that
  /// data's origin (else -1).
  std::vector<Origin> dataRegion;
  /// The instructions the last dataflow reached.
  std::vector<bool> reachedAt;
};

std::optional<int64_t> branchTarget(const Instr &in) {
  std::vector<std::string> ops = operandsOf(in);
  if (ops.empty())
    return std::nullopt;
  return immediate(ops.back());
}

void Analysis::buildBlocks() {
  size_t n = code.size();
  std::map<int64_t, size_t> index;
  for (size_t k = 0; k < n; ++k)
    index[start + 16 * int64_t(k)] = k;
  std::set<size_t> leaders = {0};
  for (size_t k = 0; k < n; ++k) {
    StringRef b = baseOf(code[k].opcode);
    if (b == "BRA" || b == "BRX" || b == "JMP" || b == "JMX" || b == "EXIT" ||
        b == "RET" || b == "BPT") {
      if (k + 1 < n)
        leaders.insert(k + 1);
      if (b == "BRA" || b == "JMP")
        if (std::optional<int64_t> t = branchTarget(code[k]))
          if (auto it = index.find(*t); it != index.end())
            leaders.insert(it->second);
    }
  }
  std::vector<size_t> l(leaders.begin(), leaders.end());
  blockOf.assign(n, 0);
  for (size_t j = 0; j < l.size(); ++j) {
    size_t e = j + 1 < l.size() ? l[j + 1] : n;
    blocks.push_back({l[j], e});
    for (size_t k = l[j]; k < e; ++k)
      blockOf[k] = j;
  }
  size_t nb = blocks.size();
  succs.assign(nb, {});
  exits.assign(nb, false);
  for (size_t j = 0; j < nb; ++j) {
    auto [s, e] = blocks[j];
    const Instr &in = code[e - 1];
    StringRef b = baseOf(in.opcode);
    bool conditional = !in.predicate.empty() && in.predicate != "@PT";
    auto add = [&](size_t x) {
      if (!llvm::is_contained(succs[j], x))
        succs[j].push_back(x);
    };
    if (b == "BRA" || b == "JMP") {
      std::optional<int64_t> t = branchTarget(in);
      auto it = t ? index.find(*t) : index.end();
      if (it == index.end()) {
        // An unknown target: anywhere.
        for (size_t x = 0; x < nb; ++x)
          add(x);
        continue;
      }
      add(blockOf[it->second]);
      if ((conditional || operandsOf(in).size() > 1) && e < n)
        add(blockOf[e]);
    } else if (b == "EXIT" || b == "RET" ||
               (b == "BPT" && opcodeHas(in.opcode, "TRAP"))) {
      exits[j] = true;
      if (conditional && e < n)
        add(blockOf[e]);
    } else if (b == "BRX" || b == "JMX") {
      for (size_t x = 0; x < nb; ++x)
        add(x);
    } else if (e < n) {
      add(blockOf[e]);
    }
  }
}

void Analysis::postDominators() {
  size_t nb = blocks.size();
  pdom.assign(nb + 1, std::vector<bool>(nb + 1, true));
  pdom[nb].assign(nb + 1, false);
  pdom[nb][nb] = true;
  bool changed = true;
  while (changed) {
    changed = false;
    for (size_t j = nb; j-- > 0;) {
      std::vector<size_t> next = succs[j];
      if (exits[j] || next.empty())
        next.push_back(nb);
      std::vector<bool> meet(nb + 1, true);
      for (size_t x : next)
        for (size_t i = 0; i <= nb; ++i)
          meet[i] = meet[i] && pdom[x][i];
      meet[j] = true;
      if (meet != pdom[j]) {
        pdom[j] = std::move(meet);
        changed = true;
      }
    }
  }
}

size_t Analysis::ipdom(size_t b) const {
  size_t nb = blocks.size();
  for (size_t c = 0; c <= nb; ++c) {
    if (c == b || !pdom[b][c])
      continue;
    bool immediate = true;
    for (size_t d = 0; d <= nb && immediate; ++d)
      if (d != b && d != c && pdom[b][d] && !pdom[c][d])
        immediate = false;
    if (immediate)
      return c;
  }
  return nb;
}

Lanes Analysis::value(const State &st, StringRef operand) const {
  llvm::SmallVector<int, 4> slots;
  slotsIn(operand, slots);
  Lanes v = Uniform;
  bool first = true;
  for (int s : slots) {
    v = first ? st.lanes[s] : join(v, st.lanes[s]);
    first = false;
  }
  return v;
}

/// What the instruction's own rule (a lane index's copies, shifts, magic
/// divisions and comparisons; votes; special registers) says of its
/// result, given `res` from its sources; may set a tag.
Lanes Analysis::refine(StringRef opcode, const std::vector<std::string> &ops,
                       const State &st, Lanes res,
                       std::optional<Tag> &tag) const {
  StringRef base = baseOf(opcode);
  auto operandIs = [&](size_t i, Lanes l) {
    return i < ops.size() && value(st, ops[i]) == l;
  };
  if (base == "S2R" && ops.size() == 2) {
    res = ops[1] == "SR_TID.X" || ops[1] == "SR_LANEID" ? LaneIndex
          : isUniformSpecialRegister(ops[1])             ? Uniform
                                                          : Varying;
  } else if (base == "CS2R" && ops.size() == 2) {
    res = ops[1] == "SRZ" ? Uniform : Varying;
  } else if (base == "MOV" || opcode.starts_with("IMAD.MOV")) {
    // A copy keeps the value's kind; a negated lane index varies.
    StringRef src = base == "MOV" ? StringRef(ops.size() > 1 ? ops[1] : "")
                                  : StringRef(ops.empty() ? "" : ops.back());
    res = value(st, src);
    if (src.trim().starts_with("-") && res == LaneIndex)
      res = Varying;
    if (base == "MOV" && ops.size() > 2 && value(st, ops[2]) != Uniform)
      res = Varying;
  } else if (opcode.starts_with("SHF.R") && ops.size() == 4 && ops[1] == "RZ") {
    // x >> k of a lane index x, k >= 5: the warp's part, uniform.
    std::optional<int64_t> k = immediate(ops[2]);
    if (operandIs(3, LaneIndex) && k && *k >= 5)
      res = Uniform;
  } else if (base == "ISETP" && ops.size() >= 4) {
    // A lane index against a multiple of 32 (x < 32 k, x > 32 k - 1, ...):
    // every lane of the warp agrees.
    StringRef cmp = opcode.drop_front(6).split('.').first;
    std::optional<int64_t> k = immediate(ops[3]);
    bool restUniform = llvm::all_of(
        llvm::drop_begin(ops, 4),
        [&](const std::string &o) { return value(st, o) == Uniform; });
    if (operandIs(2, LaneIndex) && k && restUniform &&
        (((cmp == "GT" || cmp == "LE") && (*k + 1) % 32 == 0) ||
         ((cmp == "LT" || cmp == "GE") && *k % 32 == 0)))
      res = Uniform;
  } else if (base == "VOTE" || base == "VOTEU" || base == "REDUX") {
    res = Uniform;
  } else if (opcode.starts_with("IMAD.HI.U32") && ops.size() == 4 &&
             ops[3] == "RZ" && operandIs(1, LaneIndex)) {
    // floor(x * C / 2^32) with C the magic number of a division by d, a
    // multiple of 32, exact for every x below 2^16 (a cluster's threads):
    // floor(x / d), uniform.
    std::optional<int64_t> c = immediate(ops[2]);
    int src = slotOf(ops[1]);
    if (c && *c > 0 && src >= 0) {
      int64_t d = (int64_t(1) << 32) / *c;
      for (int64_t cand : {d, d + 1}) {
        int64_t err = *c * cand - (int64_t(1) << 32);
        if (cand % 32 == 0 && err >= 0 && (err << 16) < (int64_t(1) << 32)) {
          res = Uniform;
          tag = Tag{Tag::Quotient, src, cand};
        }
      }
    }
  } else if (opcode.starts_with("IMAD.WIDE") && ops.size() == 4 &&
             ops[3] == "RZ") {
    // d floor(x / d), from the quotient above.
    int q = slotOf(ops[1]);
    std::optional<int64_t> c = immediate(ops[2]);
    auto it = q >= 0 ? st.tags.find(q) : st.tags.end();
    if (it != st.tags.end() && it->second.kind == Tag::Quotient && c &&
        *c == it->second.d)
      tag = Tag{Tag::Multiple, it->second.src, it->second.d};
  } else if (opcode.starts_with("IMAD") && !opcode.starts_with("IMAD.HI") &&
             !opcode.starts_with("IMAD.WIDE") && ops.size() == 4 &&
             operandIs(1, Uniform) && operandIs(3, LaneIndex)) {
    // u * 32 k + x: a lane index.
    std::optional<int64_t> k = immediate(ops[2]);
    if (k && *k % 32 == 0)
      res = LaneIndex;
  }
  return res;
}

/// x - d floor(x / d) of a lane index x (IADD3 R, P, x, -m, RZ with m
/// tagged d floor(x / d)): x mod d, a lane index again (d is a multiple of
/// 32), and no borrow in any lane (the carry is set everywhere). Whether
/// it applied.
bool Analysis::remainder(const std::vector<std::string> &ops, State &st) const {
  if (ops.size() != 5 || !isPredicate(ops[1]) ||
      !StringRef(ops[3]).starts_with("-") || ops[4] != "RZ" ||
      value(st, ops[2]) != LaneIndex)
    return false;
  int x = slotOf(ops[2]), m = slotOf(StringRef(ops[3]).drop_front());
  auto it = m >= 0 ? st.tags.find(m) : st.tags.end();
  if (it == st.tags.end() || it->second.kind != Tag::Multiple ||
      it->second.src != x)
    return false;
  int dst = slotOf(ops[0]), carry = slotOf(ops[1]);
  if (dst >= 0) {
    st.write(dst);
    st.lanes[dst] = LaneIndex;
  }
  if (carry >= 0) {
    st.write(carry);
    st.lanes[carry] = Uniform;
  }
  return true;
}

/// The origin of register `slot` as an instruction under `guard` (its
/// text, or empty) reads it.
Origin readOrigin(const State &st, int slot, StringRef guard) {
  if (!guard.empty())
    if (auto it = st.guarded.find(slot);
        it != st.guarded.end() && it->second.first == guard)
      return it->second.second;
  return st.origin[slot];
}

/// The first data origin among the registers an operand reads (pairs
/// whole), as an instruction under `guard` reads them; or -1.
Origin operandOrigin(const State &st, StringRef o, StringRef guard) {
  llvm::SmallVector<int, 4> slots, uslots;
  pairSlotsIn(o, slots, /*uniform=*/false);
  pairSlotsIn(o, uslots, /*uniform=*/true);
  for (int s : slots)
    if (Origin x = readOrigin(st, s, guard); x >= 0)
      return x;
  for (int s : uslots)
    if (st.uorigin[s] >= 0)
      return st.uorigin[s];
  return -1;
}

/// The guard of an instruction as the data origins key it: empty when it
/// always runs.
StringRef guardOf(const Instr &in) {
  return in.predicate.empty() || in.predicate == "@PT" ? StringRef()
                                                        : StringRef(in.predicate);
}

/// The data origins: what instruction k writes comes from memory when it
/// loads (loadsData), when a source operand (a register, predicate or
/// uniform register, addresses included) or its guard does, or when it runs
/// in the region of a branch on loaded data. A guarded write leaves the old
/// origin possible for unguarded readers; readers under the same guard see
/// only the new one.
void Analysis::transferData(const Instr &in, size_t k, State &st,
                            Origin region) const {
  if (in.predicate == "@!PT")
    return;
  StringRef opcode(in.opcode);
  std::vector<std::string> ops = splitOperands(in);
  std::optional<Roles> roles = rolesOf(opcode, ops);
  StringRef guard = guardOf(in);
  Origin from = loadsData(baseOf(opcode)) ? Origin(k) : region;
  auto take = [&](Origin o) {
    if (from < 0)
      from = o;
  };
  if (baseOf(opcode) == "CALL") {
    // What the callee reads flows to what it writes.
    const CalleeSummary *callee = nullptr;
    if (callees && !ops.empty())
      if (auto it = callees->find(StringRef(ops.back()).trim().str());
          it != callees->end())
        callee = &it->second;
    for (int r = 0; r < kSlots; ++r)
      if (!callee || callee->liveIn[r])
        take(readOrigin(st, r, guard));
    if (!callee && from < 0)
      from = Origin(k);
    for (int r = 0; r < kSlots; ++r) {
      if (callee && !callee->mayWrite[r])
        continue;
      bool must = callee && callee->mustWrite[r] && guard.empty();
      st.origin[r] = must ? from : (st.origin[r] >= 0 ? st.origin[r] : from);
      st.guarded.erase(r);
    }
    return;
  }
  if (!guard.empty())
    take(operandOrigin(st, guard.drop_front(), StringRef()));
  for (const std::string &o : roles ? roles->sources : ops)
    take(operandOrigin(st, o, guard));
  auto set = [&](int slot, bool certain) {
    Origin &dst = st.origin[slot];
    if (certain && guard.empty()) {
      dst = from;
      st.guarded.erase(slot);
    } else {
      dst = dst >= 0 ? dst : from;
      if (certain)
        st.guarded[slot] = {guard.str(), from};
      else
        st.guarded.erase(slot);
    }
  };
  std::vector<int> regs, preds;
  if (roles) {
    regs = roles->regs;
    preds = roles->preds;
  } else {
    // An unknown shape: whatever it names may be written (a register
    // outside brackets with the width of the destination).
    llvm::SmallVector<int, 8> named;
    for (const std::string &o : ops)
      if (!StringRef(o).contains('['))
        slotsIn(o, named);
    for (int s : named)
      (s < kPreds ? regs : preds).push_back(s);
  }
  auto [certain, possible] = dataWidth(opcode);
  for (int r : regs)
    for (int x = 0; x < std::max(certain, possible) && r + x < kPreds; ++x)
      set(r + x, roles && x < certain);
  for (int p : preds) {
    set(p, roles.has_value());
    // Values guarded by that predicate are no longer known by it.
    std::string name = "P" + std::to_string(p - kPreds);
    for (auto it = st.guarded.begin(); it != st.guarded.end();) {
      StringRef g(it->second.first);
      g.consume_front("@");
      g.consume_front("!");
      it = g == name ? st.guarded.erase(it) : std::next(it);
    }
  }
  // A uniform destination (rolesOf leaves it out of its sources).
  if (!ops.empty() && !StringRef(ops[0]).contains('[')) {
    llvm::SmallVector<int, 4> uslots;
    uniformSlotsIn(ops[0], uslots);
    for (int u : uslots) {
      int limit = u < kUniformPreds ? kUniformPreds : kUniformSlots;
      for (int x = 0; x < (u < kUniformPreds ? certain : 1) && u + x < limit;
           ++x) {
        Origin &dst = st.uorigin[u + x];
        dst = guard.empty() ? from : (dst >= 0 ? dst : from);
      }
    }
  }
}

/// The data origin of a branch's or exit's condition, or -1.
Origin Analysis::conditionOrigin(const Instr &in, const State &st) const {
  StringRef guard = guardOf(in);
  Origin from = guard.empty() ? -1
                              : operandOrigin(st, guard.drop_front(), StringRef());
  std::vector<std::string> ops = operandsOf(in);
  StringRef b = baseOf(in.opcode);
  // A computed target (BRX, JMX) and a branch's condition operands.
  for (size_t i = 0; i < ops.size() && from < 0; ++i)
    if (b == "BRX" || b == "JMX" || i + 1 < ops.size())
      from = operandOrigin(st, ops[i], guard);
  return from;
}

void Analysis::transfer(const Instr &in, State &st,
                        bool divergentHere) const {
  if (in.predicate == "@!PT")
    return; // never runs
  StringRef opcode(in.opcode);
  StringRef base = baseOf(opcode);
  std::vector<std::string> ops = operandsOf(in);
  Lanes guard = Uniform;
  bool guarded = !in.predicate.empty() && in.predicate != "@PT";
  if (guarded) {
    StringRef p(in.predicate);
    p.consume_front("@");
    p.consume_front("!");
    if (int s = slotOf(p); s >= 0)
      guard = st.lanes[s];
  }
  std::optional<Roles> roles = rolesOf(opcode, ops);
  bool generic = !roles;
  if (generic) {
    roles = Roles();
    if (!ops.empty())
      if (int s = slotOf(ops[0]); s >= 0 && s < kPreds &&
                                  !StringRef(ops[0]).contains('['))
        roles->regs.push_back(s);
    for (const std::string &o : ops)
      if (int s = slotOf(o); s >= kPreds)
        roles->preds.push_back(s);
    roles->sources = ops;
  }
  bool allUniform = llvm::all_of(roles->sources, [&](const std::string &o) {
    return value(st, o) == Uniform;
  });
  Lanes res = allUniform ? Uniform : Varying;
  if (base == "IADD3" && !guarded && !divergentHere && remainder(ops, st))
    return;
  std::optional<Tag> tag;
  res = refine(opcode, ops, st, res, tag);
  if (base == "ELECT") {
    // The elected lane's predicate differs by lane.
    for (int p : roles->preds) {
      st.write(p);
      st.lanes[p] = Varying;
    }
    return;
  }
  if (base == "SHFL" || base == "MATCH" || base == "ATOM" ||
      base == "ATOMG" || base == "ATOMS" || base == "LDSM" || base == "LDL" ||
      base == "HMMA" || base == "IMMA" || base == "QMMA" || base == "OMMA" ||
      base == "BMMA" || base == "HGMMA" || base == "IGMMA" ||
      base == "QGMMA")
    res = Varying;
  if (divergentHere || guard != Uniform)
    res = Varying;
  auto [certain, possible] = destinationWidth(opcode);
  for (size_t i = 0; i < roles->regs.size(); ++i) {
    int r = roles->regs[i];
    for (int x = 0; x < std::max(certain, possible) && r + x < kPreds; ++x) {
      int slot = r + x;
      Lanes before = st.lanes[slot];
      st.write(slot);
      if (res != Uniform)
        st.lanes[slot] = x == 0 && !guarded ? res : Varying;
      else if (x < certain)
        st.lanes[slot] = guarded ? join(before, res) : Uniform;
      else
        st.lanes[slot] = before;
    }
  }
  if (tag && !roles->regs.empty() && !guarded && !divergentHere)
    st.tags[roles->regs.front()] = *tag;
  for (int p : roles->preds) {
    Lanes before = st.lanes[p];
    st.write(p);
    st.lanes[p] = generic || guarded ? join(before, res) : res;
  }
}

std::vector<State> Analysis::dataflow() {
  size_t nb = blocks.size();
  std::vector<std::optional<State>> in(nb);
  std::vector<State> at(code.size());
  std::vector<bool> reached(code.size(), false);
  in[0] = State();
  std::vector<size_t> work = {0};
  while (!work.empty()) {
    size_t j = work.front();
    work.erase(work.begin());
    State st = *in[j];
    auto [s, e] = blocks[j];
    for (size_t k = s; k < e; ++k) {
      at[k] = st;
      reached[k] = true;
      transferData(code[k], k, st, dataRegion[j]);
      transfer(code[k], st, divergent[j]);
    }
    for (size_t x : succs[j]) {
      if (!in[x]) {
        in[x] = st;
        work.push_back(x);
      } else if (in[x]->merge(st)) {
        if (!llvm::is_contained(work, x))
          work.push_back(x);
      }
    }
  }
  reachedAt = reached;
  return at;
}

bool Analysis::conditionVaries(const Instr &in, const State &st) const {
  StringRef opcode(in.opcode);
  StringRef b = baseOf(opcode);
  if (b == "BRX" || b == "JMX")
    return true;
  // BRA.U and BRA.ANY/ALL branch the whole warp together.
  if (opcodeHas(opcode, "U") || opcodeHas(opcode, "ANY") || opcodeHas(opcode, "ALL"))
    return false;
  llvm::SmallVector<std::string> conds;
  if (!in.predicate.empty() && in.predicate != "@PT")
    conds.push_back(StringRef(in.predicate).drop_front().str());
  std::vector<std::string> ops = operandsOf(in);
  for (size_t i = 0; i + 1 < ops.size(); ++i)
    conds.push_back(ops[i]);
  for (StringRef c : conds) {
    int s = slotOf(c);
    if (s >= kPreds && st.lanes[s] != Uniform)
      return true;
  }
  return false;
}

/// The registers and predicates an instruction reads and writes (certainly
/// and possibly), for a callee's summary.
static void readsAndWrites(const Instr &in, std::vector<int> &reads,
                           std::vector<int> &must, std::vector<int> &may) {
  std::vector<std::string> ops = splitOperands(in);
  std::optional<Roles> roles = rolesOf(in.opcode, ops);
  llvm::SmallVector<int, 8> slots;
  if (!in.predicate.empty() && in.predicate != "@PT")
    slotsIn(in.predicate, slots);
  for (const std::string &o : roles ? roles->sources : ops)
    pairSlotsIn(o, slots, /*uniform=*/false);
  reads.assign(slots.begin(), slots.end());
  bool guarded = !in.predicate.empty() && in.predicate != "@PT";
  if (!roles) {
    for (int s : slots)
      may.push_back(s);
    return;
  }
  auto [certain, possible] = dataWidth(in.opcode);
  for (int r : roles->regs)
    for (int x = 0; x < std::max(certain, possible) && r + x < kPreds; ++x)
      (x < certain && !guarded ? must : may).push_back(r + x);
  for (int p : roles->preds)
    (guarded ? may : must).push_back(p);
}

CalleeSummary Analysis::summarize() {
  CalleeSummary out{std::vector<bool>(kSlots, false),
                    std::vector<bool>(kSlots, false),
                    std::vector<bool>(kSlots, false)};
  if (code.empty())
    return out;
  buildBlocks();
  size_t nb = blocks.size();
  std::vector<std::vector<int>> reads(code.size()), must(code.size()),
      may(code.size());
  for (size_t k = 0; k < code.size(); ++k) {
    readsAndWrites(code[k], reads[k], must[k], may[k]);
    for (int r : must[k])
      out.mayWrite[r] = true;
    for (int r : may[k])
      out.mayWrite[r] = true;
    if (baseOf(code[k].opcode) == "CALL") // a nested call: anything
      std::fill(out.mayWrite.begin(), out.mayWrite.end(), true);
  }
  // Live on entry: a backward dataflow (a nested call reads everything).
  std::vector<std::vector<bool>> liveIn(nb, std::vector<bool>(kSlots, false));
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t j = nb; j-- > 0;) {
      std::vector<bool> live(kSlots, false);
      for (size_t x : succs[j])
        for (int r = 0; r < kSlots; ++r)
          live[r] = live[r] || liveIn[x][r];
      for (size_t k = blocks[j].second; k-- > blocks[j].first;) {
        if (baseOf(code[k].opcode) == "CALL")
          std::fill(live.begin(), live.end(), true);
        for (int r : must[k])
          live[r] = false;
        for (int r : reads[k])
          live[r] = true;
      }
      if (live != liveIn[j]) {
        liveIn[j] = std::move(live);
        changed = true;
      }
    }
  }
  out.liveIn = liveIn[0];
  // Written on every path to a return: a forward dataflow (intersection).
  std::vector<std::optional<std::vector<bool>>> in(nb);
  in[0] = std::vector<bool>(kSlots, false);
  std::vector<bool> atExit(kSlots, true);
  bool anyExit = false;
  std::vector<size_t> work = {0};
  while (!work.empty()) {
    size_t j = work.back();
    work.pop_back();
    std::vector<bool> w = *in[j];
    for (size_t k = blocks[j].first; k < blocks[j].second; ++k)
      for (int r : must[k])
        w[r] = true;
    if (exits[j] || succs[j].empty()) {
      anyExit = true;
      for (int r = 0; r < kSlots; ++r)
        atExit[r] = atExit[r] && w[r];
    }
    for (size_t x : succs[j]) {
      if (!in[x]) {
        in[x] = w;
        work.push_back(x);
        continue;
      }
      bool changed = false;
      for (int r = 0; r < kSlots; ++r)
        if ((*in[x])[r] && !w[r]) {
          (*in[x])[r] = false;
          changed = true;
        }
      if (changed)
        work.push_back(x);
    }
  }
  if (anyExit)
    out.mustWrite = atExit;
  return out;
}

/// The regions of the branches (and early exits) whose condition differs
/// between the lanes (`data` false) or comes from loaded data (`data`
/// true): until the branch's immediate post-dominator; after an exit,
/// everything that follows. `because` gets each region's branch.
std::vector<std::vector<bool>>
Analysis::regionsOf(const std::vector<State> &at, bool data,
                    std::vector<size_t> &because) const {
  size_t nb = blocks.size();
  std::vector<std::vector<bool>> out;
  because.clear();
  for (size_t j = 0; j < nb; ++j) {
    auto [s, e] = blocks[j];
    const Instr &in = code[e - 1];
    StringRef b = baseOf(in.opcode);
    bool exit = b == "EXIT" || b == "RET" || b == "BPT";
    bool branch = b == "BRA" || b == "JMP" || b == "BRX" || b == "JMX";
    if (!(exit || branch) || !reachedAt[e - 1])
      continue;
    if (data ? conditionOrigin(in, at[e - 1]) < 0
             : !conditionVaries(in, at[e - 1]))
      continue;
    if (!exit && succs[j].size() < 2)
      continue;
    size_t stop = exit ? nb : ipdom(j);
    std::vector<bool> region(nb, false);
    std::vector<size_t> work(succs[j].begin(), succs[j].end());
    while (!work.empty()) {
      size_t x = work.back();
      work.pop_back();
      if (x == stop || x >= nb || region[x])
        continue;
      region[x] = true;
      work.insert(work.end(), succs[x].begin(), succs[x].end());
    }
    out.push_back(std::move(region));
    because.push_back(e - 1);
  }
  return out;
}

LaneFindings Analysis::run() {
  if (code.empty())
    return {};
  buildBlocks();
  postDominators();
  size_t nb = blocks.size();
  divergent.assign(nb, false);
  dataRegion.assign(nb, -1);
  std::vector<std::vector<bool>> regions;
  std::vector<size_t> because, dataBecause;
  std::vector<State> at;
  // The regions make what they write vary (or come from data), which can
  // make more branches vary: iterate to the fixed point (the regions only
  // grow).
  for (unsigned round = 0; round < 64; ++round) {
    at = dataflow();
    regions = regionsOf(at, /*data=*/false, because);
    std::vector<bool> next(nb, false);
    for (const std::vector<bool> &region : regions)
      for (size_t x = 0; x < nb; ++x)
        next[x] = next[x] || region[x];
    std::vector<Origin> nextData(nb, -1);
    std::vector<std::vector<bool>> dataRegions =
        regionsOf(at, /*data=*/true, dataBecause);
    for (size_t r = 0; r < dataRegions.size(); ++r)
      for (size_t x = 0; x < nb; ++x)
        if (dataRegions[r][x] && nextData[x] < 0)
          nextData[x] = conditionOrigin(code[dataBecause[r]], at[dataBecause[r]]);
    if (next == divergent && nextData == dataRegion)
      break;
    divergent = std::move(next);
    dataRegion = std::move(nextData);
  }
  LaneFindings out;
  std::set<size_t> seen;
  for (size_t r = 0; r < regions.size(); ++r)
    for (size_t j = 0; j < nb; ++j) {
      if (!regions[r][j])
        continue;
      for (size_t k = blocks[j].first; k < blocks[j].second; ++k)
        if (isCollective(baseOf(code[k].opcode)) && seen.insert(k).second)
          out.collectives.push_back({k, because[r]});
    }
  // A collective guarded by a lane-varying predicate itself.
  for (size_t k = 0; k < code.size(); ++k) {
    const Instr &in = code[k];
    if (!reachedAt[k] || !isCollective(baseOf(in.opcode)) || seen.count(k) ||
        in.predicate.empty() || in.predicate == "@PT")
      continue;
    StringRef p = StringRef(in.predicate).drop_front();
    p.consume_front("!");
    int s = slotOf(p);
    if (s >= kPreds && at[k].lanes[s] != Uniform) {
      seen.insert(k);
      out.collectives.push_back({k, k});
    }
  }
  llvm::sort(out.collectives, [](const DivergentCollective &a,
                                 const DivergentCollective &b) {
    return a.at < b.at;
  });
  // Memory addresses computed from loaded data: every register inside an
  // operand's brackets.
  for (size_t k = 0; k < code.size(); ++k) {
    if (!reachedAt[k] || code[k].predicate == "@!PT")
      continue;
    for (const std::string &o : splitOperands(code[k])) {
      size_t open = o.find('[');
      if (open == std::string::npos)
        continue;
      Origin from = operandOrigin(at[k], StringRef(o).drop_front(open),
                                  guardOf(code[k]));
      if (from >= 0) {
        out.dataAddresses.push_back({k, size_t(from)});
        break;
      }
    }
  }
  return out;
}

} // namespace

LaneFindings rake::verifier::analyzeLanes(
    const std::vector<Instr> &code, int64_t start,
    const std::map<std::string, const Function *> &callees) {
  std::map<std::string, CalleeSummary> summaries;
  for (const auto &[name, f] : callees)
    summaries[name] = Analysis(f->code, f->start).summarize();
  return Analysis(code, start, &summaries).run();
}
