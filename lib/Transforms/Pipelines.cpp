//===- Pipelines.cpp - named pass pipelines -------------------------------===//

#include "Rake/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

namespace {
struct CheckPipelineOptions : PassPipelineOptions<CheckPipelineOptions> {
  Option<bool> summary{
      *this, "summary",
      llvm::cl::desc("Remark, per procedure and size set, what the "
                     "synchronization check proved: tasks, classes of "
                     "equivalent tasks, time and memory"),
      llvm::cl::init(false)};
  Option<double> budget{
      *this, "budget",
      llvm::cl::desc("Stop a synchronization check that runs longer than "
                     "this many seconds, unproven (0: no limit)"),
      llvm::cl::init(0)};
};

struct CpuPipelineOptions : PassPipelineOptions<CpuPipelineOptions> {
  Option<bool> boundsChecks{
      *this, "bounds-checks",
      llvm::cl::desc("Check every load and store against its buffer's "
                     "extents at run time (generate-runtime-verification), "
                     "as rake-run --seq does"),
      llvm::cl::init(false)};
};
} // namespace

void mlir::rake::buildGpuIRToLLVMCpuPipeline(OpPassManager &pm,
                                             bool boundsChecks,
                                             bool boundsReport) {
  std::string pipeline = boundsReport
                             ? "convert-gpuir-to-cpu{bounds-report=1},"
                             : "convert-gpuir-to-cpu,";
  if (boundsChecks)
    pipeline += "generate-runtime-verification,";
  pipeline += "expand-strided-metadata,lower-affine,convert-scf-to-cf,"
              "convert-math-to-llvm,finalize-memref-to-llvm,"
              "convert-arith-to-llvm,convert-index-to-llvm,"
              "convert-cf-to-llvm,convert-func-to-llvm,"
              "reconcile-unrealized-casts";
  // Every pass named here is registered with Rake's passes.
  (void)parsePassPipeline(pipeline, pm);
}

void mlir::rake::buildRakeCheckPipeline(OpPassManager &pm, bool summary,
                                        double budget, bool requireTasks) {
  UniformityPassOptions uniformity;
  uniformity.annotate = false;
  pm.addPass(createUniformityPass(uniformity));
  pm.addPass(createTensorCoreRulePass());
  pm.addPass(createCollectiveAnalysisPass());
  pm.addPass(createDistributedMemoryPass());
  SyncCheckPassOptions check;
  check.summary = summary;
  check.budget = budget;
  check.requireTasks = requireTasks;
  pm.addPass(createSyncCheckPass(check));
}

void mlir::rake::registerRakePasses() {
  registerRakeTransformsPasses();
  PassPipelineRegistration<CheckPipelineOptions>(
      "rake-check",
      "Check a GpuIR module: op verifiers, the profile's uniformity and "
      "tensor-core rules, collective analysis, distributed memory analysis, "
      "and the synchronization check (with the sizes of each procedure's "
      "gpuir.check_sizes)",
      [](OpPassManager &pm, const CheckPipelineOptions &options) {
        buildRakeCheckPipeline(pm, options.summary, options.budget);
      });
  PassPipelineRegistration<CpuPipelineOptions>(
      "rake-gpuir-to-llvm-cpu",
      "Lower GpuIR's sequential meaning to the LLVM dialect for the host "
      "(convert-gpuir-to-cpu and the upstream lowerings of memref, affine, "
      "scf, math, arith, index, cf and func), ready for mlir-translate "
      "--mlir-to-llvmir or a JIT",
      [](OpPassManager &pm, const CpuPipelineOptions &options) {
        buildGpuIRToLLVMCpuPipeline(pm, options.boundsChecks);
      });
}
