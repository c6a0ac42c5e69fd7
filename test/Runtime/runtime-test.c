/* rake-runtime-test: drives the C runtime (include/rake/runtime.h) the way a
 * caller does. Plain C; the driver entry points it needs for its own
 * allocations are opened with dlopen, as the runtime opens them.
 *
 *   rake-runtime-test open DIR       open and check a bundle; print its
 *                                    kernels and their parameter layouts
 *   rake-runtime-test load DIR       rake_module_load on a made-up context
 *   rake-runtime-test checks DIR     load on device 0 and try launches that
 *                                    break the ABI (each refused with its
 *                                    own code), then one that keeps it
 *   rake-runtime-test tensormaps DIR a kernel with two tensor-map parameters:
 *                                    launches with junk, swapped and
 *                                    destroyed maps and maps over other
 *                                    buffers (refused), and with a map made
 *                                    for each slot over its buffer
 *   rake-runtime-test run DIR N      vector_add on N floats: load on device
 *                                    0's primary context, C = A + B with the
 *                                    bundle's launch shape, check every
 *                                    element, record the evidence
 *
 * Exits 0 on success; on a refusal prints "refused: <code>: <message>" and
 * exits 1. Build on a GPU machine with:
 *   gcc -std=c11 -Iinclude -c test/Runtime/runtime-test.c
 *   g++ -std=c++17 -Iinclude runtime-test.o lib/Runtime/Runtime.cpp lib/Runtime/LaunchChecks.cpp \
 *       lib/Artifact/{Json,Crypto,Manifest}.cpp lib/Verifier/Cubin.cpp lib/Verifier/Ptx.cpp \
 *       lib/Profile/Profile.cpp -lcrypto -ldl -o rake-runtime-test
 * The environment variable RAKE_PUBLIC_KEY (read by the runtime itself)
 * requires a signature; RAKE_TEST_PROFILE names the profile to require and
 * RAKE_TEST_ALLOW_RELAXED=1 accepts a -relaxed one.
 */
#include "rake/runtime.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int refused(const rake_error *e) {
  printf("refused: %d: %s\n", (int)e->code, e->message);
  return 1;
}

static rake_status openWith(const char *dir, rake_bundle **b, rake_error *e) {
  rake_open_options o;
  memset(&o, 0, sizeof(o));
  o.version = RAKE_OPEN_OPTIONS_V1;
  o.profile = getenv("RAKE_TEST_PROFILE");
  o.allow_relaxed = getenv("RAKE_TEST_ALLOW_RELAXED") != NULL;
  return rake_bundle_open_with(dir, &o, b, e);
}

static int openBundle(const char *dir) {
  rake_bundle *b = NULL;
  rake_error e;
  if (openWith(dir, &b, &e) != RAKE_OK)
    return refused(&e);
  printf("bundle: profile %s, target %s, %u kernel(s)\n", rake_bundle_profile(b),
         rake_bundle_target(b), rake_bundle_kernel_count(b));
  printf("trust: %s\n", rake_bundle_trust(b));
  for (uint32_t i = 0; i < rake_bundle_kernel_count(b); ++i) {
    const char *k = rake_bundle_kernel_name(b, i);
    uint32_t version, bytes, count;
    if (rake_kernel_layout(b, k, &version, &bytes, &count, &e) != RAKE_OK)
      return refused(&e);
    printf("kernel %s: layout v%u, %u parameter bytes, %u parameters\n", k,
           version, bytes, count);
    for (uint32_t j = 0; j < count; ++j) {
      rake_param_info p;
      if (rake_kernel_param(b, k, j, &p, &e) != RAKE_OK)
        return refused(&e);
      printf("  %u: offset %u size %u align %u %s\n", j, p.offset, p.size,
             p.align, p.role);
    }
    rake_launch_shape shape;
    if (rake_kernel_launch_shape(b, k, &shape, &e) != RAKE_OK)
      printf("  launch: %d: %s\n", (int)e.code, e.message);
    else
      printf("  launch: block %ux%ux%u, %u per SM, %u bytes of dynamic shared "
             "memory, clusters of %u\n",
             shape.block[0], shape.block[1], shape.block[2],
             shape.blocks_per_sm, shape.dynamic_shared_bytes, shape.cluster);
  }
  if (rake_kernel_layout(b, "no_such_kernel", NULL, NULL, NULL, &e) != RAKE_OK)
    printf("lookup of no_such_kernel: %d: %s\n", (int)e.code, e.message);
  rake_bundle_close(b);
  return 0;
}

typedef int CUresult;
typedef unsigned long long CUdeviceptr;
struct Cuda {
  CUresult (*init)(unsigned);
  CUresult (*deviceGet)(int *, int);
  CUresult (*attr)(int *, int, int);
  CUresult (*retain)(struct CUctx_st **, int);
  CUresult (*setCurrent)(struct CUctx_st *);
  CUresult (*alloc)(CUdeviceptr *, size_t);
  CUresult (*free_)(CUdeviceptr);
  CUresult (*htod)(CUdeviceptr, const void *, size_t);
  CUresult (*dtoh)(void *, CUdeviceptr, size_t);
  CUresult (*sync)(void);
};

static int cudaOpen(struct Cuda *c) {
  const char *path = getenv("RAKE_LIBCUDA");
  void *lib = dlopen(path && *path ? path : "libcuda.so.1", RTLD_NOW);
  if (!lib) {
    printf("no driver: %s\n", dlerror());
    return 0;
  }
#define SYM(field, name)                                                       \
  if (!(*(void **)&c->field = dlsym(lib, name))) {                             \
    printf("driver lacks %s\n", name);                                         \
    return 0;                                                                  \
  }
  SYM(init, "cuInit");
  SYM(deviceGet, "cuDeviceGet");
  SYM(attr, "cuDeviceGetAttribute");
  SYM(retain, "cuDevicePrimaryCtxRetain");
  SYM(setCurrent, "cuCtxSetCurrent");
  SYM(alloc, "cuMemAlloc_v2");
  SYM(free_, "cuMemFree_v2");
  SYM(htod, "cuMemcpyHtoD_v2");
  SYM(dtoh, "cuMemcpyDtoH_v2");
  SYM(sync, "cuCtxSynchronize");
  return 1;
}

/* One value per parameter, chosen by the parameter's role. */
/* Fills the parameter buffer as a caller does: index parameter K (role
 * argK.index) the next of `idx` (in signature order), buffer K's descriptor
 * bufs[K] with offset 0, the sizes rake_kernel_buffer_shape gives at those
 * index values and row-major strides. */
static int fill(const rake_bundle *b, const char *k, unsigned char *buf,
                const int64_t *idx, uint32_t nidx, const CUdeviceptr *bufs) {
  uint32_t version, bytes, count;
  rake_error e;
  if (rake_kernel_layout(b, k, &version, &bytes, &count, &e) != RAKE_OK)
    return refused(&e);
  for (uint32_t j = 0; j < count; ++j) {
    rake_param_info p;
    if (rake_kernel_param(b, k, j, &p, &e) != RAKE_OK)
      return refused(&e);
    const char *field = strchr(p.role, '.');
    if (!strncmp(p.role, "tensormap.", 10))
      continue;
    if (!field || strncmp(p.role, "arg", 3) != 0) {
      printf("parameter %u has no role\n", j);
      return 1;
    }
    int arg = atoi(p.role + 3);
    unsigned long long v = 0;
    int64_t sizes[8];
    uint32_t rank = 0;
    if (!strcmp(field, ".index")) {
      /* The ordinal of argK among the index parameters. */
      uint32_t ordinal = 0;
      for (uint32_t i = 0; i < j; ++i) {
        rake_param_info q;
        rake_kernel_param(b, k, i, &q, &e);
        const char *f = strchr(q.role, '.');
        if (f && !strcmp(f, ".index"))
          ++ordinal;
      }
      v = ordinal < nidx ? (unsigned long long)idx[ordinal] : 0;
    } else if (!strcmp(field, ".allocated") || !strncmp(field, ".aligned", 8)) {
      v = bufs[arg];
    } else if (!strncmp(field, ".size", 5) || !strncmp(field, ".stride", 7)) {
      if (rake_kernel_buffer_shape(b, k, (uint32_t)arg, idx, nidx, sizes, 8,
                                   &rank, &e) != RAKE_OK)
        return refused(&e);
      int d = atoi(field + (field[2] == 'i' ? 5 : 7));
      if (field[2] == 'i') {
        v = (unsigned long long)sizes[d];
      } else {
        v = 1;
        for (uint32_t i = (uint32_t)d + 1; i < rank; ++i)
          v *= (unsigned long long)sizes[i];
      }
    }
    memcpy(buf + p.offset, &v, p.size < 8 ? p.size : 8);
  }
  return 0;
}

/* Writes `v` into the parameter whose role is `role`; 0 if there is none. */
static int setRole(const rake_bundle *b, const char *k, unsigned char *buf,
                   const char *role, long long v) {
  uint32_t version, bytes, count;
  rake_error e;
  rake_kernel_layout(b, k, &version, &bytes, &count, &e);
  for (uint32_t j = 0; j < count; ++j) {
    rake_param_info p;
    rake_kernel_param(b, k, j, &p, &e);
    if (!strcmp(p.role, role)) {
      memcpy(buf + p.offset, &v, p.size < 8 ? p.size : 8);
      return 1;
    }
  }
  return 0;
}

static long long getRole(const rake_bundle *b, const char *k,
                         const unsigned char *buf, const char *role) {
  uint32_t version, bytes, count;
  rake_error e;
  long long v = 0;
  rake_kernel_layout(b, k, &version, &bytes, &count, &e);
  for (uint32_t j = 0; j < count; ++j) {
    rake_param_info p;
    rake_kernel_param(b, k, j, &p, &e);
    if (!strcmp(p.role, role))
      memcpy(&v, buf + p.offset, p.size < 8 ? p.size : 8);
  }
  return v;
}

static int pack(const rake_bundle *b, const char *k, unsigned char *buf,
                long long n, CUdeviceptr *bufs) {
  int64_t idx[1] = {n};
  return fill(b, k, buf, idx, 1, bufs);
}

/* Opens the bundle, the driver and device 0's primary context, and loads
 * the bundle's module there; 0, or the exit status after saying why. */
static int openAndLoad(const char *dir, struct Cuda *c, rake_bundle **b,
                       rake_module **m, int *sms) {
  rake_error e;
  if (openWith(dir, b, &e) != RAKE_OK)
    return refused(&e);
  if (!cudaOpen(c))
    return 1;
  int dev = 0;
  struct CUctx_st *ctx = NULL;
  if (c->init(0) || c->deviceGet(&dev, 0) || c->attr(sms, 16, dev) ||
      c->retain(&ctx, dev) || c->setCurrent(ctx)) {
    printf("cannot set up device 0\n");
    return 1;
  }
  if (rake_module_load(*b, ctx, m, &e) != RAKE_OK)
    return refused(&e);
  return 0;
}

static int run(const char *dir, long long n) {
  rake_bundle *b = NULL;
  rake_module *m = NULL;
  rake_error e;
  struct Cuda c;
  int sms = 0;
  int status = openAndLoad(dir, &c, &b, &m, &sms);
  if (status)
    return status;
  /* A negative n (refused by the runtime at the launch) allocates one. */
  size_t size = (size_t)(n > 0 ? n : 1) * sizeof(float);
  float *host = malloc(size), *out = malloc(size);
  CUdeviceptr bufs[4] = {0, 0, 0, 0};
  for (int i = 1; i <= 3; ++i)
    if (c.alloc(&bufs[i], size)) {
      printf("cuMemAlloc failed\n");
      return 1;
    }
  for (long long i = 0; i < n; ++i)
    host[i] = (float)i;
  c.htod(bufs[1], host, size);
  for (long long i = 0; i < n; ++i)
    host[i] = 0.5f * (float)i;
  c.htod(bufs[2], host, size);
  const char *k = rake_bundle_kernel_name(b, 0);
  uint32_t version, bytes, count;
  rake_kernel_layout(b, k, &version, &bytes, &count, &e);
  unsigned char *params = calloc(1, bytes);
  if (pack(b, k, params, n, bufs))
    return 1;
  /* The launch shape the bundle records: exactly its block, SM count x
   * blocks per SM CTAs, at least its dynamic shared memory (more if
   * RAKE_TEST_EXTRA_SHARED asks, to show the opt-in above 48 KiB). */
  rake_launch_shape shape = {{256, 1, 1}, 1, 0};
  if (rake_kernel_launch_shape(b, k, &shape, &e) != RAKE_OK)
    printf("launch shape: %d: %s\n", (int)e.code, e.message);
  const char *extra = getenv("RAKE_TEST_EXTRA_SHARED");
  uint32_t cluster = shape.cluster ? shape.cluster : 1;
  rake_launch_config cfg = {
      {(uint32_t)sms * shape.blocks_per_sm / cluster * cluster, 1, 1},
      {shape.block[0], shape.block[1], shape.block[2]},
      shape.dynamic_shared_bytes + (uint32_t)(extra ? atol(extra) : 0)};
  /* A launch that breaks the shape is refused before the driver sees it. */
  rake_launch_config wrong = cfg;
  wrong.block[0] = cfg.block[0] / 2;
  if (rake_launch(m, k, &wrong, NULL, RAKE_PARAM_LAYOUT_V1, params, bytes,
                  &e) != RAKE_OK)
    printf("half the block: %d: %s\n", (int)e.code, e.message);
  if (shape.dynamic_shared_bytes > 0) {
    wrong = cfg;
    wrong.dynamic_shared_bytes = shape.dynamic_shared_bytes - 1;
    if (rake_launch(m, k, &wrong, NULL, RAKE_PARAM_LAYOUT_V1, params, bytes,
                    &e) != RAKE_OK)
      printf("too little dynamic shared memory: %d: %s\n", (int)e.code,
             e.message);
  }
  if (cluster > 1) {
    wrong = cfg;
    wrong.grid[0] = cfg.grid[0] + 1;
    if (rake_launch(m, k, &wrong, NULL, RAKE_PARAM_LAYOUT_V1, params, bytes,
                    &e) != RAKE_OK)
      printf("grid not a multiple of the cluster: %d: %s\n", (int)e.code,
             e.message);
  }
  /* So is a launch that breaks the layout. */
  if (rake_launch(m, k, &cfg, NULL, RAKE_PARAM_LAYOUT_V1, params, bytes - 8,
                  &e) != RAKE_OK)
    printf("short parameter buffer: %d: %s\n", (int)e.code, e.message);
  if (rake_launch(m, k, &cfg, NULL, 2, params, bytes, &e) != RAKE_OK)
    printf("layout version 2: %d: %s\n", (int)e.code, e.message);
  /* A buffer whose role asks for an alignment (argK.alignedN) that its data
   * does not have: A one float in. */
  {
    rake_param_info p;
    if (rake_kernel_param(b, k, 2, &p, &e) == RAKE_OK &&
        strncmp(p.role, "arg1.aligned", 12) == 0 && p.role[12]) {
      unsigned char *shifted = malloc(bytes);
      memcpy(shifted, params, bytes);
      unsigned long long v;
      memcpy(&v, shifted + p.offset, 8);
      v += 4;
      memcpy(shifted + p.offset, &v, 8);
      if (rake_launch(m, k, &cfg, NULL, RAKE_PARAM_LAYOUT_V1, shifted, bytes,
                      &e) != RAKE_OK)
        printf("misaligned buffer: %d: %s\n", (int)e.code, e.message);
      free(shifted);
    }
  }
  if (rake_launch(m, k, &cfg, NULL, RAKE_PARAM_LAYOUT_V1, params, bytes, &e) !=
      RAKE_OK)
    return refused(&e);
  if (c.sync()) {
    printf("cuCtxSynchronize failed\n");
    return 1;
  }
  c.dtoh(out, bufs[3], size);
  long long bad = 0;
  for (long long i = 0; i < n; ++i)
    if (out[i] != (float)i + 0.5f * (float)i)
      ++bad;
  printf("%s: %lld elements on %d SMs: %lld wrong\n", k, n, sms, bad);
  if (rake_record_evidence(m, NULL, "rake-runtime-test run", &e) != RAKE_OK)
    return refused(&e);
  for (int i = 1; i <= 3; ++i)
    c.free_(bufs[i]);
  if (rake_module_unload(m, &e) != RAKE_OK)
    return refused(&e);
  rake_bundle_close(b);
  free(host);
  free(out);
  free(params);
  return bad != 0;
}

/* rake_module_load on a context the caller claims to have: the runtime opens
 * the driver itself, so this shows what it says where there is none. */
static int load(const char *dir) {
  rake_bundle *b = NULL;
  rake_module *m = NULL;
  rake_error e;
  if (openWith(dir, &b, &e) != RAKE_OK)
    return refused(&e);
  if (rake_module_load(b, (struct CUctx_st *)&e, &m, &e) != RAKE_OK)
    return refused(&e);
  rake_module_unload(m, &e);
  rake_bundle_close(b);
  return 0;
}

/* Launches that break the ABI, each refused with its own code before the
 * driver sees it, then one that keeps it (with zeroed parameters: for the
 * stand-in driver, which only logs kernels other than vector_add). */
/* The launch the bundle records for a persistent kernel: its block and
 * dynamic shared memory, SM count x blocks per SM CTAs in whole clusters.
 * 0, or 1 with `e` saying why. */
static int recordedConfig(const rake_bundle *b, const char *k, int sms,
                          rake_launch_shape *shape, rake_launch_config *cfg,
                          rake_error *e) {
  if (rake_kernel_launch_shape(b, k, shape, e) != RAKE_OK)
    return 1;
  rake_launch_config c = {
      {(uint32_t)sms * shape->blocks_per_sm / shape->cluster * shape->cluster, 1, 1},
      {shape->block[0], shape->block[1], shape->block[2]},
      shape->dynamic_shared_bytes};
  *cfg = c;
  return 0;
}

static int checks(const char *dir) {
  rake_bundle *b = NULL;
  rake_module *m = NULL;
  rake_error e;
  struct Cuda c;
  int sms = 0;
  int status = openAndLoad(dir, &c, &b, &m, &sms);
  if (status)
    return status;
  const char *k = rake_bundle_kernel_name(b, 0);
  uint32_t version, bytes, count;
  rake_kernel_layout(b, k, &version, &bytes, &count, &e);
  unsigned char *params = calloc(1, bytes + 8);
  rake_arg *args = calloc(count + 1, sizeof(rake_arg));
  /* Three buffers of n = 3 tasks (each 3 x 2 x 128 floats), as a caller
   * passes them. */
  CUdeviceptr bufs[4] = {0, 0, 0, 0};
  for (int i = 1; i <= 3; ++i)
    if (c.alloc(&bufs[i], 3 * 2 * 128 * sizeof(float))) {
      printf("cuMemAlloc failed\n");
      return 1;
    }
  int64_t idx[1] = {3};
  if (fill(b, k, params, idx, 1, bufs))
    return 1;
  for (uint32_t j = 0; j < count; ++j) {
    rake_param_info p;
    rake_kernel_param(b, k, j, &p, &e);
    args[j].value = params + p.offset;
    args[j].size = p.size;
    args[j].align = p.align;
  }
  rake_launch_shape shape;
  rake_launch_config cfg;
  if (recordedConfig(b, k, sms, &shape, &cfg, &e))
    return refused(&e);
  rake_launch_config w;
#define TRY(what, call)                                                        \
  if ((call) != RAKE_OK)                                                       \
    printf("%s: %d: %s\n", what, (int)e.code, e.message);                      \
  else                                                                         \
    printf("%s: launched\n", what);
  w = cfg; w.block[0] = cfg.block[0] * 2;
  TRY("twice the block", rake_launch(m, k, &w, NULL, 1, params, bytes, &e));
  w = cfg; w.grid[1] = 0;
  TRY("a zero grid dimension", rake_launch(m, k, &w, NULL, 1, params, bytes, &e));
  w = cfg; w.dynamic_shared_bytes = 0x80000000u;
  TRY("2 GiB of shared memory", rake_launch(m, k, &w, NULL, 1, params, bytes, &e));
  w = cfg; w.grid[1] = 2;
  TRY("a second grid dimension", rake_launch(m, k, &w, NULL, 1, params, bytes, &e));
  if (shape.cluster > 1) {
    w = cfg; w.grid[0] = cfg.grid[0] + 1;
    TRY("grid not whole clusters", rake_launch(m, k, &w, NULL, 1, params, bytes, &e));
  }
  if (shape.dynamic_shared_bytes > 0) {
    w = cfg; w.dynamic_shared_bytes = shape.dynamic_shared_bytes - 1;
    TRY("too little dynamic shared memory", rake_launch(m, k, &w, NULL, 1, params, bytes, &e));
  }
  TRY("layout version 2", rake_launch(m, k, &cfg, NULL, 2, params, bytes, &e));
  TRY("a longer parameter buffer", rake_launch(m, k, &cfg, NULL, 1, params, bytes + 8, &e));
  TRY("one argument fewer", rake_launch_args(m, k, &cfg, NULL, count - 1, args, &e));
  TRY("one argument more", rake_launch_args(m, k, &cfg, NULL, count + 1, args, &e));
  args[0].size /= 2;
  TRY("argument 0 half its size", rake_launch_args(m, k, &cfg, NULL, count, args, &e));
  args[0].size *= 2;
  args[0].align /= 2;
  TRY("argument 0 half its alignment", rake_launch_args(m, k, &cfg, NULL, count, args, &e));
  args[0].align *= 2;
  /* Buffer descriptors that are not the buffers the kernel was checked
   * with (an adversarial review: the overlap check read fields the kernel
   * ignores, and none of them was checked). */
#define BREAK(what, role, value)                                               \
  do {                                                                         \
    long long saved = getRole(b, k, params, role);                             \
    setRole(b, k, params, role, value);                                        \
    TRY(what, rake_launch(m, k, &cfg, NULL, 1, params, bytes, &e));            \
    setRole(b, k, params, role, saved);                                        \
  } while (0)
  BREAK("an offset", "arg3.offset", 256);
  BREAK("a size the kernel was not checked for", "arg1.size0", 4);
  BREAK("an empty buffer", "arg3.size0", 0);
  BREAK("a negative stride", "arg3.stride2", -1);
  BREAK("a column-major stride", "arg1.stride0", 1);
  BREAK("Z over Y", "arg3.aligned", (long long)bufs[2]);
  BREAK("Z over Y's last byte", "arg3.aligned", (long long)bufs[2] + 3 * 2 * 128 * 4 - 4);
  BREAK("a size near 2^62", "arg0.index", 1LL << 62);
  {
    /* Sizes consistent with n = 2^62 whose bytes overflow 64 bits. */
    setRole(b, k, params, "arg0.index", 1LL << 62);
    setRole(b, k, params, "arg1.size0", 1LL << 62);
    TRY("2^62 tasks", rake_launch(m, k, &cfg, NULL, 1, params, bytes, &e));
    setRole(b, k, params, "arg0.index", 3);
    setRole(b, k, params, "arg1.size0", 3);
  }
#undef BREAK
  TRY("the recorded shape and layout", rake_launch_args(m, k, &cfg, NULL, count, args, &e));
#undef TRY
  rake_module_unload(m, &e);
  rake_bundle_close(b);
  free(params);
  free(args);
  return 0;
}

/* A kernel with tensor-map parameters: each launch passes a map in each
 * slot, and only a live map made for that kernel and parameter is taken. */
static int tensorMaps(const char *dir) {
  rake_bundle *b = NULL;
  rake_module *m = NULL;
  rake_error e;
  struct Cuda c;
  int sms = 0;
  int status = openAndLoad(dir, &c, &b, &m, &sms);
  if (status)
    return status;
  const char *k = rake_bundle_kernel_name(b, 0);
  uint32_t version, bytes, count;
  rake_kernel_layout(b, k, &version, &bytes, &count, &e);
  unsigned char *params = calloc(1, bytes);
  uint32_t slot[2] = {0, 0}, slots = 0, offset[2] = {0, 0};
  for (uint32_t j = 0; j < count && slots < 2; ++j) {
    rake_param_info p;
    rake_kernel_param(b, k, j, &p, &e);
    if (!strncmp(p.role, "tensormap.", 10)) {
      offset[slots] = p.offset;
      slot[slots++] = j;
    }
  }
  if (slots < 2) {
    printf("the kernel has fewer than two tensor-map parameters\n");
    return 1;
  }
  /* The TMA GEMM at Mt = 2, Nt = 4, Kt = 10: A and Bt 512 x 640 bf16, C
   * 512 x 512 f32, each its own allocation (bufs[K] for argument K). */
  CUdeviceptr bufs[6] = {0, 0, 0, 0, 0, 0};
  for (int i = 3; i <= 5; ++i)
    if (c.alloc(&bufs[i], 512 * 640 * 4)) {
      printf("cuMemAlloc failed\n");
      return 1;
    }
  int64_t idx[3] = {2, 4, 10};
  if (fill(b, k, params, idx, 3, bufs))
    return 1;
  uint64_t map[2];
  for (int i = 0; i < 2; ++i)
    if (rake_tensor_map_create(m, k, slot[i], (uint64_t)bufs[3 + i], 512, 640,
                               1280, &map[i], &e) != RAKE_OK)
      return refused(&e);
  /* Maps that do not describe their buffer: A's made over C, over Bt's
   * allocation, one row short. */
  uint64_t overC, overB, short_;
  if (rake_tensor_map_create(m, k, slot[0], (uint64_t)bufs[5], 512, 512, 1024,
                             &overC, &e) != RAKE_OK ||
      rake_tensor_map_create(m, k, slot[0], (uint64_t)bufs[4], 512, 640, 1280,
                             &overB, &e) != RAKE_OK ||
      rake_tensor_map_create(m, k, slot[0], (uint64_t)bufs[3], 511, 640, 1280,
                             &short_, &e) != RAKE_OK)
    return refused(&e);
  rake_launch_shape shape;
  rake_launch_config cfg;
  if (recordedConfig(b, k, sms, &shape, &cfg, &e))
    return refused(&e);
#define TRY(what, a, b2)                                                       \
  do {                                                                         \
    uint64_t x = (a), y = (b2);                                                \
    memcpy(params + offset[0], &x, 8);                                         \
    memcpy(params + offset[1], &y, 8);                                         \
    if (rake_launch(m, k, &cfg, NULL, 1, params, bytes, &e) != RAKE_OK)        \
      printf("%s: %d: %s\n", what, (int)e.code, e.message);                   \
    else                                                                       \
      printf("%s: launched\n", what);                                         \
  } while (0)
  TRY("junk", 0xdeadbeefull, map[1]);
  TRY("swapped", map[1], map[0]);
  TRY("A's map over C", overC, map[1]);
  TRY("A's map over Bt", overB, map[1]);
  TRY("A's map a row short", short_, map[1]);
  TRY("each made for its parameter and buffer", map[0], map[1]);
  rake_tensor_map_destroy(m, map[0], &e);
  TRY("destroyed", map[0], map[1]);
#undef TRY
  rake_module_unload(m, &e);
  rake_bundle_close(b);
  free(params);
  return 0;
}

int main(int argc, char **argv) {
  if (argc >= 3 && !strcmp(argv[1], "tensormaps"))
    return tensorMaps(argv[2]);
  if (argc >= 3 && !strcmp(argv[1], "checks"))
    return checks(argv[2]);
  if (argc >= 3 && !strcmp(argv[1], "open"))
    return openBundle(argv[2]);
  if (argc >= 3 && !strcmp(argv[1], "load"))
    return load(argv[2]);
  if (argc >= 4 && !strcmp(argv[1], "run"))
    return run(argv[2], atoll(argv[3]));
  fprintf(stderr, "usage: rake-runtime-test open DIR | load DIR | checks DIR | "
                  "tensormaps DIR | run DIR N\n");
  return 2;
}
