#!/usr/bin/env python3
"""Writes a variant of examples/fused_rmsnorm.mlir or softmax_w8.mlir (the
softmax example's 8-warp form) with W
warps (rows) a task instead of 8: the number of rows as the parameter, the
last task's warps past the last row guarded (bench/fused/variants/*_w*.mlir).

  make_warps.py softmax_w8.mlir 9 fused_softmax_w9 > softmax_w9.mlir
  make_warps.py softmax_w8.mlir 9 fused_softmax_w9b4 4 > softmax_w9b4.mlir
  make_warps.py softmax_w8.mlir 7 fused_softmax 4   # examples/fused_softmax.mlir's body

An optional fourth argument sets the CTAs an SM (blocks_per_sm; the
examples' 2)."""
import re, sys
src, W, name = sys.argv[1], int(sys.argv[2]), sys.argv[3]
B = int(sys.argv[4]) if len(sys.argv) > 4 else 2
t = open(src).read()
t = t.replace("%blocks: index", "%rows: index")
t = t.replace("(blocks) -> (blocks * 8, 1000)", "(rows) -> (rows, 1000)")
t = t.replace("[{blocks = 3}, {blocks = 1}]", f"[{{rows = {2 * W + 3}}}, {{rows = {W}}}, {{rows = 5}}]")
t = t.replace("blocks_per_sm(2) block(256)", f"blocks_per_sm({B}) block({32 * W})")
t = t.replace("gpuir.for %b = 0 to %blocks : cuda_tasks", f"gpuir.for %b = 0 to %rows ceildiv {W} : cuda_tasks")
t = t.replace("memref<8x32", f"memref<{W}x32")
t = t.replace("%b * 8 + %v", f"%b * {W} + %v")
t = re.sub(r"gpuir\.proc @(\w+)\(", f"gpuir.proc @{name}(", t, count=1)
t = t.replace("floats, 8 rows (8 warps) per\n// CTA.", f"floats, {W} rows ({W} warps) per\n// CTA.")
t = t.replace("floats, 8 rows (8 warps) per CTA.", f"floats, {W} rows ({W} warps) per CTA.")
t = t.replace("--sizes=blocks=1", f"--sizes=rows={W}")
# The source as the repository names it: examples/fused_rmsnorm.mlir, or
# bench/fused/variants/softmax_w8.mlir (the softmax example's 8-warp form).
base = "/".join(src.split("/")[-2:]) if "/examples/" in "/" + src else "bench/fused/variants/" + src.split("/")[-1]
t = t.replace(base, f"bench/fused/variants/{name.removeprefix('fused_')}.mlir")
t = (f"// Variant of {base} with {W} warps (rows) a task instead of 8,\n"
     f"// taking the number of rows (%rows) and guarding the last task's rows: with\n"
     f"// {B} CTAs an SM, 32768 rows are {32768 / (132 * B * W):.2f} rows a warp on 132 SMs\n"
     f"// (8 warps: 15.52, whose last round is half empty).\n//\n") + t
lines = t.split("\n")
out = []
i = 0
while i < len(lines):
    l = lines[i]
    if "gpuir.for %v = 0 to 8 : cuda_threads<#gpuir.unit<warp>> {" in l:
        ind = l[: len(l) - len(l.lstrip())]
        out.append(l.replace("0 to 8", f"0 to {W}"))
        out.append(ind + f"  // The last task's warps past the last row do nothing.")
        out.append(ind + f"  gpuir.if %b * {W} + %v < %rows {{")
        depth = 1
        i += 1
        while True:
            l2 = lines[i]
            depth += l2.count("{") - l2.count("}")
            if depth == 0:
                out.append(ind + "  }")
                out.append(l2)
                break
            out.append("  " + l2)
            i += 1
    else:
        out.append(l)
    i += 1
open(sys.stdout.fileno(), "w").write("\n".join(out))
