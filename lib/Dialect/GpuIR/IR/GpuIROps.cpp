//===- GpuIROps.cpp - GpuIR operations ------------------------------------===//
//
// GpuIR's op classes (the generated Ops.cpp.inc), the scope query
// getDeviceScope, and the ops' builders and accessors. The ops' syntax is in
// GpuIRSyntax.cpp and their verifiers in GpuIRVerifiers.cpp.
//
//===----------------------------------------------------------------------===//

#include "GpuIRInternal.h"
#include "Rake/Dialect/GpuIR/IR/GpuIR.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"

using namespace mlir;
using namespace mlir::rake;
using namespace mlir::rake::gpuir;

//===----------------------------------------------------------------------===//
// Scope queries
//===----------------------------------------------------------------------===//

DeviceScope mlir::rake::gpuir::getDeviceScope(Operation *op) {
  return op->getParentOfType<DeviceFunctionOp>() ? DeviceScope::CUDA
                                                 : DeviceScope::CPU;
}

//===----------------------------------------------------------------------===//
// ProcOp
//===----------------------------------------------------------------------===//

void ProcOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                   FunctionType type) {
  state.addAttribute(SymbolTable::getSymbolAttrName(),
                     builder.getStringAttr(name));
  state.addAttribute(getFunctionTypeAttrName(state.name), TypeAttr::get(type));
  Region *body = state.addRegion();
  Block *block = new Block();
  body->push_back(block);
  for (Type t : type.getInputs())
    block->addArgument(t, state.location);
}

//===----------------------------------------------------------------------===//
// ForOp
//===----------------------------------------------------------------------===//

std::optional<int64_t> ForOp::getConstantLowerBound() {
  if (auto c = dyn_cast<AffineConstantExpr>(getLowerMap().getResult(0)))
    return c.getValue();
  return std::nullopt;
}

std::optional<int64_t> ForOp::getConstantUpperBound() {
  if (auto c = dyn_cast<AffineConstantExpr>(getUpperMap().getResult(0)))
    return c.getValue();
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// DeviceFunctionOp
//===----------------------------------------------------------------------===//

int64_t DeviceFunctionOp::getBlockDim() {
  if (getBlock())
    return *getBlock();
  int64_t warps = 0;
  if (auto groups = getWarpGroups())
    for (auto g : groups->getAsRange<WarpGroupAttr>())
      warps += g.getCount();
  return 32 * warps;
}

std::optional<std::pair<WarpGroupAttr, int64_t>>
DeviceFunctionOp::lookupWarpGroup(StringRef name) {
  int64_t first = 0;
  if (auto groups = getWarpGroups())
    for (auto g : groups->getAsRange<WarpGroupAttr>()) {
      if (g.getName().getValue() == name)
        return std::make_pair(g, first);
      first += g.getCount();
    }
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Window, tensor map
//===----------------------------------------------------------------------===//

SmallVector<AffineExpr> WindowOp::getStarts() {
  AffineMap m = getMap();
  SmallVector<AffineExpr> starts;
  unsigned r = 0;
  for (bool isInterval : getIntervals()) {
    starts.push_back(m.getResult(r++));
    if (isInterval)
      ++r; // the interval's hi
  }
  return starts;
}

//===----------------------------------------------------------------------===//
// Synchronization
//===----------------------------------------------------------------------===//

OperandRange ArriveOp::getBarrierIndices(unsigned i) {
  unsigned start = 0;
  for (unsigned j = 0; j < i; ++j)
    start += cast<AffineMapAttr>(getMaps()[j]).getValue().getNumDims();
  unsigned n = cast<AffineMapAttr>(getMaps()[i]).getValue().getNumDims();
  return getIndices().slice(start, n);
}

#define GET_OP_CLASSES
#include "Rake/Dialect/GpuIR/IR/Ops.cpp.inc"
