//===- SassOperands.cpp - Reading SASS instructions' operands -------------===//
//
// SassOperands.h: what an nvdisasm instruction reads and writes.
//
//===----------------------------------------------------------------------===//

#include "SassOperands.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace rake::verifier;

namespace rake::verifier::sass {

/// The instruction's operands (Instr::operandList), each trimmed.
std::vector<std::string> operandsOf(const Instr &in) {
  std::vector<std::string> out = in.operandList();
  for (std::string &o : out)
    o = StringRef(o).trim().str();
  if (!out.empty() && out.back().empty())
    out.pop_back();
  return out;
}

StringRef baseOf(StringRef opcode) { return opcode.split('.').first; }

/// The operands with a load's destination apart from its address: nvdisasm
/// writes `LDS R15, [R7]` as the one operand "R15[R7]".
std::vector<std::string> splitOperands(const Instr &in) {
  std::vector<std::string> ops = operandsOf(in);
  if (!ops.empty()) {
    StringRef first(ops[0]);
    size_t open = first.find('[');
    if (open != StringRef::npos && open > 0 && first[0] == 'R' &&
        first.take_front(open).drop_front().ltrim("0123456789").empty()) {
      std::string address = first.drop_front(open).str();
      ops[0] = first.take_front(open).str();
      ops.insert(ops.begin() + 1, address);
    }
  }
  return ops;
}

/// The slot of a plain register or predicate operand ("R7", "R7.reuse",
/// "R2.64", "P0", "!P1"), or -1 (uniform registers, RZ, PT, immediates,
/// memory operands).
int slotOf(StringRef o) {
  o = o.trim();
  o.consume_front("!");
  o.consume_front("-");
  o.consume_front("~");
  o.consume_front("|");
  o = o.split('.').first;
  o = o.rtrim('|');
  if (o.size() >= 2 && o[0] == 'R' && llvm::all_of(o.drop_front(), llvm::isDigit)) {
    unsigned n = 0;
    if (!o.drop_front().getAsInteger(10, n) && n < 256)
      return int(n);
  }
  if (o.size() == 2 && o[0] == 'P' && llvm::isDigit(o[1]) && o[1] < '8')
    return kPreds + (o[1] - '0');
  return -1;
}

bool isPredicate(StringRef o) {
  o = o.trim();
  o.consume_front("!");
  return o == "PT" || (o.size() == 2 && o[0] == 'P' && llvm::isDigit(o[1]));
}

/// Every register and predicate slot an operand mentions (its address
/// registers inside brackets too).
void slotsIn(StringRef o, llvm::SmallVectorImpl<int> &out) {
  for (size_t i = 0; i < o.size(); ++i) {
    if (o[i] != 'R' && o[i] != 'P')
      continue;
    if (i > 0 && (llvm::isAlnum(o[i - 1]) || o[i - 1] == '_'))
      continue; // part of a name: UR4, SR_TID, desc
    size_t j = i + 1;
    while (j < o.size() && llvm::isDigit(o[j]))
      ++j;
    if (j == i + 1 || (j < o.size() && (llvm::isAlpha(o[j]) || o[j] == '_')))
      continue;
    int s = slotOf(o.substr(i, j - i));
    if (s >= 0)
      out.push_back(s);
  }
}

/// Every uniform register and predicate slot an operand mentions (UR4,
/// UR4.64, UP1, !UP0, inside brackets too); URZ and UPT are constants.
void uniformSlotsIn(StringRef o, llvm::SmallVectorImpl<int> &out) {
  for (size_t i = 0; i + 2 < o.size(); ++i) {
    if (o[i] != 'U' || (o[i + 1] != 'R' && o[i + 1] != 'P'))
      continue;
    if (i > 0 && (llvm::isAlnum(o[i - 1]) || o[i - 1] == '_'))
      continue;
    size_t j = i + 2;
    while (j < o.size() && llvm::isDigit(o[j]))
      ++j;
    if (j == i + 2 || (j < o.size() && (llvm::isAlpha(o[j]) || o[j] == '_')))
      continue;
    unsigned n = 0;
    if (o.substr(i + 2, j - i - 2).getAsInteger(10, n))
      continue;
    if (o[i + 1] == 'R' && n < kUniformPreds)
      out.push_back(int(n));
    else if (o[i + 1] == 'P' && n < 8)
      out.push_back(kUniformPreds + int(n));
  }
}

void pairSlotsIn(StringRef o, llvm::SmallVectorImpl<int> &out, bool uniform) {
  llvm::SmallVector<int, 4> slots;
  if (uniform)
    uniformSlotsIn(o, slots);
  else
    slotsIn(o, slots);
  out.append(slots.begin(), slots.end());
  if (!o.contains(".64") && !o.contains(".U64"))
    return;
  // The registers named right before ".64": their successors too.
  for (size_t at = o.find(".64"); at != StringRef::npos;
       at = o.find(".64", at + 1)) {
    size_t b = at;
    while (b > 0 && llvm::isDigit(o[b - 1]))
      --b;
    unsigned n = 0;
    if (b == at || o.substr(b, at - b).getAsInteger(10, n))
      continue;
    bool isUniform = b >= 2 && o.substr(b - 2, 2) == "UR";
    if (isUniform != uniform || (!uniform && (b < 1 || o[b - 1] != 'R')))
      continue;
    if (uniform && n + 1 < unsigned(kUniformPreds))
      out.push_back(int(n + 1));
    else if (!uniform && n + 1 < unsigned(kPreds))
      out.push_back(int(n + 1));
  }
}

std::optional<int64_t> immediate(StringRef o) {
  o = o.trim();
  if (o == "RZ")
    return 0;
  bool neg = o.consume_front("-");
  uint64_t v = 0;
  if (!o.consume_front("0x") || o.getAsInteger(16, v))
    return std::nullopt;
  return neg ? -int64_t(v) : int64_t(v);
}

const llvm::StringSet<> &noDestination() {
  static const llvm::StringSet<> s = {
      "ST", "STG", "STS", "STL", "RED", "REDG", "REDS", "BRA", "BRX", "JMP",
      "JMX", "CALL", "RET", "EXIT", "BAR", "MEMBAR", "FENCE", "WARPSYNC",
      "BSSY", "BSYNC", "SYNCS", "UTMALDG", "UTMASTG", "UTMACCTL", "UTMAPF",
      "UBLKCP", "UBLKRED", "DEPBAR", "WARPGROUP", "NOP", "YIELD", "BPT",
      "ERRBAR", "CCTL", "CCTLL", "UCGABAR_ARV", "UCGABAR_WAIT", "ACQBULK",
      "ARRIVES", "LDGSTS", "LDGDEPBAR", "STSM", "USETMAXREG", "PREEXIT",
      "BMOV", "KILL", "NANOSLEEP", "UTMAREDG", "STAS", "BREAK",
      "CGAERRBAR", "ENDCOLLECTIVE", "UTMACMDFLUSH"};
  return s;
}

bool isCollective(StringRef base) {
  static const llvm::StringSet<> s = {
      "SHFL", "VOTE", "VOTEU", "MATCH", "REDUX", "WARPSYNC", "HMMA", "IMMA",
      "QMMA", "OMMA", "BMMA", "HGMMA", "IGMMA", "QGMMA", "LDSM", "STSM",
      "WARPGROUP", "USETMAXREG"};
  return s.contains(base);
}

bool isUniformSpecialRegister(StringRef sr) {
  static const llvm::StringSet<> s = {
      "SR_CTAID.X", "SR_CTAID.Y", "SR_CTAID.Z", "SR_CgaCtaId", "SR_SMID",
      "SR_WARPID", "SR_NCTAID.X", "SR_NCTAID.Y", "SR_NCTAID.Z",
      "SR_VIRTUALSMID", "SR_SWINHI", "SR_SWINLO", "SR_CLUSTERID.X"};
  return s.contains(sr);
}

/// The registers an instruction certainly writes from its first register
/// (a pair for .64, .WIDE, CS2R and double arithmetic, four for .128), and
/// how many it may write (an mma fragment, a wgmma accumulator).
std::pair<int, int> destinationWidth(StringRef opcode) {
  StringRef base = baseOf(opcode);
  int certain = 1;
  if (opcodeHas(opcode, "64") || opcodeHas(opcode, "WIDE") || base == "CS2R" ||
      base == "DADD" || base == "DMUL" || base == "DFMA")
    certain = 2;
  if (opcodeHas(opcode, "128"))
    certain = 4;
  int possible = certain;
  if (opcodeHas(opcode, "256"))
    possible = 8;
  if (base == "HGMMA" || base == "IGMMA" || base == "QGMMA") {
    possible = 128;
    llvm::SmallVector<StringRef> parts;
    opcode.split(parts, '.');
    for (StringRef p : parts)
      if (p.starts_with("64x")) {
        unsigned n = 0;
        if (!p.drop_front(3).split('x').first.getAsInteger(10, n))
          possible = int(n / 2);
      }
  }
  if (base == "HMMA" || base == "IMMA" || base == "QMMA" || base == "OMMA" ||
      base == "BMMA" || base == "LDSM")
    possible = std::max(possible, 4);
  if (base == "F2F" || base == "I2F" || base == "F2I" || base == "MUFU" ||
      base == "DSETP" || base == "DMNMX")
    possible = std::max(possible, 2);
  return {certain, possible};
}

/// The registers an instruction writes for the data origins: exact where
/// destinationWidth is unsure of a conversion's or MUFU's width (F2I.U64
/// and F2I.S64, I2F and F2F to F64 and DMNMX write two; the others one),
/// and as destinationWidth says for the matrix instructions and LDSM, whose
/// results are data whatever their width.
std::pair<int, int> dataWidth(StringRef opcode) {
  auto w = destinationWidth(opcode);
  StringRef base = baseOf(opcode);
  static const llvm::StringSet<> matrix = {"HMMA", "IMMA",  "QMMA",  "OMMA",
                                           "BMMA", "HGMMA", "IGMMA", "QGMMA",
                                           "LDSM"};
  if (matrix.contains(base))
    return w;
  llvm::SmallVector<StringRef> parts;
  opcode.split(parts, '.');
  if ((base == "F2I" && (opcodeHas(opcode, "U64") || opcodeHas(opcode, "S64"))) ||
      ((base == "I2F" || base == "F2F") && parts.size() > 1 && parts[1] == "F64") ||
      base == "DMNMX")
    w.first = std::max(w.first, 2);
  return {w.first, w.first};
}

std::optional<Roles> rolesOf(StringRef opcode,
                             const std::vector<std::string> &ops) {
  StringRef base = baseOf(opcode);
  Roles r;
  if (noDestination().contains(base)) {
    if (base == "SYNCS" && !ops.empty()) {
      // SYNCS.PHASECHK writes a predicate named before its address.
      StringRef first(ops[0]);
      if (first.contains('[') && first[0] == 'P') {
        int s = slotOf(first.split('[').first);
        if (s >= 0)
          r.preds.push_back(s);
      }
    }
    r.sources = ops;
    return r;
  }
  static const llvm::StringSet<> leadingPredicatesOnly = {
      "ISETP", "FSETP", "DSETP", "HSETP2", "PSETP", "PLOP3", "FCHK",
      "IMNMX", "VOTEU"};
  static const llvm::StringSet<> leadingPredicatesThenRegister = {
      "LOP3", "SHFL", "ELECT", "R2UR", "VOTE"};
  static const llvm::StringSet<> carries = {"IADD3", "LEA", "IMAD", "IADD"};
  size_t k = 0;
  if (leadingPredicatesOnly.contains(base) ||
      leadingPredicatesThenRegister.contains(base)) {
    if (base == "VOTE") {
      // VOTE.ANY R0, P1, P2: the ballot, then the vote's predicate.
      if (!ops.empty() && slotOf(ops[0]) >= 0 && slotOf(ops[0]) < kPreds)
        r.regs.push_back(slotOf(ops[0]));
      if (ops.size() > 1 && slotOf(ops[1]) >= kPreds)
        r.preds.push_back(slotOf(ops[1]));
      r.sources.assign(ops.begin() + std::min<size_t>(2, ops.size()),
                       ops.end());
      return r;
    }
    while (k < ops.size() && isPredicate(ops[k])) {
      if (int s = slotOf(ops[k]); s >= 0)
        r.preds.push_back(s);
      ++k;
    }
    if (leadingPredicatesThenRegister.contains(base) && k < ops.size()) {
      if (int s = slotOf(ops[k]); s >= 0 && s < kPreds)
        r.regs.push_back(s);
      ++k;
    }
    r.sources.assign(ops.begin() + k, ops.end());
    return r;
  }
  if (ops.empty())
    return r;
  StringRef first = StringRef(ops[0]).trim();
  int s = slotOf(first);
  bool plainRegister = s >= 0 && s < kPreds && !first.contains('[');
  bool ignoredDestination =
      first == "RZ" || first == "URZ" || first == "PT" || first == "UPT" ||
      (first.starts_with("UR") && !first.contains('[')) ||
      (first.starts_with("UP") && first.size() == 3);
  if (!plainRegister && !ignoredDestination)
    return std::nullopt;
  if (plainRegister)
    r.regs.push_back(s);
  k = 1;
  if (carries.contains(base))
    while (k < ops.size() && isPredicate(ops[k])) {
      if (int p = slotOf(ops[k]); p >= 0)
        r.preds.push_back(p);
      ++k;
    }
  r.sources.assign(ops.begin() + k, ops.end());
  return r;
}

/// Instructions whose results are loaded from memory, or computed from
/// what memory holds (mma's operands), or exchanged between lanes of what
/// they hold: their values are data, never an address the compiler
/// computed.
bool loadsData(StringRef base) {
  static const llvm::StringSet<> s = {
      "LDG",  "LD",    "LDS",   "LDL",   "LDSM",  "ATOM",  "ATOMG",
      "ATOMS", "SULD", "SUATOM", "TLD",  "TEX",   "TLD4",  "HMMA",
      "IMMA", "QMMA",  "OMMA",  "BMMA",  "HGMMA", "IGMMA", "QGMMA"};
  return s.contains(base);
}

} // namespace rake::verifier::sass
