//===- SequentialLowering.h - GpuIR statements to scf/memref ----*- C++ -*-===//
//
// The lowering of GpuIR's statements to func/scf/memref/arith that both the
// sequential meaning (convert-gpuir-to-cpu) and the device code
// (convert-gpuir-to-nvvm) start from (library RakeConversionCommon). It is
// a StmtVisitor whose handlers are virtual: the device lowering overrides
// what parallelism, synchronization, memory and instructions mean and
// keeps the rest.
//
//===----------------------------------------------------------------------===//

#ifndef RAKE_CONVERSION_COMMON_SEQUENTIALLOWERING_H
#define RAKE_CONVERSION_COMMON_SEQUENTIALLOWERING_H

#include "Rake/Dialect/GpuIR/IR/GpuIR.h"
#include "Rake/Dialect/GpuIR/IR/Syntax.h"
#include "Rake/Dialect/GpuIR/IR/Visitors.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::rake::gpuir {

/// A memref type without its GpuIR memory space.
inline Type cpuType(Type t) {
  auto memref = dyn_cast<MemRefType>(t);
  if (!memref)
    return t;
  return MemRefType::get(memref.getShape(), memref.getElementType(),
                         memref.getLayout());
}

/// The signed integer comparison of a gpuir.if predicate.
arith::CmpIPredicate cmpPredicate(int32_t p);

/// Rewrites the math dialect ops under `root` as exactly specified
/// arithmetic, the same for both lowerings (ExactMath.cpp); refuses, at the
/// op, those with no exact lowering. `device`: for the GPU (correctly
/// rounded PTX instructions instead of the LLVM intrinsics that the GPU
/// lowering would turn into libdevice calls).
LogicalResult expandExactMath(Operation *root, bool device);

class Lowering : public StmtVisitor<Lowering, LogicalResult> {
public:
  explicit Lowering(OpBuilder &b) : b(b) {}
  virtual ~Lowering() = default;

  /// With a list of sites, each read, write and reduction first checks its
  /// index against the buffer's extents and, outside them, calls
  /// `rake_out_of_bounds(memref<?xindex>)` with [site, rank, index...,
  /// extent..., loop value...]; site n of the list is
  /// "kind|buffer|file:line:col|loop names" (rake-run prints the report).
  std::vector<std::string> *boundsSites = nullptr;

  /// Lowers a procedure to a func.func at the builder's insertion point.
  LogicalResult lowerProc(ProcOp proc);

  /// Lowers one statement at the builder's insertion point.
  LogicalResult lowerOp(Operation *op) { return dispatchStmt(op); }

  // The statements (StmtVisitor): each lowered to its sequential meaning.
  using StmtVisitor::visitStmt;
  virtual LogicalResult visitStmt(ForOp loop);
  virtual LogicalResult visitStmt(IfOp ifOp);
  virtual LogicalResult visitStmt(AllocOp alloc);
  virtual LogicalResult visitStmt(FreeOp freeOp);
  virtual LogicalResult visitStmt(CallOp call);
  /// device_function, warps and fused: the body, in place.
  virtual LogicalResult visitScope(Operation *op, Block &body);
  /// Fences, arrives and awaits: nothing.
  virtual LogicalResult visitSync(Operation *op);
  /// Reads, writes and reductions as loads and stores; windows as views.
  virtual LogicalResult visitAccess(AccessOpInterface access);
  /// An instruction's sequential behavior.
  virtual LogicalResult visitInstr(InstrOpInterface instr);
  /// Arithmetic, cloned.
  virtual LogicalResult visitOther(Operation *op);
  LogicalResult visitUnhandledStmt(Operation *op);

protected:
  ProcOp currentProc;

  std::string bufferName(Value v);

  void checkBounds(Operation *op, StringRef kind, Value source,
                   ArrayRef<Value> idx);

  /// Lowers a block's ops, then frees the buffers it allocated and did not
  /// free, as the compiler's free insertion does. (Virtual: the structured
  /// ops lowered here, an if's branches, hold device blocks too.)
  virtual LogicalResult lowerBlock(Block &block);

  Value applyExpr(Location loc, AffineExpr expr, unsigned numDims,
                  ValueRange operands);
  SmallVector<Value> applyAll(Location loc, AffineMap m, ValueRange operands);

  /// A loop's lower and upper bounds, at the insertion point.
  std::pair<Value, Value> loopBounds(ForOp loop);

  /// An instruction's operands as lowered: barriers (which have no
  /// sequential or per-thread value) as null.
  SmallVector<Value> instrOperands(Operation *op);

  /// The indices of an access in the lowered buffer (all of them; the
  /// device lowering drops those of dimensions distributed over threads).
  virtual SmallVector<Value> accessIndices(Value buffer, AffineMap m,
                                           ValueRange operands, Location loc);

  /// A window as a subview of its lowered source. The first `dropped`
  /// dimensions of the source are absent from the lowered source (a
  /// thread's part of a distributed buffer): their coordinates are skipped,
  /// and those the window keeps as intervals are absent from the view too;
  /// their number is returned.
  FailureOr<unsigned> lowerWindow(WindowOp window, unsigned dropped = 0);

  OpBuilder &b;
  IRMapping map;
};

} // namespace mlir::rake::gpuir

#endif // RAKE_CONVERSION_COMMON_SEQUENTIALLOWERING_H
