//===- Runtime.cpp - Load and launch verified Rake kernels ----------------===//
//
// Plain C++17 with no LLVM and no CUDA headers: it builds with
//   g++ -std=c++17 -Iinclude lib/Runtime/Runtime.cpp lib/Runtime/LaunchChecks.cpp lib/Artifact/Json.cpp
//       lib/Artifact/Crypto.cpp lib/Artifact/Manifest.cpp
//       lib/Verifier/Cubin.cpp lib/Verifier/Ptx.cpp lib/Profile/Profile.cpp
//       -lcrypto -ldl
// A bundle is checked by rake::artifact::checkBundle, the checker rake-verify
// runs. The few CUDA driver types and entry points it uses are declared here
// and resolved with dlopen/dlsym when a module is loaded.
//
//===----------------------------------------------------------------------===//

#include "RuntimeInternal.h"

#include "Rake/Artifact/Crypto.h"
#include "Rake/Artifact/Manifest.h"
#include "Rake/Verifier/Cubin.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iterator>
#include <map>
#include <algorithm>
#include <optional>
#include <set>
#include <memory>
#include <string>
#include <vector>

using namespace rake::runtime_detail;


namespace rake::runtime_detail {

/// A tensor map role, "tensormap.argK.RxC.swizzleB": K, the box and B.
bool parseTensorMapRole(const std::string &role, unsigned &arg, uint32_t &rows,
                        uint32_t &cols, unsigned &swizzle) {
  return std::sscanf(role.c_str(), "tensormap.arg%u.%ux%u.swizzle%u", &arg,
                     &rows, &cols, &swizzle) == 4;
}

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


/// The bundle's kernel of that name, or RAKE_ERR_NOT_FOUND.
rake_status findKernel(const rake_bundle *b, const char *kernel,
                       const rake_bundle::Kernel *&k, rake_error *err) {
  k = b->find(kernel);
  if (!k)
    return fail(err, RAKE_ERR_NOT_FOUND, "the bundle has no kernel '%s'",
                kernel);
  return RAKE_OK;
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
      {"cuCtxGetCurrent", (void **)&d.cuCtxGetCurrent},
      {"cuDeviceGet", (void **)&d.cuDeviceGet},
      {"cuDevicePrimaryCtxRetain", (void **)&d.cuDevicePrimaryCtxRetain},
      {"cuMemAlloc_v2", (void **)&d.cuMemAlloc},
      {"cuMemFree_v2", (void **)&d.cuMemFree},
      {"cuMemcpyHtoD_v2", (void **)&d.cuMemcpyHtoD},
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
  *(void **)&d.cuTensorMapEncodeTiled = dlsym(d.lib, "cuTensorMapEncodeTiled");
  *(void **)&d.cuOccupancyMaxActiveClusters =
      dlsym(d.lib, "cuOccupancyMaxActiveClusters");
  CUresult r = d.cuInit(0);
  if (r != 0)
    return fail(err, RAKE_ERR_DRIVER, "cuInit failed: %d (%s)", r,
                driverError(d, r));
  return RAKE_OK;
}

} // namespace rake::runtime_detail

namespace {

/// The status of the first refusal of a rule.
rake_status statusOf(const std::string &rule) {
  static const std::map<std::string, rake_status> codes = {
      {"manifest", RAKE_ERR_MANIFEST},   {"status", RAKE_ERR_NOT_VERIFIED},
      {"integrity", RAKE_ERR_INTEGRITY}, {"architecture", RAKE_ERR_ARCH},
      {"flags", RAKE_ERR_FLAGS},         {"abi", RAKE_ERR_ABI},
      {"toolchain", RAKE_ERR_TOOLCHAIN}, {"profile", RAKE_ERR_PROFILE},
      {"signature", RAKE_ERR_SIGNATURE}, {"elf", RAKE_ERR_ELF},
      {"ptx", RAKE_ERR_PTX},             {"resources", RAKE_ERR_RESOURCES},
  };
  auto it = codes.find(rule);
  // The PTX's floating-point rules (fp-ftz, ...) are PTX refusals.
  return it != codes.end() ? it->second : RAKE_ERR_PTX;
}

} // namespace

extern "C" rake_status rake_bundle_open(const char *dirC, rake_bundle **out,
                                        rake_error *err) {
  return rake_bundle_open_with(dirC, nullptr, out, err);
}

extern "C" rake_status rake_bundle_open_with(const char *dirC,
                                             const rake_open_options *opts,
                                             rake_bundle **out,
                                             rake_error *err) {
  if (!dirC || !out)
    return fail(err, RAKE_ERR_ARGUMENT, "rake_bundle_open: a NULL argument");
  *out = nullptr;
  if (opts && opts->version != RAKE_OPEN_OPTIONS_V1)
    return fail(err, RAKE_ERR_ARGUMENT,
                "rake_open_options version %u; this runtime knows %d",
                opts->version, RAKE_OPEN_OPTIONS_V1);
  rake::artifact::CheckOptions co;
  std::string keyFile;
  // A key asked for by any of the three ways must be a key: an empty one
  // refuses every bundle (it never means "integrity only").
  if (opts && opts->public_key_pem) {
    co.publicKeyPem = opts->public_key_pem;
    co.signatureRequired = true;
  } else {
    if (opts && opts->public_key_file)
      keyFile = opts->public_key_file;
    else if (const char *env = std::getenv("RAKE_PUBLIC_KEY"); env && *env)
      keyFile = env;
    co.signatureRequired = !keyFile.empty();
    if (!keyFile.empty() &&
        !rake::artifact::readFile(keyFile, co.publicKeyPem))
      return fail(err, RAKE_ERR_SIGNATURE,
                  "cannot read the public key %s: refusing to open any "
                  "bundle without it",
                  keyFile.c_str());
  }
  if (opts && opts->profile)
    co.requiredProfile = opts->profile;
  co.allowRelaxed = opts && opts->allow_relaxed;
  co.allowRepinned = opts && opts->allow_repinned;

  rake::artifact::Checked c = rake::artifact::checkBundle(dirC, co);
  if (!c.ok()) {
    const rake::artifact::Finding &f = c.findings.front();
    if (!c.manifestFound)
      return fail(err, RAKE_ERR_IO, "cannot read %s/manifest.json", dirC);
    size_t more = c.findings.size() - 1;
    return fail(err, statusOf(f.rule), "%s [rule %s]%s", f.message.c_str(),
                f.rule.c_str(),
                more ? (" (and " + std::to_string(more) +
                        " more: rake-verify lists them)")
                           .c_str()
                     : "");
  }
  auto b = std::make_unique<rake_bundle>();
  const rake::artifact::Manifest &m = c.manifest;
  b->dir = dirC;
  b->profile = m.profile;
  b->target = m.target;
  b->manifestText = std::move(c.manifestText);
  b->manifestSha = c.manifestSha256;
  b->cubin = std::move(c.cubinBytes);
  b->cubinSha = m.cubin.sha256;
  b->parsed = std::move(c.cubin);
  b->trust = c.signer.empty()
                 ? "integrity only: the bundle agrees with itself and with "
                   "profile " + m.profile +
                       ", but without a public key nothing shows who made it"
                 : "signed by ed25519 key " + c.signer;
  for (const rake::artifact::KernelEntry &ke : m.kernels) {
    rake_bundle::Kernel k;
    k.name = ke.name;
    k.sha = ke.sha256;
    k.paramBytes = uint32_t(ke.paramBytes);
    for (const rake::artifact::Param &p : ke.params)
      k.params.push_back({uint32_t(p.offset), uint32_t(p.size),
                          uint32_t(p.align), p.name, p.role});
    for (int64_t t : ke.maxThreads)
      k.maxThreads.push_back(uint32_t(t));
    k.hasLaunch = ke.hasLaunch;
    if (ke.hasLaunch) {
      for (int i = 0; i < 3; ++i)
        k.launch.block[i] = uint32_t(ke.launch.block[i]);
      k.launch.blocks_per_sm = uint32_t(ke.launch.blocksPerSm);
      k.launch.dynamic_shared_bytes = uint32_t(ke.launch.dynamicSharedBytes);
      k.launch.cluster = uint32_t(ke.launch.cluster);
    }
    k.signature = ke.signature;
    b->kernels.push_back(std::move(k));
  }
  *out = b.release();
  return RAKE_OK;
}

extern "C" const char *rake_bundle_manifest(const rake_bundle *b) {
  return b ? b->manifestText.c_str() : "";
}

extern "C" const char *rake_bundle_trust(const rake_bundle *b) {
  return b ? b->trust.c_str() : "";
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
  const rake_bundle::Kernel *k = nullptr;
  if (rake_status st = findKernel(b, kernel, k, err))
    return st;
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
  const rake_bundle::Kernel *k = nullptr;
  if (rake_status st = findKernel(b, kernel, k, err))
    return st;
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
  const rake_bundle::Kernel *k = nullptr;
  if (rake_status st = findKernel(b, kernel, k, err))
    return st;
  if (!k->hasLaunch)
    return fail(err, RAKE_ERR_LAUNCH_NO_SHAPE,
                "kernel '%s': the bundle records no launch shape (block, "
                "blocks per SM, dynamic shared memory)",
                kernel);
  *shape = k->launch;
  return RAKE_OK;
}

extern "C" rake_status rake_module_load(const rake_bundle *b, CUcontext ctx,
                                        rake_module **out, rake_error *err) {
  if (!b || !out)
    return fail(err, RAKE_ERR_ARGUMENT, "rake_module_load: a NULL argument");
  *out = nullptr;
  auto m = std::make_unique<rake_module>();
  m->bundle = b;
  if (rake_status s = openDriver(m->driver, err))
    return s;
  Driver &d = m->driver;
  CUresult r = 0;
  // No context given: the calling thread's (as the CUDA runtime and torch
  // leave it), else the primary context of device 0.
  if (!ctx && (r = d.cuCtxGetCurrent(&ctx)) != 0)
    return fail(err, RAKE_ERR_DRIVER, "cuCtxGetCurrent failed: %d (%s)", r,
                driverError(d, r));
  if (!ctx) {
    CUdevice dev0 = 0;
    if ((r = d.cuDeviceGet(&dev0, 0)) != 0 ||
        (r = d.cuDevicePrimaryCtxRetain(&ctx, dev0)) != 0)
      return fail(err, RAKE_ERR_DRIVER,
                  "no current CUDA context, and the primary context of "
                  "device 0 cannot be retained: %d (%s)",
                  r, driverError(d, r));
  }
  m->context = ctx;
  r = d.cuCtxPushCurrent(ctx);
  if (r != 0)
    return fail(err, RAKE_ERR_DRIVER, "cuCtxPushCurrent failed: %d (%s)", r,
                driverError(d, r));
  rake_status status = RAKE_OK;
  CUmodule mod = nullptr;
  do {
    if ((r = d.cuCtxGetDevice(&m->device)) != 0 ||
        (r = d.cuDeviceGetAttribute(&m->smCount, kSmCount, m->device)) != 0 ||
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
    for (auto &[address, slot] : m->tensorMaps)
      d.cuMemFree(address);
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

namespace {

/// The launch against the kernel's recorded shape; each refusal its own code.
rake_status checkShape(const rake_bundle::Kernel &k, const char *kernel,
                       const rake_launch_config *cfg, rake_error *err) {
  // Without a shape, the dynamic shared memory the kernel addresses is
  // unknown, so it is not launched (fail closed).
  if (!k.hasLaunch)
    return fail(err, RAKE_ERR_LAUNCH_NO_SHAPE,
                "kernel '%s': the bundle records no launch shape, so the "
                "dynamic shared memory it needs is unknown: refusing to "
                "launch it",
                kernel);
  const rake_launch_shape &shape = k.launch;
  if (cfg->block[0] != shape.block[0] || cfg->block[1] != shape.block[1] ||
      cfg->block[2] != shape.block[2])
    return fail(err, RAKE_ERR_LAUNCH_BLOCK,
                "kernel '%s' was compiled for blocks of %ux%ux%u threads; the "
                "launch asks for %ux%ux%u",
                kernel, shape.block[0], shape.block[1], shape.block[2],
                cfg->block[0], cfg->block[1], cfg->block[2]);
  for (int i = 0; i < 3; ++i)
    if (cfg->grid[i] == 0)
      return fail(err, RAKE_ERR_LAUNCH_GRID,
                  "kernel '%s': the launch's grid %ux%ux%u has a zero "
                  "dimension",
                  kernel, cfg->grid[0], cfg->grid[1], cfg->grid[2]);
  // A persistent kernel numbers its CTAs along x only: CTAs that differ in
  // y or z would run the same tasks at once, racing with each other.
  if (cfg->grid[1] != 1 || cfg->grid[2] != 1)
    return fail(err, RAKE_ERR_LAUNCH_GRID,
                "kernel '%s': the launch's grid %ux%ux%u is not one-"
                "dimensional; the kernel divides its tasks among the CTAs "
                "along x, so CTAs that differ in y or z would run the same "
                "tasks at once",
                kernel, cfg->grid[0], cfg->grid[1], cfg->grid[2]);
  // The driver's attribute takes an int: a larger request would reach it
  // negative. No device has 2 GiB of shared memory a CTA.
  if (cfg->dynamic_shared_bytes > 0x7fffffffu)
    return fail(err, RAKE_ERR_LAUNCH_SHARED,
                "kernel '%s': the launch asks for %u bytes of dynamic shared "
                "memory, more than any device gives a CTA",
                kernel, cfg->dynamic_shared_bytes);
  if (cfg->dynamic_shared_bytes < shape.dynamic_shared_bytes)
    return fail(err, RAKE_ERR_LAUNCH_SHARED,
                "kernel '%s' needs %u bytes of dynamic shared memory; the "
                "launch gives %u",
                kernel, shape.dynamic_shared_bytes, cfg->dynamic_shared_bytes);
  if (shape.cluster > 1 && cfg->grid[0] % shape.cluster != 0)
    return fail(err, RAKE_ERR_LAUNCH_CLUSTER,
                "kernel '%s' runs in clusters of %u CTAs; the launch's grid "
                "of %u is not a multiple",
                kernel, shape.cluster, cfg->grid[0]);
  return RAKE_OK;
}

rake_status launchChecked(rake_module *m, const rake_bundle::Kernel *k,
                          const char *kernel, const rake_launch_config *cfg,
                          CUstream stream, std::vector<void *> &args,
                          rake_error *err);

} // namespace

extern "C" rake_status rake_launch(rake_module *m, const char *kernel,
                                   const rake_launch_config *cfg,
                                   CUstream stream, uint32_t version,
                                   const void *params, size_t bytes,
                                   rake_error *err) {
  if (!m || !kernel || !cfg || (!params && bytes))
    return fail(err, RAKE_ERR_ARGUMENT, "rake_launch: a NULL argument");
  const rake_bundle::Kernel *k = nullptr;
  if (rake_status st = findKernel(m->bundle, kernel, k, err))
    return st;
  if (version != RAKE_PARAM_LAYOUT_V1)
    return fail(err, RAKE_ERR_PARAM_LAYOUT,
                "parameter layout version %u; this runtime and bundle use %d",
                version, RAKE_PARAM_LAYOUT_V1);
  if (bytes != k->paramBytes)
    return fail(err, RAKE_ERR_PARAM_BYTES,
                "kernel '%s' takes %u parameter bytes; the launch passes %zu",
                kernel, k->paramBytes, bytes);
  if (rake_status s = checkShape(*k, kernel, cfg, err))
    return s;
  std::vector<void *> args;
  for (const rake_bundle::Param &p : k->params)
    args.push_back(const_cast<char *>(static_cast<const char *>(params)) +
                   p.offset);
  return launchChecked(m, k, kernel, cfg, stream, args, err);
}

extern "C" rake_status rake_launch_args(rake_module *m, const char *kernel,
                                        const rake_launch_config *cfg,
                                        CUstream stream, uint32_t count,
                                        const rake_arg *given,
                                        rake_error *err) {
  if (!m || !kernel || !cfg || (!given && count))
    return fail(err, RAKE_ERR_ARGUMENT, "rake_launch_args: a NULL argument");
  const rake_bundle::Kernel *k = nullptr;
  if (rake_status st = findKernel(m->bundle, kernel, k, err))
    return st;
  if (count != k->params.size())
    return fail(err, RAKE_ERR_PARAM_COUNT,
                "kernel '%s' takes %zu parameters; the launch passes %u",
                kernel, k->params.size(), count);
  std::vector<void *> args;
  for (uint32_t i = 0; i < count; ++i) {
    const rake_bundle::Param &p = k->params[i];
    if (!given[i].value)
      return fail(err, RAKE_ERR_ARGUMENT,
                  "kernel '%s' parameter %u: a NULL value", kernel, i);
    if (given[i].size != p.size)
      return fail(err, RAKE_ERR_PARAM_SIZE,
                  "kernel '%s' parameter %u (%s) is %u bytes; the launch "
                  "passes %u",
                  kernel, i, p.role.empty() ? p.name.c_str() : p.role.c_str(),
                  p.size, given[i].size);
    if (given[i].align != p.align)
      return fail(err, RAKE_ERR_PARAM_ALIGN,
                  "kernel '%s' parameter %u (%s) is aligned to %u bytes; the "
                  "launch passes one aligned to %u",
                  kernel, i, p.role.empty() ? p.name.c_str() : p.role.c_str(),
                  p.align, given[i].align);
    args.push_back(const_cast<void *>(given[i].value));
  }
  if (rake_status s = checkShape(*k, kernel, cfg, err))
    return s;
  return launchChecked(m, k, kernel, cfg, stream, args, err);
}

namespace {

rake_status launchChecked(rake_module *m, const rake_bundle::Kernel *k,
                          const char *kernel, const rake_launch_config *cfg,
                          CUstream stream, std::vector<void *> &args,
                          rake_error *err) {
  // Index parameters are sizes and indices: the synchronization check and
  // code generation's bounds proofs take them as non-negative.
  for (size_t i = 0; i < k->params.size(); ++i) {
    const std::string &role = k->params[i].role;
    if (k->params[i].size != 8 || role.size() < 6 ||
        role.compare(role.size() - 6, 6, ".index") != 0)
      continue;
    int64_t v = 0;
    std::memcpy(&v, args[i], 8);
    if (v < 0)
      return fail(err, RAKE_ERR_ARGUMENT,
                  "kernel '%s' parameter %zu (%s) is %lld: index parameters "
                  "are sizes and indices, which the kernel's checks take as "
                  "non-negative",
                  kernel, i, role.c_str(), (long long)v);
  }
  if (rake_status st = checkBuffers(m, k, kernel, args, err))
    return st;
  // A tensor-map parameter must be a live map this module made for this
  // kernel's parameter: its box and swizzle are what the kernel's stages and
  // mbarrier byte counts were checked with.
  for (size_t i = 0; i < k->params.size(); ++i) {
    const std::string &role = k->params[i].role;
    if (role.rfind("tensormap.", 0) != 0)
      continue;
    uint64_t map = 0;
    std::memcpy(&map, args[i], k->params[i].size < 8 ? k->params[i].size : 8);
    auto it = m->tensorMaps.find(map);
    if (it == m->tensorMaps.end() || it->second.kernel != k->name ||
        it->second.param != i)
      return fail(err, RAKE_ERR_ARGUMENT,
                  "kernel '%s' parameter %zu (%s): 0x%llx is not a live "
                  "tensor map made for it; make one with "
                  "rake_tensor_map_create for this kernel and parameter",
                  kernel, i, role.c_str(), (unsigned long long)map);
  }
  // A buffer whose role is argK.alignedN (gpuir.align = N: the kernel's
  // vector accesses rely on it) must start N-aligned: its aligned pointer a
  // multiple of N, and its offset (in elements) a multiple of N, which keeps
  // the first element aligned whatever the element's size.
  for (size_t i = 0; i + 1 < k->params.size(); ++i) {
    const std::string &role = k->params[i].role;
    size_t at = role.find(".aligned");
    if (at == std::string::npos || at + 8 == role.size())
      continue;
    uint64_t n = std::strtoull(role.c_str() + at + 8, nullptr, 10);
    if (n < 2)
      continue;
    if (k->params[i].size != 8 || k->params[i + 1].size != 8)
      return fail(err, RAKE_ERR_DATA_ALIGN,
                  "kernel '%s' parameter %zu (%s): an aligned pointer and its "
                  "offset are 8-byte parameters; the bundle says %u and %u",
                  kernel, i, role.c_str(), k->params[i].size,
                  k->params[i + 1].size);
    uint64_t ptr = 0, offset = 0;
    std::memcpy(&ptr, args[i], 8);
    std::memcpy(&offset, args[i + 1], 8);
    if (ptr % n != 0 || offset % n != 0)
      return fail(err, RAKE_ERR_DATA_ALIGN,
                  "kernel '%s' parameter %zu (%s): the buffer's data at 0x%llx "
                  "(offset %llu elements) is not %llu-byte aligned, which the "
                  "kernel's vector accesses need (gpuir.align = %llu); pass a "
                  "buffer whose first element is so aligned",
                  kernel, i, role.c_str(), (unsigned long long)ptr,
                  (unsigned long long)offset, (unsigned long long)n,
                  (unsigned long long)n);
  }
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

/// How many clusters of the kernel the device holds at once
/// (cuOccupancyMaxActiveClusters with the kernel's block and dynamic shared
/// memory), or nothing where the driver cannot tell.
std::optional<uint32_t> residentClusters(const rake_module *m,
                                         const char *kernel,
                                         const rake_launch_shape &s,
                                         uint32_t grid) {
  Driver &d = const_cast<Driver &>(m->driver);
  auto it = m->functions.find(kernel);
  if (!d.cuOccupancyMaxActiveClusters || it == m->functions.end())
    return std::nullopt;
  // CUlaunchConfig: the grid and block, the dynamic shared memory, the
  // stream, no attributes (the cluster is the kernel's own).
  struct {
    unsigned grid[3], block[3], sharedMemBytes;
    CUstream stream;
    void *attrs;
    unsigned numAttrs;
  } config = {{grid, 1, 1}, {s.block[0], s.block[1], s.block[2]},
              s.dynamic_shared_bytes, nullptr, nullptr, 0};
  if (d.cuCtxPushCurrent(m->context) != 0)
    return std::nullopt;
  int clusters = 0;
  bool ok = (s.dynamic_shared_bytes <= kDefaultSharedLimit ||
             d.cuFuncSetAttribute(it->second, kMaxDynamicSharedSizeBytes,
                                  int(s.dynamic_shared_bytes)) == 0) &&
            d.cuOccupancyMaxActiveClusters(&clusters, it->second,
                                           &config) == 0 &&
            clusters > 0;
  CUcontext popped = nullptr;
  d.cuCtxPopCurrent(&popped);
  return ok ? std::optional<uint32_t>(uint32_t(clusters)) : std::nullopt;
}

} // namespace

extern "C" rake_status rake_kernel_launch_config(const rake_module *m,
                                                 const char *kernel,
                                                 rake_launch_config *cfg,
                                                 rake_error *err) {
  if (!m || !kernel || !cfg)
    return fail(err, RAKE_ERR_ARGUMENT,
                "rake_kernel_launch_config: a NULL argument");
  rake_launch_shape s{};
  if (rake_status st = rake_kernel_launch_shape(m->bundle, kernel, &s, err))
    return st;
  uint32_t cluster = s.cluster ? s.cluster : 1;
  uint32_t grid = uint32_t(m->smCount) * s.blocks_per_sm / cluster * cluster;
  // Clusters are placed within a GPC: fewer than SMs / cluster of them may
  // be resident at once. A persistent kernel's grid beyond that would run
  // its last clusters' whole task lists after the others finished.
  if (cluster > 1 && grid > 0)
    if (std::optional<uint32_t> resident =
            residentClusters(m, kernel, s, grid))
      grid = std::min(grid, *resident * cluster);
  if (grid == 0)
    return fail(err, RAKE_ERR_LAUNCH_GRID,
                "kernel '%s' runs in clusters of %u CTAs; the device has %d "
                "SMs",
                kernel, cluster, m->smCount);
  *cfg = rake_launch_config{{grid, 1, 1},
                            {s.block[0], s.block[1], s.block[2]},
                            s.dynamic_shared_bytes};
  return RAKE_OK;
}

namespace {


/// CUtensorMapDataType of an element type, or -1.
int tensorMapType(const std::string &element, uint32_t &bytes) {
  static const struct {
    const char *name;
    int type;
    uint32_t bytes;
  } known[] = {{"i8", 0, 1},
               {"i16", 1, 2},
               {"i32", 3, 4},
               {"i64", 5, 8},
               {"f16", 6, 2},
               {"f32", 7, 4},
               {"f64", 8, 8},
               {"bf16", 9, 2},
               // FP8 moves as bytes (CU_TENSOR_MAP_DATA_TYPE_UINT8): TMA
               // copies, never converts.
               {"f8E4M3FN", 0, 1},
               {"f8E5M2", 0, 1}};
  for (const auto &k : known)
    if (element == k.name) {
      bytes = k.bytes;
      return k.type;
    }
  return -1;
}

} // namespace

extern "C" rake_status rake_tensor_map_create(
    rake_module *m, const char *kernel, uint32_t param, uint64_t address,
    uint64_t rows, uint64_t cols, uint64_t rowStrideBytes, uint64_t *out,
    rake_error *err) {
  if (!m || !kernel || !out)
    return fail(err, RAKE_ERR_ARGUMENT,
                "rake_tensor_map_create: a NULL argument");
  *out = 0;
  const rake_bundle::Kernel *k = nullptr;
  if (rake_status st = findKernel(m->bundle, kernel, k, err))
    return st;
  unsigned arg = 0, swizzle = 0;
  uint32_t boxRows = 0, boxCols = 0;
  if (param >= k->params.size() ||
      !parseTensorMapRole(k->params[param].role, arg, boxRows, boxCols,
                          swizzle))
    return fail(err, RAKE_ERR_ARGUMENT,
                "kernel '%s' parameter %u is not a tensor map", kernel, param);
  if (arg >= k->signature.size() || k->signature[arg].kind != "buffer")
    return fail(err, RAKE_ERR_ABI,
                "kernel '%s': the bundle records no buffer parameter %u for "
                "the tensor map of parameter %u (a bundle made from PTX has "
                "no signature)",
                kernel, arg, param);
  const rake::artifact::SourceParam &buffer = k->signature[arg];
  uint32_t elementBytes = 0;
  int type = tensorMapType(buffer.element, elementBytes);
  int swizzleCode = swizzle == 0 ? 0 : swizzle == 32 ? 1 : swizzle == 64 ? 2
                                     : swizzle == 128 ? 3 : -1;
  if (type < 0 || swizzleCode < 0)
    return fail(err, RAKE_ERR_ABI,
                "kernel '%s': no tensor map of %s elements with a %u-byte "
                "swizzle",
                kernel, buffer.element.c_str(), swizzle);
  if (address % 16 || rowStrideBytes % 16 || rows == 0 || cols == 0 ||
      rowStrideBytes < cols * elementBytes)
    return fail(err, RAKE_ERR_ARGUMENT,
                "the tensor map of '%s' needs a 16-byte aligned address and "
                "row stride (at least a row's %llu bytes) over at least one "
                "row and column; given address 0x%llx, %llu x %llu, row "
                "stride %llu bytes",
                buffer.name.c_str(),
                (unsigned long long)(cols * elementBytes),
                (unsigned long long)address, (unsigned long long)rows,
                (unsigned long long)cols, (unsigned long long)rowStrideBytes);
  // A TMA copy takes its box start as a 32-bit signed coordinate: past
  // 2^31 it wraps negative and TMA fills the box with zeros. The check
  // proves TMA kernels for dimensions below 2^31 only (its all-sizes
  // remark says so).
  if (rows >= (1ull << 31) || cols >= (1ull << 31))
    return fail(err, RAKE_ERR_ARGUMENT,
                "the tensor map of '%s' is %llu x %llu: TMA coordinates are "
                "32-bit signed, so each dimension of a buffer copied by TMA "
                "must be below 2^31 (split the buffer, or copy it without TMA)",
                buffer.name.c_str(), (unsigned long long)rows,
                (unsigned long long)cols);
  Driver &d = m->driver;
  if (!d.cuTensorMapEncodeTiled)
    return fail(err, RAKE_ERR_NO_DRIVER,
                "the CUDA driver has no cuTensorMapEncodeTiled (CUDA 12 or "
                "later is needed for tensor maps)");
  alignas(64) unsigned char map[128] = {};
  uint64_t dims[2] = {cols, rows}, strides[1] = {rowStrideBytes};
  uint32_t box[2] = {boxCols, boxRows}, elementStrides[2] = {1, 1};
  CUresult r = d.cuTensorMapEncodeTiled(
      map, type, 2, reinterpret_cast<void *>(address), dims, strides, box,
      elementStrides, /*interleave none*/ 0, swizzleCode,
      /*L2 promotion 256B*/ 3, /*no OOB fill*/ 0);
  if (r != 0)
    return fail(err, RAKE_ERR_DRIVER,
                "cuTensorMapEncodeTiled for '%s' (%llu x %llu, box %u x %u) "
                "failed: %d (%s)",
                buffer.name.c_str(), (unsigned long long)rows,
                (unsigned long long)cols, boxRows, boxCols, r,
                driverError(d, r));
  if ((r = d.cuCtxPushCurrent(m->context)) != 0)
    return fail(err, RAKE_ERR_DRIVER, "cuCtxPushCurrent failed: %d (%s)", r,
                driverError(d, r));
  uint64_t dev = 0;
  if ((r = d.cuMemAlloc(&dev, sizeof(map))) == 0 &&
      (r = d.cuMemcpyHtoD(dev, map, sizeof(map))) != 0)
    d.cuMemFree(dev);
  CUcontext popped = nullptr;
  d.cuCtxPopCurrent(&popped);
  if (r != 0)
    return fail(err, RAKE_ERR_DRIVER,
                "cannot place the tensor map of '%s' in device memory: %d (%s)",
                buffer.name.c_str(), r, driverError(d, r));
  m->tensorMaps[dev] = {std::string(kernel), param, address, rows, cols,
                        rowStrideBytes};
  *out = dev;
  return RAKE_OK;
}

extern "C" rake_status rake_tensor_map_destroy(rake_module *m,
                                               uint64_t address,
                                               rake_error *err) {
  if (!m || !m->tensorMaps.erase(address))
    return fail(err, RAKE_ERR_ARGUMENT,
                "rake_tensor_map_destroy: 0x%llx is not a tensor map this "
                "module made",
                (unsigned long long)address);
  Driver &d = m->driver;
  CUresult r = d.cuCtxPushCurrent(m->context);
  if (r == 0) {
    r = d.cuMemFree(address);
    CUcontext popped = nullptr;
    d.cuCtxPopCurrent(&popped);
  }
  if (r != 0)
    return fail(err, RAKE_ERR_DRIVER, "cuMemFree failed: %d (%s)", r,
                driverError(d, r));
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
  // Appends to a regular file only: a bundle's evidence.jsonl that is a
  // link would otherwise be followed to whatever file it names.
  int fd = ::open(file.c_str(),
                  O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
  struct stat st;
  if (fd >= 0 && (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
    ::close(fd);
    fd = -1;
  }
  std::FILE *f = fd < 0 ? nullptr : ::fdopen(fd, "a");
  if (fd >= 0 && !f)
    ::close(fd);
  if (!f)
    return fail(err, RAKE_ERR_IO,
                "cannot append to %s (it must be a regular file, not a "
                "link)",
                file.c_str());
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
