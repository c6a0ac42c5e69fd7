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

// Not ELECT: ptxas's own loops that make a value warp-uniform for a TMA
// or an mbarrier instruction elect among the lanes that are active, under
// a branch that splits the warp (the project's GEMMs have them).
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
                                           "LDSM", "DMMA"};
  if (base == "DMMA") // f64 accumulators: two registers each, four in all
    return {4, 4};
  if (matrix.contains(base)) {
    // mma.sync's fragment: two registers of f16 accumulators, four of f32
    // or s32 (HMMA.16816.F16, HMMA.16816.F32.BF16).
    llvm::SmallVector<StringRef> parts;
    opcode.split(parts, '.');
    if ((base == "HMMA" || base == "IMMA" || base == "QMMA" || base == "OMMA") &&
        parts.size() > 2)
      return parts[2] == "F16" ? std::pair(2, 2) : std::pair(4, 4);
    return w;
  }
  llvm::SmallVector<StringRef> parts;
  opcode.split(parts, '.');
  if ((base == "F2I" && (opcodeHas(opcode, "U64") || opcodeHas(opcode, "S64"))) ||
      ((base == "I2F" || base == "F2F") && parts.size() > 1 && parts[1] == "F64") ||
      base == "DMNMX")
    w.first = std::max(w.first, 2);
  // Other 64-bit integer forms (IMNMX.S64, SEL.64...) may write a pair.
  int possible = w.first;
  if (opcodeHas(opcode, "S64") || opcodeHas(opcode, "U64"))
    possible = std::max(possible, 2);
  return {w.first, possible};
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
      "IMMA", "QMMA",  "OMMA",  "BMMA",  "HGMMA", "IGMMA", "QGMMA",
      "DMMA"};
  return s.contains(base);
}

} // namespace rake::verifier::sass

namespace rake::verifier::sass {

/// The register operands an operand reads, widened: a register named with
/// .64 is a pair; every register of an instruction whose opcode is 64 or
/// 128 bits wide (IADD.64, MOV.64, IMAD.WIDE's addend, DFMA, LDS.128's
/// destination...) `width` registers; a uniform register inside brackets
/// eight (the TMA and bulk copies' operand tuples, wgmma's descriptors);
/// "PR", every predicate.
void widenedSlots(StringRef base, StringRef o, int width,
                  std::vector<int> &regs, std::vector<int> &uregs) {
  llvm::SmallVector<int, 8> r, u;
  pairSlotsIn(o, r, /*uniform=*/false);
  pairSlotsIn(o, u, /*uniform=*/true);
  // A uniform register in brackets: a TMA or bulk copy's operand tuple (up
  // to eight: descriptor, barrier, coordinates), a wgmma descriptor pair
  // (gdesc: four), a memory descriptor (desc: two).
  int tuple = width;
  if (o.contains('['))
    tuple = base.starts_with("UTMA") || base.starts_with("UBLK") ? 8
            : o.contains("gdesc[")                             ? 4
            : o.contains("desc[")                              ? 2
                                                               : width;
  for (int s : r) {
    regs.push_back(s);
    if (s < kPreds)
      for (int x = 1; x < width && s + x < kPreds; ++x)
        regs.push_back(s + x);
  }
  for (int s : u) {
    uregs.push_back(s);
    if (s < kUniformPreds)
      for (int x = 1; x < std::max(tuple, width) && s + x < kUniformPreds; ++x)
        uregs.push_back(s + x);
  }
  StringRef t = o.trim();
  t.consume_front("!");
  if (t == "PR" || t.starts_with("PR."))
    for (int p = 0; p < 8; ++p)
      regs.push_back(kPreds + p);
  if (t == "UPR" || t.starts_with("UPR."))
    for (int p = 0; p < 8; ++p)
      uregs.push_back(kUniformPreds + p);
}

static bool isPlainRegister(StringRef o, bool uniform) {
  o = o.trim().split('.').first;
  if (o.contains('[') || o == "RZ" || o == "URZ")
    return false;
  StringRef digits = o;
  if (!digits.consume_front(uniform ? "UR" : "R"))
    return false;
  return !digits.empty() && llvm::all_of(digits, llvm::isDigit);
}

static bool isAnyPredicate(StringRef o) {
  o = o.trim();
  o.consume_front("!");
  return isPredicate(o) || o == "UPT" ||
         (o.size() == 3 && o.starts_with("UP") && llvm::isDigit(o[2]));
}

/// The width, in registers, of the register operands an instruction reads.
static int sourceWidth(StringRef opcode, StringRef base,
                       const std::vector<std::string> &ops) {
  // The width of the register operands an instruction reads: a memory
  // access's data (its addresses name their pairs, "[R2.64]"), every
  // operand of 64-bit arithmetic and comparisons, a conversion's 64-bit
  // source, IMAD.WIDE's addend (its last register operand).
  bool wide = opcodeHas(opcode, "64") || opcodeHas(opcode, "S64") ||
              opcodeHas(opcode, "U64");
  bool memory = llvm::any_of(ops, [](const std::string &o) {
    StringRef t = StringRef(o).trim();
    return t.contains('[') && !t.starts_with("c[") && !t.starts_with("cx[");
  });
  // 64-bit integer arithmetic and comparisons read pairs (IADD.64, MOV.64,
  // SEL.64, IMNMX.S64, ISETP.GE.U64, their uniform forms); funnel shifts
  // (SHF.R.U64) name both halves themselves.
  static const llvm::StringSet<> pairArithmetic = {
      "IADD",  "IADD3",  "MOV",   "SEL",    "IMNMX", "ISETP",  "LOP3",
      "UIADD3", "UMOV",  "USEL",  "UIMNMX", "UISETP", "ULOP3"};
  int width = 1;
  if (base == "DADD" || base == "DMUL" || base == "DFMA" || base == "DSETP" ||
      base == "DMNMX" || base == "DMMA")
    width = 2;
  else if (pairArithmetic.contains(base) && wide)
    width = 2;
  else if (memory)
    width = opcodeHas(opcode, "128") ? 4 : opcodeHas(opcode, "64") ? 2 : 1;
  // A conversion names its destination's type first (F2I.U64: to u64 from
  // f32) except I2F (I2F.U64: from u64): its source is 64 bits when F2I
  // converts from F64, I2F from S64 or U64, F2F from its second type F64.
  llvm::SmallVector<StringRef> parts;
  opcode.split(parts, '.');
  if (base == "F2I" || base == "I2F" || base == "F2F" || base == "I2I")
    width = (base == "F2I" && opcodeHas(opcode, "F64")) ||
                    (base == "I2F" && (opcodeHas(opcode, "S64") ||
                                       opcodeHas(opcode, "U64"))) ||
                    (base == "F2F" && parts.size() > 2 && parts[2] == "F64")
                ? 2
                : 1;
  return width;
}

DataRoles dataRoles(const Instr &in) {
  DataRoles r;
  std::vector<std::string> ops = splitOperands(in);
  StringRef opcode(in.opcode), base = baseOf(opcode);
  bool noDest = noDestination().contains(base);
  int width = sourceWidth(opcode, base, ops);
  // IMAD.WIDE's addend is its last operand (a, b, c after the destination
  // and its carry).
  int lastRegister = -1;
  if (opcodeHas(opcode, "WIDE") && !ops.empty() &&
      (isPlainRegister(ops.back(), false) || isPlainRegister(ops.back(), true)))
    lastRegister = int(ops.size()) - 1;
  size_t current = 0;
  auto source = [&](StringRef o) {
    int w = StringRef(o).contains('[') ? 1 : width;
    if (int(current) == lastRegister)
      w = 2;
    widenedSlots(base, o, w, r.reads, r.ureads);
  };
  auto mayOut = [&](StringRef o) {
    std::vector<int> regs, uregs;
    widenedSlots(base, o, 1, regs, uregs);
    r.may.insert(r.may.end(), regs.begin(), regs.end());
    r.umay.insert(r.umay.end(), uregs.begin(), uregs.end());
  };
  // The comparisons write their first predicates (two, FCHK one) and read
  // the rest; elsewhere a leading predicate may be written or read.
  static const llvm::StringSet<> compares = {
      "ISETP", "FSETP", "DSETP", "HSETP2", "PSETP", "PLOP3", "UISETP",
      "UPSETP", "UPLOP3", "FCHK", "UFSETP"};
  size_t outs = !compares.contains(base) ? 0 : base == "FCHK" ? 1 : 2;
  // A logic op's leading predicate is its result tested against zero
  // (LOP3.LUT P0, RZ, R5, 0x4, RZ, 0xc0, !PT: a bit of R5), written
  // whenever the op runs, besides its register destination; so is an
  // R2UR's (R2UR P0, UR26, R24: whether the lanes agreed), except that
  // R2UR.OR ors it into the old value.
  static const llvm::StringSet<> predicateResults = {"LOP3", "ULOP3"};
  bool predicateResult =
      predicateResults.contains(base) ||
      (base == "R2UR" && !opcodeHas(opcode, "OR"));
  size_t leadingOuts = outs ? outs : predicateResult ? 1 : 0;
  size_t k = 0;
  for (; k < ops.size() && isAnyPredicate(ops[k]); ++k) {
    std::vector<int> regs, uregs;
    widenedSlots(base, ops[k], 1, regs, uregs);
    if (k < leadingOuts) {
      r.certain.insert(r.certain.end(), regs.begin(), regs.end());
      r.ucertain.insert(r.ucertain.end(), uregs.begin(), uregs.end());
    } else {
      current = k;
      source(ops[k]);
      // A comparison's predicates after its results are its inputs.
      if (!outs)
        mayOut(ops[k]);
    }
  }
  // The destination register, then the predicates right after it (carries,
  // a vote's predicate) may be written and read.
  // SYNCS.ARRIVE R8, [UR4]: the mbarrier's state, read from shared memory.
  if (base == "SYNCS" && k < ops.size() && isPlainRegister(ops[k], false)) {
    llvm::SmallVector<int, 2> first;
    slotsIn(ops[k], first);
    r.certain.push_back(first[0]);
    if (opcodeHas(opcode, "TRANS64") && first[0] + 1 < kPreds)
      r.certain.push_back(first[0] + 1);
    ++k;
  }
  // The predicates right after the destination: carries (IADD3 R8, P0, ...;
  // also after RZ) and a vote's predicate (VOTE.ANY R5, P1, P0: P1) are
  // written; other predicates there may be either.
  static const llvm::StringSet<> carries = {"IADD3", "IADD",   "LEA",  "IMAD",
                                            "UIADD3", "ULEA", "UIMAD"};
  auto afterDestination = [&](bool vote) {
    size_t firstPredicate = k + 1;
    for (++k; k < ops.size() && isAnyPredicate(ops[k]); ++k) {
      current = k;
      if (carries.contains(base) || (vote && k == firstPredicate)) {
        std::vector<int> regs, uregs;
        widenedSlots(base, ops[k], 1, regs, uregs);
        r.certain.insert(r.certain.end(), regs.begin(), regs.end());
        r.ucertain.insert(r.ucertain.end(), uregs.begin(), uregs.end());
        continue;
      }
      source(ops[k]);
      mayOut(ops[k]);
    }
  };
  StringRef destination = k < ops.size() ? StringRef(ops[k]).trim() : "";
  if (!noDest && !outs && k < ops.size() &&
      (destination == "RZ" || destination == "URZ")) {
    afterDestination(/*vote=*/false);
  } else if (!noDest && !outs && k < ops.size() &&
             (isPlainRegister(ops[k], false) || isPlainRegister(ops[k], true))) {
    bool uniform = isPlainRegister(ops[k], true);
    auto [certain, possible] = dataWidth(opcode);
    llvm::SmallVector<int, 2> first;
    if (uniform)
      uniformSlotsIn(ops[k], first);
    else
      slotsIn(ops[k], first);
    int limit = uniform ? kUniformPreds : kPreds;
    for (int x = 0; !first.empty() && x < std::max(certain, possible) &&
                    first[0] + x < limit;
         ++x)
      (x < certain ? (uniform ? r.ucertain : r.certain)
                   : (uniform ? r.umay : r.may))
          .push_back(first[0] + x);
    afterDestination(/*vote=*/base == "VOTE" || base == "VOTEU");
  }
  for (; k < ops.size(); ++k) {
    current = k;
    source(ops[k]);
    // A store's or branch's predicate operands (SYNCS.PHASECHK writes one).
    if (noDest && StringRef(ops[k]).trim().starts_with("P"))
      mayOut(StringRef(ops[k]).split('[').first);
  }
  if (base == "R2P")
    for (int p = 0; p < 8; ++p)
      r.may.push_back(kPreds + p);
  if (base == "UR2UP")
    for (int p = 0; p < 8; ++p)
      r.umay.push_back(kUniformPreds + p);
  return r;
}

} // namespace rake::verifier::sass
