//===- Manifest.cpp - The one reader and checker of bundles ---------------===//
//
// See Manifest.h. Every check here answers from the bundle's own bytes and the
// profile table compiled into this library; none needs a disassembler, a
// driver or LLVM, so the C runtime runs all of them before it loads a cubin.
//
//===----------------------------------------------------------------------===//

#include "Rake/Artifact/Manifest.h"
#include "Rake/Artifact/Crypto.h"
#include "Rake/Artifact/Json.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <set>

using namespace rake;
using namespace rake::artifact;

const char *const rake::artifact::kFormat = "rake-bundle/2";

std::string rake::artifact::format(const Finding &f) {
  return "bundle: " + f.message + " [rule " + f.rule + "]";
}

bool rake::artifact::readFile(const std::string &path, std::string &out) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return false;
  out.assign(std::istreambuf_iterator<char>(in), {});
  return !in.bad();
}

const KernelEntry *Manifest::findKernel(const std::string &name) const {
  for (const KernelEntry &k : kernels)
    if (k.name == name)
      return &k;
  return nullptr;
}

std::string rake::artifact::profileSha256(const profile::Profile &p) {
  return crypto::sha256Hex(p.toJson());
}

std::string rake::artifact::signedMessage(const std::string &manifestSha256) {
  return "rake-bundle/2 verified manifest sha256 " + manifestSha256 + "\n";
}

//===----------------------------------------------------------------------===//
// The schema
//===----------------------------------------------------------------------===//

namespace {

using json::Value;

/// Reads one object's fields, each exactly once and of one type; what is left
/// unread when it is done is an unknown field.
class ObjectReader {
public:
  ObjectReader(const Value *v, std::string path, std::vector<Finding> &out)
      : v(v), path(std::move(path)), out(out) {}

  bool valid() const { return v && v->isObject(); }

  const Value *field(const std::string &name, Value::Kind kind,
                     bool required = true) {
    if (!valid())
      return nullptr;
    seen.insert(name);
    const Value *f = v->get(name);
    if (!f) {
      if (required)
        bad(at(name) + " is missing");
      return nullptr;
    }
    if (f->kind != kind) {
      bad(at(name) + " is " + json::kindName(f->kind) + ", not " +
          json::kindName(kind));
      return nullptr;
    }
    return f;
  }
  std::string str(const std::string &name, bool required = true) {
    const Value *f = field(name, Value::String, required);
    return f ? f->string : "";
  }
  /// A string that must be 64 lower-case hexadecimal digits.
  std::string sha(const std::string &name) {
    std::string s = str(name);
    if (valid() && v->get(name) && v->get(name)->isString() &&
        (s.size() != 64 ||
         s.find_first_not_of("0123456789abcdef") != std::string::npos))
      bad(at(name) + " is not a sha256 (64 lower-case hexadecimal digits)");
    return s;
  }
  int64_t integer(const std::string &name, int64_t lo, int64_t hi,
                  bool required = true) {
    const Value *f = field(name, Value::Integer, required);
    if (!f)
      return lo;
    if (f->integer < lo || f->integer > hi) {
      bad(at(name) + " is " + std::to_string(f->integer) + ", outside [" +
          std::to_string(lo) + ", " + std::to_string(hi) + "]");
      return lo;
    }
    return f->integer;
  }
  std::vector<std::string> strings(const std::string &name) {
    std::vector<std::string> out;
    if (const Value *a = field(name, Value::Array))
      for (size_t i = 0; i < a->items.size(); ++i) {
        if (!a->items[i].isString())
          bad(at(name) + "[" + std::to_string(i) + "] is " +
              json::kindName(a->items[i].kind) + ", not a string");
        else
          out.push_back(a->items[i].string);
      }
    return out;
  }
  std::vector<int64_t> integers(const std::string &name, size_t count,
                                int64_t lo, bool required) {
    std::vector<int64_t> out;
    const Value *a = field(name, Value::Array, required);
    if (!a)
      return out;
    if (a->items.size() != count) {
      bad(at(name) + " has " + std::to_string(a->items.size()) +
          " elements, not " + std::to_string(count));
      return out;
    }
    for (size_t i = 0; i < a->items.size(); ++i) {
      const Value &e = a->items[i];
      if (!e.isInteger() || e.integer < lo || e.integer > int64_t(UINT32_MAX)) {
        bad(at(name) + "[" + std::to_string(i) + "] is not an integer in [" +
            std::to_string(lo) + ", 2^32)");
        return {};
      }
      out.push_back(e.integer);
    }
    return out;
  }
  void oneOf(const std::string &name, const std::string &value,
             std::initializer_list<const char *> allowed) {
    if (!valid() || !v->get(name) || !v->get(name)->isString())
      return;
    for (const char *a : allowed)
      if (value == a)
        return;
    std::string list;
    for (const char *a : allowed)
      list += std::string(list.empty() ? "" : ", ") + "'" + a + "'";
    bad(at(name) + " is '" + value + "', not one of " + list);
  }
  /// Every field not read is unknown.
  void finish() {
    if (!valid())
      return;
    for (const auto &f : v->fields)
      if (!seen.count(f.first))
        bad(at(f.first) + " is not a field of the " + kFormat +
            " manifest");
  }
  std::string at(const std::string &name) const {
    return "manifest field " + (path.empty() ? name : path + "." + name);
  }
  void bad(const std::string &msg) { out.push_back({"manifest", msg}); }
  const Value *object() const { return v; }

private:
  const Value *v;
  std::string path;
  std::vector<Finding> &out;
  std::set<std::string> seen;
};

/// A sub-object: present and an object, or reported.
ObjectReader sub(ObjectReader &parent, const std::string &name,
                 std::vector<Finding> &out, bool required = true) {
  const Value *v = parent.field(name, Value::Object, required);
  return ObjectReader(v, parent.at(name).substr(15), out);
}

void readKernel(const Value &kv, const std::string &path, KernelEntry &k,
                std::vector<Finding> &out) {
  ObjectReader r(&kv, path, out);
  if (!r.valid()) {
    out.push_back({"manifest", "manifest field " + path + " is " +
                                   json::kindName(kv.kind) +
                                   ", not an object"});
    return;
  }
  const int64_t u32 = UINT32_MAX;
  k.name = r.str("name");
  k.sha256 = r.sha("sha256");
  k.textBytes = r.integer("text_bytes", 0, INT64_MAX);
  k.registers = r.integer("registers", 0, 255);
  k.sharedBytes = r.integer("shared_bytes", 0, u32);
  k.frameBytes = r.integer("frame_bytes", 0, u32);
  k.localBytes = r.integer("local_bytes", 0, u32);
  k.barriers = r.integer("barriers", 0, 16);
  k.sourceLoops = r.integer("source_loops", -1, u32);
  k.backwardBranches = r.integer("backward_branches", 0, u32);
  if (const Value *tc = r.field("tensor_core", Value::Object))
    for (const auto &f : tc->fields) {
      if (!f.second.isInteger() || f.second.integer < 1)
        out.push_back({"manifest", "manifest field " + path + ".tensor_core." +
                                       f.first +
                                       " is not a positive integer"});
      else
        k.tensorCore[f.first] = f.second.integer;
    }
  k.subroutines = r.strings("subroutines");
  k.maxThreads = r.integers("max_threads", 3, 1, /*required=*/false);
  ObjectReader abi = sub(r, "abi", out);
  k.abiVersion = abi.integer("version", 1, 1);
  k.paramBytes = abi.integer("param_bytes", 0, 32764);
  if (const Value *ps = abi.field("params", Value::Array))
    for (size_t i = 0; i < ps->items.size(); ++i) {
      std::string pp = path + ".abi.params[" + std::to_string(i) + "]";
      ObjectReader pr(&ps->items[i], pp, out);
      if (!pr.valid()) {
        out.push_back({"manifest", "manifest field " + pp + " is not an object"});
        continue;
      }
      Param p;
      p.index = pr.integer("index", 0, u32);
      p.name = pr.str("name");
      p.type = pr.str("type");
      p.offset = pr.integer("offset", 0, u32);
      p.size = pr.integer("size", 1, u32);
      p.align = pr.integer("align", 1, 256);
      p.role = pr.str("role", /*required=*/false);
      pr.finish();
      k.params.push_back(p);
    }
  abi.finish();
  if (const Value *lv = r.field("launch", Value::Object, /*required=*/false)) {
    ObjectReader lr(lv, path + ".launch", out);
    size_t before = out.size();
    std::vector<int64_t> block = lr.integers("block", 3, 1, true);
    k.launch.blocksPerSm = lr.integer("blocks_per_sm", 1, u32);
    k.launch.dynamicSharedBytes = lr.integer("dynamic_shared_bytes", 0, u32);
    k.launch.cluster = lr.integer("cluster", 1, u32);
    lr.finish();
    if (out.size() == before && block.size() == 3) {
      for (int i = 0; i < 3; ++i)
        k.launch.block[i] = block[i];
      k.hasLaunch = true;
    } else {
      out.push_back({"abi", "kernel '" + k.name +
                                "': the manifest's launch is malformed: it "
                                "needs block [x, y, z] of positive integers, "
                                "blocks_per_sm >= 1, dynamic_shared_bytes >= "
                                "0 and cluster >= 1"});
    }
  }
  r.finish();
}

} // namespace

bool rake::artifact::readManifest(const std::string &text, Manifest &m,
                                  std::vector<Finding> &out) {
  size_t before = out.size();
  Value root;
  std::string error;
  if (!json::parse(text, root, error)) {
    out.push_back({"manifest", "manifest.json is not strict JSON: " + error});
    return false;
  }
  ObjectReader r(&root, "", out);
  if (!r.valid()) {
    out.push_back({"manifest", "manifest.json is not a JSON object"});
    return false;
  }
  m.format = r.str("format");
  if (m.format != kFormat) {
    out.push_back({"manifest", "manifest.json is a '" + m.format +
                                   "' manifest, not " + kFormat +
                                   " (remake the bundle with this rake-bundle)"});
    return false;
  }
  m.status = r.str("status");
  r.oneOf("status", m.status, {"verified", "unverified"});
  m.profile = r.str("profile");
  m.profileSha256 = r.sha("profile_sha256");
  m.target = r.str("target");
  {
    ObjectReader s = sub(r, "source", out);
    m.sourcePath = s.str("path");
    m.sourceKind = s.str("kind");
    s.oneOf("kind", m.sourceKind, {"gpuir", "ptx"});
    m.sourceSha256 = s.sha("sha256");
    s.finish();
  }
  m.compiler = r.str("compiler");
  {
    ObjectReader p = sub(r, "ptx", out);
    m.ptx.file = p.str("file");
    m.ptx.sha256 = p.sha("sha256");
    m.ptxVersion = p.str("version");
    m.ptxTarget = p.str("target");
    p.finish();
  }
  {
    ObjectReader t = sub(r, "toolchain", out);
    ObjectReader px = sub(t, "ptxas", out);
    m.ptxasPath = px.str("path");
    m.ptxasVersion = px.str("version");
    m.ptxasSha256 = px.sha("sha256");
    m.ptxasPinnedBy = px.str("pinned_by");
    px.oneOf("pinned_by", m.ptxasPinnedBy, {"profile", "repin"});
    px.finish();
    ObjectReader nd = sub(t, "nvdisasm", out, /*required=*/false);
    if (nd.valid()) {
      m.hasNvdisasm = true;
      m.nvdisasmPath = nd.str("path");
      m.nvdisasmVersion = nd.str("version");
      m.nvdisasmSha256 = nd.sha("sha256");
      nd.finish();
    }
    t.finish();
  }
  m.ptxasFlags = r.strings("ptxas_flags");
  {
    ObjectReader c = sub(r, "cubin", out);
    m.cubin.file = c.str("file");
    m.cubin.sha256 = c.sha("sha256");
    m.cubinBytes = c.integer("bytes", 0, INT64_MAX);
    m.cubinArch = c.str("arch");
    m.cubinElfFlags = c.str("elf_flags");
    m.cubinToolVersion = c.str("tool_version");
    c.finish();
  }
  if (const Value *d = root.get("disassembly"); d && d->kind == Value::Null) {
    r.field("disassembly", Value::Null);
  } else {
    ObjectReader d2 = sub(r, "disassembly", out);
    if (d2.valid()) {
      m.hasDisassembly = true;
      m.disassembly.file = d2.str("file");
      m.disassembly.sha256 = d2.sha("sha256");
      m.disassemblyProducer = d2.str("producer");
      m.disassemblyObtained = d2.str("obtained");
      d2.finish();
    }
  }
  {
    ObjectReader v = sub(r, "verifier", out);
    m.verifierVersion = v.str("version");
    m.verifierErrors = v.strings("errors");
    v.finish();
  }
  if (const Value *ks = r.field("kernels", Value::Array)) {
    if (ks->items.empty())
      out.push_back({"manifest", "the manifest lists no kernels"});
    for (size_t i = 0; i < ks->items.size(); ++i) {
      KernelEntry k;
      readKernel(ks->items[i], "kernels[" + std::to_string(i) + "]", k, out);
      m.kernels.push_back(std::move(k));
    }
  }
  r.finish();
  return out.size() == before;
}

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
  if (m.target != p.target)
    bad("manifest", "the manifest's target is " + m.target + "; profile " +
                        p.name + " targets " + p.target);

  if (o.publicKeyPem.empty())
    return;
  std::string sig, fp = crypto::fingerprint(o.publicKeyPem);
  if (fp.empty()) {
    bad("signature", "the public key given is not an Ed25519 public key in "
                     "PEM form");
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
  std::string sha = crypto::sha256Hex(c.cubinBytes.substr(ck.textOffset, ck.textSize));
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
    long arg = std::stol(r.substr(3, dot - 3));
    if (arg <= last)
      return refuse(i, "comes after argument " + std::to_string(last));
    last = arg;
    std::string a = "arg" + std::to_string(arg) + ".";
    if (r == a + "index") {
      ++i;
      continue;
    }
    if (r != a + "allocated" || i + 2 >= rs.size() ||
        rs[i + 1] != a + "aligned" || rs[i + 2] != a + "offset")
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
                                const std::string &privatePem,
                                std::string &error) {
  std::string text, pub, sig;
  if (!readFile(dir + "/manifest.json", text)) {
    error = "no manifest.json in " + dir;
    return false;
  }
  if (!crypto::publicOf(privatePem, pub, error) ||
      !crypto::sign(privatePem, signedMessage(crypto::sha256Hex(text)), sig,
                    error))
    return false;
  std::ofstream out(dir + "/manifest.sig", std::ios::binary | std::ios::trunc);
  out << "ed25519 " << crypto::fingerprint(pub) << " " << sig << "\n";
  if (!out) {
    error = "cannot write " + dir + "/manifest.sig";
    return false;
  }
  return true;
}
