"""The ping-pong schedule of make_gemm.py (--schedule pingpong).

In the cooperative schedule (make_gemm.py's own) both consumer warpgroups
multiply the same tile, half of its rows each, and store it together: while
they store, the tensor cores idle. Here each consumer warpgroup owns whole
tiles of BM x BN (two wgmma.m64nBNk16 a 16-wide step of K: BM = 128) and
the two take turns: a task is 2 T tiles side by side in N, tile j for
warpgroup j mod 2. One producer thread fills the ring(s) of S stages (a
stage: BM rows of A and BN rows of Bt, 128 bytes each) with the tiles'
slices, the tiles in order: tile j + 1's slices are loaded only after tile
j's, so warpgroup 1 starts multiplying as warpgroup 0's last
slices are loaded, and each warpgroup stores its tile while the other
multiplies the next (every store but the task's last overlaps products).

Why the rings: a thread keeps one phase parity per mbarrier element,
flipped by each of its awaits. With a ring a warpgroup (the default,
--ring each), each waits on every phase of its own ring, and the active
warpgroup has only half of shared memory (3 stages of 32 KB) to hide the
loads' latency. Both forms first ran at 0.43-0.44 of cuBLAS (H100 and H200,
bench/gemm/h100-2026-12-07.log, h200-shared-ring.log) whatever the ring:
both consumer warpgroups were one warp group ("consumer", 8 warps), so each
ran one code path with the other's tiles under a branch on its warpgroup
index, and ptxas serialized every wgmma (its info C7518, "wgmma.mma_async
instructions are serialized due to program dependence on compiler-inserted
WG.DP in divergent path": the accumulator registers are live across the
branch). Each consumer warpgroup is now a warp group of its own
(consumer0, consumer1), so that code generation gives each its own path,
with no branch between its products; ptxas no longer warns.
With --ring shared, one ring of S stages
holds both warpgroups' slices (tile j's slice k at position j Kt + k):
each warpgroup counts the phases of the other's tiles with `gpuir.await
..., skip` (the parity advances, nothing waits) and the two take turns
through two mbarriers: warpgroup w arrives on turn w once it has awaited
its tile's last slice, and the other awaits it before its next tile. The
turn is what makes the skips sound: a warpgroup's first await after
skipping a phase must come after that phase completed (the wait sees only
the current phase's parity); the check rejects the kernel without it
(test/SyncCheck/gemm-pingpong-mutations.mlir).

The accumulators are one register buffer of 256 rows, warpgroup w's in rows
128 w to 128 w + 127: each thread keeps one set of registers for its
warpgroup's tiles. (With a buffer per warpgroup in one shared code path,
both were live, each part under its guard, and ptxas spilled 1.7 KB.)

The epilogue is the cooperative TMA-store one per warpgroup: parts of 64
rows (half h of the tile's rows) staged in one of the warpgroup's two
buffers of 8 KB and stored as boxes of 32 bytes: bf16 out, quarters of
64 x 64 in boxes of 64 x 16; f32 out (--in tf32), eighths of 64 x 32 in
boxes of 64 x 8.
"""


def write(a):
    assert (a.inp, a.out) in (("bf16", "bf16"), ("tf32", "f32")) and a.store == "tma", \
        "--schedule pingpong is written for bf16 in and out or tf32 in and f32 out, --store tma"
    assert a.cluster == 1 and a.split == 1 and a.consumers == 2, \
        "--schedule pingpong is written without clusters or split K, for 2 consumers"
    bm, bn = (int(x) for x in a.tile.split("x"))
    assert bm == 128 and bn == 128, "--schedule pingpong is written for 128x128 tiles"
    S, G, T = a.stages, a.group, a.tiles
    # --ring shared: one ring of S stages for both warpgroups, tile j's
    # slice k at position j Kt + k; each warpgroup skips the phases of the
    # other's tiles and the two take turns through two mbarriers (above).
    shared = a.ring == "shared"
    RS = S
    J = 2 * T  # tiles a task
    # The input element, K of a 128-byte row (one stage) and of one wgmma;
    # the output element, the columns of an epilogue part (its staging
    # buffer: 64 rows, 8 KB) and of a TMA box (32 bytes).
    it, KB, KI = ("bf16", 64, 16) if a.inp == "bf16" else ("f32", 32, 8)
    ct, QW, BW = ("bf16", 64, 16) if a.out == "bf16" else ("f32", 32, 8)
    P = bm * bn // (64 * QW)  # parts of a tile
    halves = bm // 64
    # --stages S: each warpgroup's ring, or the one shared ring.
    rings = 1 if shared else 2
    smem = rings * S * (bm + bn) * 128 + 2 * 2 * 64 * QW * (2 if ct == "bf16" else 4)
    assert smem <= 227 * 1024, f"{rings} ring(s) of {S} stages and the staging buffers do not fit"
    SW = "#gpuir.smem_swizzled<128>"
    if G:
        params = ["Mg", "Nt", "Kt"]
        mrows = f"Mg * {G * bm}"
        mbase = f"%mg * {G * bm} + %mi * {bm}"
        sizes = "[{Mg = 1, Nt = 2, Kt = 7}, {Mg = 1, Nt = 1, Kt = 1}, {Mg = 1, Nt = 1, Kt = 2}]"
    else:
        params = ["Mt", "Nt", "Kt"]
        mrows = f"Mt * {bm}"
        mbase = f"%m * {bm}"
        sizes = "[{Mt = 2, Nt = 1, Kt = 7}, {Mt = 1, Nt = 1, Kt = 1}, {Mt = 1, Nt = 1, Kt = 2}]"
    nw = J * bn  # the columns of C a task writes
    pl = ", ".join(params)
    out = []
    w = out.append
    inflag = "" if a.inp == "bf16" else " --in tf32"
    w(f"// Written by bench/gemm/make_gemm.py {a.name} --tile {a.tile} --consumers 2 "
      f"--stages {S} --group {G} --tiles {T}{inflag} --out {a.out} --store tma --schedule pingpong"
      + (" --ring shared." if shared else "."))
    w(f"// C = A Bt^T, {a.inp} in, f32 sums, {a.out} out, ping-pong: each consumer warpgroup")
    w(f"// (a warp group of its own, 232 registers) owns whole {bm}x{bn} tiles (two wgmma.m64n{bn}k{KI} a step)")
    w(f"// and the two take turns; a task is {J} tiles side by side in N, tile j for")
    if shared:
        w(f"// warpgroup j mod 2. A producer warpgroup (40 registers) fills one ring")
        w(f"// of {S} swizzled stages with the tiles' slices in order; each warpgroup")
        w(f"// skips the ring phases of the other's tiles and begins a tile once the")
        w(f"// other has issued its products (turn0, turn1); it releases its slices,")
        w(f"// one behind, and stores its")
    else:
        w(f"// warpgroup j mod 2. A producer warpgroup (40 registers) fills each")
        w(f"// warpgroup's ring of {S} swizzled stages with its tiles' slices, the tiles")
        w(f"// in order; each warpgroup releases its slices, one behind, and stores its")
    w(f"// tile through shared memory with TMA while the other multiplies")
    w(f"// (bench/gemm/pingpong.py).")
    if G:
        w(f"// Tasks in groups of {G} down M (the innermost task loop).")
    w(f"gpuir.proc @{a.name}({', '.join(f'%{x}: index' for x in params)},")
    w(f"    %A: memref<?x?x{it}, #gpuir.gmem> {{gpuir.extents = affine_map<({pl}) -> ({mrows}, Kt * {KB})>}},")
    w(f"    %Bt: memref<?x?x{it}, #gpuir.gmem> {{gpuir.extents = affine_map<({pl}) -> (Nt * {nw}, Kt * {KB})>}},")
    w(f"    %C: memref<?x?x{ct}, #gpuir.gmem> {{gpuir.extents = affine_map<({pl}) -> ({mrows}, Nt * {nw})>}})")
    w(f"    attributes {{gpuir.check_sizes = {sizes}}} {{")
    w(f"  gpuir.device_function blocks_per_sm(1) warps(producer = 4 dec(40), consumer0 = 4 inc(232), consumer1 = 4 inc(232)) {{")
    ind = ["    "]
    if G:
        w(f"{ind[0]}gpuir.for %mg = 0 to %Mg : cuda_tasks {{")
        w(f"{ind[0]}  gpuir.for %n = 0 to %Nt : cuda_tasks {{")
        w(f"{ind[0]}    gpuir.for %mi = 0 to {G} : cuda_tasks {{")
        ind[0] += "      "
    else:
        w(f"{ind[0]}gpuir.for %m = 0 to %Mt : cuda_tasks {{")
        w(f"{ind[0]}  gpuir.for %n = 0 to %Nt : cuda_tasks {{")
        ind[0] += "    "

    def line(s):
        w(ind[0] + s)

    # The accumulators: one buffer of 256 rows, warpgroup w's in rows
    # 128 w to 128 w + 127 (the docstring says why).
    D = f"memref<256x{halves}x{bn // 2}xf32, #gpuir.rmem>"
    AS = f"memref<{RS}x{bm}x{KB}x{it}, {SW}>"
    BS = f"memref<{RS}x{bn}x{KB}x{it}, {SW}>"
    FULL = f"!gpuir.barrier<mbarrier [{RS}]>"
    EMPTY = f"!gpuir.barrier<mbarrier_prearrive [{RS}]>"
    CS = f"memref<2x2x{QW // BW}x64x{BW}x{ct}, #gpuir.smem>"
    for r in range(1 if shared else 2):
        line(f"%As{r} = gpuir.alloc : {AS}")
        line(f"%Bs{r} = gpuir.alloc : {BS}")
        line(f"%full{r} = gpuir.alloc : {FULL}")
        line(f"%empty{r} = gpuir.alloc : {EMPTY}")
    line(f"%D = gpuir.alloc : {D}")
    line(f"%mma = gpuir.alloc : !gpuir.barrier<wgmma_group>")
    line(f"%Cs = gpuir.alloc : {CS}")
    line(f"%st = gpuir.alloc : !gpuir.barrier<tma_store_group>")
    TURN = "!gpuir.barrier<mbarrier [1]>"
    if shared:
        # turn w: warpgroup w has issued its tile's products (it awaited
        # every phase of its slices); the other may begin its own.
        line(f"%turn0 = gpuir.alloc : {TURN}")
        if J > 2:
            line(f"%turn1 = gpuir.alloc : {TURN}")

    def skip(wg, tile):
        """Warpgroup wg counts the ring phases of the other's tile."""
        pos = "%k" if tile == 0 else f"%Kt * {tile} + %k"
        line(f"gpuir.warps \"consumer{wg}\" {{")
        line(f"  gpuir.for %wm = 0 to 1 : cuda_threads<#gpuir.unit<warpgroup>> {{")
        line(f"    // The phases of tile {tile}'s slices, which warpgroup {1 - wg} awaits.")
        line(f"    gpuir.for %k = 0 to %Kt : seq {{")
        line(f"      gpuir.await %full0[({pos}) mod {RS}], wgmma_async, skip : {FULL}")
        line(f"    }}")
        line(f"  }}")
        line(f"}}")

    for j in range(J):
        wg = j % 2
        if shared and j >= 1:
            line(f"// Warpgroup {wg} begins after warpgroup {1 - wg} issued tile {j - 1}'s products.")
            line(f"gpuir.warps \"consumer{wg}\" {{")
            line(f"  gpuir.for %wm = 0 to 1 : cuda_threads<#gpuir.unit<warpgroup>> {{")
            line(f"    gpuir.await %turn{1 - wg}[0], cuda_in_order : {TURN}")
            line(f"  }}")
            line(f"}}")
            skip(wg, j - 1)
        # The warpgroup's ring: its i-th tile's slice k at position i Kt + k.
        i = j if shared else j // 2
        rg = 0 if shared else wg
        pos = "%k" if i == 0 else f"%Kt * {i} + %k"
        last = "%Kt" if i == 0 else f"%Kt * {i + 1}"
        col = f"%n * {nw}" + (f" + {j * bn}" if j else "")
        colEnd = f"%n * {nw} + {(j + 1) * bn}"
        line(f"// Tile {j}: columns {j * bn} to {j * bn + bn} of the task's, warpgroup {wg}.")
        line(f"gpuir.warps \"consumer{wg}\" {{")
        line(f"  gpuir.for %wm = 0 to 1 : cuda_threads<#gpuir.unit<warpgroup>> {{")
        line(f"    gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {{")
        line(f"      gpuir.for %h = 0 to {halves} : seq {{")
        line(f"        gpuir.for %r = 0 to {bn // 2} : seq {{")
        line(f"          %zero = arith.constant 0.0 : f32")
        line(f"          gpuir.write %zero, %D[{wg * 128} + %t, %h, %r] : {D}")
        line(f"        }}")
        line(f"      }}")
        line(f"    }}")
        line(f"  }}")
        line(f"}}")
        line(f"gpuir.for %k = 0 to %Kt : seq {{")
        line(f"  gpuir.warps \"producer\" {{")
        line(f"    gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {{")
        line(f"      gpuir.await %empty{rg}[({pos}) mod {RS}], tma_to_smem_async : {EMPTY}")
        line(f"      %sA = gpuir.window %As{rg}[({pos}) mod {RS}, 0 : {bm}, 0 : {KB}] : {AS}")
        line(f"      %gA = gpuir.window %A[{mbase} : {mbase} + {bm}, %k * {KB} : %k * {KB} + {KB}] : memref<?x?x{it}, #gpuir.gmem>")
        line(f"      gpuir.sm90a.tma_load %sA, %gA >> %full{rg}[({pos}) mod {RS}] : memref<{bm}x{KB}x{it}, strided<[{KB}, 1], offset: ?>, {SW}>, memref<{bm}x{KB}x{it}, strided<[?, 1], offset: ?>, #gpuir.gmem>, {FULL}")
        line(f"      %sBt = gpuir.window %Bs{rg}[({pos}) mod {RS}, 0 : {bn}, 0 : {KB}] : {BS}")
        line(f"      %gBt = gpuir.window %Bt[{col} : {colEnd}, %k * {KB} : %k * {KB} + {KB}] : memref<?x?x{it}, #gpuir.gmem>")
        line(f"      gpuir.sm90a.tma_load %sBt, %gBt >> %full{rg}[({pos}) mod {RS}] : memref<{bn}x{KB}x{it}, strided<[{KB}, 1], offset: ?>, {SW}>, memref<{bn}x{KB}x{it}, strided<[?, 1], offset: ?>, #gpuir.gmem>, {FULL}")
        line(f"    }}")
        line(f"  }}")
        line(f"  gpuir.warps \"consumer{wg}\" {{")
        line(f"    gpuir.for %wm = 0 to 1 : cuda_threads<#gpuir.unit<warpgroup>> {{")
        line(f"      gpuir.await %full{rg}[({pos}) mod {RS}], wgmma_async : {FULL}")
        line(f"      gpuir.fence wgmma_fence_1 -> wgmma_fence_2")
        line(f"      gpuir.for %kk = 0 to 4 : seq {{")
        line(f"        %b = gpuir.window %Bs{rg}[({pos}) mod {RS}, 0 : {bn}, %kk * {KI} : %kk * {KI} + {KI}] : {BS}")
        line(f"        gpuir.for %h = 0 to {halves} : seq {{")
        line(f"          %d = gpuir.window %D[{wg * 128} : {wg * 128 + 128}, %h, 0 : {bn // 2}] : {D}")
        line(f"          %a = gpuir.window %As{rg}[({pos}) mod {RS}, %h * 64 : %h * 64 + 64, %kk * {KI} : %kk * {KI} + {KI}] : {AS}")
        line(f"          gpuir.sm90a.wgmma %d, %a, %b : memref<128x{bn // 2}xf32, strided<[{halves * bn // 2}, 1], offset: ?>, #gpuir.rmem>, memref<64x{KI}x{it}, strided<[{KB}, 1], offset: ?>, {SW}>, memref<{bn}x{KI}x{it}, strided<[{KB}, 1], offset: ?>, {SW}>")
        line(f"        }}")
        line(f"      }}")
        line(f"      gpuir.arrive wgmma_async >> %mma : !gpuir.barrier<wgmma_group>")
        line(f"      gpuir.await %mma, cuda_in_order, outstanding(1) : !gpuir.barrier<wgmma_group>")
        line(f"      // The previous slice's products are done: release its stage.")
        line(f"      gpuir.if %k >= 1 {{")
        line(f"        gpuir.arrive cuda_in_order >> %empty{rg}[({pos} + {RS - 1}) mod {RS}] : {EMPTY}")
        line(f"      }}")
        line(f"    }}")
        line(f"  }}")
        line(f"}}")
        line(f"gpuir.warps \"consumer{wg}\" {{")
        line(f"  gpuir.for %wm = 0 to 1 : cuda_threads<#gpuir.unit<warpgroup>> {{")
        if shared and j + 1 < J:
            line(f"    gpuir.arrive cuda_in_order >> %turn{wg}[0] : {TURN}")
        line(f"    gpuir.await %mma, cuda_in_order, outstanding(0) : !gpuir.barrier<wgmma_group>")
        line(f"    gpuir.if %Kt >= 1 {{")
        line(f"      gpuir.arrive cuda_in_order >> %empty{rg}[({last} + {RS - 1}) mod {RS}] : {EMPTY}")
        line(f"    }}")
        PH = bn // QW  # parts across a 64-row half
        if P == 4:
            line(f"    // Quarter q: rows 64 (q / 2), columns 64 (q mod 2) of the tile. Register")
        else:
            line(f"    // Part q: rows 64 (q / {PH}), columns {QW} (q mod {PH}) of the tile. Register")
        line(f"    // 4 j + i of wgmma half h holds row 16 (t / 32) + (t mod 32) / 4 + 8 (i / 2),")
        line(f"    // column 8 j + 2 (t mod 4) + i mod 2 of its 64 rows.")
        line(f"    gpuir.for %q = 0 to {P} : seq {{")
        line(f"      // Buffer q mod 2 is free again once the group of {'quarter' if P == 4 else 'part'} q - 2 has read it.")
        line(f"      gpuir.if %q >= 2 {{")
        line(f"        gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {{")
        line(f"          gpuir.await %st, cuda_in_order, outstanding(1), read : !gpuir.barrier<tma_store_group>")
        line(f"        }}")
        line(f"        gpuir.fence cuda_in_order -> cuda_in_order")
        line(f"      }}")
        line(f"      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {{")
        line(f"        gpuir.for %j = 0 to {QW // 8} : seq {{")
        line(f"          gpuir.for %i = 0 to 4 : seq {{")
        line(f"            %v = gpuir.read %D[{wg * 128} + %t, %q floordiv {PH}, ((%q mod {PH}) * {QW // 8} + %j) * 4 + %i] : {D}")
        if ct == "bf16":
            line(f"            %cv = arith.truncf %v : f32 to bf16")
        sub, cc = ("%j floordiv 2", "(%j mod 2) * 8 + ") if BW == 16 else ("%j", "")
        line(f"            gpuir.write {'%cv' if ct == 'bf16' else '%v'}, %Cs[{wg}, %q mod 2, {sub}, (%t floordiv 32) * 16 + (%t mod 32) floordiv 4 + (%i floordiv 2) * 8, {cc}(%t mod 4) * 2 + %i mod 2] : {CS}")
        line(f"          }}")
        line(f"        }}")
        line(f"      }}")
        line(f"      gpuir.fence cuda_in_order -> cuda_generic_and_async_proxy")
        line(f"      gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {{")
        line(f"        gpuir.for %x = 0 to {QW // BW} : seq {{")
        line(f"          %cst = gpuir.window %Cs[{wg}, %q mod 2, %x, 0 : 64, 0 : {BW}] : {CS}")
        line(f"          %cg = gpuir.window %C[{mbase} + (%q floordiv {PH}) * 64 : {mbase} + (%q floordiv {PH}) * 64 + 64, {col} + (%q mod {PH}) * {QW} + %x * {BW} : {col} + (%q mod {PH}) * {QW} + %x * {BW} + {BW}] : memref<?x?x{ct}, #gpuir.gmem>")
        line(f"          gpuir.sm90a.tma_store %cg, %cst : memref<64x{BW}x{ct}, strided<[?, 1], offset: ?>, #gpuir.gmem>, memref<64x{BW}x{ct}, strided<[{BW}, 1], offset: ?>, #gpuir.smem>")
        line(f"        }}")
        line(f"        gpuir.arrive tma_to_gmem_async >> %st : !gpuir.barrier<tma_store_group>")
        line(f"      }}")
        line(f"    }}")
        line(f"    // Every group has read its buffer before the buffers are written again.")
        line(f"    gpuir.for %t = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {{")
        line(f"      gpuir.await %st, cuda_in_order, outstanding(0), read : !gpuir.barrier<tma_store_group>")
        line(f"    }}")
        line(f"    gpuir.fence cuda_in_order -> cuda_in_order")
        line(f"  }}")
        line(f"}}")
    if shared:
        # Every phase of the task's slices is counted by both warpgroups
        # (the ring's phases carry over to the CTA's next task).
        skip(J % 2, J - 1)
    i = ind[0]
    while len(i) >= 4:
        i = i[:-2]
        w(i + "}")
    w("}")
    return "\n".join(out)
