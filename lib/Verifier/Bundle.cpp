//===- Bundle.cpp - Making and checking artifact bundles ------------------===//

#include "Rake/Verifier/Bundle.h"
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
  return llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(bytes)),
                     /*LowerCase=*/true);
}

bool rake::bundle::readFile(const std::string &path, std::string &out) {
  auto buf = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  if (!buf)
    return false;
  out = (*buf)->getBuffer().str();
  return true;
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
  return sha256Hex(bytes.substr(k.textOffset, k.textSize));
}

/// Finds the disassembly: live nvdisasm, else a recorded <sha>.json.
bool getDisassembly(const std::string &cubinPath, const std::string &sha,
                    const std::string &nvdisasm,
                    const std::vector<std::string> &dirs, std::string &json,
                    std::string &how, std::string &missing,
                    std::string *toolPath = nullptr) {
  if (nvdisasm != "never") {
    std::string tool = findTool(nvdisasm == "auto" ? "nvdisasm" : nvdisasm);
    if (!tool.empty()) {
      std::string out, err;
      if (runTool(tool, {"-json", cubinPath}, out, err) == 0) {
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

/// Reads a manifest's launch object; false when it is not one.
bool readLaunch(const json::Object &lo, LaunchShape &s) {
  auto in = [](std::optional<int64_t> v, int64_t lo) {
    return v && *v >= lo && *v <= int64_t(UINT32_MAX);
  };
  const json::Array *b = lo.getArray("block");
  if (!b || b->size() != 3)
    return false;
  for (size_t i = 0; i < 3; ++i) {
    if (!in((*b)[i].getAsInteger(), 1))
      return false;
    s.block[i] = *(*b)[i].getAsInteger();
  }
  if (!in(lo.getInteger("blocks_per_sm"), 1) ||
      !in(lo.getInteger("dynamic_shared_bytes"), 0))
    return false;
  s.blocksPerSm = *lo.getInteger("blocks_per_sm");
  s.dynamicSharedBytes = *lo.getInteger("dynamic_shared_bytes");
  // Bundles made before clusters were lowered have no cluster: 1.
  if (lo.get("cluster")) {
    if (!in(lo.getInteger("cluster"), 1))
      return false;
    s.cluster = *lo.getInteger("cluster");
  }
  return true;
}

std::string dims(const std::vector<int64_t> &d) {
  std::string s;
  for (int64_t v : d)
    s += (s.empty() ? "" : "x") + std::to_string(v);
  return s;
}

/// The launch shape's rules (rule abi): a kernel that declares dynamic
/// shared memory has one; the block fits the cubin's EIATTR_MAX_THREADS and
/// the profile's CTA; the dynamic plus the cubin's static shared memory fit
/// the profile's per-CTA limit. \p launch is the kernel's manifest object,
/// or null.
std::vector<std::string> launchErrors(const std::string &name,
                                      const json::Object *launch,
                                      const cubin::Kernel &k,
                                      const verifier::PtxEntry *e,
                                      const profile::Profile &p) {
  std::vector<std::string> errs;
  std::string kn = "kernel '" + name + "': ";
  if (!launch) {
    if (e && e->externShared)
      errs.push_back(kn + "its PTX declares .extern .shared (dynamic shared "
                          "memory) but the manifest records no launch shape, "
                          "so no launch can know its size (for PTX input, "
                          "rake-bundle --dynamic-shared-bytes=N records it)");
    return errs;
  }
  LaunchShape s;
  if (!readLaunch(*launch, s)) {
    errs.push_back(kn + "the manifest's launch is malformed: it needs block "
                        "[x, y, z] of positive integers, blocks_per_sm >= 1 "
                        "and dynamic_shared_bytes >= 0");
    return errs;
  }
  std::vector<int64_t> block(s.block, s.block + 3);
  std::vector<int64_t> maxThreads(k.maxThreads.begin(), k.maxThreads.end());
  bool over = false;
  for (size_t i = 0; i < maxThreads.size() && i < 3; ++i)
    over |= block[i] > maxThreads[i];
  if (over)
    errs.push_back(kn + "the launch block " + dims(block) +
                   " exceeds the cubin's EIATTR_MAX_THREADS " +
                   dims(maxThreads));
  int64_t threads = block[0] * block[1] * block[2];
  if (threads > int64_t(p.maxThreadsPerCta))
    errs.push_back(kn + "the launch block " + dims(block) + " has " +
                   std::to_string(threads) + " threads; profile " + p.name +
                   " allows at most " + std::to_string(p.maxThreadsPerCta) +
                   " per CTA");
  int64_t total = s.dynamicSharedBytes + int64_t(k.sharedSize);
  if (total > int64_t(p.maxSharedBytesPerCta))
    errs.push_back(kn + "launch.dynamic_shared_bytes " +
                   std::to_string(s.dynamicSharedBytes) +
                   " plus the cubin's static shared memory " +
                   std::to_string(k.sharedSize) + " (.nv.shared." + name +
                   ") is " + std::to_string(total) + " bytes; profile " +
                   p.name + " allows at most " +
                   std::to_string(p.maxSharedBytesPerCta) + " per CTA");
  return errs;
}

} // namespace

int rake::bundle::make(const MakeOptions &o) {
  const profile::Profile &p = *o.profile;
  llvm::errs().SetUnbuffered();
  auto fail = [&](const std::string &msg) {
    llvm::errs() << "rake-bundle: error: " << msg << "\n";
    return 2;
  };
  if (std::error_code ec = llvm::sys::fs::create_directories(o.outDir))
    return fail("cannot create " + o.outDir + ": " + ec.message());

  // The toolchain: ptxas by hash, against the profile's pins.
  std::string ptxas = findTool(o.ptxas.empty() ? "ptxas" : o.ptxas);
  if (ptxas.empty())
    return fail("ptxas not found (on PATH or under /usr/local/cuda/bin); "
                "pass --ptxas=PATH");
  std::string ptxasBytes, out, err;
  if (!readFile(ptxas, ptxasBytes))
    return fail("cannot read " + ptxas);
  std::string ptxasSha = sha256Hex(ptxasBytes);
  runTool(ptxas, {"--version"}, out, err);
  std::string ptxasVersion = toolVersion(out);
  std::string pinnedBy;
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

  // Assemble.
  std::string ptxPath = o.outDir + "/kernel.ptx",
              cubinPath = o.outDir + "/kernel.cubin";
  if (!writeFile(ptxPath, o.ptx))
    return fail("cannot write " + ptxPath);
  std::vector<std::string> args = p.ptxasFlags;
  args.push_back(ptxPath);
  args.push_back("-o");
  args.push_back(cubinPath);
  if (runTool(ptxas, args, out, err) != 0)
    return fail("ptxas failed: " + llvm::StringRef(err).trim().str());
  if (!llvm::StringRef(err).trim().empty())
    llvm::errs() << llvm::StringRef(err).trim() << "\n";
  std::string cubinBytes;
  if (!readFile(cubinPath, cubinBytes))
    return fail("ptxas wrote no " + cubinPath);
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
      getDisassembly(cubinPath, cubinSha, o.nvdisasm, o.disasmDirs, disasm,
                     how, missing, &nvdisasmPath);
  verifier::Options vo;
  vo.profile = &p;
  vo.ptx = &ptx;
  vo.disasmJson = haveDisasm ? &disasm : nullptr;
  vo.disasmMissingReason = missing;
  verifier::Result r = verifier::verify(c, cubinSha, vo);

  // Cross-check the ABI the PTX signature gives with KPARAM_INFO.
  json::Array kernels;
  std::vector<std::string> launchErrs;
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
    for (const std::string &msg :
         launchErrors(k.name, ko.getObject("launch"), *ck, e, p))
      launchErrs.push_back("bundle: " + msg + " [rule abi]");
    kernels.push_back(std::move(ko));
  }

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
  for (const std::string &msg : launchErrs)
    errors.push_back(msg);
  bool verified = r.ok() && launchErrs.empty();

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
  json::Object manifest{
      {"format", "rake-bundle/1"},
      {"status", verified ? "verified" : "unverified"},
      {"profile", p.name},
      {"target", p.target},
      {"source",
       json::Object{{"path", o.sourcePath},
                    {"kind", o.sourceKind},
                    {"sha256", sha256Hex(o.sourceText)}}},
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
  std::string text = llvm::formatv("{0:2}", json::Value(std::move(manifest)));
  text += "\n";
  if (!writeFile(o.outDir + "/manifest.json", text) ||
      !writeFile(o.outDir + "/manifest.sha256",
                 sha256Hex(text) + "  manifest.json\n"))
    return fail("cannot write the manifest in " + o.outDir);
  llvm::outs() << "bundle " << o.outDir << ": "
               << (verified ? "verified" : "NOT verified") << "\n";
  VerifyOptions vo2;
  vo2.allowRepinned = o.repin;
  return verify(o.outDir, vo2);
}

//===----------------------------------------------------------------------===//
// Checking a bundle
//===----------------------------------------------------------------------===//

int rake::bundle::verify(const std::string &dir, const VerifyOptions &o) {
  std::vector<std::string> errors;
  auto bad = [&](const std::string &rule, const std::string &msg) {
    errors.push_back("bundle: " + msg + " [rule " + rule + "]");
  };
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

  std::string text, seal;
  if (!readFile(dir + "/manifest.json", text)) {
    bad("manifest", "no manifest.json in " + dir);
    return finish();
  }
  if (!readFile(dir + "/manifest.sha256", seal))
    bad("manifest", "no manifest.sha256 (the manifest's seal)");
  else if (llvm::StringRef(seal).split(' ').first != sha256Hex(text))
    bad("manifest", "manifest.json has sha256 " + sha256Hex(text) +
                        "; manifest.sha256 says " +
                        llvm::StringRef(seal).split(' ').first.str() +
                        ": the manifest was changed after it was sealed");
  auto v = json::parse(text);
  if (!v) {
    bad("manifest", "manifest.json is not JSON: " + llvm::toString(v.takeError()));
    return finish();
  }
  const json::Object *m = v->getAsObject();
  if (!m || jstr(m, "format") != "rake-bundle/1") {
    bad("manifest", "manifest.json is not a rake-bundle/1 manifest");
    return finish();
  }
  const profile::Profile *p = profile::findProfile(jstr(m, "profile"));
  if (!p) {
    bad("manifest", "unknown profile '" + jstr(m, "profile") + "'");
    return finish();
  }
  if (jstr(m, "status") != "verified")
    bad("status", "the manifest's status is '" + jstr(m, "status") +
                      "': the bundle was not verified when it was made");
  if (jstr(m, "target") != p->target)
    bad("manifest", "the manifest's target is " + jstr(m, "target") +
                        "; profile " + p->name + " targets " + p->target);

  // Files against their hashes.
  const json::Object *cm = m->getObject("cubin");
  const json::Object *pm = m->getObject("ptx");
  std::string cubinBytes, ptxText, disasm;
  if (!cm || !readFile(dir + "/" + jstr(cm, "file"), cubinBytes)) {
    bad("integrity", "the cubin named by the manifest cannot be read");
    return finish();
  }
  std::string cubinSha = sha256Hex(cubinBytes);
  if (cubinSha != jstr(cm, "sha256"))
    bad("integrity", "kernel.cubin has sha256 " + cubinSha +
                         "; the manifest binds " + jstr(cm, "sha256"));
  bool havePtx = pm && readFile(dir + "/" + jstr(pm, "file"), ptxText);
  if (!havePtx)
    bad("integrity", "the PTX named by the manifest cannot be read");
  else if (sha256Hex(ptxText) != jstr(pm, "sha256"))
    bad("integrity", "kernel.ptx has sha256 " + sha256Hex(ptxText) +
                         "; the manifest binds " + jstr(pm, "sha256"));
  const json::Object *dm = m->getObject("disassembly");
  bool haveDisasm = false;
  std::string missing = "the manifest records none";
  if (o.nvdisasm != "never") {
    std::string how;
    haveDisasm = getDisassembly(dir + "/kernel.cubin", cubinSha, o.nvdisasm,
                                {}, disasm, how, missing);
  } else if (dm) {
    haveDisasm = readFile(dir + "/" + jstr(dm, "file"), disasm);
    if (!haveDisasm)
      missing = "the manifest's disassembly file cannot be read";
    else if (sha256Hex(disasm) != jstr(dm, "sha256")) {
      bad("integrity", "disasm.json has sha256 " + sha256Hex(disasm) +
                           "; the manifest binds " + jstr(dm, "sha256"));
    }
  }

  // Toolchain and flags.
  const json::Object *tc = m->getObject("toolchain");
  const json::Object *px = tc ? tc->getObject("ptxas") : nullptr;
  std::string pinnedBy = jstr(px, "pinned_by");
  bool pinOk = false;
  for (const profile::ToolPin &pin : p->pins)
    if (pin.tool == "ptxas" && pin.version == jstr(px, "version") &&
        pin.sha256 == jstr(px, "sha256"))
      pinOk = true;
  if (!pinOk && !(pinnedBy == "repin" && o.allowRepinned))
    bad("toolchain",
        "ptxas " + jstr(px, "version") + " sha256 " + jstr(px, "sha256") +
            " is not pinned by profile " + p->name +
            (pinnedBy == "repin" ? " (the bundle was re-pinned; pass "
                                   "--allow-repinned to accept it)"
                                 : ""));
  std::vector<std::string> flags;
  if (const json::Array *fa = m->getArray("ptxas_flags"))
    for (const json::Value &f : *fa)
      if (auto s = f.getAsString())
        flags.push_back(s->str());
  if (flags != p->ptxasFlags)
    bad("flags", "the manifest's ptxas flags '" + joinFlags(flags) +
                     "' are not profile " + p->name + "'s '" +
                     joinFlags(p->ptxasFlags) + "'");

  // The cubin itself.
  std::vector<uint8_t> bytes(cubinBytes.begin(), cubinBytes.end());
  cubin::Cubin c;
  std::string perr;
  if (!cubin::parse(bytes, c, perr)) {
    bad("elf", "kernel.cubin: " + perr);
    return finish();
  }
  if (c.archName() != jstr(cm, "arch") || c.archName() != jstr(m, "target"))
    bad("architecture", "the cubin is for " + c.archName() +
                            "; the manifest says cubin.arch " +
                            jstr(cm, "arch") + ", target " + jstr(m, "target"));
  if (cubin::splitOptions(c.toolOptions) !=
      cubin::splitOptions(joinFlags(flags)))
    bad("flags", "the cubin's ptxas note records options '" +
                     llvm::StringRef(c.toolOptions).trim().str() +
                     "'; the manifest says '" + joinFlags(flags) + "'");
  if (!llvm::StringRef(c.toolVersion).ends_with(", " + jstr(px, "version")))
    bad("toolchain", "the cubin was made by '" + c.toolVersion +
                         "'; the manifest says ptxas " + jstr(px, "version"));

  verifier::PtxInfo ptx;
  bool ptxOk = havePtx && verifier::parsePtx(ptxText, ptx, perr);
  if (havePtx && !ptxOk)
    bad("evidence", "kernel.ptx: " + perr);
  verifier::Options vo;
  vo.profile = p;
  vo.ptx = ptxOk ? &ptx : nullptr;
  vo.disasmJson = haveDisasm ? &disasm : nullptr;
  vo.disasmMissingReason = missing;

  // Kernels: the manifest's list, hashes, resources and ABI against the cubin.
  const json::Array *ka = m->getArray("kernels");
  std::set<std::string> listed;
  if (ka)
    for (const json::Value &kv : *ka) {
      const json::Object *ko = kv.getAsObject();
      std::string name = jstr(ko, "name");
      listed.insert(name);
      const cubin::Kernel *k = c.findKernel(name);
      if (!k) {
        bad("manifest", "the manifest lists kernel '" + name +
                            "', which the cubin does not hold");
        continue;
      }
      if (auto sl = ko->getInteger("source_loops"))
        if (*sl >= 0)
          vo.sourceLoops[name] = int(*sl);
      std::string ksha = kernelSha(c, *k, cubinBytes);
      if (ksha != jstr(ko, "sha256"))
        bad("integrity", "kernel '" + name + "' (.text." + name +
                             ") has sha256 " + ksha + "; the manifest binds " +
                             jstr(ko, "sha256"));
      auto num = [&](llvm::StringRef key) {
        return ko->getInteger(key).value_or(-1);
      };
      if (num("registers") != int64_t(k->regCount) ||
          num("shared_bytes") != int64_t(k->sharedSize) ||
          num("frame_bytes") != int64_t(k->frameSize) ||
          num("local_bytes") != int64_t(k->localSize))
        bad("manifest", "kernel '" + name +
                            "': the manifest's registers, shared, frame or "
                            "local bytes differ from the cubin's .nv.info");
      std::vector<uint32_t> maxThreads;
      if (const json::Array *mt = ko->getArray("max_threads"))
        for (const json::Value &t : *mt)
          maxThreads.push_back(uint32_t(t.getAsInteger().value_or(-1)));
      if (maxThreads != k->maxThreads)
        bad("abi", "kernel '" + name +
                       "': the manifest's max_threads differ from the "
                       "cubin's EIATTR_MAX_THREADS");
      const verifier::PtxEntry *e = ptxOk ? ptx.findEntry(name) : nullptr;
      for (const std::string &msg :
           launchErrors(name, ko->getObject("launch"), *k, e, *p))
        bad("abi", msg);
      const json::Object *abi = ko->getObject("abi");
      const json::Array *params = abi ? abi->getArray("params") : nullptr;
      if (!abi || abi->getInteger("version").value_or(0) != 1 || !params) {
        bad("abi", "kernel '" + name + "': no version 1 parameter layout");
        continue;
      }
      uint32_t bank = k->hasCbankParamSize ? k->cbankParamSize : k->paramBankSize;
      if (abi->getInteger("param_bytes").value_or(-1) != int64_t(bank))
        bad("abi", "kernel '" + name + "': the manifest's param_bytes " +
                       std::to_string(abi->getInteger("param_bytes").value_or(-1)) +
                       " differ from the cubin's EIATTR_CBANK_PARAM_SIZE " +
                       std::to_string(bank));
      if (params->size() != k->params.size()) {
        bad("abi", "kernel '" + name + "': the manifest lists " +
                       std::to_string(params->size()) +
                       " parameters, the cubin's EIATTR_KPARAM_INFO " +
                       std::to_string(k->params.size()));
        continue;
      }
      for (size_t i = 0; i < params->size(); ++i) {
        const json::Object *po = (*params)[i].getAsObject();
        int64_t off = po ? po->getInteger("offset").value_or(-1) : -1;
        int64_t size = po ? po->getInteger("size").value_or(-1) : -1;
        int64_t align = po ? po->getInteger("align").value_or(-1) : -1;
        const cubin::KParam &kp = k->params[i];
        if (kp.ordinal != i || off != kp.offset || size != kp.size)
          bad("abi", "kernel '" + name + "' parameter " + std::to_string(i) +
                         ": the manifest says offset " + std::to_string(off) +
                         ", size " + std::to_string(size) +
                         "; EIATTR_KPARAM_INFO says ordinal " +
                         std::to_string(kp.ordinal) + ", offset " +
                         std::to_string(kp.offset) + ", size " +
                         std::to_string(kp.size));
        else if (align <= 0 || off % align)
          bad("abi", "kernel '" + name + "' parameter " + std::to_string(i) +
                         ": offset " + std::to_string(off) +
                         " is not a multiple of its alignment " +
                         std::to_string(align));
        if (e && i < e->params.size() &&
            (e->params[i].offset != off || e->params[i].size != size ||
             e->params[i].align != align))
          bad("abi", "kernel '" + name + "' parameter " + std::to_string(i) +
                         ": the manifest's layout differs from the PTX "
                         "signature's (offset " +
                         std::to_string(e->params[i].offset) + ", size " +
                         std::to_string(e->params[i].size) + ", align " +
                         std::to_string(e->params[i].align) + ")");
      }
    }
  for (const cubin::Kernel &k : c.kernels)
    if (!listed.count(k.name))
      bad("manifest", "the cubin holds kernel '" + k.name +
                          "', which the manifest does not list");

  verifier::Result r = verifier::verify(c, cubinSha, vo);
  llvm::outs() << verifier::formatReport(r, *p);
  for (const verifier::Finding &f : r.errors)
    errors.push_back(verifier::format(f));
  if (const json::Object *vm = m->getObject("verifier"))
    if (jstr(vm, "version") != verifier::kVersion)
      llvm::outs() << "note: made by verifier '" << jstr(vm, "version")
                   << "', re-verified by '" << verifier::kVersion << "'\n";
  return finish();
}
