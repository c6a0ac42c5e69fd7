//===- CollectiveAnalysis.h - which threads run each statement --*- C++ -*-===//
//
// Collective analysis (section 4 of the Exo-GPU paper): every GpuIR scope
// inside a device function gets a collective tiling, a description of which
// threads of the cluster run each instance of the scope's statements. A
// tiling is the cluster's threads as a mixed-radix domain (outermost first)
// whose dimensions carry the refinements (tile operations) that the
// enclosing cuda_threads loops and warps regions made. Tilings are derived
// only at device entry, cuda_threads loops and warps regions; every other
// scope inherits its parent's.
//
//===----------------------------------------------------------------------===//

#ifndef RAKE_ANALYSIS_COLLECTIVEANALYSIS_H
#define RAKE_ANALYSIS_COLLECTIVEANALYSIS_H

#include "Rake/Dialect/GpuIR/IR/GpuIR.h"

#include "llvm/ADT/DenseMap.h"

#include <memory>
#include <optional>
#include <string>

namespace mlir::rake {

/// A collective unit with its sizes evaluated for one launch shape. A box
/// entry of nullopt matches any size (`*`).
struct ConcreteUnit {
  SmallVector<int64_t> domain;
  SmallVector<std::optional<int64_t>> box;
};

/// Evaluates a unit for a launch shape; fails (with a message) when a size
/// is not an integer for that shape.
FailureOr<ConcreteUnit> evaluateUnit(gpuir::CollTypeAttr type, int64_t blockDim,
                                     int64_t clusterDim, std::string &error);

/// One refinement of a dimension: iteration `iv` (from `lo`) of the loop at
/// `level` takes coordinates [offset + (iv - lo) * step, ... + box) of the
/// dimension, relative to the box that the earlier operations left.
struct TileOp {
  Operation *owner = nullptr;
  Value iv;
  unsigned level = 0;
  int64_t lo = 0;
  int64_t offset = 0;
  int64_t step = 0;
  int64_t box = 0;
  int64_t count = 1;
  /// The start is ((offset + (iv - lo) * step) floordiv div) mod mod when a
  /// split cut through the loop's range (mod = 0: no modulus).
  int64_t div = 1;
  int64_t mod = 0;

  /// The start of iteration `i` (counted from lo) in the dimension.
  int64_t start(int64_t i) const {
    int64_t c = (offset + i * step) / div;
    return mod ? c % mod : c;
  }
};

struct CollDim {
  int64_t extent = 1;
  /// Distance in natural thread index between adjacent coordinates.
  int64_t pitch = 1;
  SmallVector<TileOp, 2> ops;

  int64_t box() const { return ops.empty() ? extent : ops.back().box; }
};

/// What a unit expects of each dimension of a completed tiling.
enum class DimExpectation { Agnostic, Full, Subdivided };

/// A collective tiling: the thread hierarchy of a cluster and how the
/// enclosing scopes carved it up.
class CollTiling {
public:
  /// The tiling at entry to a device function: the whole cluster.
  static CollTiling root(int64_t blockDim, int64_t clusterDim);

  SmallVector<int64_t> getDomain() const;
  SmallVector<int64_t> getBox() const;
  ArrayRef<CollDim> getDims() const { return dims; }
  /// Threads in one collective of this tiling.
  int64_t getNumThreads() const;
  /// Number of tile operations made so far (cuda_threads loops and warps
  /// regions between the device function and this scope).
  unsigned getDepth() const { return depth; }

  /// The tiling of a cuda_threads loop's body (`tiled`) or of a warps
  /// region (not tiled: one collective of hi - lo units).
  FailureOr<CollTiling> derive(Operation *owner, Value iv, const ConcreteUnit &unit,
                               int64_t lo, int64_t hi, bool tiled,
                               std::string &error) const;

  /// This tiling reshaped to align with a unit, and what the unit expects of
  /// each dimension of the result.
  FailureOr<std::pair<CollTiling, SmallVector<DimExpectation>>>
  completeWith(const ConcreteUnit &unit, std::string &error) const;

  /// Whether one collective of this tiling is exactly one collective of the
  /// unit; if not, why.
  std::optional<std::string> unitMismatch(const ConcreteUnit &unit) const;

  /// This tiling with its domain split into `domain`, a refinement of it.
  FailureOr<CollTiling> refinedTo(ArrayRef<int64_t> domain,
                                  std::string &error) const;

  /// The tiling as an attribute for lit tests and later passes.
  gpuir::CollTilingAttr toAttr(MLIRContext *ctx) const;

  /// A short description for diagnostics: "a collective of 32 threads
  /// (domain [2, 256], box [1, 32])".
  std::string describe() const;

private:
  LogicalResult splitDim(unsigned index, int64_t factor, std::string &error);
  LogicalResult refineTo(ArrayRef<int64_t> domain, std::string &error);

  SmallVector<CollDim> dims;
  unsigned depth = 0;
};

/// A diagnostic the analysis found, reported by the pass that runs it.
struct AnalysisError {
  Operation *op;
  std::string message;
  SmallVector<std::pair<Location, std::string>, 2> notes;
};

/// The collective tilings of every scope of a procedure (or of every
/// procedure of a module), and the rejections found while deriving them.
class CollectiveAnalysis {
public:
  explicit CollectiveAnalysis(Operation *root);

  /// The tiling inside a scope op (device function, loop, if, warps
  /// region); null at CPU scope.
  const CollTiling *getTilingInside(Operation *scopeOp) const;
  /// The tiling of the scope that `op` runs in; null at CPU scope.
  const CollTiling *getScopeTiling(Operation *op) const;
  /// The coarsest domain that refines every scope's domain inside a device
  /// function: a common coordinate system for all of its collectives.
  FailureOr<SmallVector<int64_t>> getCommonDomain(gpuir::DeviceFunctionOp device,
                                                  std::string &error) const;

  /// The launch shape of the device function around `op`.
  std::pair<int64_t, int64_t> getLaunchShape(Operation *op) const;

  /// Emits the errors as MLIR diagnostics; returns failure if there were any.
  LogicalResult emitErrors() const;

  /// The unit a scope's collectives are, among thread, quadpair, warp,
  /// warpgroup, cta_in_cluster and cluster (and their multiples), if any.
  gpuir::CollUnitAttr classify(const CollTiling &tiling, int64_t blockDim,
                               int64_t clusterDim) const;

private:
  void visitDevice(gpuir::DeviceFunctionOp device);
  void visitRegion(Region &region, const CollTiling &tiling, int64_t blockDim,
                   int64_t clusterDim);
  void checkStatement(Operation *op, const CollTiling &tiling, int64_t blockDim,
                      int64_t clusterDim);
  void error(Operation *op, std::string message,
             SmallVector<std::pair<Location, std::string>, 2> notes = {});

  MLIRContext *ctx;
  llvm::DenseMap<Operation *, std::unique_ptr<CollTiling>> tilings;
  SmallVector<AnalysisError> errors;
};

} // namespace mlir::rake

#endif // RAKE_ANALYSIS_COLLECTIVEANALYSIS_H
