//===- Types.td - GpuIR types ------------------------------*- tablegen -*-===//

#ifndef RAKE_GPUIR_TYPES
#define RAKE_GPUIR_TYPES

include "mlir/IR/AttrTypeBase.td"
include "Rake/Dialect/GpuIR/IR/Dialect.td"
include "Rake/Dialect/GpuIR/IR/Enums.td"

class GpuIR_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<GpuIR_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def GpuIR_BarrierType : GpuIR_Type<"Barrier", "barrier"> {
  let summary = "an array of split barriers";
  let description = [{
    A barrier variable: `shape` barriers (none for a scalar barrier) whose
    arrive and await statements complete through `mechanism`: an mbarrier
    (optionally initialized as already arrived once, for the "empty" side of
    a ring), a cluster barrier, or the commit groups of cp.async, TMA stores
    or wgmma.

    ```mlir
    !gpuir.barrier<mbarrier [4]>
    !gpuir.barrier<cluster_sync>
    !gpuir.barrier<wgmma_group>
    ```
  }];
  let parameters = (ins "::mlir::rake::gpuir::BarrierMechanism":$mechanism,
                        OptionalArrayRefParameter<"int64_t">:$shape);
  let assemblyFormat = "`<` $mechanism (` ` `[` $shape^ `]`)? `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    bool isCommitGroup() const;
    bool isMbarrier() const;
    int64_t getRank() const { return getShape().size(); }
  }];
}

def GpuIR_AnyBarrier : Type<CPred<"::llvm::isa<::mlir::rake::gpuir::BarrierType>($_self)">,
                            "GpuIR barrier">;

#endif // RAKE_GPUIR_TYPES
