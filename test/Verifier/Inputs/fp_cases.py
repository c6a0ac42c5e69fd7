#!/usr/bin/env python3
"""Synthetic SASS for the floating-point rules (lib/Verifier/Verifier.cpp,
checkFunction): short sequences in place of ok_add's code, given to
rake-verify with --disasm. Not evidence about any cubin.

  fp_cases.py RAKE_VERIFY DISASM_JSON CUBIN OUTDIR

prints "NAME:" and each fp-ftz / fp-rounding finding, or "NAME: clean"."""
import json
import subprocess
import sys

from sass_text import write_ok_add

verify, recorded, cubin, outdir = sys.argv[1:5]
BASE = json.load(open(recorded))
STORE = "STG.E desc[UR4][R6.64],R9"

CASES = {
    # The vector datapath's, refused before too.
    "fadd_ftz": ["LDG.E R5,desc[UR4][R2.64]", "FADD.FTZ R9,R5,R5", STORE],
    # The uniform datapath's float arithmetic (the profile's uniform class):
    # an adversarial review found its FTZ and directed rounding unjudged.
    "uniform_ftz": ["ULDC UR6,c[0x0][0x220]", "UFADD.FTZ UR7,UR6,UR6",
                    "UFMUL.FTZ UR7,UR7,UR6", "UFFMA.FTZ UR7,UR7,UR6,UR6",
                    "MOV R9,UR7", STORE],
    "uniform_rounding": ["ULDC UR6,c[0x0][0x220]", "UFFMA.RZ UR7,UR6,UR6,UR6",
                         "UFADD.RM UR7,UR7,UR6", "MOV R9,UR7", STORE],
    "uniform_ok": ["ULDC UR6,c[0x0][0x220]", "UFADD UR7,UR6,UR6",
                   "MOV R9,UR7", STORE],
}

for name, body in CASES.items():
    path = f"{outdir}/{name}.json"
    write_ok_add(BASE, body, path)
    r = subprocess.run([verify, "--nvdisasm=never", "--disasm=" + path,
                        "--source-loops=0", cubin], capture_output=True, text=True)
    found = [l.split("error: ", 1)[1] for l in r.stderr.splitlines()
             if "[rule fp-" in l or "[rule evidence]" in l]
    print(f"{name}: clean" if not found else f"{name}:")
    for f in found:
        print("  " + f)
