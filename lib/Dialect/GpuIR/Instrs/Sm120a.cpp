//===- Sm120a.cpp - the Sm120a instruction set ----------------------------===//
//
// The block-scaled mma.sync of sm_120a: its parameters for the analyses, its
// sequential behavior (the narrow formats decoded exactly, the products
// scaled and added in order of k) and its device code (the fragments packed
// into the instruction's registers, nvvm.mma.block_scale).
//
//===----------------------------------------------------------------------===//

#include "Rake/Dialect/GpuIR/Instrs/Sm120a.h"
#include "Builders.h"
#include "NarrowFormats.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <cmath>
#include <optional>

using namespace mlir;
using namespace mlir::rake;
using namespace mlir::rake::gpuir;
using namespace mlir::rake::gpuir::instrs;

#define GET_OP_CLASSES
#include "Rake/Dialect/GpuIR/Instrs/Sm120a.cpp.inc"

//===----------------------------------------------------------------------===//
// mma.sync ... .block_scale
//===----------------------------------------------------------------------===//

int64_t MmaBlockScaleOp::getK() {
  return memrefOf(getA()).getRank() == 2 && memrefOf(getA()).getDimSize(1) == 32
             ? 64
             : 32;
}

int64_t MmaBlockScaleOp::getScaleVec() {
  if (getK() == 32)
    return 1;
  return isa<Float8E4M3FNType>(memrefOf(getSfa()).getElementType()) ? 4 : 2;
}

LogicalResult MmaBlockScaleOp::verify() {
  MemRefType a = memrefOf(getA()), b = memrefOf(getB());
  for (auto [name, t] : {std::pair<StringRef, MemRefType>{"a", a}, {"b", b}})
    if (!multiplicandFormat(t.getElementType()))
      return emitOpError() << "multiplies f8E4M3FN, f8E5M2, f6E3M2FN, "
                              "f6E2M3FN or f4E2M1FN fragments, found "
                           << t.getElementType() << " (" << name << ")";
  auto isShape = [](MemRefType t, int64_t cols) {
    return t.getRank() == 2 && t.getDimSize(0) == 32 && t.getDimSize(1) == cols;
  };
  if (!isShape(a, 16) && !isShape(a, 32))
    return emitOpError() << "a must be the warp's fragment of A: 32x16 "
                            "(m16n8k32, kind::mxf8f6f4) or 32x32 (m16n8k64, "
                            "kind::mxf4nvf4), found "
                         << a;
  int64_t k = getK();
  if (!isShape(b, k / 4))
    return emitOpError() << "b must be the warp's 32x" << k / 4
                         << " fragment of B for K = " << k << ", found " << b;
  bool fp4 = isa<Float4E2M1FNType>(a.getElementType()) &&
             isa<Float4E2M1FNType>(b.getElementType());
  if (k == 64 && !fp4)
    return emitOpError() << "m16n8k64 (kind::mxf4nvf4) multiplies f4E2M1FN "
                            "only, found "
                         << a.getElementType() << " and " << b.getElementType()
                         << ": use 32x16 and 32x8 fragments (m16n8k32, "
                            "kind::mxf8f6f4) for other formats";
  Type scale = memrefOf(getSfa()).getElementType();
  if (memrefOf(getSfb()).getElementType() != scale)
    return emitOpError() << "sfa and sfb must have the same scale format, "
                            "found "
                         << scale << " and "
                         << memrefOf(getSfb()).getElementType();
  if (!scaleFormat(scale))
    return emitOpError() << "scales are f8E8M0FNU (ue8m0) or f8E4M3FN (read "
                            "as ue4m3), found "
                         << scale;
  if (isa<Float8E4M3FNType>(scale) && k != 64)
    return emitOpError() << "ue4m3 scales (f8E4M3FN) scale blocks of 16 "
                            "f4E2M1FN elements (NVFP4, m16n8k64); "
                            "kind::mxf8f6f4 takes f8E8M0FNU scales";
  int64_t sv = getScaleVec();
  for (auto [name, id] :
       {std::pair<StringRef, int64_t>{"byte_id_a", getByteIdA()},
        {"byte_id_b", getByteIdB()}})
    if (id % sv != 0 || id + sv > 4)
      return emitOpError()
             << name << " " << id << " does not start the " << sv
             << " scale bytes of a row (one per block) within the lane's "
                "four: it must be "
             << (sv == 2 ? "0 or 2" : "0");
  return success();
}

CollUnitAttr MmaBlockScaleOp::getCollUnit() {
  return unitOf(getContext(), CollUnitKind::warp);
}
InstrTimeline MmaBlockScaleOp::getInstrTimeline() {
  return InstrTimeline::cuda_in_order;
}
SmallVector<InstrParam> MmaBlockScaleOp::getParams() {
  MLIRContext *ctx = getContext();
  Type f32 = Float32Type::get(ctx);
  return {fragment(ctx, 0, "d", AccessMode::read_write, {32, 4}, f32),
          fragment(ctx, 1, "a", AccessMode::read),
          fragment(ctx, 2, "b", AccessMode::read),
          fragment(ctx, 3, "sfa", AccessMode::read, {32, 4}),
          fragment(ctx, 4, "sfb", AccessMode::read, {32, 4})};
}

namespace {

/// A scale's exact f32 value: ue8m0, or ue4m3 (NaN for a byte with its top
/// bit set, which is not a ue4m3 value).
Value scaleValue(OpBuilder &b, Location loc, Value v) {
  NarrowFormat f = *scaleFormat(v.getType());
  Value bits = bitsOf(b, loc, v);
  Value value = decodeExactly(b, loc, bits, f);
  if (f.exponentOnly)
    return value;
  Type i32 = b.getI32Type();
  Value top =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, bits,
                            arith::ConstantIntOp::create(b, loc, i32, 0x80));
  Value nan =
      arith::ConstantOp::create(b, loc, b.getF32FloatAttr(std::nanf("")));
  return arith::SelectOp::create(b, loc, top, nan, value);
}
} // namespace

LogicalResult MmaBlockScaleOp::buildSequential(OpBuilder &b,
                                               ValueRange operands) {
  Location loc = getLoc();
  Value d = operands[0], a = operands[1], bm = operands[2], sfa = operands[3],
        sfb = operands[4];
  int64_t k = getK(), block = k / getScaleVec();
  // The fragments: A and B one element per byte (K = 32) or nibble
  // (K = 64), four or eight to a register.
  MmaPackedLayout m = mmaPackedLayout(getContext(), k / 8);
  NarrowFormat fa = *multiplicandFormat(memrefOf(getA()).getElementType());
  NarrowFormat fb = *multiplicandFormat(memrefOf(getB()).getElementType());
  AffineExpr r = b.getAffineDimExpr(0), c = b.getAffineDimExpr(1),
             kk = b.getAffineDimExpr(1);
  // SF_A[row][j] at lane 4 (row mod 8) + 2 thread_id_a + row / 8, byte
  // byte_id_a + j; SF_B[j][col] at lane 4 col + thread_id_b, byte
  // byte_id_b + j (j = k / block).
  AffineExpr saLane = (r % 8) * 4 + 2 * getThreadIdA() + r.floorDiv(8);
  AffineExpr saByte = kk.floorDiv(block) + getByteIdA();
  AffineExpr sbLane = c * 4 + getThreadIdB();
  AffineExpr sbByte = b.getAffineDimExpr(0).floorDiv(block) + getByteIdB();
  Type f32 = b.getF32Type(), f64 = b.getF64Type();
  buildMmaAccumulation(
      b, loc, d, k, [&](Value row, Value col, Value kv, Value acc) -> Value {
        SmallVector<Value> rk{row, kv}, kc{kv, col};
        auto load = [&](Value buf, AffineExpr lanes, AffineExpr elts,
                        ValueRange dims) -> Value {
          return memref::LoadOp::create(b, loc, buf,
                                        ValueRange{apply(b, loc, lanes, dims),
                                                   apply(b, loc, elts, dims)});
        };
        Value av = decodeExactly(
            b, loc, bitsOf(b, loc, load(a, m.aLane, m.aElt, rk)), fa);
        Value bv = decodeExactly(
            b, loc, bitsOf(b, loc, load(bm, m.bLane, m.bElt, kc)), fb);
        Value sa = scaleValue(b, loc, load(sfa, saLane, saByte, rk));
        Value sb = scaleValue(b, loc, load(sfb, sbLane, sbByte, kc));
        // The product is exact in f64 (at most 16 significant bits,
        // exponents within +-300), rounded to f32 once.
        auto wide = [&](Value v) -> Value {
          return arith::ExtFOp::create(b, loc, f64, v);
        };
        Value p = arith::MulFOp::create(
            b, loc, arith::MulFOp::create(b, loc, wide(av), wide(sa)),
            arith::MulFOp::create(b, loc, wide(bv), wide(sb)));
        return arith::AddFOp::create(b, loc, acc,
                                     arith::TruncFOp::create(b, loc, f32, p));
      });
  return success();
}

LogicalResult MmaBlockScaleOp::buildDevice(OpBuilder &, ValueRange, Value) {
  return emitOpError() << "needs the kernel's target: buildDeviceInKernel";
}

namespace {
/// The PTX type of a multiplicand format.
NVVM::MMATypes ptxType(const NarrowFormat &f) {
  return llvm::StringSwitch<NVVM::MMATypes>(f.ptx)
      .Case("e4m3", NVVM::MMATypes::e4m3)
      .Case("e5m2", NVVM::MMATypes::e5m2)
      .Case("e3m2", NVVM::MMATypes::e3m2)
      .Case("e2m3", NVVM::MMATypes::e2m3)
      .Default(NVVM::MMATypes::e2m1);
}
} // namespace

LogicalResult MmaBlockScaleOp::buildDeviceInKernel(OpBuilder &b,
                                                   ValueRange operands,
                                                   DeviceKernel &kernel) {
  if (kernel.getChip() != "sm_120a")
    return emitOpError() << "is an sm_120a instruction; this kernel is "
                            "compiled for "
                         << kernel.getChip()
                         << ": compile it for profile nvidia-ptx-sm120a "
                            "(rake-bundle --profile=nvidia-ptx-sm120a, or "
                            "rake-gpuir-to-ptx{chip=sm_120a})";
  Location loc = getLoc();
  MLIRContext *ctx = getContext();
  Value d = operands[0], a = operands[1], bm = operands[2], sfa = operands[3],
        sfb = operands[4];
  Type i32 = b.getI32Type();
  auto c32 = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, i32, v);
  };
  auto load = [&](Value buf, int64_t i) -> Value {
    return memref::LoadOp::create(b, loc, buf, ValueRange{cIndex(b, loc, i)});
  };
  int64_t k = getK();
  // A register of `per` elements from element `first` of a thread's
  // fragment: `width` bits each, element e at bit width e + shift (e2m1 in
  // kind::mxf8f6f4 sits in bits 5:2 of its byte).
  auto pack = [&](Value buf, int64_t first, int64_t per, int64_t width,
                  int64_t shift) -> Value {
    Value reg = c32(0);
    for (int64_t e = 0; e < per; ++e) {
      Value bits = bitsOf(b, loc, load(buf, first + e));
      int64_t at = width * e + shift;
      if (at)
        bits = arith::ShLIOp::create(b, loc, bits, c32(at));
      reg = arith::OrIOp::create(b, loc, reg, bits);
    }
    return reg;
  };
  auto regs = [&](Value buf, Type elt, int64_t n) {
    SmallVector<Value> out;
    bool fp4 = isa<Float4E2M1FNType>(elt);
    int64_t per = k == 64 ? 8 : 4, width = k == 64 ? 4 : 8;
    int64_t shift = k == 32 && fp4 ? 2 : 0;
    for (int64_t r = 0; r < n; ++r)
      out.push_back(pack(buf, r * per, per, width, shift));
    return out;
  };
  Type aElt = memrefOf(getA()).getElementType();
  Type bElt = memrefOf(getB()).getElementType();
  SmallVector<Value> aRegs = regs(a, aElt, 4), bRegs = regs(bm, bElt, 2);
  SmallVector<Value> cRegs;
  for (int64_t i = 0; i < 4; ++i)
    cRegs.push_back(load(d, i));
  Value scaleA = pack(sfa, 0, 4, 8, 0), scaleB = pack(sfb, 0, 4, 8, 0);
  auto c16 = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, b.getI16Type(), v);
  };
  Type f32 = b.getF32Type();
  auto resultType = LLVM::LLVMStructType::getLiteral(ctx, {f32, f32, f32, f32});
  int64_t sv = getScaleVec();
  bool ue4m3 = sv == 4;
  auto mma = NVVM::MmaBlockScaleOp::create(
      b, loc, resultType, aRegs, bRegs, cRegs, scaleA, c16(getByteIdA()),
      c16(getThreadIdA()), scaleB, c16(getByteIdB()), c16(getThreadIdB()),
      {16, 8, k},
      std::array<NVVM::MMATypes, 2>{ptxType(*multiplicandFormat(aElt)),
                                    ptxType(*multiplicandFormat(bElt))},
      sv == 1   ? NVVM::ScaleVecSize::X1
      : sv == 2 ? NVVM::ScaleVecSize::X2
                : NVVM::ScaleVecSize::X4,
      ue4m3 ? NVVM::BlockScaleFormat::UE4M3 : NVVM::BlockScaleFormat::UE8M0,
      k == 64 ? NVVM::MMABlockScaleKind::MXF4NVF4
              : NVVM::MMABlockScaleKind::MXF8F6F4);
  for (int64_t i = 0; i < 4; ++i) {
    Value v = LLVM::ExtractValueOp::create(b, loc, mma, i);
    memref::StoreOp::create(b, loc, v, d, ValueRange{cIndex(b, loc, i)});
  }
  return success();
}

void mlir::rake::gpuir::registerSm120aInstructions(GpuIRDialect *dialect) {
  dialect->addInstructions<
#define GET_OP_LIST
#include "Rake/Dialect/GpuIR/Instrs/Sm120a.cpp.inc"
      >();
}
