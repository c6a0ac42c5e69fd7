//===- TensorCoreRule.h - matrix products run on the tensor cores -*- C++ -*-===//
//
// The Rake GPU profile's tensor-core rule (../shared/seeds, "Matrix
// products, formats and fused regions"): a matrix product in device code
// runs on tensor-core instructions; compilation fails where one would run on
// the CUDA cores, and a loop marked `slow` (with its body) is the one place
// where it may.
//
// A matrix product is an accumulation C[.., i, .., j, ..] += A[.., i, .., k]
// * B[.., k, .., j] (a gpuir.reduce of a product of two reads, possibly
// through float casts, or a write of read(C) + that product to the element
// it read) inside loops that give it three roles: loops that index C and A
// but not B (the rows, M), C and B but not A (the columns, N), A and B but
// not C (the reduction, K), each role at least 8 iterations (a parameter
// bound counts as large), the smallest extents a tensor-core instruction
// covers (mma.sync m16n8k8). A dot product or a matrix-vector product has
// no such three roles and is not one.
//
//===----------------------------------------------------------------------===//

#ifndef RAKE_ANALYSIS_TENSORCORERULE_H
#define RAKE_ANALYSIS_TENSORCORERULE_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::rake {

/// The smallest extent of each role that makes an accumulation a matrix
/// product.
constexpr int64_t kTensorCoreMinExtent = 8;

/// Reports every matrix product on the CUDA cores in device code under
/// `root` outside `slow` loops, as an error at the accumulation naming its
/// loops, `profile` and what to write instead. Fails when there is one.
LogicalResult checkTensorCoreRule(Operation *root, llvm::StringRef profile);

} // namespace mlir::rake

#endif // RAKE_ANALYSIS_TENSORCORERULE_H
