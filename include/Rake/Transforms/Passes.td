//===- Passes.td - passes that check, change or annotate GpuIR ---*- tablegen -*-===//

#ifndef RAKE_TRANSFORMS_PASSES
#define RAKE_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def CollectiveAnalysisPass : Pass<"rake-collective-analysis", "::mlir::ModuleOp"> {
  let summary = "Give every scope of a device function its collective tiling and check thread collectives";
  let description = [{
    Runs collective analysis (section 4 of the Exo-GPU paper) and attaches
    its results: every scope op inside a device function (the device
    function, loops, ifs, warps regions) gets `gpuir.tiling`, the collective
    tiling of its body, and `gpuir.scope`, the unit its collectives are when
    they are one (thread, warp, warpgroup, CTA, cluster, ...).

    It rejects cuda_threads loops that need more threads than their scope
    has or do not tile it, warps regions that do not fit, instructions used
    outside a scope of their collective unit, fences that would not run on
    whole warps, a CTA or a cluster, and cluster-barrier arrives and awaits
    outside cluster scope. Where a gpuir.if on a thread loop's variable is
    the cause, the error says the threads may diverge.
  }];
  let dependentDialects = ["::mlir::rake::gpuir::GpuIRDialect"];
  let statistics = [
    Statistic<"numScopes", "scopes", "Number of scopes given a tiling">,
  ];
}

def DistributedMemoryPass : Pass<"rake-distributed-memory", "::mlir::ModuleOp"> {
  let summary = "Deduce how each device buffer and barrier is sharded over its owners, and check every access";
  let description = [{
    Distributed memory analysis (section 4.1 of the Exo-GPU paper). A buffer
    in a memory type with a native unit (a thread's registers, a CTA's shared
    memory) allocated at a larger scope has one copy per unit: its leading
    dimensions are indexed by the loop variables of the cuda_threads loops
    that split the allocating scope down to that unit. From each access the
    pass deduces the thread pitch of those dimensions, checks that all
    accesses agree, and attaches the result to the allocation as
    `gpuir.sharding`.

    It rejects an access by threads that do not own the copy they touch (a
    register read by another thread, another CTA's shared memory without a
    multicast instruction), an access whose collective spans several copies,
    and buffers or barrier arrays sharded differently at different uses.
  }];
  let dependentDialects = ["::mlir::rake::gpuir::GpuIRDialect"];
}

def UniformityPass : Pass<"rake-uniformity", "::mlir::ModuleOp"> {
  let summary = "Mark control as warp-uniform or lane-varying and check the profile's collective rule";
  let description = [{
    Uniformity analysis (the Rake GPU profile's "Racks and lanes": a rack is
    a warp, a lane one thread). Every gpuir.for and gpuir.if inside a device
    function gets `gpuir.uniformity`: `"uniform"` when its bounds or
    condition are the same for every lane of a warp, `"lane_varying"` when
    they may differ, `"lanes"` for a cuda_threads loop whose variable names
    lanes (a unit smaller than a warp).

    It rejects what would make the compiler serialize a warp: an
    instruction whose collective is a warp or more (mma, ldmatrix,
    shuffles, wgmma) inside a loop over lanes or under lane-varying
    control, with the instruction's location, the profile and the failed
    obligation.
  }];
  let options = [
    Option<"profile", "profile", "std::string", "\"nvidia-ptx-sm90a\"",
           "the profile named in reports">,
    Option<"annotate", "annotate", "bool", "true",
           "attach gpuir.uniformity to the loops and ifs (rake-check only checks)">,
  ];
  let dependentDialects = ["::mlir::rake::gpuir::GpuIRDialect"];
}

def TensorCoreRulePass : Pass<"rake-tensor-core-rule", "::mlir::ModuleOp"> {
  let summary = "Check the profile's tensor-core rule: matrix products run on tensor-core instructions";
  let description = [{
    The Rake GPU profile's rule for matrix products: in device code, an
    accumulation C[i, j] += A[i, k] * B[k, j] (a gpuir.reduce of a product
    of two reads, through float casts, or a write of read(C) + product back
    to C) inside loops over rows, columns and a sum of at least 8 iterations
    each runs on tensor-core instructions. Such a nest left on the CUDA
    cores is an error naming its loops and what to write instead: a
    replace by mma_sync or wgmma, or a `slow` loop around it (`gpuir.for %k
    = 0 to 64 : seq slow { ... }`), the one place where a matrix product
    may run on the CUDA cores. Code generation (convert-gpuir-to-nvvm)
    checks it too.
  }];
  let options = [
    Option<"profile", "profile", "std::string", "\"nvidia-ptx-sm90a\"",
           "the profile named in reports">,
  ];
  let dependentDialects = ["::mlir::rake::gpuir::GpuIRDialect"];
}

def SyncCheckPass : Pass<"rake-sync-check", "::mlir::ModuleOp"> {
  let summary = "Check that the synchronization keeps each procedure equal to its sequential reading";
  let description = [{
    Translates each `gpuir.proc` to the abstract machine (as
    `convert-gpuir-to-amir` does, without keeping the result) and
    interprets it, and interprets each `amir.proc` as it is, for concrete
    values of the control parameters: the `sizes` option
    (`sizes=M=960,N=800,K=720`; several sets separated by `;`) or the
    procedure's `gpuir.check_sizes` attribute, a list of dictionaries
    (for example `gpuir.check_sizes = [{M = 960, N = 800, K = 720} ]`).
    Parameters are named by their SSA
    names.

    Each hazard is an error at the later access, naming its kind (RAW, WAR,
    WAW, use after free, free without arrive, free without sync, await
    without matching arrive, arrive count mismatch), the threads and the
    elements, with notes at the earlier access and at the synchronization
    that was too weak. A program that passes prints nothing (with
    `summary`, a remark of what was checked) and is left unchanged.

    Tasks whose accesses are translates of each other are checked by one
    representative (`symmetry`, on by default; docs/SyncCheck.md says why
    that is sound); what the reduction cannot prove is interpreted task by
    task, so the verdict and the reports do not depend on it.
  }];
  let options = [
    Option<"sizes", "sizes", "std::string", /*default=*/"\"\"",
           "Values of the control parameters: name=value,...; sets separated by ';'">,
    Option<"maxErrors", "max-errors", "unsigned", /*default=*/"1",
           "Stop after this many hazards per procedure and size set (0: no limit)">,
    Option<"symmetry", "symmetry", "bool", /*default=*/"true",
           "Interpret one task of each class of equivalent tasks and prove the rest by translation (docs/SyncCheck.md); false: interpret every task. Verdicts and reports are the same">,
    Option<"budget", "budget", "double", /*default=*/"0",
           "Stop a check that runs longer than this many seconds, with an error saying it proved nothing (0: no limit)">,
    Option<"progress", "progress", "bool", /*default=*/"false",
           "Print the tasks interpreted so far on stderr during a long check (also when stderr is a terminal)">,
    Option<"allSizes", "all-sizes", "bool", /*default=*/"false",
           "Prove each procedure for every size of its task grid (the parameters its task loops run to), the others at the values given; refuse, with the reason, a procedure the argument does not fit (docs/SyncCheck.md)">,
    Option<"summary", "summary", "bool", /*default=*/"false",
           "Remark, per procedure and size set, what the check covered: tasks, classes of equivalent tasks, tasks interpreted">,
    Option<"requireTasks", "require-tasks", "bool", /*default=*/"false",
           "A size set at which a kernel runs no task is an error, not a warning (rake-bundle: a bundle's check must cover tasks)">,
  ];
  let dependentDialects = ["::mlir::rake::amir::AMIRDialect",
                           "::mlir::rake::gpuir::GpuIRDialect"];
}

#endif // RAKE_TRANSFORMS_PASSES
