//===- Visitors.h - Typed visitors over GpuIR statements --------*- C++ -*-===//
//
// One dispatch over the statements of a GpuIR program, shared by the
// analyses and conversions that walk it (the sequential and device
// lowerings, the translation to AMIR, the distributed-memory analysis), in
// the style of CIRCT's HWVisitors.h: a walker derives from StmtVisitor,
// names the statements it handles with `visitStmt` overloads, and lets the
// rest fall through to a group handler and then to `visitUnhandledStmt`.
//
//   struct Printer : StmtVisitor<Printer, LogicalResult> {
//     using StmtVisitor::visitStmt;
//     LogicalResult visitStmt(ForOp loop);
//     LogicalResult visitAccess(AccessOpInterface access);
//     LogicalResult visitUnhandledStmt(Operation *op);
//   };
//
// The groups, each a default that a walker may override:
//   - visitAccess: read, write, reduce and window (AccessOpInterface);
//   - visitSync: fence, arrive and await;
//   - visitInstr: every InstrOpInterface op (the instruction sets');
//   - visitScope: device_function, warps and fused, whose one block runs
//     in place (for and if are dispatched on their own);
//   - visitOther: anything else (arithmetic, other dialects' ops).
// A new core statement is added here once; every walker then either
// handles it or reaches its `visitUnhandledStmt`, never a silent default.
//
//===----------------------------------------------------------------------===//

#ifndef RAKE_DIALECT_GPUIR_IR_VISITORS_H
#define RAKE_DIALECT_GPUIR_IR_VISITORS_H

#include "Rake/Dialect/GpuIR/IR/GpuIR.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/ErrorHandling.h"

namespace mlir::rake::gpuir {

template <typename ConcreteType, typename ResultType = void,
          typename... ExtraArgs>
class StmtVisitor {
public:
  ResultType dispatchStmt(Operation *op, ExtraArgs... args) {
    auto *self = static_cast<ConcreteType *>(this);
    return llvm::TypeSwitch<Operation *, ResultType>(op)
        .template Case<ForOp, IfOp, DeviceFunctionOp, WarpsOp, FusedOp, AllocOp,
                       FreeOp, ReadOp, WriteOp, ReduceOp, WindowOp, FenceOp,
                       ArriveOp, AwaitOp, CallOp>([&](auto stmt) -> ResultType {
          return self->visitStmt(stmt, args...);
        })
        .template Case<InstrOpInterface>(
            [&](InstrOpInterface instr) -> ResultType {
              return self->visitInstr(instr, args...);
            })
        .Default([&](Operation *other) -> ResultType {
          return self->visitOther(other, args...);
        });
  }

  /// Where every statement a walker does not handle ends.
  [[noreturn]] ResultType visitUnhandledStmt(Operation *op, ExtraArgs...) {
    op->emitOpError() << "reached a walker that does not handle it";
    llvm::report_fatal_error("unhandled GpuIR statement");
  }

  // Groups.
  ResultType visitAccess(AccessOpInterface access, ExtraArgs... args) {
    return unhandled(access, args...);
  }
  ResultType visitSync(Operation *op, ExtraArgs... args) {
    return unhandled(op, args...);
  }
  ResultType visitScope(Operation *op, Block &body, ExtraArgs... args) {
    return unhandled(op, args...);
  }
  ResultType visitInstr(InstrOpInterface instr, ExtraArgs... args) {
    return unhandled(instr, args...);
  }
  ResultType visitOther(Operation *op, ExtraArgs... args) {
    return unhandled(op, args...);
  }

  // Statements: each defaults to its group or to unhandled.
#define RAKE_STMT(OP, BODY)                                                    \
  ResultType visitStmt(OP op, ExtraArgs... args) {                             \
    auto *self = static_cast<ConcreteType *>(this);                            \
    (void)self;                                                                \
    return BODY;                                                               \
  }
  RAKE_STMT(ForOp, unhandled(op, args...))
  RAKE_STMT(IfOp, unhandled(op, args...))
  RAKE_STMT(CallOp, unhandled(op, args...))
  RAKE_STMT(AllocOp, unhandled(op, args...))
  RAKE_STMT(FreeOp, unhandled(op, args...))
  RAKE_STMT(DeviceFunctionOp,
            self->visitScope(op, op.getBody().front(), args...))
  RAKE_STMT(WarpsOp, self->visitScope(op, op.getBody().front(), args...))
  RAKE_STMT(FusedOp, self->visitScope(op, *op.getBodyBlock(), args...))
  RAKE_STMT(ReadOp, self->visitAccess(op, args...))
  RAKE_STMT(WriteOp, self->visitAccess(op, args...))
  RAKE_STMT(ReduceOp, self->visitAccess(op, args...))
  RAKE_STMT(WindowOp, self->visitAccess(op, args...))
  RAKE_STMT(FenceOp, self->visitSync(op, args...))
  RAKE_STMT(ArriveOp, self->visitSync(op, args...))
  RAKE_STMT(AwaitOp, self->visitSync(op, args...))
#undef RAKE_STMT

private:
  ResultType unhandled(Operation *op, ExtraArgs... args) {
    return static_cast<ConcreteType *>(this)->visitUnhandledStmt(op, args...);
  }
};

} // namespace mlir::rake::gpuir

#endif // RAKE_DIALECT_GPUIR_IR_VISITORS_H
