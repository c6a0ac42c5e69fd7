//===- Manifest.h - The one reader and checker of bundles -------*- C++ -*-===//
//
// A bundle (docs/Artifacts.md) is checked here, by rake-verify and by the C
// runtime alike, so the two cannot disagree: the manifest is read strictly
// (readManifest: a fixed schema, no unknown or duplicated fields, every type
// exact), and checkBundle re-derives from the bundle's bytes everything that
// needs no disassembler: the seal and the signature, the hashes of the
// cubin, the PTX and the disassembly, the profile by name and by content,
// the toolchain pins, the ptxas flags, the architecture, the ELF's program
// headers, every resource and the parameter layout from .nv.info, the PTX's
// kernels and signatures, and each launch shape against the cubin's records
// and the profile's limits. Plain C++17 and libcrypto (no LLVM).
//
// What needs the disassembly (the instruction rules) is rake-verify's: it
// takes the disassembly from live nvdisasm or from a trusted recording store,
// never from the bundle alone (see verifyBundle in Bundle.h).
//
//===----------------------------------------------------------------------===//

#ifndef RAKE_ARTIFACT_MANIFEST_H
#define RAKE_ARTIFACT_MANIFEST_H

#include "Rake/Profile/Profile.h"
#include "Rake/Verifier/Cubin.h"
#include "Rake/Verifier/Verifier.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace rake {
namespace artifact {

/// The manifest format this reader accepts.
extern const char *const kFormat; // "rake-bundle/3"

/// One refusal: the rule and a sentence naming what differs.
struct Finding {
  /// manifest, integrity, status, profile, toolchain, flags, architecture,
  /// elf, ptx, resources, abi, signature (and, from rake-verify, the
  /// instruction rules and evidence).
  std::string rule;
  std::string message;
};
/// "bundle: <message> [rule <rule>]".
std::string format(const Finding &f);

struct Param {
  int64_t index = 0;
  std::string name, type, role; ///< role "" when the manifest gives none
  int64_t offset = 0, size = 0, align = 0;
};

struct Launch {
  int64_t block[3] = {1, 1, 1};
  int64_t blocksPerSm = 1;
  int64_t dynamicSharedBytes = 0;
  int64_t cluster = 1;
  bool operator==(const Launch &o) const {
    return block[0] == o.block[0] && block[1] == o.block[1] &&
           block[2] == o.block[2] && blocksPerSm == o.blocksPerSm &&
           dynamicSharedBytes == o.dynamicSharedBytes && cluster == o.cluster;
  }
};

/// A parameter of the source procedure a kernel was compiled from (GpuIR):
/// what a caller passes, as the synchronization check assumed it. The
/// manifest's kernels[].signature, absent for a bundle made from PTX.
struct SourceParam {
  std::string name; ///< its name in the source ("A"), or "argK"
  std::string kind; ///< "index", "buffer" or "tensor_map"
  /// Buffers: the element type ("f32", "bf16", "i32", ...), the memory
  /// ("gmem", ...) and each dimension's extent: an expression over the index
  /// parameters' names ("(Mt * 256)", "n", "64"), or "?" where the source
  /// declares none.
  std::string element, memory;
  std::vector<std::string> extents;
  /// Buffers whose values the tensor cores multiply: the input format
  /// ("tf32", "bf16", ...; TensorCoreInputs.h), "" for none. The
  /// manifest's "multiplied_as", absent when empty.
  std::string multipliedAs;
  bool operator==(const SourceParam &o) const {
    return name == o.name && kind == o.kind && element == o.element &&
           memory == o.memory && extents == o.extents &&
           multipliedAs == o.multipliedAs;
  }
};

struct KernelEntry {
  std::string name, sha256;
  int64_t textBytes = 0, registers = 0, sharedBytes = 0, frameBytes = 0,
          localBytes = 0, barriers = 0, sourceLoops = -1, backwardBranches = 0;
  std::map<std::string, int64_t> tensorCore;
  std::vector<std::string> subroutines;
  std::vector<int64_t> maxThreads; ///< empty when absent
  int64_t abiVersion = 0, paramBytes = 0;
  std::vector<Param> params;
  bool hasLaunch = false;
  Launch launch;
  bool hasSignature = false;
  std::vector<SourceParam> signature;
};

struct FileRef {
  std::string file, sha256;
};

struct Manifest {
  std::string format, status, profile, profileSha256, target;
  std::string sourcePath, sourceKind, sourceSha256, compiler;
  /// The source's bytes in the bundle: source.mlir (GpuIR, which rake-verify
  /// compiles again) or kernel.ptx (PTX input, which is its own source).
  std::string sourceFile;
  FileRef ptx;
  std::string ptxVersion, ptxTarget;
  std::string ptxasPath, ptxasVersion, ptxasSha256, ptxasPinnedBy;
  bool hasNvdisasm = false;
  std::string nvdisasmPath, nvdisasmVersion, nvdisasmSha256;
  std::vector<std::string> ptxasFlags;
  FileRef cubin;
  int64_t cubinBytes = 0;
  std::string cubinArch, cubinElfFlags, cubinToolVersion;
  bool hasDisassembly = false;
  FileRef disassembly;
  std::string disassemblyProducer, disassemblyObtained;
  std::string verifierVersion;
  std::vector<std::string> verifierErrors;
  std::vector<KernelEntry> kernels;
  const KernelEntry *findKernel(const std::string &name) const;
};

/// Reads a manifest's text against the rake-bundle/3 schema; appends a
/// `manifest` finding for each departure and returns whether there was none.
bool readManifest(const std::string &text, Manifest &out,
                  std::vector<Finding> &findings);

struct CheckOptions {
  /// The profile the bundle must name; "" accepts any profile that is not a
  /// -relaxed one (unless allowRelaxed).
  std::string requiredProfile;
  bool allowRelaxed = false;
  /// Accept a ptxas the bundle records as re-pinned (rake-bundle --repin).
  bool allowRepinned = false;
  /// The PEM of the Ed25519 public key whose signature (manifest.sig) the
  /// bundle must carry, or "" to check integrity only.
  std::string publicKeyPem;
  /// A signature was asked for (a key given by text, file or environment):
  /// an empty or unreadable key is then an error, never integrity only.
  bool signatureRequired = false;
};

/// Everything checkBundle read, for the caller to use: only meaningful as far
/// as the findings allow (a caller that loads refuses on any finding).
struct Checked {
  std::vector<Finding> findings;
  std::string manifestText, manifestSha256;
  bool manifestFound = false; ///< manifest.json could be read
  bool manifestRead = false;  ///< ... and it is a rake-bundle/3 manifest
  Manifest manifest;
  const profile::Profile *profile = nullptr;
  std::string cubinBytes, ptxText, disasmText, sourceText;
  bool haveCubin = false, havePtx = false, haveDisasm = false,
       haveSource = false;
  cubin::Cubin cubin;
  verifier::PtxInfo ptx;
  bool cubinParsed = false, ptxParsed = false;
  /// The signer's key fingerprint when the signature was checked and holds.
  std::string signer;
  bool ok() const { return findings.empty(); }
};

/// Checks the bundle in \p dir (see the file comment).
Checked checkBundle(const std::string &dir, const CheckOptions &o);

/// What a signature over a manifest signs: a domain string and the
/// manifest's sha256 (which binds every file of the bundle).
std::string signedMessage(const std::string &manifestSha256);
/// Signs the manifest whose sha256 is \p manifestSha256 (the one the caller
/// verified or wrote, never the file read again) with \p privatePem: writes
/// DIR/manifest.sig, "ed25519 <key fingerprint> <signature>\n", as a new
/// file (whatever was at that name, a symbolic link too, is removed first).
bool signBundle(const std::string &dir, const std::string &manifestSha256,
                const std::string &privatePem, std::string &error);

/// The sha256 of a profile's content (its JSON), as manifests record it.
std::string profileSha256(const profile::Profile &p);

/// The largest file a bundle or tool read takes (1 GiB).
constexpr long long kMaxFileBytes = 1LL << 30;
/// Reads a regular file of at most kMaxFileBytes whole; false for anything
/// else (missing, a directory, a FIFO, a device, too large).
bool readFile(const std::string &path, std::string &out);

/// Reads a profile from its JSON (Profile::toJson, strictly: every field,
/// none unknown); false with \p error otherwise.
bool readProfile(const std::string &text, profile::Profile &out,
                 std::string &error);

} // namespace artifact
} // namespace rake

#endif // RAKE_ARTIFACT_MANIFEST_H
