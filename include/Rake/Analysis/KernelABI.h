//===- KernelABI.h - A kernel's ABI, computed once ---------------*- C++ -*-===//
//
// What a GpuIR procedure's kernel looks like from outside, computed in one
// place for code generation, rake-bundle, rake-run and the C API: its
// shared-memory layout (one dynamic allocation at offsets fixed at compile
// time; buffers whose lifetimes are disjoint share space, each block's
// buffers released at its end, sibling blocks reusing the same offsets like
// a stack), the tensor maps its TMA copies take, the role of each kernel
// parameter, and its launch shape. computeKernelABI gives it; the
// `rake.abi` attribute carries it on the procedure (attachKernelABI) and on
// the kernel code generation makes, and kernelABI reads it back.
//
//===----------------------------------------------------------------------===//

#ifndef RAKE_ANALYSIS_KERNELABI_H
#define RAKE_ANALYSIS_KERNELABI_H

#include "Rake/Analysis/DistributedMemory.h"
#include "Rake/Dialect/GpuIR/IR/GpuIR.h"
#include "llvm/ADT/DenseMap.h"

#include <string>
#include <vector>

namespace mlir::rake {


struct SharedMemoryLayout {
  /// The byte offset of each shared-memory gpuir.alloc.
  llvm::DenseMap<Operation *, int64_t> offsets;
  /// The bytes each shared-memory gpuir.alloc takes in a CTA: its own part
  /// of a buffer shared out over a cluster's CTAs.
  llvm::DenseMap<Operation *, int64_t> sizes;
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
/// distributed memory analyses of its procedure to know them, unless given).
SharedMemoryLayout layOutSharedMemory(gpuir::DeviceFunctionOp device);
SharedMemoryLayout layOutSharedMemory(gpuir::DeviceFunctionOp device,
                                      const DistributedMemoryAnalysis &dist);

/// Whether a buffer type is in shared memory; in a swizzled layout.
bool isSharedBuffer(Type t);
bool isSwizzledBuffer(Type t);
/// The number of leading dimensions of a buffer distributed over its
/// owners (a cluster's CTAs for shared memory): each owner holds the rest.
unsigned distributedDims(const DistributedMemoryAnalysis &dist, Value buffer);

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


/// A procedure's kernel ABI.
struct KernelABI {
  /// The launch shape: CTAs of `block` threads (x), `blocksPerSm` per SM
  /// (the kernel is persistent), `cluster` CTAs per cluster (x), and the
  /// dynamic shared memory (the layout's bytes) at `sharedAlignment`.
  int64_t block = 1, blocksPerSm = 1, cluster = 1;
  int64_t dynamicSharedBytes = 0, sharedAlignment = SharedMemoryLayout::kAlignment;
  /// The tensor maps, after the procedure's parameters, in order.
  llvm::SmallVector<TensorMapUse> tensorMaps;
  /// Each kernel parameter's role, as MLIR's GPU lowering expands the
  /// signature: "argK.index"; "argK.allocated", "argK.aligned",
  /// "argK.offset", "argK.sizeD", "argK.strideD" for a memref; then
  /// "tensormap.argK.RxC.swizzleB" for each tensor map.
  std::vector<std::string> roles;
};

/// The name of the attribute that carries a KernelABI.
constexpr llvm::StringLiteral kKernelABIAttrName = "rake.abi";

/// Computes the ABI of a procedure with a device function; fails (with a
/// diagnostic) where it has none or a TMA copy's tensor map cannot be made.
FailureOr<KernelABI> computeKernelABI(gpuir::ProcOp proc);
/// The ABI as an attribute, and back (failure when it is not one).
DictionaryAttr kernelABIToAttr(MLIRContext *ctx, const KernelABI &abi);
FailureOr<KernelABI> kernelABIFromAttr(DictionaryAttr attr);
/// The procedure's ABI: its `rake.abi` attribute when present, else
/// computed.
FailureOr<KernelABI> kernelABI(gpuir::ProcOp proc);
/// Computes the ABI and records it as the procedure's `rake.abi`.
LogicalResult attachKernelABI(gpuir::ProcOp proc);

} // namespace mlir::rake

#endif // RAKE_ANALYSIS_KERNELABI_H
