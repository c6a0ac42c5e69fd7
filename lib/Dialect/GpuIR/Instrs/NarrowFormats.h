//===- NarrowFormats.h - the tensor cores' narrow number formats -*- C++
//-*-===//
//
// The 8-, 6- and 4-bit floating-point formats that tensor-core instructions
// read (e4m3, e5m2, e3m2, e2m3, e2m1 and the scales ue8m0, ue4m3), and their
// exact decoding to f32 for the instructions' sequential behaviors. Shared
// by the instruction sets (Sm90a's wgmma, Sm120a's block-scaled mma).
// Internal to lib/Dialect/GpuIR/Instrs.
//
//===----------------------------------------------------------------------===//

#ifndef RAKE_LIB_DIALECT_GPUIR_INSTRS_NARROWFORMATS_H
#define RAKE_LIB_DIALECT_GPUIR_INSTRS_NARROWFORMATS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Types.h"

#include <optional>

namespace mlir::rake::gpuir::instrs {

/// A narrow number format as the tensor core reads it: sign, exponent and
/// significand bits, the bias, and its non-finite encodings.
struct NarrowFormat {
  StringRef ptx; // its name in PTX
  unsigned exponentBits, mantissaBits;
  int bias;
  bool isSigned;
  /// Every exponent bit and every significand bit set is NaN (e4m3, ue4m3).
  bool nanAllOnes = false;
  /// The all-ones exponent is infinity (significand 0) or NaN (e5m2).
  bool ieeeSpecials = false;
  /// The exponent-only format (ue8m0): no zero, no subnormals, 0xff NaN.
  bool exponentOnly = false;
  unsigned width() const {
    return exponentBits + mantissaBits + (isSigned ? 1 : 0);
  }
};

/// The format of a multiplicand element type, or nullopt.
std::optional<NarrowFormat> multiplicandFormat(Type t);

/// The format of a scale element type: ue8m0 (f8E8M0FNU) or ue4m3
/// (f8E4M3FN whose sign bit the instruction does not read).
std::optional<NarrowFormat> scaleFormat(Type t);

/// The exact f32 value of `bits` (an i32 holding the format's encoding in
/// its low bits).
Value decodeExactly(OpBuilder &b, Location loc, Value bits,
                    const NarrowFormat &f);

/// The bits of a narrow float as an i32 (zero-extended).
Value bitsOf(OpBuilder &b, Location loc, Value v);

/// The exact f32 value of a narrow float value of a multiplicand format.
Value decodeMultiplicand(OpBuilder &b, Location loc, Value v);

} // namespace mlir::rake::gpuir::instrs

#endif // RAKE_LIB_DIALECT_GPUIR_INSTRS_NARROWFORMATS_H
