#!/usr/bin/env python3
"""Synthetic SASS for the data-origin dataflow of the address-pattern rule
(lib/Verifier/DataOrigins.cpp): each case is a short instruction sequence
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
    # Gathers and scatters the rule must find.
    "direct": [LD, "IMAD.WIDE.U32 R6,R5,0x4,R6", "STG.E desc[UR4][R6.64],R0"],
    "atomic_result": ["MOV R8,0x1", "ATOMG.E.ADD.STRONG.GPU PT,R5,desc[UR4][R2.64],R8",
                      "IMAD.WIDE.U32 R6,R5,0x4,R6", "STG.E desc[UR4][R6.64],R0"],
    "r2ur_predicate_form": [LD, "R2UR P1,UR8,R5", "LDS R9[UR8]", STORE],
    "tma_coordinate": [LD, "R2UR UR18,R5", "R2UR UR16,R0", "R2UR UR17,R0",
                       "ULDC.64 UR8,c[0x0][0x220]", "UTMALDG.2D [UR16][UR8]"],
    "plop3_input": [LD, "ISETP.NE.AND P1,PT,R5,RZ,PT", "PLOP3.LUT P2,PT,P1,PT,PT,0x80,0x0",
                    "SEL R8,R0,RZ,P1", "LDS R9[R8]", STORE],
    "p2r_r2p": [LD, "ISETP.NE.AND P1,PT,R5,RZ,PT", "P2R R8,PR,RZ,0x2",
                "ISETP.NE.AND P1,PT,R0,RZ,PT", "R2P PR,R8,0x2", "SEL R8,R0,RZ,P1",
                "LDS R9[R8]", STORE],
    "imad_wide_addend": [LD, "IADD3 R7,R7,R5,RZ", "IMAD.WIDE.U32 R6,R0,0x4,R6",
                         "STG.E desc[UR4][R6.64],R0"],
    "iadd64_high_half": [LD, "MOV R9,R5", "MOV R8,RZ", "IADD.64 R6,R6,R8",
                         "STG.E desc[UR4][R6.64],R0"],
    "uniform_carry": [LD, "R2UR UR8,R5", "UIADD3 URZ,UP0,UR8,0x10,URZ",
                      "USEL UR9,URZ,0x40,UP0", "LDS R9[UR9]", STORE],
    "uniform_second_predicate": [LD, "R2UR UR8,R5", "UISETP.NE.AND UPT,UP1,UR8,URZ,UPT",
                                 "USEL UR9,URZ,0x40,UP1", "LDS R9[UR9]", STORE],
    "stale_guard_uniform": [LD, "S2UR UR10,SR_CTAID.X", "UISETP.NE.AND UP0,UPT,UR10,URZ,UPT",
                            "@UP0 MOV R5,RZ", "UISETP.EQ.AND UP0,UPT,UR10,URZ,UPT",
                            "@UP0 LDS R9[R5]", STORE],
    "stale_guard": [LD, "ISETP.NE.AND P1,PT,R0,0x3,PT", "@P1 MOV R5,RZ",
                    "ISETP.EQ.AND P1,PT,R0,0x3,PT", "@P1 LDS R9[R5]", STORE],
    "constant_table": ["SHF.L.U32 R8,R0,0x2,RZ", "LDC R5,c[0x3][R8]", "LDS R9[R5]", STORE],
    "mbarrier_state": ["SYNCS.ARRIVE.TRANS64 R8[UR4],RZ", "LDS R9[R8]", STORE],
    # From a second review: a branch on data whose side may exit (no
    # immediate post-dominator), uniform predicates moved as a whole, f64
    # mma results, time and place, an mbarrier's wait result, and spill
    # words overwritten in part.
    "join_with_exit": [LD, "ISETP.NE.AND P1,PT,R5,RZ,PT", "MOV R8,R0", "@P1 BRA 0xe0",
                       "IADD3 R8,R0,0x100,RZ", "@P2 BPT.TRAP 0x1", "LDS R9[R8]", STORE],
    "uniform_predicates_moved": [LD, "R2UR UR8,R5", "UISETP.NE.AND UP0,UPT,UR8,URZ,UPT",
                                 "UP2UR UR9,UPR,URZ,0x1", "LDS R9[UR9]", STORE],
    "dmma_result": ["SHF.L.U32 R8,R0,0x3,RZ", "LDS.64 R12[R8]", "DMMA.884 R16,R12,R12,RZ",
                    "LDS R9[R19]", STORE],
    "clock": ["CS2R R8,SR_CLOCKLO", "LOP3.LUT R8,R8,0xfc,RZ,0xc0,!PT", "LDS R9[R8]", STORE],
    "wait_result": ["SYNCS.PHASECHK.TRANS64.TRYWAIT P1[UR4+0x8],RZ", "SEL R8,R0,RZ,P1",
                    "LDS R9[R8]", STORE],
    "spill_part_overwritten": [LD, "STL.64 [R1+0x8],R2", "STL [R1+0xc],R5",
                               "LDL.64 R12[R1+0x8]", "LDS R9[R13]", STORE],
    # A bit of data tested into a predicate (how ptxas keeps predicates
    # in a register's bits when it runs out of them).
    # ptxas's loop moving a value into a uniform register, on data.
    "r2ur_loop_data": [LD, "PLOP3.LUT P1,PT,PT,PT,PT,0x80,0x0", "PLOP3.LUT P0,PT,P0,P1,PT,0xa2,0x0",
                       "@P1 R2UR P0,UR8,R5", "PLOP3.LUT P0,PT,P0,P1,PT,0xa2,0x0",
                       "@P1 PLOP3.LUT P1,PT,P0,PT,PT,0x80,0x0", "@P1 BRA.U.ANY 0xa0",
                       "LDS R9[UR8]", STORE],
    # A wait's predicate through P0 | !P1 with nothing written under @P1.
    "plop3_guarded_stale": ["SYNCS.PHASECHK.TRANS64.TRYWAIT P0[UR4+0x8],RZ",
                            "PLOP3.LUT P1,PT,PT,PT,PT,0x80,0x0",
                            "PLOP3.LUT P0,PT,P0,P1,PT,0xa2,0x0", "SEL R8,R0,RZ,P0",
                            "LDS R9[R8]", STORE],
    # The same PLOP3 with a second result, P3 = P0 by its own LUT: in the
    # lanes where P1 is false P3 is the wait's predicate.
    "plop3_second_result": ["SYNCS.PHASECHK.TRANS64.TRYWAIT P0[UR4+0x8],RZ",
                            "ISETP.NE.AND P1,PT,R0,0x3,PT",
                            "@P1 PLOP3.LUT P0,PT,PT,PT,PT,0x80,0x0",
                            "PLOP3.LUT P2,P3,P0,P1,PT,0xa2,0xf0", "SEL R8,R0,RZ,P3",
                            "LDS R9[R8]", STORE],
    "lop3_predicate_of_data": [LD, "LOP3.LUT P1,RZ,R5,0x4,RZ,0xc0,!PT", "SEL R8,R0,RZ,P1",
                               "LDS R9[R8]", STORE],
    # Compiler-generated patterns it must accept.
    "ok_exit_on_data": [LD, "ISETP.GT.AND P1,PT,R5,RZ,PT", "@!P1 BPT.TRAP 0x1",
                        "IMAD.WIDE.U32 R6,R0,0x4,R6", "STG.E desc[UR4][R6.64],RZ"],
    "ok_masked_store": [LD, "ISETP.GT.AND P1,PT,R5,RZ,PT", "@P1 IMAD.WIDE.U32 R6,R0,0x4,R6",
                        "@P1 STG.E desc[UR4][R6.64],RZ"],
    "ok_hmma_f16": ["SHF.L.U32 R6,R0,0x2,RZ", "LDS R8[R6]", "LDS R10[R6+0x100]",
                    "HMMA.16816.F16 R12,R8,R10,RZ", "LDS R9[R14]", "STS [R14],R12"],
    "ok_carry_after_data": [LD, "ISETP.GT.AND P1,PT,R5,RZ,PT", "IADD3 R6,P1,R6,0x4,RZ",
                            "IADD3.X R7,RZ,R7,RZ,P1,!PT", "STG.E desc[UR4][R6.64],R5"],
    "ok_spill_round_trip": [LD, "STL.64 [R1+0x8],R6", "LDL.64 R6[R1+0x8]",
                            "STG.E desc[UR4][R6.64],R5"],
    "ok_reload_high_half": ["STL.64 [R1+0x8],R6", "LDL R8[R1+0xc]", "LDL R9[R1+0x8]",
                            "STG.E desc[UR4][R8.64],R0"],
    # A wait's predicate overwritten by a bit of a clean register: the
    # predicate is no longer the wait's (found in a ping-pong GEMM, 2026-12-07).
    # The same loop on the thread's index, entered with a wait's predicate
    # in P0: the PLOP3 (P0 | !P1) reads the old P0 only where P1 holds, and
    # there the R2UR under @P1 rewrote it (found in the ping-pong GEMMs'
    # TMA stores, 2026-12-07).
    "ok_r2ur_loop_after_wait": ["SYNCS.PHASECHK.TRANS64.TRYWAIT P0[UR4+0x8],RZ",
                                "PLOP3.LUT P1,PT,PT,PT,PT,0x80,0x0",
                                "PLOP3.LUT P0,PT,P0,P1,PT,0xa2,0x0", "@P1 R2UR P0,UR8,R0",
                                "PLOP3.LUT P0,PT,P0,P1,PT,0xa2,0x0",
                                "@P1 PLOP3.LUT P1,PT,P0,PT,PT,0x80,0x0", "@P1 BRA.U.ANY 0xa0",
                                "LDS R9[UR8]", STORE],
    "ok_lop3_predicate_overwrites": ["SYNCS.PHASECHK.TRANS64.TRYWAIT P1[UR4+0x8],RZ",
                                     "LOP3.LUT P1,RZ,R0,0x4,RZ,0xc0,!PT", "SEL R8,R0,RZ,P1",
                                     "LDS R9[R8]", STORE],
}


for name, body in CASES.items():
    path = f"{outdir}/{name}.json"
    write_ok_add(BASE, body, path)
    r = subprocess.run([verify, "--nvdisasm=never", "--disasm=" + path, "--source-loops=0",
                        cubin], capture_output=True, text=True)
    out = r.stdout + r.stderr
    flagged = "[rule address-pattern]" in out
    # A case the verifier did not analyze (its EXITs moved, say) proves
    # nothing: say so.
    broken = "[rule evidence]" in out
    print(f"{name}: {'flagged' if flagged else 'clean'}"
          + (" (not analyzed: evidence)" if broken else ""))
