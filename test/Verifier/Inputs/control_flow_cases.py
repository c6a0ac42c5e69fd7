#!/usr/bin/env python3
"""Synthetic SASS for the verifier's one reading of control flow
(lib/Verifier/Disassembly.cpp, controlFlow) as the loop rule sees it
(Verifier.cpp, reachable and checkCallsAndLoops): each case edits the
recorded disassembly of the `loop` fixture (its loop's branch at 0x170, its
EXIT at 0x220), and is given to rake-verify with --disasm and
--source-loops=0 (or, for NAME_evidence, with no evidence of the source's
loops). Not evidence about any cubin: the shapes a jump may take.

  control_flow_cases.py RAKE_VERIFY DISASM_JSON CUBIN OUTDIR

prints "NAME: clean", or "NAME:" and each loop, evidence or
unknown-instruction finding."""
import json
import subprocess
import sys

from sass_text import write_edited

verify, recorded, cubin, outdir = sys.argv[1:5]
BASE = json.load(open(recorded))

CASES = {
    # The fixture: a backward BRA.
    "bra": ({}, True),
    # The same loop closed by a return used as a jump in the kernel itself
    # (a kernel ends with EXIT; a RET there jumps through a register): the
    # loop rule used to look at BRA only.
    "ret": ({0x170: "@!P1 RET.REL.NODEC R20,0x0"}, True),
    # ... or by an absolute or indirect jump, which the profile does not
    # know (every instruction after the indirect one is then reached: the
    # trailing BRA to itself after EXIT too).
    "jmp": ({0x170: "@!P1 JMP 0x110"}, False),
    "brx": ({0x170: "@!P1 BRX R20 -0x180"}, False),
    # A BRA.DIV (a uniform register besides its target) may fall through:
    # the code after it is reached and its loop found.
    "after_bra_div": ({0x160: "BRA.DIV UR4,0x220", 0x170: "@!P1 BRA 0x110"}, False),
    # After an unconditional trap nothing runs: the loop's branch right
    # after one is never reached (as ptxas's BRA to itself after EXIT).
    "after_trap": ({0x160: "BPT.TRAP 0x1"}, False),
}

for name, (edits, evidence) in CASES.items():
    path = f"{outdir}/{name}.json"
    write_edited(BASE, edits, path)
    runs = [(name, ["--source-loops=0"])]
    if evidence:
        runs.append((name + "_evidence", []))
    for label, flags in runs:
        r = subprocess.run([verify, "--nvdisasm=never", "--disasm=" + path] +
                           flags + [cubin], capture_output=True, text=True)
        found = [l.split("error: ", 1)[1] for l in r.stderr.splitlines()
                 if "[rule loop]" in l or "[rule evidence]" in l or
                 "[rule unknown-instruction]" in l]
        print(f"{label}: clean" if not found else f"{label}:")
        for f in found:
            print("  " + f)
