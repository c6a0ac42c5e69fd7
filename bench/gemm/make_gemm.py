#!/usr/bin/env python3
"""Writes the warp-specialized Hopper GEMMs of bench/gemm (GpuIR text).

  make_gemm.py NAME --tile BMxBN [--consumers C] [--stages S] [--group G]
               [--tiles T] [--cluster 2] [--in bf16|tf32] [--out f32|bf16]
               [--store st|tma] [--wait read|full] [--split 2 --mtiles MT]
               [--schedule cooperative|pingpong] > NAME.mlir

--tiles T: T tiles down M a task (the producer runs ahead into the next);
--cluster 2: clusters of two CTAs sharing B by TMA multicast; --store tma:
the epilogue through staging buffers in shared memory and TMA stores
(--store st, the default: a plain store per element); --wait full: the
store waits take whole groups (cp.async.bulk.wait_group), not only their
reads of the staging buffers (the default, wait_group.read); --split 2 --mtiles
MT: K split in two for M = MT BM, f32 partial planes that
splitk_sum2_bf16.mlir adds; --schedule pingpong: each consumer warpgroup
its own tiles, taking turns (pingpong.py says how). variants.txt lists the
kernels checked in.

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
p.add_argument("--cluster", type=int, choices=(1, 2), default=1)
p.add_argument("--store", choices=("st", "tma"), default="st")
p.add_argument("--wait", choices=("read", "full"), default="read")
p.add_argument("--split", type=int, default=1)
p.add_argument("--mtiles", type=int, default=0)
p.add_argument("--schedule", choices=("cooperative", "pingpong"), default="cooperative")
p.add_argument("--ring", choices=("each", "shared"), default="each",
               help="pingpong: a ring per warpgroup, or one shared by both (skips and turns)")
a = p.parse_args()
if a.schedule == "pingpong":
    import pingpong
    print(pingpong.write(a))
    raise SystemExit(0)
# The input element type, K of a 128-byte row (one stage), K of one wgmma.
it, KB, KI = ("bf16", 64, 16) if a.inp == "bf16" else ("f32", 32, 8)
bm, bn = (int(x) for x in a.tile.split("x"))
cons, S, G, T, X = a.consumers, a.stages, a.group, a.tiles, a.cluster
rows = bm // cons
assert rows % 64 == 0 and bn % 8 == 0 and 8 <= bn <= 256
halves = rows // 64
smem = S * (bm + bn) * 128
assert smem <= 227 * 1024, f"{S} stages of {bm} + {bn} rows of 128 bytes do not fit"
threads = 128 * (cons + 1)
cregs = min(232, ((65536 // threads // 8 * 8 * threads - 40 * 128) // (128 * cons)) // 8 * 8)
assert halves * bn // 2 + 24 <= cregs, "the accumulators do not fit the registers"

SW = "#gpuir.smem_swizzled<128>"
ct = "f32" if a.out == "f32" else "bf16"
tile = "" if T == 1 else f" + %s * {X * bm}"
cta = "" if X == 1 else f" + %c * {bm}"
assert T == 1 or X == 1, "--tiles with --cluster is not written yet"
TMA_STORE = a.store == "tma"
# The store waits: until the groups read their staging buffers, or whole.
READ = a.wait == "read"
RD = ", read" if READ else ""
# Split K (--split S --mtiles MT): the tasks are (split, tile row, tile
# column) for a fixed number MT of tile rows; split s multiplies the slices
# k S + s and writes its f32 partial product into rows s M + ... of C (S
# planes of M x N), which a second kernel sums (bench/gemm/splitk_sum2_bf16.mlir).
SK, MT = a.split, a.mtiles
assert SK == 1 or (MT and G == 0 and T == 1 and X == 1 and a.out == "f32"), \
    "--split is written for f32 partial planes with --mtiles, no group, tiles or cluster"
# The TMA-store epilogue stages each consumer's 64 rows a part of the
# columns at a time (quarters for bf16, eighths for f32: 64 bytes of each
# row), in two buffers of 64 x (bn / P) per consumer, stored as boxes of
# 64 rows of 32 bytes (BW elements).
P, BW = (4, 16) if a.out == "bf16" else (8, 8)
assert not TMA_STORE or (halves == 1 and bn % (8 * P) == 0), \
    "--store tma is written for one 64-row part per consumer"
if TMA_STORE:
    smem += cons * 2 * 64 * (bn // P) * (2 if a.out == "bf16" else 4)
    assert smem <= 227 * 1024, "the stages and the staging buffers of C do not fit"
if G:
    params = ["Mg", "Nt", "Kt"]
    mrows = f"Mg * {G * T * X * bm}"
    mbase = f"%mg * {G * T * X * bm} + %mi * {T * X * bm}{tile}{cta}"
    sizes = f"[{{Mg = 1, Nt = 2, Kt = 7}}, {{Mg = 1, Nt = 1, Kt = 1}}]"
else:
    params = ["Mt", "Nt", "Kt"]
    mrows = f"Mt * {T * X * bm}"
    mbase = f"%m * {T * X * bm}{tile}{cta}"
    sizes = f"[{{Mt = 2, Nt = 1, Kt = 7}}, {{Mt = 1, Nt = 1, Kt = 1}}]"
# The rows of A a task reads and of C it writes, K's slice k.
abase = cbase = mbase
kcol = f"%k * {KB}"
crows = mrows
if SK > 1:
    params = ["Nt", "Kt"]
    mrows = f"{MT * bm}"
    crows = f"{SK * MT * bm}"
    abase = f"%m * {bm}"
    cbase = f"%ks * {MT * bm} + %m * {bm}"
    kcol = f"(%k * {SK} + %ks) * {KB}"
    sizes = f"[{{Nt = 2, Kt = 3}}, {{Nt = 1, Kt = 1}}]"
pl = ", ".join(params)
out = []
w = out.append
inflag = "" if a.inp == "bf16" else " --in tf32"
w(f"// Written by bench/gemm/make_gemm.py {a.name} --tile {a.tile} --consumers {cons} "
  f"--stages {S} --group {G} --tiles {T}{inflag} --out {a.out}{'' if X == 1 else f' --cluster {X}'}"
  f"{' --store tma' if TMA_STORE else ''}{' --wait full' if TMA_STORE and not READ else ''}"
  f"{f' --split {SK} --mtiles {MT}' if SK > 1 else ''}.")
w(f"// C = A Bt^T, {a.inp} in, f32 sums, {a.out} out, in {bm}x{bn} tiles over {KB}-wide")
w(f"// slices of K: a producer warpgroup (40 registers) fills {S} swizzled stages")
w(f"// by TMA as {cons} consumer warpgroups ({cregs} registers, {rows} rows each,")
w(f"// wgmma.m64n{bn}k{KI}) release them, one slice behind.")
if G:
    w(f"// Tasks in groups of {G} down M (the innermost task loop).")
if SK > 1:
    w(f"// K split {SK} ways for M = {MT * bm} ({MT} tile rows): task (s, m, n) multiplies")
    w(f"// the slices k {SK} + s and writes its f32 partial product into plane s of C")
    w(f"// (rows s {MT * bm} + ...); bench/gemm/splitk_sum2_bf16.mlir adds the planes.")
if T > 1:
    w(f"// Each task computes {T} tiles down M in turn: the producer runs ahead")
    w(f"// into the next tile's slices while the consumers store the last one's.")
if TMA_STORE:
    w(f"// The epilogue stores C through shared memory with TMA: each consumer writes")
    w(f"// {'a quarter' if P == 4 else 'an eighth'} of its 64 x {bn} part into one of its two staging buffers (boxes")
    w(f"// of 64 x {BW}, rows of 32 bytes), fences the generic-proxy writes to the async")
    w(f"// proxy, and its first thread stores the boxes and commits them as a bulk")
    if READ:
        w(f"// group; before a buffer is written again it waits until the group before")
        w(f"// last has read it (wait_group.read: the global writes may still be in flight).")
    else:
        w(f"// group, waiting for the group before last before a buffer is written again.")
if X > 1:
    w(f"// A task is a cluster of {X} CTAs, each a {bm}x{bn} tile down M of the same")
    w(f"// columns: each CTA's producer loads its A and 1/{X} of the B slice, which it")
    w(f"// multicasts into the stage of every CTA (completing on each one's full")
    w(f"// mbarrier); consumers release a stage in every CTA (remote arrives); the")
    w(f"// cluster meets after the epilogue.")
w(f"gpuir.proc @{a.name}({', '.join(f'%{x}: index' for x in params)},")
w(f"    %A: memref<?x?x{it}, #gpuir.gmem> {{gpuir.extents = affine_map<({pl}) -> ({mrows}, Kt * {SK * KB})>}},")
w(f"    %Bt: memref<?x?x{it}, #gpuir.gmem> {{gpuir.extents = affine_map<({pl}) -> (Nt * {bn}, Kt * {SK * KB})>}},")
w(f"    %C: memref<?x?x{ct}, #gpuir.gmem> {{gpuir.extents = affine_map<({pl}) -> ({crows}, Nt * {bn})>}})")
w(f"    attributes {{gpuir.check_sizes = {sizes}}} {{")
clus = "" if X == 1 else f"cluster({X}) "
w(f"  gpuir.device_function {clus}blocks_per_sm(1) warps(producer = 4 dec(40), consumer = {4 * cons} inc({cregs})) {{")
ind = "    "
if SK > 1:
    w(f"{ind}gpuir.for %ks = 0 to {SK} : cuda_tasks {{")
    w(f"{ind}  gpuir.for %m = 0 to {MT} : cuda_tasks {{")
    w(f"{ind}    gpuir.for %n = 0 to %Nt : cuda_tasks {{")
    ind += "      "
elif G:
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


def push():
    global ind
    ind += "  "


def pop():
    global ind
    ind = ind[:-2]
    line("}")


def ctas():
    """Opens the loop over the cluster's CTAs (nothing without clusters)."""
    if X > 1:
        line(f"gpuir.for %c = 0 to {X} : cuda_threads<#gpuir.unit<cta_in_cluster>> {{")
        push()


def end_ctas():
    if X > 1:
        pop()


# Without clusters the buffers are as before; with them each has a leading
# dimension over the CTAs (each CTA holds its part), indexed by %c.
cx, cs = ("", "") if X == 1 else ("%c, ", f"{X}x")
bs = "" if X == 1 else f"{X}, "
D = f"memref<{cs}{cons}x128x{halves}x{bn // 2}xf32, #gpuir.rmem>"
FULL = f"!gpuir.barrier<mbarrier [{bs}{S}]>"
EMPTY = f"!gpuir.barrier<mbarrier_prearrive [{bs}{S}]>"
# A release arrives on the stage's empty mbarrier of every CTA of the
# cluster (each one's producer multicasts into all of them).
every = "" if X == 1 else f"0 : {X}, "
line(f"%As = gpuir.alloc : memref<{cs}{S}x{bm}x{KB}x{it}, {SW}>")
line(f"%Bs = gpuir.alloc : memref<{cs}{S}x{bn}x{KB}x{it}, {SW}>")
line(f"%D = gpuir.alloc : {D}")
line(f"%full = gpuir.alloc : {FULL}")
line(f"%empty = gpuir.alloc : {EMPTY}")
line(f"%mma = gpuir.alloc : !gpuir.barrier<wgmma_group>")
QW = bn // P
CS = f"memref<{cs}{cons}x2x{QW // BW}x64x{BW}x{ct}, #gpuir.smem>"
if TMA_STORE:
    line(f"%Cs = gpuir.alloc : {CS}")
    line(f"%st = gpuir.alloc : !gpuir.barrier<tma_store_group>")
if X > 1:
    line(f"%cs = gpuir.alloc : !gpuir.barrier<cluster_sync>")
if T > 1:
    line(f"gpuir.for %s = 0 to {T} : seq {{")
    push()
ctas()
line(f"gpuir.warps \"consumer\" {{")
line(f"  gpuir.for %wm = 0 to {cons} : cuda_threads<#gpuir.unit<warpgroup>> {{")
line(f"    gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {{")
line(f"      gpuir.for %h = 0 to {halves} : seq {{")
line(f"        gpuir.for %r = 0 to {bn // 2} : seq {{")
line(f"          %zero = arith.constant 0.0 : f32")
line(f"          gpuir.write %zero, %D[{cx}%wm, %t, %h, %r] : {D}")
line(f"        }}")
line(f"      }}")
line(f"    }}")
line(f"  }}")
line(f"}}")
end_ctas()
line(f"gpuir.for %k = 0 to %Kt : seq {{")
push()
ctas()
AS = f"memref<{cs}{S}x{bm}x{KB}x{it}, {SW}>"
BS = f"memref<{cs}{S}x{bn}x{KB}x{it}, {SW}>"
line(f"gpuir.warps \"producer\" {{")
line(f"  gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {{")
line(f"    gpuir.await %empty[{cx}%k mod {S}], tma_to_smem_async : {EMPTY}")
line(f"    %sA = gpuir.window %As[{cx}%k mod {S}, 0 : {bm}, 0 : {KB}] : {AS}")
line(f"    %gA = gpuir.window %A[{abase} : {abase} + {bm}, {kcol} : {kcol} + {KB}] : memref<?x?x{it}, #gpuir.gmem>")
line(f"    gpuir.sm90a.tma_load %sA, %gA >> %full[{cx}%k mod {S}] : memref<{bm}x{KB}x{it}, strided<[{KB}, 1], offset: ?>, {SW}>, memref<{bm}x{KB}x{it}, strided<[?, 1], offset: ?>, #gpuir.gmem>, {FULL}")
if X == 1:
    line(f"    %sBt = gpuir.window %Bs[%k mod {S}, 0 : {bn}, 0 : {KB}] : {BS}")
    line(f"    %gBt = gpuir.window %Bt[%n * {bn} : %n * {bn} + {bn}, {kcol} : {kcol} + {KB}] : memref<?x?x{it}, #gpuir.gmem>")
    line(f"    gpuir.sm90a.tma_load %sBt, %gBt >> %full[%k mod {S}] : memref<{bn}x{KB}x{it}, strided<[{KB}, 1], offset: ?>, {SW}>, memref<{bn}x{KB}x{it}, strided<[?, 1], offset: ?>, #gpuir.gmem>, {FULL}")
else:
    part = bn // X
    lo = f"%c * {part}"
    line(f"    // This CTA's {part} rows of the B slice, into the stage of every CTA.")
    line(f"    %sBt = gpuir.window %Bs[0 : {X}, %k mod {S}, {lo} : {lo} + {part}, 0 : {KB}] : {BS}")
    line(f"    %gBt = gpuir.window %Bt[%n * {bn} + {lo} : %n * {bn} + {lo} + {part}, %k * {KB} : %k * {KB} + {KB}] : memref<?x?x{it}, #gpuir.gmem>")
    line(f"    gpuir.sm90a.tma_load %sBt, %gBt >> %full[0 : {X}, %k mod {S}] : memref<{X}x{part}x{KB}x{it}, strided<[{S * bn * KB}, {KB}, 1], offset: ?>, {SW}>, memref<{part}x{KB}x{it}, strided<[?, 1], offset: ?>, #gpuir.gmem>, {FULL}")
line(f"  }}")
line(f"}}")
# Every CTA's copies (and so every arrival on a stage's full mbarriers)
# come before any CTA's consumers wait for the stage.
end_ctas()
ctas()
line(f"gpuir.warps \"consumer\" {{")
line(f"  gpuir.for %wm = 0 to {cons} : cuda_threads<#gpuir.unit<warpgroup>> {{")
line(f"    gpuir.await %full[{cx}%k mod {S}], wgmma_async : {FULL}")
line(f"    gpuir.fence wgmma_fence_1 -> wgmma_fence_2")
line(f"    gpuir.for %kk = 0 to 4 : seq {{")
line(f"      %b = gpuir.window %Bs[{cx}%k mod {S}, 0 : {bn}, %kk * {KI} : %kk * {KI} + {KI}] : {BS}")
line(f"      gpuir.for %h = 0 to {halves} : seq {{")
line(f"        %d = gpuir.window %D[{cx}%wm, 0 : 128, %h, 0 : {bn // 2}] : {D}")
line(f"        %a = gpuir.window %As[{cx}%k mod {S}, %wm * {rows} + %h * 64 : %wm * {rows} + %h * 64 + 64, %kk * {KI} : %kk * {KI} + {KI}] : {AS}")
line(f"        gpuir.sm90a.wgmma %d, %a, %b : memref<128x{bn // 2}xf32, strided<[{halves * bn // 2}, 1], offset: ?>, #gpuir.rmem>, memref<64x{KI}x{it}, strided<[{KB}, 1], offset: ?>, {SW}>, memref<{bn}x{KI}x{it}, strided<[{KB}, 1], offset: ?>, {SW}>")
line(f"      }}")
line(f"    }}")
line(f"    gpuir.arrive wgmma_async >> %mma : !gpuir.barrier<wgmma_group>")
line(f"    gpuir.await %mma, cuda_in_order, outstanding(1) : !gpuir.barrier<wgmma_group>")
line(f"  }}")
line(f"  // The previous slice's products are done: release its stage{'' if X == 1 else ' in every CTA'}.")
line(f"  gpuir.if %k >= 1 {{")
line(f"    gpuir.arrive cuda_in_order >> %empty[{every}(%k + {S - 1}) mod {S}] : {EMPTY}")
line(f"  }}")
line(f"}}")
end_ctas()
pop()
ctas()
line(f"gpuir.warps \"consumer\" {{")
line(f"  gpuir.for %wm = 0 to {cons} : cuda_threads<#gpuir.unit<warpgroup>> {{")
line(f"    gpuir.await %mma, cuda_in_order, outstanding(0) : !gpuir.barrier<wgmma_group>")
line(f"  }}")
line(f"  gpuir.if %Kt >= 1 {{")
line(f"    gpuir.arrive cuda_in_order >> %empty[{every}(%Kt + {S - 1}) mod {S}] : {EMPTY}")
line(f"  }}")
line(f"  // Register 4 j + i of thread t holds row 16 (t / 32) + (t mod 32) / 4")
line(f"  // + 8 (i / 2), column 8 j + 2 (t mod 4) + i mod 2 of a 64 x {bn} part.")
if TMA_STORE:
    line(f"  gpuir.for %wm = 0 to {cons} : cuda_threads<#gpuir.unit<warpgroup>> {{")
    line(f"    gpuir.for %q = 0 to {P} : seq {{")
    line(f"      // Buffer q mod 2 is free again once the group of {'quarter' if P == 4 else 'part'} q - 2 is done.")
    line(f"      gpuir.if %q >= 2 {{")
    line(f"        gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {{")
    line(f"          gpuir.await %st, cuda_in_order, outstanding(1){RD} : !gpuir.barrier<tma_store_group>")
    line(f"        }}")
    line(f"        gpuir.fence cuda_in_order -> cuda_in_order")
    line(f"      }}")
    line(f"      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {{")
    line(f"        gpuir.for %j = 0 to {QW // 8} : seq {{")
    line(f"          gpuir.for %i = 0 to 4 : seq {{")
    line(f"            %v = gpuir.read %D[{cx}%wm, %t, 0, (%q * {QW // 8} + %j) * 4 + %i] : {D}")
    if a.out == "bf16":
        line(f"            %cv = arith.truncf %v : f32 to bf16")
    sub, col = (("%j floordiv 2", "(%j mod 2) * 8 + ") if BW == 16 else ("%j", ""))
    line(f"            gpuir.write {'%cv' if a.out == 'bf16' else '%v'}, %Cs[{cx}%wm, %q mod 2, {sub}, (%t floordiv 32) * 16 + (%t mod 32) floordiv 4 + (%i floordiv 2) * 8, {col}(%t mod 4) * 2 + %i mod 2] : {CS}")
    line(f"          }}")
    line(f"        }}")
    line(f"      }}")
    line(f"      gpuir.fence cuda_in_order -> cuda_generic_and_async_proxy")
    line(f"      gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {{")
    line(f"        gpuir.for %x = 0 to {QW // BW} : seq {{")
    line(f"          %cst = gpuir.window %Cs[{cx}%wm, %q mod 2, %x, 0 : 64, 0 : {BW}] : {CS}")
    line(f"          %cg = gpuir.window %C[{cbase} + %wm * 64 : {cbase} + %wm * 64 + 64, %n * {bn} + %q * {QW} + %x * {BW} : %n * {bn} + %q * {QW} + %x * {BW} + {BW}] : memref<?x?x{ct}, #gpuir.gmem>")
    line(f"          gpuir.sm90a.tma_store %cg, %cst : memref<64x{BW}x{ct}, strided<[?, 1], offset: ?>, #gpuir.gmem>, memref<64x{BW}x{ct}, strided<[{BW}, 1], offset: ?>, #gpuir.smem>")
    line(f"        }}")
    line(f"        gpuir.arrive tma_to_gmem_async >> %st : !gpuir.barrier<tma_store_group>")
    line(f"      }}")
    line(f"    }}")
    line(f"    // Every group {'has read its buffer' if READ else 'done'} before the task ends (its buffers are freed).")
    line(f"    gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {{")
    line(f"      gpuir.await %st, cuda_in_order, outstanding(0){RD} : !gpuir.barrier<tma_store_group>")
    line(f"    }}")
    if T > 1:
        line(f"    // The next tile's stores write the buffers again.")
        line(f"    gpuir.fence cuda_in_order -> cuda_in_order")
    line(f"  }}")
    line(f"}}")
else:
    line(f"  gpuir.for %wm = 0 to {cons} : cuda_threads<#gpuir.unit<warpgroup>> {{")
    line(f"    gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {{")
    line(f"      gpuir.for %h = 0 to {halves} : seq {{")
    line(f"        gpuir.for %j = 0 to {bn // 8} : seq {{")
    line(f"          gpuir.for %i = 0 to 4 : seq {{")
    line(f"            %v = gpuir.read %D[{cx}%wm, %t, %h, %j * 4 + %i] : {D}")
    val = "%v"
    if a.out == "bf16":
        line(f"            %c = arith.truncf %v : f32 to bf16" if X == 1 else f"            %cv = arith.truncf %v : f32 to bf16")
        val = "%c" if X == 1 else "%cv"
    line(f"            gpuir.write {val}, %C[{cbase} + %wm * {rows} + %h * 64 + (%t floordiv 32) * 16 + (%t mod 32) floordiv 4 + (%i floordiv 2) * 8, %n * {bn} + %j * 8 + (%t mod 4) * 2 + %i mod 2] : memref<?x?x{ct}, #gpuir.gmem>")
    line(f"          }}")
    line(f"        }}")
    line(f"      }}")
    line(f"    }}")
    line(f"  }}")
    line(f"}}")
end_ctas()
if X > 1:
    line(f"// No CTA's producer refills the stages of the next task while another")
    line(f"// CTA's consumers may still read them.")
    line(f"gpuir.arrive cuda_in_order >> %cs : !gpuir.barrier<cluster_sync>")
    line(f"gpuir.await %cs, cuda_in_order : !gpuir.barrier<cluster_sync>")
if T > 1:
    pop()
ind = ind[:-2]
while len(ind) >= 4:
    line("}")
    ind = ind[:-2]
w("  }")
w("}")
print("\n".join(out))
