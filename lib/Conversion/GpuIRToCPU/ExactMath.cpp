//===- ExactMath.cpp - math ops as exactly specified arithmetic ----------===//
//
// Both lowerings of GpuIR (the sequential meaning on the host and the
// kernel on the device) first rewrite the math dialect ops of a procedure
// the same way, so that a kernel computes on the GPU exactly what its
// sequential meaning computes on the CPU, with no approximate instruction:
//
// - correctly rounded operations become one correctly rounded instruction
//   (sqrt: sqrt.rn on the device, sqrtss on the host; fma: fma.rn; floor,
//   ceil, trunc, roundeven: cvt.rmi/rpi/rzi/rni; abs and copysign: the
//   sign bit), for f32 and f64;
// - math.exp on f32 becomes Rake's exp: a Cody-Waite reduction by ln 2,
//   a degree-7 polynomial evaluated with fma.rn, and a scaling by 2^k in
//   two exact steps (results that are subnormal round once), all from
//   correctly rounded f32 operations: within 2 ulp of e^x (measured:
//   test/Conversion/GpuIRToCPU/exact-math.mlir), exactly e^x's special
//   values (NaN, +-inf, 0 for x below -103.97, -0 -> 1), and the same bits
//   on both sides;
// - every other math op is refused at the op, naming what to write.
//
//===----------------------------------------------------------------------===//

#include "SequentialLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::rake;

namespace {

/// Rake's e^x for f32 from correctly rounded f32 operations.
Value buildExp(OpBuilder &b, Location loc, Value x) {
  Type f32 = b.getF32Type(), i32 = b.getI32Type();
  auto cst = [&](float v) {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v)).getResult();
  };
  auto icst = [&](int32_t v) {
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v))
        .getResult();
  };
  auto fma = [&](Value a, Value m, Value c) {
    return LLVM::FMAOp::create(b, loc, a, m, c).getResult();
  };
  // k = round(x / ln 2) (to nearest even: adding and subtracting 1.5 2^23
  // rounds any |v| < 2^22 to an integer exactly); r = x - k ln 2 in two
  // steps (ln 2 = hi + lo, hi the f32 nearest ln 2): |r| <= ln(2)/2 plus a
  // few ulp.
  Value shifter = cst(12582912.0f);
  Value k = arith::SubFOp::create(
      b, loc,
      arith::AddFOp::create(
          b, loc,
          arith::MulFOp::create(b, loc, x, cst(1.44269504088896341f)),
          shifter),
      shifter);
  Value negK = arith::NegFOp::create(b, loc, k);
  Value r = fma(negK, cst(0.693147182464599609375f), x);
  r = fma(negK, cst(-1.904654323148236e-09f), r);
  // e^r by Horner's rule on the Taylor coefficients 1/n!, n <= 7 (the
  // truncation is below 2^-27 relative on |r| <= 0.35).
  static const float coeffs[] = {1.0f / 5040, 1.0f / 720, 1.0f / 120,
                                 1.0f / 24,   1.0f / 6,   0.5f,
                                 1.0f,        1.0f};
  Value p = cst(coeffs[0]);
  for (float c : llvm::drop_begin(coeffs))
    p = fma(p, r, cst(c));
  // p 2^k as (p 2^k1) 2^k2, k1 = floor(k / 2), k2 = k - k1: each factor
  // is a normal power of two for -150 <= k <= 128, the first product is
  // exact, and the second rounds once (to a subnormal, or to infinity).
  Value kInt = arith::FPToSIOp::create(b, loc, i32, k);
  Value k1 = arith::ShRSIOp::create(b, loc, kInt, icst(1));
  Value k2 = arith::SubIOp::create(b, loc, kInt, k1);
  auto pow2 = [&](Value e) {
    Value bits = arith::ShLIOp::create(
        b, loc, arith::AddIOp::create(b, loc, e, icst(127)), icst(23));
    return arith::BitcastOp::create(b, loc, f32, bits).getResult();
  };
  Value y = arith::MulFOp::create(
      b, loc, arith::MulFOp::create(b, loc, p, pow2(k1)), pow2(k2));
  // Outside [-103.98, 88.73] e^x is 0 (below half the least subnormal) or
  // infinite; the reduction above would leave the exponent range.
  Value inf = cst(std::numeric_limits<float>::infinity());
  Value big = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x,
                                    cst(88.72283935546875f));
  Value tiny = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x,
                                     cst(-103.97208404541015625f));
  y = arith::SelectOp::create(b, loc, big, inf, y);
  y = arith::SelectOp::create(b, loc, tiny, cst(0.0f), y);
  // NaN in, the same NaN out.
  Value nan = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
  return arith::SelectOp::create(b, loc, nan, x, y);
}

/// What to write instead of a math op without an exact lowering.
std::string alternativeFor(StringRef name) {
  if (name == "rsqrt")
    return "write arith.divf of 1.0 by math.sqrt (two correctly rounded "
           "operations)";
  if (name == "exp2")
    return "write math.exp of x times ln 2, or multiply by a power of two "
           "built with arith.bitcast";
  if (name == "powf" || name == "fpowi" || name == "ipowi")
    return "write the product with arith.mulf, or math.exp of y times a "
           "logarithm computed on the host";
  return "compute it on the host, or from arith operations and math.exp, "
         "math.sqrt and math.fma";
}

} // namespace

/// One correctly rounded instruction: an LLVM intrinsic on the host; on
/// the device the PTX instruction itself (the GPU lowering would send the
/// intrinsics to libdevice, whose sqrt is approximate unless reflected
/// otherwise).
static Value exactUnary(OpBuilder &b, Location loc, Operation *op, Value x,
                        bool device) {
  Type t = x.getType();
  if (!device) {
    if (isa<math::SqrtOp>(op))
      return LLVM::SqrtOp::create(b, loc, x);
    if (isa<math::FloorOp>(op))
      return LLVM::FFloorOp::create(b, loc, x);
    if (isa<math::CeilOp>(op))
      return LLVM::FCeilOp::create(b, loc, x);
    if (isa<math::TruncOp>(op))
      return LLVM::FTruncOp::create(b, loc, x);
    return LLVM::RoundEvenOp::create(b, loc, x);
  }
  StringRef suffix = t.isF32() ? "f32" : "f64";
  std::string instr = isa<math::SqrtOp>(op)    ? "sqrt.rn."
                      : isa<math::FloorOp>(op) ? "cvt.rmi." + suffix.str() + "."
                      : isa<math::CeilOp>(op)  ? "cvt.rpi." + suffix.str() + "."
                      : isa<math::TruncOp>(op) ? "cvt.rzi." + suffix.str() + "."
                                               : "cvt.rni." + suffix.str() + ".";
  std::string text = instr + suffix.str() + " $0, $1;";
  std::string constraints = t.isF32() ? "=f,f" : "=d,d";
  return LLVM::InlineAsmOp::create(
             b, loc, t, ValueRange{x}, text, constraints,
             /*has_side_effects=*/false, /*is_align_stack=*/false,
             LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(),
             ArrayAttr())
      .getResult(0);
}

/// |x| and copysign by the sign bit: exact, the same bits everywhere.
static Value signBits(OpBuilder &b, Location loc, Value magnitude, Value sign) {
  auto ft = cast<FloatType>(magnitude.getType());
  Type it = b.getIntegerType(ft.getWidth());
  APInt signMask = APInt::getSignMask(ft.getWidth());
  Value mask = arith::ConstantOp::create(b, loc, b.getIntegerAttr(it, signMask));
  Value notMask =
      arith::ConstantOp::create(b, loc, b.getIntegerAttr(it, ~signMask));
  Value m = arith::AndIOp::create(
      b, loc, arith::BitcastOp::create(b, loc, it, magnitude), notMask);
  if (sign) {
    Value s = arith::AndIOp::create(
        b, loc, arith::BitcastOp::create(b, loc, it, sign), mask);
    m = arith::OrIOp::create(b, loc, m, s);
  }
  return arith::BitcastOp::create(b, loc, ft, m);
}

LogicalResult mlir::rake::gpuir::expandExactMath(Operation *root, bool device) {
  SmallVector<Operation *> ops;
  root->walk([&](Operation *op) {
    if (isa<math::MathDialect>(op->getDialect()))
      ops.push_back(op);
  });
  OpBuilder b(root->getContext());
  for (Operation *op : ops) {
    b.setInsertionPoint(op);
    Location loc = op->getLoc();
    Type type = op->getNumResults() == 1 ? op->getResult(0).getType() : Type();
    bool f32 = type && type.isF32();
    bool f32or64 = type && (type.isF32() || type.isF64());
    bool scalarFloat = type && isa<FloatType>(type);
    Value result;
    if (f32or64 && isa<math::SqrtOp, math::FloorOp, math::CeilOp,
                        math::TruncOp, math::RoundEvenOp>(op))
      result = exactUnary(b, loc, op, op->getOperand(0), device);
    else if (f32or64 && isa<math::FmaOp>(op))
      result = LLVM::FMAOp::create(b, loc, op->getOperand(0),
                                   op->getOperand(1), op->getOperand(2));
    else if (scalarFloat && isa<math::AbsFOp>(op))
      result = signBits(b, loc, op->getOperand(0), Value());
    else if (scalarFloat && isa<math::CopySignOp>(op))
      result = signBits(b, loc, op->getOperand(0), op->getOperand(1));
    else if (f32 && isa<math::ExpOp>(op))
      result = buildExp(b, loc, op->getOperand(0));
    else if (isa<math::ExpOp, math::SqrtOp, math::FmaOp, math::FloorOp,
                 math::CeilOp, math::TruncOp, math::RoundEvenOp>(op))
      return op->emitOpError()
             << "on " << type
             << " has no exact lowering here; it is lowered for f32"
             << (isa<math::ExpOp>(op) ? "" : " and f64")
             << ": extend the operand with arith.extf (and round the "
                "result with arith.truncf)";
    else
      return op->emitOpError()
             << "has no lowering that exact floating point allows (its "
                "library call or instruction is approximate); "
             << alternativeFor(op->getName().stripDialect());
    op->getResult(0).replaceAllUsesWith(result);
    op->erase();
  }
  return success();
}
