//===- Uniformity.h - warp-uniform and lane-varying control -----*- C++ -*-===//
//
// Which control values of a device function are the same for every lane of
// a warp (warp-uniform) and which may differ between lanes (lane-varying):
// the variable of a cuda_threads loop over a unit smaller than a warp
// names a lane, and a sequential loop whose bounds use a lane-varying value
// has a lane-varying variable; procedure parameters, task indices and the
// variables of loops over warps or larger units are uniform. Control
// expressions are quasi-affine in control values, so a loop bound or an
// if's condition is lane-varying exactly when one of its operands is.
//
//===----------------------------------------------------------------------===//

#ifndef RAKE_ANALYSIS_UNIFORMITY_H
#define RAKE_ANALYSIS_UNIFORMITY_H

#include "Rake/Dialect/GpuIR/IR/GpuIR.h"

#include "llvm/ADT/DenseSet.h"

namespace mlir::rake {

class UniformityAnalysis {
public:
  /// The threads of a warp, the profile's rack.
  static constexpr int64_t kWarpLanes = 32;

  explicit UniformityAnalysis(Operation *root);

  /// Whether the control value may differ between the lanes of a warp.
  bool isLaneVarying(Value v) const { return varying.contains(v); }
  /// Whether the op's control (a loop's bounds, an if's condition) may
  /// differ between lanes; false for other ops.
  bool hasLaneVaryingControl(Operation *op) const;
  /// Whether the loop's variable names lanes (a cuda_threads loop over a
  /// unit smaller than a warp).
  bool mapsLanes(gpuir::ForOp loop) const { return laneLoops.contains(loop); }
  /// The innermost enclosing loop over lanes, or loop or if whose control
  /// is lane-varying (inside its device function), or null.
  Operation *laneVaryingControlAround(Operation *op) const;
  /// A lane-varying operand of the op's control, for reports.
  Value laneVaryingOperand(Operation *op) const;

private:
  llvm::DenseSet<Value> varying;
  llvm::DenseSet<Operation *> laneLoops;
};

} // namespace mlir::rake

#endif // RAKE_ANALYSIS_UNIFORMITY_H
