//===- Profile.cpp - The GPU profiles -------------------------------------===//
//
// The profiles as tables. Each instruction class lists the base opcodes
// (the mnemonic before the first '.') that nvdisasm prints for the code the
// profile admits; an opcode in no class is unknown to the profile and the
// verifier refuses it. Atomics, textures, surfaces, sleeps, traps and
// indirect branches are in no class (the seed's initial exclusions).
//
//===----------------------------------------------------------------------===//

#include "Rake/Profile/Profile.h"

#include <algorithm>
#include <sstream>

using namespace rake::profile;

namespace {

std::vector<InstructionClass> commonClasses() {
  return {
      {"integer",
       {"IADD", "IADD3", "IADD32I", "IMAD", "IMUL", "IMNMX", "VIMNMX", "IABS",
        "ISETP", "LEA", "LOP", "LOP3", "SHF", "SHL", "SHR", "SEL", "VIADD",
        "VIADDMNMX", "POPC", "FLO", "BREV", "PRMT", "BMSK", "SGXT", "IDP",
        "IDE", "BFE", "BFI", "ICMP"}},
      {"float32",
       {"FADD", "FADD32I", "FMUL", "FMUL32I", "FFMA", "FFMA32I", "FSETP",
        "FSEL", "FMNMX", "FCHK", "FSET", "MUFU", "FSWZADD", "FRND"}},
      {"half", {"HADD2", "HMUL2", "HFMA2", "HSETP2", "HMNMX2"}},
      {"float64", {"DADD", "DMUL", "DFMA", "DSETP", "DMNMX"}},
      {"conversion", {"I2F", "F2I", "F2F", "I2FP", "F2FP", "I2I", "F2IP"}},
      {"move-and-predicate",
       {"MOV", "MOV32I", "PLOP3", "P2R", "R2P", "CS2R", "S2R", "S2UR", "R2UR",
        "NOP", "PSETP", "PRMT"}},
      {"warp-collective",
       {"SHFL", "VOTE", "VOTEU", "MATCH", "REDUX", "ELECT"}},
      {"uniform",
       {"UIADD3", "UIMAD", "UMOV", "ULDC", "LDCU", "ULEA", "USEL", "USHF",
        "UISETP", "UIMNMX", "ULOP3", "UPLOP3", "UI2F", "UPRMT", "UFLO",
        "UPOPC", "UBMSK", "USGXT", "UBREV", "UIABS", "UVIADD", "UP2UR",
        "UR2UP", "USETMAXREG", "UCGABAR_ARV", "UCGABAR_WAIT", "ULOP",
        "ULOP32I", "USHL", "USHR", "UF2FP", "UFADD", "UFMUL", "UFFMA",
        "UFSETP", "UFSEL", "UFMNMX", "UF2I", "UI2FP", "UIADD3.64"}},
      {"memory",
       {"LDG", "STG", "LDS", "STS", "LDC", "LD", "ST", "LDSM", "STSM",
        "LDGSTS", "LDGDEPBAR", "DEPBAR", "MEMBAR", "FENCE", "ERRBAR", "CCTL",
        // cp.async.mbarrier.arrive; the error barrier of barrier.cluster.
        "ARRIVES", "CGAERRBAR",
        "LDL", "STL"}},
      {"control",
       {"BRA", "EXIT", "RET", "CALL", "BSSY", "BSYNC", "BMOV", "WARPSYNC",
        "BAR", "YIELD", "BREAK", "WARPGROUP", "ACQBULK", "ACQSHMINIT",
        // A collective region around a barrier in divergent code (a warp
        // group's own path), the back-off of an mbarrier wait loop (only
        // that form: a program's own nanosleep stays unknown), and the trap
        // of a kernel given more tasks than it can number.
        "ENDCOLLECTIVE", "NANOSLEEP.SYNCS", "BPT"}},
      {"tensor-core",
       {"HMMA", "IMMA", "HGMMA", "IGMMA", "QGMMA", "QMMA", "OMMA", "BMMA",
        "DMMA", "UTCHMMA", "UTCQMMA", "UTCOMMA", "UTCIMMA"}},
      {"async-copy",
       {"UTMALDG", "UTMASTG", "UTMAPF", "UTMACCTL", "UTMACMDFLUSH", "UBLKCP",
        "UBLKPF", "UBLKRED", "SYNCS", "UCGABAR"}},
  };
}

std::vector<std::string> arithmeticSubroutines() {
  return {"__cuda_sm20_div_u64",      "__cuda_sm20_rem_u64",
          "__cuda_sm20_div_s64",      "__cuda_sm20_rem_s64",
          "__cuda_sm20_div_u32",      "__cuda_sm20_rem_u32",
          "__cuda_sm20_sqrt_rn_f32_slowpath",
          "__cuda_sm20_rcp_rn_f32_slowpath",
          "__cuda_sm3x_div_rn_noftz_f32_slowpath"};
}

// ptxas 13.0.88 as installed on the build machine (Debian, cuda-nvcc 13.0)
// and on the GPU machine (H200, CUDA 13.0): the same bytes. Recorded with
// `sha256sum /usr/local/cuda/bin/ptxas` on each (see docs/Artifacts.md).
std::vector<ToolPin> cuda13Pins() {
  return {
      {"ptxas", "V13.0.88",
       "daba837a68265cae38c832d13399b61dab811891de9b8914defddef143b849f2",
       "CUDA 13.0 (cuda_13.0.r13.0/compiler.36424714_0): build machine and "
       "H200 GPU machine"},
      {"nvdisasm", "V13.0.85",
       "3c27bded09bd877807207b62db8186a0a9a359d10311ab6e2c885f9b418c9f41",
       "CUDA 13.0 (cuda_13.0.r13.0/compiler.36400806_0): H200 GPU machine"},
  };
}

std::vector<std::string> flagsFor(const std::string &target) {
  return {"-arch", target, "-m", "64", "-O3", "-fmad", "false",
          "-warn-spills", "-warn-lmem-usage"};
}

Profile make(const std::string &name, const std::string &description,
             bool executable, const std::string &target, unsigned sm,
             const std::string &ptx, unsigned maxSharedBytesPerCta,
             unsigned maxSharedBytesPerSm, unsigned maxThreadsPerSm,
             ResourcePolicy resources) {
  Profile p;
  p.name = name;
  p.description = description;
  p.executable = executable;
  p.target = target;
  p.sm = sm;
  p.archSpecific = true;
  p.ptxVersion = ptx;
  p.ptxasFlags = flagsFor(target);
  p.pins = cuda13Pins();
  p.classes = commonClasses();
  p.arithmeticSubroutines = arithmeticSubroutines();
  p.resources = resources;
  p.maxSharedBytesPerCta = maxSharedBytesPerCta;
  p.maxSharedBytesPerSm = maxSharedBytesPerSm;
  p.maxThreadsPerSm = maxThreadsPerSm;
  return p;
}

std::string quote(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string list(const std::vector<std::string> &v) {
  std::string out = "[";
  for (size_t i = 0; i < v.size(); ++i)
    out += (i ? ", " : "") + quote(v[i]);
  return out + "]";
}

} // namespace

// The opt-in shared memory per CTA (cudaDevAttrMaxSharedMemoryPerBlockOptin):
// 227 KiB on sm_90 (H100/H200), 99 KiB on sm_120.
constexpr unsigned kSm90SharedPerCta = 227 * 1024;
constexpr unsigned kSm120SharedPerCta = 99 * 1024;
// Shared memory per SM (cudaDevAttrMaxSharedMemoryPerMultiprocessor) and
// resident threads per SM: 228 KiB and 2048 on sm_90, 100 KiB and 1536 on
// sm_120 (CUDA C Programming Guide, "Compute capabilities").
constexpr unsigned kSm90SharedPerSm = 228 * 1024;
constexpr unsigned kSm120SharedPerSm = 100 * 1024;

const std::vector<Profile> &rake::profile::allProfiles() {
  static const std::vector<Profile> profiles = {
      make("nvidia-ptx-sm90a",
           "Hopper (H100/H200), architecture-specific sm_90a; strict "
           "resources; the executable profile",
           true, "sm_90a", 90, "8.0", kSm90SharedPerCta, kSm90SharedPerSm, 2048, ResourcePolicy::Strict),
      make("nvidia-ptx-sm90a-relaxed",
           "nvidia-ptx-sm90a with relaxed resources: spills, local memory "
           "and a stack frame are reported, not refused",
           true, "sm_90a", 90, "8.0", kSm90SharedPerCta, kSm90SharedPerSm, 2048, ResourcePolicy::Relaxed),
      make("nvidia-ptx-sm120a",
           "Blackwell consumer sm_120a (PTX 8.7, block-scaled mma); strict "
           "resources; compiled and verified, not run",
           false, "sm_120a", 120, "8.7", kSm120SharedPerCta,
           kSm120SharedPerSm, 1536, ResourcePolicy::Strict),
      make("nvidia-ptx-sm120a-relaxed",
           "nvidia-ptx-sm120a with relaxed resources; compiled and verified, "
           "not run",
           false, "sm_120a", 120, "8.7", kSm120SharedPerCta,
           kSm120SharedPerSm, 1536, ResourcePolicy::Relaxed),
  };
  return profiles;
}

const Profile *rake::profile::findProfile(const std::string &name) {
  for (const Profile &p : allProfiles())
    if (p.name == name)
      return &p;
  return nullptr;
}

std::string rake::profile::baseOpcode(const std::string &opcode) {
  return opcode.substr(0, opcode.find('.'));
}

std::string Profile::classOf(const std::string &opcode) const {
  std::string base = baseOpcode(opcode);
  // An entry names an opcode (any modifiers), or an opcode with its first
  // modifier when only that form is allowed (NANOSLEEP.SYNCS).
  std::string first = opcode.substr(0, opcode.find('.', base.size() + 1));
  for (const InstructionClass &c : classes)
    for (const std::string &o : c.opcodes)
      if (o == base || (o.find('.') != std::string::npos && o == first))
        return c.name;
  return "";
}

const std::vector<RuleSwitch> &rake::profile::ruleSwitches() {
  static const std::vector<RuleSwitch> table = {
      {"fp-ftz", "floating_point.no_ftz",
       [](const Profile &p) { return p.forbidFtz; }},
      {"fp-approx", "floating_point.no_approx",
       [](const Profile &p) { return p.forbidApprox; }},
      {"fp-rounding", "floating_point.round_to_nearest_even",
       [](const Profile &p) { return p.roundToNearest; }},
      {"fp-contraction", "floating_point.no_implicit_contraction",
       [](const Profile &p) { return p.forbidContraction; }},
      {"call", "calls", [](const Profile &p) { return p.forbidCalls; }},
      {"local-memory", "resources",
       [](const Profile &p) { return p.strictResources(); }},
      {"stack-frame", "resources",
       [](const Profile &p) { return p.strictResources(); }},
      {"resources", "resources",
       [](const Profile &p) { return p.strictResources(); }},
  };
  return table;
}

bool Profile::enforces(const std::string &rule) const {
  for (const RuleSwitch &r : ruleSwitches())
    if (rule == r.rule)
      return r.enforced(*this);
  return true;
}

bool Profile::isTensorCore(const std::string &opcode) const {
  return classOf(opcode) == "tensor-core";
}

std::string Profile::toJson() const {
  std::ostringstream os;
  os << "{\n  \"name\": " << quote(name)
     << ",\n  \"description\": " << quote(description)
     << ",\n  \"executable\": " << (executable ? "true" : "false")
     << ",\n  \"target\": " << quote(target) << ",\n  \"ptx_version\": "
     << quote(ptxVersion) << ",\n  \"address_bits\": " << addressBits
     << ",\n  \"warp_size\": " << warpSize
     << ",\n  \"ptxas_flags\": " << list(ptxasFlags) << ",\n  \"toolchain_pins\": [";
  for (size_t i = 0; i < pins.size(); ++i)
    os << (i ? "," : "") << "\n    {\"tool\": " << quote(pins[i].tool)
       << ", \"version\": " << quote(pins[i].version)
       << ", \"sha256\": " << quote(pins[i].sha256)
       << ", \"origin\": " << quote(pins[i].origin) << "}";
  os << "\n  ],\n  \"floating_point\": {\"no_ftz\": "
     << (forbidFtz ? "true" : "false")
     << ", \"no_approx\": " << (forbidApprox ? "true" : "false")
     << ", \"round_to_nearest_even\": " << (roundToNearest ? "true" : "false")
     << ", \"no_implicit_contraction\": "
     << (forbidContraction ? "true" : "false")
     << "},\n  \"resources\": " << quote(strictResources() ? "strict" : "relaxed")
     << ",\n  \"cta_limits\": {\"max_threads\": " << maxThreadsPerCta
     << ", \"max_shared_bytes\": " << maxSharedBytesPerCta << "}"
     << ",\n  \"sm_limits\": {\"max_blocks\": " << maxBlocksPerSm
     << ", \"max_threads\": " << maxThreadsPerSm
     << ", \"max_shared_bytes\": " << maxSharedBytesPerSm
     << ", \"registers\": " << registersPerSm
     << ", \"max_cluster_ctas\": " << maxClusterSize << "}"
     << ",\n  \"calls\": " << quote(forbidCalls ? "forbidden" : "allowed")
     << ",\n  \"arithmetic_subroutines\": " << list(arithmeticSubroutines)
     << ",\n  \"instruction_classes\": {";
  for (size_t i = 0; i < classes.size(); ++i)
    os << (i ? "," : "") << "\n    " << quote(classes[i].name) << ": "
       << list(classes[i].opcodes);
  os << "\n  }\n}\n";
  return os.str();
}
