//===- TensorCoreRule.cpp - matrix products run on the tensor cores -------===//
//
// See TensorCoreRule.h.
//
//===----------------------------------------------------------------------===//

#include "Rake/Analysis/TensorCoreRule.h"
#include "Rake/Dialect/GpuIR/IR/GpuIR.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::rake;
using namespace mlir::rake::gpuir;

namespace {

/// A read through float casts (extf, truncf), or null.
ReadOp readThroughCasts(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (auto read = dyn_cast<ReadOp>(def))
      return read;
    if (!isa<arith::ExtFOp, arith::TruncFOp, arith::ExtSIOp, arith::ExtUIOp>(
            def))
      return nullptr;
    v = def->getOperand(0);
  }
  return nullptr;
}

/// The loop variables an access's index uses.
llvm::SmallSetVector<Value, 4> loopVarsUsed(AffineMap map, ValueRange indices) {
  llvm::SmallSetVector<Value, 4> used;
  for (auto [i, v] : llvm::enumerate(indices)) {
    auto arg = dyn_cast<BlockArgument>(v);
    if (!arg || !isa<ForOp>(arg.getOwner()->getParentOp()))
      continue;
    if (llvm::any_of(map.getResults(), [&, i = i](AffineExpr e) {
          return e.isFunctionOfDim(i);
        }))
      used.insert(v);
  }
  return used;
}

/// A loop's trip count when its bounds are constants.
std::optional<int64_t> tripCount(ForOp loop) {
  std::optional<int64_t> lo = loop.getConstantLowerBound();
  std::optional<int64_t> hi = loop.getConstantUpperBound();
  if (!lo || !hi)
    return std::nullopt;
  return std::max<int64_t>(*hi - *lo, 0);
}

std::string loopNames(ArrayRef<ForOp> loops) {
  std::string s;
  for (auto [i, loop] : llvm::enumerate(loops)) {
    ForOp l = loop;
    if (i)
      s += i + 1 == loops.size() ? " and " : ", ";
    s += "%" + (l.getIvName() ? l.getIvName()->str() : std::string("?"));
  }
  return s;
}

} // namespace

namespace {
/// An accumulation into a buffer element: `reduce p into C`, or `read(C) + p`
/// or `fma(a, b, read(C))` written back to C, with the product's two factors.
struct Accumulation {
  AffineMap targetMap;
  ValueRange targetIndices;
  Value lhs, rhs;
};
} // namespace

/// Whether `op` accumulates a product into a buffer element, and how.
static std::optional<Accumulation> matchAccumulation(Operation *op) {
  Value product, fmaA, fmaB;
  Accumulation acc;
  if (auto reduce = dyn_cast<ReduceOp>(op)) {
    product = reduce.getValue();
    acc.targetMap = reduce.getMap();
    acc.targetIndices = reduce.getIndices();
  } else if (auto write = dyn_cast<WriteOp>(op)) {
    auto readsTarget = [&](Value v) {
      auto r = v.getDefiningOp<ReadOp>();
      return r && r.getMemref() == write.getMemref() &&
             r.getMap() == write.getMap() &&
             r.getIndices() == write.getIndices();
    };
    // fma(a, b, read(C)) written back to C.
    if (Operation *fma = write.getValue().getDefiningOp();
        fma && fma->getName().getStringRef() == "math.fma") {
      if (!readsTarget(fma->getOperand(2)))
        return std::nullopt;
      fmaA = fma->getOperand(0);
      fmaB = fma->getOperand(1);
    }
    Operation *add = write.getValue().getDefiningOp();
    if (add && !isa<arith::AddFOp, arith::AddIOp>(add))
      add = nullptr;
    for (unsigned side : {0u, 1u})
      if (add && !product && readsTarget(add->getOperand(side)))
        product = add->getOperand(1 - side);
    if (!product && !fmaA)
      return std::nullopt;
    acc.targetMap = write.getMap();
    acc.targetIndices = write.getIndices();
  } else {
    return std::nullopt;
  }
  if (!op->getParentOfType<DeviceFunctionOp>())
    return std::nullopt;
  acc.lhs = fmaA;
  acc.rhs = fmaB;
  if (!acc.lhs) {
    Operation *mul = product.getDefiningOp();
    if (!mul || !isa<arith::MulFOp, arith::MulIOp>(mul))
      return std::nullopt;
    acc.lhs = mul->getOperand(0);
    acc.rhs = mul->getOperand(1);
  }
  return acc;
}

LogicalResult mlir::rake::checkTensorCoreRule(Operation *root,
                                              StringRef profile) {
  bool failedRule = false;
  root->walk([&](Operation *op) {
    std::optional<Accumulation> acc = matchAccumulation(op);
    if (!acc)
      return;
    ReadOp a = readThroughCasts(acc->lhs), b = readThroughCasts(acc->rhs);
    if (!a || !b)
      return;
    // The slow loops (and their bodies) may hold matrix products.
    for (Operation *p = op->getParentOp(); p; p = p->getParentOp())
      if (p->hasAttr("gpuir.slow"))
        return;
    auto inC = loopVarsUsed(acc->targetMap, acc->targetIndices);
    auto inA = loopVarsUsed(a.getMap(), a.getIndices());
    auto inB = loopVarsUsed(b.getMap(), b.getIndices());
    // The loops around the accumulation in each role, outermost first.
    SmallVector<ForOp> rows, cols, red;
    SmallVector<ForOp> around;
    for (Operation *p = op->getParentOp(); p && !isa<DeviceFunctionOp>(p);
         p = p->getParentOp())
      if (auto loop = dyn_cast<ForOp>(p))
        around.push_back(loop);
    std::reverse(around.begin(), around.end());
    for (ForOp loop : around) {
      Value v = loop.getInductionVar();
      // Rows: A's and not B's; columns: B's and not A's; the sum: both
      // inputs' and not the accumulator's (which may be a register tile or
      // one register, written out to C later).
      bool c = inC.contains(v), x = inA.contains(v), y = inB.contains(v);
      if (x && !y)
        rows.push_back(loop);
      else if (y && !x)
        cols.push_back(loop);
      else if (x && y && !c)
        red.push_back(loop);
    }
    auto extent = [](ArrayRef<ForOp> loops) -> std::optional<int64_t> {
      int64_t n = 1;
      for (ForOp l : llvm::to_vector(loops)) {
        std::optional<int64_t> t = tripCount(l);
        if (!t)
          return std::nullopt; // a parameter bound: large
        n *= *t;
      }
      return n;
    };
    for (ArrayRef<ForOp> role : {ArrayRef<ForOp>(rows), ArrayRef<ForOp>(cols),
                                 ArrayRef<ForOp>(red)}) {
      if (role.empty())
        return;
      std::optional<int64_t> n = extent(role);
      if (n && *n < kTensorCoreMinExtent)
        return;
    }
    // The inputs' declared formats: those the profile's tensor-core
    // instructions take (sm_90a's wgmma and mma.sync: f16, bf16, tf32 from
    // f32, e4m3, e5m2, and 8-bit integers (s8, u8); sm_120a's mma also the
    // 6- and 4-bit floats of kind::mxf8f6f4 and kind::mxf4nvf4).
    // f32 is not one: tf32 instructions round it (a declared format runs
    // as itself).
    bool narrow = profile.contains("sm120a");
    auto supported = [&](Type t) {
      return t.isF16() || t.isBF16() || t.isInteger(8) ||
             isa<Float8E4M3FNType, Float8E5M2Type>(t) ||
             (narrow &&
              isa<Float6E3M2FNType, Float6E2M3FNType, Float4E2M1FNType>(t));
    };
    Type ta = a.getResult().getType(), tb = b.getResult().getType();
    if (!supported(ta) || !supported(tb)) {
      std::string types;
      llvm::raw_string_ostream os(types);
      os << ta;
      if (tb != ta)
        os << " and " << tb;
      InFlightDiagnostic diag =
          op->emitOpError()
          << "is a matrix product of " << types << " (rows over "
          << loopNames(rows) << ", columns over " << loopNames(cols)
          << ", the sum over " << loopNames(red) << "); profile " << profile
          << " has no tensor-core instruction for that format (its "
             "instructions take f16, bf16, "
          << (narrow ? "f8E4M3FN, f8E5M2, f6E3M2FN, f6E2M3FN and f4E2M1FN"
                     : "f8E4M3FN and f8E5M2")
          << ", i8 as s8 or u8, and tf32, f32 rounded by the instruction): "
             "declare the "
             "inputs in one of them, or mark a loop around it `slow` to run "
             "it on the CUDA cores";
      diag.attachNote(red.front().getLoc()) << "the sum's loop";
      failedRule = true;
      return;
    }
    InFlightDiagnostic diag =
        op->emitOpError()
        << "is a matrix product on the CUDA cores (rows over "
        << loopNames(rows) << ", columns over " << loopNames(cols)
        << ", the sum over " << loopNames(red) << "); profile " << profile
        << " runs matrix products on tensor-core instructions: replace the "
           "nest by "
        << (narrow ? "mma_sync or mma_block_scale" : "mma_sync or wgmma")
        << " (transform.gpuir.replace), or mark a loop around it `slow` to "
           "run it on the CUDA cores";
    diag.attachNote(red.front().getLoc()) << "the sum's loop";
    failedRule = true;
  });
  return failure(failedRule);
}
