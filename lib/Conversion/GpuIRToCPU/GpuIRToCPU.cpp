//===- GpuIRToCPU.cpp - the sequential meaning of GpuIR -------------------===//

#include "Rake/Conversion/Passes.h"
#include "Rake/Dialect/GpuIR/IR/GpuIR.h"
#include "SequentialLowering.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::rake {
#define GEN_PASS_DEF_CONVERTGPUIRTOCPU
#include "Rake/Conversion/Passes.h.inc"
} // namespace mlir::rake

using namespace mlir;
using namespace mlir::rake;
using namespace mlir::rake::gpuir;

namespace {

struct ConvertGpuIRToCPU
    : rake::impl::ConvertGpuIRToCPUBase<ConvertGpuIRToCPU> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    OpBuilder b(module.getContext());
    for (ProcOp proc : llvm::to_vector(module.getOps<ProcOp>())) {
      b.setInsertionPoint(proc);
      Lowering lowering(b);
      if (failed(lowering.lowerProc(proc)))
        return signalPassFailure();
      proc.erase();
    }
  }
};

} // namespace
