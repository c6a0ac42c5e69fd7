/* A stand-in for libcuda.so.1 for the runtime's tests on machines without a
 * GPU (RAKE_LIBCUDA=.../librake-fake-cuda.so). "Device memory" is host
 * memory; the compute capability comes from FAKE_CUDA_CC (default 90).
 * cuModuleLoadData accepts only an ELF image (a cubin), never PTX text, and
 * says so on stderr; cuLaunchKernel of "vector_add" (or "vector_add_v4",
 * the same parameters) runs C = A + B on the
 * host from the parameters exactly as the runtime laid them out. Launches
 * and cuFuncSetAttribute calls are logged on stderr with their shared
 * memory. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
static int loaded;

CUresult cuInit(unsigned f) { (void)f; return 0; }
CUresult cuDriverGetVersion(int *v) { *v = 13000; return 0; }
CUresult cuDeviceGet(int *d, int o) { *d = o; return 0; }
CUresult cuDeviceGetName(char *n, int len, int d) {
  (void)d; snprintf(n, (size_t)len, "fake-cuda device"); return 0;
}
CUresult cuDeviceGetAttribute(int *v, int attr, int d) {
  (void)d;
  const char *cc = getenv("FAKE_CUDA_CC");
  int c = cc ? atoi(cc) : 90;
  if (attr == 75) *v = c / 10;
  else if (attr == 76) *v = c % 10;
  else if (attr == 16) *v = 4;
  else *v = 0;
  return 0;
}
static int ctxToken;
CUresult cuDevicePrimaryCtxRetain(void **ctx, int d) { (void)d; *ctx = &ctxToken; return 0; }
CUresult cuCtxSetCurrent(void *ctx) { (void)ctx; return 0; }
/* The thread's current context: the primary one, as torch leaves it, unless
 * FAKE_CUDA_NO_CONTEXT is set. */
CUresult cuCtxGetCurrent(void **ctx) {
  *ctx = getenv("FAKE_CUDA_NO_CONTEXT") ? NULL : &ctxToken; return 0;
}
CUresult cuCtxPushCurrent_v2(void *ctx) { return ctx == &ctxToken ? 0 : 201; }
CUresult cuCtxPopCurrent_v2(void **ctx) { if (ctx) *ctx = &ctxToken; return 0; }
CUresult cuCtxGetDevice(int *d) { *d = 0; return 0; }
CUresult cuCtxSynchronize(void) { return 0; }
CUresult cuGetErrorString(CUresult r, const char **s) {
  *s = r == 218 ? "CUDA_ERROR_INVALID_PTX (fake)" : "fake-cuda error"; return 0;
}
CUresult cuModuleLoadData(void **mod, const void *image) {
  const unsigned char *p = image;
  if (memcmp(p, "\x7f" "ELF", 4) != 0) {
    fprintf(stderr, "fake-cuda: cuModuleLoadData was given something other than a cubin\n");
    return 218;
  }
  fprintf(stderr, "fake-cuda: cuModuleLoadData: an ELF image (a cubin)\n");
  loaded = 1;
  *mod = &loaded;
  return 0;
}
CUresult cuModuleUnload(void *mod) { (void)mod; loaded = 0; return 0; }
CUresult cuModuleGetFunction(void **f, void *mod, const char *name) {
  (void)mod; *f = (void *)strdup(name); return 0;
}
CUresult cuMemAlloc_v2(unsigned long long *p, size_t n) {
  *p = (unsigned long long)(uintptr_t)calloc(1, n); return *p ? 0 : 2;
}
CUresult cuMemFree_v2(unsigned long long p) { free((void *)(uintptr_t)p); return 0; }
CUresult cuMemcpyHtoD_v2(unsigned long long d, const void *h, size_t n) {
  memcpy((void *)(uintptr_t)d, h, n); return 0;
}
CUresult cuMemcpyDtoH_v2(void *h, unsigned long long d, size_t n) {
  memcpy(h, (void *)(uintptr_t)d, n); return 0;
}
/* Logs the map's description and writes it into the map's bytes. */
CUresult cuTensorMapEncodeTiled(void *map, int type, unsigned rank, void *addr,
                                const unsigned long long *dims,
                                const unsigned long long *strides,
                                const unsigned *box, const unsigned *estrides,
                                int interleave, int swizzle, int l2, int oob) {
  (void)estrides; (void)interleave; (void)l2; (void)oob; (void)addr;
  fprintf(stderr, "fake-cuda: cuTensorMapEncodeTiled type %d rank %u dims %llux%llu "
          "row stride %llu box %ux%u swizzle %d\n", type, rank, dims[0], dims[1],
          strides[0], box[0], box[1], swizzle);
  if (box[0] > 256 || box[1] > 256) return 1;
  snprintf((char *)map, 128, "map %llux%llu", dims[1], dims[0]);
  return 0;
}
CUresult cuFuncSetAttribute(void *f, int attr, int value) {
  fprintf(stderr, "fake-cuda: cuFuncSetAttribute %s %s %d\n", (const char *)f,
          attr == 8 ? "MAX_DYNAMIC_SHARED_SIZE_BYTES" : "?", value);
  /* The H200's opt-in limit (cudaDevAttrMaxSharedMemoryPerBlockOptin). */
  return attr == 8 && value > 232448 ? 1 : 0;
}
CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz,
                        unsigned bx, unsigned by, unsigned bz, unsigned shm,
                        void *stream, void **args, void **extra) {
  (void)stream; (void)extra;
  fprintf(stderr, "fake-cuda: cuLaunchKernel %s grid %ux%ux%u block %ux%ux%u shared %u\n",
          (const char *)f, gx, gy, gz, bx, by, bz, shm);
  if (!loaded) return 400;
  if (strcmp((const char *)f, "vector_add") == 0 ||
      strcmp((const char *)f, "vector_add_v4") == 0) {
    /* n, then A, B, C as (allocated, aligned, offset, size, stride). */
    int64_t n = *(int64_t *)args[0];
    float *a = *(float **)args[2], *b = *(float **)args[7], *c = *(float **)args[12];
    for (int64_t i = 0; i < n; ++i) c[i] = a[i] + b[i];
  }
  return 0;
}
