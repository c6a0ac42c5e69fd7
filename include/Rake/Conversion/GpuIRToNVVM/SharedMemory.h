//===- SharedMemory.h - the shared-memory layout of a kernel -----*- C++ -*-===//
//
// A kernel's shared buffers live in one dynamic shared-memory allocation at
// offsets fixed at compile time. Buffers whose lifetimes are disjoint share
// space: each block's buffers are released at its end (the synchronization
// check has proven every access ordered before that free), so sibling
// blocks reuse the same offsets, like a stack.
//
//===----------------------------------------------------------------------===//

#ifndef RAKE_CONVERSION_GPUIRTONVVM_SHAREDMEMORY_H
#define RAKE_CONVERSION_GPUIRTONVVM_SHAREDMEMORY_H

#include "Rake/Dialect/GpuIR/IR/GpuIR.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::rake {

struct SharedMemoryLayout {
  /// The byte offset of each shared-memory gpuir.alloc.
  llvm::DenseMap<Operation *, int64_t> offsets;
  /// The dynamic shared memory a CTA needs: the launch's sharedMemBytes.
  int64_t bytes = 0;
  /// Every buffer starts at a multiple of this (TMA boxes need 128).
  static constexpr int64_t kAlignment = 128;
  /// A buffer in a swizzled layout starts at a multiple of this (the
  /// swizzle pattern repeats every 8 rows of 128 bytes), and so does the
  /// dynamic shared memory then.
  static constexpr int64_t kSwizzledAlignment = 1024;
  /// The largest alignment a buffer of the layout needs: that of the
  /// dynamic shared memory.
  int64_t alignment = kAlignment;
};

/// Lays out the shared buffers of a device function (each CTA's part of a
/// buffer shared out over a cluster's CTAs; runs the collective and
/// distributed memory analyses of its procedure to know them).
SharedMemoryLayout layOutSharedMemory(gpuir::DeviceFunctionOp device);

/// A CUtensorMap a kernel's TMA copies need: of which buffer parameter of
/// the procedure, the box (rows, columns) one copy moves and the swizzle in
/// bytes (0: none). The kernel takes the generic address of each, in order,
/// as hidden parameters after the procedure's own; the launcher encodes
/// them (row-major, over the whole buffer) and passes their addresses.
struct TensorMapUse {
  unsigned arg = 0;
  int64_t rows = 0, cols = 0;
  int64_t swizzle = 0;
};

struct KernelTensorMaps {
  llvm::SmallVector<TensorMapUse> maps;
  /// The map each gpuir.sm90a.tma_load uses, by index into maps.
  llvm::DenseMap<Operation *, unsigned> byOp;
};

/// The tensor maps of a device function, in order of first use; fails (with
/// a diagnostic at the copy) on a copy whose source is not one window of a
/// two-dimensional buffer parameter.
FailureOr<KernelTensorMaps> collectTensorMaps(gpuir::DeviceFunctionOp device);

} // namespace mlir::rake

#endif // RAKE_CONVERSION_GPUIRTONVVM_SHAREDMEMORY_H
