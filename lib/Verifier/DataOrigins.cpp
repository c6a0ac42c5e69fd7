//===- DataOrigins.cpp - Where a SASS function's values come from ---------===//
//
// The "address-pattern" rule of the cubin verifier (Divergence.h): the data
// origins of the lane dataflow (LaneAnalysis.h), and the addresses computed
// from them. A value is data when a load, an atomic, a texture or surface
// read or a matrix instruction made it, or when it is computed from data;
// after a branch on data, what either side wrote is data too (it depends on
// the side taken), while inside the branch's region nothing changes: a
// masked store at an affine address is no gather.
//
//===----------------------------------------------------------------------===//

#include "LaneAnalysis.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <set>

using namespace rake::verifier;
using namespace rake::verifier::lanes;

namespace rake::verifier::lanes {

/// The origin of register `slot` as an instruction under `guard` (its
/// text, or empty) reads it.
static Origin readOrigin(const State &st, int slot, StringRef guard) {
  if (!guard.empty())
    if (auto it = st.guarded.find(slot);
        it != st.guarded.end() && it->second.first == guard)
      return it->second.second;
  return st.origin[slot];
}

/// The first data origin among the slots an operand of an instruction reads
/// (widened as widenedSlots says), under `guard`; or -1.
static Origin operandOrigin(const State &st, StringRef base, StringRef o,
                            int width, StringRef guard) {
  std::vector<int> regs, uregs;
  widenedSlots(base, o, width, regs, uregs);
  for (int s : regs)
    if (Origin x = readOrigin(st, s, guard); x >= 0)
      return x;
  for (int s : uregs)
    if (st.uorigin[s] >= 0)
      return st.uorigin[s];
  return -1;
}

/// The guard of an instruction as the data origins key it: empty when it
/// always runs.
static StringRef guardOf(const Instr &in) {
  return in.predicate.empty() || in.predicate == "@PT" ? StringRef()
                                                        : StringRef(in.predicate);
}

static Origin guardOrigin(const State &st, const Instr &in) {
  StringRef guard = guardOf(in);
  return guard.empty() ? -1 : operandOrigin(st, "", guard.drop_front(), 1, "");
}

/// Forgets the values known under a guard on predicate `name` (P3, UP1):
/// the predicate was written.
static void dropGuardsOn(State &st, const std::string &name) {
  for (auto it = st.guarded.begin(); it != st.guarded.end();) {
    StringRef g(it->second.first);
    g.consume_front("@");
    g.consume_front("!");
    it = g == name ? st.guarded.erase(it) : std::next(it);
  }
}

/// A spill slot: the offset from the stack pointer of a local access
/// [R1] or [R1+imm] at a multiple of 4; or nothing for any other address.
static std::optional<int64_t> spillOffset(const Instr &in) {
  for (const std::string &o : splitOperands(in)) {
    StringRef t(o);
    size_t open = t.find('[');
    if (open == StringRef::npos)
      continue;
    t = t.drop_front(open);
    if (t == "[R1]")
      return 0;
    uint64_t v = 0;
    if (t.consume_front("[R1+0x") && t.consume_back("]") &&
        !t.getAsInteger(16, v) && v % 4 == 0)
      return int64_t(v);
    return std::nullopt;
  }
  return std::nullopt;
}

/// The words a local access moves (1, 2 or 4; 0 for a part of a word:
/// STL.U8, LDL.S16).
static int spillWords(StringRef opcode) {
  if (opcodeHas(opcode, "128"))
    return 4;
  if (opcodeHas(opcode, "64"))
    return 2;
  for (StringRef narrow : {"U8", "S8", "U16", "S16"})
    if (opcodeHas(opcode, narrow))
      return 0;
  return 1;
}

/// Spills and reloads, and what else may change the stack frame (a store
/// or atomic through a generic address, a write of the stack pointer).
/// Returns true when it set the reload's destinations itself.
static bool transferLocal(const Instr &in, size_t k, const DataRoles &roles,
                          StringRef guard, State &st) {
  StringRef base = baseOf(in.opcode);
  bool movesSp = llvm::is_contained(roles.certain, 1) ||
                 llvm::is_contained(roles.may, 1);
  if (base == "ST" || base == "ATOM" || base == "RED" || movesSp) {
    st.local.clear();
    return false;
  }
  if (base != "STL" && base != "LDL")
    return false;
  std::optional<int64_t> at = spillOffset(in);
  int words = spillWords(in.opcode);
  std::vector<std::string> ops = splitOperands(in);
  if (base == "STL") {
    llvm::SmallVector<int, 2> value;
    if (!ops.empty())
      slotsIn(ops.back(), value);
    if (!at || words == 0 || value.empty() || !guard.empty()) {
      // Unknown words: every word (a guarded store: the words it covers).
      if (!at || words == 0)
        st.local.clear();
      else
        for (int w = 0; w < words; ++w)
          st.local.erase(*at + 4 * w);
      return false;
    }
    for (int w = 0; w < words; ++w)
      st.local[*at + 4 * w] =
          value[0] + w < kPreds ? readOrigin(st, value[0] + w, "") : -1;
    return false;
  }
  // LDL: each destination register from its word.
  llvm::SmallVector<int, 2> dest;
  if (!ops.empty())
    slotsIn(ops.front(), dest);
  if (!at || words == 0 || dest.empty() || !guard.empty())
    return false;
  for (int w = 0; w < words && dest[0] + w < kPreds; ++w) {
    auto it = st.local.find(*at + 4 * w);
    st.origin[dest[0] + w] = it == st.local.end() ? Origin(k) : it->second;
    st.guarded.erase(dest[0] + w);
  }
  return true;
}

/// A constant bank read at an index in a register (LDC R5, c[0x3][R8]): a
/// table lookup, data like a load.
static bool indexedConstant(const Instr &in) {
  for (const std::string &o : splitOperands(in)) {
    StringRef t = StringRef(o).trim().ltrim("-|~!");
    size_t bank = t.starts_with("c[") ? 0 : t.starts_with("cx[") ? 1
                                                                 : StringRef::npos;
    if (bank == StringRef::npos)
      continue;
    std::vector<int> regs, uregs;
    widenedSlots("", t.drop_front(bank), 1, regs, uregs);
    if (!regs.empty() || !uregs.empty())
      return true;
  }
  return false;
}

/// The summary of the function a CALL calls, if it was given.
const CalleeSummary *Analysis::calleeOf(const Instr &call) const {
  std::vector<std::string> ops = operandsOf(call);
  if (!callees || ops.empty())
    return nullptr;
  auto it = callees->find(StringRef(ops.back()).trim().str());
  return it == callees->end() ? nullptr : &it->second;
}

/// A special register that tells the time or where the thread runs (the
/// clocks, the global timer, the SM's number): no function of the launch,
/// so data as much as a load.
static bool timeOrPlace(const Instr &in) {
  StringRef base = baseOf(in.opcode);
  if (base != "S2R" && base != "CS2R" && base != "S2UR")
    return false;
  for (const std::string &o : operandsOf(in)) {
    StringRef t(o);
    if (t.starts_with("SR_CLOCK") || t.starts_with("SR_GLOBALTIMER") ||
        t == "SR_SMID" || t == "SR_VIRTUALSMID" || t == "SR_NSMID")
      return true;
  }
  return false;
}

void Analysis::transferCall(const Instr &in, size_t k, State &st) const {
  const CalleeSummary *callee = calleeOf(in);
  StringRef guard = guardOf(in);
  Origin from = guardOrigin(st, in);
  // What the callee reads flows to what it writes.
  for (int r = 0; r < kSlots && from < 0; ++r)
    if (!callee || callee->liveIn[r])
      from = readOrigin(st, r, guard);
  for (int u = 0; u < kUniformSlots && from < 0; ++u)
    if (!callee || callee->uniformLiveIn[u])
      from = st.uorigin[u];
  if (!callee && from < 0)
    from = Origin(k);
  for (int r = 0; r < kSlots; ++r) {
    if (callee && !callee->mayWrite[r])
      continue;
    bool must = callee && callee->mustWrite[r] && guard.empty();
    st.origin[r] = must ? from : (st.origin[r] >= 0 ? st.origin[r] : from);
  }
  for (int u = 0; u < kUniformSlots; ++u)
    if (!callee || callee->uniformWrite[u])
      st.uorigin[u] = st.uorigin[u] >= 0 ? st.uorigin[u] : from;
  st.guarded.clear();
  st.local.clear();
}

/// The origin of a non-uniform PLOP3's first result, reading each input
/// predicate under the guard that makes it matter: in `PLOP3.LUT P0, PT,
/// P0, P1, PT, 0xa2, 0x0` (P0 | !P1) the old P0 decides the result only
/// where P1 holds, so it is read as an instruction under @P1 would read it
/// (what an earlier `@P1 R2UR P0, ...` wrote: ptxas's loop that moves a
/// value into a uniform register). nullopt for other shapes.
static std::optional<Origin> plop3Origin(const Instr &in, const State &st,
                                         StringRef guard) {
  if (baseOf(in.opcode) != "PLOP3" || !guard.empty())
    return std::nullopt;
  // Only the first result is judged by its LUT: a second result (its own
  // LUT) takes the general rule.
  std::vector<std::string> ops = operandsOf(in);
  if (ops.size() != 7 || StringRef(ops[1]).trim() != "PT")
    return std::nullopt;
  std::optional<int64_t> lut = immediate(ops[5]);
  if (!lut)
    return std::nullopt;
  // Inputs a, b, c: a constant (PT, !PT) or a slot; the LUT is indexed by
  // a * 4 + b * 2 + c.
  int slot[3];
  int constant[3];
  for (int i = 0; i < 3; ++i) {
    StringRef o = StringRef(ops[2 + i]).trim();
    bool negated = o.consume_front("!");
    slot[i] = o == "PT" ? -1 : slotOf(o);
    constant[i] = o == "PT" ? (negated ? 0 : 1) : -1;
    if (o != "PT" && (slot[i] < kPreds || slot[i] >= kSlots))
      return std::nullopt;
  }
  auto output = [&](int a, int b, int c) {
    return (*lut >> (a * 4 + b * 2 + c)) & 1;
  };
  // Whether input x matters when input y has value v (the third input at
  // its constant, or either value).
  auto matters = [&](int x, int y, int v) {
    for (int i = 0; i < 8; ++i) {
      int bit[3] = {(i >> 2) & 1, (i >> 1) & 1, i & 1};
      if (bit[x] != 0 || bit[y] != v)
        continue;
      int z = 3 - x - y;
      if (constant[z] >= 0 && bit[z] != constant[z])
        continue;
      int flipped[3] = {bit[0], bit[1], bit[2]};
      flipped[x] = 1;
      if (output(bit[0], bit[1], bit[2]) !=
          output(flipped[0], flipped[1], flipped[2]))
        return true;
    }
    return false;
  };
  Origin result = -1;
  for (int x = 0; x < 3 && result < 0; ++x) {
    if (slot[x] < 0)
      continue;
    std::string under;
    for (int y = 0; y < 3 && under.empty(); ++y) {
      if (y == x || slot[y] < 0)
        continue;
      std::string name = StringRef(ops[2 + y]).trim().str();
      bool negated = StringRef(name).starts_with("!");
      std::string plain = negated ? name.substr(1) : name;
      // x matters only where y's operand reads true (or only where false).
      if (!matters(x, y, 0))
        under = "@" + std::string(negated ? "!" : "") + plain;
      else if (!matters(x, y, 1))
        under = "@" + std::string(negated ? "" : "!") + plain;
    }
    result = readOrigin(st, slot[x], under);
  }
  return result;
}

/// The data origins of what instruction k writes: data when it loads
/// (loadsData, an indexed constant), else the first origin among what it
/// reads. A certain write replaces the old origin; a possible one (or one
/// under a guard, for readers not under the same guard) adds to it, and a
/// guard on data makes the result data for such readers. A reload from
/// spill slots has the origins of what was stored there (transferLocal).
void Analysis::transferData(const Instr &in, size_t k, State &st) const {
  if (in.predicate == "@!PT")
    return;
  StringRef base = baseOf(in.opcode);
  if (base == "CALL")
    return transferCall(in, k, st);
  StringRef guard = guardOf(in);
  DataRoles roles = dataRoles(in);
  // A load, an indexed constant, or an mbarrier's state (SYNCS.ARRIVE
  // into a register).
  bool syncsState = base == "SYNCS" && !(roles.certain.empty() && roles.may.empty());
  Origin value = loadsData(base) || indexedConstant(in) || syncsState ||
                         timeOrPlace(in)
                     ? Origin(k)
                     : -1;
  if (transferLocal(in, k, roles, guard, st))
    return;
  if (std::optional<Origin> p = plop3Origin(in, st, guard); p && value < 0)
    value = *p;
  else
    for (int s : roles.reads)
      if (value < 0)
        value = readOrigin(st, s, guard);
  for (int s : roles.ureads)
    if (value < 0)
      value = st.uorigin[s];
  Origin onGuard = guardOrigin(st, in);
  Origin merged = value >= 0 ? value : onGuard;
  for (int s : roles.certain) {
    if (guard.empty()) {
      st.origin[s] = value;
      st.guarded.erase(s);
    } else {
      st.origin[s] = st.origin[s] >= 0 ? st.origin[s] : merged;
      st.guarded[s] = {guard.str(), value};
    }
  }
  for (int s : roles.may) {
    st.origin[s] = st.origin[s] >= 0 ? st.origin[s] : merged;
    st.guarded.erase(s);
  }
  for (int u : roles.ucertain)
    st.uorigin[u] = guard.empty() ? value
                                  : (st.uorigin[u] >= 0 ? st.uorigin[u] : merged);
  for (int u : roles.umay)
    st.uorigin[u] = st.uorigin[u] >= 0 ? st.uorigin[u] : merged;
  for (int s : llvm::concat<int>(roles.certain, roles.may))
    if (s >= kPreds)
      dropGuardsOn(st, "P" + std::to_string(s - kPreds));
  for (int u : llvm::concat<int>(roles.ucertain, roles.umay))
    if (u >= kUniformPreds)
      dropGuardsOn(st, "UP" + std::to_string(u - kUniformPreds));
}

/// The data origin of a branch's condition (its guard, a computed target),
/// or -1.
Origin Analysis::conditionOrigin(const Instr &in, const State &st) const {
  Origin from = guardOrigin(st, in);
  std::vector<std::string> ops = operandsOf(in);
  StringRef b = baseOf(in.opcode);
  for (size_t i = 0; i < ops.size() && from < 0; ++i)
    if (b == "BRX" || b == "JMX" || i + 1 < ops.size())
      from = operandOrigin(st, b, ops[i], 1, guardOf(in));
  return from;
}

/// For each branch on data (not an exit), the slots its region writes,
/// tainted at the region's end (the branch's immediate post-dominator).
void Analysis::computeJoinTaint(const std::vector<State> &at) {
  size_t nb = blocks.size();
  std::vector<std::vector<JoinTaint>> next(nb);
  for (size_t j = 0; j < nb; ++j) {
    auto [s, e] = blocks[j];
    const Instr &in = code[e - 1];
    StringRef b = baseOf(in.opcode);
    bool branch = b == "BRA" || b == "JMP" || b == "BRX" || b == "JMX";
    if (!branch || !reachedAt[e - 1] || succs[j].size() < 2)
      continue;
    Origin origin = conditionOrigin(in, at[e - 1]);
    if (origin < 0)
      continue;
    // The region ends at the branch's immediate post-dominator. Where a
    // side may exit, there is none: then every block both sides reach is
    // where they meet, and what either side reaches may have been written.
    // (An exit on data itself leaves no region: the lanes that go on
    // compute their own addresses as before.)
    size_t stop = ipdom(j);
    std::vector<size_t> joins = {stop};
    std::vector<bool> region;
    if (stop < nb) {
      region = regionBlocks(j, stop);
    } else {
      std::vector<std::vector<bool>> reach;
      for (size_t side : succs[j]) {
        std::vector<bool> r(nb, false);
        std::vector<size_t> work = {side};
        while (!work.empty()) {
          size_t x = work.back();
          work.pop_back();
          if (x >= nb || r[x])
            continue;
          r[x] = true;
          work.insert(work.end(), succs[x].begin(), succs[x].end());
        }
        reach.push_back(std::move(r));
      }
      joins.clear();
      region.assign(nb, false);
      for (size_t x = 0; x < nb; ++x) {
        bool all = true;
        for (const std::vector<bool> &r : reach) {
          region[x] = region[x] || r[x];
          all = all && r[x];
        }
        if (all)
          joins.push_back(x);
      }
    }
    std::set<int> slots, uslots;
    for (size_t x = 0; x < nb; ++x) {
      if (!region[x])
        continue;
      for (size_t k = blocks[x].first; k < blocks[x].second; ++k) {
        if (baseOf(code[k].opcode) == "CALL") {
          const CalleeSummary *callee = calleeOf(code[k]);
          for (int r = 0; r < kSlots; ++r)
            if (!callee || callee->mayWrite[r])
              slots.insert(r);
          for (int u = 0; u < kUniformSlots; ++u)
            if (!callee || callee->uniformWrite[u])
              uslots.insert(u);
          continue;
        }
        DataRoles r = dataRoles(code[k]);
        slots.insert(r.certain.begin(), r.certain.end());
        slots.insert(r.may.begin(), r.may.end());
        uslots.insert(r.ucertain.begin(), r.ucertain.end());
        uslots.insert(r.umay.begin(), r.umay.end());
      }
    }
    for (size_t join : joins)
      next[join].push_back({origin,
                            std::vector<int>(slots.begin(), slots.end()),
                            std::vector<int>(uslots.begin(), uslots.end())});
  }
  joinTaint = std::move(next);
}

void Analysis::joinRegions(size_t block, State &st) const {
  for (const JoinTaint &t : joinTaint[block]) {
    for (int s : t.slots) {
      if (st.origin[s] < 0)
        st.origin[s] = t.origin;
      st.guarded.erase(s);
    }
    for (int u : t.uslots)
      if (st.uorigin[u] < 0)
        st.uorigin[u] = t.origin;
  }
}

/// Memory addresses computed from data: every register inside an
/// operand's brackets, and a texture or surface access's coordinates.
std::vector<DataAddress>
Analysis::dataAddresses(const std::vector<State> &at) const {
  static const llvm::StringSet<> coordinates = {
      "TEX", "TLD", "TLD4", "TXD", "TMML", "SULD", "SUST", "SUATOM", "SURED"};
  std::vector<DataAddress> out;
  for (size_t k = 0; k < code.size(); ++k) {
    if (!reachedAt[k] || code[k].predicate == "@!PT")
      continue;
    StringRef base = baseOf(code[k].opcode);
    for (const std::string &o : splitOperands(code[k])) {
      size_t open = o.find('[');
      if (open == std::string::npos && !coordinates.contains(base))
        continue;
      StringRef address = open == std::string::npos
                              ? StringRef(o)
                              : StringRef(o).drop_front(open);
      Origin from = operandOrigin(at[k], base, address, 1, guardOf(code[k]));
      if (from >= 0) {
        out.push_back({k, size_t(from)});
        break;
      }
    }
  }
  return out;
}

CalleeSummary Analysis::summarize() {
  CalleeSummary out{std::vector<bool>(kSlots, false),
                    std::vector<bool>(kSlots, false),
                    std::vector<bool>(kSlots, false),
                    std::vector<bool>(kUniformSlots, false),
                    std::vector<bool>(kUniformSlots, false)};
  if (code.empty())
    return out;
  buildBlocks();
  size_t nb = blocks.size();
  std::vector<DataRoles> roles(code.size());
  std::vector<bool> call(code.size(), false);
  for (size_t k = 0; k < code.size(); ++k) {
    call[k] = baseOf(code[k].opcode) == "CALL";
    roles[k] = dataRoles(code[k]);
    // Guarded writes may not happen.
    if (!guardOf(code[k]).empty()) {
      roles[k].may.insert(roles[k].may.end(), roles[k].certain.begin(),
                          roles[k].certain.end());
      roles[k].certain.clear();
      roles[k].umay.insert(roles[k].umay.end(), roles[k].ucertain.begin(),
                           roles[k].ucertain.end());
      roles[k].ucertain.clear();
      std::vector<int> g, ug;
      widenedSlots("", guardOf(code[k]).drop_front(), 1, g, ug);
      roles[k].reads.insert(roles[k].reads.end(), g.begin(), g.end());
    }
    for (int r : llvm::concat<int>(roles[k].certain, roles[k].may))
      out.mayWrite[r] = true;
    for (int u : llvm::concat<int>(roles[k].ucertain, roles[k].umay))
      out.uniformWrite[u] = true;
    if (call[k]) { // a nested call: anything
      std::fill(out.mayWrite.begin(), out.mayWrite.end(), true);
      std::fill(out.uniformWrite.begin(), out.uniformWrite.end(), true);
    }
  }
  // Live on entry: a backward dataflow (a nested call reads everything).
  auto liveOnEntry = [&](int slots, auto kills, auto reads) {
    std::vector<std::vector<bool>> liveIn(nb, std::vector<bool>(slots, false));
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t j = nb; j-- > 0;) {
        std::vector<bool> live(slots, false);
        for (size_t x : succs[j])
          for (int r = 0; r < slots; ++r)
            live[r] = live[r] || liveIn[x][r];
        for (size_t k = blocks[j].second; k-- > blocks[j].first;) {
          if (call[k])
            std::fill(live.begin(), live.end(), true);
          for (int r : kills(k))
            live[r] = false;
          for (int r : reads(k))
            live[r] = true;
        }
        if (live != liveIn[j]) {
          liveIn[j] = std::move(live);
          changed = true;
        }
      }
    }
    return liveIn[0];
  };
  out.liveIn = liveOnEntry(
      kSlots, [&](size_t k) { return roles[k].certain; },
      [&](size_t k) { return roles[k].reads; });
  out.uniformLiveIn = liveOnEntry(
      kUniformSlots, [&](size_t k) { return roles[k].ucertain; },
      [&](size_t k) { return roles[k].ureads; });
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
      for (int r : roles[k].certain)
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

} // namespace rake::verifier::lanes
