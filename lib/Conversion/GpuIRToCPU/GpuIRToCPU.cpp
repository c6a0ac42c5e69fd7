//===- GpuIRToCPU.cpp - the sequential meaning of GpuIR -------------------===//

#include "Rake/Conversion/Passes.h"
#include "Rake/Dialect/GpuIR/IR/GpuIR.h"
#include "Rake/Conversion/Common/SequentialLowering.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
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
  using ConvertGpuIRToCPUBase::ConvertGpuIRToCPUBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    OpBuilder b(module.getContext());
    std::vector<std::string> sites;
    for (ProcOp proc : llvm::to_vector(module.getOps<ProcOp>())) {
      if (failed(expandExactMath(proc, /*device=*/false)))
        return signalPassFailure();
      b.setInsertionPoint(proc);
      Lowering lowering(b);
      if (boundsReport)
        lowering.boundsSites = &sites;
      if (failed(lowering.lowerProc(proc)))
        return signalPassFailure();
      proc.erase();
    }
    if (!boundsReport)
      return;
    // The report function, and the sites it is called with.
    b.setInsertionPointToStart(module.getBody());
    auto report = func::FuncOp::create(
        b, module.getLoc(), "rake_out_of_bounds",
        b.getFunctionType(
            {MemRefType::get({ShapedType::kDynamic}, b.getIndexType())}, {}));
    report.setPrivate();
    SmallVector<Attribute> names;
    for (const std::string &s : sites)
      names.push_back(b.getStringAttr(s));
    module->setAttr("rake.bounds_sites", b.getArrayAttr(names));
  }
};

} // namespace
