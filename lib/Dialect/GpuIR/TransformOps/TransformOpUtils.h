//===- TransformOpUtils.h - what the transform.gpuir ops share ---*- C++
//-*-===//

#ifndef RAKE_LIB_DIALECT_GPUIR_TRANSFORMOPS_TRANSFORMOPUTILS_H
#define RAKE_LIB_DIALECT_GPUIR_TRANSFORMOPS_TRANSFORMOPUTILS_H

#include "Rake/Dialect/GpuIR/TransformOps/Rewrites.h"

#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"

namespace mlir::rake::gpuir::detail {

/// A refusal as a silenceable failure at the refused statement, with a note
/// at the transform.
DiagnosedSilenceableFailure refused(Operation *transformOp, const Refusal &why);

/// The refusal of a loop transform applied to something else.
DiagnosedSilenceableFailure notALoop(Operation *transformOp, Operation *target);

/// The effects of a rewrite that keeps its target (and what is in it) and
/// may return new handles.
void readsTargetModifiesPayload(
    Operation *op, MutableArrayRef<OpOperand> target,
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects);

/// The barrier named at `target`, and its coordinates' operands (the named
/// loops around `target`), or a refusal.
LogicalResult syncOperands(Operation *target, StringRef barrier,
                           std::optional<AffineMap> coords,
                           std::optional<ArrayAttr> loops, Value &bar,
                           SmallVector<Value> &operands, Refusal &why);

} // namespace mlir::rake::gpuir::detail

#endif // RAKE_LIB_DIALECT_GPUIR_TRANSFORMOPS_TRANSFORMOPUTILS_H
