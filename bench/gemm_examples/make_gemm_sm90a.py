#!/usr/bin/env python3
"""Writes wgmma GEMM kernels in GpuIR: WG consumer warpgroups of 64 rows each
(tiles of 64 WG x 128 of C), STAGES shared-memory stages filled by cp.async,
prefetch distance DIST (DIST + 2 <= STAGES: the stage refilled at iteration
k held slice k - 2, whose wgmma group iteration k - 1 waited for).
examples/gemm_sm90a.mlir and bench/gemm_examples/gemm_sm90a_core.mlir are

  make_gemm_sm90a.py --swizzle gemm_sm90a 4 4 2 gemm_sm90a.mlir HEADER
  make_gemm_sm90a.py gemm_sm90a_core 4 4 2 gemm_sm90a_core.mlir HEADER

with their header comments (up to the proc) in the file HEADER.

With --swizzle, the stages are rows of 128 bytes in the 128-byte swizzle
(coalesced copies, conflict-free shared stores) instead of core matrices.

usage: make_gemm_sm90a.py [--swizzle] NAME WG STAGES DIST OUT [HEADER]"""
import sys

def gen(name, WG, STAGES, DIST, header, swizzle=False):
    BM = 64*WG          # rows of C per CTA
    T = 128*WG          # threads
    MB = BM//8          # row blocks of A
    A_CH = BM*8         # 16-byte chunks of an A slice (8 per row)
    B_CH = 128*8
    SP = '#gpuir.smem_swizzled<128>' if swizzle else '#gpuir.smem'
    if swizzle:
        # Rows of 64 elements (128 bytes) in the 128-byte swizzle.
        AS=f'memref<{STAGES}x{BM}x64xbf16, {SP}>'
        BS=f'memref<{STAGES}x128x64xbf16, {SP}>'
        AW=f'memref<64x16xbf16, strided<[64, 1], offset: ?>, {SP}>'
        BW=f'memref<128x16xbf16, strided<[64, 1], offset: ?>, {SP}>'
    else:
        AS=f'memref<{STAGES}x{MB}x8x8x8xbf16, {SP}>'
        BS=f'memref<{STAGES}x16x8x8x8xbf16, {SP}>'
        AW=f'memref<8x2x8x8xbf16, strided<[512, 64, 8, 1], offset: ?>, {SP}>'
        BW=f'memref<16x2x8x8xbf16, strided<[512, 64, 8, 1], offset: ?>, {SP}>'
    CH=f'memref<8xbf16, strided<[1], offset: ?>, {SP}>'
    GCH='memref<8xbf16, strided<[1], offset: ?>, #gpuir.gmem>'
    DW='memref<128x64xf32, strided<[64, 1], offset: ?>, #gpuir.rmem>'
    q=f'(%c * {T} + %t)'
    def load(stage, sl, ind):
        sp=' '*ind
        out=[f'{sp}gpuir.for %t = 0 to {T} : cuda_threads<#gpuir.unit<thread>> {{']
        for buf,glob,idx,chunks,SH in [('As','A','%m * '+str(BM),A_CH,AS),('Bs','Bt','%n * 128',B_CH,BS)]:
            out.append(f'{sp}  gpuir.for %c = 0 to {chunks//T} : seq {{')
            if swizzle:
                # Chunk q: row q / 8, columns 8 (q mod 8) .. + 8: a row's
                # 8 chunks from 8 consecutive threads, coalesced; the
                # swizzle spreads them over the banks.
                out.append(f'{sp}    %s = gpuir.window %{buf}[{stage}, {q} floordiv 8, ({q} mod 8) * 8 : ({q} mod 8) * 8 + 8] : {SH} -> {CH}')
                out.append(f'{sp}    %g = gpuir.window %{glob}[{idx} + {q} floordiv 8, ({sl}) * 64 + ({q} mod 8) * 8 : ({sl}) * 64 + ({q} mod 8) * 8 + 8] : memref<?x?xbf16, #gpuir.gmem> -> {GCH}')
            else:
                out.append(f'{sp}    %s = gpuir.window %{buf}[{stage}, {q} floordiv 64, ({q} floordiv 8) mod 8, {q} mod 8, 0 : 8] : {SH} -> {CH}')
                out.append(f'{sp}    %g = gpuir.window %{glob}[{idx} + ({q} floordiv 64) * 8 + {q} mod 8, ({sl}) * 64 + (({q} floordiv 8) mod 8) * 8 : ({sl}) * 64 + (({q} floordiv 8) mod 8) * 8 + 8] : memref<?x?xbf16, #gpuir.gmem> -> {GCH}')
            out.append(f'{sp}    gpuir.sm80.cp_async %s, %g : {CH}, {GCH}')
            out.append(f'{sp}  }}')
        out.append(f'{sp}}}')
        return "\n".join(out)
    if swizzle:
        operands=f'''              %a = gpuir.window %As[%k mod {STAGES}, %wm * 64 : %wm * 64 + 64, %kk * 16 : %kk * 16 + 16] : {AS} -> {AW}
              %b = gpuir.window %Bs[%k mod {STAGES}, 0 : 128, %kk * 16 : %kk * 16 + 16] : {BS} -> {BW}'''
    else:
        operands=f'''              %a = gpuir.window %As[%k mod {STAGES}, %wm * 8 : %wm * 8 + 8, %kk * 2 : %kk * 2 + 2, 0 : 8, 0 : 8] : {AS} -> {AW}
              %b = gpuir.window %Bs[%k mod {STAGES}, 0 : 16, %kk * 2 : %kk * 2 + 2, 0 : 8, 0 : 8] : {BS} -> {BW}'''
    src=f'''{header}gpuir.proc @{name}(%Mt: index, %Nt: index, %Kt: index,
                       %A: memref<?x?xbf16, #gpuir.gmem>,
                       %Bt: memref<?x?xbf16, #gpuir.gmem>,
                       %C: memref<?x?xf32, #gpuir.gmem>)
    attributes {{gpuir.check_sizes = [{{Mt = 2, Nt = 1, Kt = {DIST*2+3}}}, {{Mt = 1, Nt = 1, Kt = {DIST-1 if DIST>1 else 1}}}]}} {{
  gpuir.device_function blocks_per_sm(1) block({T}) {{
    gpuir.for %m = 0 to %Mt : cuda_tasks {{
      gpuir.for %n = 0 to %Nt : cuda_tasks {{
{'        // Stage s of A: [s][row][k], rows of 128 bytes swizzled; of Bt likewise.' if swizzle else '        // Stage s of A: [s][row / 8][k / 8][row mod 8][k mod 8]; of Bt likewise.'}
        %As = gpuir.alloc : {AS}
        %Bs = gpuir.alloc : {BS}
        // Per warpgroup and thread: 64 accumulators (the m64n128 fragment).
        %D = gpuir.alloc : memref<{WG}x128x64xf32, #gpuir.rmem>
        %copies = gpuir.alloc : !gpuir.barrier<cp_async_group>
        %mma = gpuir.alloc : !gpuir.barrier<wgmma_group>

        gpuir.for %wm = 0 to {WG} : cuda_threads<#gpuir.unit<warpgroup>> {{
          gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {{
            gpuir.for %r = 0 to 64 : seq {{
              %zero = arith.constant 0.0 : f32
              gpuir.write %zero, %D[%wm, %t, %r] : memref<{WG}x128x64xf32, #gpuir.rmem>
            }}
          }}
        }}

        // Slices 0 to {DIST - 1} into their stages, one commit group each.
        // Chunk q of a slice (16 bytes: 8 elements of K) is row
        // 8 (q / 64) + q mod 8, core-matrix column (q / 8) mod 8, so that
        // consecutive threads fill consecutive rows of a core matrix.
        gpuir.for %p = 0 to {DIST} : seq {{
          gpuir.if %p < %Kt {{
{load("%p", "%p", 12)}
          }}
          gpuir.arrive Sm80_cp_async >> %copies : !gpuir.barrier<cp_async_group>
        }}

        gpuir.for %k = 0 to %Kt : seq {{
          gpuir.await %copies, cuda_in_order, outstanding({DIST - 1}) : !gpuir.barrier<cp_async_group>
          gpuir.fence cuda_in_order -> cuda_generic_and_async_proxy

          gpuir.if %k + {DIST} < %Kt {{
{load(f"(%k + {DIST}) mod {STAGES}", f"%k + {DIST}", 12)}
          }}
          gpuir.arrive Sm80_cp_async >> %copies : !gpuir.barrier<cp_async_group>

          gpuir.for %wm = 0 to {WG} : cuda_threads<#gpuir.unit<warpgroup>> {{
            gpuir.fence wgmma_fence_1 -> wgmma_fence_2
            %d = gpuir.window %D[%wm, 0 : 128, 0 : 64] : memref<{WG}x128x64xf32, #gpuir.rmem> -> {DW}
            gpuir.for %kk = 0 to 4 : seq {{
{operands}
              gpuir.sm90a.wgmma %d, %a, %b : {DW}, {AW}, {BW}
            }}
            gpuir.arrive wgmma_async >> %mma : !gpuir.barrier<wgmma_group>
            // The previous slice's products are done: its stage is free
            // once the CTA meets again.
            gpuir.await %mma, cuda_in_order, outstanding(1) : !gpuir.barrier<wgmma_group>
          }}
        }}
        gpuir.for %wm = 0 to {WG} : cuda_threads<#gpuir.unit<warpgroup>> {{
          gpuir.await %mma, cuda_in_order, outstanding(0) : !gpuir.barrier<wgmma_group>
        }}

        // Register 4 j + i of thread t holds row 16 (t / 32) + (t mod 32) / 4
        // + 8 (i / 2), column 8 j + 2 (t mod 4) + i mod 2 of the warpgroup's
        // 64 x 128 part.
        gpuir.for %wm = 0 to {WG} : cuda_threads<#gpuir.unit<warpgroup>> {{
          gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {{
            gpuir.for %j = 0 to 16 : seq {{
              gpuir.for %i = 0 to 4 : seq {{
                %v = gpuir.read %D[%wm, %t, %j * 4 + %i] : memref<{WG}x128x64xf32, #gpuir.rmem>
                gpuir.write %v, %C[%m * {BM} + %wm * 64 + (%t floordiv 32) * 16 + (%t mod 32) floordiv 4 + (%i floordiv 2) * 8, %n * 128 + %j * 8 + (%t mod 4) * 2 + %i mod 2] : memref<?x?xf32, #gpuir.gmem>
              }}
            }}
          }}
        }}
      }}
    }}
  }}
}}
'''
    return src
if __name__=='__main__':
    args = [a for a in sys.argv[1:] if a != '--swizzle']
    name, WG, ST, DI, out = args[0], int(args[1]), int(args[2]), int(args[3]), args[4]
    hdr = open(args[5]).read() if len(args) > 5 else ''
    open(out,'w').write(gen(name, WG, ST, DI, hdr, '--swizzle' in sys.argv))
