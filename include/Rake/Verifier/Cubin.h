//===- Cubin.h - Reading an NVIDIA cubin (ELF) ------------------*- C++ -*-===//
//
// A reader for the ELF files that ptxas writes (cubins): the header, the
// sections, the symbols, the .nv.info and .nv.info.<kernel> attribute records
// (EIATTR_*), the .nv.compat records, the ptxas note (.note.nv.tkinfo: tool
// version and options), the shared and local memory each kernel uses and
// the line table (.debug_line, DWARF 2 to 4, with its relocations).
//
// Plain C++ with no LLVM dependency: the verifier (rake-verify) and the C
// runtime (librake_runtime, which must build with g++ alone) both use it.
// Every read is bounds-checked; a malformed file gives an error, never a
// crash.
//
//===----------------------------------------------------------------------===//

#ifndef RAKE_VERIFIER_CUBIN_H
#define RAKE_VERIFIER_CUBIN_H

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace rake {
namespace cubin {

/// One .nv.info attribute record as stored: format (EIFMT_*), attribute
/// (EIATTR_*) and the value bytes (2 bytes for the short formats).
struct NvInfoRecord {
  uint8_t format = 0;
  uint8_t attribute = 0;
  uint32_t offset = 0; ///< of the record in its section
  std::vector<uint8_t> value;
};

/// A kernel parameter as EIATTR_KPARAM_INFO describes it.
struct KParam {
  uint32_t ordinal = 0;
  uint32_t offset = 0; ///< byte offset in the parameter bank
  uint32_t size = 0;   ///< bytes
  uint32_t logAlign = 0;
  uint32_t space = 0;
  uint32_t cbank = 0;
};

/// A function symbol inside a kernel's .text section: the kernel itself or an
/// internal subroutine that ptxas placed after it.
struct Subroutine {
  std::string name;
  uint64_t offset = 0;
  uint64_t size = 0;
};

/// Machine code [begin, end) of a kernel's text section attributed, by the
/// cubin's line table (.debug_line, which ptxas writes from the PTX's .loc
/// directives), to line `line` of source file `file`.
struct LineRange {
  uint64_t begin = 0, end = 0;
  std::string file;
  uint32_t line = 0;
};

struct Kernel {
  std::string name;
  int textSection = -1;
  uint64_t textOffset = 0; ///< in the file
  uint64_t textSize = 0;
  std::vector<Subroutine> functions; ///< FUNC symbols in the text section
  // From .nv.info (per function, keyed by symbol) and .nv.info.<kernel>.
  bool hasRegCount = false;
  uint32_t regCount = 0;
  bool hasFrameSize = false;
  uint32_t frameSize = 0;
  uint32_t minStackSize = 0;
  uint32_t maxStackSize = 0;
  uint32_t crsStackSize = 0;
  uint32_t maxRegCount = 0;
  bool hasParamBank = false;
  uint32_t paramBankOffset = 0;
  uint32_t paramBankSize = 0;
  bool hasCbankParamSize = false;
  uint32_t cbankParamSize = 0;
  std::vector<KParam> params; ///< sorted by ordinal
  std::vector<uint32_t> exitOffsets;
  uint32_t numBarriers = 0;
  std::vector<uint32_t> maxThreads; ///< EIATTR_MAX_THREADS (x, y, z), if any
  /// EIATTR_CTA_PER_CLUSTER (x, y, z): the cluster .reqnctapercluster
  /// requires, if any.
  std::vector<uint32_t> clusterDims;
  bool explicitCluster = false; ///< EIATTR_EXPLICIT_CLUSTER
  uint64_t sharedSize = 0; ///< .nv.shared.<kernel>
  uint64_t localSize = 0;  ///< .nv.local.<kernel>, if present
  std::vector<NvInfoRecord> records; ///< .nv.info.<kernel>, as stored
  std::vector<LineRange> lines; ///< from .debug_line, if the cubin has one
};

struct Section {
  std::string name;
  uint32_t type = 0;
  uint64_t flags = 0;
  uint64_t offset = 0;
  uint64_t size = 0;
  uint32_t link = 0;
  uint32_t info = 0;
};

struct Symbol {
  std::string name;
  uint8_t info = 0;
  uint8_t other = 0;
  uint16_t section = 0;
  uint64_t value = 0;
  uint64_t size = 0;
  unsigned type() const { return info & 0xf; }
  unsigned binding() const { return info >> 4; }
};

/// A program header (what the driver loads).
struct Segment {
  uint32_t type = 0, flags = 0;
  uint64_t offset = 0, fileSize = 0, memSize = 0;
};
enum : uint32_t { kPtLoad = 1, kPtPhdr = 6, kPfExec = 1 };

struct Cubin {
  // ELF header.
  uint8_t osabi = 0, abiVersion = 0;
  uint16_t type = 0, machine = 0;
  uint32_t flags = 0;
  uint32_t version = 0;         ///< e_version (and e_ident[EI_VERSION])
  uint64_t entry = 0;           ///< e_entry
  uint16_t headerSize = 0;      ///< e_ehsize
  bool identPaddingZero = true; ///< e_ident[9..15]
  std::vector<Segment> segments; ///< program headers
  /// The SM number the header names (e_flags bits 8..15): 90 for sm_90.
  unsigned sm = 0;
  /// .nv.compat attribute 0x09: 1 for the architecture-specific targets
  /// (sm_90a, sm_120a), 0 otherwise; -1 when the record is absent.
  int archSpecific = -1;
  std::vector<Section> sections;
  std::vector<Symbol> symbols;
  std::vector<NvInfoRecord> globalInfo; ///< .nv.info
  std::vector<NvInfoRecord> compat;     ///< .nv.compat
  bool hasToolInfo = false;
  std::string toolName, toolVersion, toolBranch, toolOptions; ///< tkinfo
  std::vector<Kernel> kernels; ///< entry functions (STO_CUDA_ENTRY)

  /// "sm_90a", "sm_80", ... from the header and .nv.compat.
  std::string archName() const;
  const Section *findSection(const std::string &name) const;
  const Kernel *findKernel(const std::string &name) const;
};

/// Parses \p bytes. On failure returns false and sets \p error to a sentence
/// that says what is wrong and where.
bool parse(const std::vector<uint8_t> &bytes, Cubin &out, std::string &error);

/// The name cuobjdump prints for an attribute code ("EIATTR_REGCOUNT"), or
/// "EIATTR_0x.." for a code this reader does not name.
std::string attributeName(uint8_t attribute);

/// The ptxas options of a tkinfo note as (option, value) pairs, sorted, so
/// that two spellings of the same options compare equal.
std::vector<std::pair<std::string, std::string>>
splitOptions(const std::string &options);

} // namespace cubin
} // namespace rake

#endif // RAKE_VERIFIER_CUBIN_H
