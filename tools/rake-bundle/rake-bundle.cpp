//===- rake-bundle.cpp - GpuIR to a verified artifact bundle --------------===//
//
//   rake-bundle KERNEL.mlir -o DIR [--profile=P] [--disasm-dir=D]...
//               [--nvdisasm=auto|never|PATH] [--ptxas=PATH] [--repin]
//               [--sign=KEY.key]         (sign the bundle when verified)
//   rake-bundle KERNEL.ptx  -o DIR ... [--dynamic-shared-bytes=N]
//               [--blocks-per-sm=K]      (start from PTX)
//
// Lowers the GpuIR to PTX for the profile's target (the rake-gpuir-to-ptx
// pipeline), assembles it with the pinned ptxas and the profile's flags,
// disassembles the cubin (nvdisasm where it exists, else a recorded
// <cubin-sha256>.json), verifies it and writes the bundle with its manifest.
// Exits 0 when the bundle is verified, 1 when it is written but not verified
// (the manifest then says "unverified" and the runtime refuses it), 2 when no
// bundle could be made.
//
//===----------------------------------------------------------------------===//

#include "Rake/Profile/Profile.h"
#include "Rake/Verifier/Bundle.h"
#include "Rake/Verifier/FromSource.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#ifndef RAKE_REVISION
#define RAKE_REVISION "unknown"
#endif

using namespace llvm;

/// The options --help shows (LLVM's own are hidden).
static cl::OptionCategory toolOptions("rake-bundle options");

static cl::opt<std::string> input(cl::Positional, cl::desc("<GpuIR .mlir | .ptx>"), cl::Required, cl::cat(toolOptions));
static cl::opt<std::string> outDir("o", cl::desc("The bundle folder to write"), cl::Required, cl::cat(toolOptions));
static cl::opt<std::string> profileName("profile", cl::init("nvidia-ptx-sm90a"),
                                        cl::desc("The profile (rake-verify --list-profiles)"), cl::cat(toolOptions));
static cl::list<std::string> disasmDirs("disasm-dir", cl::desc("A folder of recorded disassemblies named <cubin-sha256>.json"), cl::cat(toolOptions));
static cl::opt<std::string> nvdisasm("nvdisasm", cl::init("auto"),
                                     cl::desc("auto: nvdisasm where it exists, else recorded; never; or a path"), cl::cat(toolOptions));
static cl::opt<std::string> ptxas("ptxas", cl::desc("The ptxas to use (default: PATH, then /usr/local/cuda/bin)"), cl::cat(toolOptions));
static cl::opt<std::string> signKey("sign", cl::desc("Sign the bundle, when it verifies, with this Ed25519 private key (PEM; rake-verify --keygen makes one)"), cl::cat(toolOptions));
static cl::opt<bool> repin("repin", cl::desc("Use a ptxas the profile does not pin; the bundle records its hash"), cl::cat(toolOptions));
static cl::opt<int64_t> dynamicSharedBytes(
    "dynamic-shared-bytes", cl::init(-1),
    cl::desc("PTX input: the dynamic shared memory each kernel is launched "
             "with (required for a kernel that declares .extern .shared; "
             "GpuIR input: computed, not given)"),
    cl::cat(toolOptions));
static cl::opt<int64_t> blocksPerSm(
    "blocks-per-sm", cl::init(0),
    cl::desc("PTX input: CTAs per SM in the launch shape (default 1; GpuIR "
             "input: the device function's blocks_per_sm)"),
    cl::cat(toolOptions));

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(toolOptions);
  cl::ParseCommandLineOptions(argc, argv, "Rake GPU: GpuIR to a verified artifact bundle\n");
  const ::rake::profile::Profile *p = ::rake::profile::findProfile(profileName);
  if (!p) {
    errs() << "rake-bundle: error: unknown profile '" << profileName << "'\n";
    return 2;
  }
  ::rake::bundle::MakeOptions o;
  o.profile = p;
  o.outDir = outDir;
  o.sourcePath = input;
  o.ptxas = ptxas;
  o.repin = repin;
  o.nvdisasm = nvdisasm;
  o.disasmDirs = disasmDirs;
  o.compiler = std::string("rake-bundle ") + RAKE_REVISION;
  if (!signKey.empty() && !::rake::bundle::readFile(signKey, o.signKeyPem)) {
    errs() << "rake-bundle: error: cannot read the private key " << signKey
           << "\n";
    return 2;
  }
  if (!::rake::bundle::readFile(input, o.sourceText)) {
    errs() << "rake-bundle: error: cannot read " << input << "\n";
    return 2;
  }
  if (StringRef(input).ends_with(".ptx")) {
    o.sourceKind = "ptx";
    o.ptx = o.sourceText;
    if (dynamicSharedBytes.getNumOccurrences() &&
        (dynamicSharedBytes < 0 || dynamicSharedBytes > UINT32_MAX)) {
      errs() << "rake-bundle: error: --dynamic-shared-bytes="
             << dynamicSharedBytes << " is not a byte count\n";
      return 2;
    }
    if (blocksPerSm.getNumOccurrences() &&
        (blocksPerSm < 1 || blocksPerSm > UINT32_MAX)) {
      errs() << "rake-bundle: error: --blocks-per-sm=" << blocksPerSm
             << " is not a positive count\n";
      return 2;
    }
    o.ptxDynamicSharedBytes = dynamicSharedBytes;
    o.ptxBlocksPerSm = blocksPerSm.getNumOccurrences() ? blocksPerSm : 1;
    return ::rake::bundle::make(o);
  }
  if (dynamicSharedBytes.getNumOccurrences() || blocksPerSm.getNumOccurrences()) {
    errs() << "rake-bundle: error: --dynamic-shared-bytes and --blocks-per-sm "
              "are for PTX input; from GpuIR the launch shape comes from the "
              "device function and its shared-memory layout\n";
    return 2;
  }

  o.sourceKind = "gpuir";
  ::rake::bundle::SourceDerivation d;
  std::string error;
  if (!::rake::bundle::deriveFromGpuIR(o.sourceText, input, *p, d, error,
                                       /*printErrors=*/true)) {
    if (d.failedCheck)
      errs() << "rake-bundle: error: " << input
             << " fails rake-check (above); no bundle is made of a kernel "
                "the checks refuse\n";
    return 2;
  }
  o.ptx = std::move(d.ptx);
  o.roles = std::move(d.roles);
  o.launch = std::move(d.launch);
  o.signatures = std::move(d.signatures);
  return ::rake::bundle::make(o);
}
