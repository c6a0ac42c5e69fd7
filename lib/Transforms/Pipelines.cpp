//===- Pipelines.cpp - named pass pipelines -------------------------------===//

#include "Rake/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

void mlir::rake::registerRakePasses() {
  registerRakeTransformsPasses();
  PassPipelineRegistration<>(
      "rake-check",
      "Check a GpuIR module: op verifiers, collective analysis, distributed "
      "memory analysis, and the synchronization check (with the sizes of "
      "each procedure's gpuir.check_sizes)",
      [](OpPassManager &pm) {
        pm.addPass(createCollectiveAnalysisPass());
        pm.addPass(createDistributedMemoryPass());
        pm.addPass(createSyncCheckPass());
      });
}
