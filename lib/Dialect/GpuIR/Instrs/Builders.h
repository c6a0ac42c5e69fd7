//===- Builders.h - helpers shared by the instruction sets -------*- C++
//-*-===//
//
// What the instruction sets' ops (Sm80, Sm90a, Sm120a) need to describe
// themselves to the analyses and to build their sequential and device code.
// Internal to lib/Dialect/GpuIR/Instrs.
//
//===----------------------------------------------------------------------===//

#ifndef RAKE_LIB_DIALECT_GPUIR_INSTRS_BUILDERS_H
#define RAKE_LIB_DIALECT_GPUIR_INSTRS_BUILDERS_H

#include "Rake/Dialect/GpuIR/IR/GpuIR.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <utility>

namespace mlir::rake::gpuir::instrs {

inline MemRefType memrefOf(Value v) { return cast<MemRefType>(v.getType()); }

inline CollUnitAttr unitOf(MLIRContext *ctx, CollUnitKind kind) {
  return CollUnitAttr::get(ctx, kind, 1, 0);
}

inline Value cIndex(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// An affine function of index values, e.g. apply(d0 floordiv 4, {lane}).
inline Value apply(OpBuilder &b, Location loc, AffineExpr e, ValueRange dims) {
  return affine::AffineApplyOp::create(
      b, loc, AffineMap::get(dims.size(), 0, e), dims);
}

/// for (i = 0; i < n; ++i) body(i)
inline void forRange(OpBuilder &b, Location loc, int64_t n,
                     function_ref<void(Value)> body) {
  auto loop = scf::ForOp::create(b, loc, cIndex(b, loc, 0), cIndex(b, loc, n),
                                 cIndex(b, loc, 1));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(loop.getBody()->getTerminator());
  body(loop.getInductionVar());
}

/// The address of a view's first element, as an integer (its buffer's
/// aligned pointer), and its offset from there in bytes.
inline std::pair<Value, Value> viewAddress(OpBuilder &b, Location loc,
                                           Value view) {
  auto meta = memref::ExtractStridedMetadataOp::create(b, loc, view);
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(
      b, loc, meta.getBaseBuffer());
  Value bytes = arith::MulIOp::create(
      b, loc, meta.getOffset(),
      cIndex(b, loc, memrefOf(view).getElementTypeBitWidth() / 8));
  return {base, bytes};
}

/// A warp fragment parameter: registers, 32 rows distributed over lanes.
inline InstrParam fragment(MLIRContext *ctx, unsigned index, StringRef name,
                           AccessMode access, ArrayRef<int64_t> shape = {},
                           Type elementType = {}) {
  InstrParam p{index,
               name,
               access,
               QualTimeline::cuda_in_order_rmem,
               {TypeID::get<RmemAttr>()}};
  p.shape.assign(shape.begin(), shape.end());
  p.elementType = elementType;
  p.distributedUnits = {unitOf(ctx, CollUnitKind::thread)};
  return p;
}

/// The parameters of an asynchronous copy from global to shared memory on
/// `timeline` (cp.async, TMA): dst written, src read, both out of order.
inline SmallVector<InstrParam> asyncCopyParams(QualTimeline timeline) {
  InstrParam dst{0, "dst", AccessMode::write, timeline,
                 {TypeID::get<SmemAttr>(), TypeID::get<SmemSwizzledAttr>()}};
  InstrParam src{1, "src", AccessMode::read, timeline,
                 {TypeID::get<GmemAttr>()}};
  dst.outOfOrder = src.outOfOrder = true;
  return {dst, src};
}

} // namespace mlir::rake::gpuir::instrs

#endif // RAKE_LIB_DIALECT_GPUIR_INSTRS_BUILDERS_H
