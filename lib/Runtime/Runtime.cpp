//===- Runtime.cpp - Load and launch verified Rake kernels ----------------===//
//
// Plain C++17 with no LLVM and no CUDA headers: it builds with
//   g++ -std=c++17 -Iinclude lib/Runtime/Runtime.cpp lib/Verifier/Cubin.cpp -ldl
// The few CUDA driver types and entry points it uses are declared here and
// resolved with dlopen/dlsym when a module is loaded.
//
//===----------------------------------------------------------------------===//

#include "rake/runtime.h"

#include "Rake/Verifier/Cubin.h"

#include <dlfcn.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace {

//===----------------------------------------------------------------------===//
// SHA-256 (FIPS 180-4)
//===----------------------------------------------------------------------===//

struct Sha256 {
  uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  static uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }
  void block(const uint8_t *p) {
    static const uint32_t k[64] = {
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
        0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
        0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
        0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
        0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
        0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
        0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
        0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};
    uint32_t w[64];
    for (int i = 0; i < 16; ++i)
      w[i] = uint32_t(p[4 * i]) << 24 | uint32_t(p[4 * i + 1]) << 16 |
             uint32_t(p[4 * i + 2]) << 8 | p[4 * i + 3];
    for (int i = 16; i < 64; ++i) {
      uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
      uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5],
             g = h[6], hh = h[7];
    for (int i = 0; i < 64; ++i) {
      uint32_t t1 = hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) +
                    ((e & f) ^ (~e & g)) + k[i] + w[i];
      uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) +
                    ((a & b) ^ (a & c) ^ (b & c));
      hh = g;
      g = f;
      f = e;
      e = d + t1;
      d = c;
      c = b;
      b = a;
      a = t1 + t2;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d;
    h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
  }
  static std::string hex(const uint8_t *data, size_t n) {
    Sha256 s;
    size_t i = 0;
    for (; i + 64 <= n; i += 64)
      s.block(data + i);
    uint8_t tail[128] = {0};
    size_t rest = n - i;
    std::memcpy(tail, data + i, rest);
    tail[rest] = 0x80;
    size_t len = rest + 1 + 8 <= 64 ? 64 : 128;
    uint64_t bits = uint64_t(n) * 8;
    for (int j = 0; j < 8; ++j)
      tail[len - 1 - j] = uint8_t(bits >> (8 * j));
    s.block(tail);
    if (len == 128)
      s.block(tail + 64);
    static const char *digits = "0123456789abcdef";
    std::string out;
    for (uint32_t v : s.h)
      for (int j = 28; j >= 0; j -= 4)
        out.push_back(digits[(v >> j) & 15]);
    return out;
  }
};

std::string sha256(const std::string &s) {
  return Sha256::hex(reinterpret_cast<const uint8_t *>(s.data()), s.size());
}

//===----------------------------------------------------------------------===//
// A small JSON reader for the manifest
//===----------------------------------------------------------------------===//

struct Json {
  enum Kind { Null, Bool, Number, String, Array, Object } kind = Null;
  bool b = false;
  double num = 0;
  std::string str;
  std::vector<Json> items;
  std::map<std::string, Json> fields;

  const Json *get(const std::string &key) const {
    auto it = fields.find(key);
    return kind == Object && it != fields.end() ? &it->second : nullptr;
  }
  std::string getString(const std::string &key) const {
    const Json *v = get(key);
    return v && v->kind == String ? v->str : "";
  }
  long long getInt(const std::string &key, long long dflt = -1) const {
    const Json *v = get(key);
    return v && v->kind == Number ? (long long)v->num : dflt;
  }
};

struct JsonParser {
  const std::string &s;
  size_t i = 0;
  std::string error;
  void ws() {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\n' || s[i] == '\t' || s[i] == '\r'))
      ++i;
  }
  bool fail(const std::string &why) {
    if (error.empty())
      error = why + " at byte " + std::to_string(i);
    return false;
  }
  bool parse(Json &v, int depth = 0) {
    if (depth > 64)
      return fail("nesting too deep");
    ws();
    if (i >= s.size())
      return fail("unexpected end");
    char c = s[i];
    if (c == '{') {
      v.kind = Json::Object;
      ++i;
      ws();
      if (i < s.size() && s[i] == '}') {
        ++i;
        return true;
      }
      while (true) {
        ws();
        Json key;
        if (i >= s.size() || s[i] != '"' || !parseString(key.str))
          return fail("expected a field name");
        ws();
        if (i >= s.size() || s[i++] != ':')
          return fail("expected ':'");
        Json val;
        if (!parse(val, depth + 1))
          return false;
        v.fields[key.str] = std::move(val);
        ws();
        if (i < s.size() && s[i] == ',') {
          ++i;
          continue;
        }
        if (i < s.size() && s[i] == '}') {
          ++i;
          return true;
        }
        return fail("expected ',' or '}'");
      }
    }
    if (c == '[') {
      v.kind = Json::Array;
      ++i;
      ws();
      if (i < s.size() && s[i] == ']') {
        ++i;
        return true;
      }
      while (true) {
        Json val;
        if (!parse(val, depth + 1))
          return false;
        v.items.push_back(std::move(val));
        ws();
        if (i < s.size() && s[i] == ',') {
          ++i;
          continue;
        }
        if (i < s.size() && s[i] == ']') {
          ++i;
          return true;
        }
        return fail("expected ',' or ']'");
      }
    }
    if (c == '"') {
      v.kind = Json::String;
      return parseString(v.str);
    }
    if (s.compare(i, 4, "true") == 0) {
      v.kind = Json::Bool;
      v.b = true;
      i += 4;
      return true;
    }
    if (s.compare(i, 5, "false") == 0) {
      v.kind = Json::Bool;
      i += 5;
      return true;
    }
    if (s.compare(i, 4, "null") == 0) {
      i += 4;
      return true;
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
      size_t j = i;
      while (j < s.size() && std::strchr("+-.eE0123456789", s[j]))
        ++j;
      v.kind = Json::Number;
      v.num = std::strtod(s.substr(i, j - i).c_str(), nullptr);
      i = j;
      return true;
    }
    return fail("unexpected character");
  }
  bool parseString(std::string &out) {
    ++i; // the opening quote
    while (i < s.size() && s[i] != '"') {
      char c = s[i++];
      if (c != '\\') {
        out.push_back(c);
        continue;
      }
      if (i >= s.size())
        return fail("unterminated escape");
      char e = s[i++];
      switch (e) {
      case 'n': out.push_back('\n'); break;
      case 't': out.push_back('\t'); break;
      case 'r': out.push_back('\r'); break;
      case 'b': out.push_back('\b'); break;
      case 'f': out.push_back('\f'); break;
      case 'u': {
        if (i + 4 > s.size())
          return fail("bad \\u escape");
        unsigned cp = std::strtoul(s.substr(i, 4).c_str(), nullptr, 16);
        i += 4;
        if (cp < 0x80) {
          out.push_back(char(cp));
        } else if (cp < 0x800) {
          out.push_back(char(0xc0 | (cp >> 6)));
          out.push_back(char(0x80 | (cp & 0x3f)));
        } else {
          out.push_back(char(0xe0 | (cp >> 12)));
          out.push_back(char(0x80 | ((cp >> 6) & 0x3f)));
          out.push_back(char(0x80 | (cp & 0x3f)));
        }
        break;
      }
      default: out.push_back(e);
      }
    }
    if (i >= s.size())
      return fail("unterminated string");
    ++i;
    return true;
  }
};

//===----------------------------------------------------------------------===//
// The CUDA driver, opened at run time
//===----------------------------------------------------------------------===//

typedef int CUresult;
typedef int CUdevice;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUctx_st *CUcontext;
typedef struct CUstream_st *CUstream;
enum { kCcMajor = 75, kCcMinor = 76 }; // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_*
enum { kMaxDynamicSharedSizeBytes = 8 }; // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
// Dynamic shared memory above this needs the opt-in attribute.
constexpr uint32_t kDefaultSharedLimit = 48 * 1024;

struct Driver {
  void *lib = nullptr;
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDriverGetVersion)(int *);
  CUresult (*cuCtxPushCurrent)(CUcontext);
  CUresult (*cuCtxPopCurrent)(CUcontext *);
  CUresult (*cuCtxGetDevice)(CUdevice *);
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*cuDeviceGetName)(char *, int, CUdevice);
  CUresult (*cuModuleLoadData)(CUmodule *, const void *);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, unsigned, CUstream,
                             void **, void **);
  CUresult (*cuGetErrorString)(CUresult, const char **);
  CUresult (*cuFuncSetAttribute)(CUfunction, int, int);
};

} // namespace

//===----------------------------------------------------------------------===//
// Bundles
//===----------------------------------------------------------------------===//

struct rake_bundle {
  std::string dir, profile, target, manifestText, manifestSha;
  std::string cubin; // the verified bytes: exactly what is loaded
  std::string cubinSha;
  rake::cubin::Cubin parsed;
  struct Param {
    uint32_t offset, size, align;
    std::string name, role;
  };
  struct Kernel {
    std::string name, sha;
    uint32_t paramBytes = 0;
    std::vector<Param> params;
    std::vector<uint32_t> maxThreads;
    bool hasLaunch = false; ///< the manifest records a launch shape
    rake_launch_shape launch{};
  };
  std::vector<Kernel> kernels;
  const Kernel *find(const std::string &name) const {
    for (const Kernel &k : kernels)
      if (k.name == name)
        return &k;
    return nullptr;
  }
};

struct rake_module {
  const rake_bundle *bundle;
  Driver driver;
  CUcontext context;
  CUmodule module = nullptr;
  CUdevice device = 0;
  int ccMajor = 0, ccMinor = 0;
  std::map<std::string, CUfunction> functions;
};

namespace {

rake_status fail(rake_error *err, rake_status code, const char *fmt, ...) {
  if (err) {
    err->code = code;
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(err->message, sizeof(err->message), fmt, ap);
    va_end(ap);
  }
  return code;
}

bool readFile(const std::string &path, std::string &out) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return false;
  out.assign(std::istreambuf_iterator<char>(in), {});
  return true;
}

std::string joinFlags(const Json *flags) {
  std::string s;
  if (flags && flags->kind == Json::Array)
    for (const Json &f : flags->items)
      s += (s.empty() ? "" : " ") + f.str;
  return s;
}

const char *driverError(const Driver &d, CUresult r) {
  const char *s = nullptr;
  if (d.cuGetErrorString)
    d.cuGetErrorString(r, &s);
  return s ? s : "unknown error";
}

rake_status openDriver(Driver &d, rake_error *err) {
  const char *path = std::getenv("RAKE_LIBCUDA");
  if (!path || !*path)
    path = "libcuda.so.1";
  d.lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!d.lib)
    return fail(err, RAKE_ERR_NO_DRIVER, "cannot open the CUDA driver %s: %s",
                path, dlerror());
  struct Entry {
    const char *name;
    void **slot;
  } entries[] = {
      {"cuInit", (void **)&d.cuInit},
      {"cuDriverGetVersion", (void **)&d.cuDriverGetVersion},
      {"cuCtxPushCurrent_v2", (void **)&d.cuCtxPushCurrent},
      {"cuCtxPopCurrent_v2", (void **)&d.cuCtxPopCurrent},
      {"cuCtxGetDevice", (void **)&d.cuCtxGetDevice},
      {"cuDeviceGetAttribute", (void **)&d.cuDeviceGetAttribute},
      {"cuDeviceGetName", (void **)&d.cuDeviceGetName},
      {"cuModuleLoadData", (void **)&d.cuModuleLoadData},
      {"cuModuleUnload", (void **)&d.cuModuleUnload},
      {"cuModuleGetFunction", (void **)&d.cuModuleGetFunction},
      {"cuLaunchKernel", (void **)&d.cuLaunchKernel},
      {"cuGetErrorString", (void **)&d.cuGetErrorString},
      {"cuFuncSetAttribute", (void **)&d.cuFuncSetAttribute},
  };
  for (Entry &e : entries) {
    *e.slot = dlsym(d.lib, e.name);
    if (!*e.slot) {
      dlclose(d.lib);
      d.lib = nullptr;
      return fail(err, RAKE_ERR_NO_DRIVER, "the CUDA driver %s lacks %s", path,
                  e.name);
    }
  }
  CUresult r = d.cuInit(0);
  if (r != 0)
    return fail(err, RAKE_ERR_DRIVER, "cuInit failed: %d (%s)", r,
                driverError(d, r));
  return RAKE_OK;
}

} // namespace

extern "C" rake_status rake_bundle_open(const char *dirC, rake_bundle **out,
                                        rake_error *err) {
  if (!dirC || !out)
    return fail(err, RAKE_ERR_ARGUMENT, "rake_bundle_open: a NULL argument");
  *out = nullptr;
  auto b = std::make_unique<rake_bundle>();
  b->dir = dirC;
  std::string seal;
  if (!readFile(b->dir + "/manifest.json", b->manifestText))
    return fail(err, RAKE_ERR_IO, "cannot read %s/manifest.json", dirC);
  if (!readFile(b->dir + "/manifest.sha256", seal))
    return fail(err, RAKE_ERR_MANIFEST,
                "no %s/manifest.sha256: the manifest is not sealed", dirC);
  b->manifestSha = sha256(b->manifestText);
  if (seal.compare(0, 64, b->manifestSha) != 0)
    return fail(err, RAKE_ERR_MANIFEST,
                "manifest.json has sha256 %s, but manifest.sha256 says %.64s: "
                "the manifest was changed after it was sealed",
                b->manifestSha.c_str(), seal.c_str());
  Json m;
  JsonParser jp{b->manifestText};
  if (!jp.parse(m) || m.kind != Json::Object)
    return fail(err, RAKE_ERR_MANIFEST, "manifest.json is not JSON: %s",
                jp.error.c_str());
  if (m.getString("format") != "rake-bundle/1")
    return fail(err, RAKE_ERR_MANIFEST,
                "manifest.json is not a rake-bundle/1 manifest");
  if (m.getString("status") != "verified")
    return fail(err, RAKE_ERR_NOT_VERIFIED,
                "the bundle's status is '%s', not 'verified': refusing to load "
                "it",
                m.getString("status").c_str());
  b->profile = m.getString("profile");
  b->target = m.getString("target");
  const Json *cm = m.get("cubin");
  if (!cm || cm->getString("file").empty() ||
      cm->getString("file").find('/') != std::string::npos)
    return fail(err, RAKE_ERR_MANIFEST, "the manifest names no cubin file");
  if (!readFile(b->dir + "/" + cm->getString("file"), b->cubin))
    return fail(err, RAKE_ERR_IO, "cannot read %s/%s", dirC,
                cm->getString("file").c_str());
  b->cubinSha = sha256(b->cubin);
  if (b->cubinSha != cm->getString("sha256"))
    return fail(err, RAKE_ERR_INTEGRITY,
                "%s has sha256 %s; the manifest binds %s: refusing to load it",
                cm->getString("file").c_str(), b->cubinSha.c_str(),
                cm->getString("sha256").c_str());
  std::vector<uint8_t> bytes(b->cubin.begin(), b->cubin.end());
  std::string perr;
  if (!rake::cubin::parse(bytes, b->parsed, perr))
    return fail(err, RAKE_ERR_INTEGRITY, "the cubin cannot be read: %s",
                perr.c_str());
  const rake::cubin::Cubin &c = b->parsed;
  if (c.archName() != b->target || c.archName() != cm->getString("arch"))
    return fail(err, RAKE_ERR_ARCH,
                "the cubin is for %s; the manifest says target %s, cubin.arch "
                "%s",
                c.archName().c_str(), b->target.c_str(),
                cm->getString("arch").c_str());
  std::string flags = joinFlags(m.get("ptxas_flags"));
  if (rake::cubin::splitOptions(c.toolOptions) !=
      rake::cubin::splitOptions(flags))
    return fail(err, RAKE_ERR_FLAGS,
                "the cubin was assembled with ptxas options '%s'; the manifest "
                "says '%s'",
                c.toolOptions.c_str(), flags.c_str());
  const Json *ks = m.get("kernels");
  if (!ks || ks->kind != Json::Array || ks->items.empty())
    return fail(err, RAKE_ERR_MANIFEST, "the manifest lists no kernels");
  for (const Json &kj : ks->items) {
    rake_bundle::Kernel k;
    k.name = kj.getString("name");
    const rake::cubin::Kernel *ck = c.findKernel(k.name);
    if (!ck)
      return fail(err, RAKE_ERR_MANIFEST,
                  "the manifest lists kernel '%s', which the cubin does not "
                  "hold",
                  k.name.c_str());
    k.sha = sha256(b->cubin.substr(ck->textOffset, ck->textSize));
    if (k.sha != kj.getString("sha256"))
      return fail(err, RAKE_ERR_INTEGRITY,
                  "kernel '%s' has sha256 %s; the manifest binds %s",
                  k.name.c_str(), k.sha.c_str(), kj.getString("sha256").c_str());
    const Json *abi = kj.get("abi");
    const Json *params = abi ? abi->get("params") : nullptr;
    if (!abi || abi->getInt("version") != RAKE_PARAM_LAYOUT_V1 || !params ||
        params->kind != Json::Array)
      return fail(err, RAKE_ERR_ABI,
                  "kernel '%s': the manifest has no version %d parameter "
                  "layout",
                  k.name.c_str(), RAKE_PARAM_LAYOUT_V1);
    k.paramBytes = uint32_t(abi->getInt("param_bytes", 0));
    uint32_t bank = ck->hasCbankParamSize ? ck->cbankParamSize : ck->paramBankSize;
    if (k.paramBytes != bank)
      return fail(err, RAKE_ERR_ABI,
                  "kernel '%s': the manifest's param_bytes %u differ from the "
                  "cubin's %u",
                  k.name.c_str(), k.paramBytes, bank);
    if (params->items.size() != ck->params.size())
      return fail(err, RAKE_ERR_ABI,
                  "kernel '%s': the manifest lists %zu parameters, the cubin "
                  "%zu",
                  k.name.c_str(), params->items.size(), ck->params.size());
    for (size_t i = 0; i < params->items.size(); ++i) {
      const Json &pj = params->items[i];
      rake_bundle::Param p{uint32_t(pj.getInt("offset")),
                           uint32_t(pj.getInt("size")),
                           uint32_t(pj.getInt("align")), pj.getString("name"),
                           pj.getString("role")};
      const rake::cubin::KParam &kp = ck->params[i];
      if (kp.ordinal != i || p.offset != kp.offset || p.size != kp.size ||
          p.align == 0 || p.offset % p.align ||
          uint64_t(p.offset) + p.size > k.paramBytes)
        return fail(err, RAKE_ERR_ABI,
                    "kernel '%s' parameter %zu: the manifest says offset %u, "
                    "size %u, align %u; the cubin says offset %u, size %u",
                    k.name.c_str(), i, p.offset, p.size, p.align, kp.offset,
                    kp.size);
      k.params.push_back(p);
    }
    if (const Json *mt = kj.get("max_threads"))
      for (const Json &t : mt->items)
        k.maxThreads.push_back(uint32_t(t.num));
    if (k.maxThreads != ck->maxThreads)
      return fail(err, RAKE_ERR_ABI,
                  "kernel '%s': the manifest's max_threads differ from the "
                  "cubin's EIATTR_MAX_THREADS",
                  k.name.c_str());
    // The launch shape, when recorded (rake_launch refuses a kernel without
    // one).
    if (const Json *lj = kj.get("launch")) {
      const Json *bj = lj->get("block");
      auto in = [](const Json *v, long long lo) {
        return v && v->kind == Json::Number && v->num == (long long)v->num &&
               v->num >= lo && v->num <= double(UINT32_MAX);
      };
      bool ok = bj && bj->kind == Json::Array && bj->items.size() == 3 &&
                in(lj->get("blocks_per_sm"), 1) &&
                in(lj->get("dynamic_shared_bytes"), 0);
      for (size_t i = 0; ok && i < 3; ++i)
        ok = in(&bj->items[i], 1);
      if (!ok)
        return fail(err, RAKE_ERR_ABI,
                    "kernel '%s': the manifest's launch shape is malformed",
                    k.name.c_str());
      for (int i = 0; i < 3; ++i)
        k.launch.block[i] = uint32_t(bj->items[i].num);
      k.launch.blocks_per_sm = uint32_t(lj->getInt("blocks_per_sm"));
      k.launch.dynamic_shared_bytes =
          uint32_t(lj->getInt("dynamic_shared_bytes"));
      k.launch.cluster = 1;
      if (const Json *cj = lj->get("cluster")) {
        if (!in(cj, 1))
          return fail(err, RAKE_ERR_ABI,
                      "kernel '%s': the manifest's launch shape is malformed",
                      k.name.c_str());
        k.launch.cluster = uint32_t(cj->num);
      }
      k.hasLaunch = true;
      for (size_t i = 0; i < k.maxThreads.size() && i < 3; ++i)
        if (k.launch.block[i] > k.maxThreads[i])
          return fail(err, RAKE_ERR_ABI,
                      "kernel '%s': the manifest's launch block %ux%ux%u "
                      "exceeds the cubin's EIATTR_MAX_THREADS",
                      k.name.c_str(), k.launch.block[0], k.launch.block[1],
                      k.launch.block[2]);
    }
    b->kernels.push_back(std::move(k));
  }
  for (const rake::cubin::Kernel &ck : c.kernels)
    if (!b->find(ck.name))
      return fail(err, RAKE_ERR_MANIFEST,
                  "the cubin holds kernel '%s', which the manifest does not "
                  "list",
                  ck.name.c_str());
  *out = b.release();
  return RAKE_OK;
}

extern "C" void rake_bundle_close(rake_bundle *b) { delete b; }
extern "C" const char *rake_bundle_target(const rake_bundle *b) {
  return b ? b->target.c_str() : "";
}
extern "C" const char *rake_bundle_profile(const rake_bundle *b) {
  return b ? b->profile.c_str() : "";
}
extern "C" uint32_t rake_bundle_kernel_count(const rake_bundle *b) {
  return b ? uint32_t(b->kernels.size()) : 0;
}
extern "C" const char *rake_bundle_kernel_name(const rake_bundle *b,
                                               uint32_t i) {
  return b && i < b->kernels.size() ? b->kernels[i].name.c_str() : nullptr;
}

extern "C" rake_status rake_kernel_layout(const rake_bundle *b,
                                          const char *kernel,
                                          uint32_t *version, uint32_t *bytes,
                                          uint32_t *count, rake_error *err) {
  if (!b || !kernel)
    return fail(err, RAKE_ERR_ARGUMENT, "rake_kernel_layout: a NULL argument");
  const rake_bundle::Kernel *k = b->find(kernel);
  if (!k)
    return fail(err, RAKE_ERR_NOT_FOUND, "the bundle has no kernel '%s'",
                kernel);
  if (version)
    *version = RAKE_PARAM_LAYOUT_V1;
  if (bytes)
    *bytes = k->paramBytes;
  if (count)
    *count = uint32_t(k->params.size());
  return RAKE_OK;
}

extern "C" rake_status rake_kernel_param(const rake_bundle *b,
                                         const char *kernel, uint32_t index,
                                         rake_param_info *info,
                                         rake_error *err) {
  if (!b || !kernel || !info)
    return fail(err, RAKE_ERR_ARGUMENT, "rake_kernel_param: a NULL argument");
  const rake_bundle::Kernel *k = b->find(kernel);
  if (!k)
    return fail(err, RAKE_ERR_NOT_FOUND, "the bundle has no kernel '%s'",
                kernel);
  if (index >= k->params.size())
    return fail(err, RAKE_ERR_ARGUMENT, "kernel '%s' has %zu parameters, not %u",
                kernel, k->params.size(), index + 1);
  const rake_bundle::Param &p = k->params[index];
  info->offset = p.offset;
  info->size = p.size;
  info->align = p.align;
  info->name = p.name.c_str();
  info->role = p.role.c_str();
  return RAKE_OK;
}

extern "C" rake_status rake_kernel_launch_shape(const rake_bundle *b,
                                                const char *kernel,
                                                rake_launch_shape *shape,
                                                rake_error *err) {
  if (!b || !kernel || !shape)
    return fail(err, RAKE_ERR_ARGUMENT,
                "rake_kernel_launch_shape: a NULL argument");
  const rake_bundle::Kernel *k = b->find(kernel);
  if (!k)
    return fail(err, RAKE_ERR_NOT_FOUND, "the bundle has no kernel '%s'",
                kernel);
  if (!k->hasLaunch)
    return fail(err, RAKE_ERR_ABI,
                "kernel '%s': the bundle records no launch shape (block, "
                "blocks per SM, dynamic shared memory)",
                kernel);
  *shape = k->launch;
  return RAKE_OK;
}

extern "C" rake_status rake_module_load(const rake_bundle *b, CUcontext ctx,
                                        rake_module **out, rake_error *err) {
  if (!b || !ctx || !out)
    return fail(err, RAKE_ERR_ARGUMENT, "rake_module_load: a NULL argument");
  *out = nullptr;
  auto m = std::make_unique<rake_module>();
  m->bundle = b;
  m->context = ctx;
  if (rake_status s = openDriver(m->driver, err))
    return s;
  Driver &d = m->driver;
  CUresult r = d.cuCtxPushCurrent(ctx);
  if (r != 0)
    return fail(err, RAKE_ERR_DRIVER, "cuCtxPushCurrent failed: %d (%s)", r,
                driverError(d, r));
  rake_status status = RAKE_OK;
  CUmodule mod = nullptr;
  do {
    if ((r = d.cuCtxGetDevice(&m->device)) != 0 ||
        (r = d.cuDeviceGetAttribute(&m->ccMajor, kCcMajor, m->device)) != 0 ||
        (r = d.cuDeviceGetAttribute(&m->ccMinor, kCcMinor, m->device)) != 0) {
      status = fail(err, RAKE_ERR_DRIVER,
                    "cannot read the device's compute capability: %d (%s)", r,
                    driverError(d, r));
      break;
    }
    // An architecture-specific cubin (sm_90a) runs only on its own SM; a
    // plain one on later minor versions of the same major.
    const rake::cubin::Cubin &c = b->parsed;
    unsigned dev = unsigned(m->ccMajor * 10 + m->ccMinor);
    bool ok = c.archSpecific == 1 ? dev == c.sm
                                  : (dev / 10 == c.sm / 10 && dev >= c.sm);
    if (!ok) {
      status = fail(err, RAKE_ERR_ARCH,
                    "the cubin is for %s; the context's device has compute "
                    "capability %d.%d: refusing to load it",
                    c.archName().c_str(), m->ccMajor, m->ccMinor);
      break;
    }
    if ((r = d.cuModuleLoadData(&mod, b->cubin.data())) != 0) {
      status = fail(err, RAKE_ERR_DRIVER, "cuModuleLoadData failed: %d (%s)",
                    r, driverError(d, r));
      break;
    }
    for (const rake_bundle::Kernel &k : b->kernels) {
      CUfunction f = nullptr;
      if ((r = d.cuModuleGetFunction(&f, mod, k.name.c_str())) != 0) {
        status = fail(err, RAKE_ERR_DRIVER,
                      "cuModuleGetFunction(%s) failed: %d (%s)", k.name.c_str(),
                      r, driverError(d, r));
        break;
      }
      m->functions[k.name] = f;
    }
  } while (false);
  if (status != RAKE_OK && mod)
    d.cuModuleUnload(mod);
  CUcontext popped = nullptr;
  d.cuCtxPopCurrent(&popped);
  if (status != RAKE_OK)
    return status;
  m->module = mod;
  *out = m.release();
  return RAKE_OK;
}

extern "C" rake_status rake_module_unload(rake_module *m, rake_error *err) {
  if (!m)
    return fail(err, RAKE_ERR_ARGUMENT, "rake_module_unload: a NULL module");
  Driver &d = m->driver;
  rake_status status = RAKE_OK;
  if (d.cuCtxPushCurrent(m->context) == 0) {
    CUresult r = d.cuModuleUnload(m->module);
    if (r != 0)
      status = fail(err, RAKE_ERR_DRIVER, "cuModuleUnload failed: %d (%s)", r,
                    driverError(d, r));
    CUcontext popped = nullptr;
    d.cuCtxPopCurrent(&popped);
  }
  delete m;
  return status;
}

extern "C" rake_status rake_launch(rake_module *m, const char *kernel,
                                   const rake_launch_config *cfg,
                                   CUstream stream, uint32_t version,
                                   const void *params, size_t bytes,
                                   rake_error *err) {
  if (!m || !kernel || !cfg || (!params && bytes))
    return fail(err, RAKE_ERR_ARGUMENT, "rake_launch: a NULL argument");
  const rake_bundle::Kernel *k = m->bundle->find(kernel);
  if (!k)
    return fail(err, RAKE_ERR_NOT_FOUND, "the bundle has no kernel '%s'",
                kernel);
  if (version != RAKE_PARAM_LAYOUT_V1)
    return fail(err, RAKE_ERR_ABI,
                "parameter layout version %u; this runtime and bundle use %d",
                version, RAKE_PARAM_LAYOUT_V1);
  if (bytes != k->paramBytes)
    return fail(err, RAKE_ERR_ABI,
                "kernel '%s' takes %u parameter bytes; the launch passes %zu",
                kernel, k->paramBytes, bytes);
  for (int i = 0; i < 3; ++i)
    if (cfg->grid[i] == 0 || cfg->block[i] == 0)
      return fail(err, RAKE_ERR_ABI, "a grid or block dimension is 0");
  if (!k->maxThreads.empty()) {
    for (size_t i = 0; i < k->maxThreads.size() && i < 3; ++i)
      if (cfg->block[i] > k->maxThreads[i])
        return fail(err, RAKE_ERR_ABI,
                    "kernel '%s' allows at most %u threads in block dimension "
                    "%zu; the launch asks for %u",
                    kernel, k->maxThreads[i], i, cfg->block[i]);
  }
  // The launch shape: without one, the dynamic shared memory the kernel
  // addresses is unknown, so it is not launched (fail closed).
  if (!k->hasLaunch)
    return fail(err, RAKE_ERR_ABI,
                "kernel '%s': the bundle records no launch shape, so the "
                "dynamic shared memory it needs is unknown: refusing to "
                "launch it",
                kernel);
  const rake_launch_shape &shape = k->launch;
  if (cfg->block[0] != shape.block[0] || cfg->block[1] != shape.block[1] ||
      cfg->block[2] != shape.block[2])
    return fail(err, RAKE_ERR_ABI,
                "kernel '%s' was compiled for blocks of %ux%ux%u threads; the "
                "launch asks for %ux%ux%u",
                kernel, shape.block[0], shape.block[1], shape.block[2],
                cfg->block[0], cfg->block[1], cfg->block[2]);
  if (cfg->dynamic_shared_bytes < shape.dynamic_shared_bytes)
    return fail(err, RAKE_ERR_ABI,
                "kernel '%s' needs %u bytes of dynamic shared memory; the "
                "launch gives %u",
                kernel, shape.dynamic_shared_bytes, cfg->dynamic_shared_bytes);
  if (shape.cluster > 1 && cfg->grid[0] % shape.cluster != 0)
    return fail(err, RAKE_ERR_ABI,
                "kernel '%s' runs in clusters of %u CTAs; the launch's grid "
                "of %u is not a multiple",
                kernel, shape.cluster, cfg->grid[0]);
  std::vector<void *> args;
  for (const rake_bundle::Param &p : k->params)
    args.push_back(const_cast<char *>(static_cast<const char *>(params)) +
                   p.offset);
  Driver &d = m->driver;
  CUresult r = d.cuCtxPushCurrent(m->context);
  if (r != 0)
    return fail(err, RAKE_ERR_DRIVER, "cuCtxPushCurrent failed: %d (%s)", r,
                driverError(d, r));
  CUfunction f = m->functions[k->name];
  // More than 48 KiB of dynamic shared memory is an opt-in per function.
  if (cfg->dynamic_shared_bytes > kDefaultSharedLimit &&
      (r = d.cuFuncSetAttribute(f, kMaxDynamicSharedSizeBytes,
                                int(cfg->dynamic_shared_bytes))) != 0) {
    CUcontext popped = nullptr;
    d.cuCtxPopCurrent(&popped);
    return fail(err, RAKE_ERR_DRIVER,
                "cuFuncSetAttribute(%s, MAX_DYNAMIC_SHARED_SIZE_BYTES, %u) "
                "failed: %d (%s)",
                kernel, cfg->dynamic_shared_bytes, r, driverError(d, r));
  }
  r = d.cuLaunchKernel(f, cfg->grid[0], cfg->grid[1],
                       cfg->grid[2], cfg->block[0], cfg->block[1],
                       cfg->block[2], cfg->dynamic_shared_bytes, stream,
                       args.data(), nullptr);
  CUcontext popped = nullptr;
  d.cuCtxPopCurrent(&popped);
  if (r != 0)
    return fail(err, RAKE_ERR_DRIVER, "cuLaunchKernel(%s) failed: %d (%s)",
                kernel, r, driverError(d, r));
  return RAKE_OK;
}

extern "C" rake_status rake_record_evidence(const rake_module *m,
                                            const char *path, const char *note,
                                            rake_error *err) {
  if (!m)
    return fail(err, RAKE_ERR_ARGUMENT, "rake_record_evidence: a NULL module");
  const Driver &d = m->driver;
  char name[256] = "?";
  int driver = 0;
  d.cuDeviceGetName(name, sizeof(name), m->device);
  d.cuDriverGetVersion(&driver);
  std::string file = path ? path : m->bundle->dir + "/evidence.jsonl";
  std::FILE *f = std::fopen(file.c_str(), "a");
  if (!f)
    return fail(err, RAKE_ERR_IO, "cannot append to %s", file.c_str());
  auto esc = [](const std::string &s) {
    std::string o;
    for (char c : s) {
      if (c == '"' || c == '\\')
        o.push_back('\\');
      if ((unsigned char)c >= 0x20)
        o.push_back(c);
    }
    return o;
  };
  std::fprintf(f,
               "{\"time\": %lld, \"device\": \"%s\", \"compute_capability\": "
               "\"%d.%d\", \"driver_version\": %d, \"runtime_abi\": %d, "
               "\"manifest_sha256\": \"%s\", \"cubin_sha256\": \"%s\", "
               "\"note\": \"%s\"}\n",
               (long long)std::time(nullptr), esc(name).c_str(), m->ccMajor,
               m->ccMinor, driver, RAKE_RUNTIME_ABI_VERSION,
               m->bundle->manifestSha.c_str(), m->bundle->cubinSha.c_str(),
               esc(note ? note : "").c_str());
  std::fclose(f);
  return RAKE_OK;
}
