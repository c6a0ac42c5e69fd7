//===- Sm80.cpp - the Sm80 instruction set --------------------------------===//
//
// Each instruction gives the analyses its collective unit, timelines and
// parameters; the sequential lowering its behavior (loops over the warp's
// lanes and registers on the CPU); the device lowering one thread's part
// (NVGPU and NVVM ops, which MLIR lowers on to PTX).
//
//===----------------------------------------------------------------------===//

#include "Rake/Dialect/GpuIR/Instrs/Sm80.h"
#include "Builders.h"
#include "Rake/Dialect/GpuIR/IR/Syntax.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::rake;
using namespace mlir::rake::gpuir;
using namespace mlir::rake::gpuir::instrs;

#define GET_OP_CLASSES
#include "Rake/Dialect/GpuIR/Instrs/Sm80.cpp.inc"

namespace {

/// Whether the innermost dimension has unit stride.
bool hasUnitInnerStride(MemRefType t) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(t.getStridesAndOffset(strides, offset)))
    return false;
  return strides.empty() || strides.back() == 1;
}

//===----------------------------------------------------------------------===//
// Builders shared by the behaviors
//===----------------------------------------------------------------------===//

/// The warp fragments of mma.sync's inputs: for A and B, the lane and
/// register of each element (the accumulators' layout is
/// mmaAccumulatorLayout).
struct MmaLayout {
  int64_t k;
  // A: (row, k) -> (lane, reg); B: (k, col) -> (lane, reg)
  AffineExpr aLane, aReg, bLane, bReg;
};

MmaLayout mmaLayout(MLIRContext *ctx, Type input) {
  AffineExpr d0 = getAffineDimExpr(0, ctx), d1 = getAffineDimExpr(1, ctx);
  MmaLayout m;
  if (input.isInteger(8)) {
    // Four bytes to a register (A: lane (row mod 8) 4 + (k mod 16) / 4,
    // reg k mod 4 + 4 (row / 8) + 8 (k / 16); B: lane col 4 + (k mod 16) / 4,
    // reg k mod 4 + 4 (k / 16)).
    MmaPackedLayout p = mmaPackedLayout(ctx, 4);
    m.k = 32;
    m.aLane = p.aLane;
    m.aReg = p.aElt;
    m.bLane = p.bLane;
    m.bReg = p.bElt;
  } else if (!input.isF32()) {
    m.k = 16;
    // A (row, k): lane (row mod 8) 4 + (k mod 8) / 2,
    //             reg k mod 2 + 2 (row / 8) + 4 (k / 8).
    m.aLane = (d0 % 8) * 4 + (d1 % 8).floorDiv(2);
    m.aReg = d1 % 2 + d0.floorDiv(8) * 2 + d1.floorDiv(8) * 4;
    // B (k, col): lane col 4 + (k mod 8) / 2, reg k mod 2 + 2 (k / 8).
    m.bLane = d1 * 4 + (d0 % 8).floorDiv(2);
    m.bReg = d0 % 2 + d0.floorDiv(8) * 2;
  } else {
    m.k = 8;
    // A (row, k): lane (row mod 8) 4 + k mod 4, reg row / 8 + 2 (k / 4).
    m.aLane = (d0 % 8) * 4 + d1 % 4;
    m.aReg = d0.floorDiv(8) + d1.floorDiv(4) * 2;
    // B (k, col): lane col 4 + k mod 4, reg k / 4.
    m.bLane = d1 * 4 + d0 % 4;
    m.bReg = d0.floorDiv(4);
  }
  return m;
}

} // namespace

//===----------------------------------------------------------------------===//
// cp.async
//===----------------------------------------------------------------------===//

LogicalResult CpAsyncOp::verify() {
  MemRefType dst = memrefOf(getDst()), src = memrefOf(getSrc());
  if (dst.getRank() != 1 || src.getRank() != 1 || !dst.hasStaticShape() ||
      !src.hasStaticShape())
    return emitOpError() << "copies a run of elements: dst and src must be "
                            "one-dimensional windows of static size";
  if (dst.getElementType() != src.getElementType() ||
      dst.getDimSize(0) != src.getDimSize(0))
    return emitOpError() << "dst (" << dst.getDimSize(0) << " x "
                         << dst.getElementType() << ") and src ("
                         << src.getDimSize(0) << " x " << src.getElementType()
                         << ") must have the same size and element type";
  if (!dst.getElementType().isIntOrFloat())
    return emitOpError() << "copies scalars, found " << dst.getElementType();
  int64_t bytes =
      dst.getDimSize(0) * dst.getElementType().getIntOrFloatBitWidth() / 8;
  if (bytes != 4 && bytes != 8 && bytes != 16)
    return emitOpError() << "copies 4, 8 or 16 bytes, found " << bytes;
  if (!hasUnitInnerStride(dst) || !hasUnitInnerStride(src))
    return emitOpError() << "copies contiguous elements: dst and src must "
                            "have unit stride";
  return success();
}

CollUnitAttr CpAsyncOp::getCollUnit() {
  return unitOf(getContext(), CollUnitKind::thread);
}
InstrTimeline CpAsyncOp::getInstrTimeline() {
  return InstrTimeline::Sm80_cp_async;
}
SmallVector<InstrParam> CpAsyncOp::getParams() {
  return asyncCopyParams(QualTimeline::Sm80_cp_async);
}

LogicalResult CpAsyncOp::buildSequential(OpBuilder &b, ValueRange operands) {
  Location loc = getLoc();
  Value dst = operands[0], src = operands[1];
  Value fill = getFill() ? operands[2] : Value();
  Type elt = memrefOf(dst).getElementType();
  forRange(b, loc, memrefOf(dst).getDimSize(0), [&](Value i) {
    if (!fill) {
      memref::StoreOp::create(b, loc, memref::LoadOp::create(b, loc, src, i),
                              dst, i);
      return;
    }
    Value inSource =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, i, fill);
    auto branch = scf::IfOp::create(b, loc, inSource, /*withElse=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(branch.thenBlock()->getTerminator());
    memref::StoreOp::create(b, loc, memref::LoadOp::create(b, loc, src, i),
                            dst, i);
    b.setInsertionPoint(branch.elseBlock()->getTerminator());
    memref::StoreOp::create(
        b, loc, arith::ConstantOp::create(b, loc, b.getZeroAttr(elt)), dst, i);
  });
  return success();
}

LogicalResult CpAsyncOp::buildDevice(OpBuilder &b, ValueRange operands,
                                     Value) {
  Location loc = getLoc();
  Value dst = operands[0], src = operands[1];
  if (isa<SmemSwizzledAttr>(memrefOf(getDst()).getMemorySpace())) {
    // The 128-byte swizzle: byte offset o of the logical row-major buffer
    // (rows of 128 bytes, the buffer 1024-byte aligned) is at
    // o xor ((o >> 3) & 0x70): the 16-byte chunk index xor the row mod 8.
    if (getFill())
      return emitOpError() << "zero-fills into swizzled shared memory; not "
                              "lowered yet";
    auto [dstBase, dstBytes] = viewAddress(b, loc, dst);
    Value swizzle = arith::AndIOp::create(
        b, loc, arith::ShRUIOp::create(b, loc, dstBytes, cIndex(b, loc, 3)),
        cIndex(b, loc, 0x70));
    Value dstAddr = arith::AddIOp::create(
        b, loc, dstBase, arith::XOrIOp::create(b, loc, dstBytes, swizzle));
    auto [srcBase, srcBytes] = viewAddress(b, loc, src);
    Value srcAddr = arith::AddIOp::create(b, loc, srcBase, srcBytes);
    Type i64 = b.getI64Type();
    auto ptr = [&](Value addr, unsigned space) -> Value {
      return LLVM::IntToPtrOp::create(
          b, loc, LLVM::LLVMPointerType::get(getContext(), space),
          arith::IndexCastOp::create(b, loc, i64, addr).getResult());
    };
    MemRefType srcType = memrefOf(src);
    int64_t bytes =
        srcType.getDimSize(0) * srcType.getElementTypeBitWidth() / 8;
    NVVM::CpAsyncOp::create(
        b, loc, ptr(dstAddr, 3), ptr(srcAddr, 1), b.getI32IntegerAttr(bytes),
        NVVM::LoadCacheModifierKindAttr::get(
            getContext(), bytes == 16 ? NVVM::LoadCacheModifierKind::CG
                                      : NVVM::LoadCacheModifierKind::CA),
        Value());
    return success();
  }
  // Kernel parameters are generic pointers; cp.async reads the global space.
  MemRefType srcType = memrefOf(src);
  auto global = MemRefType::get(
      srcType.getShape(), srcType.getElementType(), srcType.getLayout(),
      gpu::AddressSpaceAttr::get(getContext(), gpu::AddressSpace::Global));
  src = memref::MemorySpaceCastOp::create(b, loc, global, src);
  int64_t n = srcType.getDimSize(0);
  int64_t bytes = n * srcType.getElementType().getIntOrFloatBitWidth() / 8;
  Value zero = cIndex(b, loc, 0);
  Value fill;
  if (getFill())
    // Clamped to [0, n]: cp.async takes src-size as unsigned, and a size
    // past cp-size is undefined (a negative count read as a huge one).
    fill = arith::MaxSIOp::create(
        b, loc, arith::MinSIOp::create(b, loc, operands[2], cIndex(b, loc, n)),
        zero);
  nvgpu::DeviceAsyncCopyOp::create(
      b, loc, nvgpu::DeviceAsyncTokenType::get(getContext()), dst,
      ValueRange{zero}, src, ValueRange{zero}, b.getIndexAttr(n), fill,
      bytes == 16 ? b.getUnitAttr() : UnitAttr());
  return success();
}

//===----------------------------------------------------------------------===//
// ldmatrix
//===----------------------------------------------------------------------===//

int64_t LdMatrixOp::getNum() {
  MemRefType src = memrefOf(getSrc());
  return (src.getDimSize(0) / 8) * (src.getDimSize(1) / 8);
}

LogicalResult LdMatrixOp::verify() {
  MemRefType dst = memrefOf(getDst()), src = memrefOf(getSrc());
  if (src.getRank() != 2 || !src.hasStaticShape() ||
      src.getDimSize(0) % 8 != 0 || src.getDimSize(1) % 8 != 0)
    return emitOpError() << "loads 8x8 matrices: src must be a two-"
                            "dimensional window whose sizes are multiples of 8";
  int64_t num = getNum();
  if (num != 1 && num != 2 && num != 4)
    return emitOpError() << "loads 1, 2 or 4 matrices, but src is "
                         << src.getDimSize(0) << "x" << src.getDimSize(1)
                         << " (" << num << " matrices)";
  Type elt = src.getElementType();
  if (!elt.isIntOrFloat() || elt.getIntOrFloatBitWidth() != 16)
    return emitOpError() << "loads 16-bit elements, found " << elt;
  if (dst.getElementType() != elt)
    return emitOpError() << "dst must hold the elements of src (" << elt
                         << "), found " << dst.getElementType();
  if (dst.getRank() != 2 || dst.getDimSize(0) != 32 ||
      dst.getDimSize(1) != 2 * num)
    return emitOpError() << "dst must be the warp's fragment of 32x"
                         << 2 * num << " registers for " << num
                         << " matrices";
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(src.getStridesAndOffset(strides, offset)) || strides[1] != 1)
    return emitOpError() << "src rows must be contiguous";
  if (!ShapedType::isDynamic(strides[0]) && (strides[0] * 2) % 16 != 0)
    return emitOpError() << "src rows must start at 16-byte aligned "
                            "addresses; the row stride is "
                         << strides[0] * 2 << " bytes";
  return success();
}

CollUnitAttr LdMatrixOp::getCollUnit() {
  return unitOf(getContext(), CollUnitKind::warp);
}
InstrTimeline LdMatrixOp::getInstrTimeline() {
  return InstrTimeline::cuda_in_order;
}
SmallVector<InstrParam> LdMatrixOp::getParams() {
  InstrParam src{1, "src", AccessMode::read, QualTimeline::cuda_in_order_ram,
                 {TypeID::get<SmemAttr>()}};
  return {fragment(getContext(), 0, "dst", AccessMode::write), src};
}

LogicalResult LdMatrixOp::buildSequential(OpBuilder &b, ValueRange operands) {
  Location loc = getLoc();
  Value dst = operands[0], src = operands[1];
  int64_t num = getNum();
  int64_t rowBlocks = memrefOf(getSrc()).getDimSize(0) / 8;
  AffineExpr l = b.getAffineDimExpr(0), j = b.getAffineDimExpr(1),
             e = b.getAffineDimExpr(2);
  AffineExpr blockRow = (j % rowBlocks) * 8, blockCol = j.floorDiv(rowBlocks) * 8;
  AffineExpr inRow = l.floorDiv(4), inCol = (l % 4) * 2 + e;
  if (getTrans())
    std::swap(inRow, inCol);
  forRange(b, loc, 32, [&](Value lane) {
    forRange(b, loc, num, [&](Value mat) {
      forRange(b, loc, 2, [&](Value el) {
        SmallVector<Value> dims{lane, mat, el};
        Value row = apply(b, loc, blockRow + inRow, dims);
        Value col = apply(b, loc, blockCol + inCol, dims);
        Value reg = apply(b, loc, j * 2 + e, dims);
        Value v = memref::LoadOp::create(b, loc, src, ValueRange{row, col});
        memref::StoreOp::create(b, loc, v, dst, ValueRange{lane, reg});
      });
    });
  });
  return success();
}

LogicalResult LdMatrixOp::buildDevice(OpBuilder &b, ValueRange operands,
                                      Value threadId) {
  Location loc = getLoc();
  Value dst = operands[0], src = operands[1];
  int64_t num = getNum();
  int64_t rowBlocks = memrefOf(getSrc()).getDimSize(0) / 8;
  // Lanes 8j .. 8j + 7 give the addresses of matrix j's rows.
  Value lane = laneOf(b, loc, threadId);
  AffineExpr l = b.getAffineDimExpr(0);
  AffineExpr m = l % (8 * num);
  AffineExpr j = m.floorDiv(8);
  Value row = apply(b, loc, (j % rowBlocks) * 8 + m % 8, lane);
  Value col = apply(b, loc, j.floorDiv(rowBlocks) * 8, lane);
  Type elt = memrefOf(src).getElementType();
  auto vecType = VectorType::get({num, 2}, elt);
  Value loaded = nvgpu::LdMatrixOp::create(b, loc, vecType, src,
                                           ValueRange{row, col}, getTrans(),
                                           static_cast<uint32_t>(num));
  for (int64_t mat = 0; mat < num; ++mat)
    for (int64_t e = 0; e < 2; ++e) {
      Value v = vector::ExtractOp::create(b, loc, loaded,
                                          ArrayRef<int64_t>{mat, e});
      memref::StoreOp::create(b, loc, v, dst,
                              ValueRange{cIndex(b, loc, 2 * mat + e)});
    }
  return success();
}

//===----------------------------------------------------------------------===//
// mma.sync
//===----------------------------------------------------------------------===//

int64_t MmaSyncOp::getK() {
  return mmaLayout(getContext(), memrefOf(getA()).getElementType()).k;
}

LogicalResult MmaSyncOp::verify() {
  Type elt = memrefOf(getA()).getElementType();
  if (!elt.isF16() && !elt.isBF16() && !elt.isF32() && !elt.isInteger(8))
    return emitOpError() << "multiplies f16, bf16, tf32 (f32) or s8 or u8 "
                            "(i8) fragments, found "
                         << elt;
  if (memrefOf(getB()).getElementType() != elt)
    return emitOpError() << "a and b must have the same element type, found "
                         << elt << " and "
                         << memrefOf(getB()).getElementType();
  if ((getAUnsigned() || getBUnsigned()) && !elt.isInteger(8))
    return emitOpError() << "'a_unsigned' and 'b_unsigned' choose u8 for i8 "
                            "fragments; this one multiplies "
                         << elt;
  return success();
}

CollUnitAttr MmaSyncOp::getCollUnit() {
  return unitOf(getContext(), CollUnitKind::warp);
}
InstrTimeline MmaSyncOp::getInstrTimeline() {
  return InstrTimeline::cuda_in_order;
}
SmallVector<InstrParam> MmaSyncOp::getParams() {
  MLIRContext *ctx = getContext();
  Type elt = memrefOf(getA()).getElementType();
  // Each lane holds 16 bytes of A and 8 of B, 4 accumulators.
  int64_t perReg = 4 / ((elt.getIntOrFloatBitWidth() + 7) / 8);
  Type acc = elt.isInteger(8) ? Type(IntegerType::get(ctx, 32))
                              : Type(Float32Type::get(ctx));
  return {fragment(ctx, 0, "d", AccessMode::read_write, {32, 4}, acc),
          fragment(ctx, 1, "a", AccessMode::read, {32, 4 * perReg}),
          fragment(ctx, 2, "b", AccessMode::read, {32, 2 * perReg})};
}

LogicalResult MmaSyncOp::buildSequential(OpBuilder &b, ValueRange operands) {
  Location loc = getLoc();
  Value d = operands[0], a = operands[1], bm = operands[2];
  MmaLayout m = mmaLayout(getContext(), memrefOf(getA()).getElementType());
  buildMmaAccumulation(
      b, loc, d, m.k, [&](Value row, Value col, Value k, Value acc) -> Value {
        SmallVector<Value> rk{row, k}, kc{k, col};
        Value av = memref::LoadOp::create(
            b, loc, a,
            ValueRange{apply(b, loc, m.aLane, rk), apply(b, loc, m.aReg, rk)});
        Value bv = memref::LoadOp::create(
            b, loc, bm,
            ValueRange{apply(b, loc, m.bLane, kc), apply(b, loc, m.bReg, kc)});
        if (av.getType().isInteger(8)) {
          // Sums modulo 2^32.
          Value prod =
              integerProduct(b, loc, av, getAUnsigned(), bv, getBUnsigned());
          return arith::AddIOp::create(b, loc, acc, prod);
        }
        Value prod = arith::MulFOp::create(b, loc, tensorCoreInput(b, loc, av),
                                           tensorCoreInput(b, loc, bv));
        return arith::AddFOp::create(b, loc, acc, prod);
      });
  return success();
}

/// Two 16-bit elements of a fragment, lower index in the low half, as the
/// i32 register mma.sync takes.
static Value packPair(OpBuilder &b, Location loc, Value lo, Value hi) {
  Type i16 = b.getI16Type(), i32 = b.getI32Type();
  auto widen = [&](Value v) {
    return arith::ExtUIOp::create(
        b, loc, i32, arith::BitcastOp::create(b, loc, i16, v));
  };
  Value high = arith::ShLIOp::create(
      b, loc, widen(hi), arith::ConstantIntOp::create(b, loc, i32, 16));
  return arith::OrIOp::create(b, loc, widen(lo), high);
}

LogicalResult MmaSyncOp::buildDevice(OpBuilder &b, ValueRange operands,
                                     Value) {
  Location loc = getLoc();
  MLIRContext *ctx = getContext();
  Value d = operands[0], a = operands[1], bm = operands[2];
  Type elt = memrefOf(getA()).getElementType();
  auto load = [&](Value buf, int64_t i) {
    return memref::LoadOp::create(b, loc, buf, ValueRange{cIndex(b, loc, i)})
        .getResult();
  };
  // The registers of a fragment in mma.sync's operand form.
  auto regs = [&](Value buf, int64_t n) {
    SmallVector<Value> out;
    if (elt.isInteger(8)) {
      // Four bytes to a register, the lowest index in the low byte.
      Type i32 = b.getI32Type();
      for (int64_t i = 0; i < n; i += 4) {
        Value reg;
        for (int64_t j = 0; j < 4; ++j) {
          Value v = arith::ExtUIOp::create(b, loc, i32, load(buf, i + j));
          if (j)
            v = arith::ShLIOp::create(
                b, loc, v, arith::ConstantIntOp::create(b, loc, i32, 8 * j));
          reg = reg ? arith::OrIOp::create(b, loc, reg, v).getResult() : v;
        }
        out.push_back(reg);
      }
      return out;
    }
    if (elt.isF32()) {
      for (int64_t i = 0; i < n; ++i)
        out.push_back(
            arith::BitcastOp::create(b, loc, b.getI32Type(), load(buf, i)));
      return out;
    }
    for (int64_t i = 0; i < n; i += 2) {
      Value lo = load(buf, i), hi = load(buf, i + 1);
      if (elt.isF16())
        out.push_back(vector::FromElementsOp::create(
            b, loc, VectorType::get({2}, elt), ValueRange{lo, hi}));
      else
        out.push_back(packPair(b, loc, lo, hi));
    }
    return out;
  };
  bool tf32 = elt.isF32(), int8 = elt.isInteger(8);
  // The fragments' elements per lane (getParams).
  int64_t perReg = tf32 ? 1 : int8 ? 4 : 2;
  SmallVector<Value> aRegs = regs(a, 4 * perReg);
  SmallVector<Value> bRegs = regs(bm, 2 * perReg);
  SmallVector<Value> cRegs;
  for (int64_t i = 0; i < 4; ++i)
    cRegs.push_back(load(d, i));
  Type acc = int8 ? Type(b.getI32Type()) : Type(b.getF32Type());
  auto resultType = LLVM::LLVMStructType::getLiteral(ctx, {acc, acc, acc, acc});
  auto type = [&](bool isUnsigned) {
    if (int8)
      return isUnsigned ? NVVM::MMATypes::u8 : NVVM::MMATypes::s8;
    return tf32          ? NVVM::MMATypes::tf32
           : elt.isF16() ? NVVM::MMATypes::f16
                         : NVVM::MMATypes::bf16;
  };
  // Integer sums wrap (no .satfinite), as the sequential behavior does.
  std::optional<NVVM::MMAIntOverflow> overflow;
  if (int8)
    overflow = NVVM::MMAIntOverflow::wrapped;
  auto mma = NVVM::MmaOp::create(
      b, loc, resultType, aRegs, bRegs, cRegs, {16, 8, getK()}, std::nullopt,
      overflow,
      std::array<NVVM::MMATypes, 2>{type(getAUnsigned()), type(getBUnsigned())},
      std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                     NVVM::MMALayout::col});
  for (int64_t i = 0; i < 4; ++i) {
    Value v = LLVM::ExtractValueOp::create(b, loc, mma, i);
    memref::StoreOp::create(b, loc, v, d, ValueRange{cIndex(b, loc, i)});
  }
  return success();
}

//===----------------------------------------------------------------------===//
// shfl.sync
//===----------------------------------------------------------------------===//

namespace {
/// What the four shuffles share; `Mode` names the gpu.shuffle mode.
template <typename Op>
struct Shuffle {
  static LogicalResult verify(Op op) {
    for (Value v : {op.getDst(), op.getSrc()}) {
      MemRefType t = memrefOf(v);
      if (t.getRank() != 1 || t.getDimSize(0) != 32)
        return op.emitOpError()
               << "exchanges one value per lane: dst and src must be the "
                  "warp's 32 registers, found "
               << t;
      Type elt = t.getElementType();
      if (!elt.isIntOrFloat() || elt.getIntOrFloatBitWidth() != 32)
        return op.emitOpError() << "exchanges 32-bit values, found " << elt;
    }
    if (memrefOf(op.getDst()).getElementType() !=
        memrefOf(op.getSrc()).getElementType())
      return op.emitOpError() << "dst and src must have the same element type";
    return success();
  }
  static SmallVector<InstrParam> params(Op op) {
    MLIRContext *ctx = op.getContext();
    return {fragment(ctx, 0, "dst", AccessMode::write),
            fragment(ctx, 1, "src", AccessMode::read)};
  }
  /// The source lane of lane `l`, and whether it is used (else l keeps
  /// its own value).
  static Value source(OpBuilder &b, Location loc, Value l, int64_t offset,
                      gpu::ShuffleMode mode) {
    Value c = cIndex(b, loc, offset);
    switch (mode) {
    case gpu::ShuffleMode::XOR:
      return arith::XOrIOp::create(b, loc, l, c);
    case gpu::ShuffleMode::DOWN: {
      Value s = arith::AddIOp::create(b, loc, l, c);
      Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, s,
                                       cIndex(b, loc, 32));
      return arith::SelectOp::create(b, loc, ok, s, l);
    }
    case gpu::ShuffleMode::UP: {
      Value s = arith::SubIOp::create(b, loc, l, c);
      Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, s,
                                       cIndex(b, loc, 0));
      return arith::SelectOp::create(b, loc, ok, s, l);
    }
    case gpu::ShuffleMode::IDX:
      return c;
    }
    llvm_unreachable("every shuffle mode is handled");
  }
  /// With `active(n)`: the clamp c = min(max(n - 1, 0), 31), the last lane
  /// a lane may take from under bfly, down and idx (null for up, whose
  /// sources are lower lanes, and without `active`).
  static Value clamp(Op op, OpBuilder &b, ValueRange operands,
                     gpu::ShuffleMode mode) {
    Value n = activeOperand(b, op, operands, 2);
    if (!n || mode == gpu::ShuffleMode::UP)
      return Value();
    Location loc = op.getLoc();
    Value last = arith::SubIOp::create(b, loc, n, cIndex(b, loc, 1));
    last = arith::MaxSIOp::create(b, loc, last, cIndex(b, loc, 0));
    return arith::MinSIOp::create(b, loc, last, cIndex(b, loc, 31));
  }
  static LogicalResult sequential(Op op, OpBuilder &b, ValueRange operands,
                                  gpu::ShuffleMode mode) {
    Location loc = op.getLoc();
    Value dst = operands[0], src = operands[1];
    Value c = clamp(op, b, operands, mode);
    // All lanes read before any writes: dst may be src.
    Type elt = memrefOf(src).getElementType();
    Value before = memref::AllocaOp::create(b, loc, MemRefType::get({32}, elt));
    forRange(b, loc, 32, [&](Value l) {
      memref::StoreOp::create(b, loc, memref::LoadOp::create(b, loc, src, l),
                              before, l);
    });
    forRange(b, loc, 32, [&](Value l) {
      Value from = source(b, loc, l, op.getOffset(), mode);
      if (c) {
        // Never from a padding lane: past the clamp a lane keeps its own.
        Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle,
                                         from, c);
        from = arith::SelectOp::create(b, loc, ok, from, l);
      }
      memref::StoreOp::create(
          b, loc, memref::LoadOp::create(b, loc, before, from), dst, l);
    });
    return success();
  }
  static LogicalResult device(Op op, OpBuilder &b, ValueRange operands,
                              gpu::ShuffleMode mode) {
    Location loc = op.getLoc();
    // Each lane's part is one register: a rank-0 buffer.
    Value v = memref::LoadOp::create(b, loc, operands[1], ValueRange{});
    Value result;
    if (Value c = clamp(op, b, operands, mode)) {
      // Every lane takes part (the full mask); the clamp (no segments)
      // keeps sources past it out.
      Type i32 = b.getI32Type();
      auto kind = mode == gpu::ShuffleMode::XOR    ? NVVM::ShflKind::bfly
                  : mode == gpu::ShuffleMode::DOWN ? NVVM::ShflKind::down
                                                   : NVVM::ShflKind::idx;
      Value all = arith::ConstantIntOp::create(b, loc, i32, -1);
      Value offset = arith::ConstantIntOp::create(b, loc, i32, op.getOffset());
      Value clampI32 = arith::IndexCastOp::create(b, loc, i32, c);
      result = NVVM::ShflOp::create(b, loc, v.getType(), all, v, offset,
                                    clampI32, kind, UnitAttr());
    } else {
      result = gpu::ShuffleOp::create(b, loc, v,
                                      static_cast<int32_t>(op.getOffset()),
                                      32, mode)
                   .getShuffleResult();
    }
    memref::StoreOp::create(b, loc, result, operands[0], ValueRange{});
    return success();
  }
};
} // namespace

#define RAKE_SM80_SHUFFLE(OP, MODE)                                            \
  LogicalResult OP::verify() { return Shuffle<OP>::verify(*this); }           \
  CollUnitAttr OP::getCollUnit() {                                             \
    return unitOf(getContext(), CollUnitKind::warp);                           \
  }                                                                            \
  InstrTimeline OP::getInstrTimeline() { return InstrTimeline::cuda_in_order; }\
  SmallVector<InstrParam> OP::getParams() { return Shuffle<OP>::params(*this); }\
  LogicalResult OP::buildSequential(OpBuilder &b, ValueRange operands) {       \
    return Shuffle<OP>::sequential(*this, b, operands, MODE);                  \
  }                                                                            \
  LogicalResult OP::buildDevice(OpBuilder &b, ValueRange operands, Value) {    \
    return Shuffle<OP>::device(*this, b, operands, MODE);                      \
  }

RAKE_SM80_SHUFFLE(ShflBflyOp, gpu::ShuffleMode::XOR)
RAKE_SM80_SHUFFLE(ShflDownOp, gpu::ShuffleMode::DOWN)
RAKE_SM80_SHUFFLE(ShflUpOp, gpu::ShuffleMode::UP)
RAKE_SM80_SHUFFLE(ShflIdxOp, gpu::ShuffleMode::IDX)

#undef RAKE_SM80_SHUFFLE

//===----------------------------------------------------------------------===//
// vote.sync.ballot
//===----------------------------------------------------------------------===//

LogicalResult BallotOp::verify() {
  for (Value v : {getDst(), getSrc()}) {
    MemRefType t = memrefOf(v);
    if (t.getRank() != 1 || t.getDimSize(0) != 32)
      return emitOpError() << "votes with one value per lane: dst and src "
                              "must be the warp's 32 registers, found "
                           << t;
    if (!t.getElementType().isInteger(32))
      return emitOpError() << "votes with i32 values (nonzero: the lane's "
                              "bit is set), found "
                           << t.getElementType();
  }
  return success();
}

CollUnitAttr BallotOp::getCollUnit() {
  return unitOf(getContext(), CollUnitKind::warp);
}

InstrTimeline BallotOp::getInstrTimeline() {
  return InstrTimeline::cuda_in_order;
}

SmallVector<InstrParam> BallotOp::getParams() {
  MLIRContext *ctx = getContext();
  return {fragment(ctx, 0, "dst", AccessMode::write),
          fragment(ctx, 1, "src", AccessMode::read)};
}

LogicalResult BallotOp::buildSequential(OpBuilder &b, ValueRange operands) {
  Location loc = getLoc();
  Value dst = operands[0], src = operands[1];
  Type i32 = b.getI32Type();
  Value zero = arith::ConstantIntOp::create(b, loc, i32, 0);
  // The mask: bit l for each lane l whose value is nonzero, all lanes read
  // before any writes.
  auto loop = scf::ForOp::create(b, loc, cIndex(b, loc, 0), cIndex(b, loc, 32),
                                 cIndex(b, loc, 1), ValueRange{zero});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value l = loop.getInductionVar();
    Value v = memref::LoadOp::create(b, loc, src, l);
    Value set = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, v, zero);
    // A padding lane votes 0.
    if (Value active = activeOperand(b, *this, operands, 2))
      set = arith::AndIOp::create(b, loc, set, isActiveLane(b, loc, l, active));
    Value bit = arith::ShLIOp::create(
        b, loc, arith::ConstantIntOp::create(b, loc, i32, 1),
        arith::IndexCastOp::create(b, loc, i32, l));
    Value with = arith::OrIOp::create(b, loc, loop.getRegionIterArgs().front(),
                                      bit);
    Value next = arith::SelectOp::create(b, loc, set, with,
                                         loop.getRegionIterArgs().front());
    scf::YieldOp::create(b, loc, next);
  }
  Value mask = loop.getResult(0);
  forRange(b, loc, 32, [&](Value l) {
    memref::StoreOp::create(b, loc, mask, dst, l);
  });
  return success();
}

LogicalResult BallotOp::buildDevice(OpBuilder &b, ValueRange operands,
                                   Value threadId) {
  Location loc = getLoc();
  Type i32 = b.getI32Type();
  // Each lane's part is one register: a rank-0 buffer.
  Value v = memref::LoadOp::create(b, loc, operands[1], ValueRange{});
  Value pred = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, v,
                                     arith::ConstantIntOp::create(b, loc, i32, 0));
  // A padding lane votes 0 (it still takes part: the full membership mask).
  if (Value active = activeOperand(b, *this, operands, 2))
    pred = arith::AndIOp::create(
        b, loc, pred,
        isActiveLane(b, loc, laneOf(b, loc, threadId), active));
  Value all = arith::ConstantIntOp::create(b, loc, i32, -1);
  Value mask = NVVM::VoteSyncOp::create(b, loc, i32, all, pred,
                                        NVVM::VoteSyncKind::ballot);
  memref::StoreOp::create(b, loc, mask, operands[0], ValueRange{});
  return success();
}

//===----------------------------------------------------------------------===//
// Vector loads and stores of global memory
//===----------------------------------------------------------------------===//

namespace {
/// The rules ld_global and st_global share: `global` is a window of global
/// memory, `regs` of the thread's registers, one run of 4, 8 or 16 bytes.
LogicalResult verifyGlobalVector(Operation *op, Value regs, Value global) {
  MemRefType r = memrefOf(regs), g = memrefOf(global);
  if (r.getRank() != 1 || g.getRank() != 1 || !r.hasStaticShape() ||
      !g.hasStaticShape())
    return op->emitOpError() << "moves a run of elements: dst and src must "
                                "be one-dimensional windows of static size";
  if (r.getElementType() != g.getElementType() ||
      r.getDimSize(0) != g.getDimSize(0))
    return op->emitOpError()
           << "dst and src must have the same size and element type, found "
           << r.getDimSize(0) << " x " << r.getElementType() << " and "
           << g.getDimSize(0) << " x " << g.getElementType();
  if (!r.getElementType().isIntOrFloat() ||
      r.getElementTypeBitWidth() % 8 != 0)
    return op->emitOpError() << "moves whole bytes of scalars, found "
                             << r.getElementType();
  int64_t bytes = r.getDimSize(0) * r.getElementTypeBitWidth() / 8;
  if (bytes != 4 && bytes != 8 && bytes != 16)
    return op->emitOpError() << "moves 4, 8 or 16 bytes, found " << bytes;
  if (!hasUnitInnerStride(r) || !hasUnitInnerStride(g))
    return op->emitOpError() << "moves contiguous elements: dst and src "
                                "must have unit stride";
  return success();
}

/// The global window as a memref in the global address space (kernel
/// parameters are generic pointers).
Value asGlobal(OpBuilder &b, Location loc, Value v) {
  MemRefType t = memrefOf(v);
  auto global = MemRefType::get(
      t.getShape(), t.getElementType(), t.getLayout(),
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Global));
  return memref::MemorySpaceCastOp::create(b, loc, global, v);
}

/// The sequential behavior of both: dst[i] = src[i] over the run.
void copyRun(OpBuilder &b, Location loc, Value dst, Value src) {
  forRange(b, loc, memrefOf(dst).getDimSize(0), [&](Value i) {
    memref::StoreOp::create(b, loc, memref::LoadOp::create(b, loc, src, i),
                            dst, i);
  });
}

int64_t runBytes(Value v) {
  MemRefType t = memrefOf(v);
  return t.getDimSize(0) * t.getElementTypeBitWidth() / 8;
}
} // namespace

LogicalResult LdGlobalOp::verify() {
  return verifyGlobalVector(*this, getDst(), getSrc());
}
CollUnitAttr LdGlobalOp::getCollUnit() {
  return unitOf(getContext(), CollUnitKind::thread);
}
InstrTimeline LdGlobalOp::getInstrTimeline() {
  return InstrTimeline::cuda_in_order;
}
SmallVector<InstrParam> LdGlobalOp::getParams() {
  InstrParam dst{0, "dst", AccessMode::write, QualTimeline::cuda_in_order_rmem,
                 {TypeID::get<RmemAttr>()}};
  InstrParam src{1, "src", AccessMode::read, QualTimeline::cuda_in_order_ram,
                 {TypeID::get<GmemAttr>()}};
  return {dst, src};
}
LogicalResult LdGlobalOp::buildSequential(OpBuilder &b, ValueRange operands) {
  copyRun(b, getLoc(), operands[0], operands[1]);
  return success();
}
LogicalResult LdGlobalOp::buildDevice(OpBuilder &b, ValueRange operands,
                                      Value) {
  Location loc = getLoc();
  Value dst = operands[0], src = asGlobal(b, loc, operands[1]);
  MemRefType t = memrefOf(src);
  int64_t n = t.getDimSize(0);
  auto vec = VectorType::get({n}, t.getElementType());
  // The alignment code generation proved (verifyVectorAlignment).
  Value loaded = vector::LoadOp::create(
      b, loc, vec, src, ValueRange{cIndex(b, loc, 0)}, /*nontemporal=*/false,
      llvm::MaybeAlign(runBytes(src)));
  for (int64_t e = 0; e < n; ++e)
    memref::StoreOp::create(
        b, loc, vector::ExtractOp::create(b, loc, loaded, ArrayRef<int64_t>{e}),
        dst, ValueRange{cIndex(b, loc, e)});
  return success();
}

LogicalResult StGlobalOp::verify() {
  return verifyGlobalVector(*this, getSrc(), getDst());
}
CollUnitAttr StGlobalOp::getCollUnit() {
  return unitOf(getContext(), CollUnitKind::thread);
}
InstrTimeline StGlobalOp::getInstrTimeline() {
  return InstrTimeline::cuda_in_order;
}
SmallVector<InstrParam> StGlobalOp::getParams() {
  InstrParam dst{0, "dst", AccessMode::write, QualTimeline::cuda_in_order_ram,
                 {TypeID::get<GmemAttr>()}};
  InstrParam src{1, "src", AccessMode::read, QualTimeline::cuda_in_order_rmem,
                 {TypeID::get<RmemAttr>()}};
  return {dst, src};
}
LogicalResult StGlobalOp::buildSequential(OpBuilder &b, ValueRange operands) {
  copyRun(b, getLoc(), operands[0], operands[1]);
  return success();
}
LogicalResult StGlobalOp::buildDevice(OpBuilder &b, ValueRange operands,
                                      Value) {
  Location loc = getLoc();
  Value dst = asGlobal(b, loc, operands[0]), src = operands[1];
  MemRefType t = memrefOf(dst);
  int64_t n = t.getDimSize(0);
  SmallVector<Value> elements;
  for (int64_t e = 0; e < n; ++e)
    elements.push_back(
        memref::LoadOp::create(b, loc, src, ValueRange{cIndex(b, loc, e)}));
  Value vec = vector::FromElementsOp::create(
      b, loc, VectorType::get({n}, t.getElementType()), elements);
  vector::StoreOp::create(b, loc, vec, dst, ValueRange{cIndex(b, loc, 0)},
                          /*nontemporal=*/false,
                          llvm::MaybeAlign(runBytes(dst)));
  return success();
}

//===----------------------------------------------------------------------===//
// Warp sums and scans through published shuffle sequences
//===----------------------------------------------------------------------===//

namespace {
template <typename Op>
struct WarpSum {
  static LogicalResult verify(Op op) {
    for (Value v : {op.getDst(), op.getSrc()}) {
      MemRefType t = memrefOf(v);
      if (t.getRank() != 1 || t.getDimSize(0) != 32)
        return op.emitOpError() << "sums one value per lane: dst and src "
                                   "must be the warp's 32 registers, found "
                                << t;
      Type elt = t.getElementType();
      if (!elt.isF32() && !elt.isInteger(32))
        return op.emitOpError() << "sums f32 or i32 values, found " << elt;
    }
    if (memrefOf(op.getDst()).getElementType() !=
        memrefOf(op.getSrc()).getElementType())
      return op.emitOpError() << "dst and src must have the same element type";
    return success();
  }
  static Value add(OpBuilder &b, Location loc, Value x, Value y) {
    if (isa<FloatType>(x.getType()))
      return arith::AddFOp::create(b, loc, x, y);
    return arith::AddIOp::create(b, loc, x, y);
  }
  /// The steps: (distance, butterfly or up) in order.
  static SmallVector<int64_t> distances(bool scan) {
    return scan ? SmallVector<int64_t>{1, 2, 4, 8, 16}
                : SmallVector<int64_t>{16, 8, 4, 2, 1};
  }
  static LogicalResult sequential(Op op, OpBuilder &b, ValueRange operands,
                                  bool scan) {
    Location loc = op.getLoc();
    Value dst = operands[0], src = operands[1];
    Type elt = memrefOf(src).getElementType();
    auto type = MemRefType::get({32}, elt);
    Value v = memref::AllocaOp::create(b, loc, type);
    Value t = memref::AllocaOp::create(b, loc, type);
    Value active = activeOperand(b, op, operands, 2);
    forRange(b, loc, 32, [&](Value l) {
      // A padding lane supplies the neutral operand.
      Value x = memref::LoadOp::create(b, loc, src, l);
      if (active)
        x = arith::SelectOp::create(b, loc, isActiveLane(b, loc, l, active), x,
                                    neutralOfSum(b, loc, elt));
      memref::StoreOp::create(b, loc, x, v, l);
    });
    for (int64_t d : distances(scan)) {
      // Every lane's new value from the old ones, then the new ones.
      forRange(b, loc, 32, [&](Value l) {
        Value own = memref::LoadOp::create(b, loc, v, l);
        Value next;
        if (scan) {
          Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, l,
                                           cIndex(b, loc, d));
          // Lanes below d keep their value (their source lane is below 0).
          Value from = arith::SelectOp::create(
              b, loc, ok, arith::SubIOp::create(b, loc, l, cIndex(b, loc, d)), l);
          Value other = memref::LoadOp::create(b, loc, v, from);
          next = arith::SelectOp::create(b, loc, ok, add(b, loc, other, own), own);
        } else {
          Value from = arith::XOrIOp::create(b, loc, l, cIndex(b, loc, d));
          Value other = memref::LoadOp::create(b, loc, v, from);
          next = add(b, loc, own, other);
        }
        memref::StoreOp::create(b, loc, next, t, l);
      });
      forRange(b, loc, 32, [&](Value l) {
        memref::StoreOp::create(b, loc, memref::LoadOp::create(b, loc, t, l),
                                v, l);
      });
    }
    forRange(b, loc, 32, [&](Value l) {
      memref::StoreOp::create(b, loc, memref::LoadOp::create(b, loc, v, l),
                              dst, l);
    });
    return success();
  }
  static LogicalResult device(Op op, OpBuilder &b, ValueRange operands,
                              Value threadId, bool scan) {
    Location loc = op.getLoc();
    Value v = memref::LoadOp::create(b, loc, operands[1], ValueRange{});
    Value active = activeOperand(b, op, operands, 2);
    Value lane = (scan || active) ? laneOf(b, loc, threadId) : Value();
    if (active)
      v = arith::SelectOp::create(b, loc, isActiveLane(b, loc, lane, active),
                                  v, neutralOfSum(b, loc, v.getType()));
    for (int64_t d : distances(scan)) {
      auto shuffle = gpu::ShuffleOp::create(
          b, loc, v, static_cast<int32_t>(d), 32,
          scan ? gpu::ShuffleMode::UP : gpu::ShuffleMode::XOR);
      Value other = shuffle.getShuffleResult();
      if (scan) {
        Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                         lane, cIndex(b, loc, d));
        v = arith::SelectOp::create(b, loc, ok, add(b, loc, other, v), v);
      } else {
        v = add(b, loc, v, other);
      }
    }
    memref::StoreOp::create(b, loc, v, operands[0], ValueRange{});
    return success();
  }
};
} // namespace

#define RAKE_SM80_WARP_SUM(OP, SCAN)                                           \
  LogicalResult OP::verify() { return WarpSum<OP>::verify(*this); }           \
  CollUnitAttr OP::getCollUnit() {                                             \
    return unitOf(getContext(), CollUnitKind::warp);                           \
  }                                                                            \
  InstrTimeline OP::getInstrTimeline() { return InstrTimeline::cuda_in_order; }\
  SmallVector<InstrParam> OP::getParams() {                                    \
    return {fragment(getContext(), 0, "dst", AccessMode::write),               \
            fragment(getContext(), 1, "src", AccessMode::read)};               \
  }                                                                            \
  LogicalResult OP::buildSequential(OpBuilder &b, ValueRange operands) {       \
    return WarpSum<OP>::sequential(*this, b, operands, SCAN);                  \
  }                                                                            \
  LogicalResult OP::buildDevice(OpBuilder &b, ValueRange operands,             \
                                Value threadId) {                              \
    return WarpSum<OP>::device(*this, b, operands, threadId, SCAN);            \
  }

RAKE_SM80_WARP_SUM(WarpSumOp, false)
RAKE_SM80_WARP_SUM(WarpScanOp, true)

#undef RAKE_SM80_WARP_SUM

void mlir::rake::gpuir::registerSm80Instructions(GpuIRDialect *dialect) {
  dialect->addInstructions<
#define GET_OP_LIST
#include "Rake/Dialect/GpuIR/Instrs/Sm80.cpp.inc"
      >();
}
