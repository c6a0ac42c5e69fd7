//===- Verifier.h - The cubin artifact verifier -----------------*- C++ -*-===//
//
// Checks a cubin against a profile, from the cubin itself (ELF, .nv.info,
// .nv.compat, the ptxas note) and from nvdisasm's JSON disassembly, with the
// PTX it was made from as evidence for the source's loops and floating-point
// operations. Every question the evidence cannot answer is an error (fail
// closed). See docs/Artifacts.md for the rules.
//
//===----------------------------------------------------------------------===//

#ifndef RAKE_VERIFIER_VERIFIER_H
#define RAKE_VERIFIER_VERIFIER_H

#include "Rake/Profile/Profile.h"
#include "Rake/Verifier/Cubin.h"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace rake {
namespace verifier {

/// The verifier's version, recorded in each manifest.
extern const char *const kVersion;

/// One broken rule: where (kernel, offset, instruction), which rule, why.
struct Finding {
  std::string kernel;      ///< "" for the whole cubin
  int64_t offset = -1;     ///< in the kernel's .text section, or -1
  std::string instruction; ///< as nvdisasm prints it, or ""
  std::string rule;        ///< "call", "local-memory", ...
  std::string message;
};
std::string format(const Finding &f);

/// A kernel parameter of a PTX .entry, laid out in the parameter bank.
struct PtxParam {
  std::string name, type;
  unsigned size = 0, align = 0, offset = 0;
};
struct PtxEntry {
  std::string name;
  std::vector<PtxParam> params;
  unsigned paramBytes = 0;       ///< end of the last parameter
  unsigned backwardBranches = 0; ///< loops in the PTX
  /// The kernel may use dynamic shared memory: it, or the module around it,
  /// declares `.extern .shared` (whose size only the launch gives).
  bool externShared = false;
  /// The input formats of its matrix products (mma.sync, wgmma.mma_async):
  /// "f16", "bf16", "tf32", "e4m3", "s8", ...
  std::set<std::string> matrixFormats;
  /// The fused regions its code has (`.loc F L` with F the file
  /// `rake-fused-regions`: region L - 2 for L >= 2).
  std::set<unsigned> fusedRegions;
  /// (file, line) of each `.loc` in the body, for fusedRegions.
  std::set<std::pair<unsigned, unsigned>> locs;
  /// The fused regions a loop of the PTX encloses (a backward branch whose
  /// label comes before the region's first `.loc` and whose branch after
  /// the region ends, at the next `.loc` of another line after its last): the source's own loops around the region, such as a
  /// persistent kernel's task loop, which the machine code may keep.
  std::set<unsigned> regionsInLoops;
};

/// The line-table file in which code generation marks fused regions
/// (line 1: outside them; line 2 + i: fused region i).
extern const char *const kFusedRegionFile;
struct PtxInfo {
  std::string version, target;
  unsigned addressSize = 0;
  std::vector<PtxEntry> entries;
  /// The names of the .func functions the PTX defines: ptxas names them
  /// as it names NVIDIA's own subroutines ($__internal_N_$name), so one
  /// named like an allowed subroutine is the PTX's, not NVIDIA's.
  std::set<std::string> functions;
  std::vector<Finding> fpFindings; ///< .ftz, .approx, directed rounding
  const PtxEntry *findEntry(const std::string &name) const;
};
/// Reads what the verifier needs from PTX text; false with \p error when the
/// text is not PTX it understands.
bool parsePtx(const std::string &text, PtxInfo &out, std::string &error);

struct KernelReport {
  std::string name;
  unsigned registers = 0;
  uint64_t sharedBytes = 0, frameBytes = 0, localBytes = 0;
  uint32_t minStack = 0;
  unsigned instructions = 0;
  unsigned backwardBranches = 0;
  int sourceLoops = -1; ///< -1: unknown
  unsigned barriers = 0;
  std::map<std::string, unsigned> tensorCore; ///< opcode -> count
  std::vector<std::string> subroutines;       ///< arithmetic subroutines called
  std::vector<cubin::KParam> params;
  uint32_t paramBankSize = 0;
  bool disassembled = false;
  /// Fused regions the line table marks, and their instructions.
  unsigned fusedRegions = 0, fusedInstructions = 0;
};

struct Options {
  const profile::Profile *profile = nullptr;
  /// nvdisasm -json output for exactly these cubin bytes, or null.
  const std::string *disasmJson = nullptr;
  /// What to say when disasmJson is null (how the evidence was looked for).
  std::string disasmMissingReason;
  const PtxInfo *ptx = nullptr;
  /// Loops in the source per kernel (overrides the PTX's count).
  std::map<std::string, int> sourceLoops;
  int allSourceLoops = -1; ///< for every kernel, when >= 0
};

struct Result {
  std::string arch;
  std::vector<Finding> errors;
  std::vector<KernelReport> kernels;
  bool ok() const { return errors.empty(); }
};

Result verify(const cubin::Cubin &c, const std::string &cubinSha256,
              const Options &options);

/// The per-kernel report as text (what rake-verify prints).
std::string formatReport(const Result &r, const profile::Profile &p);

} // namespace verifier
} // namespace rake

#endif // RAKE_VERIFIER_VERIFIER_H
