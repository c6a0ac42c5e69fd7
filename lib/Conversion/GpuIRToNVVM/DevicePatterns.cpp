//===- DevicePatterns.cpp - GpuIR leaf statements as device code ----------===//
//
// The device lowering's leaf patterns (LeafPatterns.h): the shared access
// patterns (whose indices DeviceLowering::accessIndices narrows to a
// thread's part of a distributed buffer, and which refuse swizzled shared
// memory through DeviceLowering::checkAccess), and the device's own for the
// statements that mean something else on the GPU: windows (of a thread's
// part of a distributed buffer), fences, arrives, awaits
// (DeviceBarriers.cpp) and instructions
// (InstrOpInterface::buildDeviceInKernel). No two patterns match the same
// statement, so a refusal is never followed by a second attempt.
//
//===----------------------------------------------------------------------===//

#include "DeviceLowering.h"

#include "Rake/Conversion/Common/LeafPatterns.h"

using namespace mlir;
using namespace mlir::rake;
using namespace mlir::rake::gpuir;

namespace mlir::rake::nvvm_detail {

/// A window views a thread's part of a buffer distributed over threads
/// (DeviceLowering::lowerLocalWindow).
struct DeviceWindowPattern : LeafPattern<WindowOp> {
  DeviceWindowPattern(DeviceLowering &device)
      : LeafPattern(device), device(device) {}

  LogicalResult lower(WindowOp source, WindowOp, OpAdaptor,
                      ConversionPatternRewriter &) const override {
    return device.lowerLocalWindow(source);
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

  LogicalResult lower(SyncOp source, SyncOp, OpAdaptor,
                      ConversionPatternRewriter &) const override {
    return device.lowerSync(source);
  }

  DeviceLowering &device;
};

/// An instruction: its device code, given the kernel's state
/// (DeviceKernel).
struct DeviceInstrPattern : LeafInterfacePattern<InstrOpInterface> {
  DeviceInstrPattern(DeviceLowering &device)
      : LeafInterfacePattern(device), device(device) {}

  LogicalResult lower(InstrOpInterface source, InstrOpInterface,
                      ArrayRef<Value>,
                      ConversionPatternRewriter &) const override {
    return device.lowerInstr(source);
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
