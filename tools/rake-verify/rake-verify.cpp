//===- rake-verify.cpp - The cubin artifact verifier ----------------------===//
//
//   rake-verify BUNDLE_DIR                 check a bundle (seal, hashes,
//                                          manifest fields, cubin rules on
//                                          live or trusted disassembly)
//   rake-verify BUNDLE_DIR --sign=KEY      ... and sign it when it verifies
//   rake-verify BUNDLE_DIR --public-key=PUB   ... requiring PUB's signature
//   rake-verify --keygen=PREFIX            make PREFIX.key and PREFIX.pub
//   rake-verify [options] KERNEL.cubin     check one cubin against a profile
//   rake-verify --print-profile=NAME       a profile as JSON
//   rake-verify --list-profiles
//
// Prints the per-kernel report on stdout, each broken rule on stderr, and
// exits 1 when any rule is broken or any evidence is missing (fail closed),
// 2 on bad usage or unreadable input.
//
//===----------------------------------------------------------------------===//

#include "Rake/Artifact/Crypto.h"
#include "Rake/Artifact/Manifest.h"
#include "Rake/Profile/Profile.h"
#include "Rake/Verifier/Bundle.h"
#include "Rake/Verifier/Cubin.h"
#include "Rake/Verifier/FromSource.h"
#include "Rake/Verifier/Verifier.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace rake;

/// The options --help shows (LLVM's own are hidden).
static cl::OptionCategory toolOptions("rake-verify options");

static cl::opt<std::string> input(cl::Positional, cl::desc("<bundle dir | cubin>"), cl::cat(toolOptions));
static cl::opt<std::string> profileName("profile", cl::desc("Profile for a lone cubin (default nvidia-ptx-sm90a); for a bundle, the profile it must name"),
                                        cl::cat(toolOptions));
static cl::opt<std::string> profileFile("profile-file", cl::desc("For a lone cubin: the profile as JSON (--print-profile's form), e.g. a built-in one with a rule switched off"), cl::cat(toolOptions));
static cl::opt<bool> allowRelaxed("allow-relaxed", cl::desc("Accept a bundle verified under a -relaxed profile without naming it"), cl::cat(toolOptions));
static cl::opt<std::string> signKey("sign", cl::desc("Sign a bundle that verifies with this Ed25519 private key (PEM): writes manifest.sig"), cl::cat(toolOptions));
static cl::opt<std::string> publicKey("public-key", cl::desc("Require a bundle's signature by this Ed25519 public key (PEM)"), cl::cat(toolOptions));
static cl::opt<std::string> keygen("keygen", cl::desc("Make an Ed25519 key pair: PREFIX.key (private, mode 0600) and PREFIX.pub"), cl::cat(toolOptions));
static cl::opt<std::string> ptxPath("ptx", cl::desc("The PTX the cubin was made from (evidence of the source's loops and floating point)"), cl::cat(toolOptions));
static cl::opt<std::string> disasmPath("disasm", cl::desc("nvdisasm -json output of exactly this cubin"), cl::cat(toolOptions));
static cl::list<std::string> disasmDirs("disasm-dir", cl::desc("A trusted store of recorded disassemblies named <cubin-sha256>.json (a bundle's own disasm.json is never evidence)"), cl::cat(toolOptions));
static cl::opt<std::string> nvdisasm("nvdisasm", cl::desc("auto: run nvdisasm where it exists, else a trusted recording (default); never: only a recording; or a path"),
                                     cl::init("auto"), cl::cat(toolOptions));
static cl::opt<std::string> ptxasTool("ptxas", cl::desc("For a bundle: the pinned ptxas that re-assembles kernel.ptx to prove it is the cubin's source (auto: PATH, then /usr/local/cuda/bin; never)"),
                                      cl::init("auto"), cl::cat(toolOptions));
static cl::opt<int> sourceLoops("source-loops", cl::desc("The number of loops in each kernel's source (overrides the PTX)"), cl::init(-1), cl::cat(toolOptions));
static cl::opt<bool> allowRepinned("allow-repinned", cl::desc("Accept a bundle whose ptxas was re-pinned (--repin)"), cl::cat(toolOptions));
static cl::opt<std::string> printProfile("print-profile", cl::desc("Print a profile as JSON"), cl::cat(toolOptions));
static cl::opt<bool> listProfiles("list-profiles", cl::desc("List the profiles"), cl::cat(toolOptions));

static int usage(const std::string &msg) {
  errs() << "rake-verify: error: " << msg << "\n";
  return 2;
}

/// --keygen: writes an ed25519 key pair.
static int makeKeyPair() {
  std::string priv, pub, err;
  if (!crypto::generateKey(priv, pub, err))
    return usage(err);
  std::error_code ec;
  {
    raw_fd_ostream os(keygen + ".key", ec, sys::fs::CD_CreateNew,
                      sys::fs::FA_Write, sys::fs::OF_None);
    if (ec)
      return usage("cannot create " + keygen + ".key: " + ec.message());
    sys::fs::setPermissions(keygen + ".key",
                            sys::fs::owner_read | sys::fs::owner_write);
    os << priv;
  }
  raw_fd_ostream os(keygen + ".pub", ec);
  if (ec)
    return usage("cannot create " + keygen + ".pub: " + ec.message());
  os << pub;
  outs() << "ed25519 key " << crypto::fingerprint(pub) << ": " << keygen
         << ".key (private: keep it), " << keygen << ".pub (public)\n";
  return 0;
}

/// A bundle folder: checked against the built-in profile it names.
static int verifyBundleFolder() {
  if (!profileFile.empty())
    return usage("--profile-file is for a lone cubin: a bundle is checked "
                 "against the built-in profile it names, by content");
  bundle::VerifyOptions o;
  o.allowRepinned = allowRepinned;
  o.allowRelaxed = allowRelaxed;
  o.requiredProfile = profileName;
  o.nvdisasm = nvdisasm;
  o.disasmDirs = disasmDirs;
  o.ptxas = ptxasTool;
  if (!signKey.empty() && !artifact::readFile(signKey, o.signKeyPem))
    return usage("cannot read the private key " + signKey);
  o.signatureRequired = !publicKey.empty();
  if (!publicKey.empty() && !artifact::readFile(publicKey, o.publicKeyPem))
    return usage("cannot read the public key " + publicKey);
  // A GpuIR bundle's source.mlir is compiled again: kernel.ptx and the
  // manifest's roles, launch shape and signature must be what it gives.
  o.deriveFromGpuIR = [](const std::string &text, const std::string &path,
                         const profile::Profile &p,
                         bundle::SourceDerivation &out, std::string &error) {
    return bundle::deriveFromGpuIR(text, path, p, out, error);
  };
  return bundle::verify(input, o);
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(toolOptions);
  cl::ParseCommandLineOptions(argc, argv, "Rake GPU cubin artifact verifier\n");
  if (listProfiles) {
    for (const profile::Profile &p : profile::allProfiles())
      outs() << p.name << ": " << p.description << "\n";
    return 0;
  }
  if (!printProfile.empty()) {
    const profile::Profile *p = profile::findProfile(printProfile);
    if (!p)
      return usage("unknown profile '" + printProfile + "'");
    outs() << p->toJson();
    return 0;
  }
  if (!keygen.empty())
    return makeKeyPair();
  if (input.empty())
    return usage("no input: give a bundle folder or a cubin");
  if (sys::fs::is_directory(input))
    return verifyBundleFolder();
  if (!signKey.empty() || !publicKey.empty())
    return usage("--sign and --public-key are for bundles; give a bundle folder");

  profile::Profile fromFile;
  const profile::Profile *p = nullptr;
  if (!profileFile.empty()) {
    std::string text, err;
    if (!artifact::readFile(profileFile, text))
      return usage("cannot read " + profileFile);
    if (!artifact::readProfile(text, fromFile, err))
      return usage(profileFile + ": " + err);
    p = &fromFile;
  } else {
    p = profile::findProfile(
        profileName.empty() ? std::string("nvidia-ptx-sm90a") : profileName.getValue());
  }
  if (!p)
    return usage("unknown profile '" + profileName + "' (--list-profiles)");
  std::string bytes;
  if (!bundle::readFile(input, bytes))
    return usage("cannot read " + input);
  std::vector<uint8_t> data(bytes.begin(), bytes.end());
  cubin::Cubin c;
  std::string err;
  if (!cubin::parse(data, c, err)) {
    errs() << "rake-verify: error: " << input << ": " << err << " [rule elf]\n";
    return 1;
  }
  std::string sha = bundle::sha256Hex(bytes);
  verifier::PtxInfo ptx;
  verifier::Options o;
  o.profile = p;
  if (!ptxPath.empty()) {
    std::string text;
    if (!bundle::readFile(ptxPath, text))
      return usage("cannot read " + ptxPath);
    if (!verifier::parsePtx(text, ptx, err))
      return usage(ptxPath + ": " + err);
    o.ptx = &ptx;
  }
  o.allSourceLoops = sourceLoops;
  std::string disasm;
  bool have = false;
  std::string mode = nvdisasm;
  if (!disasmPath.empty()) {
    if (!bundle::readFile(disasmPath, disasm))
      return usage("cannot read " + disasmPath);
    have = true;
  } else {
    std::string tool = mode == "never" ? "" : bundle::findTool(mode == "auto" ? "nvdisasm" : mode);
    if (!tool.empty()) {
      // Live: nvdisasm -json on exactly these bytes.
      SmallString<128> out;
      sys::fs::createTemporaryFile("rake-verify", "json", out);
      std::optional<StringRef> redirects[] = {std::nullopt, out.str(), std::nullopt};
      StringRef args[] = {tool, "-json", input};
      if (sys::ExecuteAndWait(tool, args, std::nullopt, redirects) == 0 &&
          bundle::readFile(out.str().str(), disasm))
        have = true;
      else
        o.disasmMissingReason = tool + " -json failed";
      sys::fs::remove(out);
    } else if (mode != "auto" && mode != "never") {
      return usage("nvdisasm '" + mode + "' not found");
    }
    for (const std::string &d : disasmDirs)
      if (!have && bundle::readFile(d + "/" + sha + ".json", disasm))
        have = true;
    if (!have && o.disasmMissingReason.empty())
      o.disasmMissingReason =
          std::string(mode == "never" ? "nvdisasm was not run (--nvdisasm=never)"
                                      : "nvdisasm is not on this machine") +
          " and no <sha256>.json is in the --disasm-dir folders";
  }
  if (have)
    o.disasmJson = &disasm;
  verifier::Result r = verifier::verify(c, sha, o);
  outs() << input << ": ";
  outs() << verifier::formatReport(r, *p);
  outs().flush();
  for (const verifier::Finding &f : r.errors)
    errs() << "rake-verify: error: " << verifier::format(f) << "\n";
  outs() << (r.ok() ? "verified" : "REJECTED") << ": " << input;
  if (!r.ok())
    outs() << ": " << r.errors.size() << " error(s)";
  outs() << "\n";
  return r.ok() ? 0 : 1;
}
