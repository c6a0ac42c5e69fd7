// The schedule of examples/gemm_sm90a_tma.mlir, applied to
// gemm_sm90a_tma_seq.mlir. Each step keeps the sequential meaning (or the
// transform refuses); --rake-check proves the parallel program the result
// is. Handles name loop ops: a reorder or permutation swaps the loops'
// headers in place, so loops are found again by name where needed.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %proc = transform.structured.match ops{["gpuir.proc"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.gpuir.set_memory #gpuir.gmem for "A" in %proc : !transform.any_op
    transform.gpuir.set_memory #gpuir.gmem for "Bt" in %proc : !transform.any_op
    transform.gpuir.set_memory #gpuir.gmem for "C" in %proc : !transform.any_op
    // Tiles: 256 rows of A and C by %m, 128 columns by %n, 64 of K by %kt.
    %i = transform.gpuir.loop "i" in %proc : (!transform.any_op) -> !transform.any_op
    %m, %ii = transform.gpuir.divide_loop %i by 256 names("m", "ii") : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %j = transform.gpuir.loop "j" in %proc : (!transform.any_op) -> !transform.any_op
    %n, %jj = transform.gpuir.divide_loop %j by 128 names("n", "jj") : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %k = transform.gpuir.loop "k" in %proc : (!transform.any_op) -> !transform.any_op
    %kt, %kk = transform.gpuir.divide_loop %k by 64 names("kt", "kk") : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %n1, %ii1 = transform.gpuir.reorder_loops %ii : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // The zero of C apart from the sums, the sums over %kt outside the tile.
    %w = transform.structured.match ops{["gpuir.write"]} in %proc : (!transform.any_op) -> !transform.any_op
    %z1, %s1 = transform.gpuir.fission %w : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %z2, %s2 = transform.gpuir.fission %z1 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %s3 = transform.gpuir.permute_loops %s2 [2, 0, 1, 3] : (!transform.any_op) -> !transform.any_op
    // A CTA of four warpgroups per tile.
    %fn = transform.gpuir.wrap_device_function %m block(512) blocks_per_sm(1) : (!transform.any_op) -> !transform.any_op
    transform.gpuir.set_loop_mode %m cuda_tasks : !transform.any_op
    transform.gpuir.set_loop_mode %n1 cuda_tasks : !transform.any_op
    // The tile of C accumulates in registers: no copy-in (the zero writes
    // it all), a copy-out after the sums.
    %D, %none = transform.gpuir.stage_mem %z2 through %s3 "C" [256, 128] #gpuir.rmem as "D" : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    // The tiles of A and Bt of one %kt in shared memory, 128-byte swizzled.
    %body = transform.gpuir.loop "ii" in %s3 : (!transform.any_op) -> !transform.any_op
    %As, %ca = transform.gpuir.stage_mem %body "A" [256, 64] #gpuir.smem_swizzled<128> as "As" : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %Bs, %cb = transform.gpuir.stage_mem %body "Bt" [128, 64] #gpuir.smem_swizzled<128> as "Bs" : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // Rings of 4 stages, slice %kt in stage %kt mod 4, filled by TMA
    // completing on the stage's mbarrier.
    %kt0 = transform.gpuir.loop "kt" in %proc : (!transform.any_op) -> !transform.any_op
    %full = transform.gpuir.alloc_barrier before %kt0 !gpuir.barrier<mbarrier [4]> as "full" : (!transform.any_op) -> !transform.any_op
    %mma = transform.gpuir.alloc_barrier before %kt0 !gpuir.barrier<wgmma_group> as "mma" : (!transform.any_op) -> !transform.any_op
    transform.gpuir.expand_dim %As 4 index(affine_map<(kt) -> (kt mod 4)>) of ["kt"] : !transform.any_op
    transform.gpuir.expand_dim %Bs 4 index(affine_map<(kt) -> (kt mod 4)>) of ["kt"] : !transform.any_op
    transform.gpuir.lift_alloc %As : !transform.any_op
    transform.gpuir.lift_alloc %Bs : !transform.any_op
    %ta = transform.gpuir.add_loop %ca 1 name("t") : (!transform.any_op) -> !transform.any_op
    %tb = transform.gpuir.add_loop %cb 1 name("tb") : (!transform.any_op) -> !transform.any_op
    %t = transform.gpuir.fuse %ta : (!transform.any_op) -> !transform.any_op
    transform.gpuir.set_loop_mode %t cuda_threads<#gpuir.unit<thread>> : !transform.any_op
    %tma_a = transform.gpuir.replace %ca with "gpuir.sm90a.tma_load" ["As", "A"] barrier "full" coords(affine_map<(kt) -> (kt mod 4)>) of ["kt"] : (!transform.any_op) -> !transform.any_op
    %tma_b = transform.gpuir.replace %cb with "gpuir.sm90a.tma_load" ["Bs", "Bt"] barrier "full" coords(affine_map<(kt) -> (kt mod 4)>) of ["kt"] : (!transform.any_op) -> !transform.any_op
    transform.gpuir.simplify %t : !transform.any_op
    // D in the wgmma accumulator layout: [warpgroup][thread][register],
    // row 64 w + 16 a + 8 b + c, column 8 j + 2 e + f held by thread
    // 32 a + 4 c + e of warpgroup w in register 4 j + 2 b + f.
    transform.gpuir.divide_dim %D 0 by 64 : !transform.any_op
    transform.gpuir.divide_dim %D 1 by 16 : !transform.any_op
    transform.gpuir.divide_dim %D 2 by 8 : !transform.any_op
    transform.gpuir.divide_dim %D 4 by 8 : !transform.any_op
    transform.gpuir.divide_dim %D 5 by 2 : !transform.any_op
    transform.gpuir.rearrange_dim %D [0, 1, 3, 5, 4, 2, 6] : !transform.any_op
    transform.gpuir.mult_dim %D 1 : !transform.any_op
    transform.gpuir.mult_dim %D 1 : !transform.any_op
    transform.gpuir.mult_dim %D 2 : !transform.any_op
    transform.gpuir.mult_dim %D 2 : !transform.any_op
    // The products: a warpgroup's 64 rows, 16 of K at a time, as wgmma.
    %wm, %ii2 = transform.gpuir.divide_loop %body by 64 names("wm", "ii") : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %kk0 = transform.gpuir.loop "kk" in %body : (!transform.any_op) -> !transform.any_op
    %kko, %kki = transform.gpuir.divide_loop %kk0 by 16 names("kk", "k16") : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %perm = transform.gpuir.permute_loops %ii2 [2, 0, 1, 3] : (!transform.any_op) -> !transform.any_op
    transform.gpuir.set_loop_mode %wm cuda_threads<#gpuir.unit<warpgroup>> : !transform.any_op
    transform.gpuir.simplify %wm : !transform.any_op
    %prod = transform.gpuir.loop "ii" in %wm : (!transform.any_op) -> !transform.any_op
    %wgmma = transform.gpuir.replace %prod with "gpuir.sm90a.wgmma" ["D", "As", "Bs"] : (!transform.any_op) -> !transform.any_op
    // Synchronization: wait for the stage's TMA, order the wgmmas after the
    // accumulators' last writes, commit them, leave one group in flight.
    %kko2 = transform.gpuir.loop "kk" in %wm : (!transform.any_op) -> !transform.any_op
    %got = transform.gpuir.insert_await before %kko2 "full" wgmma_async coords(affine_map<(kt) -> (kt mod 4)>) of ["kt"] : (!transform.any_op) -> !transform.any_op
    %wf = transform.gpuir.insert_fence before %kko2 wgmma_fence_1 -> wgmma_fence_2 : (!transform.any_op) -> !transform.any_op
    %commit = transform.gpuir.insert_arrive after %kko2 wgmma_async >> "mma" : (!transform.any_op) -> !transform.any_op
    %inflight = transform.gpuir.insert_await after %commit "mma" cuda_in_order outstanding(1) : (!transform.any_op) -> !transform.any_op
    // The TMA of slice %kt runs two iterations ahead of its products.
    %kt1 = transform.gpuir.skew %t by 2 : (!transform.any_op) -> !transform.any_op
    %load = transform.get_parent_op %t {op_name = "gpuir.if"} : (!transform.any_op) -> !transform.any_op
    %pf = transform.gpuir.insert_fence before %load cuda_in_order -> cuda_generic_and_async_proxy : (!transform.any_op) -> !transform.any_op

    // The zero and the copy-out over warpgroups, threads and registers.
    %z0 = transform.gpuir.loop "ii" in %n1 occurrence(0) : (!transform.any_op) -> !transform.any_op
    %zw, %zr0 = transform.gpuir.divide_loop %z0 by 64 names("zw", "zr0") : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %za, %zr1 = transform.gpuir.divide_loop %zr0 by 16 names("za", "zr1") : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %zb, %zc = transform.gpuir.divide_loop %zr1 by 8 names("zb", "zc") : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %zcol = transform.gpuir.loop "jj" in %zw : (!transform.any_op) -> !transform.any_op
    %zj, %zq = transform.gpuir.divide_loop %zcol by 8 names("zj", "zq") : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %ze, %zf = transform.gpuir.divide_loop %zq by 2 names("ze", "zf") : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %zp = transform.gpuir.permute_loops %zw [0, 1, 3, 5, 4, 2, 6] : (!transform.any_op) -> !transform.any_op
    transform.gpuir.simplify %zw : !transform.any_op
    %zac = transform.gpuir.loop "za" in %zw : (!transform.any_op) -> !transform.any_op
    %zt0 = transform.gpuir.mult_loops %zac : (!transform.any_op) -> !transform.any_op
    transform.gpuir.simplify %zw : !transform.any_op
    %zt = transform.gpuir.mult_loops %zt0 name("t") : (!transform.any_op) -> !transform.any_op
    %zjb = transform.gpuir.loop "zj" in %zw : (!transform.any_op) -> !transform.any_op
    %zr2 = transform.gpuir.mult_loops %zjb : (!transform.any_op) -> !transform.any_op
    transform.gpuir.simplify %zw : !transform.any_op
    %zr = transform.gpuir.mult_loops %zr2 name("r") : (!transform.any_op) -> !transform.any_op
    transform.gpuir.set_loop_mode %zw cuda_threads<#gpuir.unit<warpgroup>> : !transform.any_op
    transform.gpuir.set_loop_mode %zt cuda_threads<#gpuir.unit<thread>> : !transform.any_op
    transform.gpuir.simplify %zw : !transform.any_op

    %o0 = transform.gpuir.loop "D0" in %n1 : (!transform.any_op) -> !transform.any_op
    %ow, %or0 = transform.gpuir.divide_loop %o0 by 64 names("ow", "or0") : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %oa, %or1 = transform.gpuir.divide_loop %or0 by 16 names("oa", "or1") : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %ob, %oc = transform.gpuir.divide_loop %or1 by 8 names("ob", "oc") : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %o1 = transform.gpuir.loop "D1" in %ow : (!transform.any_op) -> !transform.any_op
    %oj, %oq = transform.gpuir.divide_loop %o1 by 8 names("j", "oq") : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %oe, %of = transform.gpuir.divide_loop %oq by 2 names("oe", "of") : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %op = transform.gpuir.permute_loops %ow [0, 1, 3, 5, 4, 2, 6] : (!transform.any_op) -> !transform.any_op
    transform.gpuir.simplify %ow : !transform.any_op
    %oac = transform.gpuir.loop "oa" in %ow : (!transform.any_op) -> !transform.any_op
    %ot0 = transform.gpuir.mult_loops %oac : (!transform.any_op) -> !transform.any_op
    transform.gpuir.simplify %ow : !transform.any_op
    %ot = transform.gpuir.mult_loops %ot0 name("t") : (!transform.any_op) -> !transform.any_op
    %obf = transform.gpuir.loop "ob" in %ow : (!transform.any_op) -> !transform.any_op
    %oi = transform.gpuir.mult_loops %obf name("i") : (!transform.any_op) -> !transform.any_op
    transform.gpuir.set_loop_mode %ow cuda_threads<#gpuir.unit<warpgroup>> : !transform.any_op
    transform.gpuir.set_loop_mode %ot cuda_threads<#gpuir.unit<thread>> : !transform.any_op
    transform.gpuir.simplify %ow : !transform.any_op
    %drain = transform.gpuir.insert_await before %ot "mma" cuda_in_order outstanding(0) : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
