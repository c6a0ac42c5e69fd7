//===- Dialect.td - AMIR dialect ---------------------------*- tablegen -*-===//

#ifndef RAKE_AMIR_DIALECT
#define RAKE_AMIR_DIALECT

include "mlir/IR/OpBase.td"

def AMIR_Dialect : Dialect {
  let name = "amir";
  let cppNamespace = "::mlir::rake::amir";
  let summary = "The abstract machine that checks a GpuIR program's synchronization";
  let description = [{
    AMIR is what the synchronization check interprets. Its variables hold no
    values, only the history of accesses to them: each read and mutation is
    recorded with the threads that made it and its qualitative timeline, and
    fences, arrives and awaits widen the visibility of the recorded accesses.
    Check statements fail when an access is not yet visible enough. A
    procedure takes only control parameters; loops and guards carry the
    thread mapping of their scope.
  }];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  let dependentDialects = ["::mlir::rake::gpuir::GpuIRDialect"];
}

class AMIR_Op<string mnemonic, list<Trait> traits = []>
    : Op<AMIR_Dialect, mnemonic, traits>;

#endif // RAKE_AMIR_DIALECT
