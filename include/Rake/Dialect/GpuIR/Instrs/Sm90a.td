//===- Sm90a.td - the Sm90a instruction set ----------------*- tablegen -*-===//
//
// Hopper's warpgroup matrix multiply (wgmma) as a GpuIR instruction op. Its
// shared-memory operands are in the canonical no-swizzle K-major layout of
// 8x8 core matrices, written as four-dimensional buffers: (rows / 8) x
// (K / 8) x 8 x 8, element (r, k) at [r / 8][k / 8][r mod 8][k mod 8]. Its
// accumulator is the warpgroup's register fragment: 128 rows (one per
// thread) of N / 2 floats.
//
//===----------------------------------------------------------------------===//

#ifndef RAKE_GPUIR_SM90A
#define RAKE_GPUIR_SM90A

include "mlir/IR/OpBase.td"
include "Rake/Dialect/GpuIR/IR/Dialect.td"
include "Rake/Dialect/GpuIR/IR/Interfaces.td"

def Sm90a_WgmmaOp : Op<GpuIR_Dialect, "sm90a.wgmma",
    [DeclareOpInterfaceMethods<GpuIR_InstrOpInterface,
                               ["buildSequential", "buildDevice"]>]> {
  let summary = "D += A * B for one m64nNk16 tile of f16 or bf16, by a warpgroup, asynchronously";
  let description = [{
    The warpgroup multiplies a 64 x 16 tile of A by a 16 x N tile of B from
    shared memory and adds the product to its f32 accumulators
    (`wgmma.mma_async.sync.aligned.m64nNk16.f32`, N a multiple of 8 up to
    256). `a` is 8 x 2 x 8 x 8 (A's element (m, k) at
    [m / 8][k / 8][m mod 8][k mod 8]); `b` holds B transposed, N / 8 x 2 x
    8 x 8 (B's element (k, n) at [n / 8][k / 8][n mod 8][k mod 8]); the
    8 x 8 core matrices must be contiguous (strides 8, 1), the rest of each
    operand's strides become the descriptor's byte offsets. `d` is 128 x
    N / 2 f32: thread t of the warpgroup (warp w = t / 32, lane l = t mod 32,
    g = l / 4, q = l mod 4) holds in register 4 j + i the element
    (16 w + g + 8 (i / 2), 8 j + 2 q + i mod 2).

    The instruction runs on the wgmma_async timeline: order it after the
    accumulators' in-order accesses with `gpuir.fence wgmma_fence_1 ->
    wgmma_fence_2` (wgmma.fence), its shared-memory operands after the
    accesses that wrote them with a fence or await whose second timeline
    covers the async proxy, and wait for it on a `wgmma_group` barrier
    (commit_group / wait_group). The sequential behavior adds the 16
    products of each element in order of k, in f32.
  }];
  let arguments = (ins AnyMemRef:$d, AnyMemRef:$a, AnyMemRef:$b);
  let assemblyFormat = [{
    $d `,` $a `,` $b attr-dict `:` type($d) `,` type($a) `,` type($b)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// N of the m64nNk16 shape.
    int64_t getN();
  }];
}

#endif // RAKE_GPUIR_SM90A
