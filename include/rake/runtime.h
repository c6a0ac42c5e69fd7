/*===- rake/runtime.h - Load and launch verified Rake kernels ---*- C -*-===*\
 *
 * The Rake GPU runtime: a C ABI that loads an artifact bundle (a folder made
 * by rake-bundle: kernel.cubin, kernel.ptx, disasm.json, manifest.json,
 * manifest.sha256, and manifest.sig when signed) only after the checks
 * rake-verify makes that need no disassembler (the same code:
 * include/Rake/Artifact/Manifest.h), loads exactly those verified cubin
 * bytes on the caller's CUDA context (cuModuleLoadData; never PTX, never a
 * JIT), and launches a kernel on the caller's stream only in the shape and
 * with the parameters the bundle's ABI records.
 *
 * Without a public key the runtime checks integrity, not origin: a bundle
 * rewritten wholesale and consistently (every hash and the seal recomputed)
 * is indistinguishable from one rake-verify made. Given the Ed25519 public
 * key of whoever ran `rake-verify --sign`, it loads only bundles that key
 * signed (docs/Artifacts.md, "Threat model").
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
  RAKE_ERR_NOT_FOUND = 11,   /* no such kernel in the bundle */
  RAKE_ERR_TOOLCHAIN = 12,   /* ptxas or nvdisasm not pinned by the profile */
  RAKE_ERR_PROFILE = 13,     /* unknown, other, changed or relaxed profile */
  RAKE_ERR_SIGNATURE = 14,   /* the required signature is missing or wrong */
  RAKE_ERR_ELF = 15,         /* the cubin is not a well-formed ptxas cubin */
  RAKE_ERR_PTX = 16,         /* the PTX is malformed or breaks the profile */
  RAKE_ERR_RESOURCES = 17,   /* a stack frame or local memory (strict) */
  /* Launch refusals: each its own code. */
  RAKE_ERR_LAUNCH_NO_SHAPE = 20,  /* the bundle records no launch shape */
  RAKE_ERR_LAUNCH_BLOCK = 21,     /* the block is not the compiled one */
  RAKE_ERR_LAUNCH_GRID = 22,      /* a zero grid dimension */
  RAKE_ERR_LAUNCH_CLUSTER = 23,   /* the grid is not whole clusters */
  RAKE_ERR_LAUNCH_SHARED = 24,    /* too little dynamic shared memory */
  RAKE_ERR_PARAM_LAYOUT = 25,     /* an unknown parameter layout version */
  RAKE_ERR_PARAM_BYTES = 26,      /* the parameter buffer's size differs */
  RAKE_ERR_PARAM_COUNT = 27,      /* the number of arguments differs */
  RAKE_ERR_PARAM_SIZE = 28,       /* an argument's size differs */
  RAKE_ERR_PARAM_ALIGN = 29,      /* an argument's alignment differs */
  RAKE_ERR_DATA_ALIGN = 30,       /* a buffer's data is less aligned than
                                     its role (argK.alignedN) requires */
  RAKE_ERR_BUFFER = 31            /* a buffer's descriptor is not the one
                                     the kernel was checked with: offset,
                                     shape, strides, element type, or its
                                     tensor map */
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

/* How a bundle is opened. Zero-initialize, set `version`, then what you
 * need. */
#define RAKE_OPEN_OPTIONS_V1 1
typedef struct rake_open_options {
  uint32_t version; /* RAKE_OPEN_OPTIONS_V1 */
  /* The Ed25519 public key (PEM text) whose signature the bundle must carry,
   * or NULL. When both are NULL, the environment variable RAKE_PUBLIC_KEY
   * names a PEM file, if set; otherwise only integrity is checked. A key
   * asked for in any of these ways that is empty refuses every bundle
   * (RAKE_ERR_SIGNATURE): it never means "integrity only". */
  const char *public_key_pem;
  const char *public_key_file;
  /* The profile the bundle must name, or NULL: any profile that is not a
   * -relaxed one (or any at all with allow_relaxed). */
  const char *profile;
  int allow_relaxed;
  int allow_repinned; /* a ptxas the bundle records as re-pinned */
} rake_open_options;

/* Opens and checks a bundle folder. No driver needed. rake_bundle_open is
 * rake_bundle_open_with(dir, NULL, ...). On a refusal the status is the
 * first broken rule's, and the message names it and how many there were. */
rake_status rake_bundle_open(const char *dir, rake_bundle **out, rake_error *err);
rake_status rake_bundle_open_with(const char *dir,
                                  const rake_open_options *options,
                                  rake_bundle **out, rake_error *err);
void rake_bundle_close(rake_bundle *bundle);

/* What the open established: "signed by ed25519 key <fingerprint>", or
 * "integrity only: ..." when no key was given. */
const char *rake_bundle_trust(const rake_bundle *bundle);

/* The manifest the open checked (JSON text, rake-bundle/3): what a caller
 * reads the kernels' source signatures from (kernels[].signature: each
 * parameter's name, kind, element type and extents). Valid until close. */
const char *rake_bundle_manifest(const rake_bundle *bundle);

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

/* The shape buffer parameter `arg` (its position in the source signature,
 * the K of its roles argK.*) of `kernel` must have, as rake_launch checks
 * it: given the values of the kernel's index parameters in signature order
 * (`index_values`, `index_count` of them), writes its rank to *rank and the
 * extent of each dimension to sizes[0 .. min(rank, max_rank)), -1 where the
 * source declares none. RAKE_ERR_ABI for a bundle without a signature (PTX
 * input) or a parameter that is not a buffer; RAKE_ERR_BUFFER when an
 * extent cannot be evaluated at these values. */
rake_status rake_kernel_buffer_shape(const rake_bundle *bundle,
                                     const char *kernel, uint32_t arg,
                                     const int64_t *index_values,
                                     uint32_t index_count, int64_t *sizes,
                                     uint32_t max_rank, uint32_t *rank,
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

/* The launch shape of a kernel; RAKE_ERR_LAUNCH_NO_SHAPE when the bundle
 * records none (such a kernel is not launched). */
rake_status rake_kernel_launch_shape(const rake_bundle *bundle,
                                     const char *kernel,
                                     rake_launch_shape *shape, rake_error *err);

/* Loads the bundle's verified cubin bytes on `context` (made current for the
 * call and restored after), after checking the device's architecture. A
 * NULL `context` is the calling thread's current context (as the CUDA
 * runtime and torch leave it), or the primary context of device 0 when the
 * thread has none. */
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
 * (rake_kernel_launch_shape): `block` exactly (RAKE_ERR_LAUNCH_BLOCK),
 * `dynamic_shared_bytes` at least the recorded size
 * (RAKE_ERR_LAUNCH_SHARED), grid[0] a multiple of the cluster
 * (RAKE_ERR_LAUNCH_CLUSTER), no zero grid dimension (RAKE_ERR_LAUNCH_GRID);
 * a kernel without a recorded shape is not launched
 * (RAKE_ERR_LAUNCH_NO_SHAPE). A buffer whose aligned pointer has the role
 * argK.alignedN (its procedure parameter declares gpuir.align = N, which the
 * kernel's vector accesses rely on) must have that pointer and its offset
 * (the next parameter, in elements) multiples of N (RAKE_ERR_DATA_ALIGN).
 * Each buffer's memref descriptor must be what the kernel's checks assumed
 * (RAKE_ERR_BUFFER): offset 0 (the kernel indexes from the aligned
 * pointer), each size the extent the signature declares at the launch's
 * index values, row-major strides, an element type of known size, and a
 * tensor map of it made over exactly that buffer (its address, rows,
 * columns and row pitch); no two buffers may overlap (RAKE_ERR_ARGUMENT).
 * Above 48 KiB of dynamic shared memory the
 * runtime raises the function's CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
 * first. */
rake_status rake_launch(rake_module *module, const char *kernel,
                        const rake_launch_config *config,
                        struct CUstream_st *stream, uint32_t layout_version,
                        const void *params, size_t param_bytes, rake_error *err);

/* One argument as the caller built it: its bytes, size and alignment. */
typedef struct rake_arg {
  const void *value;
  uint32_t size;
  uint32_t align;
} rake_arg;

/* rake_launch with the arguments one by one: their number, each size and
 * each alignment must be the ABI's (RAKE_ERR_PARAM_COUNT, _SIZE, _ALIGN),
 * then the launch is checked as rake_launch checks it. */
rake_status rake_launch_args(rake_module *module, const char *kernel,
                             const rake_launch_config *config,
                             struct CUstream_st *stream, uint32_t arg_count,
                             const rake_arg *args, rake_error *err);

/* The launch the bundle's shape gives on the module's device: CTAs of the
 * recorded block, the recorded dynamic shared memory, and (the kernel is
 * persistent) SM count x blocks_per_sm CTAs rounded down to whole clusters. */
rake_status rake_kernel_launch_config(const rake_module *module,
                                      const char *kernel,
                                      rake_launch_config *config,
                                      rake_error *err);

/* Makes the CUtensorMap that kernel parameter `param` (role
 * "tensormap.argK.RxC.swizzleB") stands for: over the row-major
 * two-dimensional buffer at device address `address` of `rows` x `cols`
 * elements, `row_stride_bytes` apart, with the box and swizzle the bundle
 * records and the element type of source parameter K. The map is placed in
 * device memory the module owns; *device_address is what the parameter
 * takes. Freed by rake_tensor_map_destroy or when the module is unloaded. */
rake_status rake_tensor_map_create(rake_module *module, const char *kernel,
                                   uint32_t param, uint64_t address,
                                   uint64_t rows, uint64_t cols,
                                   uint64_t row_stride_bytes,
                                   uint64_t *device_address, rake_error *err);
rake_status rake_tensor_map_destroy(rake_module *module,
                                    uint64_t device_address, rake_error *err);

/* Appends one line of runtime evidence (device, compute capability, driver
 * version, runtime ABI, bundle hashes, `note`) as JSON to `path`
 * (NULL: <bundle>/evidence.jsonl), which must be a regular file or absent:
 * a symbolic link is refused (RAKE_ERR_IO), never followed. */
rake_status rake_record_evidence(const rake_module *module, const char *path,
                                 const char *note, rake_error *err);

#ifdef __cplusplus
}
#endif

#endif /* RAKE_RUNTIME_H */
