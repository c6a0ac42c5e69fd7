#!/usr/bin/env python3
"""Synthetic SASS for the lane-uniformity dataflow of the divergent-control
rule (lib/Verifier/Divergence.cpp), as sass_cases.py does for the
address-pattern rule: each case is a short instruction sequence
put in place of ok_add's code in a copy of ok_add's recorded disassembly
(same instruction count and EXIT offsets), given to rake-verify with
--disasm. These are not evidence about any cubin: they exercise the
analysis on the SASS shapes an adversarial review found it mishandling
(2026-12-07), each a gather or scatter it must find, or a pattern of
compiler-generated code it must accept.

  sass_cases.py RAKE_VERIFY DISASM_JSON CUBIN OUTDIR

prints "NAME: flagged" or "NAME: clean" for each case."""
import json
import subprocess
import sys

from sass_text import write_ok_add

verify, recorded, cubin, outdir = sys.argv[1:5]
BASE = json.load(open(recorded))

LD = "LDG.E R5,desc[UR4][R2.64]"
STORE = "STG.E desc[UR4][R6.64],R9"

CASES = {
    # A warp collective under a branch on the thread's index masked: the
    # warpgroup bits (tid & 0x180, five low bits clear) are the same in
    # every lane of a warp, so the branch does not split a warp (a ping-pong
    # GEMM's warpgroups branch so).
    "ok_warpgroup_mask": ["LOP3.LUT R9,R0,0x180,RZ,0xc0,!PT",
                          "ISETP.NE.U32.AND P1,PT,R9,0x80,PT",
                          "@P1 BRA 0x130",
                          "SHFL.BFLY PT,R5,R0,0x1,0x1f"],
    "ok_warpgroup_mask_swapped": ["LOP3.LUT R9,0x180,R0,RZ,0xc0,!PT",
                                  "ISETP.NE.U32.AND P1,PT,R9,0x80,PT",
                                  "@P1 BRA 0x130",
                                  "SHFL.BFLY PT,R5,R0,0x1,0x1f"],
    # The warp's index as ptxas computes it from a 64-bit index: the low
    # word of (0 : tid) >> 5 (SHF.R.U64 with a zero high word), the same in
    # every lane (bench/fused/variants/*_w*.mlir guard their rows on it).
    "ok_warp_index_shift64": ["SHF.R.U64 R9,R0,0x5,RZ",
                              "ISETP.NE.U32.AND P1,PT,R9,0x1,PT",
                              "@P1 BRA 0x130",
                              "SHFL.BFLY PT,R5,R0,0x1,0x1f"],
    # Shifted by 4 (lane bit 4 stays), or with the index in the high word
    # too: the branch splits a warp.
    "shift64_by_4": ["SHF.R.U64 R9,R0,0x4,RZ",
                     "ISETP.NE.U32.AND P1,PT,R9,0x1,PT",
                     "@P1 BRA 0x130",
                     "SHFL.BFLY PT,R5,R0,0x1,0x1f"],
    "shift64_lane_high_word": ["SHF.R.U64 R9,R0,0x5,R0",
                               "ISETP.NE.U32.AND P1,PT,R9,0x1,PT",
                               "@P1 BRA 0x130",
                               "SHFL.BFLY PT,R5,R0,0x1,0x1f"],
    # The high word of (tid : 0) >> 5 is tid >> 5 (ok); without .HI the
    # low word, (tid & 31) << 27, differs in every lane (an adversarial
    # review: the rule took any SHF.R with a zero low word for the first).
    "ok_shift_high_word": ["SHF.R.U32.HI R9,RZ,0x5,R0",
                           "ISETP.NE.U32.AND P1,PT,R9,0x1,PT",
                           "@P1 BRA 0x130",
                           "SHFL.BFLY PT,R5,R0,0x1,0x1f"],
    "low_word_of_lane_high": ["SHF.R.U64 R9,RZ,0x5,R0",
                              "ISETP.NE.U32.AND P1,PT,R9,RZ,PT",
                              "@P1 BRA 0x130",
                              "SHFL.BFLY PT,R5,R0,0x1,0x1f"],
    # A mask with lane bits (0x1c), or an OR instead of an AND (0xfc):
    # the branch splits a warp.
    "lane_mask": ["LOP3.LUT R9,R0,0x1c,RZ,0xc0,!PT",
                  "ISETP.NE.U32.AND P1,PT,R9,0x4,PT",
                  "@P1 BRA 0x130",
                  "SHFL.BFLY PT,R5,R0,0x1,0x1f"],
    "or_not_and": ["LOP3.LUT R9,R0,0x180,RZ,0xfc,!PT",
                   "ISETP.NE.U32.AND P1,PT,R9,0x180,PT",
                   "@P1 BRA 0x130",
                   "SHFL.BFLY PT,R5,R0,0x1,0x1f"],
    # BRA.U only claims the warp branches together: its lane-varying guard
    # splits the warp as a plain BRA's does; BRA.ANY does branch together
    # (an adversarial review found the BRA.U case accepted).
    "bra_u_varying_guard": ["ISETP.GE.U32.AND P1,PT,R0,0x10,PT",
                            "@P1 BRA.U 0x130",
                            "SHFL.BFLY PT,R5,R0,0x1,0x1f"],
    "ok_bra_any": ["ISETP.GE.U32.AND P1,PT,R0,0x10,PT",
                   "@P1 BRA.ANY 0x130",
                   "SHFL.BFLY PT,R5,R0,0x1,0x1f"],
    # ELECT is not judged as a collective: ptxas's loops that make a value
    # warp-uniform for a TMA or mbarrier instruction elect among the active
    # lanes under a branch that splits the warp (the GEMMs' code).
    "ok_elect_divergent": ["ISETP.GE.U32.AND P1,PT,R0,0x10,PT",
                           "@P1 BRA 0x130",
                           "ELECT P2,URZ,PT"],
}


for name, body in CASES.items():
    path = f"{outdir}/{name}.json"
    write_ok_add(BASE, body, path)
    r = subprocess.run([verify, "--nvdisasm=never", "--disasm=" + path, "--source-loops=0",
                        cubin], capture_output=True, text=True)
    out = r.stdout + r.stderr
    flagged = "[rule divergent-control]" in out
    # A case the verifier did not analyze (its EXITs moved, say) proves
    # nothing: say so.
    broken = "[rule evidence]" in out
    print(f"{name}: {'flagged' if flagged else 'clean'}"
          + (" (not analyzed: evidence)" if broken else ""))
