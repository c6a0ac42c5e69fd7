//===- Passes.td - conversions out of GpuIR ----------------*- tablegen -*-===//

#ifndef RAKE_CONVERSION_PASSES
#define RAKE_CONVERSION_PASSES

include "mlir/Pass/PassBase.td"

def ConvertGpuIRToAMIR : Pass<"convert-gpuir-to-amir", "::mlir::ModuleOp"> {
  let summary = "Translate each GpuIR procedure into the abstract machine program that checks its synchronization";
  let description = [{
    Section 5.2 of the Exo-GPU paper. Each `gpuir.proc` gets an `amir.proc`
    beside it (`@name` becomes `@name.amir`), over its control parameters
    only. Data parameters become variables allocated at entry; windows are
    inlined into the accesses of their buffers; reads, writes and reductions
    become check and record statements on the expanded accesses (grid
    constants are exempt); instruction arguments become checks and records
    by their access mode, qualitative timeline and out-of-order flag, and a
    trailing barrier an arrive on it; fences, arrives and awaits take the
    qualitative-timeline sets and transitivity of their sync timelines;
    device functions become guards over the cluster's threads bracketed by
    the fences of a kernel launch; cuda_threads loops and warps regions carry
    their thread mappings (from collective analysis) in one coordinate
    system per device function; allocations without a free are freed at the
    end of their block. Every AMIR op keeps its GpuIR op's location.
  }];
  let dependentDialects = ["::mlir::rake::amir::AMIRDialect",
                           "::mlir::rake::gpuir::GpuIRDialect"];
}

#endif // RAKE_CONVERSION_PASSES
