#!/usr/bin/env python3
"""Synthetic SASS for the fused-region rule's loops (lib/Verifier/Verifier.cpp,
checkFusedRegions; lib/Verifier/Disassembly.cpp, loopsThroughRegion): each
case edits the recorded disassembly of the fused_loop fixture (its region is
0x80-0x290 by the cubin's line table; instruction count and EXIT offsets
kept), and is given to rake-verify with --disasm. Not evidence about any
cubin: the shapes a backward branch in a region can take.

  fused_loop_cases.py RAKE_VERIFY DISASM_JSON CUBIN PTX OUTDIR

prints "NAME: flagged" (a hidden loop reported) or "NAME: clean"."""
import json
import subprocess
import sys

from sass_text import write_edited

verify, recorded, cubin, ptx, outdir = sys.argv[1:6]
BASE = json.load(open(recorded))



# The loop ptxas made at 0x130 ... 0x1d0 (@!P1 BRA 0x130) taken out, and an
# out-of-line path in its place as ptxas writes a warp collective's
# divergent fallback: BRA.DIV forward to it, a branch back to the fast
# path's end, which is a backward branch inside the region but no loop.
FALLBACK = {0x130: "BRA.DIV UR4,0x1b0", 0x1a0: "BRA 0x1d0", 0x1b0: "FMUL R5,R0,R5",
            0x1c0: "BRA 0x150", 0x1d0: "NOP"}
CASES = {
    # The fixture itself: a loop inside the region.
    "loop": {},
    # The same loop entered through a trampoline after the region
    # (0x130 -> 0x2d0 -> back to 0x140) or before it (0x130 -> 0x60,
    # 0x70 -> 0x140): the backward edges leave or enter the region, but
    # the cycle through 0x1d0 stays (found by an adversarial review: the
    # first refinement of the rule let both pass).
    "trampoline_after": {0x130: "BRA 0x2d0", 0x2d0: "FMUL R5,R0,R5", 0x2e0: "BRA 0x140"},
    "trampoline_before": {0x130: "BRA 0x60", 0x70: "BRA 0x140"},
    "ok_fallback": FALLBACK,
    # The fallback inside a loop around the whole region (both ends of
    # its back edge outside the region, 0x2a0 -> 0x70): no loop of the
    # region's own where the source has that loop around the region
    # (Inputs/ptx/fused_loop_outer.ptx); where it has not (fused_loop.ptx),
    # a loop the machine code made (an adversarial review: the region's
    # own loop rerouted through a latch after the region passed as one).
    "ok_fallback_in_outer_loop": ({**FALLBACK, 0x2a0: "@P2 BRA 0x70"}, "fused_loop_outer.ptx"),
    "outer_loop_not_in_source": {**FALLBACK, 0x2a0: "@P2 BRA 0x70"},
    # ... nor where the PTX's only loop starts at the region's first
    # instruction and ends inside it (a loop in the region, not around it).
    "outer_loop_source_loop_inside": ({**FALLBACK, 0x2a0: "@P2 BRA 0x70"}, "fused_loop_label_first.ptx"),
    "reroute_latch": {0x1d0: "@!P1 BRA 0x2a0", 0x280: "PLOP3.LUT P2,PT,PT,PT,PT,0x8,0x0",
                      0x2a0: "@P2 BRA 0x80"},
    # Targets that are no readable address (a register, a label) behind a
    # BRA.DIV, and a return used as a jump: they may go anywhere.
    "register_target_after_div": {0x130: "BRA.DIV UR4,0x1e0", 0x1c0: "MOV R20,0x130",
                                  0x1d0: "@!P1 BRA R20"},
    "ret_as_jump": {0x1c0: "MOV R20,0x130", 0x1d0: "@!P1 RET.REL.NODEC R20,0x0"},
    # A loop around only part of the region, its branch after the region
    # and its head inside (0x2a0 -> 0x150), or its branch inside and its
    # head before the region (0x100 -> 0x60): loops of the machine code
    # through the region (the rule used to look only at backward branches
    # with both ends in the region).
    "partial_loop_from_after": {**FALLBACK, 0x2a0: "@P2 BRA 0x150"},
    "partial_loop_head_before": {**FALLBACK, 0x100: "@P2 BRA 0x60"},
}

for name, edits in CASES.items():
    source = ptx
    if isinstance(edits, tuple):
        edits, other = edits
        source = ptx.rsplit("/", 1)[0] + "/" + other
    path = f"{outdir}/{name}.json"
    write_edited(BASE, edits, path)
    r = subprocess.run([verify, "--nvdisasm=never", "--disasm=" + path, "--ptx=" + source, cubin],
                       capture_output=True, text=True)
    out = r.stdout + r.stderr
    flagged = "a loop the source does not have [rule fused-region]" in out
    broken = "[rule evidence]" in out
    print(f"{name}: {'flagged' if flagged else 'clean'}" + (" (not analyzed: evidence)" if broken else ""))
