"""Shared by the synthetic-SASS case scripts of test/Verifier
(sass_cases.py, lane_cases.py, fp_cases.py, fused_loop_cases.py,
control_flow_cases.py): SASS written as text, read into nvdisasm -json's
instruction form and back, and the edited disassemblies they write."""
import json


def parse(line):
    """One instruction as nvdisasm -json lists it: predicate, opcode, operands."""
    line = line.strip()
    d = {}
    if line.startswith("@"):
        p, line = line.split(None, 1)
        d["predicate"] = p
    parts = line.split(None, 1)
    d["opcode"] = parts[0]
    if len(parts) > 1:
        d["operands"] = parts[1]
    return d


def text(instr):
    """The instruction's text again."""
    return (instr.get("predicate", "") + " " + instr["opcode"] + " " +
            instr.get("operands", "")).strip()


def ok_add_program(pre, body):
    """`pre` then `body` in place of ok_add's code: its EXITs stay at
    instructions 7 and 19, and its 32 instructions are filled with NOPs."""
    lines = pre.split("\n") + body
    lines = lines[:19] + ["NOP"] * (19 - len(lines)) + ["EXIT"]
    return [parse(l) for l in lines] + [parse("NOP")] * (32 - len(lines))


# ok_add's prologue: the thread's index in R0, A's address in R2:R3, C's
# base in R6:R7; threads past 4096 exit.
OK_ADD_PRE = """LDC R1,c[0x0][0x28]
S2R R0,SR_TID.X
LDC.64 R2,c[0x0][0x210]
ULDC.64 UR4,c[0x0][0x208]
LDC.64 R6,c[0x0][0x218]
IMAD.WIDE.U32 R2,R0,0x4,R2
ISETP.GE.U32.AND P0,PT,R0,0x1000,PT
@P0 EXIT"""


def write_disassembly(base, instructions, path):
    """A copy of the recorded disassembly `base` whose first function has
    `instructions` (nvdisasm -json's form), written to `path`."""
    d = json.loads(json.dumps(base))
    d[1][0]["sass-instructions"] = instructions
    json.dump(d, open(path, "w"))


def write_ok_add(base, body, path):
    """ok_add's recording with OK_ADD_PRE then `body` as its code."""
    write_disassembly(base, ok_add_program(OK_ADD_PRE, body), path)


def write_edited(base, edits, path):
    """The first function of `base` with the instruction at each offset of
    `edits` (bytes, 16 an instruction) replaced by its text."""
    lines = [text(i) for i in base[1][0]["sass-instructions"]]
    for off, t in edits.items():
        lines[off // 16] = t
    write_disassembly(base, [parse(l) for l in lines], path)
