/*===- rake/runtime.h - Load and launch verified Rake kernels ---*- C -*-===*\
 *
 * The Rake GPU runtime: a C ABI that loads an artifact bundle (a folder made
 * by rake-bundle: kernel.cubin, manifest.json, manifest.sha256) only after
 * re-hashing it against its manifest and checking the manifest against the
 * cubin, loads exactly those verified cubin bytes on the caller's CUDA
 * context (cuModuleLoadData; never PTX, never a JIT), and launches a kernel
 * on the caller's stream with a versioned parameter layout.
 *
 * The caller owns allocation, lifetimes, stream ordering and
 * synchronization. Every function returns a status; when it is not RAKE_OK
 * and `err` is not NULL, err->message says what went wrong.
 *
 * libcuda is opened at run time (dlopen "libcuda.so.1", or the path in the
 * environment variable RAKE_LIBCUDA), so programs link without the CUDA
 * toolkit and bundles can be opened and checked on machines with no driver.
 *
\*===----------------------------------------------------------------------===*/

#ifndef RAKE_RUNTIME_H
#define RAKE_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* This header's ABI; the parameter layouts it knows. */
#define RAKE_RUNTIME_ABI_VERSION 1
#define RAKE_PARAM_LAYOUT_V1 1

typedef enum rake_status {
  RAKE_OK = 0,
  RAKE_ERR_ARGUMENT = 1,     /* a NULL or inconsistent argument */
  RAKE_ERR_IO = 2,           /* a bundle file cannot be read */
  RAKE_ERR_MANIFEST = 3,     /* manifest missing, malformed, or seal broken */
  RAKE_ERR_NOT_VERIFIED = 4, /* the manifest's status is not "verified" */
  RAKE_ERR_INTEGRITY = 5,    /* a cubin or kernel hash differs */
  RAKE_ERR_ARCH = 6,         /* cubin architecture vs manifest or device */
  RAKE_ERR_FLAGS = 7,        /* the cubin's ptxas options vs the manifest */
  RAKE_ERR_ABI = 8,          /* parameter layout or launch shape mismatch */
  RAKE_ERR_NO_DRIVER = 9,    /* libcuda cannot be opened */
  RAKE_ERR_DRIVER = 10,      /* a CUDA driver call failed */
  RAKE_ERR_NOT_FOUND = 11    /* no such kernel in the bundle */
} rake_status;

typedef struct rake_error {
  rake_status code;
  char message[1024];
} rake_error;

/* The CUDA driver's handle types, declared as cuda.h declares them, so that
 * a CUcontext and a CUstream can be passed as they are. */
struct CUctx_st;
struct CUstream_st;

typedef struct rake_bundle rake_bundle;
typedef struct rake_module rake_module;

/* Opens and checks a bundle folder. No driver needed. */
rake_status rake_bundle_open(const char *dir, rake_bundle **out, rake_error *err);
void rake_bundle_close(rake_bundle *bundle);

const char *rake_bundle_target(const rake_bundle *bundle);  /* "sm_90a" */
const char *rake_bundle_profile(const rake_bundle *bundle); /* "nvidia-ptx-sm90a" */
uint32_t rake_bundle_kernel_count(const rake_bundle *bundle);
const char *rake_bundle_kernel_name(const rake_bundle *bundle, uint32_t index);

typedef struct rake_param_info {
  uint32_t offset, size, align; /* in the parameter buffer */
  const char *name;             /* the PTX parameter */
  const char *role;             /* "arg1.aligned", ... or "" */
} rake_param_info;

/* The parameter layout of a kernel: its version, the bytes of the parameter
 * buffer rake_launch takes, and the number of parameters. */
rake_status rake_kernel_layout(const rake_bundle *bundle, const char *kernel,
                               uint32_t *layout_version, uint32_t *param_bytes,
                               uint32_t *param_count, rake_error *err);
rake_status rake_kernel_param(const rake_bundle *bundle, const char *kernel,
                              uint32_t index, rake_param_info *info,
                              rake_error *err);

/* How a kernel must be launched, as the bundle records it: CTAs of exactly
 * `block` threads, at least `dynamic_shared_bytes` bytes of dynamic shared
 * memory, and (the kernel is persistent) a grid of SM count x
 * `blocks_per_sm` CTAs. */
typedef struct rake_launch_shape {
  uint32_t block[3];
  uint32_t blocks_per_sm;
  uint32_t dynamic_shared_bytes;
  /* CTAs per cluster along x (the kernel requires it: .reqnctapercluster);
   * grid[0] must be a multiple of it. */
  uint32_t cluster;
} rake_launch_shape;

/* The launch shape of a kernel; RAKE_ERR_ABI when the bundle records none
 * (such a kernel is not launched). */
rake_status rake_kernel_launch_shape(const rake_bundle *bundle,
                                     const char *kernel,
                                     rake_launch_shape *shape, rake_error *err);

/* Loads the bundle's verified cubin bytes on `context` (made current for the
 * call and restored after), after checking the device's architecture. */
rake_status rake_module_load(const rake_bundle *bundle, struct CUctx_st *context,
                             rake_module **out, rake_error *err);
rake_status rake_module_unload(rake_module *module, rake_error *err);

typedef struct rake_launch_config {
  uint32_t grid[3];
  uint32_t block[3];
  uint32_t dynamic_shared_bytes;
} rake_launch_config;

/* Launches `kernel` on `stream` (asynchronously; the caller synchronizes).
 * `params` holds `param_bytes` bytes laid out as rake_kernel_param says for
 * `layout_version`. The launch must match the kernel's launch shape
 * (rake_kernel_launch_shape): `block` exactly, `dynamic_shared_bytes` at
 * least the recorded size; otherwise, or when the bundle records no launch
 * shape, it is refused with RAKE_ERR_ABI. Above 48 KiB of dynamic shared
 * memory the runtime raises the function's
 * CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES first. */
rake_status rake_launch(rake_module *module, const char *kernel,
                        const rake_launch_config *config,
                        struct CUstream_st *stream, uint32_t layout_version,
                        const void *params, size_t param_bytes, rake_error *err);

/* Appends one line of runtime evidence (device, compute capability, driver
 * version, runtime ABI, bundle hashes, `note`) as JSON to `path`
 * (NULL: <bundle>/evidence.jsonl). */
rake_status rake_record_evidence(const rake_module *module, const char *path,
                                 const char *note, rake_error *err);

#ifdef __cplusplus
}
#endif

#endif /* RAKE_RUNTIME_H */
