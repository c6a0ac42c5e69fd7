//===- Verifier.cpp - The cubin artifact verifier -------------------------===//
//
// The rules, in the order they run (docs/Artifacts.md lists them with their
// messages):
//   architecture, toolchain, flags        the cubin's header, .nv.compat and
//                                         ptxas note against the profile
//   ptx                                   the PTX's version, target, address
//                                         size and floating-point modifiers
//   stack-frame, local-memory             .nv.info resources (strict profiles)
//   evidence                              anything missing or inconsistent
//   unknown-instruction, call,            each instruction nvdisasm lists
//   local-memory, fp-approx, fp-ftz,
//   fp-rounding, loop
//   divergent-control                     warp collectives that not every
//                                         lane of a warp reaches
//   address-pattern                       addresses computed from loaded
//                                         data (gathers, scatters)
//   fused-region                          the instructions the line table
//                                         puts in a fused region
//
//===----------------------------------------------------------------------===//

#include "Rake/Verifier/Verifier.h"
#include "Disassembly.h"
#include "Divergence.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <optional>
#include <set>

using namespace rake;
using namespace rake::verifier;
using profile::Profile;

const char *const rake::verifier::kVersion = "rake-verify 1 (cubin ELF + nvdisasm JSON schema 12.8)";

std::string rake::verifier::format(const Finding &f) {
  std::string s;
  llvm::raw_string_ostream os(s);
  if (!f.kernel.empty())
    os << "kernel '" << f.kernel << "'";
  else
    os << "cubin";
  if (f.offset >= 0)
    os << " at " << llvm::format_hex(f.offset, 6);
  if (!f.instruction.empty())
    os << ": `" << f.instruction << "`";
  os << ": " << f.message << " [rule " << f.rule << "]";
  return s;
}

namespace {

class Checker {
public:
  Checker(const cubin::Cubin &c, const Options &o, Result &r)
      : c(c), o(o), p(*o.profile), r(r) {}

  void run(const std::string &sha);

private:
  void error(const std::string &kernel, int64_t offset,
             const std::string &instruction, const std::string &rule,
             const std::string &message) {
    // The profile's flags switch some rules off (Profile::enforces, the
    // table in Profile.cpp): every rule is decided here, in one place.
    if (!p.enforces(rule))
      return;
    // At most kShown findings of one rule per kernel; the rest are counted.
    if (++counts[{kernel, rule}] > kShown)
      return;
    r.errors.push_back({kernel, offset, instruction, rule, message});
  }
  void summarize() {
    for (auto &[key, n] : counts)
      if (n > kShown)
        r.errors.push_back({key.first, -1, "", key.second,
                            "and " + std::to_string(n - kShown) +
                                " more findings of this rule"});
  }
  static constexpr unsigned kShown = 4;
  std::map<std::pair<std::string, std::string>, unsigned> counts;
  void checkHeader();
  void checkDivergence(const cubin::Kernel &k, const Function &f,
                       const std::map<std::string, const Function *> &callees);
  void checkFusedRegions(const cubin::Kernel &k,
                         const std::vector<const Function *> &fns,
                         const std::set<std::string> &trustedNames,
                         KernelReport &rep);
  bool disassemblerPinned(const std::string &producer) const;
  std::string pinnedDisassemblers() const;
  void checkPtx();
  void checkMatrixFormats(const cubin::Kernel &k, const PtxEntry &e,
                          const std::vector<const Function *> &fns);
  void checkKernel(const cubin::Kernel &k, KernelReport &rep,
                   const Disassembly *d);
  void checkFunction(const cubin::Kernel &k, const Function &f, bool trusted,
                     bool isKernel, const std::set<std::string> &trustedNames,
                     KernelReport &rep);
  std::vector<bool> reachable(const cubin::Kernel &k, const Function &f,
                              const std::vector<ControlFlow> &flow);
  void checkCallsAndLoops(const cubin::Kernel &k, const Function &f, size_t i,
                          const ControlFlow &flow, bool reached, bool counted,
                          const std::set<std::string> &trustedNames,
                          KernelReport &rep);
  void checkReciprocal(const cubin::Kernel &k, const Function &f, size_t i,
                       const std::set<std::string> &trustedNames);
  void checkFlushToZero(const cubin::Kernel &k, const Function &f, size_t i);

  const cubin::Cubin &c;
  const Options &o;
  const Profile &p;
  Result &r;
};

bool Checker::disassemblerPinned(const std::string &producer) const {
  for (const profile::ToolPin &pin : p.pins)
    if (pin.tool == "nvdisasm" &&
        llvm::StringRef(producer).starts_with("nvdisasm " + pin.version + " "))
      return true;
  return false;
}

std::string Checker::pinnedDisassemblers() const {
  std::string s;
  for (const profile::ToolPin &pin : p.pins)
    if (pin.tool == "nvdisasm")
      s += (s.empty() ? "nvdisasm " : ", ") + pin.version;
  return s.empty() ? "no nvdisasm" : s;
}

void Checker::checkHeader() {
  r.arch = c.archName();
  if (c.sm != p.sm || (c.archSpecific == 1) != p.archSpecific)
    error("", -1, "", "architecture",
          "the cubin is for " + c.archName() + " (ELF e_flags " +
              "0x" + llvm::utohexstr(c.flags, true) + "); profile " + p.name +
              " requires " + p.target);
  else if (c.archSpecific < 0)
    error("", -1, "", "evidence",
          "the cubin has no .nv.compat record saying whether it is "
          "architecture-specific (" + p.target + ")");
  if (!c.hasToolInfo) {
    error("", -1, "", "evidence",
          "the cubin has no .note.nv.tkinfo: its assembler and options "
          "cannot be checked");
    return;
  }
  bool pinned = false;
  std::string versions;
  for (const profile::ToolPin &pin : p.pins) {
    if (pin.tool != "ptxas")
      continue;
    versions += (versions.empty() ? "" : ", ") + pin.version;
    if (c.toolName == "ptxas" &&
        llvm::StringRef(c.toolVersion).ends_with(", " + pin.version))
      pinned = true;
  }
  if (!pinned)
    error("", -1, "", "toolchain",
          "the cubin was made by " + c.toolName + " '" + c.toolVersion +
              "'; profile " + p.name + " pins ptxas " + versions);
  std::string want;
  for (const std::string &f : p.ptxasFlags)
    want += (want.empty() ? "" : " ") + f;
  if (cubin::splitOptions(c.toolOptions) != cubin::splitOptions(want))
    error("", -1, "", "flags",
          "the cubin was assembled with ptxas options '" +
              llvm::StringRef(c.toolOptions).trim().str() + "'; profile " +
              p.name + " requires '" + want + "'");
  // No implicit contraction: ptxas fuses a multiply and an add into an FMA
  // (one rounding instead of two) unless told -fmad false.
  bool noFmad = false;
  for (auto &[opt, value] : cubin::splitOptions(c.toolOptions))
    noFmad |= opt == "-fmad" && value == "false";
  if (!noFmad)
    error("", -1, "", "fp-contraction",
          "the cubin was assembled without -fmad false (options '" +
              llvm::StringRef(c.toolOptions).trim().str() +
              "'), so ptxas may contract a multiply and an add into one FMA; "
              "profile " + p.name + " forbids implicit contraction");
}

void Checker::checkPtx() {
  if (!o.ptx)
    return;
  const PtxInfo &x = *o.ptx;
  if (x.version != p.ptxVersion)
    error("", -1, "", "ptx",
          "the PTX is ISA version " + x.version + "; profile " + p.name +
              " requires " + p.ptxVersion);
  if (x.target != p.target)
    error("", -1, "", "ptx",
          "the PTX targets " + x.target + "; profile " + p.name +
              " requires " + p.target);
  if (x.addressSize != p.addressBits)
    error("", -1, "", "ptx",
          "the PTX uses " + std::to_string(x.addressSize) +
              "-bit addresses; profile " + p.name + " requires " +
              std::to_string(p.addressBits));
  for (const Finding &f : x.fpFindings)
    error(f.kernel, -1, f.instruction, f.rule,
          f.message + "; profile " + p.name + " forbids it");
}

/// Whether `in` is FFMA d, r, x, -1 (or d, x, r, -1): the residual of the
/// reciprocal r of x in NVIDIA's correctly rounded reciprocal.
static bool isReciprocalResidual(const Instr &in, llvm::StringRef r,
                                 llvm::StringRef x) {
  if (in.opcode != "FFMA")
    return false;
  std::vector<std::string> ops = in.operandList();
  // r x - 1 or x r - 1: the same product, rounded once.
  return ops.size() == 4 && ops[3] == "-1" &&
         ((regOf(ops[1]) == r && regOf(ops[2]) == x) ||
          (regOf(ops[1]) == x && regOf(ops[2]) == r));
}

/// Whether instruction j is such a residual, of a MUFU.RCP just before it.
static bool residualOfReciprocal(const Function &f, size_t j) {
  for (size_t k = j; k-- > 0 && k + 3 >= j;) {
    std::vector<std::string> ops = f.code[k].operandList();
    if (f.code[k].opcode == "MUFU.RCP" && ops.size() > 1 &&
        isReciprocalResidual(f.code[j], regOf(ops[0]), regOf(ops[1])))
      return true;
  }
  return false;
}

/// Which instructions of the function its first one reaches; a branch to
/// no instruction of it is an evidence error.
std::vector<bool> Checker::reachable(const cubin::Kernel &k, const Function &f,
                                     const std::vector<ControlFlow> &flow) {
  size_t n = f.code.size();
  std::vector<bool> reach(n, false);
  std::vector<size_t> work;
  if (n) {
    reach[0] = true;
    work.push_back(0);
  }
  bool cfOk = true;
  while (!work.empty()) {
    size_t i = work.back();
    work.pop_back();
    const Instr &in = f.code[i];
    const ControlFlow &c = flow[i];
    std::vector<size_t> next;
    if (c.fallsThrough && i + 1 < n)
      next.push_back(i + 1);
    if (c.kind == ControlFlow::Branch) {
      if (c.target) {
        next.push_back(*c.target);
      } else {
        if (cfOk)
          error(k.name, in.offset, in.text(), "evidence",
                "a branch whose target is not an instruction of " + f.name);
        cfOk = false;
      }
    }
    // An indirect branch may go to any instruction: all are reached (and
    // checked).
    if (c.kind == ControlFlow::Indirect)
      for (size_t j = 0; j < n; ++j)
        next.push_back(j);
    for (size_t j : next)
      if (!reach[j]) {
        reach[j] = true;
        work.push_back(j);
      }
  }
  return reach;
}

void Checker::checkFunction(const cubin::Kernel &k, const Function &f,
                            bool trusted, bool isKernel,
                            const std::set<std::string> &trustedNames,
                            KernelReport &rep) {
  std::vector<ControlFlow> flow = controlFlow(f.code);
  std::vector<bool> reach = reachable(k, f, flow);
  for (size_t i = 0; i < f.code.size(); ++i) {
    const Instr &in = f.code[i];
    std::string b = in.base();
    if (isKernel || !trusted)
      ++rep.instructions;
    std::string cls = p.classOf(in.opcode);
    if (cls.empty()) {
      error(k.name, in.offset, in.text(), "unknown-instruction",
            "instruction " + b + " is not known to profile " + p.name);
      continue;
    }
    if (p.isTensorCore(in.opcode))
      ++rep.tensorCore[in.opcode];
    checkCallsAndLoops(k, f, i, flow[i], reach[i], isKernel || !trusted,
                       trustedNames,
                       rep);
    if (trusted)
      continue;
    // Floating point, outside NVIDIA's correctly rounded subroutines; the
    // uniform datapath's too (an adversarial review: UFADD.FTZ and
    // UFFMA.RZ, of the profile's uniform class, were never judged).
    bool fpArith = cls == "float32" || cls == "half" || cls == "float64" ||
                   b == "UFADD" || b == "UFMUL" || b == "UFFMA" ||
                   b == "UFSETP" || b == "UFMNMX";
    if (b == "MUFU")
      checkReciprocal(k, f, i, trustedNames);
    if (in.has("FTZ") &&
        (fpArith || b == "F2F" || b == "F2I" || b == "UF2I" || b == "UF2FP"))
      checkFlushToZero(k, f, i);
    if (fpArith && (in.has("RM") || in.has("RP") || in.has("RZ")))
      error(k.name, in.offset, in.text(), "fp-rounding",
            in.opcode + " rounds other than to nearest even; profile " +
                p.name + " requires round to nearest even");
  }
}

/// Calls other than of trusted subroutines, local memory, and loops the
/// source does not explain. `counted`: the instruction is the kernel's or
/// of an untrusted function (loops in trusted subroutines are theirs).
void Checker::checkCallsAndLoops(const cubin::Kernel &k, const Function &f,
                                 size_t i, const ControlFlow &flow,
                                 bool reached, bool counted,
                                 const std::set<std::string> &trustedNames,
                                 KernelReport &rep) {
  const std::string &kn = k.name;
  const Instr &in = f.code[i];
  std::string b = in.base();
  if (b == "CALL") {
    std::vector<std::string> ops = in.operandList();
    std::string target = ops.empty() ? "" : ops.back();
    if (trustedNames.count(target)) {
      std::string nm = internalName(target);
      if (!llvm::is_contained(rep.subroutines, nm))
        rep.subroutines.push_back(nm);
    } else {
      error(kn, in.offset, in.text(), "call",
            "a call to the helper function '" + target + "'; profile " +
                p.name +
                " forbids calls (only NVIDIA's arithmetic "
                "subroutines may be called)");
    }
  }
  if (b == "LDL" || b == "STL")
    error(kn, in.offset, in.text(), "local-memory",
          std::string("a local memory ") + (b == "LDL" ? "load" : "store") +
              " (a spill or a local array); profile " + p.name +
              " forbids local memory");
  // Loops: a reachable branch back to itself or an earlier instruction;
  // an indirect branch, or a return in the kernel itself (which ends with
  // EXIT, so a RET there jumps through a register), may go back too.
  if (!reached || !counted)
    return;
  std::string what, to;
  if (flow.kind == ControlFlow::Branch && flow.target &&
      f.code[*flow.target].offset <= in.offset) {
    what = "a backward branch (a loop)";
    to = " to 0x" + llvm::utohexstr(f.code[*flow.target].offset, false, 4);
  } else if (flow.kind == ControlFlow::Indirect ||
             (flow.kind == ControlFlow::Return && f.name == k.name)) {
    what = "an indirect jump (" + b + ", which may go back: a loop)";
  } else {
    return;
  }
  ++rep.backwardBranches;
  if (rep.sourceLoops == 0)
    error(kn, in.offset, in.text(), "loop",
          what + to + " in the machine code, but the source has no loop");
  else if (rep.sourceLoops < 0)
    error(kn, in.offset, in.text(), "evidence",
          what + ", and no evidence of the source's loops (no PTX, no "
                 "manifest field) to explain it");
}

/// MUFU: only the reciprocal of a correctly rounded divide, reciprocal or
/// integer divide, and the reciprocal square root of the correctly rounded
/// square root; every other MUFU is an approximation.
void Checker::checkReciprocal(const cubin::Kernel &k, const Function &f,
                              size_t i,
                              const std::set<std::string> &trustedNames) {
  const std::string &kn = k.name;
  const Instr &in = f.code[i];
  size_t n = f.code.size();
  std::vector<std::string> ops = in.operandList();
  std::string fn = in.opcode.substr(5);
  if (fn == "RCP") {
    // Correctly rounded division checks its result with FCHK of the same
    // divisor (ptxas may compute the reciprocal of a divisor shared by
    // several divisions early); the correctly rounded reciprocal (rcp.rn)
    // refines it with the residual FFMA r, x, -1 and has NVIDIA's slow
    // path; integer division starts from the reciprocal of an I2F.*.RP
    // conversion.
    bool fchk = false, rcpRn = false, intDiv = false;
    std::string dst = ops.empty() ? "" : regOf(ops[0]);
    std::string src = ops.size() > 1 ? regOf(ops[1]) : "";
    for (size_t j = i + 1; j < n && j <= i + 64; ++j) {
      std::vector<std::string> jops = f.code[j].operandList();
      if (f.code[j].base() == "FCHK" && jops.size() > 2 &&
          regOf(jops[2]) == src) {
        fchk = true;
        break;
      }
      if (!jops.empty() && regOf(jops[0]) == src)
        break;
    }
    bool rcpSlowPath = false;
    for (const std::string &t : trustedNames)
      rcpSlowPath |= llvm::StringRef(t).contains("rcp_rn");
    for (size_t j = i + 1; j < n && j <= i + 3 && rcpSlowPath; ++j)
      rcpRn |= isReciprocalResidual(f.code[j], dst, src);
    for (size_t j = i; j-- > 0;) {
      std::vector<std::string> dops = f.code[j].operandList();
      if (!dops.empty() && regOf(dops[0]) == src) {
        intDiv = (f.code[j].base() == "I2F" || f.code[j].base() == "UI2F") &&
                 f.code[j].has("RP");
        break;
      }
    }
    if (!fchk && !rcpRn && !intDiv)
      error(kn, in.offset, in.text(), "fp-approx",
            "an approximate reciprocal that is not part of a correctly "
            "rounded divide (no FCHK follows it) nor of an integer "
            "divide; profile " +
                p.name +
                " requires correctly rounded "
                "division");
  } else if (fn == "RSQ") {
    bool slow = false;
    for (const std::string &t : trustedNames)
      slow |= llvm::StringRef(t).contains("sqrt_rn");
    if (!slow)
      error(kn, in.offset, in.text(), "fp-approx",
            "an approximate reciprocal square root outside the correctly "
            "rounded square root (no call of its slow path); profile " +
                p.name + " requires correctly rounded square root");
  } else {
    error(kn, in.offset, in.text(), "fp-approx",
          "MUFU." + fn + " is an approximation; profile " + p.name +
              " forbids approximate functions");
  }
}

/// An FTZ modifier is harmless where no input can be subnormal: F2I with
/// truncation (0 for a subnormal either way), and the operations of the
/// correctly rounded square root's and reciprocal's fast paths, whose
/// inputs the exponent test in front of them keeps normal.
void Checker::checkFlushToZero(const cubin::Kernel &k, const Function &f,
                               size_t i) {
  const Instr &in = f.code[i];
  bool harmless = in.base() == "F2I" && in.has("TRUNC");
  std::vector<std::string> ops = in.operandList();
  // An operand every reaching write of which is the MUFU.RSQ of the square
  // root's fast path, or the negated residual of a correctly rounded
  // reciprocal (r x - 1 for r = MUFU.RCP x: never subnormal on its fast
  // path).
  for (size_t a = 1; a < ops.size() && !harmless; ++a) {
    std::string src = regOf(ops[a]);
    if (src.empty())
      continue;
    std::optional<std::vector<size_t>> writes = reachingWrites(f, i, src);
    harmless = writes && !writes->empty() &&
               llvm::all_of(*writes, [&](size_t j) {
                 return f.code[j].opcode == "MUFU.RSQ" ||
                        residualOfReciprocal(f, j);
               });
  }
  if (!harmless)
    error(k.name, in.offset, in.text(), "fp-ftz",
          in.opcode + " flushes subnormals to zero; profile " + p.name +
              " keeps subnormals");
}

void Checker::checkKernel(const cubin::Kernel &k, KernelReport &rep,
                          const Disassembly *d) {
  rep.name = k.name;
  rep.registers = k.regCount;
  rep.sharedBytes = k.sharedSize;
  rep.frameBytes = k.frameSize;
  rep.localBytes = k.localSize;
  rep.minStack = k.minStackSize;
  rep.barriers = k.numBarriers;
  rep.params = k.params;
  rep.paramBankSize = k.hasCbankParamSize ? k.cbankParamSize : k.paramBankSize;
  if (o.allSourceLoops >= 0)
    rep.sourceLoops = o.allSourceLoops;
  if (o.ptx)
    if (const PtxEntry *e = o.ptx->findEntry(k.name))
      rep.sourceLoops = int(e->backwardBranches);
  auto it = o.sourceLoops.find(k.name);
  if (it != o.sourceLoops.end())
    rep.sourceLoops = it->second;

  if (!k.hasRegCount)
    error(k.name, -1, "", "evidence",
          "no EIATTR_REGCOUNT record: the register count is unknown");
  if (!k.hasFrameSize)
    error(k.name, -1, "", "evidence",
          "no EIATTR_FRAME_SIZE record: the stack frame is unknown");
  {
    if (k.frameSize > 0)
      error(k.name, -1, "", "stack-frame",
            "a stack frame of " + std::to_string(k.frameSize) +
                " bytes (EIATTR_FRAME_SIZE); profile " + p.name +
                " forbids a stack frame");
    if (k.localSize > 0)
      error(k.name, -1, "", "local-memory",
            std::to_string(k.localSize) + " bytes of local memory (.nv.local." +
                k.name + "); profile " + p.name + " forbids local memory");
  }
  if (o.ptx && !o.ptx->findEntry(k.name))
    error(k.name, -1, "", "evidence", "the PTX has no .entry " + k.name);
  if (!d)
    return;

  auto fit = d->functions.find(k.name);
  if (fit == d->functions.end()) {
    error(k.name, -1, "", "evidence",
          "the disassembly has no function '" + k.name + "'");
    return;
  }
  rep.disassembled = true;
  // The functions of this kernel's text section must tile it exactly.
  std::set<std::string> trustedNames;
  std::vector<const Function *> fns;
  int64_t covered = 0;
  for (const cubin::Subroutine &s : k.functions) {
    auto f = d->functions.find(s.name);
    if (f == d->functions.end()) {
      error(k.name, -1, "", "evidence",
            "the disassembly has no function '" + s.name + "' of .text." + k.name);
      return;
    }
    if (f->second.start != int64_t(s.offset)) {
      error(k.name, -1, "", "evidence",
            "the disassembly places '" + s.name + "' at " +
                std::to_string(f->second.start) + ", the cubin's symbol at " +
                std::to_string(s.offset) + ": they describe different code");
      return;
    }
    covered += int64_t(f->second.code.size()) * 16;
    fns.push_back(&f->second);
    std::string nm = internalName(s.name);
    if (nm.empty() || !llvm::is_contained(p.arithmeticSubroutines, nm))
      continue;
    // A function of the PTX's own with that name gets the same machine
    // name (an adversarial review: a .func named __cuda_sm20_rem_u64 was
    // trusted, and its approximations, directed rounding and divergent
    // shuffle went unchecked).
    if (o.ptx && o.ptx->functions.count(nm)) {
      error(k.name, -1, "", "call",
            "the PTX defines a function named " + nm +
                ", as NVIDIA's arithmetic subroutine is; its code (" +
                s.name + ") is the PTX's and is checked as such: rename it");
      continue;
    }
    trustedNames.insert(s.name);
  }
  if (covered != int64_t(k.textSize)) {
    error(k.name, -1, "", "evidence",
          "the disassembly covers " + std::to_string(covered) + " of the " +
              std::to_string(k.textSize) + " bytes of .text." + k.name +
              ": it is not the disassembly of this cubin");
    return;
  }
  // EXIT offsets: the cubin's record and the disassembly must agree.
  std::vector<uint32_t> exits;
  for (const Function *f : fns)
    for (const Instr &in : f->code)
      if (in.base() == "EXIT")
        exits.push_back(uint32_t(in.offset));
  std::vector<uint32_t> recorded = k.exitOffsets;
  std::sort(recorded.begin(), recorded.end());
  if (!recorded.empty() && recorded != exits) {
    error(k.name, -1, "", "evidence",
          "the EXIT offsets of the disassembly differ from the cubin's "
          "EIATTR_EXIT_INSTR_OFFSETS: it is not the disassembly of this cubin");
    return;
  }
  std::map<std::string, const Function *> byName;
  for (const Function *f : fns)
    byName[f->name] = f;
  for (const Function *f : fns) {
    checkFunction(k, *f, trustedNames.count(f->name) > 0, f->name == k.name,
                  trustedNames, rep);
    if (!trustedNames.count(f->name))
      checkDivergence(k, *f, byName);
  }
  if (o.ptx)
    if (const PtxEntry *e = o.ptx->findEntry(k.name))
      checkMatrixFormats(k, *e, fns);
  checkFusedRegions(k, fns, trustedNames, rep);
}

/// Warp collectives that not every lane of a warp reaches, and addresses
/// computed from loaded data (Divergence.h).
void Checker::checkDivergence(
    const cubin::Kernel &k, const Function &f,
    const std::map<std::string, const Function *> &callees) {
  // SR_TID.X is 32 w + lane only where a warp's threads share their y and
  // z: a one-dimensional block, or one whose width is a multiple of 32 (an
  // adversarial review: a divergent shuffle under tid.x >= 32 in a block
  // of 48 x 2 verified). The block is the kernel's .maxntid, which a
  // bundle records as its launch shape and the runtime launches exactly;
  // without one the runtime launches nothing, and the block is taken as
  // one-dimensional.
  const std::vector<uint32_t> &b = k.maxThreads;
  bool tidIsLane = b.size() != 3 || b[0] % 32 == 0 || b[1] * b[2] == 1;
  LaneFindings lanes = analyzeLanes(f.code, f.start, callees, tidIsLane);
  for (const DataAddress &d : lanes.dataAddresses) {
    const Instr &in = f.code[d.at], &from = f.code[d.origin];
    error(k.name, in.offset, in.text(), "address-pattern",
          "an address computed from data (`" + from.text() + "` at " +
              llvm::utohexstr(from.offset, /*LowerCase=*/true, 4).insert(0, "0x") +
              "): a gather or scatter; profile " + p.name +
              " requires each lane's address to follow from the parameters, "
              "the thread's indices and loop counters, as GpuIR's affine "
              "indices do");
  }
  for (const DivergentCollective &d : lanes.collectives) {
    const Instr &in = f.code[d.at], &why = f.code[d.because];
    error(k.name, in.offset, in.text(), "divergent-control",
          d.because == d.at
              ? "a warp collective guarded by a predicate that differs "
                "between the lanes of a warp; profile " + p.name +
                    " requires every lane of a warp to reach each "
                    "collective together"
              : "a warp collective that not every lane of a warp reaches: "
                "it is under `" + why.text() + "` at " +
                    llvm::utohexstr(why.offset, /*LowerCase=*/true, 4).insert(0, "0x") +
                    ", whose condition differs between the lanes; profile " +
                    p.name + " requires every lane of a warp to reach each "
                    "collective together");
  }
}

/// Machine instructions that move data to or from device memory (global,
/// generic, texture and surface accesses, TMA and bulk copies) or local
/// memory (spills and reloads).
static bool touchesMemoryOffChip(const std::string &base) {
  static const std::set<std::string> ops = {
      "LDG",     "STG",     "LD",      "ST",      "ATOM",    "ATOMG",
      "RED",     "REDG",    "LDGSTS",  "LDL",     "STL",     "CCTL",
      "UBLKCP",  "UBLKRED", "UBLKPF",  "UTMALDG", "UTMASTG", "UTMAREDG",
      "UTMAPF",  "UTMACCTL", "SULD",   "SUST",    "SUATOM",  "SURED",   "TLD",
      "TEX",     "TLD4",    "TMML",    "TXD"};
  return ops.count(base) > 0;
}

/// Fused regions (gpuir.fused): code generation marks the region's code in
/// the line table (file kFusedRegionFile, line 2 + the region's index); in
/// it, no instruction may touch device or local memory (the region's values
/// stay in registers and shared memory: no intermediate goes out to device
/// memory and back, no spill, no reload), call anything but NVIDIA's
/// arithmetic subroutines (the correctly rounded operations' slow paths),
/// or lie on a loop through the region other than the source's loops around
/// it (loopsThroughRegion; code generation unrolls a region's loops,
/// so a loop there is one the compiler made: a hidden loop). A region the
/// PTX marks and the cubin's line table does not is an error of evidence.
void Checker::checkFusedRegions(const cubin::Kernel &k,
                                const std::vector<const Function *> &fns,
                                const std::set<std::string> &trustedNames,
                                KernelReport &rep) {
  auto regionAt = [&](int64_t offset) -> int {
    auto it = std::upper_bound(
        k.lines.begin(), k.lines.end(), uint64_t(offset),
        [](uint64_t o, const cubin::LineRange &r) { return o < r.begin; });
    if (it == k.lines.begin())
      return -1;
    --it;
    if (uint64_t(offset) >= it->end || it->file != kFusedRegionFile ||
        it->line < 2)
      return -1;
    return int(it->line - 2);
  };
  // Where the PTX marks fused regions, every instruction of the kernel's
  // own code must have exactly one row: an instruction without one, or in
  // two overlapping rows, could belong to a region unchecked.
  const PtxEntry *marked = o.ptx ? o.ptx->findEntry(k.name) : nullptr;
  if (marked && !marked->fusedRegions.empty()) {
    for (size_t i = 1; i < k.lines.size(); ++i)
      if (k.lines[i].begin < k.lines[i - 1].end) {
        error(k.name, int64_t(k.lines[i].begin), "", "evidence",
              "the cubin's line table gives overlapping rows at 0x" +
                  llvm::utohexstr(k.lines[i].begin, false, 4) +
                  ": the fused regions cannot be checked");
        return;
      }
    auto hasRow = [&](int64_t offset) {
      auto it = std::upper_bound(
          k.lines.begin(), k.lines.end(), uint64_t(offset),
          [](uint64_t o, const cubin::LineRange &r) { return o < r.begin; });
      return it != k.lines.begin() && uint64_t(offset) < std::prev(it)->end;
    };
    for (const Function *f : fns) {
      if (trustedNames.count(f->name))
        continue;
      for (const Instr &in : f->code)
        if (!hasRow(in.offset)) {
          error(k.name, in.offset, in.text(), "evidence",
                "the cubin's line table gives this instruction no row, so "
                "it may belong to a fused region unchecked");
          return;
        }
    }
  }
  std::set<int> seen;
  for (const Function *f : fns) {
    if (trustedNames.count(f->name))
      continue;
    for (const Instr &in : f->code) {
      int region = regionAt(in.offset);
      if (region < 0)
        continue;
      seen.insert(region);
      ++rep.fusedInstructions;
      std::string b = in.base();
      std::string where = " inside fused region " + std::to_string(region);
      if (b == "LDL" || b == "STL")
        error(k.name, in.offset, in.text(), "fused-region",
              std::string("a local memory ") +
                  (b == "LDL" ? "load (a reload)" : "store (a spill)") +
                  where + "; profile " + p.name +
                  " keeps a fused region's values in registers");
      else if (touchesMemoryOffChip(b))
        error(k.name, in.offset, in.text(), "fused-region",
              "a device memory access (" + b + ")" + where + "; profile " +
                  p.name +
                  " keeps a fused region's values in registers and shared "
                  "memory (read its inputs before the region, write its "
                  "outputs after it)");
      if (b == "CALL") {
        std::vector<std::string> ops = in.operandList();
        if (ops.empty() || !trustedNames.count(ops.back()))
          error(k.name, in.offset, in.text(), "fused-region",
                "a call" + where + "; profile " + p.name +
                    " forbids calls in fused regions (only NVIDIA's "
                    "arithmetic subroutines may be called)");
      }
    }
    // Loops through a region's code (code generation unrolls its loops,
    // so any is one it did not write), but for the source's loops around
    // the whole region (a persistent kernel's task loop): a backward branch
    // on no such cycle passes, as ptxas's branch back from the out-of-line
    // divergent fallback of a warp collective (after BRA.DIV).
    std::set<int> regions;
    for (const Instr &in : f->code)
      if (int r = regionAt(in.offset); r >= 0)
        regions.insert(r);
    // The source's loops around a region: only those the PTX has.
    const PtxEntry *source = o.ptx ? o.ptx->findEntry(k.name) : nullptr;
    for (int region : regions)
      for (auto [x, y] : loopsThroughRegion(
               *f,
               [&](size_t i) {
                 return regionAt(f->code[i].offset) == region;
               },
               source && source->regionsInLoops.count(unsigned(region)))) {
        const Instr &in = f->code[x];
        bool inside = regionAt(in.offset) == region;
        error(k.name, in.offset, in.text(), "fused-region",
              "a backward branch (a loop) to 0x" +
                  llvm::utohexstr(f->code[y].offset, false, 4) +
                  (inside ? " inside" : " closing a loop through") +
                  " fused region " + std::to_string(region) +
                  ", whose loops code generation unrolls: a loop the source "
                  "does not have");
      }
  }
  rep.fusedRegions = seen.size();
  if (o.ptx)
    if (const PtxEntry *e = o.ptx->findEntry(k.name))
      for (unsigned region : e->fusedRegions)
        if (!seen.count(int(region)))
          error(k.name, -1, "", "evidence",
                "the PTX marks fused region " + std::to_string(region) +
                    ", but the cubin's line table gives it no machine "
                    "instruction: the region cannot be checked");
}

/// The input formats of a tensor-core instruction: the parts after the
/// accumulator's that name one (HMMA.16816.F32.BF16 -> bf16;
/// QMMA.SF.16832.F32.E4M3.E5M2.E8 -> e4m3, e5m2, E8 being the scales'
/// format); with none after the accumulator's, f16 (HMMA.16816.F32).
static std::vector<std::string> machineFormats(const std::string &opcode) {
  static const std::set<std::string> inputs = {
      "f16",  "bf16", "tf32", "e4m3", "e5m2", "e3m2", "e2m3",
      "e2m1", "s8",   "u8",   "s4",   "u4",   "b1",   "f64"};
  static const std::set<std::string> accumulators = {"f32", "f16", "s32",
                                                     "f64"};
  llvm::SmallVector<llvm::StringRef> parts;
  llvm::StringRef(opcode).split(parts, '.');
  std::vector<std::string> out;
  size_t acc = 1;
  while (acc < parts.size() && !accumulators.count(parts[acc].lower()))
    ++acc;
  // No accumulator named (IMMA.16832.S8.S8): the formats follow the shape.
  size_t i = acc < parts.size() ? acc + 1 : 2;
  for (; i < parts.size(); ++i) {
    std::string part = parts[i].lower();
    if (!inputs.count(part))
      break;
    if (std::find(out.begin(), out.end(), part) == out.end())
      out.push_back(part);
  }
  if (out.empty())
    out.push_back("f16");
  return out;
}

/// Matrix products run on the tensor cores, in their declared formats: every
/// input format of the PTX's matrix products has a tensor-core instruction
/// of that format in the machine code, and every tensor-core instruction's
/// format is one the PTX declares (no silent widening or narrowing).
void Checker::checkMatrixFormats(const cubin::Kernel &k, const PtxEntry &e,
                                 const std::vector<const Function *> &fns) {
  std::map<std::string, const Instr *> machine;
  for (const Function *f : fns)
    for (const Instr &in : f->code)
      if (p.isTensorCore(in.opcode))
        for (const std::string &fmt : machineFormats(in.opcode))
          machine.emplace(fmt, &in);
  for (const std::string &declared : e.matrixFormats)
    if (!machine.count(declared)) {
      std::string found;
      std::set<std::string> listed;
      for (auto &[fmt, in] : machine)
        if (listed.insert(in->opcode).second)
          found += (found.empty() ? "" : ", ") + in->opcode;
      error(k.name, -1, "", "tensor-core",
            "the PTX multiplies " + declared +
                " matrices (mma/wgmma) but the machine code has no "
                "tensor-core instruction of that format (" +
                (found.empty() ? std::string("none at all") : "only " + found) +
                "); a matrix product runs on the tensor cores in its "
                "declared format");
    }
  for (auto &[fmt, in] : machine)
    if (!e.matrixFormats.count(fmt)) {
      std::string declared;
      for (const std::string &d : e.matrixFormats)
        declared += (declared.empty() ? "" : ", ") + d;
      error(k.name, in->offset, in->text(), "tensor-core",
            in->opcode + " multiplies " + fmt + " matrices, which the PTX "
                "does not declare (" +
                (declared.empty() ? std::string("it has no matrix product")
                                  : "it declares " + declared) +
                "); a declared format runs as itself");
    }
}

void Checker::run(const std::string &sha) {
  checkHeader();
  checkPtx();
  Disassembly disasm;
  const Disassembly *d = nullptr;
  if (o.disasmJson) {
    std::string err;
    if (!readDisassembly(*o.disasmJson, disasm, err))
      error("", -1, "", "evidence", err);
    else if (!disassemblerPinned(disasm.producer))
      error("", -1, "", "toolchain",
            "the disassembly was made by '" + disasm.producer + "'; profile " +
                p.name + " pins " + pinnedDisassemblers());
    else if (disasm.sm != c.sm)
      error("", -1, "", "evidence",
            "the disassembly is for SM " + std::to_string(disasm.sm) +
                ", the cubin for SM " + std::to_string(c.sm));
    else
      d = &disasm;
  } else {
    error("", -1, "", "evidence",
          "no disassembly of the cubin (sha256 " + sha + ")" +
              (o.disasmMissingReason.empty() ? ""
                                             : ": " + o.disasmMissingReason) +
              "; instructions, calls, local memory accesses, floating point "
              "and loops cannot be checked");
  }
  if (c.kernels.empty())
    error("", -1, "", "evidence", "the cubin has no kernel (entry function)");
  for (const cubin::Kernel &k : c.kernels) {
    KernelReport rep;
    checkKernel(k, rep, d);
    r.kernels.push_back(std::move(rep));
  }
  summarize();
}

} // namespace

Result rake::verifier::verify(const cubin::Cubin &c, const std::string &sha,
                              const Options &o) {
  Result r;
  Checker(c, o, r).run(sha);
  return r;
}

std::string rake::verifier::formatReport(const Result &r, const Profile &p) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "profile " << p.name << ", cubin " << r.arch << "\n";
  for (const KernelReport &k : r.kernels) {
    os << "kernel " << k.name << ": registers " << k.registers
       << ", shared " << k.sharedBytes << " B, stack frame " << k.frameBytes
       << " B, local " << k.localBytes << " B, parameters " << k.params.size()
       << " (" << k.paramBankSize << " B), barriers " << k.barriers << "\n";
    if (!k.disassembled) {
      os << "  instructions: not disassembled\n";
      continue;
    }
    os << "  instructions " << k.instructions << ", backward branches "
       << k.backwardBranches << ", source loops ";
    if (k.sourceLoops < 0)
      os << "unknown";
    else
      os << k.sourceLoops;
    os << "\n  tensor-core:";
    if (k.tensorCore.empty())
      os << " none";
    for (auto &[op, n] : k.tensorCore)
      os << " " << op << " x" << n;
    os << "\n  arithmetic subroutines:";
    if (k.subroutines.empty())
      os << " none";
    for (const std::string &sname : k.subroutines)
      os << " " << sname;
    os << "\n";
    if (k.fusedRegions)
      os << "  fused regions: " << k.fusedRegions << " (" << k.fusedInstructions
         << " instructions checked)\n";
  }
  return s;
}
