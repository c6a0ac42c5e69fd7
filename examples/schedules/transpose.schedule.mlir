// The schedule of examples/transpose.mlir, applied to transpose_seq.mlir:
// each step keeps the sequential meaning (or the transform refuses), and
// --rake-check proves the parallel program the last steps make equal to it.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %proc = transform.structured.match ops{["gpuir.proc"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.gpuir.set_memory #gpuir.gmem for "X" in %proc : !transform.any_op
    transform.gpuir.set_memory #gpuir.gmem for "Y" in %proc : !transform.any_op

    // 32x32 tiles: for %i, %j over tiles, %ii, %jj in a tile, guarded.
    %i = transform.gpuir.loop "i" in %proc : (!transform.any_op) -> !transform.any_op
    %io, %ii = transform.gpuir.divide_loop %i by 32 tail(guard) names("i", "ii") : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %j = transform.gpuir.loop "j" in %proc : (!transform.any_op) -> !transform.any_op
    %jo, %jj = transform.gpuir.divide_loop %j by 32 tail(guard) names("j", "jj") : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %jo2 = transform.gpuir.lift_scope %jo : (!transform.any_op) -> !transform.any_op
    %jo3, %ii2 = transform.gpuir.reorder_loops %ii : (!transform.any_op) -> (!transform.any_op, !transform.any_op)

    // A CTA of 256 threads per tile.
    %fn = transform.gpuir.wrap_device_function %io block(256) blocks_per_sm(4) : (!transform.any_op) -> !transform.any_op
    transform.gpuir.set_loop_mode %io cuda_tasks : !transform.any_op
    transform.gpuir.set_loop_mode %jo3 cuda_tasks : !transform.any_op

    // The tile of X in shared memory, a padding column against bank
    // conflicts; its copy by 8 warps x 32 lanes x 4 rows each.
    %tile, %copy = transform.gpuir.stage_mem %ii2 "X" [32, 32] #gpuir.smem as "tile" padding [0, 1] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %r = transform.gpuir.loop "tile0" in %proc : (!transform.any_op) -> !transform.any_op
    %w, %k = transform.gpuir.divide_loop %r by 4 names("w", "k") : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %l0, %k0 = transform.gpuir.reorder_loops %k : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.gpuir.set_loop_mode %w cuda_threads<#gpuir.unit<warp>> : !transform.any_op
    transform.gpuir.set_loop_mode %l0 cuda_threads<#gpuir.unit<thread>> : !transform.any_op
    %fence = transform.gpuir.insert_fence after %w cuda_in_order -> cuda_in_order : (!transform.any_op) -> !transform.any_op

    // The tile's columns as rows of Y: %jj = 4 %w + %k, %ii over lanes.
    %jj2 = transform.gpuir.lift_scope %jj : (!transform.any_op) -> !transform.any_op
    %store = transform.structured.match ops{["gpuir.write"]} in %ii2 : (!transform.any_op) -> !transform.any_op
    %inner_if = transform.get_parent_op %store {op_name = "gpuir.if"} : (!transform.any_op) -> !transform.any_op
    %gb2 = transform.gpuir.lift_scope %inner_if : (!transform.any_op) -> !transform.any_op
    transform.gpuir.simplify %ii2 : !transform.any_op
    %jj3, %ii3 = transform.gpuir.reorder_loops %ii2 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %w2, %k2 = transform.gpuir.divide_loop %jj3 by 4 names("w", "k") : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %l2, %k3 = transform.gpuir.reorder_loops %k2 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.gpuir.set_loop_mode %w2 cuda_threads<#gpuir.unit<warp>> : !transform.any_op
    transform.gpuir.set_loop_mode %l2 cuda_threads<#gpuir.unit<thread>> : !transform.any_op
    transform.yield
  }
}
