//===- Profile.h - GPU profiles as data -------------------------*- C++ -*-===//
//
// A profile fixes everything a compiled kernel is checked against: the
// target, the PTX ISA version, the addressing and warp width, the ptxas
// flags, the toolchain binaries (by sha256, per known version), the machine
// instructions it knows (by class), the floating-point rules and the resource
// policy. The profiles are tables in lib/Profile/Profile.cpp;
// `rake-verify --print-profile=NAME` prints one as JSON.
//
//===----------------------------------------------------------------------===//

#ifndef RAKE_PROFILE_PROFILE_H
#define RAKE_PROFILE_PROFILE_H

#include <string>
#include <vector>

namespace rake {
namespace profile {

/// A toolchain binary the profile accepts: one known version, one hash.
/// Several pins may name the same tool (one per release or per packaging).
struct ToolPin {
  std::string tool;    ///< "ptxas", "nvdisasm"
  std::string version; ///< as the tool prints it: "V13.0.88"
  std::string sha256;  ///< of the binary's bytes
  std::string origin;  ///< where this binary was seen
};

struct InstructionClass {
  std::string name;                 ///< "integer", "tensor-core", ...
  std::vector<std::string> opcodes; ///< base opcodes: "IMAD", "HMMA"
};

enum class ResourcePolicy {
  /// No spills, no local memory, no stack frame.
  Strict,
  /// Spills, local memory and a stack frame are reported, not refused.
  Relaxed,
};

struct Profile {
  std::string name;
  std::string description;
  bool executable = false; ///< run on the GPU machine, or compiled only
  std::string target;      ///< "sm_90a"
  unsigned sm = 0;         ///< 90
  bool archSpecific = false;
  std::string ptxVersion; ///< ".version" the PTX must carry: "8.0"
  unsigned addressBits = 64;
  unsigned warpSize = 32;
  std::vector<std::string> ptxasFlags; ///< exactly these, in this order
  std::vector<ToolPin> pins;
  std::vector<InstructionClass> classes;
  /// NVIDIA's internal subroutines that implement one correctly rounded or
  /// exact operation (integer divide, f32 divide and square root slow paths):
  /// calls to these are allowed; their bodies are checked for instruction
  /// classes, local memory and calls, not for the floating-point rules.
  std::vector<std::string> arithmeticSubroutines;
  // Floating point.
  bool forbidFtz = true;        ///< subnormals kept: no .ftz
  bool forbidApprox = true;     ///< no .approx, no MUFU approximations
  bool roundToNearest = true;   ///< no directed rounding in arithmetic
  bool forbidContraction = true; ///< ptxas -fmad false: no implicit FMA
  ResourcePolicy resources = ResourcePolicy::Strict;
  bool forbidCalls = true; ///< no helper calls (all profiles)
  // Per-CTA limits of the target, against which a bundle's launch shape is
  // checked.
  unsigned maxThreadsPerCta = 1024;
  /// Static plus dynamic shared memory one CTA may use (with the opt-in
  /// cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES) for more than 48 KiB).
  unsigned maxSharedBytesPerCta = 0;
  // Per-SM limits (the CUDA occupancy limits of the target), against which a
  // bundle's blocks_per_sm is checked: that many CTAs must fit on one SM.
  unsigned maxBlocksPerSm = 32;
  unsigned maxThreadsPerSm = 2048;
  unsigned maxSharedBytesPerSm = 0;
  unsigned registersPerSm = 65536;
  /// CTAs per cluster without the non-portable opt-in.
  unsigned maxClusterSize = 8;
  /// Whether this is a -relaxed profile (a weaker verdict than its strict
  /// twin: runtimes accept it only when asked to).
  bool relaxed() const { return resources == ResourcePolicy::Relaxed; }

  /// The class an opcode ("IMAD.WIDE.U32": base "IMAD") belongs to, or "".
  std::string classOf(const std::string &opcode) const;
  bool isTensorCore(const std::string &opcode) const;
  /// "spill"-free, no local memory, no stack frame.
  bool strictResources() const { return resources == ResourcePolicy::Strict; }
  /// The profile as JSON text.
  std::string toJson() const;
  /// Whether the profile enforces the verifier rule \p rule: the rules of
  /// the floating-point flags, the call policy and the resource policy are
  /// enforced only where the flag says so (the table in Profile.cpp); every
  /// other rule (architecture, evidence, ...) always.
  bool enforces(const std::string &rule) const;
};

/// A verifier rule the profile's flags switch: its name and the flag.
struct RuleSwitch {
  const char *rule;
  const char *flag; ///< as toJson names it
  bool (*enforced)(const Profile &);
};
/// Every such rule.
const std::vector<RuleSwitch> &ruleSwitches();

/// Every profile, by name.
const std::vector<Profile> &allProfiles();
/// The profile called \p name, or null.
const Profile *findProfile(const std::string &name);
/// The base opcode: "IMAD" for "IMAD.WIDE.U32".
std::string baseOpcode(const std::string &opcode);

} // namespace profile
} // namespace rake

#endif // RAKE_PROFILE_PROFILE_H
