//===- Sm90a.cpp - the Sm90a instruction set ------------------------------===//
//
// wgmma: its parameters for the analyses, its sequential behavior (loops
// over the warpgroup's threads and registers), and its device code (shared
// memory matrix descriptors and nvvm.wgmma.mma_async).
//
//===----------------------------------------------------------------------===//

#include "Rake/Dialect/GpuIR/Instrs/Sm90a.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::rake;
using namespace mlir::rake::gpuir;

#define GET_OP_CLASSES
#include "Rake/Dialect/GpuIR/Instrs/Sm90a.cpp.inc"

namespace {

MemRefType memrefOf(Value v) { return cast<MemRefType>(v.getType()); }

Value cIndex(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

Value apply(OpBuilder &b, Location loc, AffineExpr e, ValueRange dims) {
  return affine::AffineApplyOp::create(
      b, loc, AffineMap::get(dims.size(), 0, e), dims);
}

void forRange(OpBuilder &b, Location loc, int64_t n,
              function_ref<void(Value)> body) {
  auto loop = scf::ForOp::create(b, loc, cIndex(b, loc, 0), cIndex(b, loc, n),
                                 cIndex(b, loc, 1));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(loop.getBody()->getTerminator());
  body(loop.getInductionVar());
}

/// Checks a wgmma shared-memory operand: rows / 8 x 2 x 8 x 8 core
/// matrices, each contiguous, the other strides static.
LogicalResult verifyCoreMatrices(Operation *op, StringRef name, MemRefType t,
                                 int64_t rowBlocks) {
  if (t.getRank() != 4 || t.getDimSize(1) != 2 || t.getDimSize(2) != 8 ||
      t.getDimSize(3) != 8 ||
      (rowBlocks > 0 && t.getDimSize(0) != rowBlocks))
    return op->emitOpError()
           << "operand '" << name << "' must be "
           << (rowBlocks > 0 ? std::to_string(rowBlocks) : std::string("N / 8"))
           << " x 2 x 8 x 8 core matrices (a 16-wide slice of K), found "
           << t;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(t.getStridesAndOffset(strides, offset)) || strides[2] != 8 ||
      strides[3] != 1)
    return op->emitOpError() << "operand '" << name
                             << "' must hold each 8x8 core matrix contiguously "
                                "(strides 8, 1 in its last two dimensions)";
  if (ShapedType::isDynamic(strides[0]) || ShapedType::isDynamic(strides[1]))
    return op->emitOpError()
           << "operand '" << name
           << "' needs static strides between core matrices (they are the "
              "descriptor's byte offsets)";
  return success();
}

} // namespace

int64_t WgmmaOp::getN() { return memrefOf(getB()).getDimSize(0) * 8; }

LogicalResult WgmmaOp::verify() {
  MemRefType d = memrefOf(getD()), a = memrefOf(getA()), b = memrefOf(getB());
  Type elt = a.getElementType();
  if (!elt.isBF16() && !elt.isF16())
    return emitOpError() << "multiplies bf16 or f16 tiles, found " << elt;
  if (b.getElementType() != elt)
    return emitOpError() << "a and b must have the same element type, found "
                         << elt << " and " << b.getElementType();
  if (failed(verifyCoreMatrices(*this, "a", a, 8)) ||
      failed(verifyCoreMatrices(*this, "b", b, 0)))
    return failure();
  int64_t n = getN();
  if (n < 8 || n > 256)
    return emitOpError() << "N must be a multiple of 8 from 8 to 256, found "
                         << n;
  if (d.getRank() != 2 || d.getDimSize(0) != 128 || d.getDimSize(1) != n / 2 ||
      !d.getElementType().isF32())
    return emitOpError() << "d must be the warpgroup's 128 x " << n / 2
                         << " f32 accumulators for N = " << n << ", found "
                         << d;
  return success();
}

CollUnitAttr WgmmaOp::getCollUnit() {
  return CollUnitAttr::get(getContext(), CollUnitKind::warpgroup, 1, 0);
}
InstrTimeline WgmmaOp::getInstrTimeline() { return InstrTimeline::wgmma_async; }
SmallVector<InstrParam> WgmmaOp::getParams() {
  MLIRContext *ctx = getContext();
  InstrParam d{0, "d", AccessMode::read_write, QualTimeline::wgmma_async_rmem_d,
               {TypeID::get<RmemAttr>()}};
  d.distributedUnits = {CollUnitAttr::get(ctx, CollUnitKind::thread, 1, 0)};
  InstrParam a{1, "a", AccessMode::read, QualTimeline::wgmma_async_smem,
               {TypeID::get<SmemAttr>()}};
  InstrParam b{2, "b", AccessMode::read, QualTimeline::wgmma_async_smem,
               {TypeID::get<SmemAttr>()}};
  a.outOfOrder = b.outOfOrder = true;
  return {d, a, b};
}

LogicalResult WgmmaOp::buildSequential(OpBuilder &b, ValueRange operands) {
  Location loc = getLoc();
  Value d = operands[0], a = operands[1], bm = operands[2];
  int64_t n = getN();
  AffineExpr t = b.getAffineDimExpr(0), j = b.getAffineDimExpr(1),
             i = b.getAffineDimExpr(2);
  // Register 4 j + i of thread t: (16 w + g + 8 (i / 2), 8 j + 2 q + i mod 2).
  AffineExpr row = t.floorDiv(32) * 16 + (t % 32).floorDiv(4) + i.floorDiv(2) * 8;
  AffineExpr col = j * 8 + (t % 4) * 2 + i % 2;
  AffineExpr r0 = b.getAffineDimExpr(0), k0 = b.getAffineDimExpr(1);
  Type f32 = b.getF32Type();
  forRange(b, loc, 128, [&](Value thread) {
    forRange(b, loc, n / 8, [&](Value chunk) {
      forRange(b, loc, 4, [&](Value reg) {
        SmallVector<Value> tji{thread, chunk, reg};
        Value m = apply(b, loc, row, tji), c = apply(b, loc, col, tji);
        Value slot = apply(b, loc, j * 4 + i, tji);
        Value acc0 = memref::LoadOp::create(b, loc, d, ValueRange{thread, slot});
        auto kLoop = scf::ForOp::create(b, loc, cIndex(b, loc, 0),
                                        cIndex(b, loc, 16), cIndex(b, loc, 1),
                                        ValueRange{acc0});
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(kLoop.getBody());
        Value k = kLoop.getInductionVar();
        auto coreIndex = [&](Value rowOrCol) {
          SmallVector<Value> rk{rowOrCol, k};
          return SmallVector<Value>{apply(b, loc, r0.floorDiv(8), rk),
                                    apply(b, loc, k0.floorDiv(8), rk),
                                    apply(b, loc, r0 % 8, rk),
                                    apply(b, loc, k0 % 8, rk)};
        };
        Value av = memref::LoadOp::create(b, loc, a, coreIndex(m));
        Value bv = memref::LoadOp::create(b, loc, bm, coreIndex(c));
        Value prod =
            arith::MulFOp::create(b, loc, arith::ExtFOp::create(b, loc, f32, av),
                                  arith::ExtFOp::create(b, loc, f32, bv));
        scf::YieldOp::create(
            b, loc,
            ValueRange{arith::AddFOp::create(
                b, loc, kLoop.getRegionIterArgs().front(), prod)});
        b.setInsertionPointAfter(kLoop);
        memref::StoreOp::create(b, loc, kLoop.getResult(0), d,
                                ValueRange{thread, slot});
      });
    });
  });
  return success();
}

/// The matrix descriptor of a core-matrix operand in shared memory: start
/// address, byte offsets between core matrices along K (leading) and along
/// the rows (stride), no swizzle.
static Value descriptor(OpBuilder &b, Location loc, Value view) {
  auto type = cast<MemRefType>(view.getType());
  SmallVector<int64_t> strides;
  int64_t ignored;
  (void)type.getStridesAndOffset(strides, ignored);
  int64_t eltBytes = type.getElementTypeBitWidth() / 8;
  auto meta = memref::ExtractStridedMetadataOp::create(b, loc, view);
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, view);
  Value addr = arith::AddIOp::create(
      b, loc, base,
      arith::MulIOp::create(b, loc, meta.getOffset(), cIndex(b, loc, eltBytes)));
  Type i64 = b.getI64Type();
  Value addr64 = arith::IndexCastOp::create(b, loc, i64, addr);
  auto c64 = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, loc, i64, v).getResult();
  };
  // Bits 0-13: (address mod 2^18) / 16.
  Value start = arith::ShRUIOp::create(
      b, loc, arith::AndIOp::create(b, loc, addr64, c64(0x3ffff)), c64(4));
  int64_t leading = strides[1] * eltBytes, stride = strides[0] * eltBytes;
  int64_t fixed = ((leading >> 4) & 0x3fff) << 16 |
                  ((stride >> 4) & 0x3fff) << 32;
  return arith::OrIOp::create(b, loc, start, c64(fixed));
}

LogicalResult WgmmaOp::buildDevice(OpBuilder &b, ValueRange operands, Value) {
  Location loc = getLoc();
  MLIRContext *ctx = getContext();
  Value d = operands[0], a = operands[1], bm = operands[2];
  int64_t n = getN();
  Type f32 = b.getF32Type();
  SmallVector<Type> fields(n / 2, f32);
  auto structType = LLVM::LLVMStructType::getLiteral(ctx, fields);
  Value acc = LLVM::UndefOp::create(b, loc, structType);
  for (int64_t r = 0; r < n / 2; ++r)
    acc = LLVM::InsertValueOp::create(
        b, loc, acc,
        memref::LoadOp::create(b, loc, d, ValueRange{cIndex(b, loc, r)}), r);
  Value descA = descriptor(b, loc, a), descB = descriptor(b, loc, bm);
  NVVM::WGMMATypes type = memrefOf(getA()).getElementType().isBF16()
                              ? NVVM::WGMMATypes::bf16
                              : NVVM::WGMMATypes::f16;
  auto shape = NVVM::MMAShapeAttr::get(ctx, 64, n, 16);
  // Row-major A and column-major B: both K-major in shared memory.
  Value result = NVVM::WgmmaMmaAsyncOp::create(
      b, loc, structType, acc, descA, descB, shape, type, type,
      NVVM::WGMMATypes::f32, NVVM::WGMMAScaleOut::one, NVVM::WGMMAScaleIn::one,
      NVVM::WGMMAScaleIn::one, NVVM::MMALayout::row, NVVM::MMALayout::col,
      NVVM::MMAIntOverflowAttr());
  for (int64_t r = 0; r < n / 2; ++r)
    memref::StoreOp::create(b, loc,
                            LLVM::ExtractValueOp::create(b, loc, result, r), d,
                            ValueRange{cIndex(b, loc, r)});
  return success();
}

void GpuIRDialect::registerSm90aInstructions() {
  addOperations<
#define GET_OP_LIST
#include "Rake/Dialect/GpuIR/Instrs/Sm90a.cpp.inc"
      >();
}
