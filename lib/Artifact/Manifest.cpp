//===- Manifest.cpp - The one reader and checker of bundles ---------------===//
//
// See Manifest.h: the rake-bundle/3 schema (readManifest) and what both the
// writer and the checker (BundleCheck.cpp) share.
//
//===----------------------------------------------------------------------===//

#include "Rake/Artifact/Manifest.h"
#include "Rake/Artifact/Crypto.h"
#include "Rake/Artifact/Json.h"

#include <algorithm>
#include <cstdio>
#include <sys/stat.h>
#include <fstream>
#include <iterator>
#include <set>

using namespace rake;
using namespace rake::artifact;

const char *const rake::artifact::kFormat = "rake-bundle/3";

std::string rake::artifact::format(const Finding &f) {
  return "bundle: " + f.message + " [rule " + f.rule + "]";
}

bool rake::artifact::readFile(const std::string &path, std::string &out) {
  // Only a regular file, and not an endless or huge one: a directory, a
  // FIFO (which could serve one reader other bytes than the next) or a
  // device in its place is refused as missing, never read.
  struct stat st;
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) ||
      st.st_size > kMaxFileBytes)
    return false;
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
  return std::string(kFormat) + " verified manifest sha256 " + manifestSha256 + "\n";
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
  if (const Value *sv = r.field("signature", Value::Array, /*required=*/false)) {
    k.hasSignature = true;
    for (size_t i = 0; i < sv->items.size(); ++i) {
      std::string sp = path + ".signature[" + std::to_string(i) + "]";
      ObjectReader pr(&sv->items[i], sp, out);
      if (!pr.valid()) {
        out.push_back({"manifest", "manifest field " + sp + " is not an object"});
        continue;
      }
      SourceParam p;
      p.name = pr.str("name");
      p.kind = pr.str("kind");
      pr.oneOf("kind", p.kind, {"index", "buffer", "tensor_map"});
      if (p.kind == "buffer") {
        p.element = pr.str("element");
        p.memory = pr.str("memory");
        p.extents = pr.strings("extents");
        p.multipliedAs = pr.str("multiplied_as", /*required=*/false);
      }
      pr.finish();
      k.signature.push_back(p);
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
    m.sourceFile = s.str("file");
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

