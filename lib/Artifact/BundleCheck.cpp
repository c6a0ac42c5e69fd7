//===- BundleCheck.cpp - The checks of a bundle ---------------------------===//
//
// checkBundle (Manifest.h): every check here answers from the bundle's own
// bytes and the profile table compiled into this library; none needs a
// disassembler, a driver or LLVM, so the C runtime runs all of them before
// it loads a cubin.
//
//===----------------------------------------------------------------------===//

#include "Rake/Artifact/Crypto.h"
#include "Rake/Artifact/Json.h"
#include "Rake/Artifact/Manifest.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <set>

#include <fcntl.h>
#include <unistd.h>

using namespace rake;
using namespace rake::artifact;

//===----------------------------------------------------------------------===//
// The checks
//===----------------------------------------------------------------------===//

namespace {

std::string dims(const std::vector<int64_t> &d) {
  std::string s;
  for (int64_t v : d)
    s += (s.empty() ? "" : "x") + std::to_string(v);
  return s;
}

std::string joinWords(const std::vector<std::string> &v) {
  std::string s;
  for (const std::string &w : v)
    s += (s.empty() ? "" : " ") + w;
  return s;
}

std::string hex32(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "0x%x", v);
  return buf;
}

struct Checker {
  const std::string &dir;
  const CheckOptions &o;
  Checked &c;
  void bad(const std::string &rule, const std::string &msg) {
    c.findings.push_back({rule, msg});
  }

  bool sealAndSchema();
  void profileAndSignature();
  void files();
  void toolchain();
  void elf();
  void ptx();
  void kernel(const KernelEntry &k, const cubin::Kernel &ck,
              const verifier::PtxEntry *e);
  void roles(const KernelEntry &k);
  void launch(const KernelEntry &k, const cubin::Kernel &ck,
              const verifier::PtxEntry *e);
};

bool Checker::sealAndSchema() {
  if (!readFile(dir + "/manifest.json", c.manifestText)) {
    bad("manifest", "no manifest.json in " + dir);
    return false;
  }
  c.manifestFound = true;
  c.manifestSha256 = crypto::sha256Hex(c.manifestText);
  std::string seal;
  if (!readFile(dir + "/manifest.sha256", seal))
    bad("manifest", "no manifest.sha256 (the manifest's seal)");
  else if (seal != c.manifestSha256 + "  manifest.json\n")
    bad("manifest", "manifest.json has sha256 " + c.manifestSha256 +
                        "; manifest.sha256 says " + seal.substr(0, 64) +
                        (seal.compare(0, 64, c.manifestSha256) == 0
                             ? " but is not exactly '<sha256>  manifest.json'"
                             : ": the manifest was changed after it was "
                               "sealed"));
  c.manifestRead = readManifest(c.manifestText, c.manifest, c.findings);
  return c.manifestRead;
}

void Checker::profileAndSignature() {
  const Manifest &m = c.manifest;
  c.profile = profile::findProfile(m.profile);
  if (!c.profile) {
    bad("profile", "unknown profile '" + m.profile + "'");
    return;
  }
  const profile::Profile &p = *c.profile;
  if (!o.requiredProfile.empty() && p.name != o.requiredProfile)
    bad("profile", "the bundle was verified under profile " + p.name +
                       "; profile " + o.requiredProfile + " is required");
  else if (o.requiredProfile.empty() && p.relaxed() && !o.allowRelaxed)
    bad("profile", "the bundle was verified under " + p.name +
                       ", which reports spills, local memory and stack "
                       "frames instead of refusing them; ask for it by name "
                       "(or allow relaxed profiles) to accept it");
  if (m.profileSha256 != profileSha256(p))
    bad("profile", "the manifest records profile " + p.name +
                       " with content sha256 " + m.profileSha256 +
                       "; this build's " + p.name + " has sha256 " +
                       profileSha256(p) +
                       ": the bundle was made against another definition of "
                       "the profile");
  if (m.status != "verified")
    bad("status", "the manifest's status is '" + m.status +
                      "': the bundle was not verified when it was made");
  else if (!m.verifierErrors.empty())
    bad("manifest", "the manifest's status is 'verified' but it records " +
                        std::to_string(m.verifierErrors.size()) +
                        " verifier error(s)");
  else if (!m.hasDisassembly)
    bad("manifest", "the manifest's status is 'verified' but it records no "
                    "disassembly: rake-bundle verifies the instructions only "
                    "from one, and binds it");
  if (m.target != p.target)
    bad("manifest", "the manifest's target is " + m.target + "; profile " +
                        p.name + " targets " + p.target);

  if (o.publicKeyPem.empty() && !o.signatureRequired)
    return;
  std::string sig, fp = crypto::fingerprint(o.publicKeyPem);
  if (fp.empty()) {
    bad("signature", o.publicKeyPem.empty()
                         ? "the public key given is empty: a signature was "
                           "asked for, so no bundle is accepted without one"
                         : "the public key given is not an Ed25519 public "
                           "key in PEM form");
    return;
  }
  if (!readFile(dir + "/manifest.sig", sig)) {
    bad("signature", "the bundle is not signed (no manifest.sig), and a "
                     "signature by key " + fp.substr(0, 16) +
                     " is required");
    return;
  }
  // "ed25519 <fingerprint> <signature>\n", exactly.
  if (sig.size() != 8 + 64 + 1 + 128 + 1 || sig.compare(0, 8, "ed25519 ") ||
      sig[72] != ' ' || sig.back() != '\n') {
    bad("signature", "manifest.sig is not 'ed25519 <key fingerprint> "
                     "<signature>'");
    return;
  }
  std::string sigFp = sig.substr(8, 64), sigHex = sig.substr(73, 128);
  if (sigFp != fp) {
    bad("signature", "the bundle is signed by key " + sigFp.substr(0, 16) +
                         ", not by the required key " + fp.substr(0, 16));
    return;
  }
  std::string error;
  if (!crypto::verify(o.publicKeyPem, signedMessage(c.manifestSha256), sigHex,
                      error)) {
    bad("signature", error.empty()
                         ? "manifest.sig does not match this manifest: the "
                           "manifest changed after key " +
                               fp.substr(0, 16) + " signed it"
                         : error);
    return;
  }
  c.signer = fp;
}

void Checker::files() {
  const Manifest &m = c.manifest;
  auto named = [&](const std::string &field, const std::string &file,
                   const char *expected) {
    if (file != expected)
      bad("manifest", "the manifest's " + field + " is '" + file + "', not '" +
                          expected + "'");
    return file == expected;
  };
  if (named("cubin.file", m.cubin.file, "kernel.cubin")) {
    c.haveCubin = readFile(dir + "/kernel.cubin", c.cubinBytes);
    if (!c.haveCubin)
      bad("integrity", "the cubin named by the manifest cannot be read");
  }
  if (c.haveCubin) {
    std::string sha = crypto::sha256Hex(c.cubinBytes);
    if (sha != m.cubin.sha256)
      bad("integrity", "kernel.cubin has sha256 " + sha +
                           "; the manifest binds " + m.cubin.sha256);
    if (int64_t(c.cubinBytes.size()) != m.cubinBytes)
      bad("manifest", "kernel.cubin has " + std::to_string(c.cubinBytes.size()) +
                          " bytes; the manifest says " +
                          std::to_string(m.cubinBytes));
  }
  if (named("ptx.file", m.ptx.file, "kernel.ptx")) {
    c.havePtx = readFile(dir + "/kernel.ptx", c.ptxText);
    if (!c.havePtx)
      bad("integrity", "the PTX named by the manifest cannot be read");
    else if (crypto::sha256Hex(c.ptxText) != m.ptx.sha256)
      bad("integrity", "kernel.ptx has sha256 " + crypto::sha256Hex(c.ptxText) +
                           "; the manifest binds " + m.ptx.sha256);
  }
  // The source's bytes. GpuIR is source.mlir, which rake-verify compiles
  // again (kernel.ptx and every field the source determines must be what it
  // gives); PTX input is its own source, kernel.ptx.
  if (named("source.file", m.sourceFile,
            m.sourceKind == "gpuir" ? "source.mlir" : "kernel.ptx")) {
    if (m.sourceKind == "gpuir")
      c.haveSource = readFile(dir + "/source.mlir", c.sourceText);
    else if ((c.haveSource = c.havePtx))
      c.sourceText = c.ptxText;
    if (!c.haveSource && m.sourceKind == "gpuir")
      bad("integrity", "the source named by the manifest (source.mlir) "
                       "cannot be read");
    else if (c.haveSource && crypto::sha256Hex(c.sourceText) != m.sourceSha256) {
      bad("integrity", m.sourceFile + " has sha256 " +
                           crypto::sha256Hex(c.sourceText) +
                           "; the manifest binds it as the source, " +
                           m.sourceSha256);
      c.haveSource = false;
    }
  }
  if (m.hasDisassembly &&
      named("disassembly.file", m.disassembly.file, "disasm.json")) {
    c.haveDisasm = readFile(dir + "/disasm.json", c.disasmText);
    if (!c.haveDisasm)
      bad("integrity", "the disassembly named by the manifest cannot be read");
    if (c.haveDisasm && crypto::sha256Hex(c.disasmText) != m.disassembly.sha256) {
      bad("integrity", "disasm.json has sha256 " +
                           crypto::sha256Hex(c.disasmText) +
                           "; the manifest binds " + m.disassembly.sha256);
      c.haveDisasm = false;
    }
    if (c.haveDisasm) {
      // The producer the manifest names is the one the file names.
      json::Value d;
      std::string error, producer;
      if (json::parse(c.disasmText, d, error) && d.isArray() &&
          !d.items.empty())
        if (const json::Value *pv = d.items[0].get("Producer"))
          if (pv->isString())
            producer = pv->string;
      if (producer != m.disassemblyProducer)
        bad("manifest", "disasm.json names its producer '" + producer +
                            "'; the manifest says '" +
                            m.disassemblyProducer + "'");
    }
  }
}

void Checker::toolchain() {
  const Manifest &m = c.manifest;
  const profile::Profile &p = *c.profile;
  bool pinOk = false;
  for (const profile::ToolPin &pin : p.pins)
    if (pin.tool == "ptxas" && pin.version == m.ptxasVersion &&
        pin.sha256 == m.ptxasSha256)
      pinOk = true;
  if (!pinOk && !(m.ptxasPinnedBy == "repin" && o.allowRepinned))
    bad("toolchain",
        "ptxas " + m.ptxasVersion + " sha256 " + m.ptxasSha256 +
            " is not pinned by profile " + p.name +
            (m.ptxasPinnedBy == "repin" ? " (the bundle was re-pinned; pass "
                                          "--allow-repinned to accept it)"
                                        : ""));
  else if (pinOk && m.ptxasPinnedBy != "profile")
    bad("manifest", "the manifest says ptxas was re-pinned, but the profile "
                    "pins it");
  if (m.hasNvdisasm) {
    bool ok = false;
    for (const profile::ToolPin &pin : p.pins)
      ok |= pin.tool == "nvdisasm" && pin.version == m.nvdisasmVersion &&
            pin.sha256 == m.nvdisasmSha256;
    if (!ok)
      bad("toolchain", "nvdisasm " + m.nvdisasmVersion + " sha256 " +
                           m.nvdisasmSha256 + " is not pinned by profile " +
                           p.name);
  }
  if (m.ptxasFlags != p.ptxasFlags)
    bad("flags", "the manifest's ptxas flags '" + joinWords(m.ptxasFlags) +
                     "' are not profile " + p.name + "'s '" +
                     joinWords(p.ptxasFlags) + "'");
}

void Checker::elf() {
  const Manifest &m = c.manifest;
  std::vector<uint8_t> bytes(c.cubinBytes.begin(), c.cubinBytes.end());
  std::string perr;
  if (!cubin::parse(bytes, c.cubin, perr)) {
    bad("elf", "kernel.cubin: " + perr);
    return;
  }
  c.cubinParsed = true;
  const cubin::Cubin &cu = c.cubin;
  // The header fields a loader reads, as ptxas writes them.
  if (cu.osabi != 0x41 || cu.version != 1 || cu.entry != 0 ||
      cu.headerSize != 64 || !cu.identPaddingZero || cu.type != 2)
    bad("elf", "kernel.cubin's ELF header is not a ptxas cubin's (OS ABI " +
                   hex32(cu.osabi) + ", version " + std::to_string(cu.version) +
                   ", type " + std::to_string(cu.type) + ", entry " +
                   std::to_string(cu.entry) + ", header size " +
                   std::to_string(cu.headerSize) +
                   (cu.identPaddingZero ? "" : ", e_ident padding not zero") +
                   ")");
  // What the driver loads: program headers, each kernel's code in an
  // executable segment.
  if (cu.segments.empty())
    bad("elf", "kernel.cubin has no program headers: nothing says what is "
               "loaded");
  for (const cubin::Kernel &k : cu.kernels) {
    bool loaded = false;
    for (const cubin::Segment &g : cu.segments)
      loaded |= g.type == cubin::kPtLoad && (g.flags & cubin::kPfExec) &&
                g.offset <= k.textOffset &&
                k.textOffset + k.textSize <= g.offset + g.fileSize;
    if (!loaded && !cu.segments.empty())
      bad("elf", "kernel '" + k.name + "': no executable PT_LOAD segment "
                 "holds .text." + k.name);
  }
  if (cu.archName() != m.cubinArch || cu.archName() != m.target)
    bad("architecture", "the cubin is for " + cu.archName() +
                            "; the manifest says cubin.arch " + m.cubinArch +
                            ", target " + m.target);
  else if (c.profile && cu.archName() != c.profile->target)
    bad("architecture", "the cubin is for " + cu.archName() + "; profile " +
                            c.profile->name + " requires " +
                            c.profile->target);
  if (hex32(cu.flags) != m.cubinElfFlags)
    bad("manifest", "the cubin's ELF flags are " + hex32(cu.flags) +
                        "; the manifest says " + m.cubinElfFlags);
  if (cu.toolVersion != m.cubinToolVersion)
    bad("manifest", "the cubin's ptxas note says '" + cu.toolVersion +
                        "'; the manifest's cubin.tool_version says '" +
                        m.cubinToolVersion + "'");
  if (cubin::splitOptions(cu.toolOptions) !=
      cubin::splitOptions(joinWords(m.ptxasFlags))) {
    std::string opts = cu.toolOptions;
    while (!opts.empty() && (opts.back() == ' ' || opts.back() == '\n'))
      opts.pop_back();
    while (!opts.empty() && opts[0] == ' ')
      opts.erase(0, 1);
    bad("flags", "the cubin's ptxas note records options '" + opts +
                     "'; the manifest says '" + joinWords(m.ptxasFlags) + "'");
  }
  const std::string suffix = ", " + m.ptxasVersion;
  if (cu.toolVersion.size() < suffix.size() ||
      cu.toolVersion.compare(cu.toolVersion.size() - suffix.size(),
                             suffix.size(), suffix) != 0)
    bad("toolchain", "the cubin was made by '" + cu.toolVersion +
                         "'; the manifest says ptxas " + m.ptxasVersion);
}

void Checker::ptx() {
  const Manifest &m = c.manifest;
  const profile::Profile &p = *c.profile;
  std::string perr;
  if (!verifier::parsePtx(c.ptxText, c.ptx, perr)) {
    bad("ptx", "kernel.ptx: " + perr);
    return;
  }
  c.ptxParsed = true;
  if (c.ptx.version != m.ptxVersion || c.ptx.target != m.ptxTarget)
    bad("manifest", "kernel.ptx declares .version " + c.ptx.version +
                        ", .target " + c.ptx.target + "; the manifest says " +
                        m.ptxVersion + ", " + m.ptxTarget);
  if (c.ptx.version != p.ptxVersion || c.ptx.target != p.target ||
      c.ptx.addressSize != p.addressBits)
    bad("ptx", "kernel.ptx declares .version " + c.ptx.version + ", .target " +
                   c.ptx.target + ", .address_size " +
                   std::to_string(c.ptx.addressSize) + "; profile " + p.name +
                   " requires " + p.ptxVersion + ", " + p.target + ", " +
                   std::to_string(p.addressBits));
  for (const verifier::Finding &f : c.ptx.fpFindings)
    if (p.enforces(f.rule))
      bad(f.rule, "kernel '" + f.kernel + "': " + f.message);
  for (const verifier::PtxEntry &e : c.ptx.entries)
    if (c.cubinParsed && !c.cubin.findKernel(e.name))
      bad("ptx", "kernel.ptx has kernel '" + e.name +
                     "', which the cubin does not hold");
}

void Checker::kernel(const KernelEntry &k, const cubin::Kernel &ck,
                     const verifier::PtxEntry *e) {
  std::string kn = "kernel '" + k.name + "'";
  // A signature describes a GpuIR procedure; PTX input has none, and one
  // written into its manifest would be checked against nothing.
  if (c.manifest.sourceKind == "ptx" && k.hasSignature)
    bad("manifest", kn + " has a signature, but the bundle was made from PTX, "
                         "which declares none (only a GpuIR source gives one)");
  std::string sha =
      ck.textOffset <= c.cubinBytes.size() &&
              ck.textSize <= c.cubinBytes.size() - ck.textOffset
          ? crypto::sha256Hex(c.cubinBytes.substr(ck.textOffset, ck.textSize))
          : std::string("(outside the file)");
  if (sha != k.sha256)
    bad("integrity", kn + " (.text." + k.name + ") has sha256 " + sha +
                         "; the manifest binds " + k.sha256);
  if (k.textBytes != int64_t(ck.textSize))
    bad("manifest", kn + ": the manifest's text_bytes " +
                        std::to_string(k.textBytes) + " differ from the "
                        "cubin's .text." + k.name + " (" +
                        std::to_string(ck.textSize) + " bytes)");
  if (!ck.hasRegCount || !ck.hasFrameSize)
    bad("elf", kn + ": the cubin's .nv.info lacks its EIATTR_REGCOUNT or "
                    "EIATTR_FRAME_SIZE record");
  if (k.registers != int64_t(ck.regCount) ||
      k.sharedBytes != int64_t(ck.sharedSize) ||
      k.frameBytes != int64_t(ck.frameSize) ||
      k.localBytes != int64_t(ck.localSize))
    bad("manifest", kn + ": the manifest's registers, shared, frame or local "
                         "bytes differ from the cubin's .nv.info");
  if (k.barriers != int64_t(ck.numBarriers))
    bad("manifest", kn + ": the manifest's barriers " +
                        std::to_string(k.barriers) + " differ from the "
                        "cubin's EIATTR_NUM_BARRIERS " +
                        std::to_string(ck.numBarriers));
  if (c.profile->enforces("resources") &&
      (ck.frameSize > 0 || ck.localSize > 0 ||
       c.cubin.findSection(".nv.local." + k.name)))
    bad("resources", kn + " has a stack frame of " +
                         std::to_string(ck.frameSize) + " bytes and " +
                         std::to_string(ck.localSize) +
                         " bytes of local memory; profile " +
                         c.profile->name + " allows none");
  if (e && k.sourceLoops != int64_t(e->backwardBranches))
    bad("manifest", kn + ": the manifest's source_loops " +
                        std::to_string(k.sourceLoops) + " differ from the " +
                        std::to_string(e->backwardBranches) +
                        " backward branches of its PTX");
  std::vector<int64_t> maxThreads(ck.maxThreads.begin(), ck.maxThreads.end());
  if (k.maxThreads != maxThreads)
    bad("abi", kn + ": the manifest's max_threads differ from the cubin's "
                    "EIATTR_MAX_THREADS");

  // The parameter layout: .nv.info, the PTX signature, the manifest.
  uint32_t bank = ck.hasCbankParamSize ? ck.cbankParamSize : ck.paramBankSize;
  if (k.paramBytes != int64_t(bank))
    bad("abi", kn + ": the manifest's param_bytes " +
                   std::to_string(k.paramBytes) +
                   " differ from the cubin's EIATTR_CBANK_PARAM_SIZE " +
                   std::to_string(bank));
  else if (e && k.paramBytes != int64_t(e->paramBytes))
    bad("abi", kn + ": the manifest's param_bytes " +
                   std::to_string(k.paramBytes) + " differ from the PTX "
                   "signature's " + std::to_string(e->paramBytes));
  if (k.params.size() != ck.params.size()) {
    bad("abi", kn + ": the manifest lists " + std::to_string(k.params.size()) +
                   " parameters, the cubin's EIATTR_KPARAM_INFO " +
                   std::to_string(ck.params.size()));
    return;
  }
  if (e && e->params.size() != k.params.size())
    bad("abi", kn + ": the manifest lists " + std::to_string(k.params.size()) +
                   " parameters, the PTX signature " +
                   std::to_string(e->params.size()));
  for (size_t i = 0; i < k.params.size(); ++i) {
    const Param &p = k.params[i];
    const cubin::KParam &kp = ck.params[i];
    std::string pn = kn + " parameter " + std::to_string(i);
    if (p.index != int64_t(i))
      bad("abi", pn + ": the manifest gives it index " +
                     std::to_string(p.index));
    if (kp.ordinal != i || p.offset != kp.offset || p.size != kp.size)
      bad("abi", pn + ": the manifest says offset " + std::to_string(p.offset) +
                     ", size " + std::to_string(p.size) +
                     "; EIATTR_KPARAM_INFO says ordinal " +
                     std::to_string(kp.ordinal) + ", offset " +
                     std::to_string(kp.offset) + ", size " +
                     std::to_string(kp.size));
    else if (p.offset % p.align)
      bad("abi", pn + ": offset " + std::to_string(p.offset) +
                     " is not a multiple of its alignment " +
                     std::to_string(p.align));
    if (e && i < e->params.size()) {
      const verifier::PtxParam &pp = e->params[i];
      if (pp.offset != p.offset || pp.size != p.size || pp.align != p.align)
        bad("abi", pn + ": the manifest's layout differs from the PTX "
                       "signature's (offset " +
                       std::to_string(pp.offset) + ", size " +
                       std::to_string(pp.size) + ", align " +
                       std::to_string(pp.align) + ")");
      if (pp.name != p.name || pp.type.substr(1) != p.type)
        bad("abi", pn + ": the manifest calls it '" + p.name + "' of type " +
                       p.type + "; the PTX signature says '" + pp.name +
                       "' of type " + pp.type.substr(1));
    }
  }
  // GpuIR gives every parameter a role; PTX gives none.
  size_t withRole = 0;
  for (const Param &p : k.params)
    withRole += !p.role.empty();
  if (c.manifest.sourceKind == "gpuir" ? withRole != k.params.size()
                                       : withRole != 0)
    bad("abi", kn + ": " + std::to_string(withRole) + " of its " +
                   std::to_string(k.params.size()) +
                   " parameters have a role, but a kernel compiled from " +
                   c.manifest.sourceKind +
                   (c.manifest.sourceKind == "gpuir" ? " gives each one"
                                                     : " gives none"));
  roles(k);
}

/// Roles, when given, follow MLIR's expansion of the procedure's signature:
/// arguments in increasing order, each an index ("argK.index") or a memref of
/// some rank r (allocated, aligned, offset, size0..r-1, stride0..r-1), then
/// the tensor maps. A reordering (two buffers' roles swapped) breaks it.
void Checker::roles(const KernelEntry &k) {
  std::vector<std::string> rs;
  for (const Param &p : k.params)
    rs.push_back(p.role);
  bool any = false;
  for (const std::string &r : rs)
    any |= !r.empty();
  if (!any)
    return;
  auto refuse = [&](size_t i, const std::string &why) {
    bad("abi", "kernel '" + k.name + "' parameter " + std::to_string(i) +
                   ": role '" + rs[i] + "' " + why +
                   " (roles follow the procedure's arguments in order, as "
                   "MLIR's GPU lowering expands them)");
  };
  size_t i = 0;
  long last = -1;
  while (i < rs.size() && rs[i].rfind("tensormap.", 0) != 0) {
    const std::string &r = rs[i];
    size_t dot = r.find('.');
    if (r.rfind("arg", 0) != 0 || dot == std::string::npos || dot == 3 ||
        r.find_first_not_of("0123456789", 3) != dot)
      return refuse(i, "is not argK.<part>");
    if (dot - 3 > 9)
      return refuse(i, "names an argument past 999999999");
    long arg = std::stol(r.substr(3, dot - 3));
    if (arg <= last)
      return refuse(i, "comes after argument " + std::to_string(last));
    last = arg;
    std::string a = "arg" + std::to_string(arg) + ".";
    if (r == a + "index") {
      ++i;
      continue;
    }
    auto alignedRole = [&](const std::string &s) {
      // argK.aligned, or argK.alignedN with N a power of two up to 256.
      if (s.rfind(a + "aligned", 0) != 0)
        return false;
      std::string n = s.substr(a.size() + 7);
      if (n.empty())
        return true;
      if (n.size() > 3 || n[0] == '0' ||
          n.find_first_not_of("0123456789") != std::string::npos)
        return false;
      unsigned v = std::stoul(n);
      return v <= 256 && (v & (v - 1)) == 0;
    };
    if (r != a + "allocated" || i + 2 >= rs.size() ||
        !alignedRole(rs[i + 1]) || rs[i + 2] != a + "offset")
      return refuse(i, "does not start an index or a memref of argument " +
                           std::to_string(arg));
    i += 3;
    size_t rank = 0;
    while (i + rank < rs.size() && rs[i + rank] == a + "size" + std::to_string(rank))
      ++rank;
    for (size_t d = 0; d < rank; ++d)
      if (i + rank + d >= rs.size() ||
          rs[i + rank + d] != a + "stride" + std::to_string(d))
        return refuse(std::min(i + rank + d, rs.size() - 1),
                      "breaks the sizes and strides of a rank-" +
                          std::to_string(rank) + " memref");
    i += 2 * rank;
  }
  for (; i < rs.size(); ++i)
    if (rs[i].rfind("tensormap.arg", 0) != 0)
      return refuse(i, "follows the tensor maps");
}

void Checker::launch(const KernelEntry &k, const cubin::Kernel &ck,
                     const verifier::PtxEntry *e) {
  const profile::Profile &p = *c.profile;
  std::string kn = "kernel '" + k.name + "': ";
  if (!k.hasLaunch) {
    if (e && e->externShared)
      bad("abi", kn + "its PTX declares .extern .shared (dynamic shared "
                      "memory) but the manifest records no launch shape, so "
                      "no launch can know its size (for PTX input, "
                      "rake-bundle --dynamic-shared-bytes=N records it)");
    return;
  }
  const Launch &s = k.launch;
  // Code that addresses dynamic shared memory launched with none of it
  // reads and writes past the CTA's shared memory.
  if (e && e->externShared && s.dynamicSharedBytes == 0)
    bad("abi", kn + "its PTX declares .extern .shared (dynamic shared "
                    "memory) but launch.dynamic_shared_bytes is 0, so its "
                    "shared accesses would run past the CTA's memory (for "
                    "PTX input, rake-bundle --dynamic-shared-bytes=N "
                    "records the size it needs)");
  std::vector<int64_t> block(s.block, s.block + 3);
  std::vector<int64_t> maxThreads(ck.maxThreads.begin(), ck.maxThreads.end());
  if (maxThreads.empty())
    bad("abi", kn + "the manifest records a launch block " + dims(block) +
                    " but the cubin has no EIATTR_MAX_THREADS (.maxntid) to "
                    "confirm it");
  else if (block != maxThreads) {
    bool over = false;
    for (size_t i = 0; i < 3 && i < maxThreads.size(); ++i)
      over |= block[i] > maxThreads[i];
    bad("abi", kn + "the launch block " + dims(block) +
                    (over ? " exceeds" : " is not") +
                    " the cubin's EIATTR_MAX_THREADS " + dims(maxThreads) +
                    (over ? "" : ", the block its code is compiled for"));
  }
  int64_t threads = block[0] * block[1] * block[2];
  if (threads > int64_t(p.maxThreadsPerCta))
    bad("abi", kn + "the launch block " + dims(block) + " has " +
                    std::to_string(threads) + " threads; profile " + p.name +
                    " allows at most " + std::to_string(p.maxThreadsPerCta) +
                    " per CTA");
  int64_t shared = s.dynamicSharedBytes + int64_t(ck.sharedSize);
  if (shared > int64_t(p.maxSharedBytesPerCta))
    bad("abi", kn + "launch.dynamic_shared_bytes " +
                    std::to_string(s.dynamicSharedBytes) +
                    " plus the cubin's static shared memory " +
                    std::to_string(ck.sharedSize) + " (.nv.shared." + k.name +
                    ") is " + std::to_string(shared) + " bytes; profile " +
                    p.name + " allows at most " +
                    std::to_string(p.maxSharedBytesPerCta) + " per CTA");
  // The cluster the code requires (.reqnctapercluster).
  int64_t cluster = 1;
  if (!ck.clusterDims.empty()) {
    if (ck.clusterDims.size() != 3 || ck.clusterDims[1] != 1 ||
        ck.clusterDims[2] != 1)
      bad("abi", kn + "the cubin requires a cluster that is not along x "
                      "only; the runtime launches clusters along x");
    cluster = ck.clusterDims[0];
  }
  if (s.cluster != cluster)
    bad("abi", kn + "the manifest's launch.cluster is " +
                    std::to_string(s.cluster) + "; the cubin's "
                    "EIATTR_CTA_PER_CLUSTER requires " +
                    std::to_string(cluster));
  else if (cluster > int64_t(p.maxClusterSize))
    bad("abi", kn + "clusters of " + std::to_string(cluster) +
                    " CTAs; profile " + p.name + " allows at most " +
                    std::to_string(p.maxClusterSize));
  // blocks_per_sm CTAs must fit on one SM together.
  int64_t bps = s.blocksPerSm;
  int64_t warps = (threads + 31) / 32;
  int64_t regsPerWarp = ((int64_t(ck.regCount) * 32 + 255) / 256) * 256;
  std::string why;
  if (bps > int64_t(p.maxBlocksPerSm))
    why = "more than " + std::to_string(p.maxBlocksPerSm) + " CTAs";
  else if (bps * threads > int64_t(p.maxThreadsPerSm))
    why = std::to_string(bps * threads) + " threads, more than " +
          std::to_string(p.maxThreadsPerSm);
  else if (bps * shared > int64_t(p.maxSharedBytesPerSm))
    why = std::to_string(bps * shared) + " bytes of shared memory, more than " +
          std::to_string(p.maxSharedBytesPerSm);
  else if (bps * warps * regsPerWarp > int64_t(p.registersPerSm))
    why = std::to_string(bps * warps * regsPerWarp) +
          " registers, more than " + std::to_string(p.registersPerSm);
  if (!why.empty())
    bad("abi", kn + "launch.blocks_per_sm " + std::to_string(bps) +
                    " cannot be resident on one SM: " + why + " (profile " +
                    p.name + ")");
}

} // namespace

Checked rake::artifact::checkBundle(const std::string &dir,
                                    const CheckOptions &o) {
  Checked c;
  Checker k{dir, o, c};
  if (!k.sealAndSchema())
    return c;
  k.profileAndSignature();
  if (!c.profile)
    return c;
  k.files();
  k.toolchain();
  if (!c.haveCubin)
    return c;
  // Bytes that the seal or the signature does not bind are not read any
  // further: whoever could write them could also have crafted them to
  // break the readers (the ELF and PTX parsers).
  for (const Finding &f : c.findings)
    if (f.rule == "integrity" || f.rule == "signature")
      return c;
  k.elf();
  if (c.havePtx)
    k.ptx();
  if (!c.cubinParsed)
    return c;
  std::set<std::string> listed;
  for (const KernelEntry &ke : c.manifest.kernels) {
    if (!listed.insert(ke.name).second) {
      k.bad("manifest", "the manifest lists kernel '" + ke.name + "' twice");
      continue;
    }
    const cubin::Kernel *ck = c.cubin.findKernel(ke.name);
    if (!ck) {
      k.bad("manifest", "the manifest lists kernel '" + ke.name +
                            "', which the cubin does not hold");
      continue;
    }
    const verifier::PtxEntry *e = c.ptxParsed ? c.ptx.findEntry(ke.name) : nullptr;
    if (c.ptxParsed && !e)
      k.bad("ptx", "kernel.ptx has no .entry " + ke.name);
    k.kernel(ke, *ck, e);
    k.launch(ke, *ck, e);
  }
  for (const cubin::Kernel &ck : c.cubin.kernels)
    if (!listed.count(ck.name))
      k.bad("manifest", "the cubin holds kernel '" + ck.name +
                            "', which the manifest does not list");
  return c;
}

bool rake::artifact::signBundle(const std::string &dir,
                                const std::string &manifestSha256,
                                const std::string &privatePem,
                                std::string &error) {
  std::string pub, sig;
  if (manifestSha256.size() != 64) {
    error = "no verified manifest to sign in " + dir;
    return false;
  }
  if (!crypto::publicOf(privatePem, pub, error) ||
      !crypto::sign(privatePem, signedMessage(manifestSha256), sig, error))
    return false;
  std::string line = "ed25519 " + crypto::fingerprint(pub) + " " + sig + "\n";
  // A new file: a manifest.sig that is a link would otherwise be followed
  // and whatever it names overwritten.
  std::string path = dir + "/manifest.sig";
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) {
    error = "cannot replace " + path + ": " + std::strerror(errno);
    return false;
  }
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
                                    O_CLOEXEC,
                  0644);
  if (fd < 0) {
    error = "cannot write " + path + ": " + std::strerror(errno);
    return false;
  }
  bool ok = ::write(fd, line.data(), line.size()) == ssize_t(line.size());
  ok = (::close(fd) == 0) && ok;
  if (!ok)
    error = "cannot write " + path;
  return ok;
}
