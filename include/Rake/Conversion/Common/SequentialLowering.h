//===- SequentialLowering.h - GpuIR statements to scf/memref ----*- C++ -*-===//
//
// The lowering of GpuIR's statements to func/scf/memref/arith that both the
// sequential meaning (convert-gpuir-to-cpu) and the device code
// (convert-gpuir-to-nvvm) start from (library RakeConversionCommon). It is
// a StmtVisitor over the structural statements (procedures, loops, ifs,
// scopes, allocations), whose handlers are virtual: the device lowering
// overrides what parallelism and memory mean. Leaf statements (accesses,
// synchronization, instructions) are lowered by conversion patterns
// (LeafPatterns.h), run on a copy of each at the walker's position.
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
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"

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

  // The structural statements (StmtVisitor).
  using StmtVisitor::visitStmt;
  virtual LogicalResult visitStmt(ForOp loop);
  virtual LogicalResult visitStmt(IfOp ifOp);
  virtual LogicalResult visitStmt(AllocOp alloc);
  virtual LogicalResult visitStmt(FreeOp freeOp);
  virtual LogicalResult visitStmt(CallOp call);
  /// device_function, warps and fused: the body, in place.
  virtual LogicalResult visitScope(Operation *op, Block &body);
  /// Fences, arrives, awaits, accesses and instructions: by the leaf
  /// patterns (lowerLeaf).
  LogicalResult visitSync(Operation *op) { return lowerLeaf(op); }
  LogicalResult visitAccess(AccessOpInterface access) {
    return lowerLeaf(access);
  }
  LogicalResult visitInstr(InstrOpInterface instr) { return lowerLeaf(instr); }
  /// Arithmetic, cloned.
  LogicalResult visitOther(Operation *op);
  LogicalResult visitUnhandledStmt(Operation *op);

  // What the leaf patterns use (LeafPatterns.h).
  MLIRContext *getContext() { return b.getContext(); }
  /// The statement of the input program whose copy the leaf patterns are
  /// lowering (null outside lowerLeaf).
  Operation *leafSource() const { return currentLeaf; }
  /// The lowered values of the input program's values.
  IRMapping &getMapping() { return map; }
  /// For a pattern's `lower`: the lowering's builder builds before the copy
  /// it rewrites, reporting to the conversion (as the pattern's rewriter
  /// does), so that the helpers below and the device's own build into the
  /// same rewrite.
  class BuildAt {
  public:
    BuildAt(Lowering &l, Operation *copy, RewriterBase &rewriter)
        : b(l.b), guard(l.b), listener(l.b.getListener()) {
      b.setInsertionPoint(copy);
      b.setListener(rewriter.getListener());
    }
    ~BuildAt() { b.setListener(listener); }

  private:
    OpBuilder &b;
    OpBuilder::InsertionGuard guard;
    OpBuilder::Listener *listener;
  };
  /// A read, write or reduction as a load and a store, at the builder's
  /// insertion point.
  LogicalResult lowerAccess(AccessOpInterface access);
  /// What the target refuses of an element-by-element access to `buffer`
  /// (nothing on the CPU).
  virtual LogicalResult checkAccess(Operation *op, Value buffer) {
    return success();
  }
  /// An instruction's sequential behavior, at the builder's insertion
  /// point, its scratch buffers moved to the function's entry by `rewriter`.
  LogicalResult lowerInstrSequential(InstrOpInterface instr,
                                     RewriterBase &rewriter);
  /// A window as a subview of its lowered source. The first `dropped`
  /// dimensions of the source are absent from the lowered source (a
  /// thread's part of a distributed buffer): their coordinates are skipped,
  /// and those the window keeps as intervals are absent from the view too;
  /// their number is returned.
  FailureOr<unsigned> lowerWindow(WindowOp window, unsigned dropped = 0);

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

  /// The patterns that lower the leaf statements (default:
  /// populateSequentialLeafPatterns).
  virtual void populateLeafPatterns(RewritePatternSet &patterns);
  /// Lowers a leaf statement: copies it to the insertion point with its
  /// operands as lowered (those without a lowered value, barriers on the
  /// CPU, as placeholders) and converts the copy with the leaf patterns.
  LogicalResult lowerLeaf(Operation *op);

  OpBuilder &b;  IRMapping map;

private:
  Operation *currentLeaf = nullptr;
  std::unique_ptr<FrozenRewritePatternSet> leafPatterns;
  /// Where the placeholders of unlowered operands live (never in the
  /// output): one per type.
  OwningOpRef<ModuleOp> placeholders;
  DenseMap<Type, Value> placeholderOf;
};

} // namespace mlir::rake::gpuir

#endif // RAKE_CONVERSION_COMMON_SEQUENTIALLOWERING_H
