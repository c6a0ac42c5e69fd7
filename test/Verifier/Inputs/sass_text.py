"""Shared by the synthetic-SASS case scripts of test/Verifier
(sass_cases.py, lane_cases.py, fused_loop_cases.py): SASS written as text,
read into nvdisasm -json's instruction form and back."""


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
