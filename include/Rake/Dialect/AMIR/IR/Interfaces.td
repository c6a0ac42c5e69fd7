//===- Interfaces.td - AMIR interfaces ---------------------*- tablegen -*-===//

#ifndef RAKE_AMIR_INTERFACES
#define RAKE_AMIR_INTERFACES

include "mlir/IR/OpBase.td"

def AMIR_AccessOpInterface : OpInterface<"AccessOpInterface"> {
  let cppNamespace = "::mlir::rake::amir";
  let description = [{
    A statement about a window of a variable on a set of qualitative
    timelines: a record of the current threads' reads or mutations
    (record_read, record_mutate) or a check that they may read or mutate it
    (check_reads, check_mutates). The interpreter takes every one apart
    through this interface.
  }];
  let methods = [
    InterfaceMethod<"The variable whose window is accessed.",
      "::mlir::Value", "getVariable">,
    InterfaceMethod<"The index operands of the window expression.",
      "::mlir::OperandRange", "getIndices">,
    InterfaceMethod<[{The map from the indices to the coordinates: one result
      per point coordinate, two (lo, hi) per interval.}],
      "::mlir::AffineMap", "getMap">,
    InterfaceMethod<"Which coordinates are intervals.",
      "::llvm::ArrayRef<bool>", "getIntervals">,
    InterfaceMethod<"The qualitative timelines of the access.",
      "::mlir::rake::gpuir::QualTimeline", "getQuals">,
    InterfaceMethod<"Whether it is about mutations (else about reads).",
      "bool", "isMutation">,
    InterfaceMethod<"Whether it checks (else records).",
      "bool", "isCheck">,
    InterfaceMethod<[{Whether a record is of an asynchronous instruction's
      access, not visible even to its own threads before a synchronization
      (false for a check).}],
      "bool", "isOutOfOrder">,
    InterfaceMethod<"The visibility a check requires (none for a record).",
      "std::optional<::mlir::rake::amir::VisibilityLevel>", "getCheckedLevel">,
    InterfaceMethod<[{The access's order key, or null: an access with a key is
      ordered after the same threads' earlier accesses on its timeline only
      when they carry the same key (wgmma's accumulators: the PTX ISA orders
      accumulator accesses of wgmma instructions of one shape only); any
      other earlier access of that timeline needs a synchronization.}],
      "::mlir::StringAttr", "getOrderAttr">,
  ];
}

#endif // RAKE_AMIR_INTERFACES
