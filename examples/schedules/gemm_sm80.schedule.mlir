// The schedule of examples/gemm_sm80.mlir, applied to gemm_sm80_seq.mlir.
// Each step keeps the sequential meaning (or the transform refuses);
// --rake-check proves the parallel program the result is. Handles name loop
// ops: a reorder or permutation swaps the loops' headers in place, so loops
// are found again by name where needed.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %proc = transform.structured.match ops{["gpuir.proc"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.gpuir.set_memory #gpuir.gmem for "A" in %proc : !transform.any_op
    transform.gpuir.set_memory #gpuir.gmem for "B" in %proc : !transform.any_op
    transform.gpuir.set_memory #gpuir.gmem for "C" in %proc : !transform.any_op
    // Tiles: 128 rows of A and C by %m, 128 columns by %n, 32 of K by %kt.
    %i = transform.gpuir.loop "i" in %proc : (!transform.any_op) -> !transform.any_op
    %m, %ii = transform.gpuir.divide_loop %i by 128 names("m", "ii") : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %j = transform.gpuir.loop "j" in %proc : (!transform.any_op) -> !transform.any_op
    %n, %jj = transform.gpuir.divide_loop %j by 128 names("n", "jj") : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %k = transform.gpuir.loop "k" in %proc : (!transform.any_op) -> !transform.any_op
    %kt, %kk = transform.gpuir.divide_loop %k by 32 names("kt", "kk") : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %n1, %ii1 = transform.gpuir.reorder_loops %ii : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // The zero of C apart from the sums, the sums over %kt outside the tile.
    %w = transform.structured.match ops{["gpuir.write"]} in %proc : (!transform.any_op) -> !transform.any_op
    %z1, %s1 = transform.gpuir.fission %w : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %z2, %s2 = transform.gpuir.fission %z1 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %s3 = transform.gpuir.permute_loops %s2 [2, 0, 1, 3] : (!transform.any_op) -> !transform.any_op
    // A CTA of four warps per tile, two CTAs an SM.
    %fn = transform.gpuir.wrap_device_function %m block(128) blocks_per_sm(2) : (!transform.any_op) -> !transform.any_op
    transform.gpuir.set_loop_mode %m cuda_tasks : !transform.any_op
    transform.gpuir.set_loop_mode %n1 cuda_tasks : !transform.any_op
    // The tile of C accumulates in registers (no copy-in: the zero writes it
    // all); the slices of A and B in shared memory, rows padded by 8
    // elements so that the 8 rows an ldmatrix reads fall in distinct banks.
    %D, %none = transform.gpuir.stage_mem %z2 through %s3 "C" [128, 128] #gpuir.rmem as "D" : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %body = transform.gpuir.loop "ii" in %s3 : (!transform.any_op) -> !transform.any_op
    %As, %ca = transform.gpuir.stage_mem %body "A" [128, 32] #gpuir.smem as "As" padding [0, 8] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %Bs, %cb = transform.gpuir.stage_mem %body "B" [32, 128] #gpuir.smem as "Bs" padding [0, 8] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // Warp (wm, wn) computes a 64 x 64 part, 16 of K at a time; each step's
    // fragments of A (64 x 16) and B (16 x 64) staged in registers.
    %wm, %ii2 = transform.gpuir.divide_loop %body by 64 names("wm", "ii") : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %jj0 = transform.gpuir.loop "jj" in %wm : (!transform.any_op) -> !transform.any_op
    %wn, %jj2 = transform.gpuir.divide_loop %jj0 by 64 names("wn", "jj") : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %kk0 = transform.gpuir.loop "kk" in %wm : (!transform.any_op) -> !transform.any_op
    %kko, %kki = transform.gpuir.divide_loop %kk0 by 16 names("kk", "k16") : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %perm = transform.gpuir.permute_loops %wm [0, 2, 4, 1, 3, 5] : (!transform.any_op) -> !transform.any_op
    transform.gpuir.set_loop_mode %wm cuda_threads<#gpuir.unit<2 x warp>> : !transform.any_op
    %wn1 = transform.gpuir.loop "wn" in %wm : (!transform.any_op) -> !transform.any_op
    transform.gpuir.set_loop_mode %wn1 cuda_threads<#gpuir.unit<warp>> : !transform.any_op
    %prod = transform.gpuir.loop "ii" in %wm : (!transform.any_op) -> !transform.any_op
    %Af, %cfa = transform.gpuir.stage_mem %prod "As" [64, 16] #gpuir.rmem as "Af" : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %Bf, %cfb = transform.gpuir.stage_mem %prod "Bs" [16, 64] #gpuir.rmem as "Bf" : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // The fragments in the layouts ldmatrix fills and mma.sync takes:
    // [lane][tile][register], row 16 i + 8 b + g, column 8 c + 2 e + f of
    // A's held by lane 4 g + e in register 4 c + 2 b + f of tile i; B's
    // transposed alike; one copy per warp (expand_dim by wm and wn).
    transform.gpuir.divide_dim %Af 0 by 16 : !transform.any_op
    transform.gpuir.divide_dim %Af 1 by 8 : !transform.any_op
    transform.gpuir.divide_dim %Af 3 by 8 : !transform.any_op
    transform.gpuir.divide_dim %Af 4 by 2 : !transform.any_op
    transform.gpuir.rearrange_dim %Af [2, 4, 0, 3, 1, 5] : !transform.any_op
    transform.gpuir.mult_dim %Af 0 : !transform.any_op
    transform.gpuir.mult_dim %Af 2 : !transform.any_op
    transform.gpuir.mult_dim %Af 2 : !transform.any_op
    transform.gpuir.divide_dim %Bf 0 by 8 : !transform.any_op
    transform.gpuir.divide_dim %Bf 1 by 2 : !transform.any_op
    transform.gpuir.divide_dim %Bf 3 by 16 : !transform.any_op
    transform.gpuir.divide_dim %Bf 4 by 8 : !transform.any_op
    transform.gpuir.rearrange_dim %Bf [5, 1, 3, 4, 0, 2] : !transform.any_op
    transform.gpuir.mult_dim %Bf 0 : !transform.any_op
    transform.gpuir.mult_dim %Bf 2 : !transform.any_op
    transform.gpuir.mult_dim %Bf 2 : !transform.any_op
    transform.gpuir.expand_dim %Af 2 index(affine_map<(wn) -> (wn)>) of ["wn"] : !transform.any_op
    transform.gpuir.expand_dim %Af 2 index(affine_map<(wm) -> (wm)>) of ["wm"] : !transform.any_op
    transform.gpuir.expand_dim %Bf 2 index(affine_map<(wn) -> (wn)>) of ["wn"] : !transform.any_op
    transform.gpuir.expand_dim %Bf 2 index(affine_map<(wm) -> (wm)>) of ["wm"] : !transform.any_op
    // D in the mma.sync accumulator layout: [wm][wn][lane][i][j][register],
    // row 64 wm + 16 i + 8 b + g, column 64 wn + 8 j + 2 e + f held by lane
    // 4 g + e in register 2 b + f.
    transform.gpuir.divide_dim %D 0 by 64 : !transform.any_op
    transform.gpuir.divide_dim %D 1 by 16 : !transform.any_op
    transform.gpuir.divide_dim %D 2 by 8 : !transform.any_op
    transform.gpuir.divide_dim %D 4 by 64 : !transform.any_op
    transform.gpuir.divide_dim %D 5 by 8 : !transform.any_op
    transform.gpuir.divide_dim %D 6 by 2 : !transform.any_op
    transform.gpuir.rearrange_dim %D [0, 4, 3, 6, 1, 5, 2, 7] : !transform.any_op
    transform.gpuir.mult_dim %D 2 : !transform.any_op
    transform.gpuir.mult_dim %D 5 : !transform.any_op
    transform.gpuir.simplify %wm : !transform.any_op
    // The register buffers live for the whole tile (a part per warp).
    transform.gpuir.lift_alloc %Af : !transform.any_op
    transform.gpuir.lift_alloc %Af : !transform.any_op
    transform.gpuir.lift_alloc %Af : !transform.any_op
    transform.gpuir.lift_alloc %Af : !transform.any_op
    transform.gpuir.lift_alloc %Bf : !transform.any_op
    transform.gpuir.lift_alloc %Bf : !transform.any_op
    transform.gpuir.lift_alloc %Bf : !transform.any_op
    transform.gpuir.lift_alloc %Bf : !transform.any_op
    // The products: each 16 x 8 x 16 product (tile i of A, half c of B's
    // tile jj) replaced by an mma.sync; each 16 x 16 fragment copy by an
    // ldmatrix (transposed for B).
    %prod1 = transform.gpuir.loop "ii" in %wm : (!transform.any_op) -> !transform.any_op
    %pi, %pr = transform.gpuir.divide_loop %prod1 by 16 names("i", "r16") : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %pj0 = transform.gpuir.loop "jj" in %pi : (!transform.any_op) -> !transform.any_op
    %pjj, %pn = transform.gpuir.divide_loop %pj0 by 16 names("jj", "n16") : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %pc, %pc8 = transform.gpuir.divide_loop %pn by 8 names("c", "c8") : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %pp = transform.gpuir.permute_loops %pi [0, 2, 3, 1, 4, 5] : (!transform.any_op) -> !transform.any_op
    transform.gpuir.simplify %wm : !transform.any_op
    %mnest = transform.gpuir.loop "r16" in %pi : (!transform.any_op) -> !transform.any_op
    %mma = transform.gpuir.replace %mnest with "gpuir.sm80.mma_sync" ["D", "Af", "Bf"] : (!transform.any_op) -> !transform.any_op
    %fa0 = transform.gpuir.loop "Af0" in %wm : (!transform.any_op) -> !transform.any_op
    %fai, %far = transform.gpuir.divide_loop %fa0 by 16 names("i", "Af0") : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.gpuir.simplify %fai : !transform.any_op
    %lda = transform.gpuir.replace %far with "gpuir.sm80.ldmatrix" ["Af", "As"] : (!transform.any_op) -> !transform.any_op
    %fb1 = transform.gpuir.loop "Bf1" in %wm : (!transform.any_op) -> !transform.any_op
    %fbj, %fbr = transform.gpuir.divide_loop %fb1 by 16 names("jj", "Bf1") : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fb0 = transform.gpuir.loop "Bf0" in %wm : (!transform.any_op) -> !transform.any_op
    %fbp = transform.gpuir.permute_loops %fb0 [1, 0, 2] : (!transform.any_op) -> !transform.any_op
    transform.gpuir.simplify %fb0 : !transform.any_op
    %fbk = transform.gpuir.loop "Bf0" in %wm : (!transform.any_op) -> !transform.any_op
    %ldb = transform.gpuir.replace %fbk with "gpuir.sm80.ldmatrix" ["Bf", "Bs"] attrs {trans} : (!transform.any_op) -> !transform.any_op
    // Double buffering: stage kt mod 2 holds slice kt, the stages live
    // for the whole tile.
    transform.gpuir.expand_dim %As 2 index(affine_map<(kt) -> (kt mod 2)>) of ["kt"] : !transform.any_op
    transform.gpuir.expand_dim %Bs 2 index(affine_map<(kt) -> (kt mod 2)>) of ["kt"] : !transform.any_op
    transform.gpuir.lift_alloc %As : !transform.any_op
    transform.gpuir.lift_alloc %Bs : !transform.any_op
    // The copies of a slice in 16-byte chunks over the CTA's 128 threads
    // (chunk 128 c + t, 4 for each thread), replaced by cp.async; A's and
    // B's in one loop.
    %ca1 = transform.gpuir.loop "As1" in %proc : (!transform.any_op) -> !transform.any_op
    %caq, %cae = transform.gpuir.divide_loop %ca1 by 8 names("q", "e") : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %ca0 = transform.gpuir.loop "As0" in %proc : (!transform.any_op) -> !transform.any_op
    %cax = transform.gpuir.mult_loops %ca0 name("x") : (!transform.any_op) -> !transform.any_op
    %cac, %cat = transform.gpuir.divide_loop %cax by 128 names("c", "t") : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %cat1, %cac1 = transform.gpuir.reorder_loops %cac : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %cpa = transform.gpuir.replace %cae with "gpuir.sm80.cp_async" ["As", "A"] : (!transform.any_op) -> !transform.any_op
    %cb1 = transform.gpuir.loop "Bs1" in %proc : (!transform.any_op) -> !transform.any_op
    %cbq, %cbe = transform.gpuir.divide_loop %cb1 by 8 names("q", "e") : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %cb0 = transform.gpuir.loop "Bs0" in %proc : (!transform.any_op) -> !transform.any_op
    %cbx = transform.gpuir.mult_loops %cb0 name("x") : (!transform.any_op) -> !transform.any_op
    %cbc, %cbt = transform.gpuir.divide_loop %cbx by 128 names("c", "t") : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %cbt1, %cbc1 = transform.gpuir.reorder_loops %cbc : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %cpb = transform.gpuir.replace %cbe with "gpuir.sm80.cp_async" ["Bs", "B"] : (!transform.any_op) -> !transform.any_op
    %t0 = transform.gpuir.loop "t" in %proc : (!transform.any_op) -> !transform.any_op
    %t = transform.gpuir.fuse %t0 : (!transform.any_op) -> !transform.any_op
    %c0 = transform.gpuir.loop "c" in %t : (!transform.any_op) -> !transform.any_op
    %c = transform.gpuir.fuse %c0 : (!transform.any_op) -> !transform.any_op
    transform.gpuir.set_loop_mode %t cuda_threads<#gpuir.unit<thread>> : !transform.any_op
    transform.gpuir.simplify %t : !transform.any_op
    // The copies of slice kt + 1 issued before the products of slice kt
    // (skew by one: refused were a stage overwritten while read); each
    // iteration waits for its own groups and meets the CTA first (the
    // slice landed for every thread, the stage it refills no longer read).
    %kt0 = transform.gpuir.loop "kt" in %proc : (!transform.any_op) -> !transform.any_op
    %cg = transform.gpuir.alloc_barrier before %kt0 !gpuir.barrier<cp_async_group> as "cg" : (!transform.any_op) -> !transform.any_op
    %kt1 = transform.gpuir.skew %t by 1 : (!transform.any_op) -> !transform.any_op
    %load = transform.get_parent_op %t {op_name = "gpuir.if"} : (!transform.any_op) -> !transform.any_op
    %commit = transform.gpuir.insert_arrive after %t Sm80_cp_async >> "cg" : (!transform.any_op) -> !transform.any_op
    %landed = transform.gpuir.insert_await before %load "cg" cuda_in_order outstanding(0) : (!transform.any_op) -> !transform.any_op
    %meet = transform.gpuir.insert_fence before %load cuda_in_order -> cuda_in_order : (!transform.any_op) -> !transform.any_op

    // The zero and the copy-out over warps, lanes and registers.
    %z0 = transform.gpuir.loop "ii" in %n1 occurrence(0) : (!transform.any_op) -> !transform.any_op
    %zw, %zr0 = transform.gpuir.divide_loop %z0 by 64 names("zw", "zr0") : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %zi, %zr1 = transform.gpuir.divide_loop %zr0 by 16 names("i", "zr1") : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %zb, %zg = transform.gpuir.divide_loop %zr1 by 8 names("zb", "zg") : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %zcol = transform.gpuir.loop "jj" in %zw : (!transform.any_op) -> !transform.any_op
    %zwn, %zq0 = transform.gpuir.divide_loop %zcol by 64 names("zwn", "zq0") : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %zj, %zq = transform.gpuir.divide_loop %zq0 by 8 names("j", "zq") : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %ze, %zf = transform.gpuir.divide_loop %zq by 2 names("ze", "zf") : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %zp = transform.gpuir.permute_loops %zw [0, 4, 3, 6, 1, 5, 2, 7] : (!transform.any_op) -> !transform.any_op
    transform.gpuir.simplify %zw : !transform.any_op
    %zgl = transform.gpuir.loop "zg" in %zw : (!transform.any_op) -> !transform.any_op
    %zl = transform.gpuir.mult_loops %zgl name("l") : (!transform.any_op) -> !transform.any_op
    transform.gpuir.simplify %zw : !transform.any_op
    %zbl = transform.gpuir.loop "zb" in %zw : (!transform.any_op) -> !transform.any_op
    %zr = transform.gpuir.mult_loops %zbl name("r") : (!transform.any_op) -> !transform.any_op
    transform.gpuir.simplify %zw : !transform.any_op
    %zwn1 = transform.gpuir.loop "zwn" in %zw : (!transform.any_op) -> !transform.any_op
    %zl1 = transform.gpuir.loop "l" in %zw : (!transform.any_op) -> !transform.any_op
    transform.gpuir.set_loop_mode %zw cuda_threads<#gpuir.unit<2 x warp>> : !transform.any_op
    transform.gpuir.set_loop_mode %zwn1 cuda_threads<#gpuir.unit<warp>> : !transform.any_op
    transform.gpuir.set_loop_mode %zl1 cuda_threads<#gpuir.unit<thread>> : !transform.any_op
    %o0 = transform.gpuir.loop "D0" in %n1 : (!transform.any_op) -> !transform.any_op
    %ow, %or0 = transform.gpuir.divide_loop %o0 by 64 names("ow", "or0") : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %oi, %or1 = transform.gpuir.divide_loop %or0 by 16 names("i", "or1") : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %ob, %og = transform.gpuir.divide_loop %or1 by 8 names("ob", "og") : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %ocol = transform.gpuir.loop "D1" in %ow : (!transform.any_op) -> !transform.any_op
    %own, %oq0 = transform.gpuir.divide_loop %ocol by 64 names("own", "oq0") : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %oj, %oq = transform.gpuir.divide_loop %oq0 by 8 names("j", "oq") : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %oe, %of = transform.gpuir.divide_loop %oq by 2 names("oe", "of") : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %op = transform.gpuir.permute_loops %ow [0, 4, 3, 6, 1, 5, 2, 7] : (!transform.any_op) -> !transform.any_op
    transform.gpuir.simplify %ow : !transform.any_op
    %ogl = transform.gpuir.loop "og" in %ow : (!transform.any_op) -> !transform.any_op
    %ol = transform.gpuir.mult_loops %ogl name("l") : (!transform.any_op) -> !transform.any_op
    transform.gpuir.simplify %ow : !transform.any_op
    %obl = transform.gpuir.loop "ob" in %ow : (!transform.any_op) -> !transform.any_op
    %or = transform.gpuir.mult_loops %obl name("r") : (!transform.any_op) -> !transform.any_op
    transform.gpuir.simplify %ow : !transform.any_op
    %own1 = transform.gpuir.loop "own" in %ow : (!transform.any_op) -> !transform.any_op
    %ol1 = transform.gpuir.loop "l" in %ow : (!transform.any_op) -> !transform.any_op
    transform.gpuir.set_loop_mode %ow cuda_threads<#gpuir.unit<2 x warp>> : !transform.any_op
    transform.gpuir.set_loop_mode %own1 cuda_threads<#gpuir.unit<warp>> : !transform.any_op
    transform.gpuir.set_loop_mode %ol1 cuda_threads<#gpuir.unit<thread>> : !transform.any_op
    transform.yield
  }
}
