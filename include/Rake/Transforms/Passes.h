//===- Passes.h - passes that check, change or annotate GpuIR ---*- C++ -*-===//

#ifndef RAKE_TRANSFORMS_PASSES_H
#define RAKE_TRANSFORMS_PASSES_H

#include "Rake/Dialect/GpuIR/IR/GpuIR.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::rake {

#define GEN_PASS_DECL
#include "Rake/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Rake/Transforms/Passes.h.inc"

/// Registers the passes and the named pipelines (rake-check,
/// rake-gpuir-to-llvm-cpu).
void registerRakePasses();

/// rake-check: the profile's uniformity and tensor-core rules, collective
/// and distributed memory analysis, and the synchronization check at each
/// procedure's gpuir.check_sizes. rake-bundle runs it before it lowers a
/// kernel, and rake-verify again on a bundle's source, both with
/// `requireTasks` (a size set at which no task runs is an error).
void buildRakeCheckPipeline(OpPassManager &pm, bool summary = false,
                            double budget = 0, bool requireTasks = false);

/// The sequential meaning lowered to the LLVM dialect for the host
/// (rake-gpuir-to-llvm-cpu; rake-run --seq runs it with bounds checks).
/// The upstream passes it names must be registered (registerAllPasses).
/// `boundsReport` adds convert-gpuir-to-cpu's reports of out-of-bounds
/// accesses, through a rake_out_of_bounds the runner provides.
void buildGpuIRToLLVMCpuPipeline(OpPassManager &pm, bool boundsChecks,
                                 bool boundsReport = false);

} // namespace mlir::rake

#endif // RAKE_TRANSFORMS_PASSES_H
