//===- Dialect.td - GpuIR dialect --------------------------*- tablegen -*-===//
//
// GpuIR: a sequential program whose parallel loops, memory types and
// synchronization statements are annotations that the compiler checks.
//
//===----------------------------------------------------------------------===//

#ifndef RAKE_GPUIR_DIALECT
#define RAKE_GPUIR_DIALECT

include "mlir/IR/OpBase.td"

def GpuIR_Dialect : Dialect {
  let name = "gpuir";
  let cppNamespace = "::mlir::rake::gpuir";
  let summary = "Explicit threads, memory types and synchronization for tensor-core kernels";
  let description = [{
    GpuIR is the language in which a Rake GPU kernel is written. A program's
    sequential reading (parallel loops run in order, synchronization is a
    no-op) defines what it computes; `cuda_tasks` and `cuda_threads` loops,
    memory types, fences, arrives and awaits say how it runs on the GPU. The
    compiler checks that the parallel program is equal to its sequential
    reading before it generates code.

    Control values (sizes, loop variables) are `index` values and every
    control expression is quasi-affine, written inline as an affine
    expression of SSA names: `%A[%task * 256 + %t]`. Data lives in `memref`s
    whose memory space is a GpuIR memory type (`#gpuir.smem`, `#gpuir.rmem`,
    ...); a scalar data value never outlives the block it is made in.
  }];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  let hasOperationAttrVerify = 0;
  let dependentDialects = ["::mlir::affine::AffineDialect"];
  let extraClassDeclaration = [{
    void registerAttributes();
    void registerTypes();
    /// Adds an instruction set's ops. Instruction sets are libraries of
    /// their own (RakeGpuIRInstrs: Instrs/Sm80.td, Instrs/Sm90a.td) that a
    /// dialect extension adds when the dialect loads
    /// (gpuir::registerInstructionSets).
    template <typename... Ops> void addInstructions() {
      addOperations<Ops...>();
    }
  }];
}

class GpuIR_Op<string mnemonic, list<Trait> traits = []>
    : Op<GpuIR_Dialect, mnemonic, traits>;

#endif // RAKE_GPUIR_DIALECT
