//===- DevicePatterns.cpp - GpuIR leaf statements as device code ----------===//
//
// The device lowering's leaf patterns (LeafPatterns.h): the shared access
// patterns (whose indices DeviceLowering::accessIndices narrows to a
// thread's part of a distributed buffer, and which refuse swizzled shared
// memory through DeviceLowering::checkAccess), and the device's own for the
// statements that mean something else on the GPU: windows of distributed
// buffers, fences, arrives, awaits (DeviceBarriers.cpp) and instructions
// (InstrOpInterface::buildDeviceInKernel).
//
//===----------------------------------------------------------------------===//

#include "DeviceLowering.h"

#include "Rake/Conversion/Common/LeafPatterns.h"

using namespace mlir;
using namespace mlir::rake;
using namespace mlir::rake::gpuir;

namespace mlir::rake::nvvm_detail {

/// A window views a thread's part of a buffer distributed over threads
/// (DeviceLowering::lowerLocalWindow); preferred to the shared window
/// pattern.
struct DeviceWindowPattern : LeafPattern<WindowOp> {
  DeviceWindowPattern(DeviceLowering &device)
      : LeafPattern(device, /*benefit=*/2), device(device) {}

  LogicalResult lower(WindowOp source, WindowOp copy, OpAdaptor,
                      ConversionPatternRewriter &rewriter) const override {
    if (failed(device.lowerLocalWindow(source)))
      return failure();
    rewriter.eraseOp(copy);
    return success();
  }

  DeviceLowering &device;
};

/// Fences, arrives and awaits: barriers, mbarrier operations, commit
/// groups, waits and the fences they need.
template <typename SyncOp>
struct DeviceSyncPattern : LeafPattern<SyncOp> {
  using OpAdaptor = typename LeafPattern<SyncOp>::OpAdaptor;
  DeviceSyncPattern(DeviceLowering &device)
      : LeafPattern<SyncOp>(device), device(device) {}

  LogicalResult lower(SyncOp source, SyncOp copy, OpAdaptor,
                      ConversionPatternRewriter &rewriter) const override {
    if (failed(device.lowerSync(source)))
      return failure();
    rewriter.eraseOp(copy);
    return success();
  }

  DeviceLowering &device;
};

/// An instruction: its device code, given the kernel's state
/// (DeviceKernel).
struct DeviceInstrPattern : LeafInterfacePattern<InstrOpInterface> {
  DeviceInstrPattern(DeviceLowering &device)
      : LeafInterfacePattern(device), device(device) {}

  LogicalResult lower(InstrOpInterface source, InstrOpInterface copy,
                      ArrayRef<Value>,
                      ConversionPatternRewriter &rewriter) const override {
    if (failed(device.lowerInstr(source)))
      return failure();
    rewriter.eraseOp(copy);
    return success();
  }

  DeviceLowering &device;
};

void DeviceLowering::populateLeafPatterns(RewritePatternSet &patterns) {
  populateLeafAccessPatterns(*this, patterns);
  patterns.add<DeviceWindowPattern, DeviceSyncPattern<FenceOp>,
               DeviceSyncPattern<ArriveOp>, DeviceSyncPattern<AwaitOp>,
               DeviceInstrPattern>(*this);
}

LogicalResult DeviceLowering::lowerInstr(InstrOpInterface instr) {
  noteAsyncRegisters(instr);
  return instr.buildDeviceInKernel(b, instrOperands(instr), *this);
}

} // namespace mlir::rake::nvvm_detail
