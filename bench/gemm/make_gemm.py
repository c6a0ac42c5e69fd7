#!/usr/bin/env python3
"""Writes the warp-specialized Hopper GEMMs of bench/gemm (GpuIR text).

  make_gemm.py NAME --tile BMxBN [--consumers C] [--stages S] [--group G]
               [--in bf16|tf32] [--out f32|bf16] > NAME.mlir

C = A Bt^T: A is M x K, Bt is N x K (B transposed), both row-major, bf16
or (--in tf32) f32 multiplied as tf32 (the tensor cores read an f32 without
its 13 low significand bits); C is M x N in f32 or bf16 (rounded to nearest
even from the f32 sums). Each task computes a BM x BN tile of C over slices
of K of 128 bytes (64 bf16 or 32 f32) held in a ring of S stages of shared
memory in the 128-byte swizzle:

- one producer warpgroup (40 registers; one of its threads works) waits
  for a stage to be released (the `empty` mbarriers, pre-arrived so that
  the first S slices need no release), fills it with two TMA copies that
  complete on the stage's `full` mbarrier (two arrivals a phase);
- C consumer warpgroups (the rest of the registers), each BM / C rows of
  the tile, wait for the stage, multiply it with wgmma.m64nBNk16 (k8 for
  tf32; one per 64 rows per 32 bytes of K), commit, wait for all but the newest group (that
  of the previous slice) and release the previous slice's stage, so the
  tensor cores always have the next slice's products queued.

With --group G the tasks run in groups of G tiles down M (the innermost
task loop walks G tiles of one column of tiles, then the next column):
the CTAs running at one time share G rows of tiles of A and a few columns
of tiles of B, which stay in L2 (a task order chosen in the program, not
by the compiler: the task loops are the program's). The parameters are
then Mg (M / (G BM)), Nt (N / BN), Kt (K / 64, or K / 32 for tf32);
without it Mt, Nt, Kt.
"""
import argparse

p = argparse.ArgumentParser()
p.add_argument("name")
p.add_argument("--tile", default="128x256")
p.add_argument("--consumers", type=int, default=2)
p.add_argument("--stages", type=int, default=4)
p.add_argument("--group", type=int, default=0)
p.add_argument("--tiles", type=int, default=1)
p.add_argument("--in", dest="inp", choices=("bf16", "tf32"), default="bf16")
p.add_argument("--out", choices=("f32", "bf16"), default="f32")
a = p.parse_args()
# The input element type, K of a 128-byte row (one stage), K of one wgmma.
it, KB, KI = ("bf16", 64, 16) if a.inp == "bf16" else ("f32", 32, 8)
bm, bn = (int(x) for x in a.tile.split("x"))
cons, S, G, T = a.consumers, a.stages, a.group, a.tiles
rows = bm // cons
assert rows % 64 == 0 and bn % 8 == 0 and 8 <= bn <= 256
halves = rows // 64
smem = S * (bm + bn) * 128
assert smem <= 227 * 1024, f"{S} stages of {bm} + {bn} rows of 128 bytes do not fit"
threads = 128 * (cons + 1)
cregs = min(232, ((65536 // threads // 8 * 8 * threads - 40 * 128) // (128 * cons)) // 8 * 8)
assert halves * bn // 2 + 24 <= cregs, "the accumulators do not fit the registers"

SW = "#gpuir.smem_swizzled<128>"
D = f"memref<{cons}x128x{halves}x{bn // 2}xf32, #gpuir.rmem>"
ct = "f32" if a.out == "f32" else "bf16"
tile = "" if T == 1 else f" + %s * {bm}"
if G:
    params = ["Mg", "Nt", "Kt"]
    mrows = f"Mg * {G * T * bm}"
    mbase = f"%mg * {G * T * bm} + %mi * {T * bm}{tile}"
    sizes = f"[{{Mg = 1, Nt = 2, Kt = 7}}, {{Mg = 1, Nt = 1, Kt = 1}}]"
else:
    params = ["Mt", "Nt", "Kt"]
    mrows = f"Mt * {T * bm}"
    mbase = f"%m * {T * bm}{tile}"
    sizes = f"[{{Mt = 2, Nt = 1, Kt = 7}}, {{Mt = 1, Nt = 1, Kt = 1}}]"
pl = ", ".join(params)
out = []
w = out.append
inflag = "" if a.inp == "bf16" else " --in tf32"
w(f"// Written by bench/gemm/make_gemm.py {a.name} --tile {a.tile} --consumers {cons} "
  f"--stages {S} --group {G} --tiles {T}{inflag} --out {a.out}.")
w(f"// C = A Bt^T, {a.inp} in, f32 sums, {a.out} out, in {bm}x{bn} tiles over {KB}-wide")
w(f"// slices of K: a producer warpgroup (40 registers) fills {S} swizzled stages")
w(f"// by TMA as {cons} consumer warpgroups ({cregs} registers, {rows} rows each,")
w(f"// wgmma.m64n{bn}k{KI}) release them, one slice behind.")
if G:
    w(f"// Tasks in groups of {G} down M (the innermost task loop).")
if T > 1:
    w(f"// Each task computes {T} tiles down M in turn: the producer runs ahead")
    w(f"// into the next tile's slices while the consumers store the last one's.")
w(f"gpuir.proc @{a.name}(%{params[0]}: index, %{params[1]}: index, %{params[2]}: index,")
w(f"    %A: memref<?x?x{it}, #gpuir.gmem> {{gpuir.extents = affine_map<({pl}) -> ({mrows}, Kt * {KB})>}},")
w(f"    %Bt: memref<?x?x{it}, #gpuir.gmem> {{gpuir.extents = affine_map<({pl}) -> (Nt * {bn}, Kt * {KB})>}},")
w(f"    %C: memref<?x?x{ct}, #gpuir.gmem> {{gpuir.extents = affine_map<({pl}) -> ({mrows}, Nt * {bn})>}})")
w(f"    attributes {{gpuir.check_sizes = {sizes}}} {{")
w(f"  gpuir.device_function blocks_per_sm(1) warps(producer = 4 dec(40), consumer = {4 * cons} inc({cregs})) {{")
ind = "    "
if G:
    w(f"{ind}gpuir.for %mg = 0 to %Mg : cuda_tasks {{")
    w(f"{ind}  gpuir.for %n = 0 to %Nt : cuda_tasks {{")
    w(f"{ind}    gpuir.for %mi = 0 to {G} : cuda_tasks {{")
    ind += "      "
else:
    w(f"{ind}gpuir.for %m = 0 to %Mt : cuda_tasks {{")
    w(f"{ind}  gpuir.for %n = 0 to %Nt : cuda_tasks {{")
    ind += "    "


def line(s=""):
    w(ind + s if s else "")


line(f"%As = gpuir.alloc : memref<{S}x{bm}x{KB}x{it}, {SW}>")
line(f"%Bs = gpuir.alloc : memref<{S}x{bn}x{KB}x{it}, {SW}>")
line(f"%D = gpuir.alloc : {D}")
line(f"%full = gpuir.alloc : !gpuir.barrier<mbarrier [{S}]>")
line(f"%empty = gpuir.alloc : !gpuir.barrier<mbarrier_prearrive [{S}]>")
line(f"%mma = gpuir.alloc : !gpuir.barrier<wgmma_group>")
if T > 1:
    line(f"gpuir.for %s = 0 to {T} : seq {{")
    ind += "  "
line(f"gpuir.warps \"consumer\" {{")
line(f"  gpuir.for %wm = 0 to {cons} : cuda_threads<#gpuir.unit<warpgroup>> {{")
line(f"    gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {{")
line(f"      gpuir.for %h = 0 to {halves} : seq {{")
line(f"        gpuir.for %r = 0 to {bn // 2} : seq {{")
line(f"          %zero = arith.constant 0.0 : f32")
line(f"          gpuir.write %zero, %D[%wm, %t, %h, %r] : {D}")
line(f"        }}")
line(f"      }}")
line(f"    }}")
line(f"  }}")
line(f"}}")
line(f"gpuir.for %k = 0 to %Kt : seq {{")
line(f"  gpuir.warps \"producer\" {{")
line(f"    gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {{")
line(f"      gpuir.await %empty[%k mod {S}], tma_to_smem_async : !gpuir.barrier<mbarrier_prearrive [{S}]>")
for buf, g, r, base in (("As", "A", bm, mbase), ("Bs", "Bt", bn, f"%n * {bn}")):
    line(f"      %s{g} = gpuir.window %{buf}[%k mod {S}, 0 : {r}, 0 : {KB}] : memref<{S}x{r}x{KB}x{it}, {SW}>")
    line(f"      %g{g} = gpuir.window %{g}[{base} : {base} + {r}, %k * {KB} : %k * {KB} + {KB}] : memref<?x?x{it}, #gpuir.gmem>")
    line(f"      gpuir.sm90a.tma_load %s{g}, %g{g} >> %full[%k mod {S}] : memref<{r}x{KB}x{it}, strided<[{KB}, 1], offset: ?>, {SW}>, memref<{r}x{KB}x{it}, strided<[?, 1], offset: ?>, #gpuir.gmem>, !gpuir.barrier<mbarrier [{S}]>")
line(f"    }}")
line(f"  }}")
line(f"  gpuir.warps \"consumer\" {{")
line(f"    gpuir.for %wm = 0 to {cons} : cuda_threads<#gpuir.unit<warpgroup>> {{")
line(f"      gpuir.await %full[%k mod {S}], wgmma_async : !gpuir.barrier<mbarrier [{S}]>")
line(f"      gpuir.fence wgmma_fence_1 -> wgmma_fence_2")
line(f"      gpuir.for %kk = 0 to 4 : seq {{")
line(f"        %b = gpuir.window %Bs[%k mod {S}, 0 : {bn}, %kk * {KI} : %kk * {KI} + {KI}] : memref<{S}x{bn}x{KB}x{it}, {SW}>")
line(f"        gpuir.for %h = 0 to {halves} : seq {{")
line(f"          %d = gpuir.window %D[%wm, 0 : 128, %h, 0 : {bn // 2}] : {D}")
line(f"          %a = gpuir.window %As[%k mod {S}, %wm * {rows} + %h * 64 : %wm * {rows} + %h * 64 + 64, %kk * {KI} : %kk * {KI} + {KI}] : memref<{S}x{bm}x{KB}x{it}, {SW}>")
line(f"          gpuir.sm90a.wgmma %d, %a, %b : memref<128x{bn // 2}xf32, strided<[{halves * bn // 2}, 1], offset: ?>, #gpuir.rmem>, memref<64x{KI}x{it}, strided<[{KB}, 1], offset: ?>, {SW}>, memref<{bn}x{KI}x{it}, strided<[{KB}, 1], offset: ?>, {SW}>")
line(f"        }}")
line(f"      }}")
line(f"      gpuir.arrive wgmma_async >> %mma : !gpuir.barrier<wgmma_group>")
line(f"      gpuir.await %mma, cuda_in_order, outstanding(1) : !gpuir.barrier<wgmma_group>")
line(f"    }}")
line(f"    // The previous slice's products are done: release its stage.")
line(f"    gpuir.if %k >= 1 {{")
line(f"      gpuir.arrive cuda_in_order >> %empty[(%k + {S - 1}) mod {S}] : !gpuir.barrier<mbarrier_prearrive [{S}]>")
line(f"    }}")
line(f"  }}")
line(f"}}")
line(f"gpuir.warps \"consumer\" {{")
line(f"  gpuir.for %wm = 0 to {cons} : cuda_threads<#gpuir.unit<warpgroup>> {{")
line(f"    gpuir.await %mma, cuda_in_order, outstanding(0) : !gpuir.barrier<wgmma_group>")
line(f"  }}")
line(f"  gpuir.if %Kt >= 1 {{")
line(f"    gpuir.arrive cuda_in_order >> %empty[(%Kt + {S - 1}) mod {S}] : !gpuir.barrier<mbarrier_prearrive [{S}]>")
line(f"  }}")
line(f"  // Register 4 j + i of thread t holds row 16 (t / 32) + (t mod 32) / 4")
line(f"  // + 8 (i / 2), column 8 j + 2 (t mod 4) + i mod 2 of a 64 x {bn} part.")
line(f"  gpuir.for %wm = 0 to {cons} : cuda_threads<#gpuir.unit<warpgroup>> {{")
line(f"    gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {{")
line(f"      gpuir.for %h = 0 to {halves} : seq {{")
line(f"        gpuir.for %j = 0 to {bn // 8} : seq {{")
line(f"          gpuir.for %i = 0 to 4 : seq {{")
line(f"            %v = gpuir.read %D[%wm, %t, %h, %j * 4 + %i] : {D}")
val = "%v"
if a.out == "bf16":
    line(f"            %c = arith.truncf %v : f32 to bf16")
    val = "%c"
line(f"            gpuir.write {val}, %C[{mbase} + %wm * {rows} + %h * 64 + (%t floordiv 32) * 16 + (%t mod 32) floordiv 4 + (%i floordiv 2) * 8, %n * {bn} + %j * 8 + (%t mod 4) * 2 + %i mod 2] : memref<?x?x{ct}, #gpuir.gmem>")
line(f"          }}")
line(f"        }}")
line(f"      }}")
line(f"    }}")
line(f"  }}")
line(f"}}")
if T > 1:
    ind = ind[:-2]
    line("}")
ind = ind[:-2]
while len(ind) >= 4:
    line("}")
    ind = ind[:-2]
w("  }")
w("}")
print("\n".join(out))
