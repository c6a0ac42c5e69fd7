//===- NarrowFormats.cpp - the tensor cores' narrow number formats -------===//
//
// Exact decoding of the narrow floating-point formats (NarrowFormats.h).
//
//===----------------------------------------------------------------------===//

#include "NarrowFormats.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"

#include <cmath>

using namespace mlir;
using namespace mlir::rake::gpuir::instrs;

/// The format of a multiplicand element type, or nullopt.
std::optional<NarrowFormat>
mlir::rake::gpuir::instrs::multiplicandFormat(Type t) {
  if (isa<Float8E4M3FNType>(t))
    return NarrowFormat{"e4m3", 4, 3, 7, true, /*nanAllOnes=*/true};
  if (isa<Float8E5M2Type>(t))
    return NarrowFormat{"e5m2", 5, 2, 15, true, false, /*ieee=*/true};
  if (isa<Float6E3M2FNType>(t))
    return NarrowFormat{"e3m2", 3, 2, 3, true};
  if (isa<Float6E2M3FNType>(t))
    return NarrowFormat{"e2m3", 2, 3, 1, true};
  if (isa<Float4E2M1FNType>(t))
    return NarrowFormat{"e2m1", 2, 1, 1, true};
  return std::nullopt;
}

/// The format of a scale element type: ue8m0 (f8E8M0FNU) or ue4m3
/// (f8E4M3FN whose sign bit the instruction does not read).
std::optional<NarrowFormat> mlir::rake::gpuir::instrs::scaleFormat(Type t) {
  if (isa<Float8E8M0FNUType>(t)) {
    NarrowFormat f{"ue8m0", 8, 0, 127, false};
    f.exponentOnly = true;
    return f;
  }
  if (isa<Float8E4M3FNType>(t))
    return NarrowFormat{"ue4m3", 4, 3, 7, false, /*nanAllOnes=*/true};
  return std::nullopt;
}

/// The exact f32 value of `bits` (an i32 holding the format's encoding in
/// its low bits). Every value of these formats is an f32 value (their
/// exponents lie within f32's normal range, except ue8m0's 2^-127, an f32
/// subnormal), so the decoding is exact.
Value mlir::rake::gpuir::instrs::decodeExactly(OpBuilder &b, Location loc,
                                               Value bits,
                                               const NarrowFormat &f) {
  Type i32 = b.getI32Type();
  auto c = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, i32, v);
  };
  auto shr = [&](Value v, int64_t n) -> Value {
    return n ? arith::ShRUIOp::create(b, loc, v, c(n)).getResult() : v;
  };
  auto andc = [&](Value v, int64_t m) -> Value {
    return arith::AndIOp::create(b, loc, v, c(m));
  };
  auto eq = [&](Value x, int64_t v) -> Value {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, c(v));
  };
  auto sel = [&](Value p, Value x, Value y) -> Value {
    return arith::SelectOp::create(b, loc, p, x, y);
  };
  Type f32 = b.getF32Type();
  auto asFloat = [&](Value v) -> Value {
    return arith::BitcastOp::create(b, loc, f32, v);
  };
  int64_t expMax = (int64_t(1) << f.exponentBits) - 1;
  int64_t manMax = (int64_t(1) << f.mantissaBits) - 1;
  Value e = andc(shr(bits, f.mantissaBits), expMax);
  Value nan = c(0x7fc00000);
  if (f.exponentOnly) {
    // 2^(e - 127): f32 exponent field e, except e = 0 (2^-127, the f32
    // subnormal 0x00400000) and e = 255 (NaN).
    Value v = arith::ShLIOp::create(b, loc, e, c(23));
    v = sel(eq(e, 0), c(0x00400000), v);
    return asFloat(sel(eq(e, 255), nan, v));
  }
  Value m = andc(bits, manMax);
  // Normal: f32 exponent e - bias + 127, significand m shifted to the top.
  Value normal = arith::OrIOp::create(
      b, loc,
      arith::ShLIOp::create(
          b, loc, arith::AddIOp::create(b, loc, e, c(127 - f.bias)), c(23)),
      arith::ShLIOp::create(b, loc, m, c(23 - f.mantissaBits)));
  // Subnormal (e = 0): m * 2^(1 - bias - mantissaBits), exact in f32.
  Value sub = arith::MulFOp::create(
      b, loc, arith::UIToFPOp::create(b, loc, f32, m),
      arith::ConstantOp::create(b, loc,
                                b.getF32FloatAttr(std::ldexp(
                                    1.0f, 1 - f.bias - int(f.mantissaBits)))));
  Value magnitude =
      sel(eq(e, 0), arith::BitcastOp::create(b, loc, i32, sub), normal);
  if (f.nanAllOnes) {
    Value allOnes = eq(andc(bits, (expMax << f.mantissaBits) | manMax),
                       (expMax << f.mantissaBits) | manMax);
    magnitude = sel(allOnes, nan, magnitude);
  }
  if (f.ieeeSpecials) {
    Value special = eq(e, expMax);
    Value inf = sel(eq(m, 0), c(0x7f800000), nan);
    magnitude = sel(special, inf, magnitude);
  }
  if (f.isSigned) {
    // bits holds only the format's bits: its top one is the sign.
    Value sign = arith::ShLIOp::create(b, loc, shr(bits, f.width() - 1), c(31));
    magnitude = arith::OrIOp::create(b, loc, magnitude, sign);
  }
  return asFloat(magnitude);
}

/// The bits of a narrow float as an i32 (zero-extended).
Value mlir::rake::gpuir::instrs::bitsOf(OpBuilder &b, Location loc, Value v) {
  unsigned w = cast<FloatType>(v.getType()).getWidth();
  Value i = arith::BitcastOp::create(b, loc, b.getIntegerType(w), v);
  return arith::ExtUIOp::create(b, loc, b.getI32Type(), i);
}

Value mlir::rake::gpuir::instrs::decodeMultiplicand(OpBuilder &b, Location loc,
                                                    Value v) {
  return decodeExactly(b, loc, bitsOf(b, loc, v),
                       *multiplicandFormat(v.getType()));
}
