//===- SyncVerifiers.cpp - verifiers of synchronization and instructions --===//
//
// The verifiers of fences, arrives and awaits, and the common verifier of
// every instruction (InstrOpInterface); the other ops' are in
// GpuIRVerifiers.cpp.
//
//===----------------------------------------------------------------------===//

#include "Rake/Dialect/GpuIR/IR/GpuIR.h"
#include "Rake/Dialect/GpuIR/IR/Syntax.h"
#include "VerifierUtils.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::rake;
using namespace mlir::rake::gpuir;
using namespace mlir::rake::gpuir::detail;

//===----------------------------------------------------------------------===//
// Synchronization
//===----------------------------------------------------------------------===//

/// The timelines a device-side synchronization statement may name.
static LogicalResult verifyDeviceTimeline(Operation *op, SyncTimeline tl,
                                          StringRef which) {
  if (tl == SyncTimeline::cpu_in_order || tl == SyncTimeline::cuda_stream_sync)
    return op->emitOpError()
           << "uses " << stringifySyncTimeline(tl) << " as its " << which
           << " timeline inside a device function; it names CPU-side "
              "accesses, use a CUDA timeline such as cuda_in_order";
  return success();
}

LogicalResult FenceOp::verify() {
  SyncTimeline pre = getPre(), post = getPost();
  if (pre == SyncTimeline::empty || post == SyncTimeline::empty)
    return emitOpError() << "a fence with an empty timeline orders nothing; "
                            "name the accesses it orders on both sides";
  if (getDeviceScope(*this) == DeviceScope::CPU) {
    bool ok = (pre == SyncTimeline::cuda_stream_sync ||
               pre == SyncTimeline::cpu_in_order) &&
              post == SyncTimeline::cpu_in_order;
    if (!ok)
      return emitOpError()
             << "at CPU scope a fence is cuda_stream_sync -> cpu_in_order "
                "(wait for the device) or cpu_in_order -> cpu_in_order; found "
             << stringifySyncTimeline(pre) << " -> "
             << stringifySyncTimeline(post);
    return success();
  }
  if (failed(verifyDeviceTimeline(*this, pre, "first")) ||
      failed(verifyDeviceTimeline(*this, post, "second")))
    return failure();
  return success();
}

/// Checks a barrier expression's coordinates against the barrier's shape.
static LogicalResult verifyBarrierCoords(Operation *op, BarrierType type,
                                         AffineMap map,
                                         ArrayRef<bool> intervals) {
  if (intervals.size() != static_cast<size_t>(type.getRank()))
    return op->emitOpError()
           << "gives " << intervals.size()
           << " coordinates for a barrier array of rank " << type.getRank();
  if (map.getNumResults() != intervals.size() + llvm::count(intervals, true))
    return op->emitOpError() << "barrier coordinates need one expression a "
                                "point and two an interval: "
                             << map.getNumResults() << " for "
                             << intervals.size() << " coordinates";
  unsigned r = 0;
  for (auto [dim, isInterval] : llvm::enumerate(intervals)) {
    for (unsigned k = 0; k < (isInterval ? 2u : 1u); ++k) {
      auto c = dyn_cast<AffineConstantExpr>(map.getResult(r++));
      int64_t limit = type.getShape()[dim] + (k == 1 ? 1 : 0);
      if (c && (c.getValue() < 0 || c.getValue() >= limit))
        return op->emitOpError()
               << "barrier coordinate " << c.getValue() << " of dimension "
               << dim << " is out of bounds [0, " << type.getShape()[dim]
               << ")";
    }
  }
  return success();
}

LogicalResult ArriveOp::verify() {
  if (getDeviceScope(*this) == DeviceScope::CPU)
    return emitOpError() << "arrive is a device statement; at CPU scope use "
                            "gpuir.fence cuda_stream_sync -> cpu_in_order";
  SyncTimeline pre = getPre();
  if (failed(verifyDeviceTimeline(*this, pre, "first")))
    return failure();
  if (getMaps().size() != getBarriers().size() ||
      getIntervals().size() != getBarriers().size())
    return emitOpError() << "needs one index map and interval list per "
                            "barrier";
  unsigned totalDims = 0;
  for (Attribute m : getMaps())
    totalDims += cast<AffineMapAttr>(m).getValue().getNumDims();
  if (totalDims != getIndices().size())
    return emitOpError() << "index maps and operands disagree";
  for (unsigned i = 0, e = getBarriers().size(); i < e; ++i) {
    auto type = cast<BarrierType>(getBarriers()[i].getType());
    ArrayRef<bool> intervals =
        cast<DenseBoolArrayAttr>(getIntervals()[i]).asArrayRef();
    if (failed(verifyBarrierCoords(*this, type,
                                   cast<AffineMapAttr>(getMaps()[i]).getValue(),
                                   intervals)))
      return failure();
    if (type.isMbarrier() && pre == SyncTimeline::tma_to_smem_async)
      return emitOpError()
             << "arrives on an mbarrier after tma_to_smem_async accesses; a "
                "TMA copy completes on its own trailing mbarrier: write "
                "'>> %bar[...]' on the gpuir.sm90a.tma_load instead of this "
                "arrive";
    if (!type.isMbarrier() && (e > 1 || llvm::is_contained(intervals, true)))
      return emitOpError() << "arrives on several barriers at once; only "
                              "mbarriers take multicast arrives, this one is "
                           << stringifyBarrierMechanism(type.getMechanism());
    if (std::optional<SyncTimeline> needed =
            getCommitGroupTimeline(type.getMechanism());
        needed && *needed != pre)
      return emitOpError() << "commits a "
                           << stringifyBarrierMechanism(type.getMechanism())
                           << " group, whose arrive timeline is "
                           << stringifySyncTimeline(*needed) << ", not "
                           << stringifySyncTimeline(pre);
    if (type.getMechanism() == BarrierMechanism::cluster_sync &&
        pre == SyncTimeline::empty)
      return emitOpError() << "a cluster sync arrive orders the accesses "
                              "before it; give a timeline such as "
                              "cuda_in_order";
  }
  return success();
}

LogicalResult AwaitOp::verify() {
  if (getDeviceScope(*this) == DeviceScope::CPU)
    return emitOpError() << "await is a device statement; at CPU scope use "
                            "gpuir.fence cuda_stream_sync -> cpu_in_order";
  SyncTimeline post = getPost();
  if (failed(verifyDeviceTimeline(*this, post, "second")))
    return failure();
  auto type = cast<BarrierType>(getBarrier().getType());
  if (getMap().getNumDims() != getIndices().size())
    return emitOpError() << "index map and operands disagree";
  SmallVector<bool> points(getMap().getNumResults(), false);
  if (failed(verifyBarrierCoords(*this, type, getMap(), points)))
    return failure();
  if (getLag() && !type.isMbarrier())
    return emitOpError() << "lag(n) counts phases of an mbarrier ring; this "
                            "barrier is "
                         << stringifyBarrierMechanism(type.getMechanism());
  if (getLag() && *getLag() < 0)
    return emitOpError() << "lag must not be negative, found " << *getLag();
  if (getOutstanding() && !type.isCommitGroup())
    return emitOpError() << "outstanding(n) counts unfinished commit groups; "
                            "this barrier is "
                         << stringifyBarrierMechanism(type.getMechanism());
  if (getRead() && type.getMechanism() != BarrierMechanism::tma_store_group)
    return emitOpError()
           << "read waits until bulk copies have read their sources "
              "(cp.async.bulk.wait_group.read), which only a tma_store_group "
              "has; this barrier is "
           << stringifyBarrierMechanism(type.getMechanism());
  if (getSkip() && !type.isMbarrier())
    return emitOpError() << "skip passes over a phase of an mbarrier "
                            "element; this barrier is "
                         << stringifyBarrierMechanism(type.getMechanism());
  if (getSkip() && getLag())
    return emitOpError() << "skip counts the next phase; it takes no lag";
  if (getOutstanding() && *getOutstanding() < 0)
    return emitOpError() << "outstanding must not be negative, found "
                         << *getOutstanding();
  if (post == SyncTimeline::empty)
    return emitOpError() << "an await with an empty timeline orders nothing "
                            "after it";
  return success();
}

//===----------------------------------------------------------------------===//
// Instructions
//===----------------------------------------------------------------------===//

LogicalResult mlir::rake::gpuir::verifyInstrOp(Operation *op) {
  auto instr = cast<InstrOpInterface>(op);
  bool onDevice = getDeviceScope(op) == DeviceScope::CUDA;
  InstrTimeline itl = instr.getInstrTimeline();
  bool cpuInstr = itl == InstrTimeline::cpu_in_order ||
                  itl == InstrTimeline::cpu_cuda_stream;
  if (onDevice == cpuInstr)
    return op->emitOpError()
           << "is a " << (cpuInstr ? "CPU" : "CUDA") << " instruction ("
           << stringifyInstrTimeline(itl) << ") used "
           << (onDevice ? "inside a device function" : "at CPU scope");
  for (const InstrParam &param : instr.getParams()) {
    if (param.operandIndex >= op->getNumOperands())
      return op->emitOpError()
             << "parameter '" << param.name << "' names a missing operand";
    Type type = op->getOperand(param.operandIndex).getType();
    auto memref = dyn_cast<MemRefType>(type);
    if (!memref)
      return op->emitOpError() << "parameter '" << param.name
                               << "' takes a buffer (memref), found " << type;
    if (param.elementType && memref.getElementType() != param.elementType)
      return op->emitOpError()
             << "parameter '" << param.name << "' takes " << param.elementType
             << " elements, found " << memref.getElementType();
    if (!param.shape.empty()) {
      bool ok = static_cast<size_t>(memref.getRank()) == param.shape.size();
      for (size_t i = 0; ok && i < param.shape.size(); ++i)
        ok = ShapedType::isDynamic(param.shape[i]) ||
             memref.getDimSize(i) == param.shape[i];
      if (!ok) {
        auto show = [](ArrayRef<int64_t> shape) {
          std::string s = "[";
          for (auto [i, d] : llvm::enumerate(shape))
            s += (i ? ", " : "") + (ShapedType::isDynamic(d)
                                        ? std::string("?")
                                        : std::to_string(d));
          return s + "]";
        };
        return op->emitOpError()
               << "parameter '" << param.name << "' takes a window of shape "
               << show(param.shape) << ", found " << show(memref.getShape());
      }
    }
    MemoryTypeAttrInterface mem = getMemoryType(memref);
    if (!mem)
      return verifyMemorySpace(op, memref,
                               "parameter '" + param.name.str() + "'");
    if (!param.memoryTypes.empty() &&
        !llvm::is_contained(param.memoryTypes, mem.getTypeID()))
      return op->emitOpError()
             << "parameter '" << param.name << "' cannot take a buffer in "
             << mem.getMemoryName() << " memory";
    if (param.access != AccessMode::read &&
        failed(
            verifyWritable(op, memref, "parameter '" + param.name.str() + "'")))
      return failure();
  }
  std::optional<BarrierMechanism> mech = instr.getBarrierMechanism();
  Value barrier = instr.getTrailingBarrier();
  if (mech && !barrier)
    return op->emitOpError() << "needs a trailing barrier of mechanism "
                             << stringifyBarrierMechanism(*mech);
  if (barrier) {
    auto type = dyn_cast<BarrierType>(barrier.getType());
    if (!type)
      return op->emitOpError() << "trailing barrier is not a barrier";
    if (mech && type.getMechanism() != *mech)
      return op->emitOpError()
             << "completes through a " << stringifyBarrierMechanism(*mech)
             << " barrier, but the trailing barrier is "
             << stringifyBarrierMechanism(type.getMechanism());
    SmallVector<Value> indices;
    AffineMap map;
    SmallVector<bool> intervals;
    instr.getTrailingBarrierCoords(indices, map, intervals);
    if (map.getNumDims() != indices.size())
      return op->emitOpError() << "trailing barrier's index map and operands "
                                  "disagree";
    if (failed(verifyBarrierCoords(op, type, map, intervals)))
      return failure();
  }
  return success();
}
