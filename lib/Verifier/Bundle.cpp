//===- Bundle.cpp - Making and checking artifact bundles ------------------===//

#include "Rake/Verifier/Bundle.h"
#include "Rake/Artifact/Crypto.h"
#include "Rake/Artifact/Manifest.h"
#include "Rake/Verifier/Cubin.h"
#include "Rake/Verifier/Verifier.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <set>

using namespace rake;
using namespace rake::bundle;
namespace json = llvm::json;

std::string rake::bundle::sha256Hex(const std::string &bytes) {
  return crypto::sha256Hex(bytes);
}

bool rake::bundle::readFile(const std::string &path, std::string &out) {
  return artifact::readFile(path, out);
}

static bool writeFile(const std::string &path, const std::string &bytes) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return false;
  os << bytes;
  return true;
}

std::string rake::bundle::findTool(const std::string &name) {
  if (name.find('/') != std::string::npos)
    return llvm::sys::fs::can_execute(name) ? name : "";
  if (auto p = llvm::sys::findProgramByName(name))
    return *p;
  if (auto p = llvm::sys::findProgramByName(name, {"/usr/local/cuda/bin"}))
    return *p;
  return "";
}

namespace {

/// Runs a program; its stdout into \p out, stderr into \p err.
int runTool(const std::string &prog, const std::vector<std::string> &args,
            std::string &out, std::string &err) {
  llvm::SmallString<128> outPath, errPath;
  llvm::sys::fs::createTemporaryFile("rake-tool", "out", outPath);
  llvm::sys::fs::createTemporaryFile("rake-tool", "err", errPath);
  std::vector<llvm::StringRef> argv{prog};
  for (const std::string &a : args)
    argv.push_back(a);
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, outPath.str(),
                                                errPath.str()};
  std::string msg;
  int rc = llvm::sys::ExecuteAndWait(prog, argv, std::nullopt, redirects, 0, 0,
                                     &msg);
  readFile(outPath.str().str(), out);
  readFile(errPath.str().str(), err);
  if (!msg.empty())
    err += msg;
  llvm::sys::fs::remove(outPath);
  llvm::sys::fs::remove(errPath);
  return rc;
}

std::string toolVersion(const std::string &text) {
  llvm::SmallVector<llvm::StringRef> m;
  if (llvm::Regex("V[0-9]+\\.[0-9]+\\.[0-9]+").match(text, &m))
    return m[0].str();
  return "";
}

std::string joinFlags(const std::vector<std::string> &v) {
  std::string s;
  for (const std::string &f : v)
    s += (s.empty() ? "" : " ") + f;
  return s;
}

std::string kernelSha(const cubin::Cubin &c, const cubin::Kernel &k,
                      const std::string &bytes) {
  if (k.textOffset > bytes.size() || k.textSize > bytes.size() - k.textOffset)
    return "(outside the file)";
  return sha256Hex(bytes.substr(k.textOffset, k.textSize));
}

/// Finds the disassembly of \p cubinBytes: live nvdisasm (on a private copy
/// of those bytes, not on a path whose file may change after it was hashed),
/// else a recorded <sha>.json.
bool getDisassembly(const std::string &cubinBytes, const std::string &sha,
                    const std::string &nvdisasm,
                    const std::vector<std::string> &dirs, std::string &json,
                    std::string &how, std::string &missing,
                    std::string *toolPath = nullptr) {
  if (nvdisasm != "never") {
    std::string tool = findTool(nvdisasm == "auto" ? "nvdisasm" : nvdisasm);
    if (!tool.empty()) {
      llvm::SmallString<128> copy;
      if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
              "rake-verify", "cubin", copy)) {
        missing = "cannot make a private copy of the cubin for nvdisasm: " +
                  ec.message();
        return false;
      }
      {
        std::error_code ec;
        llvm::raw_fd_ostream os(copy, ec);
        if (!ec)
          os << cubinBytes;
        os.close();
        if (ec || os.has_error()) {
          llvm::sys::fs::remove(copy);
          missing = "cannot write a private copy of the cubin for nvdisasm";
          return false;
        }
      }
      std::string out, err;
      int rc = runTool(tool, {"-json", copy.str().str()}, out, err);
      llvm::sys::fs::remove(copy);
      if (rc == 0) {
        json = out;
        how = "nvdisasm -json (live: " + tool + ")";
        if (toolPath)
          *toolPath = tool;
        return true;
      }
      missing = tool + " -json failed: " + llvm::StringRef(err).trim().str();
      return false;
    }
    if (nvdisasm != "auto") {
      missing = "nvdisasm '" + nvdisasm + "' not found";
      return false;
    }
  }
  for (const std::string &d : dirs) {
    std::string path = d + "/" + sha + ".json";
    if (readFile(path, json)) {
      how = "recorded: " + path;
      return true;
    }
  }
  missing = "nvdisasm is not on this machine and no recorded disassembly "
            "<sha256>.json was found" +
            std::string(dirs.empty() ? " (no --disasm-dir given)"
                                     : " in the --disasm-dir folders") +
            "; make one where nvdisasm exists (nvdisasm -json kernel.cubin)";
  return false;
}

/// Binds the bundle's PTX to its cubin: assembles kernel.ptx again with a
/// ptxas the profile pins (or, when allowed, the re-pinned one the manifest
/// records) and the profile's flags, and compares the bytes (ptxas is
/// deterministic). Returns the findings; "" when the bytes are equal.
std::string reassemble(const std::string &ptxText, const std::string &cubinBytes,
                       const artifact::Manifest &m, const profile::Profile &p,
                       const std::string &ptxasOption, bool allowRepinned,
                       std::string &how) {
  std::string tool = ptxasOption == "never"
                         ? ""
                         : findTool(ptxasOption == "auto" ? "ptxas" : ptxasOption);
  std::string why = "nothing binds kernel.ptx (the evidence of the source's "
                    "loops, floating point and signature) to kernel.cubin: ";
  if (tool.empty())
    return why + (ptxasOption == "never"
                      ? "ptxas was not run (--ptxas=never)"
                      : "no ptxas on this machine to assemble it again") +
           " (pass --ptxas=PATH to a ptxas that profile " + p.name + " pins)";
  std::string bytes, out, err;
  readFile(tool, bytes);
  std::string sha = sha256Hex(bytes);
  bool pinned = false;
  for (const profile::ToolPin &pin : p.pins)
    pinned |= pin.tool == "ptxas" && pin.sha256 == sha;
  if (!pinned && !(allowRepinned && m.ptxasPinnedBy == "repin" &&
                   sha == m.ptxasSha256))
    return why + tool + " has sha256 " + sha + ", which profile " + p.name +
           " does not pin, so its output proves nothing";
  // ptxas assembles the bytes that were read and hashed (a private copy),
  // not whatever the bundle's path holds when ptxas opens it.
  llvm::SmallString<128> outPath, ptxPath;
  llvm::sys::fs::createTemporaryFile("rake-verify", "cubin", outPath);
  llvm::sys::fs::createTemporaryFile("rake-verify", "ptx", ptxPath);
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(ptxPath, ec);
    if (ec)
      return why + "cannot write a copy of kernel.ptx: " + ec.message();
    os << ptxText;
  }
  std::vector<std::string> args = p.ptxasFlags;
  args.push_back(ptxPath.str().str());
  args.push_back("-o");
  args.push_back(outPath.str().str());
  std::string again;
  int rc = runTool(tool, args, out, err);
  bool read = readFile(outPath.str().str(), again);
  llvm::sys::fs::remove(outPath);
  llvm::sys::fs::remove(ptxPath);
  if (rc != 0 || !read)
    return "kernel.ptx does not assemble: " + llvm::StringRef(err).trim().str();
  how = tool;
  if (again != cubinBytes)
    return "kernel.ptx assembles (" + tool + ", the profile's flags) to a "
           "cubin with sha256 " + sha256Hex(again) + ", not to kernel.cubin (" +
           sha256Hex(cubinBytes) + "): the PTX is not the one the cubin was "
           "made from";
  return "";
}

json::Array strings(const std::vector<std::string> &v) {
  json::Array a;
  for (const std::string &s : v)
    a.push_back(s);
  return a;
}

std::string jstr(const json::Object *o, llvm::StringRef key) {
  if (!o)
    return "";
  if (auto s = o->getString(key))
    return s->str();
  return "";
}

json::Object launchJson(const LaunchShape &s) {
  return json::Object{
      {"block", json::Array{s.block[0], s.block[1], s.block[2]}},
      {"blocks_per_sm", s.blocksPerSm},
      {"dynamic_shared_bytes", s.dynamicSharedBytes},
      {"cluster", s.cluster}};
}

/// The toolchain: the ptxas to run, by hash, against the profile's pins
/// (or re-pinned when asked). Returns false with \p error when none may run.
struct PtxasChoice {
  std::string ptxas, ptxasSha, ptxasVersion, pinnedBy;
  bool choose(const MakeOptions &o, const profile::Profile &p,
              std::string &error);
};

bool PtxasChoice::choose(const MakeOptions &o, const profile::Profile &p,
                         std::string &error) {
  auto fail = [&](const std::string &msg) {
    error = msg;
    return false;
  };
  ptxas = findTool(o.ptxas.empty() ? "ptxas" : o.ptxas);
  if (ptxas.empty())
    return fail("ptxas not found (on PATH or under /usr/local/cuda/bin); "
                "pass --ptxas=PATH");
  std::string ptxasBytes, out, err;
  if (!readFile(ptxas, ptxasBytes))
    return fail("cannot read " + ptxas);
  ptxasSha = sha256Hex(ptxasBytes);
  runTool(ptxas, {"--version"}, out, err);
  ptxasVersion = toolVersion(out);
  std::vector<std::string> pinnedHashes, pinnedVersions;
  for (const profile::ToolPin &pin : p.pins) {
    if (pin.tool != "ptxas")
      continue;
    pinnedVersions.push_back(pin.version);
    if (pin.version == ptxasVersion) {
      pinnedHashes.push_back(pin.sha256);
      if (pin.sha256 == ptxasSha)
        pinnedBy = "profile";
    }
  }
  if (pinnedBy.empty()) {
    std::string why =
        pinnedHashes.empty()
            ? "profile " + p.name + " pins no ptxas " + ptxasVersion +
                  " (it pins " + joinFlags(pinnedVersions) + ")"
            : "profile " + p.name + " pins ptxas " + ptxasVersion +
                  " with sha256 " + joinFlags(pinnedHashes);
    if (!o.repin)
      return fail(ptxas + " (" + ptxasVersion + ") has sha256 " + ptxasSha +
                  "; " + why + "; pass --repin to use this binary and record "
                  "its hash in the bundle");
    pinnedBy = "repin";
    llvm::errs() << "rake-bundle: warning: re-pinned: " << ptxas << " ("
                 << ptxasVersion << ") sha256 " << ptxasSha << "; " << why
                 << "\n";
  }

  return true;
}

/// The manifest's kernels[]: each kernel's code hash, resources and report,
/// its parameter layout (the PTX signature's, cross-checked later against
/// KPARAM_INFO), roles and launch shape.
json::Array kernelsJson(const MakeOptions &o, const verifier::Result &r,
                        const cubin::Cubin &c, const std::string &cubinBytes,
                        const verifier::PtxInfo &ptx) {
  json::Array kernels;
  for (const verifier::KernelReport &k : r.kernels) {
    const cubin::Kernel *ck = c.findKernel(k.name);
    const verifier::PtxEntry *e = ptx.findEntry(k.name);
    json::Array params;
    if (e) {
      auto roles = o.roles.find(k.name);
      for (size_t i = 0; i < e->params.size(); ++i) {
        const verifier::PtxParam &pp = e->params[i];
        json::Object po{{"index", int64_t(i)},
                        {"name", pp.name},
                        {"type", pp.type.substr(1)},
                        {"offset", int64_t(pp.offset)},
                        {"size", int64_t(pp.size)},
                        {"align", int64_t(pp.align)}};
        if (roles != o.roles.end() && i < roles->second.size())
          po["role"] = roles->second[i];
        params.push_back(std::move(po));
      }
    }
    json::Object tensor;
    for (auto &[op, n] : k.tensorCore)
      tensor[op] = int64_t(n);
    json::Object ko{
        {"name", k.name},
        {"sha256", kernelSha(c, *ck, cubinBytes)},
        {"text_bytes", int64_t(ck->textSize)},
        {"registers", int64_t(k.registers)},
        {"shared_bytes", int64_t(k.sharedBytes)},
        {"frame_bytes", int64_t(k.frameBytes)},
        {"local_bytes", int64_t(k.localBytes)},
        {"barriers", int64_t(k.barriers)},
        {"source_loops", int64_t(k.sourceLoops)},
        {"backward_branches", int64_t(k.backwardBranches)},
        {"tensor_core", std::move(tensor)},
        {"subroutines", strings(k.subroutines)},
        {"abi",
         json::Object{{"version", 1},
                      {"param_bytes", int64_t(e ? e->paramBytes : 0)},
                      {"params", std::move(params)}}},
    };
    if (!ck->maxThreads.empty()) {
      json::Array mt;
      for (uint32_t t : ck->maxThreads)
        mt.push_back(int64_t(t));
      ko["max_threads"] = std::move(mt);
    }
    // The launch shape: from GpuIR; from PTX, the block is .maxntid and the
    // dynamic shared memory is given, or 0 when the kernel declares none.
    auto shape = o.launch.find(k.name);
    if (shape != o.launch.end()) {
      ko["launch"] = launchJson(shape->second);
    } else if (o.sourceKind == "ptx" && ck->maxThreads.size() == 3 &&
               (o.ptxDynamicSharedBytes >= 0 || (e && !e->externShared))) {
      LaunchShape ls;
      for (size_t i = 0; i < 3; ++i)
        ls.block[i] = ck->maxThreads[i];
      ls.blocksPerSm = o.ptxBlocksPerSm;
      ls.dynamicSharedBytes = std::max<int64_t>(o.ptxDynamicSharedBytes, 0);
      ko["launch"] = launchJson(ls);
    }
    auto sig = o.signatures.find(k.name);
    if (sig != o.signatures.end()) {
      json::Array ps;
      for (const artifact::SourceParam &p : sig->second) {
        json::Object po{{"name", p.name}, {"kind", p.kind}};
        if (p.kind == "buffer") {
          po["element"] = p.element;
          po["memory"] = p.memory;
          po["extents"] = strings(p.extents);
          if (!p.multipliedAs.empty())
            po["multiplied_as"] = p.multipliedAs;
        }
        ps.push_back(std::move(po));
      }
      ko["signature"] = std::move(ps);
    }
    kernels.push_back(std::move(ko));
  }
  return kernels;
}

/// The manifest's toolchain: the ptxas that ran, and the nvdisasm that ran
/// here, by hash (a recorded disassembly names its nvdisasm by version in
/// disassembly.producer).
json::Object toolchainJson(const PtxasChoice &tool,
                           const std::string &nvdisasmPath) {
  const std::string &ptxas = tool.ptxas, &ptxasSha = tool.ptxasSha,
                    &ptxasVersion = tool.ptxasVersion,
                    &pinnedBy = tool.pinnedBy;
  json::Object toolchain{{"ptxas", json::Object{{"path", ptxas},
                                                 {"version", ptxasVersion},
                                                 {"sha256", ptxasSha},
                                                 {"pinned_by", pinnedBy}}}};
  if (!nvdisasmPath.empty()) {
    // The disassembler that ran here, by hash (a recorded disassembly names
    // its nvdisasm by version in disassembly.producer).
    std::string bytes, vout, verr;
    readFile(nvdisasmPath, bytes);
    runTool(nvdisasmPath, {"--version"}, vout, verr);
    toolchain["nvdisasm"] = json::Object{{"path", nvdisasmPath},
                                         {"version", toolVersion(vout)},
                                         {"sha256", sha256Hex(bytes)}};
  }
  return toolchain;
}

} // namespace

static int verifyMade(const MakeOptions &o, bool haveDisasm,
                      const std::string &cubinSha);

/// Writes the PTX into the bundle and assembles it with the profile's flags
/// (ptxas's warnings go to stderr, with a note where it made the kernel
/// slower than written); the cubin's bytes, or why not.
static bool assembleCubin(const MakeOptions &o, const profile::Profile &p,
                          const std::string &ptxas, std::string &cubinBytes,
                          std::string &error) {
  std::string ptxPath = o.outDir + "/kernel.ptx",
              cubinPath = o.outDir + "/kernel.cubin";
  if (!writeFile(ptxPath, o.ptx)) {
    error = "cannot write " + ptxPath;
    return false;
  }
  std::vector<std::string> args = p.ptxasFlags;
  args.push_back(ptxPath);
  args.push_back("-o");
  args.push_back(cubinPath);
  std::string out, err;
  if (runTool(ptxas, args, out, err) != 0) {
    error = "ptxas failed: " + llvm::StringRef(err).trim().str();
    return false;
  }
  if (!llvm::StringRef(err).trim().empty())
    llvm::errs() << llvm::StringRef(err).trim() << "\n";
  // ptxas's infos on code it made slower than written (wgmma serialized,
  // C7514-C7518): the kernel is correct, but not what its schedule says.
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(err).split(lines, '\n');
  for (llvm::StringRef line : lines)
    if (line.contains("Potential Performance Loss"))
      llvm::errs() << "rake-bundle: warning: ptxas made the kernel slower "
                      "than written: "
                   << line.drop_until([](char c) { return c == '('; }).trim()
                   << " (docs/Codegen.md says what causes it)\n";
  if (!readFile(cubinPath, cubinBytes)) {
    error = "ptxas wrote no " + cubinPath;
    return false;
  }
  return true;
}

int rake::bundle::make(const MakeOptions &o) {
  const profile::Profile &p = *o.profile;
  llvm::errs().SetUnbuffered();
  auto fail = [&](const std::string &msg) {
    llvm::errs() << "rake-bundle: error: " << msg << "\n";
    return 2;
  };
  if (std::error_code ec = llvm::sys::fs::create_directories(o.outDir))
    return fail("cannot create " + o.outDir + ": " + ec.message());

  PtxasChoice tool;
  std::string chooseError;
  if (!tool.choose(o, p, chooseError))
    return fail(chooseError);
  const std::string &ptxas = tool.ptxas;

  // The GpuIR source goes into the bundle: rake-verify compiles it again.
  if (o.sourceKind == "gpuir") {
    if (!writeFile(o.outDir + "/source.mlir", o.sourceText))
      return fail("cannot write " + o.outDir + "/source.mlir");
  } else {
    llvm::sys::fs::remove(o.outDir + "/source.mlir");
  }

  std::string cubinBytes, asmError;
  if (!assembleCubin(o, p, ptxas, cubinBytes, asmError))
    return fail(asmError);
  std::vector<uint8_t> bytes(cubinBytes.begin(), cubinBytes.end());
  cubin::Cubin c;
  std::string perr;
  if (!cubin::parse(bytes, c, perr))
    return fail("cannot read the cubin ptxas wrote: " + perr);
  std::string cubinSha = sha256Hex(cubinBytes);

  // Evidence and verdict.
  verifier::PtxInfo ptx;
  if (!verifier::parsePtx(o.ptx, ptx, perr))
    return fail("cannot read the PTX: " + perr);
  std::string disasm, how, missing, nvdisasmPath;
  bool haveDisasm =
      getDisassembly(cubinBytes, cubinSha, o.nvdisasm, o.disasmDirs, disasm,
                     how, missing, &nvdisasmPath);
  verifier::Options vo;
  vo.profile = &p;
  vo.ptx = &ptx;
  vo.disasmJson = haveDisasm ? &disasm : nullptr;
  vo.disasmMissingReason = missing;
  verifier::Result r = verifier::verify(c, cubinSha, vo);

  json::Array kernels = kernelsJson(o, r, c, cubinBytes, ptx);
  std::string disasmSha;
  json::Value disasmField = nullptr;
  if (haveDisasm) {
    writeFile(o.outDir + "/disasm.json", disasm);
    disasmSha = sha256Hex(disasm);
    std::string producer;
    if (auto v = json::parse(disasm))
      if (auto *a = v->getAsArray())
        if (!a->empty() && (*a)[0].getAsObject())
          producer = jstr((*a)[0].getAsObject(), "Producer");
    disasmField = json::Object{{"file", "disasm.json"},
                               {"sha256", disasmSha},
                               {"producer", producer},
                               {"obtained", how}};
  } else {
    llvm::sys::fs::remove(o.outDir + "/disasm.json");
  }
  json::Array errors;
  for (const verifier::Finding &f : r.errors)
    errors.push_back(verifier::format(f));

  json::Object toolchain = toolchainJson(tool, nvdisasmPath);
  json::Object manifest{
      {"format", artifact::kFormat},
      {"status", "verified"},
      {"profile", p.name},
      {"profile_sha256", artifact::profileSha256(p)},
      {"target", p.target},
      {"source",
       json::Object{{"path", o.sourcePath},
                    {"kind", o.sourceKind},
                    {"sha256", sha256Hex(o.sourceText)},
                    {"file", o.sourceKind == "gpuir" ? "source.mlir"
                                                     : "kernel.ptx"}}},
      {"compiler", o.compiler},
      {"ptx",
       json::Object{{"file", "kernel.ptx"},
                    {"sha256", sha256Hex(o.ptx)},
                    {"version", ptx.version},
                    {"target", ptx.target}}},
      {"toolchain", std::move(toolchain)},
      {"ptxas_flags", strings(p.ptxasFlags)},
      {"cubin",
       json::Object{{"file", "kernel.cubin"},
                    {"sha256", cubinSha},
                    {"bytes", int64_t(cubinBytes.size())},
                    {"arch", c.archName()},
                    {"elf_flags", "0x" + llvm::utohexstr(c.flags, true)},
                    {"tool_version", c.toolVersion}}},
      {"disassembly", std::move(disasmField)},
      {"verifier",
       json::Object{{"version", verifier::kVersion},
                    {"errors", std::move(errors)}}},
      {"kernels", std::move(kernels)},
  };
  auto write = [&]() {
    std::string text =
        llvm::formatv("{0:2}", json::Value(json::Object(manifest)));
    text += "\n";
    return writeFile(o.outDir + "/manifest.json", text) &&
           writeFile(o.outDir + "/manifest.sha256",
                     sha256Hex(text) + "  manifest.json\n");
  };
  // The verdict: the cubin's rules, and every check of the bundle that the
  // runtime will make (the one checker, run on what was just written).
  if (!write())
    return fail("cannot write the manifest in " + o.outDir);
  artifact::CheckOptions co;
  co.requiredProfile = p.name;
  co.allowRepinned = o.repin;
  artifact::Checked checked = artifact::checkBundle(o.outDir, co);
  for (const artifact::Finding &f : checked.findings)
    if (f.rule != "status")
      errors.push_back(artifact::format(f));
  bool verified = errors.empty();
  if (!verified) {
    manifest["status"] = "unverified";
    (*manifest.getObject("verifier"))["errors"] = std::move(errors);
    if (!write())
      return fail("cannot write the manifest in " + o.outDir);
  }
  std::remove((o.outDir + "/manifest.sig").c_str());
  llvm::outs() << "bundle " << o.outDir << ": "
               << (verified ? "verified" : "NOT verified") << "\n";
  return verifyMade(o, haveDisasm, cubinSha);
}

/// The report and verdict of a bundle just made (and signed when it
/// verifies); when only the disassembly was missing, how to finish it.
static int verifyMade(const MakeOptions &o, bool haveDisasm,
                      const std::string &cubinSha) {
  VerifyOptions vo;
  vo.allowRepinned = o.repin;
  vo.requiredProfile = o.profile->name;
  vo.nvdisasm = o.nvdisasm;
  vo.disasmDirs = o.disasmDirs;
  vo.signKeyPem = o.signKeyPem;
  // The cubin was just assembled from this PTX by the pinned ptxas, and the
  // PTX and the manifest's source fields were just derived from the source.
  vo.skipReassembly = true;
  vo.skipSourceDerivation = true;
  int status = verify(o.outDir, vo);
  if (!haveDisasm)
    llvm::errs() << "rake-bundle: to finish this bundle, record the "
                    "disassembly of its cubin on a machine with the CUDA "
                    "toolkit's nvdisasm: `scripts/record-disasm.sh STORE "
                 << o.outDir << "` writes STORE/" << cubinSha
                 << ".json; then make the bundle again here with "
                    "--disasm-dir=STORE\n";
  return status;
}

//===----------------------------------------------------------------------===//
// Checking a bundle
//===----------------------------------------------------------------------===//

/// The first line at which two texts differ (1-based).
static size_t firstDifferentLine(const std::string &a, const std::string &b) {
  size_t line = 1;
  for (size_t i = 0; i < a.size() && i < b.size() && a[i] == b[i]; ++i)
    line += a[i] == '\n';
  return line;
}

static std::string launchText(const artifact::Launch &l) {
  return "block " + std::to_string(l.block[0]) + "x" +
         std::to_string(l.block[1]) + "x" + std::to_string(l.block[2]) +
         ", blocks_per_sm " + std::to_string(l.blocksPerSm) + ", cluster " +
         std::to_string(l.cluster) + ", dynamic_shared_bytes " +
         std::to_string(l.dynamicSharedBytes);
}

static std::string sourceParamText(const artifact::SourceParam &p) {
  std::string t = p.name + " (" + p.kind;
  if (p.kind == "buffer") {
    t += " of " + p.element + " in " + p.memory + ", extents [" +
         llvm::join(p.extents, ", ") + "]";
    if (!p.multipliedAs.empty())
      t += ", multiplied as " + p.multipliedAs;
  }
  return t + ")";
}

/// Compiles the bundle's source.mlir again and compares: kernel.ptx byte for
/// byte, then each kernel's roles, launch shape and signature. Rule `source`.
static void checkAgainstSource(const artifact::Manifest &m,
                               const artifact::Checked &c,
                               const profile::Profile &p,
                               const VerifyOptions &o,
                               std::vector<std::string> &errors) {
  auto bad = [&](const std::string &msg) {
    errors.push_back("bundle: " + msg + " [rule source]");
  };
  if (!o.deriveFromGpuIR) {
    bad("the bundle is made from GpuIR, and this verifier cannot compile "
        "source.mlir to confirm the manifest's roles, launch shape and "
        "signature (use rake-verify)");
    return;
  }
  SourceDerivation d;
  std::string error;
  if (!o.deriveFromGpuIR(c.sourceText, m.sourcePath, p, d, error)) {
    std::string first = error.substr(0, error.find('\n'));
    if (d.failedCheck)
      bad("source.mlir fails rake-check (" + first +
          "): a bundle is made only of a kernel the checks accept");
    else
      bad("source.mlir does not compile with this build (" + first +
          "), so nothing confirms the manifest's roles, launch shape and "
          "signature; remake the bundle with this rake-bundle");
    return;
  }
  if (d.ptx != c.ptxText) {
    bad("kernel.ptx is not the PTX that source.mlir compiles to (they differ "
        "from line " +
        std::to_string(firstDifferentLine(d.ptx, c.ptxText)) +
        "); the bundle was made by '" + m.compiler +
        "': remake it with this rake-bundle, or the PTX was replaced");
    return;
  }
  for (const artifact::KernelEntry &k : m.kernels) {
    std::string kn = "kernel '" + k.name + "': ";
    auto roles = d.roles.find(k.name);
    for (const artifact::Param &prm : k.params) {
      std::string want;
      if (roles != d.roles.end() && size_t(prm.index) < roles->second.size())
        want = roles->second[prm.index];
      if (prm.role != want)
        bad(kn + "parameter " + std::to_string(prm.index) + " (" + prm.name +
            ") has the role '" + prm.role + "' in the manifest; source.mlir "
            "gives '" + want + "'");
    }
    auto shape = d.launch.find(k.name);
    if (shape == d.launch.end()) {
      if (k.hasLaunch)
        bad(kn + "the manifest records a launch shape (" +
            launchText(k.launch) + "); source.mlir gives none");
    } else {
      const artifact::Launch &want = shape->second;
      if (!k.hasLaunch)
        bad(kn + "the manifest records no launch shape; source.mlir gives " +
            launchText(want));
      else if (!(k.launch == want))
        bad(kn + "the manifest's launch (" + launchText(k.launch) +
            ") is not what source.mlir gives (" + launchText(want) + ")");
    }
    auto sig = d.signatures.find(k.name);
    if (sig == d.signatures.end()) {
      if (k.hasSignature)
        bad(kn + "the manifest records a signature; source.mlir gives none");
      continue;
    }
    if (!k.hasSignature) {
      bad(kn + "the manifest records no signature; source.mlir gives one");
      continue;
    }
    if (k.signature.size() != sig->second.size()) {
      bad(kn + "the manifest's signature has " +
          std::to_string(k.signature.size()) + " parameters; source.mlir " +
          "declares " + std::to_string(sig->second.size()));
      continue;
    }
    for (size_t i = 0; i < k.signature.size(); ++i)
      if (!(k.signature[i] == sig->second[i]))
        bad(kn + "the manifest's signature gives parameter " +
            std::to_string(i) + " as " + sourceParamText(k.signature[i]) +
            "; source.mlir declares " + sourceParamText(sig->second[i]));
  }
}

int rake::bundle::verify(const std::string &dir, const VerifyOptions &o) {
  std::vector<std::string> errors;
  auto finish = [&]() {
    for (const std::string &e : errors)
      llvm::errs() << "rake-verify: error: " << e << "\n";
    if (errors.empty())
      llvm::outs() << "verified: " << dir << "\n";
    else
      llvm::outs() << "REJECTED: " << dir << ": " << errors.size()
                   << " error(s)\n";
    llvm::outs().flush();
    return errors.empty() ? 0 : 1;
  };

  // Everything that needs no disassembler: the checker the runtime runs.
  artifact::CheckOptions co;
  co.requiredProfile = o.requiredProfile;
  co.allowRelaxed = o.allowRelaxed;
  co.allowRepinned = o.allowRepinned;
  co.publicKeyPem = o.publicKeyPem;
  co.signatureRequired = o.signatureRequired;
  artifact::Checked c = artifact::checkBundle(dir, co);
  for (const artifact::Finding &f : c.findings)
    errors.push_back(artifact::format(f));
  if (!c.manifestRead || !c.profile || !c.cubinParsed)
    return finish();
  const artifact::Manifest &m = c.manifest;
  const profile::Profile &p = *c.profile;
  if (!c.signer.empty())
    llvm::outs() << "signed by ed25519 key " << c.signer << "\n";

  // The evidence for the instruction rules: live nvdisasm, or a recording
  // from a trusted store named by the cubin's hash. The bundle's own
  // disasm.json is bound only by the manifest, which whoever rewrites the
  // bundle rewrites too, so it is never the evidence; it must be the same
  // bytes as the trusted disassembly.
  std::string cubinSha = sha256Hex(c.cubinBytes), disasm, how, missing;
  bool haveDisasm = false;
  if (o.nvdisasm != "never")
    haveDisasm = getDisassembly(c.cubinBytes, cubinSha, o.nvdisasm,
                                {}, disasm, how, missing);
  if (!haveDisasm && (o.nvdisasm == "auto" || o.nvdisasm == "never")) {
    haveDisasm = getDisassembly(c.cubinBytes, cubinSha, "never",
                                o.disasmDirs, disasm, how, missing);
    if (!haveDisasm)
      missing = "the bundle's own disasm.json is not evidence (nothing but "
                "the rewritable manifest binds it to these bytes), " +
                std::string(o.nvdisasm == "never"
                                ? "nvdisasm was not run (--nvdisasm=never)"
                                : "nvdisasm is not on this machine") +
                ", and no trusted recording <sha256>.json was found" +
                std::string(o.disasmDirs.empty()
                                ? " (no --disasm-dir given)"
                                : " in the --disasm-dir folders") +
                "; run where nvdisasm exists or pass --disasm-dir=STORE";
  }
  if (haveDisasm && c.haveDisasm && c.disasmText != disasm)
    errors.push_back("bundle: the bundle's disasm.json (sha256 " +
                     m.disassembly.sha256 +
                     ") is not the disassembly of its cubin (" + how +
                     ", sha256 " + sha256Hex(disasm) + ") [rule evidence]");
  if (haveDisasm)
    llvm::outs() << "evidence: " << how << "\n";

  verifier::Options vo;
  vo.profile = &p;
  vo.ptx = c.ptxParsed ? &c.ptx : nullptr;
  vo.disasmJson = haveDisasm ? &disasm : nullptr;
  vo.disasmMissingReason = missing;
  for (const artifact::KernelEntry &k : m.kernels)
    if (k.sourceLoops >= 0)
      vo.sourceLoops[k.name] = int(k.sourceLoops);
  verifier::Result r = verifier::verify(c.cubin, cubinSha, vo);
  llvm::outs() << verifier::formatReport(r, p);
  for (const verifier::Finding &f : r.errors)
    errors.push_back(verifier::format(f));

  // The manifest's record of what the disassembly shows.
  for (const verifier::KernelReport &kr : r.kernels) {
    const artifact::KernelEntry *k = m.findKernel(kr.name);
    if (!k || !kr.disassembled)
      continue;
    std::map<std::string, int64_t> tensor;
    for (auto &[op, n] : kr.tensorCore)
      tensor[op] = n;
    if (k->backwardBranches != int64_t(kr.backwardBranches) ||
        k->tensorCore != tensor || k->subroutines != kr.subroutines)
      errors.push_back("bundle: kernel '" + kr.name +
                       "': the manifest's backward_branches, tensor_core or "
                       "subroutines differ from what the disassembly shows "
                       "[rule manifest]");
  }
  // What the source determines: a GpuIR bundle's source.mlir, compiled
  // again, must give kernel.ptx and every manifest field the cubin cannot
  // confirm (roles, launch shape, signature).
  if (m.sourceKind == "gpuir" && !o.skipSourceDerivation && c.haveSource) {
    size_t before = errors.size();
    checkAgainstSource(m, c, p, o, errors);
    if (errors.size() == before)
      llvm::outs() << "evidence: source.mlir compiles to kernel.ptx and to the "
                      "manifest's roles, launch shapes and signatures\n";
  } else if (m.sourceKind == "ptx") {
    // Nothing derives them: whoever signs the bundle vouches for them.
    llvm::outs() << "note: PTX input (source.kind \"ptx\", as the manifest "
                    "says): its launch shapes and parameter roles are the "
                    "manifest's own, checked against the cubin but not "
                    "derived from a source; only a signature binds them\n";
  }

  // The PTX is evidence too: it must be what the cubin was assembled from.
  // (Skipped once something is already wrong: the verdict is made.)
  if (errors.empty() && !o.skipReassembly) {
    std::string how;
    std::string why = reassemble(c.ptxText, c.cubinBytes, m, p, o.ptxas,
                                 o.allowRepinned, how);
    if (!why.empty())
      errors.push_back("bundle: " + why + " [rule evidence]");
    else
      llvm::outs() << "evidence: kernel.ptx assembles to kernel.cubin (" << how
                   << ")\n";
  }
  if (m.verifierVersion != verifier::kVersion)
    llvm::outs() << "note: made by verifier '" << m.verifierVersion
                 << "', re-verified by '" << verifier::kVersion << "'\n";
  if (errors.empty() && !o.signKeyPem.empty()) {
    std::string error;
    // The manifest checked above, by its hash: the file is not read again
    // (it could have been swapped while the checks ran).
    if (!artifact::signBundle(dir, c.manifestSha256, o.signKeyPem, error))
      errors.push_back("bundle: cannot sign: " + error + " [rule signature]");
    else
      llvm::outs() << "signed: " << dir << "/manifest.sig\n";
  }
  return finish();
}
