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

def ConvertGpuIRToCPU : Pass<"convert-gpuir-to-cpu", "::mlir::ModuleOp"> {
  let summary = "Lower GpuIR to its sequential meaning: func, scf, memref, arith and affine.apply on the CPU";
  let description = [{
    The sequential semantics of a GpuIR program, the reference its GPU
    results are compared with. Each `gpuir.proc` becomes a `func.func` over
    the same parameters (memrefs lose their GpuIR memory spaces); every loop,
    of any mode, runs its iterations in order (`scf.for`); an if is an
    `scf.if`; device functions and warps regions are their bodies, run once;
    fences, arrives and awaits do nothing; reads, writes and reductions are
    loads and stores; windows are subviews; allocations of buffers are
    `memref.alloc` (barriers vanish). Control expressions stay
    `affine.apply`, which `--lower-affine` lowers further. Instructions are
    rejected until they carry their behaviors.

    With `bounds-report`, each read, write and reduction first checks its
    index against its buffer's extents and reports one outside them through
    `rake_out_of_bounds`, which the runner provides (rake-run prints the
    op's location, the buffer, the index, the extent and the loop values).
  }];
  let options = [
    Option<"boundsReport", "bounds-report", "bool", /*default=*/"false",
           "Check every access's index and call rake_out_of_bounds(memref<?xindex>) outside the extents (the runner provides it, as rake-run does)">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def ConvertGpuIRToNVVM : Pass<"convert-gpuir-to-nvvm", "::mlir::ModuleOp"> {
  let summary = "Lower each GpuIR procedure's device function to a kernel in a gpu.module";
  let description = [{
    Section 4.2 of the Exo-GPU paper, through MLIR's gpu and NVVM dialects.
    `gpuir.proc @name` becomes `gpu.func @name kernel` in
    `gpu.module @name_device` (the module gets `gpu.container_module`). The
    kernel is persistent: launch it on SMs x `rake.blocks_per_sm` CTAs of
    `known_block_size` threads; CTA b runs tasks b, b + gridDim, ... of the
    cuda_tasks nest in lexicographic order. A cuda_threads loop becomes an
    index function of the thread's coordinate in its collective tiling,
    under a guard; shared buffers are workgroup attributions; a fence
    between in-order accesses is `gpu.barrier` (bar.sync) over a CTA,
    `nvvm.bar.warp.sync` over a warp and a named barrier
    (`bar.sync id, n`) over an aligned group of warps such as a warpgroup.
    Clusters (`.reqnctapercluster`, `barrier.cluster`, distributed shared
    memory), warp specialization (one code path per warp path, `setmaxnreg`),
    split barriers on mbarriers and commit groups, and the Sm80/Sm90a
    instructions (cp.async, ldmatrix, mma.sync, wgmma, TMA loads) are lowered;
    what is not (register buffers too large for registers, shared memory past
    the profile's limit, accesses proven out of bounds) is refused at the op
    (docs/Codegen.md), and so is a matrix product left on the CUDA cores
    outside a `slow` loop (the profile's tensor-core rule,
    rake-tensor-core-rule). The `rake-gpuir-to-ptx` pipeline continues to
    PTX.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90a\"",
           "The target SM: the tensor-core rule of its profile applies "
           "(nvidia-ptx-sm120a's for sm_120a, else nvidia-ptx-sm90a's), and "
           "instructions of another target are refused">
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::nvgpu::NVGPUDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::affine::AffineDialect"];
}

def RakeModCounters : Pass<"rake-mod-counters", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Carry `iv mod m` of sequential loops as loop remainders";
  let description = [{
    Run in the PTX pipeline before affine maps are lowered. Each `lhs mod m`
    inside an `scf.for` whose lhs reads only the loop's index and values
    defined outside the loop, and grows by a constant per iteration, becomes
    a remainder the loop carries (its value at the lower bound before the
    loop, then an add, a compare and a select per iteration) instead of a
    division by a constant at every use: rings index their stages and
    barriers this way (docs/Codegen.md).
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect"];
}

#endif // RAKE_CONVERSION_PASSES
