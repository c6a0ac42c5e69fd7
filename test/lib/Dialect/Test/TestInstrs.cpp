//===- TestInstrs.cpp - instructions for tests ----------------------------===//

#include "TestInstrs.h"
#include "Rake/Dialect/GpuIR/IR/Syntax.h"

using namespace mlir;
using namespace mlir::rake;
using namespace mlir::rake::gpuir;
using namespace mlir::rake::rtest;

#include "TestInstrsDialect.cpp.inc"

void RTestDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "TestInstrs.cpp.inc"
      >();
}

void mlir::rake::rtest::registerTestDialect(DialectRegistry &registry) {
  registry.insert<RTestDialect>();
}

static CollUnitAttr unit(MLIRContext *ctx, CollUnitKind kind) {
  return CollUnitAttr::get(ctx, kind, 1, 0);
}

// in_order_op: an in-order read-modify-write of its buffer.
CollUnitAttr InOrderOp::getCollUnit() { return getUnit(); }
InstrTimeline InOrderOp::getInstrTimeline() {
  return InstrTimeline::cuda_in_order;
}
SmallVector<InstrParam> InOrderOp::getParams() {
  // Registers and memory are different qualitative timelines.
  auto space = cast<MemRefType>(getBuf().getType()).getMemorySpace();
  QualTimeline qual = isa_and_nonnull<RmemAttr, UniformRmemAttr>(space)
                          ? QualTimeline::cuda_in_order_rmem
                          : QualTimeline::cuda_in_order_ram;
  InstrParam p{0, "buf",
               getReadOnly() ? AccessMode::read : AccessMode::read_write, qual};
  if (auto over = getOverAttr())
    p.distributedUnits = {over};
  return {p};
}
std::optional<BarrierMechanism> InOrderOp::getBarrierMechanism() {
  return std::nullopt;
}
Value InOrderOp::getTrailingBarrier() { return nullptr; }
void InOrderOp::getTrailingBarrierCoords(SmallVectorImpl<Value> &, AffineMap &map,
                                  SmallVectorImpl<bool> &) {
  map = AffineMap::get(getContext());
}

// host_op: a CPU instruction reading a host buffer.
CollUnitAttr HostOp::getCollUnit() { return {}; }
InstrTimeline HostOp::getInstrTimeline() { return InstrTimeline::cpu_in_order; }
SmallVector<InstrParam> HostOp::getParams() {
  InstrParam p{0, "buf", AccessMode::read, QualTimeline::cpu_in_order,
               {TypeID::get<HostAttr>()}};
  return {p};
}
std::optional<BarrierMechanism> HostOp::getBarrierMechanism() {
  return std::nullopt;
}
Value HostOp::getTrailingBarrier() { return nullptr; }
void HostOp::getTrailingBarrierCoords(SmallVectorImpl<Value> &, AffineMap &map,
                                  SmallVectorImpl<bool> &) {
  map = AffineMap::get(getContext());
}

// example_wgmma: D (registers) += A (SMEM) * B (SMEM), by a warpgroup.
CollUnitAttr ExampleWgmmaOp::getCollUnit() {
  return unit(getContext(), CollUnitKind::warpgroup);
}
InstrTimeline ExampleWgmmaOp::getInstrTimeline() {
  return InstrTimeline::wgmma_async;
}
SmallVector<InstrParam> ExampleWgmmaOp::getParams() {
  MLIRContext *ctx = getContext();
  InstrParam d{0, "d", AccessMode::read_write, QualTimeline::wgmma_async_rmem_d,
               {TypeID::get<RmemAttr>()}};
  d.elementType = Float32Type::get(ctx);
  // Successive wgmmas of a warpgroup on one accumulator are ordered by the
  // hardware; only other instructions need a wait.
  d.distributedUnits = {unit(ctx, CollUnitKind::thread)};
  InstrParam a{1, "a", AccessMode::read, QualTimeline::wgmma_async_smem,
               {TypeID::get<SmemAttr>(), TypeID::get<SmemSwizzledAttr>()}};
  InstrParam b{2, "b", AccessMode::read, QualTimeline::wgmma_async_smem,
               {TypeID::get<SmemAttr>(), TypeID::get<SmemSwizzledAttr>()}};
  a.outOfOrder = b.outOfOrder = true;
  a.shape = {64, ShapedType::kDynamic};
  b.shape = {ShapedType::kDynamic, ShapedType::kDynamic};
  return {d, a, b};
}
std::optional<BarrierMechanism> ExampleWgmmaOp::getBarrierMechanism() {
  return std::nullopt;
}
Value ExampleWgmmaOp::getTrailingBarrier() { return nullptr; }
void ExampleWgmmaOp::getTrailingBarrierCoords(SmallVectorImpl<Value> &, AffineMap &map,
                                  SmallVectorImpl<bool> &) {
  map = AffineMap::get(getContext());
}

// example_tma_multicast: global -> shared memory of the CTAs in the
// destination window, completing on an mbarrier.
CollUnitAttr ExampleTmaMulticastOp::getCollUnit() {
  return unit(getContext(), CollUnitKind::thread);
}
InstrTimeline ExampleTmaMulticastOp::getInstrTimeline() {
  return InstrTimeline::tma_to_smem_async;
}
SmallVector<InstrParam> ExampleTmaMulticastOp::getParams() {
  InstrParam src{0, "src", AccessMode::read, QualTimeline::tma_to_smem_async,
                 {TypeID::get<GmemAttr>()}};
  InstrParam dst{1, "dst", AccessMode::write, QualTimeline::tma_to_smem_async,
                 {TypeID::get<SmemAttr>(), TypeID::get<SmemSwizzledAttr>()}};
  src.outOfOrder = dst.outOfOrder = true;
  dst.multicast = true;
  return {src, dst};
}
std::optional<BarrierMechanism> ExampleTmaMulticastOp::getBarrierMechanism() {
  return BarrierMechanism::mbarrier;
}
Value ExampleTmaMulticastOp::getTrailingBarrier() { return getBarrier(); }
void ExampleTmaMulticastOp::getTrailingBarrierCoords(
    SmallVectorImpl<Value> &indices, AffineMap &map,
    SmallVectorImpl<bool> &intervals) {
  indices.append(getIndices().begin(), getIndices().end());
  map = getMap();
  intervals.append(getIntervals().begin(), getIntervals().end());
}

LogicalResult ExampleTmaMulticastOp::buildDeviceInKernel(OpBuilder &,
                                                         ValueRange,
                                                         DeviceKernel &kernel) {
  int64_t bytes = 64 * 64 * 2;
  FailureOr<DeviceKernel::Completion> done =
      kernel.expectBytes(*this, bytes, getDst());
  if (failed(done) || failed(kernel.getTensorMap(*this)))
    return failure();
  return emitOpError() << "has no copy to issue (a test instruction)";
}

#define GET_OP_CLASSES
#include "TestInstrs.cpp.inc"
