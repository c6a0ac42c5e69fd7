//===- Cubin.cpp - Reading an NVIDIA cubin (ELF) --------------------------===//
//
// The layout read here was established from cubins that ptxas 13.0 writes,
// checked record by record against `cuobjdump -elf` on the GPU machine (the
// recorded outputs are in test/Verifier/Inputs/elf/). Plain C++: the runtime
// builds this file with g++ alone.
//
//===----------------------------------------------------------------------===//

#include "Rake/Verifier/Cubin.h"

#include <algorithm>
#include <cctype>
#include <cstring>

using namespace rake::cubin;

namespace {

constexpr uint32_t kSymtab = 2, kNobits = 8;
constexpr uint8_t kFuncType = 2;
constexpr uint8_t kEntryOther = 0x10; // STO_CUDA_ENTRY

// Attribute codes (EIATTR_*) this reader interprets.
enum : uint8_t {
  kMaxThreads = 0x05,
  kParamCbank = 0x0a,
  kFrameSize = 0x11,
  kMinStackSize = 0x12,
  kKParamInfo = 0x17,
  kCbankParamSize = 0x19,
  kMaxRegCount = 0x1b,
  kExitInstrOffsets = 0x1c,
  kCrsStackSize = 0x1e,
  kMaxStackSize = 0x23,
  kRegCount = 0x2f,
  kNumBarriers = 0x4c,
  kCtaPerCluster = 0x3d,
  kExplicitCluster = 0x3e,
};

struct Reader {
  const std::vector<uint8_t> &b;
  std::string &error;
  bool ok(uint64_t off, uint64_t len, const char *what) {
    if (off <= b.size() && len <= b.size() - off)
      return true;
    error = std::string("truncated cubin: ") + what + " at byte " +
            std::to_string(off) + " (+" + std::to_string(len) +
            ") lies past the end of the file (" + std::to_string(b.size()) +
            " bytes)";
    return false;
  }
  uint16_t u16(uint64_t o) const { return b[o] | (b[o + 1] << 8); }
  uint32_t u32(uint64_t o) const {
    return uint32_t(b[o]) | uint32_t(b[o + 1]) << 8 | uint32_t(b[o + 2]) << 16 |
           uint32_t(b[o + 3]) << 24;
  }
  uint64_t u64(uint64_t o) const {
    return uint64_t(u32(o)) | uint64_t(u32(o + 4)) << 32;
  }
  std::string cstr(uint64_t base, uint64_t size, uint64_t off) const {
    if (off >= size || base > b.size() || size > b.size() - base)
      return "";
    std::string s;
    for (uint64_t i = base + off; i < base + size && b[i]; ++i)
      s.push_back(char(b[i]));
    return s;
  }
};

bool parseRecords(Reader &r, const Section &s, std::vector<NvInfoRecord> &out,
                  std::string &error) {
  uint64_t p = 0;
  while (p < s.size) {
    if (s.size - p < 4) {
      error = "malformed " + s.name + ": a record at offset " +
              std::to_string(p) + " is cut short";
      return false;
    }
    NvInfoRecord rec;
    rec.offset = uint32_t(p);
    rec.format = r.b[s.offset + p];
    rec.attribute = r.b[s.offset + p + 1];
    if (rec.format == 0x04) { // EIFMT_SVAL: u16 size, then the value
      uint32_t len = r.u16(s.offset + p + 2);
      if (len > s.size - p - 4) {
        error = "malformed " + s.name + ": record " +
                attributeName(rec.attribute) + " at offset " +
                std::to_string(p) + " claims " + std::to_string(len) +
                " bytes, past the section's end";
        return false;
      }
      rec.value.assign(r.b.begin() + s.offset + p + 4,
                       r.b.begin() + s.offset + p + 4 + len);
      p += 4 + len;
    } else if (rec.format >= 0x01 && rec.format <= 0x03) {
      // EIFMT_NVAL, EIFMT_BVAL, EIFMT_HVAL: two value bytes.
      rec.value.assign(r.b.begin() + s.offset + p + 2,
                       r.b.begin() + s.offset + p + 4);
      p += 4;
    } else {
      error = "malformed " + s.name + ": unknown record format " +
              std::to_string(rec.format) + " at offset " + std::to_string(p);
      return false;
    }
    out.push_back(std::move(rec));
  }
  return true;
}

uint32_t le32(const std::vector<uint8_t> &v, size_t o) {
  return uint32_t(v[o]) | uint32_t(v[o + 1]) << 8 | uint32_t(v[o + 2]) << 16 |
         uint32_t(v[o + 3]) << 24;
}

} // namespace

std::string rake::cubin::attributeName(uint8_t a) {
  static const std::map<uint8_t, const char *> names = {
      {0x05, "EIATTR_MAX_THREADS"},
      {0x0a, "EIATTR_PARAM_CBANK"},
      {0x11, "EIATTR_FRAME_SIZE"},
      {0x12, "EIATTR_MIN_STACK_SIZE"},
      {0x17, "EIATTR_KPARAM_INFO"},
      {0x19, "EIATTR_CBANK_PARAM_SIZE"},
      {0x1b, "EIATTR_MAXREG_COUNT"},
      {0x1c, "EIATTR_EXIT_INSTR_OFFSETS"},
      {0x1e, "EIATTR_CRS_STACK_SIZE"},
      {0x23, "EIATTR_MAX_STACK_SIZE"},
      {0x28, "EIATTR_COOP_GROUP_INSTR_OFFSETS"},
      {0x29, "EIATTR_COOP_GROUP_MASK_REGIDS"},
      {0x2f, "EIATTR_REGCOUNT"},
      {0x35, "EIATTR_SW2861232_WAR"},
      {0x36, "EIATTR_SW_WAR"},
      {0x37, "EIATTR_CUDA_API_VERSION"},
      {0x3d, "EIATTR_CTA_PER_CLUSTER"},
      {0x3e, "EIATTR_EXPLICIT_CLUSTER"},
      {0x4a, "EIATTR_VRC_CTA_INIT_COUNT"},
      {0x4c, "EIATTR_NUM_BARRIERS"},
      {0x50, "EIATTR_SPARSE_MMA_MASK"},
      {0x55, "EIATTR_ANNOTATIONS"},
      {0x5f, "EIATTR_MERCURY_ISA_VERSION"},
  };
  auto it = names.find(a);
  if (it != names.end())
    return it->second;
  static const char *hex = "0123456789abcdef";
  return std::string("EIATTR_0x") + hex[a >> 4] + hex[a & 15];
}

std::string Cubin::archName() const {
  return "sm_" + std::to_string(sm) + (archSpecific == 1 ? "a" : "");
}

const Section *Cubin::findSection(const std::string &name) const {
  for (const Section &s : sections)
    if (s.name == name)
      return &s;
  return nullptr;
}

const Kernel *Cubin::findKernel(const std::string &name) const {
  for (const Kernel &k : kernels)
    if (k.name == name)
      return &k;
  return nullptr;
}

std::vector<std::pair<std::string, std::string>>
rake::cubin::splitOptions(const std::string &options) {
  std::vector<std::string> words;
  std::string w;
  for (char c : options + " ") {
    if (c == ' ' || c == '\t') {
      if (!w.empty())
        words.push_back(w);
      w.clear();
    } else {
      w.push_back(c);
    }
  }
  std::vector<std::pair<std::string, std::string>> out;
  for (size_t i = 0; i < words.size(); ++i) {
    std::string opt = words[i], val;
    // "-O3" and "-O 3" are one option.
    if (opt.size() > 2 && opt[0] == '-' && opt[1] == 'O' &&
        std::isdigit((unsigned char)opt[2])) {
      out.emplace_back("-O", opt.substr(2));
      continue;
    }
    size_t eq = opt.find('=');
    if (eq != std::string::npos) {
      val = opt.substr(eq + 1);
      opt = opt.substr(0, eq);
    } else if (i + 1 < words.size() && words[i + 1][0] != '-') {
      val = words[++i];
    }
    out.emplace_back(opt, val);
  }
  std::sort(out.begin(), out.end());
  return out;
}

namespace {

/// Reads the ELF header (the first 64 bytes): the magic, the class and data
/// encoding, the machine (EM_CUDA), and the header fields the Cubin keeps.
bool readElfHeader(Reader &r, Cubin &c) {
  const std::vector<uint8_t> &bytes = r.b;
  std::string &error = r.error;
  if (!r.ok(0, 64, "the ELF header"))
    return false;
  if (std::memcmp(bytes.data(), "\x7f"
                                "ELF",
                  4) != 0) {
    error = "not an ELF file (the first four bytes are not 7f 45 4c 46)";
    return false;
  }
  if (bytes[4] != 2 || bytes[5] != 1) {
    error = "not a 64-bit little-endian ELF file (class " +
            std::to_string(bytes[4]) + ", data " + std::to_string(bytes[5]) +
            ")";
    return false;
  }
  c.osabi = bytes[7];
  c.abiVersion = bytes[8];
  c.type = r.u16(16);
  c.machine = r.u16(18);
  if (c.machine != 190) {
    error = "not an NVIDIA cubin: ELF machine " + std::to_string(c.machine) +
            " (EM_CUDA is 190)";
    return false;
  }
  c.flags = r.u32(48);
  c.sm = (c.flags >> 8) & 0xff;
  c.version = bytes[6] == 1 ? r.u32(20) : 0;
  c.entry = r.u64(24);
  c.headerSize = r.u16(52);
  for (int i = 9; i < 16; ++i)
    c.identPaddingZero &= bytes[i] == 0;
  return true;
}

/// Reads the program header table (e_phoff, e_phentsize, e_phnum) into
/// c.segments, checking that each segment's contents lie in the file.
bool readProgramHeaders(Reader &r, Cubin &c) {
  uint64_t phoff = r.u64(32);
  uint16_t phentsize = r.u16(54), phnum = r.u16(56);
  if (phnum && phentsize != 56) {
    r.error = "unexpected ELF program header size " + std::to_string(phentsize);
    return false;
  }
  if (!r.ok(phoff, uint64_t(phnum) * 56, "the program header table"))
    return false;
  for (unsigned i = 0; i < phnum; ++i) {
    uint64_t h = phoff + uint64_t(i) * 56;
    Segment g;
    g.type = r.u32(h);
    g.flags = r.u32(h + 4);
    g.offset = r.u64(h + 8);
    g.fileSize = r.u64(h + 32);
    g.memSize = r.u64(h + 40);
    if (!r.ok(g.offset, g.fileSize, "a segment's contents"))
      return false;
    c.segments.push_back(g);
  }
  return true;
}

/// Reads the section header table (e_shoff, e_shentsize, e_shnum,
/// e_shstrndx) into c.sections, then names each section from the section
/// name table.
bool readSectionHeaders(Reader &r, Cubin &c) {
  std::string &error = r.error;
  uint64_t shoff = r.u64(40);
  uint16_t shentsize = r.u16(58), shnum = r.u16(60), shstrndx = r.u16(62);
  if (shentsize != 64) {
    error = "unexpected ELF section header size " + std::to_string(shentsize);
    return false;
  }
  if (!r.ok(shoff, uint64_t(shnum) * 64, "the section header table"))
    return false;
  if (shstrndx >= shnum) {
    error = "the section name table index " + std::to_string(shstrndx) +
            " is out of range";
    return false;
  }
  std::vector<uint32_t> nameOffsets;
  for (unsigned i = 0; i < shnum; ++i) {
    uint64_t h = shoff + uint64_t(i) * 64;
    Section s;
    nameOffsets.push_back(r.u32(h));
    s.type = r.u32(h + 4);
    s.flags = r.u64(h + 8);
    s.offset = r.u64(h + 24);
    s.size = r.u64(h + 32);
    s.link = r.u32(h + 40);
    s.info = r.u32(h + 44);
    if (s.type != kNobits && !r.ok(s.offset, s.size, "a section's contents"))
      return false;
    c.sections.push_back(s);
  }
  const Section &strs = c.sections[shstrndx];
  if (strs.type == kNobits) {
    error = "the section-name string table is SHT_NOBITS: it has no "
            "contents in the file";
    return false;
  }
  for (unsigned i = 0; i < shnum; ++i)
    c.sections[i].name = r.cstr(strs.offset, strs.size, nameOffsets[i]);
  // A SHT_NOBITS section has no contents in the file (its offset and size
  // are not checked against it): only memory that starts without contents
  // may be one, so that every section whose bytes are read lies in the file.
  for (const Section &s : c.sections) {
    auto startsWith = [&](const char *p) { return s.name.rfind(p, 0) == 0; };
    if (s.type == kNobits && !startsWith(".nv.shared.") &&
        !startsWith(".nv.local.") && s.name != ".nv.global" &&
        !startsWith(".bss")) {
      error = "section '" + s.name + "' is SHT_NOBITS (no contents in the "
              "file); only shared, local and uninitialized global memory may "
              "be";
      return false;
    }
  }
  return true;
}

/// Reads every symbol table (SHT_SYMTAB) section into c.symbols, naming each
/// symbol from the string table the section links to.
bool readSymbols(Reader &r, Cubin &c) {
  for (const Section &s : c.sections) {
    if (s.type != kSymtab)
      continue;
    if (s.link >= c.sections.size()) {
      r.error = "the symbol table's string table index is out of range";
      return false;
    }
    const Section &names = c.sections[s.link];
    for (uint64_t o = 0; o + 24 <= s.size; o += 24) {
      uint64_t e = s.offset + o;
      Symbol sym;
      sym.name = r.cstr(names.offset, names.size, r.u32(e));
      sym.info = r.b[e + 4];
      sym.other = r.b[e + 5];
      sym.section = r.u16(e + 6);
      sym.value = r.u64(e + 8);
      sym.size = r.u64(e + 16);
      c.symbols.push_back(sym);
    }
  }
  return true;
}

/// Reads the kernels from c.symbols: entry functions (STO_CUDA_ENTRY), each
/// in its own .text.<name> section, with the function symbols of that
/// section and the sizes of .nv.shared.<name> and .nv.local.<name>.
bool readKernels(Reader &r, Cubin &c) {
  for (const Symbol &sym : c.symbols) {
    if (sym.type() != kFuncType || !(sym.other & kEntryOther))
      continue;
    if (sym.section >= c.sections.size()) {
      r.error = "kernel " + sym.name + " names section " +
                std::to_string(sym.section) + ", which does not exist";
      return false;
    }
    Kernel k;
    k.name = sym.name;
    k.textSection = sym.section;
    const Section &text = c.sections[sym.section];
    k.textOffset = text.offset;
    k.textSize = text.size;
    for (const Symbol &f : c.symbols)
      if (f.type() == kFuncType && f.section == sym.section)
        k.functions.push_back({f.name, f.value, f.size});
    std::sort(k.functions.begin(), k.functions.end(),
              [](const Subroutine &a, const Subroutine &b) {
                return a.offset < b.offset;
              });
    if (const Section *sh = c.findSection(".nv.shared." + k.name))
      k.sharedSize = sh->size;
    if (const Section *lo = c.findSection(".nv.local." + k.name))
      k.localSize = lo->size;
    c.kernels.push_back(std::move(k));
  }
  return true;
}

/// Reads .nv.info into c.globalInfo and applies its per-function resources
/// (register count, frame and stack sizes), keyed by symbol index, to the
/// kernels.
bool readGlobalInfo(Reader &r, Cubin &c) {
  if (const Section *s = c.findSection(".nv.info"))
    if (!parseRecords(r, *s, c.globalInfo, r.error))
      return false;
  for (const NvInfoRecord &rec : c.globalInfo) {
    if (rec.format != 0x04 || rec.value.size() != 8)
      continue;
    uint32_t symIndex = le32(rec.value, 0), value = le32(rec.value, 4);
    if (symIndex >= c.symbols.size())
      continue;
    for (Kernel &k : c.kernels) {
      if (c.symbols[symIndex].name != k.name)
        continue;
      switch (rec.attribute) {
      case kRegCount:
        k.hasRegCount = true;
        k.regCount = value;
        break;
      case kFrameSize:
        k.hasFrameSize = true;
        k.frameSize = value;
        break;
      case kMinStackSize:
        k.minStackSize = value;
        break;
      case kMaxStackSize:
        k.maxStackSize = value;
        break;
      case kCrsStackSize:
        k.crsStackSize = value;
        break;
      default:
        break;
      }
    }
  }
  return true;
}

/// Reads one record of .nv.info.<kernel> into the fields of \p k it
/// describes (parameters, parameter bank, limits, exits, cluster).
/// The bytes a record's value must have for the fields read from it (0:
/// any number, read in whole words).
size_t recordBytesNeeded(uint8_t attribute) {
  switch (attribute) {
  case kKParamInfo:
    return 12;
  case kParamCbank:
    return 8;
  case kCbankParamSize:
  case kMaxRegCount:
    return 2;
  case kNumBarriers:
    return 1;
  default:
    return 0;
  }
}

bool applyKernelRecord(const NvInfoRecord &rec, Kernel &k,
                       const std::string &section, std::string &error) {
  const std::vector<uint8_t> &v = rec.value;
  if (size_t need = recordBytesNeeded(rec.attribute); v.size() < need) {
    error = "malformed " + section + ": record " +
            attributeName(rec.attribute) + " at offset " +
            std::to_string(rec.offset) + " has " + std::to_string(v.size()) +
            " bytes of value, fewer than the " + std::to_string(need) +
            " it needs";
    return false;
  }
  switch (rec.attribute) {
  case kKParamInfo: {
    KParam p;
    p.ordinal = v[4] | (v[5] << 8);
    p.offset = v[6] | (v[7] << 8);
    uint32_t w = le32(v, 8);
    p.logAlign = w & 0xff;
    p.space = (w >> 8) & 0xf;
    p.cbank = (w >> 12) & 0x1f;
    p.size = (w >> 18) & 0x3fff;
    k.params.push_back(p);
    break;
  }
  case kParamCbank:
    k.hasParamBank = true;
    k.paramBankOffset = v[4] | (v[5] << 8);
    k.paramBankSize = v[6] | (v[7] << 8);
    break;
  case kCbankParamSize:
    k.hasCbankParamSize = true;
    k.cbankParamSize = v[0] | (v[1] << 8);
    break;
  case kMaxRegCount:
    k.maxRegCount = v[0] | (v[1] << 8);
    break;
  case kExitInstrOffsets:
    for (size_t o = 0; o + 4 <= v.size(); o += 4)
      k.exitOffsets.push_back(le32(v, o));
    break;
  case kNumBarriers:
    k.numBarriers = v[0];
    break;
  case kMaxThreads:
    for (size_t o = 0; o + 4 <= v.size(); o += 4)
      k.maxThreads.push_back(le32(v, o));
    break;
  case kCtaPerCluster:
    for (size_t o = 0; o + 4 <= v.size(); o += 4)
      k.clusterDims.push_back(le32(v, o));
    break;
  case kExplicitCluster:
    k.explicitCluster = true;
    break;
  default:
    break;
  }
  return true;
}

/// Reads each kernel's .nv.info.<kernel> section into its records and the
/// fields they describe; the parameters end sorted by ordinal.
bool readKernelInfo(Reader &r, Cubin &c) {
  for (Kernel &k : c.kernels) {
    const Section *s = c.findSection(".nv.info." + k.name);
    if (!s)
      continue;
    if (!parseRecords(r, *s, k.records, r.error))
      return false;
    for (const NvInfoRecord &rec : k.records)
      if (!applyKernelRecord(rec, k, s->name, r.error))
        return false;
    std::sort(k.params.begin(), k.params.end(),
              [](const KParam &a, const KParam &b) {
                return a.ordinal < b.ordinal;
              });
  }
  return true;
}

/// Reads .nv.compat into c.compat; attribute 0x09 marks the
/// architecture-specific targets (c.archSpecific).
bool readCompat(Reader &r, Cubin &c) {
  if (const Section *s = c.findSection(".nv.compat")) {
    if (!parseRecords(r, *s, c.compat, r.error))
      return false;
    for (const NvInfoRecord &rec : c.compat)
      if (rec.attribute == 0x09 && rec.format == 0x02) // two value bytes
        c.archSpecific = rec.value[0];
  }
  return true;
}

/// Reads the ptxas note .note.nv.tkinfo, if any: the producing tool, its
/// version, its branch and its options.
void readToolInfo(Reader &r, Cubin &c) {
  if (const Section *s = c.findSection(".note.nv.tkinfo")) {
    if (s->size >= 12) {
      uint32_t namesz = r.u32(s->offset), descsz = r.u32(s->offset + 4);
      uint64_t desc = s->offset + 12 + ((namesz + 3) & ~3u);
      if (desc + descsz <= s->offset + s->size && descsz >= 24) {
        uint64_t strings = desc + 24, stringsSize = descsz - 24;
        c.hasToolInfo = true;
        c.toolName = r.cstr(strings, stringsSize, r.u32(desc + 8));
        c.toolVersion = r.cstr(strings, stringsSize, r.u32(desc + 12));
        c.toolBranch = r.cstr(strings, stringsSize, r.u32(desc + 16));
        c.toolOptions = r.cstr(strings, stringsSize, r.u32(desc + 20));
      }
    }
  }
}

} // namespace

namespace {

/// A reader of .debug_line (DWARF 2 to 4 line programs, as ptxas writes
/// them from the PTX's .loc directives) into the kernels' line ranges. Each
/// sequence starts with DW_LNE_set_address, which .rela.debug_line
/// relocates against a symbol of the kernel's text section; without a
/// relocation the sequence belongs to the only kernel, or the cubin is
/// refused.
class LineTableReader {
public:
  LineTableReader(Reader &r, Cubin &c) : r(r), c(c) {}

  bool read() {
    int lineIndex = -1;
    for (size_t i = 0; i < c.sections.size(); ++i)
      if (c.sections[i].name == ".debug_line")
        lineIndex = int(i);
    if (lineIndex < 0)
      return true;
    const Section &sec = c.sections[lineIndex];
    if (!r.ok(sec.offset, sec.size, ".debug_line") ||
        !readRelocations(lineIndex))
      return false;
    base = p = sec.offset;
    end = sec.offset + sec.size;
    while (p < end)
      if (!readUnit())
        return false;
    for (Kernel &k : c.kernels)
      std::sort(k.lines.begin(), k.lines.end(),
                [](const LineRange &a, const LineRange &b) {
                  return a.begin < b.begin;
                });
    return true;
  }

private:
  /// A unit's header: what its line program needs.
  struct Header {
    uint8_t minInst = 1;
    int8_t lineBase = 0;
    uint8_t lineRange = 1;
    uint8_t opcodeBase = 1;
    std::vector<uint8_t> opLengths;
    std::vector<std::string> files{""};
  };
  /// The line program's state machine.
  struct State {
    uint64_t address = 0;
    uint64_t file = 1;
    int64_t line = 1;
    Kernel *kernel = nullptr;
    bool haveRow = false;
    LineRange row;
  };

  bool bad(const std::string &why) {
    r.error = "the cubin's line table (.debug_line) is malformed: " + why;
    return false;
  }

  /// Relocations of .debug_line: offset in the section -> (symbol, addend).
  bool readRelocations(int lineIndex) {
    for (const Section &s : c.sections) {
      if (s.type != 4 /*SHT_RELA*/ || s.info != uint32_t(lineIndex))
        continue;
      if (!r.ok(s.offset, s.size, ".rela.debug_line"))
        return false;
      for (uint64_t o = 0; o + 24 <= s.size; o += 24)
        relocs[r.u64(s.offset + o)] = {uint32_t(r.u64(s.offset + o + 8) >> 32),
                                       int64_t(r.u64(s.offset + o + 16))};
    }
    return true;
  }

  bool uleb(uint64_t &v) {
    v = 0;
    for (unsigned shift = 0; p < end && shift < 64; shift += 7) {
      uint8_t byte = r.b[p++];
      v |= uint64_t(byte & 0x7f) << shift;
      if (!(byte & 0x80))
        return true;
    }
    return false;
  }

  bool sleb(int64_t &v) {
    uint64_t u = 0;
    unsigned shift = 0;
    uint8_t byte = 0x80;
    while (p < end && (byte & 0x80) && shift < 64) {
      byte = r.b[p++];
      u |= uint64_t(byte & 0x7f) << shift;
      shift += 7;
    }
    if (byte & 0x80)
      return false;
    if (shift < 64 && (byte & 0x40))
      u |= ~uint64_t(0) << shift;
    v = int64_t(u);
    return true;
  }

  bool cstring(std::string &s) {
    s.clear();
    while (p < end && r.b[p])
      s.push_back(char(r.b[p++]));
    if (p >= end)
      return false;
    ++p;
    return true;
  }

  /// One unit: its header, then its line program, read within its length.
  bool readUnit() {
    if (end - p < 4)
      return bad("a unit header is cut short");
    uint64_t unitLength = r.u32(p);
    if (unitLength == 0xffffffff)
      return bad("64-bit DWARF is not supported");
    p += 4;
    if (unitLength > end - p)
      return bad("a unit runs past the section");
    uint64_t unitEnd = p + unitLength;
    uint64_t savedEnd = end;
    end = unitEnd;
    Header h;
    uint64_t programStart = 0;
    if (!readHeader(h, programStart))
      return false;
    p = programStart;
    if (!runProgram(h))
      return false;
    end = savedEnd;
    p = unitEnd;
    return true;
  }

  bool readHeader(Header &h, uint64_t &programStart) {
    if (end - p < 2 + 4 + 4)
      return bad("a unit header is cut short");
    uint16_t version = r.u16(p);
    p += 2;
    if (version < 2 || version > 4)
      return bad("DWARF version " + std::to_string(version) +
                 " (versions 2 to 4 are read)");
    uint64_t headerLength = r.u32(p);
    p += 4;
    if (headerLength > end - p)
      return bad("a unit header runs past its unit");
    programStart = p + headerLength;
    h.minInst = r.b[p++];
    if (version >= 4)
      ++p; // maximum_operations_per_instruction
    if (p + 4 > end)
      return bad("a unit header is cut short");
    ++p; // default_is_stmt
    h.lineBase = int8_t(r.b[p++]);
    h.lineRange = r.b[p++];
    h.opcodeBase = r.b[p++];
    if (h.lineRange == 0 || h.opcodeBase == 0)
      return bad("a zero line_range or opcode_base");
    h.opLengths.assign(h.opcodeBase, 0);
    for (unsigned i = 1; i < h.opcodeBase; ++i) {
      if (p >= end)
        return bad("the standard opcode lengths are cut short");
      h.opLengths[i] = r.b[p++];
    }
    std::string s;
    while (true) { // include_directories
      if (!cstring(s))
        return bad("the include directories are cut short");
      if (s.empty())
        break;
    }
    while (true) { // file_names
      if (!cstring(s))
        return bad("the file names are cut short");
      if (s.empty())
        break;
      uint64_t dir, mtime, length;
      if (!uleb(dir) || !uleb(mtime) || !uleb(length))
        return bad("a file entry is cut short");
      h.files.push_back(s);
    }
    return true;
  }

  /// Ends the pending row at the current address (kept if it covers
  /// something of a kernel) and starts the next, unless the sequence ends.
  static void emit(const Header &h, State &st, bool endSequence) {
    if (st.haveRow && st.kernel && st.address >= st.row.begin) {
      st.row.end = st.address;
      if (st.row.end > st.row.begin)
        st.kernel->lines.push_back(st.row);
    }
    st.haveRow = !endSequence;
    st.row.begin = st.address;
    st.row.file = st.file < h.files.size() ? h.files[st.file] : "";
    st.row.line = uint32_t(st.line < 0 ? 0 : st.line);
  }

  bool runProgram(const Header &h) {
    State st;
    while (p < end) {
      uint8_t op = r.b[p++];
      if (op >= h.opcodeBase) { // a special opcode
        unsigned adj = op - h.opcodeBase;
        st.address += uint64_t(adj / h.lineRange) * h.minInst;
        st.line += h.lineBase + int(adj % h.lineRange);
        emit(h, st, false);
        continue;
      }
      if (!(op == 0 ? runExtended(h, st) : runStandard(h, st, op)))
        return false;
    }
    return true;
  }

  bool runExtended(const Header &h, State &st) {
    uint64_t len;
    if (!uleb(len) || len == 0 || len > end - p)
      return bad("an extended opcode is cut short");
    uint64_t next = p + len;
    uint8_t sub = r.b[p++];
    if (sub == 1) { // DW_LNE_end_sequence
      emit(h, st, true);
      st.address = 0;
      st.file = 1;
      st.line = 1;
      st.kernel = nullptr;
    } else if (sub == 2) { // DW_LNE_set_address
      if (!setAddress(st, len - 1))
        return false;
    }
    p = next;
    return true;
  }

  /// DW_LNE_set_address: the kernel and address of the sequence, through
  /// the operand's relocation.
  bool setAddress(State &st, uint64_t size) {
    uint64_t at = p - base;
    uint64_t raw = size == 8 ? r.u64(p) : size == 4 ? r.u32(p) : 0;
    auto it = relocs.find(at);
    st.kernel = nullptr;
    if (it != relocs.end()) {
      uint32_t symIndex = it->second.first;
      if (symIndex >= c.symbols.size())
        return bad("a relocation names symbol " + std::to_string(symIndex) +
                   ", which does not exist");
      const Symbol &sym = c.symbols[symIndex];
      for (Kernel &k : c.kernels)
        if (int(sym.section) == k.textSection)
          st.kernel = &k;
      st.address = sym.value + uint64_t(it->second.second) + raw;
    } else if (c.kernels.size() == 1) {
      st.kernel = &c.kernels.front();
      st.address = raw;
    } else {
      return bad("a sequence's start address has no relocation, and the "
                 "cubin has several kernels");
    }
    if (!st.kernel)
      return bad("a sequence starts in a section that is no kernel's text");
    return true;
  }

  bool runStandard(const Header &h, State &st, uint8_t op) {
    uint64_t u = 0;
    int64_t sv = 0;
    switch (op) {
    case 1: // DW_LNS_copy
      emit(h, st, false);
      return true;
    case 2: // DW_LNS_advance_pc
      if (!uleb(u))
        return bad("an operand is cut short");
      st.address += u * h.minInst;
      return true;
    case 3: // DW_LNS_advance_line
      if (!sleb(sv))
        return bad("an operand is cut short");
      // Saturated: a line far outside 32 bits is no line of ours, and an
      // untrusted advance must not overflow.
      if (__builtin_add_overflow(st.line, sv, &st.line) ||
          st.line > INT32_MAX || st.line < INT32_MIN)
        st.line = INT32_MIN;
      return true;
    case 4: // DW_LNS_set_file
      if (!uleb(u))
        return bad("an operand is cut short");
      st.file = u;
      return true;
    case 8: // DW_LNS_const_add_pc
      st.address += uint64_t((255 - h.opcodeBase) / h.lineRange) * h.minInst;
      return true;
    case 9: // DW_LNS_fixed_advance_pc
      if (end - p < 2)
        return bad("an operand is cut short");
      st.address += r.u16(p);
      p += 2;
      return true;
    default: // operands to skip (set_column, negate_stmt, ...)
      for (unsigned i = 0; i < h.opLengths[op]; ++i)
        if (!uleb(u))
          return bad("an operand is cut short");
      return true;
    }
  }

  Reader &r;
  Cubin &c;
  std::map<uint64_t, std::pair<uint32_t, int64_t>> relocs;
  uint64_t base = 0, end = 0, p = 0;
};

} // namespace

static bool readLineTable(Reader &r, Cubin &c) {
  return LineTableReader(r, c).read();
}

bool rake::cubin::parse(const std::vector<uint8_t> &bytes, Cubin &c,
                        std::string &error) {
  Reader r{bytes, error};
  if (!readElfHeader(r, c) || !readProgramHeaders(r, c) ||
      !readSectionHeaders(r, c) || !readSymbols(r, c))
    return false;
  // Kernels: entry functions, each in its own .text.<name> section.
  if (!readKernels(r, c))
    return false;
  // .nv.info: per-function resources, keyed by symbol index; then
  // .nv.info.<kernel>.
  if (!readGlobalInfo(r, c) || !readKernelInfo(r, c))
    return false;
  // .nv.compat: attribute 0x09 marks the architecture-specific targets.
  if (!readCompat(r, c))
    return false;
  // .note.nv.tkinfo: the producing tool, its version and its options.
  readToolInfo(r, c);
  // .debug_line: which machine code comes from which source line.
  return readLineTable(r, c);
}
