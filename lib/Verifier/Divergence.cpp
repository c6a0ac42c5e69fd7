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

#include "LaneAnalysis.h"

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
using namespace rake::verifier::lanes;
using llvm::StringRef;

namespace rake::verifier::lanes {

/// Basic blocks and their successors, from the verifier's one reading of
/// control flow (controlFlow). A block ends after a branch, an indirect
/// branch, an exit, a trap, a return or a breakpoint.
void Analysis::buildBlocks() {
  size_t n = code.size();
  std::vector<ControlFlow> flow = controlFlow(code);
  std::set<size_t> leaders = {0};
  for (size_t k = 0; k < n; ++k) {
    ControlFlow::Kind kind = flow[k].kind;
    bool ends = kind == ControlFlow::Branch || kind == ControlFlow::Indirect ||
                kind == ControlFlow::Exit || kind == ControlFlow::Return ||
                baseOf(code[k].opcode) == "BPT";
    if (!ends)
      continue;
    if (k + 1 < n)
      leaders.insert(k + 1);
    if (flow[k].target)
      leaders.insert(*flow[k].target);
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
    size_t e = blocks[j].second;
    const ControlFlow &c = flow[e - 1];
    auto add = [&](size_t x) {
      if (!llvm::is_contained(succs[j], x))
        succs[j].push_back(x);
    };
    // An indirect branch, and a branch whose target is no instruction of
    // the code: anywhere.
    if (c.kind == ControlFlow::Indirect ||
        (c.kind == ControlFlow::Branch && !c.target)) {
      for (size_t x = 0; x < nb; ++x)
        add(x);
      continue;
    }
    if (c.target)
      add(blockOf[*c.target]);
    if (c.kind == ControlFlow::Exit || c.kind == ControlFlow::Return)
      exits[j] = true;
    if (c.fallsThrough && e < n)
      add(blockOf[e]);
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
    res = ops[1] == "SR_LANEID" || (ops[1] == "SR_TID.X" && tidIsLane)
              ? LaneIndex
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
  } else if (opcode.starts_with("SHF.R") && opcode.contains(".HI") &&
             ops.size() == 4 && ops[1] == "RZ") {
    // The high word of (x : 0) >> k, x >> k of a lane index x, k >= 5: the
    // warp's part, uniform. (Without .HI the low word, (x & 31) << 27 for
    // k = 5, differs between the lanes: an adversarial review.)
    std::optional<int64_t> k = immediate(ops[2]);
    if (operandIs(3, LaneIndex) && k && *k >= 5)
      res = Uniform;
  } else if ((opcode.starts_with("SHF.R.U64") ||
              opcode.starts_with("SHF.R.U32")) &&
             !opcode.contains(".HI") && ops.size() == 4 && ops[3] == "RZ") {
    // The low word of (0 : x) >> k, a 64-bit shift of a lane index x
    // (ptxas's tid / 32 of a 64-bit index), k >= 5: uniform as above.
    std::optional<int64_t> k = immediate(ops[2]);
    if (operandIs(1, LaneIndex) && k && *k >= 5 && *k < 32)
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
  } else if (base == "LOP3" && ops.size() == 6 && ops[3] == "RZ") {
    // x AND m of a lane index x with m's five low bits clear (LOP3.LUT
    // with the table of a AND b, c zero): the warp's bits only, uniform
    // (tid & 0x180 picks a warpgroup; a ping-pong GEMM branches on it).
    std::optional<int64_t> lut = immediate(ops[4]);
    auto bit = [&](int a, int b) { return (*lut >> ((a << 2) | (b << 1))) & 1; };
    bool isAnd = lut && bit(1, 1) && !bit(1, 0) && !bit(0, 1) && !bit(0, 0);
    for (auto [x, m] : {std::pair<size_t, size_t>{1, 2}, {2, 1}}) {
      std::optional<int64_t> mask = immediate(ops[m]);
      if (isAnd && operandIs(x, LaneIndex) && mask && (*mask & 31) == 0 &&
          value(st, ops[5]) == Uniform)
        res = Uniform;
    }
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
    joinRegions(j, st);
    auto [s, e] = blocks[j];
    for (size_t k = s; k < e; ++k) {
      at[k] = st;
      reached[k] = true;
      transferData(code[k], k, st);
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
  // BRA.ANY/ALL branch the whole warp together. (BRA.U only claims to:
  // its guard and predicate operands are judged as any branch's, an
  // adversarial review's @P0 BRA.U on a lane-varying P0 having passed.)
  if (opcodeHas(opcode, "ANY") || opcodeHas(opcode, "ALL"))
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

/// The blocks a branch in block `j` may run before block `stop` (its
/// immediate post-dominator, or past the last block after an exit).
std::vector<bool> Analysis::regionBlocks(size_t j, size_t stop) const {
  size_t nb = blocks.size();
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
  return region;
}

/// The regions of the branches (and early exits) whose condition differs
/// between the lanes: until the branch's immediate post-dominator; after an
/// exit, everything that follows. `because` gets each region's branch.
std::vector<std::vector<bool>>
Analysis::regionsOf(const std::vector<State> &at,
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
    if (!conditionVaries(in, at[e - 1]))
      continue;
    if (!exit && succs[j].size() < 2)
      continue;
    out.push_back(regionBlocks(j, exit ? nb : ipdom(j)));
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
  joinTaint.assign(nb, {});
  std::vector<std::vector<bool>> regions;
  std::vector<size_t> because;
  std::vector<State> at;
  // The regions make what they write vary (or come from data), which can
  // make more branches vary: iterate to the fixed point (the regions and
  // the origins only grow, so it is reached).
  for (;;) {
    at = dataflow();
    regions = regionsOf(at, because);
    std::vector<bool> next(nb, false);
    for (const std::vector<bool> &region : regions)
      for (size_t x = 0; x < nb; ++x)
        next[x] = next[x] || region[x];
    std::vector<std::vector<JoinTaint>> before = joinTaint;
    computeJoinTaint(at);
    if (next == divergent && joinTaint == before)
      break;
    divergent = std::move(next);
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
  out.dataAddresses = dataAddresses(at);
  return out;
}

} // namespace

LaneFindings rake::verifier::analyzeLanes(
    const std::vector<Instr> &code, int64_t start,
    const std::map<std::string, const Function *> &callees, bool tidIsLane) {
  std::map<std::string, CalleeSummary> summaries;
  for (const auto &[name, f] : callees)
    summaries[name] = Analysis(f->code, f->start, tidIsLane).summarize();
  return Analysis(code, start, tidIsLane, &summaries).run();
}
