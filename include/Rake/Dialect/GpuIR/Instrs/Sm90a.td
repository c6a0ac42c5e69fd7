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
include "Rake/Dialect/GpuIR/IR/Types.td"

def Sm90a_WgmmaOp : Op<GpuIR_Dialect, "sm90a.wgmma",
    [DeclareOpInterfaceMethods<GpuIR_InstrOpInterface,
                               ["buildSequential", "buildDevice"]>]> {
  let summary = "D += A * B for one m64nNk16 tile of f16 or bf16 (m64nNk8 of tf32, m64nNk32 of e4m3, e5m2, s8 or u8), by a warpgroup, asynchronously";
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

    In the 128-byte swizzle (`#gpuir.smem_swizzled<128>`, rows of 128
    bytes) `a` is 64 x K and `b` N x K (B transposed), K the 32 bytes of
    one instruction: 16 f16 or bf16, or 8 f32 elements multiplied as tf32
    (`wgmma.mma_async.sync.aligned.m64nNk8.f32.tf32.tf32`; tf32 operands
    only in this layout). The tensor cores read a tf32 operand as the f32
    in memory without its 13 low significand bits, and so does the
    sequential behavior.

    8-bit operands, also only in the 128-byte swizzle, K = 32 elements:
    e4m3 and e5m2 (`f8E4M3FN`, `f8E5M2` elements, in any pairing) into f32
    accumulators (`...m64nNk32.f32.e4m3.e5m2`), or 8-bit integers (`i8`)
    into 128 x N / 2 `i32` accumulators (`...m64nNk32.s32.s8.s8`), read as
    two's complement s8, or as u8 where the op carries both `a_unsigned`
    and `b_unsigned` (`...s32.u8.u8`; PTX ISA 8.4 added s8 x u8, and the
    sm_90a profiles pin 8.0); N is then 8, 16, 24 or a multiple of 16 up to
    256. The sequential behavior decodes each e4m3 or e5m2 element exactly
    (their products are exact in f32) and adds the products in f32 in order
    of k; the hardware's FP8 accumulation keeps fewer significand bits than
    f32 (docs/Codegen.md gives what was measured on the H200), so a kernel equals its
    sequential meaning bit for bit only where the partial sums fit them. The
    integer products and sums are exact modulo 2^32 (no saturation), on the
    hardware and in the sequential behavior.

    The instruction runs on the wgmma_async timeline: order it after the
    accumulators' in-order accesses with `gpuir.fence wgmma_fence_1 ->
    wgmma_fence_2` (wgmma.fence), its shared-memory operands after the
    accesses that wrote them with a fence or await whose second timeline
    covers the async proxy, and wait for it on a `wgmma_group` barrier
    (commit_group / wait_group). The sequential behavior adds the K
    products of each element in order of k, in f32 (each product of two
    f16, bf16 or tf32 values is exact in f32).

    With `zero_init` the instruction computes D = A * B: the accumulators'
    old values are neither read nor added (wgmma's scale-d = 0), so the
    first product of a tile needs no zeroing of the registers before it;
    for the check it writes `d` without reading it.
  }];
  let arguments = (ins AnyMemRef:$d, AnyMemRef:$a, AnyMemRef:$b,
                       UnitAttr:$a_unsigned, UnitAttr:$b_unsigned,
                       UnitAttr:$zero_init);
  let assemblyFormat = [{
    $d `,` $a `,` $b attr-dict `:` type($d) `,` type($a) `,` type($b)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// N of the m64nNkK shape.
    int64_t getN();
    /// K of the m64nNkK shape: 32 bytes of elements.
    int64_t getK();
  }];
}

def Sm90a_TmaLoadOp : Op<GpuIR_Dialect, "sm90a.tma_load",
    [DeclareOpInterfaceMethods<GpuIR_InstrOpInterface,
                               ["buildSequential", "buildDevice",
                                "buildDeviceInKernel", "getBarrierMechanism",
                                "getTrailingBarrier",
                                "getTrailingBarrierCoords"]>]> {
  let summary = "copy a 2-D box of a global buffer into shared memory with TMA, asynchronously, completing on an mbarrier";
  let description = [{
    One thread copies `src`, a rows x cols window of a two-dimensional
    global buffer parameter of the procedure, into `dst`, a rows x cols
    shared buffer or window of row-major rows (plain shared memory, or the
    128-byte swizzle with rows of 128 bytes), through the tensor memory
    accelerator (`cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes`).
    Both run on the tma_to_smem_async timeline. The copy completes on its
    trailing mbarrier (`>> %bar[coords]`): it is one arrival of its thread
    on that barrier, and the phase it arrives in completes only when the
    copy's bytes have landed (code generation issues
    `mbarrier.arrive.expect_tx` of the copy's bytes, then the copy).

    Multicast: with clusters, `dst` may be a window of a shared buffer
    distributed over the CTAs of the cluster whose leading dimension is an
    interval of CTAs (`%Bs[0 : 2, ...]`, rows x cols after it), and the
    trailing barrier the same interval of the CTAs' mbarriers
    (`>> %full[0 : 2, ...]`): the box lands in each of those CTAs' shared
    memory and completes on each one's mbarrier, one arrival on each
    (`.multicast::cluster` with the CTAs' mask).

    Code generation makes the CUtensorMap of each (buffer, box, swizzle)
    the kernel uses: the launcher encodes it and passes it as a kernel
    parameter after the procedure's own.

    ```mlir
    gpuir.sm90a.tma_load %As_k, %Ag >> %full[%k mod 4]
        : memref<256x64xbf16, strided<[64, 1], offset: ?>, #gpuir.smem_swizzled<128>>,
          memref<256x64xbf16, strided<[?, 1], offset: ?>, #gpuir.gmem>,
          !gpuir.barrier<mbarrier [4]>
    ```

    The sequential behavior copies the box element by element (to each
    destination CTA's part for a multicast).
  }];
  let arguments = (ins AnyMemRef:$dst, AnyMemRef:$src,
                       GpuIR_AnyBarrier:$barrier, Variadic<Index>:$indices,
                       AffineMapAttr:$map, DenseBoolArrayAttr:$intervals);
  let assemblyFormat = [{
    $dst `,` $src custom<TrailingBarrier>($barrier, $indices, $map, $intervals)
    attr-dict `:` type($dst) `,` type($src) `,` type($barrier)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The bytes one copy moves into one CTA.
    int64_t getBytes();
    /// The swizzle of the destination in bytes (0: none).
    int64_t getSwizzle();
    /// Whether dst names several CTAs' parts (a leading dimension of
    /// CTAs before the box's two).
    bool isMulticast();
    /// A multicast's destination CTAs are its trailing barrier's.
    ::llvm::LogicalResult verifyMulticastCtas();
  }];
}

def Sm90a_TmaStoreOp : Op<GpuIR_Dialect, "sm90a.tma_store",
    [DeclareOpInterfaceMethods<GpuIR_InstrOpInterface,
                               ["buildSequential", "buildDevice",
                                "buildDeviceInKernel"]>]> {
  let summary = "copy a 2-D box of shared memory into a global buffer with TMA, asynchronously, in a bulk commit group";
  let description = [{
    One thread copies `src`, a rows x cols shared buffer or window of
    row-major rows (plain shared memory, or the 128-byte swizzle with rows
    of 128 bytes), into `dst`, a rows x cols window of a two-dimensional
    global buffer parameter of the procedure, through the tensor memory
    accelerator (`cp.async.bulk.tensor.2d.global.shared::cta.bulk_group`).
    Both accesses run on the tma_to_gmem_async timeline, through the async
    proxy: shared memory that threads wrote with plain stores is read by
    the copy only after a proxy fence (`gpuir.fence cuda_in_order ->
    cuda_generic_and_async_proxy`, which is `fence.proxy.async`) that the
    copying thread takes part in.

    The copy completes in its thread's bulk commit group: `gpuir.arrive
    tma_to_gmem_async >> %g` (a `!gpuir.barrier<tma_store_group>`) commits
    the thread's copies issued since the last commit
    (`cp.async.bulk.commit_group`), and `gpuir.await %g, cuda_in_order,
    outstanding(n)` waits until all but the newest n of its groups have
    completed, their shared memory read and their global writes done
    (`cp.async.bulk.wait_group n`). Before the source is written again or
    its memory reused, the copy must be awaited that way.

    Code generation makes the CUtensorMap of each (buffer, box, swizzle)
    the kernel uses, loads and stores alike: the launcher encodes it and
    passes it as a kernel parameter after the procedure's own.

    ```mlir
    gpuir.sm90a.tma_store %Cg, %Cs
        : memref<64x32xbf16, strided<[?, 1], offset: ?>, #gpuir.gmem>,
          memref<64x32xbf16, strided<[32, 1], offset: ?>, #gpuir.smem>
    ```

    The sequential behavior copies the box element by element.
  }];
  let arguments = (ins AnyMemRef:$dst, AnyMemRef:$src);
  let assemblyFormat = [{
    $dst `,` $src attr-dict `:` type($dst) `,` type($src)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The bytes one copy moves.
    int64_t getBytes();
    /// The swizzle of the source in bytes (0: none).
    int64_t getSwizzle();
  }];
}

#endif // RAKE_GPUIR_SM90A
