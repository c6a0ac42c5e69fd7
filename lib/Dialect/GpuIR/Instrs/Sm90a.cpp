//===- Sm90a.cpp - the Sm90a instruction set ------------------------------===//
//
// wgmma: its parameters for the analyses, its sequential behavior (loops
// over the warpgroup's threads and registers), and its device code (shared
// memory matrix descriptors and nvvm.wgmma.mma_async).
//
//===----------------------------------------------------------------------===//

#include "Rake/Dialect/GpuIR/Instrs/Sm90a.h"
#include "Builders.h"
#include "NarrowFormats.h"
#include "Rake/Dialect/GpuIR/IR/Syntax.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <numeric>

using namespace mlir;
using namespace mlir::rake;
using namespace mlir::rake::gpuir;
using namespace mlir::rake::gpuir::instrs;

#define GET_OP_CLASSES
#include "Rake/Dialect/GpuIR/Instrs/Sm90a.cpp.inc"

namespace {

bool isSwizzled(MemRefType t) {
  return isa_and_nonnull<SmemSwizzledAttr>(t.getMemorySpace());
}

/// K of one wgmma: 32 bytes of elements (16 f16 or bf16, 8 tf32, 32 of the
/// 8-bit formats).
int64_t kSlice(MemRefType t) { return 256 / t.getElementTypeBitWidth(); }

/// Checks a wgmma operand in 128-byte swizzled shared memory: rows x K
/// elements (32 bytes) of rows of 128 bytes.
LogicalResult verifySwizzled(Operation *op, StringRef name, MemRefType t,
                             int64_t rows) {
  SmallVector<int64_t> strides;
  int64_t offset;
  int64_t k = kSlice(t);
  if (t.getRank() != 2 || t.getDimSize(1) != k ||
      (rows > 0 && t.getDimSize(0) != rows))
    return op->emitOpError()
           << "operand '" << name << "' in swizzled shared memory must be "
           << (rows > 0 ? std::to_string(rows) : std::string("N")) << " x "
           << k << " (a " << k << "-wide slice of K), found " << t;
  if (cast<SmemSwizzledAttr>(t.getMemorySpace()).getBytes() != 128 ||
      failed(t.getStridesAndOffset(strides, offset)) || strides[1] != 1 ||
      strides[0] * t.getElementTypeBitWidth() / 8 != 128)
    return op->emitOpError() << "operand '" << name
                             << "' must be a window of rows of 128 bytes in "
                                "the 128-byte swizzle";
  return success();
}

/// Checks a wgmma shared-memory operand: rows / 8 x 2 x 8 x 8 core
/// matrices, each contiguous, the other strides static.
LogicalResult verifyCoreMatrices(Operation *op, StringRef name, MemRefType t,
                                 int64_t rowBlocks) {
  if (isSwizzled(t))
    return verifySwizzled(op, name, t, rowBlocks > 0 ? rowBlocks * 8 : 0);
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

int64_t WgmmaOp::getN() {
  MemRefType b = memrefOf(getB());
  return isSwizzled(b) ? b.getDimSize(0) : b.getDimSize(0) * 8;
}

int64_t WgmmaOp::getK() { return kSlice(memrefOf(getA())); }

namespace {
/// The input formats of wgmma, by the operands' element types.
enum class WgmmaInput { half, tf32, fp8, int8, none };

WgmmaInput wgmmaInput(Type t) {
  if (t.isF16() || t.isBF16())
    return WgmmaInput::half;
  if (t.isF32())
    return WgmmaInput::tf32;
  if (isa<Float8E4M3FNType, Float8E5M2Type>(t))
    return WgmmaInput::fp8;
  if (t.isSignlessInteger(8))
    return WgmmaInput::int8;
  return WgmmaInput::none;
}
} // namespace

LogicalResult WgmmaOp::verify() {
  MemRefType d = memrefOf(getD()), a = memrefOf(getA()), b = memrefOf(getB());
  Type elt = a.getElementType();
  WgmmaInput input = wgmmaInput(elt);
  if (input == WgmmaInput::none)
    return emitOpError() << "multiplies f16, bf16, tf32 (f32 elements), e4m3 "
                            "or e5m2 (f8E4M3FN, f8E5M2) or s8 or u8 (i8) "
                            "tiles, found "
                         << elt;
  // e4m3 and e5m2 pair with each other; every other format with itself.
  if (b.getElementType() != elt &&
      (input != WgmmaInput::fp8 ||
       wgmmaInput(b.getElementType()) != WgmmaInput::fp8))
    return emitOpError() << "a and b must have the same element type (or "
                            "e4m3 and e5m2 in either order), found "
                         << elt << " and " << b.getElementType();
  if ((getAUnsigned() || getBUnsigned()) && input != WgmmaInput::int8)
    return emitOpError() << "'a_unsigned' and 'b_unsigned' choose u8 for i8 "
                            "tiles; this one multiplies "
                         << elt;
  // PTX ISA 8.4 added s8 x u8 and u8 x s8; the sm_90a profiles pin 8.0.
  if (getAUnsigned() != getBUnsigned())
    return emitOpError()
           << "mixes s8 and u8 tiles, which needs PTX ISA 8.4 (the sm_90a "
              "profiles pin 8.0): give 'a' and 'b' the same signedness (both "
              "or neither of 'a_unsigned' and 'b_unsigned')";
  if (input == WgmmaInput::tf32 && (!isSwizzled(a) || !isSwizzled(b)))
    return emitOpError()
           << "multiplies tf32 tiles (f32 elements) only from the 128-byte "
              "swizzle: put 'a' and 'b' in #gpuir.smem_swizzled<128> rows of "
              "32 f32";
  if ((input == WgmmaInput::fp8 || input == WgmmaInput::int8) &&
      (!isSwizzled(a) || !isSwizzled(b)))
    return emitOpError()
           << "multiplies 8-bit tiles (" << elt
           << ") only from the 128-byte swizzle: put 'a' and 'b' in "
              "#gpuir.smem_swizzled<128> rows of 128 elements";
  if (failed(verifyCoreMatrices(*this, "a", a, 8)) ||
      failed(verifyCoreMatrices(*this, "b", b, 0)))
    return failure();
  int64_t n = getN();
  if (n < 8 || n > 256 || n % 8 != 0)
    return emitOpError() << "N must be a multiple of 8 from 8 to 256, found "
                         << n;
  if (input == WgmmaInput::int8 && n > 24 && n % 16 != 0)
    return emitOpError() << "N of an s8 or u8 wgmma must be 8, 16, 24 or a "
                            "multiple of 16 up to 256, found "
                         << n;
  bool intAcc = input == WgmmaInput::int8;
  Type acc = intAcc ? Type(IntegerType::get(getContext(), 32))
                    : Type(Float32Type::get(getContext()));
  if (d.getRank() != 2 || d.getDimSize(0) != 128 || d.getDimSize(1) != n / 2 ||
      d.getElementType() != acc)
    return emitOpError() << "d must be the warpgroup's 128 x " << n / 2
                         << (intAcc ? " i32" : " f32")
                         << " accumulators for N = " << n << ", found " << d;
  return success();
}

CollUnitAttr WgmmaOp::getCollUnit() {
  return CollUnitAttr::get(getContext(), CollUnitKind::warpgroup, 1, 0);
}
InstrTimeline WgmmaOp::getInstrTimeline() { return InstrTimeline::wgmma_async; }
SmallVector<InstrParam> WgmmaOp::getParams() {
  MLIRContext *ctx = getContext();
  // zero_init (scale-d = 0): the old accumulators are not read.
  InstrParam d{0, "d",
               getZeroInit() ? AccessMode::write : AccessMode::read_write,
               QualTimeline::wgmma_async_rmem_d, {TypeID::get<RmemAttr>()}};
  d.distributedUnits = {CollUnitAttr::get(ctx, CollUnitKind::thread, 1, 0)};
  d.orderKey = ("m64n" + Twine(getN()) + "k" + Twine(getK())).str();
  InstrParam a{1, "a", AccessMode::read, QualTimeline::wgmma_async_smem,
               {TypeID::get<SmemAttr>(), TypeID::get<SmemSwizzledAttr>()}};
  InstrParam b{2, "b", AccessMode::read, QualTimeline::wgmma_async_smem,
               {TypeID::get<SmemAttr>(), TypeID::get<SmemSwizzledAttr>()}};
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
        Type accType = cast<MemRefType>(d.getType()).getElementType();
        Value acc0 =
            getZeroInit()
                ? arith::ConstantOp::create(b, loc, b.getZeroAttr(accType))
                      .getResult()
                : memref::LoadOp::create(b, loc, d, ValueRange{thread, slot})
                      .getResult();
        auto kLoop = scf::ForOp::create(b, loc, cIndex(b, loc, 0),
                                        cIndex(b, loc, getK()),
                                        cIndex(b, loc, 1), ValueRange{acc0});
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(kLoop.getBody());
        Value k = kLoop.getInductionVar();
        // Core matrices: [r / 8][k / 8][r mod 8][k mod 8]; swizzled rows:
        // [r][k] (the swizzle is the hardware's placement, not the meaning).
        auto index = [&](Value rowOrCol, Value buffer) {
          if (cast<MemRefType>(buffer.getType()).getRank() == 2)
            return SmallVector<Value>{rowOrCol, k};
          SmallVector<Value> rk{rowOrCol, k};
          return SmallVector<Value>{apply(b, loc, r0.floorDiv(8), rk),
                                    apply(b, loc, k0.floorDiv(8), rk),
                                    apply(b, loc, r0 % 8, rk),
                                    apply(b, loc, k0 % 8, rk)};
        };
        Value av = memref::LoadOp::create(b, loc, a, index(m, a));
        Value bv = memref::LoadOp::create(b, loc, bm, index(c, bm));
        // f16/bf16 widen exactly; tf32 is an f32 whose 13 low significand
        // bits the tensor cores ignore; e4m3 and e5m2 decode exactly. Any
        // product of two of them is exact in f32.
        auto input = [&](Value v) -> Value {
          if (isa<Float8E4M3FNType, Float8E5M2Type>(v.getType()))
            return decodeMultiplicand(b, loc, v);
          return tensorCoreInput(b, loc, v);
        };
        Value sum;
        if (av.getType().isInteger(8)) {
          // Sums modulo 2^32.
          Value prod =
              integerProduct(b, loc, av, getAUnsigned(), bv, getBUnsigned());
          sum = arith::AddIOp::create(b, loc, kLoop.getRegionIterArgs().front(),
                                      prod);
        } else {
          Value prod = arith::MulFOp::create(b, loc, input(av), input(bv));
          sum = arith::AddFOp::create(b, loc, kLoop.getRegionIterArgs().front(),
                                      prod);
        }
        scf::YieldOp::create(b, loc, ValueRange{sum});
        b.setInsertionPointAfter(kLoop);
        memref::StoreOp::create(b, loc, kLoop.getResult(0), d,
                                ValueRange{thread, slot});
      });
    });
  });
  return success();
}

/// The start address of a wgmma operand over 16, as an i32: its buffer's
/// address over 16 (loop-invariant: buffers are 128-byte aligned) plus its
/// offset in the buffer over 16, one affine function of the window's
/// starts (over 16 term by term where the strides allow), so that the
/// operands of one stage differ by constants the compiler folds instead of
/// a 64-bit add, shift and mask each (ptxas otherwise spends about a dozen
/// instructions per wgmma on them). (base + bytes) / 16 = base / 16 +
/// floor(bytes / 16) as 16 divides base: the window's source must start at
/// a multiple of 16 bytes (an allocation, or a view at a static offset that
/// is; otherwise the whole address is divided, as before). Shared
/// addresses are below 2^18, so the result fits bits 0-13.
static Value startOver16(OpBuilder &b, Location loc, Value view) {
  auto type = cast<MemRefType>(view.getType());
  int64_t eltBytes = type.getElementTypeBitWidth() / 8;
  Value stripped = view;
  while (auto cast = stripped.getDefiningOp<memref::CastOp>())
    stripped = cast.getSource();
  auto sub = stripped.getDefiningOp<memref::SubViewOp>();
  SmallVector<int64_t> strides;
  int64_t sourceOffset;
  Type i32 = b.getI32Type();
  if (sub && llvm::all_of(sub.getStaticStrides(),
                          [](int64_t s) { return s == 1; }) &&
      succeeded(sub.getSourceType().getStridesAndOffset(strides,
                                                        sourceOffset)) &&
      llvm::none_of(strides, ShapedType::isDynamic) &&
      !ShapedType::isDynamic(sourceOffset) &&
      sourceOffset * eltBytes % 16 == 0) {
    auto [base, bytes] = viewAddress(b, loc, sub.getSource());
    Value start = arith::ShRUIOp::create(
        b, loc, arith::AddIOp::create(b, loc, base, bytes), cIndex(b, loc, 4));
    AffineExpr offset = getAffineConstantExpr(0, b.getContext());
    SmallVector<OpFoldResult> offsets = sub.getMixedOffsets();
    for (auto [d, stride] : llvm::enumerate(strides))
      offset = offset + getAffineSymbolExpr(d, b.getContext()) *
                            (stride * eltBytes);
    // Not composed with the starts' own maps: a stage `k mod n` stays a
    // remainder the K loop can carry (rake-mod-counters), where composing
    // would write it as k - (k floordiv n) n.
    Value rel = affine::AffineApplyOp::create(
        b, loc, AffineMap::get(0, offsets.size(), offset.floorDiv(16)),
        getValueOrCreateConstantIndexOp(b, loc, offsets));
    start = arith::AddIOp::create(b, loc, start, rel);
    return arith::IndexCastUIOp::create(b, loc, i32, start);
  }
  auto [base, bytes] = viewAddress(b, loc, view);
  Value addr = arith::AddIOp::create(b, loc, base, bytes);
  Value start = arith::ShRUIOp::create(
      b, loc, arith::AndIOp::create(b, loc, addr, cIndex(b, loc, 0x3ffff)),
      cIndex(b, loc, 4));
  return arith::IndexCastUIOp::create(b, loc, i32, start);
}

/// The matrix descriptor of a core-matrix operand in shared memory: start
/// address, byte offsets between core matrices along K (leading) and along
/// the rows (stride), no swizzle.
static Value descriptor(OpBuilder &b, Location loc, Value view,
                        bool swizzled) {
  auto type = cast<MemRefType>(view.getType());
  SmallVector<int64_t> strides;
  int64_t ignored;
  (void)type.getStridesAndOffset(strides, ignored);
  int64_t eltBytes = type.getElementTypeBitWidth() / 8;
  // Bits 0-13: (address mod 2^18) / 16.
  Value start = startOver16(b, loc, view);
  int64_t fixed;
  if (swizzled) {
    // 128-byte swizzle: 8-row atoms 1024 bytes apart (stride offset), the
    // leading offset unused (1), layout type 1 in bits 62-63. The start is
    // the logical address of the operand's first element (its rows start at
    // an atom, its K offset within the 128-byte rows).
    fixed = int64_t(1) << 16 | (int64_t(1024 >> 4) << 32) | (int64_t(1) << 62);
  } else {
    int64_t leading = strides[1] * eltBytes, stride = strides[0] * eltBytes;
    fixed = ((leading >> 4) & 0x3fff) << 16 | ((stride >> 4) & 0x3fff) << 32;
  }
  // The low word (start plus the leading offset, which the 14-bit start
  // never carries into) in 32-bit arithmetic; the high word is constant.
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  Value low = arith::AddIOp::create(
      b, loc, start,
      arith::ConstantIntOp::create(b, loc, i32, int32_t(fixed & 0xffffffff)));
  return arith::OrIOp::create(
      b, loc, arith::ExtUIOp::create(b, loc, i64, low),
      arith::ConstantIntOp::create(b, loc, i64, fixed & ~int64_t(0xffffffff)));
}

/// Whether every value of an affine expression is a multiple of m.
static bool alwaysMultipleOf(AffineExpr e, int64_t m) {
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return c.getValue() % m == 0;
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (!bin)
    return false;
  if (e.getKind() == AffineExprKind::Add)
    return alwaysMultipleOf(bin.getLHS(), m) && alwaysMultipleOf(bin.getRHS(), m);
  if (e.getKind() == AffineExprKind::Mul)
    return alwaysMultipleOf(bin.getLHS(), m) || alwaysMultipleOf(bin.getRHS(), m);
  return false;
}

/// A swizzled wgmma operand is a window of a swizzled buffer (allocated
/// 1024-byte aligned) whose rows start at multiples of 8 and whose K
/// starts at a multiple of 16.
static LogicalResult checkSwizzledStart(Operation *op, Value operand) {
  auto window = operand.getDefiningOp<WindowOp>();
  if (!window)
    return isa<BlockArgument>(operand) ? op->emitOpError()
               << "takes a swizzled operand that is not a window of a "
                  "shared buffer"
                                       : success();
  if (!window.getSource().getDefiningOp<AllocOp>())
    return op->emitOpError() << "takes a window of a window of swizzled "
                                "memory; code generation needs one window "
                                "of the buffer to place the swizzle atoms";
  // The last two dimensions' starts; earlier ones (stages) select whole
  // multiples of the buffer's 8-row atoms as rows are 128 bytes.
  SmallVector<AffineExpr> starts = window.getStarts();
  size_t n = starts.size();
  auto source = cast<MemRefType>(window.getSource().getType());
  bool rowsOk = source.getRank() == 1 || alwaysMultipleOf(starts[n - 2], 8);
  for (size_t d = 0; d + 2 < n; ++d) {
    // A step of dimension d moves by this many rows.
    int64_t rowsPerStep = 1;
    for (size_t e = d + 1; e + 1 < n; ++e)
      rowsPerStep *= source.getDimSize(e);
    rowsOk &= rowsPerStep % 8 == 0 || alwaysMultipleOf(starts[d], 8);
  }
  int64_t k = kSlice(cast<MemRefType>(operand.getType()));
  if (!rowsOk || !alwaysMultipleOf(starts[n - 1], k))
    return op->emitOpError()
           << "cannot prove that its swizzled operand starts at a swizzle "
              "atom: its window's rows must start at multiples of 8 and its "
              "columns at multiples of "
           << k;
  return success();
}

LogicalResult WgmmaOp::buildDevice(OpBuilder &b, ValueRange operands, Value) {
  Location loc = getLoc();
  MLIRContext *ctx = getContext();
  Value d = operands[0], a = operands[1], bm = operands[2];
  int64_t n = getN();
  Type accType = memrefOf(getD()).getElementType();
  SmallVector<Type> fields(n / 2, accType);
  auto structType = LLVM::LLVMStructType::getLiteral(ctx, fields);
  Value acc = LLVM::UndefOp::create(b, loc, structType);
  for (int64_t r = 0; r < n / 2; ++r)
    acc = LLVM::InsertValueOp::create(
        b, loc, acc,
        memref::LoadOp::create(b, loc, d, ValueRange{cIndex(b, loc, r)}), r);
  // A swizzled operand must start at an 8-row atom, at a K offset that is
  // a multiple of 16: proven from the windows that make it.
  for (Value operand : {getA(), getB()}) {
    if (!isSwizzled(memrefOf(operand)))
      continue;
    if (failed(checkSwizzledStart(*this, operand)))
      return failure();
  }
  Value descA = descriptor(b, loc, a, isSwizzled(memrefOf(getA())));
  Value descB = descriptor(b, loc, bm, isSwizzled(memrefOf(getB())));
  auto ptxType = [&](Type elt, bool isUnsigned) {
    if (elt.isBF16())
      return NVVM::WGMMATypes::bf16;
    if (elt.isF16())
      return NVVM::WGMMATypes::f16;
    if (elt.isF32())
      return NVVM::WGMMATypes::tf32;
    if (isa<Float8E4M3FNType>(elt))
      return NVVM::WGMMATypes::e4m3;
    if (isa<Float8E5M2Type>(elt))
      return NVVM::WGMMATypes::e5m2;
    return isUnsigned ? NVVM::WGMMATypes::u8 : NVVM::WGMMATypes::s8;
  };
  NVVM::WGMMATypes typeA =
      ptxType(memrefOf(getA()).getElementType(), getAUnsigned());
  NVVM::WGMMATypes typeB =
      ptxType(memrefOf(getB()).getElementType(), getBUnsigned());
  NVVM::WGMMATypes typeD =
      accType.isInteger(32) ? NVVM::WGMMATypes::s32 : NVVM::WGMMATypes::f32;
  auto shape = NVVM::MMAShapeAttr::get(ctx, 64, n, getK());
  // Row-major A and column-major B: both K-major in shared memory. Integer
  // sums wrap (no .satfinite), as the sequential behavior's.
  Value result = NVVM::WgmmaMmaAsyncOp::create(
      b, loc, structType, acc, descA, descB, shape, typeA, typeB, typeD,
      getZeroInit() ? NVVM::WGMMAScaleOut::zero : NVVM::WGMMAScaleOut::one,
      NVVM::WGMMAScaleIn::one,
      NVVM::WGMMAScaleIn::one, NVVM::MMALayout::row, NVVM::MMALayout::col,
      NVVM::MMAIntOverflowAttr());
  for (int64_t r = 0; r < n / 2; ++r)
    memref::StoreOp::create(b, loc,
                            LLVM::ExtractValueOp::create(b, loc, result, r), d,
                            ValueRange{cIndex(b, loc, r)});
  return success();
}

//===----------------------------------------------------------------------===//
// What tma_load and tma_store share
//===----------------------------------------------------------------------===//

/// The bytes of a box.
static int64_t boxBytes(Value box) {
  MemRefType t = memrefOf(box);
  return t.getNumElements() * t.getElementTypeBitWidth() / 8;
}

/// The swizzle of a shared operand in bytes (0: none).
static int64_t swizzleOf(Value shared) {
  auto swizzled =
      dyn_cast_or_null<SmemSwizzledAttr>(memrefOf(shared).getMemorySpace());
  return swizzled ? swizzled.getBytes() : 0;
}

/// The sequential copy of a rows x cols box from `src` into `dst` (at
/// `lead` before the box's coordinates in dst).
static void copyBox(OpBuilder &b, Location loc, Value dst, Value src,
                    ValueRange lead) {
  MemRefType t = memrefOf(src);
  forRange(b, loc, t.getDimSize(0), [&](Value r) {
    forRange(b, loc, t.getDimSize(1), [&](Value c) {
      SmallVector<Value> at(lead);
      at.append({r, c});
      memref::StoreOp::create(
          b, loc, memref::LoadOp::create(b, loc, src, ValueRange{r, c}), dst,
          at);
    });
  });
}

/// The box's start in its global buffer (the window `global`), innermost
/// first (column, row), as the instruction takes it.
static SmallVector<Value> tmaBoxStart(Location loc, Value global,
                                      DeviceKernel &kernel) {
  auto window = global.getDefiningOp<WindowOp>();
  SmallVector<Value> starts;
  for (AffineExpr start : window.getStarts())
    starts.push_back(kernel.getControlValueI32(
        loc, start, window.getMap().getNumDims(), window.getIndices()));
  return {starts[1], starts[0]};
}

/// TMA reads and writes shared memory at 128-byte aligned addresses. Code
/// generation places every shared buffer at a multiple of 128 bytes
/// (SharedMemoryLayout), so a plain (unswizzled) operand is aligned when it
/// is a whole buffer or a window of one whose start moves the address by
/// multiples of 128 bytes in every dimension (a multicast's leading
/// dimension of CTAs names each CTA's own part and moves nothing).
static LogicalResult checkPlainTmaStart(Operation *op, Value operand,
                                        bool multicast) {
  auto window = operand.getDefiningOp<WindowOp>();
  if (!window) {
    if (operand.getDefiningOp<AllocOp>())
      return success();
    return op->emitOpError() << "takes a shared operand that is not a buffer "
                                "or one window of a buffer; TMA needs its "
                                "address 128-byte aligned";
  }
  if (!window.getSource().getDefiningOp<AllocOp>())
    return op->emitOpError() << "takes a window of a window of shared memory; "
                                "code generation needs one window of the "
                                "buffer to prove its address 128-byte aligned";
  auto source = cast<MemRefType>(window.getSource().getType());
  int64_t bytes = std::max<int64_t>(1, source.getElementTypeBitWidth() / 8);
  SmallVector<AffineExpr> starts = window.getStarts();
  int64_t stride = 1;
  for (int64_t d = source.getRank() - 1; d >= 0; --d) {
    int64_t step = stride * bytes;
    int64_t need = 128 / std::gcd<int64_t>(step, 128);
    if (need > 1 && !(multicast && d == 0) &&
        !alwaysMultipleOf(starts[d], need))
      return op->emitOpError()
             << "cannot prove that its shared operand starts at a multiple "
                "of 128 bytes, which TMA needs: its window's start in "
                "dimension "
             << d << " must be a multiple of " << need;
    stride *= source.getDimSize(d);
  }
  return success();
}

/// The CTA's shared address of a TMA copy's shared operand (`operand`, as
/// lowered: `lowered`), refused unless provably aligned as TMA needs it.
static FailureOr<Value> tmaSharedPointer(OpBuilder &b, Operation *op,
                                         Value operand, Value lowered,
                                         bool multicast) {
  if (isSwizzled(memrefOf(operand))
          ? failed(checkSwizzledStart(op, operand))
          : failed(checkPlainTmaStart(op, operand, multicast)))
    return failure();
  Location loc = op->getLoc();
  auto [base, bytes] = viewAddress(b, loc, lowered);
  Value addr = arith::AddIOp::create(b, loc, base, bytes);
  return LLVM::IntToPtrOp::create(
             b, loc, LLVM::LLVMPointerType::get(op->getContext(), 3),
             arith::IndexCastOp::create(b, loc, b.getI64Type(), addr)
                 .getResult())
      .getResult();
}

/// The box rules a TMA copy shares in both directions: the same static
/// rows x cols box of scalars in shared memory (contiguous row-major rows,
/// of 128 bytes in the 128-byte swizzle) and in a global window (rows of
/// contiguous elements), at most 256 x 256 elements, rows of a multiple of
/// 16 bytes. `load` names the directions in the messages (a load writes
/// its shared `dst`, a store reads its shared `src`).
static LogicalResult verifyTmaBox(Operation *op, MemRefType smem,
                                  MemRefType global, int64_t swizzle,
                                  bool load) {
  StringRef smemName = load ? "dst" : "src", globalName = load ? "src" : "dst";
  MemRefType dst = load ? smem : global, src = load ? global : smem;
  ArrayRef<int64_t> box = smem.getShape().take_back(2);
  if (box != global.getShape() || dst.getElementType() != src.getElementType())
    return op->emitOpError() << "dst " << dst << " and src " << src
                             << " must have the same box shape and element type";
  Type elt = smem.getElementType();
  if (!elt.isIntOrFloat())
    return op->emitOpError() << "copies scalars, found " << elt;
  int64_t rows = box[0], cols = box[1];
  if (rows > 256 || cols > 256)
    return op->emitOpError()
           << "copies a box of at most 256 x 256 elements, found " << rows
           << " x " << cols;
  int64_t rowBytes = cols * elt.getIntOrFloatBitWidth() / 8;
  if (rowBytes % 16 != 0)
    return op->emitOpError() << "copies rows of a multiple of 16 bytes, found "
                             << rowBytes;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(smem.getStridesAndOffset(strides, offset)) ||
      strides.back() != 1 || strides[strides.size() - 2] != cols)
    return op->emitOpError()
           << (load ? "writes" : "reads") << " a contiguous row-major box: "
           << smemName << "'s strides must end in [" << cols << ", 1]";
  SmallVector<int64_t> globalStrides;
  if (failed(global.getStridesAndOffset(globalStrides, offset)) ||
      globalStrides[1] != 1)
    return op->emitOpError()
           << (load ? "reads" : "writes") << " rows of contiguous elements: "
           << globalName << "'s inner stride must be 1";
  if (swizzle && rowBytes != swizzle)
    return op->emitOpError()
           << (load ? "writes" : "reads") << " the " << swizzle
           << "-byte swizzle, whose rows are " << swizzle << " bytes; "
           << smemName << "'s rows are " << rowBytes << " bytes";
  return success();
}

//===----------------------------------------------------------------------===//
// tma_load
//===----------------------------------------------------------------------===//

int64_t TmaLoadOp::getBytes() { return boxBytes(getSrc()); }

int64_t TmaLoadOp::getSwizzle() { return swizzleOf(getDst()); }

bool TmaLoadOp::isMulticast() { return memrefOf(getDst()).getRank() == 3; }

LogicalResult TmaLoadOp::verify() {
  MemRefType dst = memrefOf(getDst()), src = memrefOf(getSrc());
  if (src.getRank() != 2 || (dst.getRank() != 2 && dst.getRank() != 3) ||
      !dst.hasStaticShape() || !src.hasStaticShape())
    return emitOpError() << "copies a two-dimensional box: src must be a "
                            "two-dimensional window of static size, dst one "
                            "too (or, for a multicast, CTAs x rows x cols)";
  if (failed(verifyTmaBox(*this, dst, src, getSwizzle(), /*load=*/true)))
    return failure();
  if (isMulticast() != llvm::is_contained(getIntervals(), true))
    return emitOpError()
           << (isMulticast()
                   ? "multicasts into several CTAs but completes on one "
                     "mbarrier: name the destination CTAs' mbarriers as an "
                     "interval of the barrier (>> %bar[0 : n, ...])"
                   : "copies into one CTA but completes on several "
                     "mbarriers: name one element of the barrier");
  if (isMulticast())
    return verifyMulticastCtas();
  return success();
}

/// The constant interval [lo, hi) of the first interval coordinate of a
/// window expression, if it is one.
static std::optional<std::pair<int64_t, int64_t>>
constantInterval(AffineMap map, ArrayRef<bool> intervals, bool firstOnly) {
  unsigned r = 0;
  for (auto [i, isInterval] : llvm::enumerate(intervals)) {
    if (!isInterval) {
      if (firstOnly)
        return std::nullopt;
      ++r;
      continue;
    }
    auto lo = dyn_cast<AffineConstantExpr>(map.getResult(r));
    auto hi = dyn_cast<AffineConstantExpr>(map.getResult(r + 1));
    if (!lo || !hi)
      return std::nullopt;
    return std::pair(lo.getValue(), hi.getValue());
  }
  return std::nullopt;
}

/// A multicast lands in the CTAs its mbarriers name: the destination's
/// leading coordinate (its CTAs) and the barrier's interval are the same
/// constant interval, so the check's model (those CTAs' parts written,
/// those CTAs' mbarriers arrived on) is what the hardware does.
LogicalResult TmaLoadOp::verifyMulticastCtas() {
  auto window = getDst().getDefiningOp<WindowOp>();
  std::optional<std::pair<int64_t, int64_t>> dstCtas =
      window ? constantInterval(window.getMap(), window.getIntervals(),
                                /*firstOnly=*/true)
             : std::nullopt;
  std::optional<std::pair<int64_t, int64_t>> barCtas =
      constantInterval(getMap(), getIntervals(), /*firstOnly=*/false);
  if (!dstCtas || !barCtas || *dstCtas != *barCtas ||
      llvm::count(getIntervals(), true) != 1)
    return emitOpError()
           << "multicasts: its destination must be a window whose leading "
              "coordinate is a constant interval of CTAs (%buf[0 : 2, ...]) "
              "and its trailing barrier the same interval of those CTAs' "
              "mbarriers (>> %bar[0 : 2, ...]), the only interval of the "
              "barrier";
  return success();
}

CollUnitAttr TmaLoadOp::getCollUnit() {
  return unitOf(getContext(), CollUnitKind::thread);
}
InstrTimeline TmaLoadOp::getInstrTimeline() {
  return InstrTimeline::tma_to_smem_async;
}
SmallVector<InstrParam> TmaLoadOp::getParams() {
  SmallVector<InstrParam> params =
      asyncCopyParams(QualTimeline::tma_to_smem_async);
  // A multicast writes the parts of several CTAs of the cluster.
  params[0].multicast = isMulticast();
  return params;
}
std::optional<BarrierMechanism> TmaLoadOp::getBarrierMechanism() {
  return BarrierMechanism::mbarrier;
}
Value TmaLoadOp::getTrailingBarrier() { return getBarrier(); }
void TmaLoadOp::getTrailingBarrierCoords(SmallVectorImpl<Value> &indices,
                                         AffineMap &map,
                                         SmallVectorImpl<bool> &intervals) {
  indices.append(getIndices().begin(), getIndices().end());
  map = getMap();
  intervals.append(getIntervals().begin(), getIntervals().end());
}

LogicalResult TmaLoadOp::buildSequential(OpBuilder &b, ValueRange operands) {
  Location loc = getLoc();
  Value dst = operands[0], src = operands[1];
  if (!isMulticast()) {
    copyBox(b, loc, dst, src, {});
    return success();
  }
  // Into each destination CTA's part.
  forRange(b, loc, memrefOf(getDst()).getDimSize(0),
           [&](Value cta) { copyBox(b, loc, dst, src, cta); });
  return success();
}

LogicalResult TmaLoadOp::buildDevice(OpBuilder &, ValueRange, Value) {
  return emitOpError() << "needs the kernel's state (its mbarrier and "
                          "tensor map): buildDeviceInKernel";
}

/// The arrival expecting the box's bytes on the trailing mbarrier (on each
/// destination CTA's, for a multicast), then the copy: from the box's
/// start in the buffer (innermost first: column, row) through the kernel's
/// tensor map, into this CTA's view of the destination (at the same offset
/// in each CTA of the mask, for a multicast).
LogicalResult TmaLoadOp::buildDeviceInKernel(OpBuilder &b, ValueRange operands,
                                             DeviceKernel &kernel) {
  Location loc = getLoc();
  FailureOr<DeviceKernel::Completion> done =
      kernel.expectBytes(*this, getBytes(), getDst());
  if (failed(done))
    return failure();
  SmallVector<Value> start = tmaBoxStart(loc, getSrc(), kernel);
  FailureOr<Value> tensorMap = kernel.getTensorMap(*this);
  if (failed(tensorMap))
    return failure();
  Value mbarrier = kernel.getBarrierAddress(*this, *done);
  FailureOr<Value> ptr = tmaSharedPointer(
      b, *this, getDst(), operands[getDstMutable().getOperandNumber()],
      isMulticast());
  if (failed(ptr))
    return failure();
  // The CTA's own shared memory, addressed in the cluster's window
  // (shared::cluster, address space 7), as the instruction takes it; a
  // multicast lands at the same offset in each CTA of the mask.
  Value clusterPtr = LLVM::AddrSpaceCastOp::create(
      b, loc, LLVM::LLVMPointerType::get(getContext(), 7), *ptr);
  NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
      b, loc, clusterPtr, *tensorMap, start, mbarrier,
      ValueRange{}, done->ctaMask, Value(), NVVM::TMALoadMode::TILE,
      /*isCTAOnly=*/false, NVVM::CTAGroupKindAttr(), Value());
  return success();
}

//===----------------------------------------------------------------------===//
// tma_store
//===----------------------------------------------------------------------===//

int64_t TmaStoreOp::getBytes() { return boxBytes(getSrc()); }

int64_t TmaStoreOp::getSwizzle() { return swizzleOf(getSrc()); }

LogicalResult TmaStoreOp::verify() {
  MemRefType dst = memrefOf(getDst()), src = memrefOf(getSrc());
  if (dst.getRank() != 2 || src.getRank() != 2 || !dst.hasStaticShape() ||
      !src.hasStaticShape())
    return emitOpError() << "copies a two-dimensional box: dst must be a "
                            "two-dimensional window of static size, src one "
                            "too";
  return verifyTmaBox(*this, src, dst, getSwizzle(), /*load=*/false);
}

CollUnitAttr TmaStoreOp::getCollUnit() {
  return unitOf(getContext(), CollUnitKind::thread);
}
InstrTimeline TmaStoreOp::getInstrTimeline() {
  return InstrTimeline::tma_to_gmem_async;
}
/// dst written in global memory, src read in shared memory, both by the
/// async proxy and out of order (done only when the bulk group is).
SmallVector<InstrParam> TmaStoreOp::getParams() {
  InstrParam dst{0, "dst", AccessMode::write, QualTimeline::tma_to_gmem_async,
                 {TypeID::get<GmemAttr>()}};
  InstrParam src{1, "src", AccessMode::read, QualTimeline::tma_to_gmem_async,
                 {TypeID::get<SmemAttr>(), TypeID::get<SmemSwizzledAttr>()}};
  dst.outOfOrder = src.outOfOrder = true;
  return {dst, src};
}

LogicalResult TmaStoreOp::buildSequential(OpBuilder &b, ValueRange operands) {
  copyBox(b, getLoc(), operands[0], operands[1], {});
  return success();
}

LogicalResult TmaStoreOp::buildDevice(OpBuilder &, ValueRange, Value) {
  return emitOpError() << "needs the kernel's state (its tensor map): "
                          "buildDeviceInKernel";
}

/// The copy from this CTA's view of the source, through the kernel's
/// tensor map, to the box's start in the buffer (innermost first: column,
/// row); its bulk group is committed by the arrive on its commit group.
LogicalResult TmaStoreOp::buildDeviceInKernel(OpBuilder &b, ValueRange operands,
                                              DeviceKernel &kernel) {
  Location loc = getLoc();
  SmallVector<Value> start = tmaBoxStart(loc, getDst(), kernel);
  FailureOr<Value> tensorMap = kernel.getTensorMap(*this);
  if (failed(tensorMap))
    return failure();
  FailureOr<Value> ptr = tmaSharedPointer(
      b, *this, getSrc(), operands[getSrcMutable().getOperandNumber()],
      /*multicast=*/false);
  if (failed(ptr))
    return failure();
  NVVM::CpAsyncBulkTensorSharedCTAToGlobalOp::create(
      b, loc, *tensorMap, *ptr, start, Value(), NVVM::TMAStoreMode::TILE,
      Value());
  return success();
}

void mlir::rake::gpuir::registerSm90aInstructions(GpuIRDialect *dialect) {
  dialect->addInstructions<
#define GET_OP_LIST
#include "Rake/Dialect/GpuIR/Instrs/Sm90a.cpp.inc"
      >();
}
