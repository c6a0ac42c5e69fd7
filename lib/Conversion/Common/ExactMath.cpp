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
//   on both sides; math.exp2, math.log and math.tanh likewise (reductions
//   and polynomials in fma.rn, docs/GpuIR.md "Math" gives each one's
//   error), math.erf by its series in f64; math.rsqrt is 1 / sqrt(x), two correctly rounded operations;
// - every other math op is refused at the op, naming what to write;
// - the integer operations whose result LLVM leaves undefined (poison, or
//   immediate undefined behaviour) and the host and the GPU compute
//   differently get one meaning, built from defined operations, so both
//   sides agree (docs/GpuIR.md "Integer arithmetic"): a shift by the bit
//   width or more gives 0 (shli, shrui) or the sign (shrsi), as PTX's
//   shl/shr do; fptosi and fptoui saturate to the integer type's range and
//   give 0 for NaN, as PTX's cvt.rzi does; a division or remainder by zero
//   gives 0 and the dividend (x = (x / d) d + x % d still holds), and the
//   signed minimum divided by -1 gives itself and remainder 0.
//
//===----------------------------------------------------------------------===//

#include "Rake/Conversion/Common/SequentialLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::rake;

namespace {

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

/// Builders of f32 arithmetic at one location.
struct F32 {
  OpBuilder &b;
  Location loc;
  Value c(float v) {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v)).getResult();
  }
  Value i(int32_t v) {
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v))
        .getResult();
  }
  Value fma(Value x, Value y, Value z) {
    return LLVM::FMAOp::create(b, loc, x, y, z).getResult();
  }
  Value add(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubFOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value div(Value x, Value y) { return arith::DivFOp::create(b, loc, x, y); }
  Value cmp(arith::CmpFPredicate p, Value x, Value y) {
    return arith::CmpFOp::create(b, loc, p, x, y);
  }
  Value select(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc, c, x, y);
  }
  /// Horner's rule in fma: ((c0 t + c1) t + ...) t + cn.
  Value horner(Value t, ArrayRef<float> coeffs) {
    Value p = c(coeffs.front());
    for (float k : coeffs.drop_front())
      p = fma(p, t, c(k));
    return p;
  }
  /// Rounds v (|v| < 2^22) to an integer, to nearest even: adding and
  /// subtracting 1.5 2^23 does it exactly.
  Value roundInt(Value v) {
    Value shifter = c(12582912.0f);
    return sub(add(v, shifter), shifter);
  }
  /// p 2^k for an integral f32 k in [-151, 128], as (p 2^k1) 2^k2 with
  /// k1 = floor(k / 2), k2 = k - k1: each factor a normal power of two, the
  /// first product exact, the second rounding once (to a subnormal, or to
  /// infinity).
  Value scale(Value p, Value k) {
    Type i32 = b.getI32Type();
    Value kInt = arith::FPToSIOp::create(b, loc, i32, k);
    Value k1 = arith::ShRSIOp::create(b, loc, kInt, i(1));
    Value k2 = arith::SubIOp::create(b, loc, kInt, k1);
    auto pow2 = [&](Value e) {
      Value bits = arith::ShLIOp::create(
          b, loc, arith::AddIOp::create(b, loc, e, i(127)), i(23));
      return arith::BitcastOp::create(b, loc, b.getF32Type(), bits)
          .getResult();
    };
    return mul(mul(p, pow2(k1)), pow2(k2));
  }
  /// Outside [lo, hi] the result is `below` or `above`; NaN in, NaN out.
  Value clamp(Value x, Value y, float lo, Value below, float hi, Value above) {
    y = select(cmp(arith::CmpFPredicate::OGT, x, c(hi)), above, y);
    y = select(cmp(arith::CmpFPredicate::OLT, x, c(lo)), below, y);
    return select(cmp(arith::CmpFPredicate::UNO, x, x), x, y);
  }
  Value inf() { return c(std::numeric_limits<float>::infinity()); }
};

/// Rake's e^x for f32 from correctly rounded f32 operations: k = round(x /
/// ln 2), r = x - k ln 2 in two steps (ln 2 = hi + lo, hi the f32 nearest
/// ln 2; |r| <= ln(2)/2 plus a few ulp), the degree-7 Taylor polynomial of
/// e^r (truncation below 2^-27 relative), and the scaling by 2^k.
Value buildExp(OpBuilder &b, Location loc, Value x) {
  F32 f{b, loc};
  Value k = f.roundInt(f.mul(x, f.c(1.44269504088896341f)));
  Value negK = arith::NegFOp::create(b, loc, k);
  Value r = f.fma(negK, f.c(0.693147182464599609375f), x);
  r = f.fma(negK, f.c(-1.904654323148236e-09f), r);
  Value p = f.horner(r, {1.0f / 5040, 1.0f / 720, 1.0f / 120, 1.0f / 24,
                         1.0f / 6, 0.5f, 1.0f, 1.0f});
  // Outside [-103.98, 88.73] e^x is 0 (below half the least subnormal) or
  // infinite.
  return f.clamp(x, f.scale(p, k), -103.97208404541015625f, f.c(0.0f),
                 88.72283935546875f, f.inf());
}

/// 2^x: k = round(x), r = x - k exactly (|r| <= 1/2), 2^r by its degree-7
/// Taylor polynomial in r (coefficients ln(2)^n / n!: truncation below
/// 2^-26 relative), scaled by 2^k.
Value buildExp2(OpBuilder &b, Location loc, Value x) {
  F32 f{b, loc};
  Value k = f.roundInt(x);
  Value r = f.sub(x, k);
  Value p = f.horner(r, {1.5252733804059840e-05f, 1.5403530393381608e-04f,
                         1.3333558146428443e-03f, 9.6181291076284772e-03f,
                         5.5504108664821580e-02f, 2.4022650695910071e-01f,
                         6.9314718055994531e-01f, 1.0f});
  // 2^x is infinite from 128 on, and 0 below -150 (half the least
  // subnormal, which rounds to 0).
  Value y = f.scale(p, k);
  y = f.select(f.cmp(arith::CmpFPredicate::OGE, x, f.c(128.0f)), f.inf(), y);
  return f.clamp(x, y, -150.0f, f.c(0.0f), 128.0f, f.inf());
}

/// The natural logarithm: x = m 2^e with m in [sqrt(1/2), sqrt(2)) (a
/// subnormal x scaled by 2^23 first), f = m - 1 exactly, and log(m) =
/// 2 atanh(s) for s = f / (2 + f), |s| <= 0.1716: 2 (s + s^3/3 + ... +
/// s^11/11), the truncation below 2^-30 relative; then e ln 2 added in two
/// parts. log(0) = -inf, log(x < 0) = NaN, log(inf) = inf.
Value buildLog(OpBuilder &b, Location loc, Value x) {
  F32 f{b, loc};
  Type i32 = b.getI32Type();
  Value subnormal = f.cmp(arith::CmpFPredicate::OLT, x, f.c(1.17549435e-38f));
  Value xs = f.select(subnormal, f.mul(x, f.c(8388608.0f)), x);
  Value bits = arith::BitcastOp::create(b, loc, i32, xs);
  // m's bits: x's mantissa with the exponent of [1, 2), or of [1/2, 1)
  // when the mantissa is above sqrt(2)'s (0x3504f3).
  Value mant = arith::AndIOp::create(b, loc, bits, f.i(0x7fffff));
  Value high = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, mant,
                                     f.i(0x3504f3));
  Value mBits = arith::OrIOp::create(
      b, loc, mant,
      arith::SelectOp::create(b, loc, high, f.i(0x3f000000), f.i(0x3f800000)));
  Value m = arith::BitcastOp::create(b, loc, b.getF32Type(), mBits);
  Value e = arith::SubIOp::create(
      b, loc, arith::ShRSIOp::create(b, loc, bits, f.i(23)),
      arith::SelectOp::create(b, loc, high, f.i(126), f.i(127)));
  Value ef = arith::SIToFPOp::create(b, loc, b.getF32Type(), e);
  ef = f.select(subnormal, f.sub(ef, f.c(23.0f)), ef);
  Value fm = f.sub(m, f.c(1.0f));
  Value sv = f.div(fm, f.add(f.c(2.0f), fm));
  Value s2 = f.mul(sv, sv);
  // 2 s (1 + s^2/3 + ... + s^10/11) = 2s + 2 s^3 P(s^2).
  Value poly = f.horner(s2, {2.0f / 11, 2.0f / 9, 2.0f / 7, 2.0f / 5,
                             2.0f / 3});
  Value tail = f.mul(f.mul(sv, s2), poly);
  // log(m) = f - (f - 2s) + tail, with f - 2s = s f computed from
  // 2s = f - s f (since s (2 + f) = f).
  Value logm = f.add(f.sub(fm, f.mul(sv, fm)), tail);
  Value y = f.fma(ef, f.c(0.693147182464599609375f),
                  f.fma(ef, f.c(-1.904654323148236e-09f), logm));
  Value zero = f.c(0.0f);
  y = f.select(f.cmp(arith::CmpFPredicate::OEQ, x, zero),
               f.c(-std::numeric_limits<float>::infinity()), y);
  y = f.select(f.cmp(arith::CmpFPredicate::OLT, x, zero),
               f.c(std::numeric_limits<float>::quiet_NaN()), y);
  y = f.select(f.cmp(arith::CmpFPredicate::OEQ, x, f.inf()), f.inf(), y);
  return f.select(f.cmp(arith::CmpFPredicate::UNO, x, x), x, y);
}

/// tanh: for |x| < 0.625 the odd Taylor series to x^21 in fma (terms
/// shrink by 0.16 each: truncation below 2^-28 relative); above,
/// 1 - 2 / (e^(2|x|) + 1) with Rake's exp, the sign restored; 1 from
/// |x| > 9.1 on.
Value buildTanh(OpBuilder &b, Location loc, Value x) {
  F32 f{b, loc};
  Value ax = signBits(b, loc, x, Value());
  Value x2 = f.mul(x, x);
  Value small = f.mul(
      x, f.horner(x2, {1.8888466084e10f / 1.94896477400625e14f,
                       -4.43861162e8f / 1.856156927625e12f,
                       6.404582e6f / 1.0854718875e10f,
                       -929569.0f / 638512875.0f, 21844.0f / 6081075.0f,
                       -1382.0f / 155925.0f, 62.0f / 2835.0f,
                       -17.0f / 315.0f, 2.0f / 15.0f, -1.0f / 3.0f, 1.0f}));
  Value e = buildExp(b, loc, f.add(ax, ax));
  Value large = f.sub(f.c(1.0f), f.div(f.c(2.0f), f.add(e, f.c(1.0f))));
  large = f.select(f.cmp(arith::CmpFPredicate::OGT, ax, f.c(9.1f)),
                   f.c(1.0f), large);
  large = signBits(b, loc, large, x);
  Value y = f.select(f.cmp(arith::CmpFPredicate::OLT, ax, f.c(0.625f)),
                     small, large);
  return f.select(f.cmp(arith::CmpFPredicate::UNO, x, x), x, y);
}

/// erf: for |x| < 3.92 its Taylor series in x^2, 60 terms by Horner's
/// rule in f64 fma (the terms' cancellation leaves over 30 correct bits;
/// truncation below 2^-35), rounded once to f32; +-1 from |x| >= 3.92 on,
/// where erf(x) rounds to +-1 in f32.
Value buildErf(OpBuilder &b, Location loc, Value x) {
  F32 f{b, loc};
  Type f64 = b.getF64Type();
  static const double coeffs[] = {
      1.1283791670955126, -0.37612638903183754, 0.11283791670955126,
      -0.026866170645131252, 0.005223977625442188, -0.0008548327023450852,
      0.00012055332981789664, -1.492565035840625e-05, 1.6462114365889246e-06,
      -1.6365844691234924e-07, 1.4807192815879218e-08, -1.2290555301717926e-09,
      9.422759064650411e-11, -6.7113668551641105e-12, 4.4632242632864775e-13,
      -2.7835162072109212e-14, 1.6342614095367152e-15, -9.063970842808673e-17,
      4.763348040515068e-18, -2.3784598852774293e-19, 1.131218725924631e-20,
      -5.136209054585811e-22, 2.2308786802746453e-23, -9.28672901131906e-25,
      3.71153285316323e-26, -1.4263930180784176e-27, 5.279103332510835e-29,
      -1.8841244217042036e-30, 6.492909974544561e-32, -2.1630383901171243e-33,
      6.973730328792914e-35, -2.1781748594796097e-36, 6.597356545539203e-38,
      -1.9395213725013484e-39, 5.539127534424142e-41, -1.538027363683162e-42,
      4.155248965810673e-44, -1.0930925207357809e-45, 2.801843440026779e-47,
      -7.002335114640116e-49, 1.7073594878289173e-50, -4.0639470618319806e-52,
      9.448392328628975e-54, -2.1467878854142284e-55, 4.769421502324767e-57,
      -1.0365775670498273e-58, 2.2049686442621383e-60, -4.59265585479012e-62,
      9.370753999249602e-64, -1.8737644566629794e-65, 3.673320419992772e-67,
      -7.062732960580048e-69, 1.3323470603292033e-70, -2.466874296148234e-72,
      4.48446397702788e-74, -8.006659680524799e-76, 1.4044551588784019e-77,
      -2.4211050031008298e-79, 4.1029630910196793e-81, -6.837297844314235e-83};
  auto dc = [&](double v) {
    return arith::ConstantOp::create(b, loc, b.getF64FloatAttr(v)).getResult();
  };
  Value xd = arith::ExtFOp::create(b, loc, f64, x);
  Value t = arith::MulFOp::create(b, loc, xd, xd);
  Value p = dc(coeffs[59]);
  for (int n = 58; n >= 0; --n)
    p = LLVM::FMAOp::create(b, loc, p, t, dc(coeffs[n]));
  Value y = arith::TruncFOp::create(
      b, loc, b.getF32Type(), arith::MulFOp::create(b, loc, xd, p));
  Value ax = signBits(b, loc, x, Value());
  Value one = signBits(b, loc, f.c(1.0f), x);
  y = f.select(f.cmp(arith::CmpFPredicate::OGE, ax, f.c(3.92f)), one, y);
  return f.select(f.cmp(arith::CmpFPredicate::UNO, x, x), x, y);
}

/// What to write instead of a math op without an exact lowering.
std::string alternativeFor(StringRef name) {
  if (name == "powf" || name == "fpowi" || name == "ipowi")
    return "write the product with arith.mulf, or math.exp2 of y times "
           "math.log2 of x computed with math.log";
  return "compute it on the host, or from arith operations and math.exp, "
         "math.exp2, math.log, math.tanh, math.erf, math.sqrt and math.fma";
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
    if (isa<math::SqrtOp, math::RsqrtOp>(op))
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
  std::string instr = isa<math::SqrtOp, math::RsqrtOp>(op) ? "sqrt.rn."
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

/// A scalar integer constant of `t`.
static Value intConst(OpBuilder &b, Location loc, Type t, const APInt &v) {
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, v));
}

/// The defined meaning of the integer operations LLVM leaves undefined
/// (the file comment), or null where `op` is not one of them.
static Value definedInteger(OpBuilder &b, Location loc, Operation *op) {
  Type type = op->getNumResults() == 1 ? op->getResult(0).getType() : Type();
  // index is 64 bits wide on both sides (the host's i64, PTX's .b64).
  Type it = type && (isa<IntegerType>(type) || type.isIndex()) ? type : Type();
  if (!it)
    return Value();
  unsigned w = type.isIndex() ? 64 : cast<IntegerType>(type).getWidth();
  auto cmp = [&](arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, p, x, y);
  };
  auto sel = [&](Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc, c, x, y).getResult();
  };
  Value zero = intConst(b, loc, it, APInt(w, 0));
  if (isa<arith::ShLIOp, arith::ShRUIOp, arith::ShRSIOp>(op)) {
    Value x = op->getOperand(0), s = op->getOperand(1);
    Value inRange = cmp(arith::CmpIPredicate::ult, s,
                        intConst(b, loc, it, APInt(w, w)));
    if (isa<arith::ShRSIOp>(op))
      return arith::ShRSIOp::create(
          b, loc, x, sel(inRange, s, intConst(b, loc, it, APInt(w, w - 1))));
    Value shifted =
        isa<arith::ShLIOp>(op)
            ? arith::ShLIOp::create(b, loc, x, sel(inRange, s, zero)).getResult()
            : arith::ShRUIOp::create(b, loc, x, sel(inRange, s, zero))
                  .getResult();
    return sel(inRange, shifted, zero);
  }
  if (isa<arith::FPToSIOp, arith::FPToUIOp>(op)) {
    Value f = op->getOperand(0);
    auto ft = dyn_cast<FloatType>(f.getType());
    if (!ft)
      return Value();
    bool isSigned = isa<arith::FPToSIOp>(op);
    APInt lo = isSigned ? APInt::getSignedMinValue(w) : APInt(w, 0);
    APInt hi = isSigned ? APInt::getSignedMaxValue(w) : APInt::getMaxValue(w);
    // The bounds as floats: -2^(w-1) or 0 is exact; 2^(w-1) or 2^w, the
    // first value past the range, too (a power of two).
    APFloat loF(ft.getFloatSemantics()), hiF(ft.getFloatSemantics());
    loF.convertFromAPInt(lo, isSigned, APFloat::rmNearestTiesToEven);
    APInt past = isSigned ? APInt::getOneBitSet(w + 1, w - 1)
                          : APInt::getOneBitSet(w + 1, w);
    hiF.convertFromAPInt(past, false, APFloat::rmNearestTiesToEven);
    Value loV = arith::ConstantFloatOp::create(b, loc, ft, loF);
    Value hiV = arith::ConstantFloatOp::create(b, loc, ft, hiF);
    auto fcmp = [&](arith::CmpFPredicate p, Value x, Value y) {
      return arith::CmpFOp::create(b, loc, p, x, y);
    };
    // In range (and not NaN): lo <= f < past; convert a value that is.
    Value inRange = arith::AndIOp::create(
        b, loc, fcmp(arith::CmpFPredicate::OGE, f, loV),
        fcmp(arith::CmpFPredicate::OLT, f, hiV));
    Value safe = sel(inRange, f, arith::ConstantFloatOp::create(
                                     b, loc, ft, APFloat::getZero(
                                                     ft.getFloatSemantics())));
    Value converted =
        isSigned ? arith::FPToSIOp::create(b, loc, it, safe).getResult()
                 : arith::FPToUIOp::create(b, loc, it, safe).getResult();
    Value below = fcmp(arith::CmpFPredicate::OLT, f, loV);
    Value above = fcmp(arith::CmpFPredicate::OGE, f, hiV);
    return sel(inRange, converted,
               sel(below, intConst(b, loc, it, lo),
                   sel(above, intConst(b, loc, it, hi), zero)));
  }
  if (isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp,
          arith::CeilDivSIOp, arith::CeilDivUIOp, arith::FloorDivSIOp>(op)) {
    Value x = op->getOperand(0), d = op->getOperand(1);
    Value one = intConst(b, loc, it, APInt(w, 1));
    Value byZero = cmp(arith::CmpIPredicate::eq, d, zero);
    bool isSigned = isa<arith::DivSIOp, arith::RemSIOp, arith::CeilDivSIOp,
                        arith::FloorDivSIOp>(op);
    // The signed minimum divided by -1 overflows (the host traps).
    Value overflow;
    if (isSigned)
      overflow = arith::AndIOp::create(
          b, loc,
          cmp(arith::CmpIPredicate::eq, x,
              intConst(b, loc, it, APInt::getSignedMinValue(w))),
          cmp(arith::CmpIPredicate::eq, d,
              intConst(b, loc, it, APInt::getAllOnes(w))));
    Value bad = overflow ? arith::OrIOp::create(b, loc, byZero, overflow)
                               .getResult()
                         : byZero;
    Value safeD = sel(bad, one, d);
    OperationState state(loc, op->getName(), ValueRange{x, safeD},
                         TypeRange{it}, op->getAttrs());
    Value r = b.create(state)->getResult(0);
    bool rem = isa<arith::RemSIOp, arith::RemUIOp>(op);
    // By zero: quotient 0, remainder x. Overflow: quotient x (the signed
    // minimum, as the wrapped result), remainder 0.
    Value atZero = rem ? x : zero;
    r = sel(byZero, atZero, r);
    if (overflow)
      r = sel(overflow, rem ? zero : x, r);
    return r;
  }
  return Value();
}

/// The arith ops the two sides would not compute alike and that have no
/// exact rewrite here, refused at the op with what to write instead; and
/// minnumf/maxnumf, whose sign of zero LLVM leaves open (x86 returns the
/// first operand, PTX takes +0 > -0), given PTX's meaning: minimumf and
/// maximumf (which order the zeros) unless an operand is NaN.
static LogicalResult exactArith(Operation *op) {
  if (auto fm = dyn_cast<arith::ArithFastMathInterface>(op))
    if (arith::FastMathFlagsAttr flags = fm.getFastMathFlagsAttr();
        flags && flags.getValue() != arith::FastMathFlags::none)
      return op->emitOpError()
             << "has fast-math flags (" << flags
             << "), which let the host and the GPU compute different "
                "results (a fused multiply-add on one side only, an "
                "approximate division); remove them, and write math.fma "
                "where a fused multiply-add is meant";
  auto exotic = [](Type t) {
    auto f = dyn_cast<FloatType>(getElementTypeOrSelf(t));
    return f && !f.isF16() && !f.isBF16() && !f.isF32() && !f.isF64();
  };
  for (Type t : llvm::concat<const Type>(op->getOperandTypes(),
                                         op->getResultTypes()))
    if (exotic(t))
      return op->emitOpError()
             << "on " << getElementTypeOrSelf(t)
             << " has no exact lowering on both the host and the GPU: "
                "arithmetic is on f16, bf16, f32 and f64 (the 8-, 6- and "
                "4-bit formats are inputs of the tensor-core instructions, "
                "whose sequential behaviors decode them)";
  if (isa<arith::RemFOp>(op))
    return op->emitOpError()
           << "has no exact lowering on the GPU: LLVM's NVPTX backend "
              "computes x - trunc(x / y) * y with a rounded division, not "
              "the exact remainder the host's fmod gives; compute the "
              "remainder on the host, or write out the arithmetic that is "
              "meant (arith.divf, math.trunc, math.fma)";
  if (isa<arith::SIToFPOp, arith::UIToFPOp>(op) &&
      op->getResult(0).getType().isBF16())
    return op->emitOpError()
           << "to bf16 rounds twice on the host (through f32) and once on "
              "the GPU; convert to f32 (arith." << op->getName().stripDialect()
           << ") and round to bf16 with arith.truncf, which rounds the "
              "same on both";
  if (auto trunc = dyn_cast<arith::TruncFOp>(op)) {
    if (std::optional<arith::RoundingMode> mode = trunc.getRoundingmode();
        mode && *mode != arith::RoundingMode::to_nearest_even)
      return op->emitOpError()
             << "rounds " << arith::stringifyRoundingMode(*mode)
             << ", which neither lowering implements (both round to nearest "
                "even); round to nearest even";
    if (trunc.getIn().getType().isF64() && trunc.getType().isBF16())
      return op->emitOpError()
             << "from f64 to bf16 has no exact lowering on the host; "
                "truncate to f32 first (two roundings, written out)";
  }
  return success();
}

/// Whether `op` computes on vectors or tensors: neither lowering takes them
/// alike (the host's has no vector operations; the GPU's would lower them
/// past the integer and NaN rules above), so GpuIR computes on scalars.
static LogicalResult scalarsOnly(Operation *op) {
  for (Type t : llvm::concat<const Type>(op->getOperandTypes(),
                                         op->getResultTypes()))
    if (isa<VectorType, TensorType>(t))
      return op->emitOpError()
             << "computes on " << t
             << " values; GpuIR's lowerings compute on scalars (the "
                "sequential meaning has no vector operations, and the "
                "GPU's would differ from it): write the elements out as "
                "scalars (gpuir.sm80.ld_global and st_global move runs of "
                "elements as one access)";
  return success();
}

/// `x`, or a positive zero where `x` is NaN: the sign a NaN gives to what
/// reads it. The sign and payload of a NaN are not specified (the host's
/// arithmetic makes negative NaNs and passes payloads on, the GPU's makes
/// the positive canonical NaN), so wherever an operation would let them
/// show in a number, both sides read every NaN as the canonical one.
static Value nanAsPositive(OpBuilder &b, Location loc, Value x) {
  Value isNaN = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
  Value zero = arith::ConstantOp::create(b, loc, b.getFloatAttr(x.getType(), 0.0));
  return arith::SelectOp::create(b, loc, isNaN, zero, x);
}

LogicalResult mlir::rake::gpuir::expandExactMath(Operation *root, bool device) {
  {
    SmallVector<Operation *> refused;
    root->walk([&](Operation *op) {
      if (failed(scalarsOnly(op)) ||
          (isa<arith::ArithDialect>(op->getDialect()) &&
           failed(exactArith(op))))
        refused.push_back(op);
    });
    if (!refused.empty())
      return failure();
    // A float's bits read as an integer: every NaN is the canonical one,
    // 0x7fc... with every significand bit set (0x7fffffff for f32), as the
    // GPU's arithmetic makes it.
    SmallVector<arith::BitcastOp> casts;
    root->walk([&](arith::BitcastOp op) {
      if (isa<FloatType>(op.getIn().getType()))
        casts.push_back(op);
    });
    for (arith::BitcastOp op : casts) {
      OpBuilder cb(op);
      Location loc = op.getLoc();
      Value x = op.getIn();
      unsigned w = cast<FloatType>(x.getType()).getWidth();
      Value bits = arith::BitcastOp::create(cb, loc, op.getType(), x);
      Value canonical = arith::ConstantOp::create(
          cb, loc, cb.getIntegerAttr(op.getType(), APInt::getSignedMaxValue(w)));
      Value isNaN =
          arith::CmpFOp::create(cb, loc, arith::CmpFPredicate::UNO, x, x);
      Value v = arith::SelectOp::create(cb, loc, isNaN, canonical, bits);
      op.getResult().replaceAllUsesWith(v);
      op.erase();
    }
    SmallVector<Operation *> nums;
    root->walk([&](Operation *op) {
      if (isa<arith::MinNumFOp, arith::MaxNumFOp>(op))
        nums.push_back(op);
    });
    OpBuilder nb(root->getContext());
    for (Operation *op : nums) {
      nb.setInsertionPoint(op);
      Location loc = op->getLoc();
      Value x = op->getOperand(0), y = op->getOperand(1);
      auto isNaN = [&](Value v) {
        return arith::CmpFOp::create(nb, loc, arith::CmpFPredicate::UNO, v, v);
      };
      Value ordered =
          isa<arith::MinNumFOp>(op)
              ? arith::MinimumFOp::create(nb, loc, x, y).getResult()
              : arith::MaximumFOp::create(nb, loc, x, y).getResult();
      Value v = arith::SelectOp::create(
          nb, loc, isNaN(x), y,
          arith::SelectOp::create(nb, loc, isNaN(y), x, ordered));
      op->getResult(0).replaceAllUsesWith(v);
      op->erase();
    }
  }
  {
    SmallVector<Operation *> ints;
    root->walk([&](Operation *op) {
      if (isa<arith::ShLIOp, arith::ShRUIOp, arith::ShRSIOp, arith::FPToSIOp,
              arith::FPToUIOp, arith::DivSIOp, arith::DivUIOp, arith::RemSIOp,
              arith::RemUIOp, arith::CeilDivSIOp, arith::CeilDivUIOp,
              arith::FloorDivSIOp>(op))
        ints.push_back(op);
    });
    OpBuilder b(root->getContext());
    for (Operation *op : ints) {
      b.setInsertionPoint(op);
      if (Value v = definedInteger(b, op->getLoc(), op)) {
        op->getResult(0).replaceAllUsesWith(v);
        op->erase();
      }
    }
  }
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
      result = signBits(b, loc, op->getOperand(0),
                        nanAsPositive(b, loc, op->getOperand(1)));
    else if (f32 && isa<math::ExpOp>(op))
      result = buildExp(b, loc, op->getOperand(0));
    else if (f32 && isa<math::Exp2Op>(op))
      result = buildExp2(b, loc, op->getOperand(0));
    else if (f32 && isa<math::LogOp>(op))
      result = buildLog(b, loc, op->getOperand(0));
    else if (f32 && isa<math::TanhOp>(op))
      result = buildTanh(b, loc, op->getOperand(0));
    else if (f32 && isa<math::ErfOp>(op))
      result = buildErf(b, loc, op->getOperand(0));
    else if (f32or64 && isa<math::RsqrtOp>(op))
      result = arith::DivFOp::create(
          b, loc,
          arith::ConstantOp::create(b, loc, b.getFloatAttr(type, 1.0)),
          exactUnary(b, loc, op, op->getOperand(0), device));
    else if (isa<math::ExpOp, math::Exp2Op, math::LogOp, math::TanhOp,
                 math::ErfOp, math::SqrtOp, math::RsqrtOp, math::FmaOp, math::FloorOp,
                 math::CeilOp, math::TruncOp, math::RoundEvenOp>(op))
      return op->emitOpError()
             << "on " << type
             << " has no exact lowering here; it is lowered for f32"
             << (isa<math::ExpOp, math::Exp2Op, math::LogOp, math::TanhOp,
                     math::ErfOp>(op)
                     ? ""
                     : " and f64")
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
