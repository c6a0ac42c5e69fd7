#!/usr/bin/env python3
"""Writes the warp-specialized TMA GEMMs of the bench (GpuIR text).

  make_gemm_sm90a_ws.py NAME CONSUMERS ROWS_PER_CONSUMER RELEASE > NAME.mlir

C = A Bt^T (bf16 in, f32 out) in 256 x 128 tiles of C over 64-wide slices of
K, four stages in the 128-byte swizzle. One producer warpgroup (40 registers)
whose thread 0 fills stage k mod 4 with two TMA copies once the consumers
have released it (empty mbarriers); CONSUMERS warpgroups, each ROWS rows of
the tile (64 or 128: one or two wgmma.m64n128k16 per 16 of K), wait for the
stage (full mbarriers) and multiply it. RELEASE is "wait0" (wait for all of
a slice's products, then release its stage) or "lag1" (wait for all but the
newest group, then release the previous slice's stage; the last one after
the loop), which keeps the tensor cores busy across slices.
"""
import sys

name, consumers, rows, release = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
assert consumers * rows == 256 and rows in (64, 128) and release in ("wait0", "lag1")
halves = rows // 64
threads = 128 * (consumers + 1)
regs_total = 65536 // threads // 8 * 8 * threads
cregs = min(232, ((regs_total - 40 * 128) // (128 * consumers)) // 8 * 8)
D = f"memref<{consumers}x128x{halves}x64xf32, #gpuir.rmem>"
S = "#gpuir.smem_swizzled<128>"
out = []
w = out.append
w(f"// Written by bench/gemm_examples/make_gemm_sm90a_ws.py {' '.join(sys.argv[1:])}.")
w(f"// The TMA GEMM (examples/gemm_sm90a_tma.mlir) warp-specialized: one")
w(f"// producer warpgroup (40 registers) filling four swizzled stages by TMA as")
w(f"// the consumers release them (empty mbarriers); {consumers} consumer warpgroups")
w(f"// ({cregs} registers, {rows} rows of the 256x128 tile each) waiting for each")
w(f"// stage (full mbarriers) and multiplying it with wgmma; release: {release}.")
w(f"// No CTA barrier inside the K loop.")
w(f"gpuir.proc @{name}(%Mt: index, %Nt: index, %Kt: index,")
w(f"                       %A: memref<?x?xbf16, #gpuir.gmem>,")
w(f"                       %Bt: memref<?x?xbf16, #gpuir.gmem>,")
w(f"                       %C: memref<?x?xf32, #gpuir.gmem>)")
w(f"    attributes {{gpuir.check_sizes = [{{Mt = 2, Nt = 1, Kt = 7}}, {{Mt = 1, Nt = 1, Kt = 1}}]}} {{")
w(f"  gpuir.device_function blocks_per_sm(1) warps(producer = 4 dec(40), consumer = {4 * consumers} inc({cregs})) {{")
w(f"    gpuir.for %m = 0 to %Mt : cuda_tasks {{")
w(f"      gpuir.for %n = 0 to %Nt : cuda_tasks {{")
w(f"        %As = gpuir.alloc : memref<4x256x64xbf16, {S}>")
w(f"        %Bs = gpuir.alloc : memref<4x128x64xbf16, {S}>")
w(f"        %D = gpuir.alloc : {D}")
w(f"        %full = gpuir.alloc : !gpuir.barrier<mbarrier [4]>")
w(f"        %empty = gpuir.alloc : !gpuir.barrier<mbarrier_prearrive [4]>")
w(f"        %mma = gpuir.alloc : !gpuir.barrier<wgmma_group>")
w(f"        gpuir.warps \"consumer\" {{")
w(f"          gpuir.for %wm = 0 to {consumers} : cuda_threads<#gpuir.unit<warpgroup>> {{")
w(f"            gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {{")
w(f"              gpuir.for %h = 0 to {halves} : seq {{")
w(f"                gpuir.for %r = 0 to 64 : seq {{")
w(f"                  %zero = arith.constant 0.0 : f32")
w(f"                  gpuir.write %zero, %D[%wm, %t, %h, %r] : {D}")
w(f"                }}")
w(f"              }}")
w(f"            }}")
w(f"          }}")
w(f"        }}")
w(f"        gpuir.for %k = 0 to %Kt : seq {{")
w(f"          gpuir.warps \"producer\" {{")
w(f"            gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {{")
w(f"              gpuir.await %empty[%k mod 4], tma_to_smem_async : !gpuir.barrier<mbarrier_prearrive [4]>")
for buf, g, r, base in (("As", "A", 256, "%m * 256"), ("Bs", "Bt", 128, "%n * 128")):
    w(f"              %s{g} = gpuir.window %{buf}[%k mod 4, 0 : {r}, 0 : 64] : memref<4x{r}x64xbf16, {S}> -> memref<{r}x64xbf16, strided<[64, 1], offset: ?>, {S}>")
    w(f"              %g{g} = gpuir.window %{g}[{base} : {base} + {r}, %k * 64 : %k * 64 + 64] : memref<?x?xbf16, #gpuir.gmem> -> memref<{r}x64xbf16, strided<[?, 1], offset: ?>, #gpuir.gmem>")
    w(f"              gpuir.sm90a.tma_load %s{g}, %g{g} >> %full[%k mod 4] : memref<{r}x64xbf16, strided<[64, 1], offset: ?>, {S}>, memref<{r}x64xbf16, strided<[?, 1], offset: ?>, #gpuir.gmem>, !gpuir.barrier<mbarrier [4]>")
w(f"            }}")
w(f"          }}")
w(f"          gpuir.warps \"consumer\" {{")
w(f"            gpuir.for %wm = 0 to {consumers} : cuda_threads<#gpuir.unit<warpgroup>> {{")
w(f"              gpuir.await %full[%k mod 4], wgmma_async : !gpuir.barrier<mbarrier [4]>")
w(f"              gpuir.fence wgmma_fence_1 -> wgmma_fence_2")
w(f"              gpuir.for %kk = 0 to 4 : seq {{")
w(f"                %b = gpuir.window %Bs[%k mod 4, 0 : 128, %kk * 16 : %kk * 16 + 16] : memref<4x128x64xbf16, {S}> -> memref<128x16xbf16, strided<[64, 1], offset: ?>, {S}>")
w(f"                gpuir.for %h = 0 to {halves} : seq {{")
w(f"                  %d = gpuir.window %D[%wm, 0 : 128, %h, 0 : 64] : {D} -> memref<128x64xf32, strided<[{halves * 64}, 1], offset: ?>, #gpuir.rmem>")
w(f"                  %a = gpuir.window %As[%k mod 4, %wm * {rows} + %h * 64 : %wm * {rows} + %h * 64 + 64, %kk * 16 : %kk * 16 + 16] : memref<4x256x64xbf16, {S}> -> memref<64x16xbf16, strided<[64, 1], offset: ?>, {S}>")
w(f"                  gpuir.sm90a.wgmma %d, %a, %b : memref<128x64xf32, strided<[{halves * 64}, 1], offset: ?>, #gpuir.rmem>, memref<64x16xbf16, strided<[64, 1], offset: ?>, {S}>, memref<128x16xbf16, strided<[64, 1], offset: ?>, {S}>")
w(f"                }}")
w(f"              }}")
w(f"              gpuir.arrive wgmma_async >> %mma : !gpuir.barrier<wgmma_group>")
w(f"              gpuir.await %mma, cuda_in_order, outstanding({1 if release == 'lag1' else 0}) : !gpuir.barrier<wgmma_group>")
w(f"            }}")
if release == "wait0":
    w(f"            gpuir.arrive cuda_in_order >> %empty[%k mod 4] : !gpuir.barrier<mbarrier_prearrive [4]>")
else:
    w(f"            // The previous slice's products are done: release its stage.")
    w(f"            gpuir.if %k >= 1 {{")
    w(f"              gpuir.arrive cuda_in_order >> %empty[(%k + 3) mod 4] : !gpuir.barrier<mbarrier_prearrive [4]>")
    w(f"            }}")
w(f"          }}")
w(f"        }}")
w(f"        gpuir.warps \"consumer\" {{")
if release == "lag1":
    w(f"          gpuir.for %wm = 0 to {consumers} : cuda_threads<#gpuir.unit<warpgroup>> {{")
    w(f"            gpuir.await %mma, cuda_in_order, outstanding(0) : !gpuir.barrier<wgmma_group>")
    w(f"          }}")
    w(f"          gpuir.if %Kt >= 1 {{")
    w(f"            gpuir.arrive cuda_in_order >> %empty[(%Kt + 3) mod 4] : !gpuir.barrier<mbarrier_prearrive [4]>")
    w(f"          }}")
w(f"          // Register 4 j + i of thread t holds row 16 (t / 32) + (t mod 32) / 4")
w(f"          // + 8 (i / 2), column 8 j + 2 (t mod 4) + i mod 2 of a 64 x 128 part.")
w(f"          gpuir.for %wm = 0 to {consumers} : cuda_threads<#gpuir.unit<warpgroup>> {{")
w(f"            gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {{")
w(f"              gpuir.for %h = 0 to {halves} : seq {{")
w(f"                gpuir.for %j = 0 to 16 : seq {{")
w(f"                  gpuir.for %i = 0 to 4 : seq {{")
w(f"                    %v = gpuir.read %D[%wm, %t, %h, %j * 4 + %i] : {D}")
w(f"                    gpuir.write %v, %C[%m * 256 + %wm * {rows} + %h * 64 + (%t floordiv 32) * 16 + (%t mod 32) floordiv 4 + (%i floordiv 2) * 8, %n * 128 + %j * 8 + (%t mod 4) * 2 + %i mod 2] : memref<?x?xf32, #gpuir.gmem>")
w(f"                  }}")
w(f"                }}")
w(f"              }}")
w(f"            }}")
w(f"          }}")
w(f"        }}")
w(f"      }}")
w(f"    }}")
w(f"  }}")
w(f"}}")
print("\n".join(out))
