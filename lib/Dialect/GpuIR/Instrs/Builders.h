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

// Lanes of a warp collective (the Sm80 collectives and their masks).

/// The lane of a thread: threadIdx.x mod 32.
inline Value laneOf(OpBuilder &b, Location loc, Value threadId) {
  AffineExpr d0 = b.getAffineDimExpr(0);
  return apply(b, loc, d0 % 32, threadId);
}

/// Whether lane `lane` is a data lane of a collective with `active(n)`:
/// lane < n (a signed comparison: none for n <= 0, all for n >= 32).
inline Value isActiveLane(OpBuilder &b, Location loc, Value lane, Value active) {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, lane,
                               active);
}

/// The neutral operand of a sum: -0.0 (x + -0.0 is x for every x, -0.0
/// included) or 0.
inline Value neutralOfSum(OpBuilder &b, Location loc, Type elt) {
  if (auto f = dyn_cast<FloatType>(elt))
    return arith::ConstantFloatOp::create(
        b, loc, f, APFloat::getZero(f.getFloatSemantics(), /*Negative=*/true));
  return arith::ConstantIntOp::create(b, loc, elt, 0);
}

/// The number of data lanes of a collective with `active(expr)`, evaluated
/// from its operands (those after the `fixed` buffers), or null.
inline Value activeOperand(OpBuilder &b, Operation *op, ValueRange operands,
                    unsigned fixed) {
  auto map = op->getAttrOfType<AffineMapAttr>("active");
  if (!map)
    return Value();
  return apply(b, op->getLoc(), map.getValue().getResult(0),
               operands.drop_front(fixed));
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

/// The accumulators (D and C) of a warp's m16n8 mma.sync: register i of
/// lane l is element (g + 8 (i / 2), 2 t + i mod 2), g = l / 4, t = l mod 4,
/// as (row, column) expressions of (lane, register).
inline std::pair<AffineExpr, AffineExpr>
mmaAccumulatorLayout(MLIRContext *ctx) {
  AffineExpr l = getAffineDimExpr(0, ctx), i = getAffineDimExpr(1, ctx);
  return {l.floorDiv(4) + i.floorDiv(2) * 8, (l % 4) * 2 + i % 2};
}

/// A and B of a warp's m16n8kK mma.sync whose lanes hold `per` elements to
/// each 32-bit register (K = 8 per: 4 bytes for K = 32, 8 nibbles for
/// K = 64): A (row, k) at lane 4 (row mod 8) + (k mod 4 per) / per, element
/// k mod per + per (row / 8) + 2 per (k / (4 per)); B (k, col) at lane
/// 4 col + (k mod 4 per) / per, element k mod per + per (k / (4 per)).
struct MmaPackedLayout {
  AffineExpr aLane, aElt, bLane, bElt;
};
inline MmaPackedLayout mmaPackedLayout(MLIRContext *ctx, int64_t per) {
  AffineExpr d0 = getAffineDimExpr(0, ctx), d1 = getAffineDimExpr(1, ctx);
  MmaPackedLayout m;
  m.aLane = (d0 % 8) * 4 + (d1 % (4 * per)).floorDiv(per);
  m.aElt = d1 % per + d0.floorDiv(8) * per + d1.floorDiv(4 * per) * (2 * per);
  m.bLane = d1 * 4 + (d0 % (4 * per)).floorDiv(per);
  m.bElt = d0 % per + d0.floorDiv(4 * per) * per;
  return m;
}

/// The sequential behavior of a warp's m16n8kK mma.sync on the accumulator
/// fragment `d` (32 x 4): for each lane and register, its element (row,
/// col) is folded over k = 0 .. K - 1 in order, acc = step(row, col, k, acc),
/// from d's value, and stored back.
inline void
buildMmaAccumulation(OpBuilder &b, Location loc, Value d, int64_t k,
                     function_ref<Value(Value, Value, Value, Value)> step) {
  auto [dRow, dCol] = mmaAccumulatorLayout(b.getContext());
  forRange(b, loc, 32, [&](Value lane) {
    forRange(b, loc, 4, [&](Value reg) {
      SmallVector<Value> li{lane, reg};
      Value row = apply(b, loc, dRow, li);
      Value col = apply(b, loc, dCol, li);
      Value acc0 = memref::LoadOp::create(b, loc, d, li);
      auto kLoop =
          scf::ForOp::create(b, loc, cIndex(b, loc, 0), cIndex(b, loc, k),
                             cIndex(b, loc, 1), ValueRange{acc0});
      {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(kLoop.getBody());
        Value next = step(row, col, kLoop.getInductionVar(),
                          kLoop.getRegionIterArgs().front());
        scf::YieldOp::create(b, loc, next);
      }
      memref::StoreOp::create(b, loc, kLoop.getResult(0), d, li);
    });
  });
}

/// A tensor-core multiplicand as the tensor core sees it, in f32: f16 and
/// bf16 exactly; tf32 as its f32 bits with the low 13 mantissa bits cleared.
inline Value tensorCoreInput(OpBuilder &b, Location loc, Value v) {
  Type f32 = b.getF32Type();
  if (!v.getType().isF32())
    return arith::ExtFOp::create(b, loc, f32, v);
  Value bits = arith::BitcastOp::create(b, loc, b.getI32Type(), v);
  Value mask = arith::ConstantIntOp::create(b, loc, b.getI32Type(),
                                            static_cast<int32_t>(0xffffe000));
  return arith::BitcastOp::create(b, loc, f32,
                                  arith::AndIOp::create(b, loc, bits, mask));
}

/// The i32 product of two 8-bit integer multiplicands, each s8 or (when
/// its flag is set) u8: exact, as the tensor cores form it before summing
/// modulo 2^32.
inline Value integerProduct(OpBuilder &b, Location loc, Value x, bool xUnsigned,
                            Value y, bool yUnsigned) {
  auto widen = [&](Value v, bool isUnsigned) -> Value {
    if (isUnsigned)
      return arith::ExtUIOp::create(b, loc, b.getI32Type(), v);
    return arith::ExtSIOp::create(b, loc, b.getI32Type(), v);
  };
  return arith::MulIOp::create(b, loc, widen(x, xUnsigned),
                               widen(y, yUnsigned));
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
