//===- GpuIR.h - GpuIR dialect ----------------------------------*- C++ -*-===//
//
// The GpuIR dialect: its attributes, types, interfaces and operations.
//
//===----------------------------------------------------------------------===//

#ifndef RAKE_DIALECT_GPUIR_IR_GPUIR_H
#define RAKE_DIALECT_GPUIR_IR_GPUIR_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "Rake/Dialect/GpuIR/IR/Dialect.h.inc"
#include "Rake/Dialect/GpuIR/IR/Enums.h.inc"

namespace mlir::rake::gpuir {

/// One size of a collective type: `num / den` times blockDim and clusterDim
/// raised to the given powers; `agnostic` is the `*` of a box (any size).
struct CollSize {
  int64_t num = 1;
  int64_t den = 1;
  unsigned blockDimPow = 0;
  unsigned clusterDimPow = 0;
  bool agnostic = false;

  static CollSize constant(int64_t n) { return {n, 1, 0, 0, false}; }
  static CollSize blockDim() { return {1, 1, 1, 0, false}; }
  static CollSize clusterDim() { return {1, 1, 0, 1, false}; }
  static CollSize any() { return {1, 1, 0, 0, true}; }

  /// The value for a launch shape; nullopt if agnostic or not an integer.
  std::optional<int64_t> evaluate(int64_t blockDim, int64_t clusterDim) const;
  CollSize operator*(int64_t k) const;
  CollSize divided(int64_t k) const;

  bool operator==(const CollSize &o) const {
    return num == o.num && den == o.den && blockDimPow == o.blockDimPow &&
           clusterDimPow == o.clusterDimPow && agnostic == o.agnostic;
  }
};
llvm::hash_code hash_value(const CollSize &size);

class CollUnitAttr;

/// One data parameter of an instruction, as the instruction interface
/// reports it.
struct InstrParam {
  /// The operand index of the argument in the op.
  unsigned operandIndex;
  /// The parameter's name in diagnostics.
  llvm::StringRef name;
  AccessMode access;
  /// The qualitative timeline of the instruction's accesses to it.
  QualTimeline qual;
  /// The memory types accepted (empty: any); compared by attribute kind.
  llvm::SmallVector<mlir::TypeID, 2> memoryTypes;
  /// The element type accepted (null: any).
  mlir::Type elementType;
  /// Whether the hardware may perform the accesses out of order.
  bool outOfOrder = false;
  /// Whether the accesses are atomic (reductions to memory).
  bool atomic = false;
  /// Whether the argument may span the copies of several owners (a TMA
  /// multicast into the shared memory of several CTAs).
  bool multicast = false;
  /// The static shape the argument must have (empty: any; a dynamic entry
  /// matches any size).
  llvm::SmallVector<int64_t, 4> shape;
  /// The units over which the argument's leading dimensions are
  /// distributed (a warp's fragment registers: [warp, thread]).
  llvm::SmallVector<mlir::Attribute, 2> distributedUnits;
  /// Accesses on this parameter's timeline are ordered after the same
  /// threads' earlier ones without a synchronization only where those
  /// carry the same key (wgmma's accumulators: the PTX ISA orders
  /// accumulator accesses of wgmma instructions of one shape only; others
  /// need wgmma.fence). Empty: no key.
  std::string orderKey;
};

/// The definition of a sync timeline: its full and temporal qualitative
/// timeline sets and whether it is transitive.
struct SyncTimelineInfo {
  QualTimeline full;
  QualTimeline temporal;
  bool transitive;
};
const SyncTimelineInfo &getSyncTimelineInfo(SyncTimeline tl);

/// Named groups of qualitative timelines, defined once (SyncTimelines.cpp
/// builds its table from them; the AMIR lowering's kernel-launch fence
/// uses them).
namespace qual_groups {
using Q = QualTimeline;
constexpr Q kCudaInOrder = Q::cuda_in_order_rmem | Q::cuda_in_order_ram;
constexpr Q kWgmmaRmem = Q::wgmma_async_rmem_a | Q::wgmma_async_rmem_d;
constexpr Q kWgmmaAll = kWgmmaRmem | Q::wgmma_async_smem;
constexpr Q kAsyncProxy =
    Q::tma_to_smem_async | Q::tma_to_gmem_async | Q::wgmma_async_smem;
/// Every access a CUDA thread makes: in order, cp.async, TMA, wgmma.
constexpr Q kCudaAccesses = kCudaInOrder | Q::Sm80_cp_async |
                            Q::tma_to_smem_async | Q::tma_to_gmem_async |
                            kWgmmaAll;
/// What a CUDA stream orders: the device's accesses and the host's stream
/// operations (not wgmma_zero, which only resets the accumulate flag).
constexpr Q kCudaDevice = kCudaAccesses | Q::cpu_cuda_stream;
/// What a kernel launch hands to the device and takes back: every device
/// access, and the accumulate flags the kernel starts from.
constexpr Q kKernelDevice = kCudaAccesses | Q::wgmma_zero;
} // namespace qual_groups

/// Whether a barrier mechanism is one of the commit-group mechanisms.
bool isCommitGroup(BarrierMechanism mechanism);
/// The sync timeline an arrive on a commit group of this mechanism needs.
std::optional<SyncTimeline> getCommitGroupTimeline(BarrierMechanism mechanism);

/// The scope a statement runs at: CPU code, or code inside a device function.
enum class DeviceScope { CPU, CUDA };
DeviceScope getDeviceScope(Operation *op);

LogicalResult verifyInstrOp(Operation *op);

/// The argument attribute of a procedure's buffer parameter that gives its
/// extents: an affine map over the procedure's control parameters, in
/// order, with one result per dimension.
constexpr llvm::StringLiteral kExtentsAttrName = "gpuir.extents";

/// The argument attribute of a procedure's buffer parameter in global
/// memory that gives the alignment, in bytes, of its first element: a power
/// of two from the element's size to 256 that every caller must meet (the
/// runtime refuses a launch that does not). Vector accesses
/// (gpuir.sm80.ld_global, st_global) need it.
constexpr llvm::StringLiteral kAlignAttrName = "gpuir.align";

/// The shared memory one CTA may use on the largest target Rake compiles
/// for (sm_90a: 227 KiB, with the opt-in for more than 48 KiB of dynamic
/// shared memory). A profile may allow less; rake-verify checks that.
constexpr int64_t kMaxSharedBytesPerCta = 232448;

/// The extent that stands for "unknown" in a window over a dynamic
/// dimension whose extent is not declared: larger than any real buffer.
constexpr int64_t kUnboundedExtent = int64_t(1) << 40;

} // namespace mlir::rake::gpuir

#include "Rake/Dialect/GpuIR/IR/AttrInterfaces.h.inc"

#define GET_ATTRDEF_CLASSES
#include "Rake/Dialect/GpuIR/IR/Attrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "Rake/Dialect/GpuIR/IR/Types.h.inc"

namespace mlir::rake::gpuir {

/// The kernel state the device lowering gives an instruction whose code
/// needs more than its own operands (InstrOpInterface::buildDeviceInKernel):
/// the completion of an asynchronous copy on its trailing mbarrier, the
/// kernel's tensor maps, control values.
class DeviceKernel {
public:
  virtual ~DeviceKernel() = default;

  /// The thread's index in its CTA (threadIdx.x).
  virtual Value getThreadId() = 0;

  /// The SM the kernel is compiled for ("sm_90a", "sm_120a").
  virtual llvm::StringRef getChip() = 0;

  /// A control expression over `operands` as an i32, at the insertion point.
  virtual Value getControlValueI32(Location loc, AffineExpr e, unsigned numDims,
                                   ValueRange operands) = 0;

  /// The trailing mbarrier element(s) an asynchronous copy of `bytes`
  /// bytes into `dst` completes on, with an arrival expecting those bytes
  /// on each (one CTA's; or, for a multicast, those of the CTAs that share
  /// out `dst`, whose mask is returned as an i16, else null).
  struct Completion {
    Value element;
    Value ctaMask;
  };
  virtual FailureOr<Completion> expectBytes(Operation *instr, int64_t bytes,
                                            Value dst) = 0;

  /// The address (shared::cta) of this CTA's element of `instr`'s trailing
  /// mbarrier in a completion expectBytes made.
  virtual Value getBarrierAddress(Operation *instr, const Completion &c) = 0;

  /// The kernel parameter that holds the tensor map of an instruction's
  /// TMA copy (KernelABI's collectTensorMaps), or failure (at the op) for
  /// an instruction the kernel has no map for.
  virtual FailureOr<Value> getTensorMap(Operation *instr) = 0;
};

/// What an access (AccessOpInterface) does to its element: a window does
/// nothing itself; it is a view that instructions take as an argument.
enum class AccessKind { Read, Write, Reduce, Window };
} // namespace mlir::rake::gpuir

#include "Rake/Dialect/GpuIR/IR/OpInterfaces.h.inc"

#define GET_OP_CLASSES
#include "Rake/Dialect/GpuIR/IR/Ops.h.inc"

namespace mlir::rake::gpuir {
/// The buffer a memref value views: through windows to a parameter or an
/// allocation.
inline Value viewedBuffer(Value v) {
  while (auto window = v.getDefiningOp<WindowOp>())
    v = window.getSource();
  return v;
}
} // namespace mlir::rake::gpuir

#endif // RAKE_DIALECT_GPUIR_IR_GPUIR_H
