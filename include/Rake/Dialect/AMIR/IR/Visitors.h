//===- Visitors.h - A typed visitor over AMIR statements --------*- C++ -*-===//
//
// One dispatch over the statements of an abstract-machine procedure (the
// interpreter of the synchronization check walks it), as GpuIR's
// StmtVisitor: a walker names the statements it handles with `visitStmt`
// overloads; records and checks fall through to `visitRecord` and
// `visitCheck` (AccessOpInterface), and the rest to `visitUnhandledStmt`.
//
//===----------------------------------------------------------------------===//

#ifndef RAKE_DIALECT_AMIR_IR_VISITORS_H
#define RAKE_DIALECT_AMIR_IR_VISITORS_H

#include "Rake/Dialect/AMIR/IR/AMIR.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/ErrorHandling.h"

namespace mlir::rake::amir {

template <typename ConcreteType, typename ResultType = void,
          typename... ExtraArgs>
class StmtVisitor {
public:
  ResultType dispatchStmt(Operation *op, ExtraArgs... args) {
    auto *self = static_cast<ConcreteType *>(this);
    return llvm::TypeSwitch<Operation *, ResultType>(op)
        .template Case<LoopOp, GuardOp, AllocOp, FreeOp, RecordReadOp,
                       RecordMutateOp, CheckReadsOp, CheckMutatesOp, FenceOp,
                       ArriveOp, AwaitOp>([&](auto stmt) -> ResultType {
          return self->visitStmt(stmt, args...);
        })
        .Default([&](Operation *other) -> ResultType {
          return self->visitUnhandledStmt(other, args...);
        });
  }

  [[noreturn]] ResultType visitUnhandledStmt(Operation *op, ExtraArgs...) {
    op->emitOpError() << "reached a walker that does not handle it";
    llvm::report_fatal_error("unhandled AMIR statement");
  }

  // Groups.
  ResultType visitRecord(AccessOpInterface access, ExtraArgs... args) {
    return unhandled(access, args...);
  }
  ResultType visitCheck(AccessOpInterface access, ExtraArgs... args) {
    return unhandled(access, args...);
  }

#define RAKE_STMT(OP, BODY)                                                    \
  ResultType visitStmt(OP op, ExtraArgs... args) {                             \
    auto *self = static_cast<ConcreteType *>(this);                            \
    (void)self;                                                                \
    return BODY;                                                               \
  }
  RAKE_STMT(LoopOp, unhandled(op, args...))
  RAKE_STMT(GuardOp, unhandled(op, args...))
  RAKE_STMT(AllocOp, unhandled(op, args...))
  RAKE_STMT(FreeOp, unhandled(op, args...))
  RAKE_STMT(FenceOp, unhandled(op, args...))
  RAKE_STMT(ArriveOp, unhandled(op, args...))
  RAKE_STMT(AwaitOp, unhandled(op, args...))
  RAKE_STMT(RecordReadOp, self->visitRecord(op, args...))
  RAKE_STMT(RecordMutateOp, self->visitRecord(op, args...))
  RAKE_STMT(CheckReadsOp, self->visitCheck(op, args...))
  RAKE_STMT(CheckMutatesOp, self->visitCheck(op, args...))
#undef RAKE_STMT

private:
  ResultType unhandled(Operation *op, ExtraArgs... args) {
    return static_cast<ConcreteType *>(this)->visitUnhandledStmt(op, args...);
  }
};

} // namespace mlir::rake::amir

#endif // RAKE_DIALECT_AMIR_IR_VISITORS_H
