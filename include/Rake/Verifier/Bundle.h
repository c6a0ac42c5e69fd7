//===- Bundle.h - The artifact bundle: cubin + manifest ---------*- C++ -*-===//
//
// A bundle is a directory:
//   kernel.cubin      the cubin, exactly as ptxas wrote it
//   kernel.ptx        the PTX it was assembled from (never loaded)
//   disasm.json       nvdisasm -json of kernel.cubin (the verifier's evidence)
//   manifest.json     hashes, profile, toolchain, flags, launch ABI, verdict
//   manifest.sha256   the manifest's own sha256 (sha256sum format)
//   evidence.jsonl    appended by runs: device, driver, runtime (optional)
// docs/Artifacts.md describes each manifest field.
//
//===----------------------------------------------------------------------===//

#ifndef RAKE_VERIFIER_BUNDLE_H
#define RAKE_VERIFIER_BUNDLE_H

#include "Rake/Artifact/Manifest.h"
#include "Rake/Profile/Profile.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace rake {
namespace bundle {

/// What a kernel parameter means in the source (GpuIR): "n",
/// "A.aligned", "A.size0", ...; by kernel, in parameter order.
using ParamRoles = std::map<std::string, std::vector<std::string>>;

/// How a kernel must be launched (the manifest's kernels[].launch): CTAs of
/// exactly `block` threads, `blocksPerSm` CTAs per SM (the kernel is
/// persistent: grid = SM count x blocksPerSm), `dynamicSharedBytes` bytes
/// of dynamic shared memory (the launch's sharedMemBytes) and `cluster` CTAs
/// per cluster: the manifest reader's own struct.
using LaunchShape = artifact::Launch;
/// By kernel name.
using LaunchShapes = std::map<std::string, LaunchShape>;

/// What a GpuIR source determines of its bundle (FromSource.h computes it):
/// the PTX and, by kernel name, the parameter roles, the launch shape and the
/// source signature.
struct SourceDerivation {
  std::string ptx;
  ParamRoles roles;
  LaunchShapes launch;
  std::map<std::string, std::vector<artifact::SourceParam>> signatures;
  /// Set when the source parsed but rake-check refused it.
  bool failedCheck = false;
};

/// Compiles GpuIR text (named as the manifest's source.path) for a profile:
/// FromSource.h's deriveFromGpuIR, passed in so that this library needs no
/// MLIR. Returns false with the diagnostics in the last argument.
using DeriveFn = std::function<bool(const std::string &text,
                                    const std::string &path,
                                    const profile::Profile &profile,
                                    SourceDerivation &out, std::string &error)>;

struct MakeOptions {
  const profile::Profile *profile = nullptr;
  std::string outDir;
  std::string ptx;            ///< the PTX text to assemble
  std::string sourcePath;     ///< what the PTX was made from
  std::string sourceKind;     ///< "gpuir" or "ptx"
  std::string sourceText;     ///< its bytes (hashed into the manifest)
  std::string ptxas;          ///< path, or "" to find it
  bool repin = false;         ///< accept a ptxas the profile does not pin
  std::string nvdisasm = "auto"; ///< path, "auto" (PATH, CUDA) or "never"
  std::vector<std::string> disasmDirs; ///< recorded <cubin-sha256>.json
  ParamRoles roles;
  /// From GpuIR: each kernel's launch shape, as its device function and
  /// shared-memory layout give it.
  LaunchShapes launch;
  /// From GpuIR: each kernel's source parameters (the manifest's
  /// kernels[].signature), by kernel name.
  std::map<std::string, std::vector<artifact::SourceParam>> signatures;
  /// From PTX (no GpuIR): the dynamic shared memory of every kernel, or -1
  /// when not given. Without it a kernel that declares `.extern .shared` gets
  /// no launch shape, and the verifier refuses the bundle (fail closed);
  /// one that declares none needs 0 bytes. The block is the kernel's
  /// `.maxntid` (EIATTR_MAX_THREADS); no launch shape without one.
  int64_t ptxDynamicSharedBytes = -1;
  int64_t ptxBlocksPerSm = 1;
  std::string compiler; ///< "rake-bundle <git describe>"
  /// When the bundle is verified, sign it with this Ed25519 private key
  /// (PEM); "" leaves it unsigned.
  std::string signKeyPem;
};

/// Assembles, verifies and writes the bundle. Prints the report to stdout
/// and each error to stderr. Returns 0 when the bundle is verified, 1 when
/// it was written but is not verified (rules broken or evidence missing),
/// 2 when no bundle could be written.
int make(const MakeOptions &o);

struct VerifyOptions {
  bool allowRepinned = false;
  /// A -relaxed profile is accepted only when named or allowed.
  bool allowRelaxed = false;
  std::string requiredProfile;
  /// "auto": disassemble live where nvdisasm exists, else a trusted
  /// recording; "never": only a trusted recording; a path: that nvdisasm.
  std::string nvdisasm = "auto";
  /// Trusted recording stores: <cubin-sha256>.json, made by nvdisasm -json.
  std::vector<std::string> disasmDirs;
  std::string publicKeyPem; ///< require this signer's signature
  /// A key was given (--public-key): an empty one refuses every bundle.
  bool signatureRequired = false;
  std::string signKeyPem;   ///< sign the bundle when it verifies
  /// The ptxas that re-assembles kernel.ptx to prove it is the cubin's
  /// source: "auto" (PATH, then /usr/local/cuda/bin), "never", or a path.
  std::string ptxas = "auto";
  bool skipReassembly = false; ///< (rake-bundle: it has just assembled it)
  /// Compiles a GpuIR bundle's source.mlir again: kernel.ptx and every
  /// manifest field the source determines (roles, launch, signature) must be
  /// what it gives. Without it a GpuIR bundle fails closed (rule source).
  DeriveFn deriveFromGpuIR;
  bool skipSourceDerivation = false; ///< (rake-bundle: it has just derived it)
};

/// Checks a bundle directory: everything artifact::checkBundle checks (what
/// the runtime checks), then the cubin's instruction rules on trusted
/// evidence. Prints the per-kernel report; returns 0 when nothing is wrong,
/// 1 otherwise.
int verify(const std::string &dir, const VerifyOptions &o);

/// Helpers the tools share.
std::string sha256Hex(const std::string &bytes);
bool readFile(const std::string &path, std::string &out);
/// A program by path or on PATH or under /usr/local/cuda/bin, or "".
std::string findTool(const std::string &name);

} // namespace bundle
} // namespace rake

#endif // RAKE_VERIFIER_BUNDLE_H
