/*===- Rake.h - the C API of Rake GPU ------------------------------*- C -*-===*\
|*                                                                            *|
|* A small, stable C interface to the compiler, for other languages (the      *|
|* Python package binds it) and C programs: parse GpuIR, run pass pipelines   *|
|* (the synchronization check among them), print IR, compile to PTX. Every    *|
|* diagnostic goes to the caller's callback with its source location; no      *|
|* call aborts or throws on bad input.                                        *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef RAKE_C_RAKE_H
#define RAKE_C_RAKE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this interface: changes that break callers increment it. */
#define RAKE_C_API_VERSION 1

typedef struct RakeContext RakeContext;
typedef struct RakeModule RakeModule;

typedef enum RakeSeverity {
  RAKE_SEVERITY_ERROR = 0,
  RAKE_SEVERITY_WARNING = 1,
  RAKE_SEVERITY_NOTE = 2,
  RAKE_SEVERITY_REMARK = 3
} RakeSeverity;

/* A diagnostic: its severity, location ("file:line:col", or "" when it has
   none) and message. Notes attached to an error follow it as their own
   calls with RAKE_SEVERITY_NOTE. The strings live for the call only. */
typedef void (*RakeDiagnosticFn)(void *user, RakeSeverity severity,
                                 const char *location, const char *message);

/* A string result (IR text, PTX), `length` bytes; lives for the call only. */
typedef void (*RakeStringFn)(void *user, const char *data, size_t length);

/* The revision of the compiler (its git commit, or "unknown"). */
const char *rakeCompilerRevision(void);
int rakeApiVersion(void);

/* A context holds the dialects (GpuIR, AMIR and the upstream ones Rake
   lowers through) and owns the modules parsed in it. */
RakeContext *rakeContextCreate(void);
void rakeContextDestroy(RakeContext *context);

/* Parses and verifies MLIR text (GpuIR). `name` names the buffer in
   locations. Returns NULL after reporting the errors. */
RakeModule *rakeModuleParse(RakeContext *context, const char *text,
                            size_t length, const char *name,
                            RakeDiagnosticFn diagnostic, void *user);
void rakeModuleDestroy(RakeModule *module);

/* Prints the module's IR. `generic`: 0, the custom form (the generic form
   when the module does not verify); 1, the generic form; 2, the custom form
   even when the module does not verify (the IR between the steps of a
   schedule, which may break GpuIR's rules until a later step). */
void rakeModulePrint(RakeModule *module, int generic, RakeStringFn out,
                     void *user);

/* Runs a textual pass pipeline on the module, as rake-opt's
   --pass-pipeline takes it ("builtin.module(rake-check)"); the module
   changes in place. Returns 0 on success, nonzero after reporting. */
int rakeModuleRunPipeline(RakeModule *module, const char *pipeline,
                          RakeDiagnosticFn diagnostic, void *user);

/* Applies a schedule: `script` is a module holding a
   `transform.named_sequence @__transform_main` whose operations
   (transform.gpuir.* and the Transform dialect's) rewrite the module in
   place, as rake-opt --transform-interpreter does. With `steps` >= 0 only
   that many of the sequence's top-level operations run. Each operation that
   runs is printed to `step` (one call each; may be null). Returns 0 on
   success, nonzero after reporting (a refused rewrite says why). */
int rakeModuleApplySchedule(RakeModule *module, const char *script,
                            size_t length, int steps, RakeStringFn step,
                            void *stepUser, RakeDiagnosticFn diagnostic,
                            void *user);

/* The synchronization check (rake-opt --rake-check): 0 when every
   procedure's parallel program equals its sequential reading at its
   gpuir.check_sizes; otherwise each race is an error naming both
   accesses. The module is not changed. */
int rakeModuleCheck(RakeModule *module, RakeDiagnosticFn diagnostic,
                    void *user);

/* Compiles the module's GpuIR procedures to PTX for `chip` ("sm_90a") on a
   copy of the module. Returns 0 and calls `out` with the PTX, or nonzero
   after reporting. */
int rakeModuleToPtx(RakeModule *module, const char *chip, RakeStringFn out,
                    void *outUser, RakeDiagnosticFn diagnostic, void *user);

/* The kernel ABI of procedure `proc` (lib/Analysis/KernelABI: computed once,
   as code generation, rake-bundle and rake-run use it), as JSON:
   {"block": B, "blocks_per_sm": K, "cluster": C, "dynamic_shared_bytes": N,
    "shared_alignment": A, "roles": ["arg0.index", "arg1.allocated", ...],
    "tensor_maps": [{"arg": I, "rows": R, "cols": C, "swizzle": S}, ...]}.
   Returns 0 and calls `out`, or nonzero after reporting (no such
   procedure, or one with no device function). */
int rakeModuleKernelABI(RakeModule *module, const char *proc, RakeStringFn out,
                        void *outUser, RakeDiagnosticFn diagnostic, void *user);

#ifdef __cplusplus
}
#endif

#endif /* RAKE_C_RAKE_H */
