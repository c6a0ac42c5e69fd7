//===- RuntimeInternal.h - what the C runtime's files share -----*- C++ -*-===//
//
// Internal to lib/Runtime: the CUDA driver entry points the runtime opens
// with dlopen (no CUDA headers), the opaque rake_bundle and rake_module of
// include/rake/runtime.h, and the helpers Runtime.cpp (bundles, modules,
// launches, tensor maps, evidence) and LaunchChecks.cpp (the buffer
// arguments of a launch) share.
//
//===----------------------------------------------------------------------===//

#ifndef RAKE_LIB_RUNTIME_RUNTIMEINTERNAL_H
#define RAKE_LIB_RUNTIME_RUNTIMEINTERNAL_H

#include "rake/runtime.h"

#include "Rake/Artifact/Manifest.h"
#include "Rake/Verifier/Cubin.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace rake::runtime_detail {

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
enum { kSmCount = 16 }; // CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT
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
  CUresult (*cuCtxGetCurrent)(CUcontext *);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuMemAlloc)(uint64_t *, size_t);
  CUresult (*cuMemFree)(uint64_t);
  CUresult (*cuMemcpyHtoD)(uint64_t, const void *, size_t);
  // Optional (CUDA 12 and later): how many clusters of a kernel can be
  // resident at once, for the grid of a persistent kernel in clusters.
  CUresult (*cuOccupancyMaxActiveClusters)(int *, CUfunction,
                                           const void *) = nullptr;
  // Optional (CUDA 12 and later): only tensor maps need it.
  CUresult (*cuTensorMapEncodeTiled)(void *, int, uint32_t, void *,
                                     const uint64_t *, const uint64_t *,
                                     const uint32_t *, const uint32_t *, int,
                                     int, int, int) = nullptr;
};

} // namespace rake::runtime_detail

//===----------------------------------------------------------------------===//
// Bundles
//===----------------------------------------------------------------------===//

struct rake_bundle {
  std::string dir, profile, target, manifestText, manifestSha, trust;
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
    std::vector<rake::artifact::SourceParam> signature;
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
  rake::runtime_detail::Driver driver;
  rake::runtime_detail::CUcontext context;
  rake::runtime_detail::CUmodule module = nullptr;
  rake::runtime_detail::CUdevice device = 0;
  int ccMajor = 0, ccMinor = 0, smCount = 0;
  std::map<std::string, rake::runtime_detail::CUfunction> functions;
  /// The device copies of tensor maps rake made, and for each the kernel
  /// and parameter it was made for (a launch passes each only there) and
  /// the buffer it describes (the launch's buffer must be that one).
  struct TensorMap {
    std::string kernel;
    uint32_t param = 0;
    uint64_t address = 0, rows = 0, cols = 0, rowStrideBytes = 0;
  };
  std::map<uint64_t, TensorMap> tensorMaps;
};

namespace rake::runtime_detail {

/// Fills `err` (if any) with `code` and the formatted message; returns code.
rake_status fail(rake_error *err, rake_status code, const char *fmt, ...);
/// The bundle's kernel of that name, or RAKE_ERR_NOT_FOUND.
rake_status findKernel(const rake_bundle *b, const char *kernel,
                       const rake_bundle::Kernel *&k, rake_error *err);
/// A tensor map role, "tensormap.argK.RxC.swizzleB": K, the box and B.
bool parseTensorMapRole(const std::string &role, unsigned &arg, uint32_t &rows,
                        uint32_t &cols, unsigned &swizzle);
/// Every buffer argument of a launch against the kernel's signature: its
/// descriptor, overlap with the others, its tensor map (LaunchChecks.cpp).
rake_status checkBuffers(const rake_module *m, const rake_bundle::Kernel *k,
                         const char *kernel, const std::vector<void *> &args,
                         rake_error *err);

} // namespace rake::runtime_detail

#endif // RAKE_LIB_RUNTIME_RUNTIMEINTERNAL_H
