//===- DeviceMemory.cpp - GpuIR memory on the device ----------------------===//
//
// The DeviceLowering class's memory: TMA copies (their tensor maps and
// mbarriers), accesses and windows of buffers distributed over threads,
// swizzled shared memory, and allocations (views of the dynamic shared
// memory, register buffers as allocas at the kernel's entry).
//
//===----------------------------------------------------------------------===//

#include "DeviceLowering.h"

#include "Rake/Analysis/KernelABI.h"
#include "Rake/Dialect/GpuIR/Instrs/Sm90a.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

using namespace mlir;
using namespace mlir::rake;
using namespace mlir::rake::gpuir;

namespace mlir::rake::nvvm_detail {

/// A TMA copy: its tensor map (a kernel parameter), its trailing mbarrier
/// and the box's coordinates (the source window's starts). The thread
/// arrives on the mbarrier of each destination CTA expecting the copy's
/// bytes (remotely for a multicast), then issues the copy, which completes
/// the bytes on each destination's mbarrier at the same offset.
// The kernel state instructions ask for (DeviceKernel).

Value DeviceLowering::getControlValueI32(Location loc, AffineExpr e,
                                         unsigned numDims,
                                         ValueRange operands) {
  return arith::IndexCastOp::create(b, loc, b.getI32Type(),
                                    applyExpr(loc, e, numDims, operands));
}

FailureOr<DeviceKernel::Completion>
DeviceLowering::expectBytes(Operation *op, int64_t bytes, Value dst) {
  Location loc = op->getLoc();
  auto instr = cast<InstrOpInterface>(op);
  auto it = mbarriers.find(instr.getTrailingBarrier());
  if (it == mbarriers.end())
    return op->emitOpError() << "completes on a barrier that is not an "
                                "mbarrier of its device function";
  const MBarrier &bar = it->second;
  SmallVector<Value> indices;
  AffineMap m;
  SmallVector<bool> intervals;
  instr.getTrailingBarrierCoords(indices, m, intervals);
  FailureOr<BarrierElements> elems =
      mbarrierElements(op, bar, m, indices, intervals);
  if (failed(elems))
    return failure();
  Completion done;
  done.element = elems->element;
  Value count = arith::ConstantIntOp::create(b, loc, b.getI32Type(), bytes);
  if (llvm::is_contained(intervals, true)) {
    // The copy lands at the same offset in each CTA of the mask, the
    // barrier's CTAs: the destination must be those CTAs' parts of a
    // buffer shared out over the cluster.
    auto window = dst.getDefiningOp<WindowOp>();
    if (!window || distributedDims.lookup(window.getSource()) != 1 ||
        !elems->numCtas)
      return op->emitOpError()
             << "multicasts into a buffer that is not shared out over the "
                "cluster's CTAs (its leading dimension indexed by the "
                "cta_in_cluster loop), or completes on mbarriers that are "
                "not; code generation lands a multicast in the CTAs its "
                "mbarriers name";
    Type i32 = b.getI32Type();
    Value first = arith::IndexCastOp::create(b, loc, i32, elems->firstCta);
    for (int64_t c = 0; c < elems->numCtas; ++c) {
      Value cta = arith::AddIOp::create(
          b, loc, first, arith::ConstantIntOp::create(b, loc, i32, c));
      // The arrival publishes nothing of this thread's (the copy's bytes
      // complete through the async proxy): the default .release.cta.
      NVVM::MBarrierArriveExpectTxOp::create(
          b, loc, Type(), remoteMbarrier(bar, elems->element, cta, loc), count,
          NVVM::MemScopeKind::CTA, /*relaxed=*/false, Value());
    }
    Value ones = arith::ConstantIntOp::create(
        b, loc, i32, (int64_t(1) << elems->numCtas) - 1);
    done.ctaMask = arith::TruncIOp::create(
        b, loc, b.getI16Type(), arith::ShLIOp::create(b, loc, ones, first));
  } else {
    nvgpu::MBarrierArriveExpectTxOp::create(
        b, loc, bar.group, arith::ConstantIndexOp::create(b, loc, bytes),
        elems->element, Value());
  }
  return done;
}

Value DeviceLowering::getBarrierAddress(Operation *op, const Completion &c) {
  Value barrier = cast<InstrOpInterface>(op).getTrailingBarrier();
  return mbarrierPointer(mbarriers.find(barrier)->second, c.element,
                         op->getLoc());
}

FailureOr<Value> DeviceLowering::getTensorMap(Operation *op) {
  auto it = tensorMaps.byOp.find(op);
  if (it == tensorMaps.byOp.end())
    return op->emitOpError() << "asks for a tensor map, but the kernel's "
                                "tensor maps are those of its "
                                "gpuir.sm90a.tma_load copies (KernelABI)";
  return kernel.getArgument(kernel.getNumArguments() - tensorMaps.maps.size() +
                            it->second);
}

/// Plain reads and writes of swizzled shared memory would need the
/// swizzle applied to their addresses: refused for now.
LogicalResult DeviceLowering::checkNotSwizzled(Operation *op, Value buffer) {
  if (isSwizzledBuffer(buffer.getType()))
    return op->emitOpError()
           << "accesses swizzled shared memory element by element; only "
              "the instructions that know the swizzle (cp.async, wgmma) "
              "access it yet";
  return success();
}

/// The indices of an access in this thread's part of a buffer: those of
/// the dimensions distributed over threads are dropped (the distributed
/// memory analysis has proven that they name this thread's part).
SmallVector<Value> DeviceLowering::accessIndices(Value buffer, AffineMap m,
                                                 ValueRange operands,
                                                 Location loc) {
  SmallVector<Value> idx = applyAll(loc, m, operands);
  unsigned k = distributedDims.lookup(buffer);
  return SmallVector<Value>(idx.begin() + k, idx.end());
}

/// A window of a buffer distributed over threads views this thread's
/// part: the distributed dimensions are dropped; those the window keeps
/// (as intervals) remain distributed in the result.
LogicalResult DeviceLowering::lowerLocalWindow(WindowOp window) {
  FailureOr<unsigned> kept =
      lowerWindow(window, distributedDims.lookup(window.getSource()));
  if (failed(kept))
    return failure();
  if (*kept)
    distributedDims[window.getResult()] = *kept;
  return success();
}

LogicalResult DeviceLowering::lowerAlloc(AllocOp alloc) {
  Type t = alloc.getResult().getType();
  // A thread's commit groups (cp.async, TMA store, wgmma) live in the
  // hardware, cluster barriers too; mbarriers were made at the kernel's
  // entry (prepareBarriers).
  if (isa<BarrierType>(t))
    return success();
  auto type = cast<MemRefType>(t);
  Attribute space = type.getMemorySpace();
  if (auto swizzled = dyn_cast<SmemSwizzledAttr>(space)) {
    // Rows of 128 bytes in the 128-byte swizzle (a 16-byte chunk c of row
    // r at chunk c xor (r mod 8)): the buffer is its logical row-major
    // view, and the instructions that know the swizzle (cp.async, wgmma)
    // address it themselves; other accesses are refused.
    Type elt = type.getElementType();
    int64_t rowBytes =
        type.getRank() ? type.getShape().back() *
                             (elt.isIntOrFloat() ? elt.getIntOrFloatBitWidth() / 8 : 8)
                       : 0;
    if (swizzled.getBytes() != 128 || rowBytes != 128)
      return alloc.emitOpError()
             << "allocates shared memory in the " << swizzled.getBytes()
             << "-byte swizzle with rows of " << rowBytes
             << " bytes; only the 128-byte swizzle of 128-byte rows is "
                "lowered yet";
  }
  if (isa<SmemAttr, SmemAtomic16Attr, SmemSwizzledAttr>(space)) {
    // Each CTA holds its part of a buffer shared out over the cluster.
    unsigned k = mlir::rake::distributedDims(dist, alloc.getResult());
    distributedDims[alloc.getResult()] = k;
    auto wg = MemRefType::get(
        type.getShape().drop_front(k), type.getElementType(),
        MemRefLayoutAttrInterface(),
        gpu::AddressSpaceAttr::get(b.getContext(),
                                   gpu::AddressSpace::Workgroup));
    // A view at the buffer's offset, made once at the kernel's entry.
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointAfter(sharedBase.getDefiningOp());
    Value offset = arith::ConstantIndexOp::create(
        b, alloc.getLoc(), sharedLayout.offsets.lookup(alloc));
    map.map(alloc.getResult(),
            memref::ViewOp::create(b, alloc.getLoc(), wg, sharedBase, offset,
                                   ValueRange{})
                .getResult());
    usesSharedMemory = true;
    return success();
  }
  if (isa<RmemAttr>(space)) {
    // Each thread holds its part: the dimensions the distributed memory
    // analysis found distributed over threads are dropped.
    const Sharding *sharding = dist.getSharding(alloc.getResult());
    unsigned k = sharding ? sharding->pitches.size() : 0;
    auto local = MemRefType::get(type.getShape().drop_front(k),
                                 type.getElementType());
    // A buffer beyond a thread's 255 registers cannot live in them: it
    // would spill to local memory. (Buffers that are not live at once
    // share registers, so only each buffer is held to the limit here;
    // rake-verify refuses any spill of the cubin.)
    int64_t bits = type.getElementType().isIntOrFloat()
                       ? type.getElementType().getIntOrFloatBitWidth()
                       : 64;
    int64_t words = (local.getNumElements() * bits + 31) / 32;
    if (words > kMaxRegistersPerThread)
      return alloc.emitOpError()
             << "needs " << words
             << " 32-bit registers per thread; a thread has at most "
             << kMaxRegistersPerThread
             << ": use smaller fragments or shared memory";
    // At the kernel's entry, where LLVM promotes allocas to registers.
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&kernel.getBody().front());
    map.map(alloc.getResult(),
            memref::AllocaOp::create(b, alloc.getLoc(), local).getResult());
    distributedDims[alloc.getResult()] = k;
    return success();
  }
  // The verifier keeps host and global allocations out of device code and
  // gives the others static shapes.
  return alloc.emitOpError() << "allocates " << space
                             << " memory, which is not lowered yet";
}

} // namespace mlir::rake::nvvm_detail
