# rake.run_sequential: a procedure's sequential meaning from Python, on
# inputs given as arrays; an out-of-bounds access is an error at its source
# line (the Python line, for a rake.frontend procedure).
# REQUIRES: python-bindings
# RUN: %rake_python %s %rake_src | FileCheck %s

import array
import os
import sys

import rake
from rake.frontend import *

examples = os.path.join(sys.argv[1], "examples")

# Given inputs: C = A + B exactly.
A = array.array("f", [1.5, 2, 3, 4, 5])
B = array.array("f", [10, 20, 30, 40, 50])
out = rake.run_sequential(os.path.join(examples, "vector_add.mlir"), sizes={"n": 5},
                          shapes={"A": 5, "B": 5, "C": 5}, inputs={"A": A, "B": B})
# CHECK: C = [11.5, 22.0, 33.0, 44.0, 55.0]
print("C =", out["C"].tolist())

# Generated inputs, two-dimensional results: Y is X transposed.
out = rake.run_sequential(os.path.join(examples, "transpose.mlir"), sizes={"R": 30, "C": 17},
                          shapes={"X": (30, 17), "Y": (17, 30)}, seed=7)
X, Y = out["X"].tolist(), out["Y"].tolist()
# CHECK-NEXT: transpose: 30x17 -> 17x30, equal: True
print("transpose: %dx%d -> %dx%d, equal: %s" % (len(X), len(X[0]), len(Y), len(Y[0]),
      all(Y[j][i] == X[i][j] for i in range(30) for j in range(17))))


# A procedure written in Python whose last task reads past the end of A.
@proc
def shifted(n: index, A: gmem(f32, "?"), B: gmem(f32, "?")):
    with device_function(block=32):
        for task in cuda_tasks(0, ceildiv(n, 32)):
            for t in cuda_threads(0, 32, unit=thread):
                with if_(task * 32 + t < n):
                    B[task * 32 + t] = A[task * 32 + t + 1]  # one too far at the end


try:
    rake.run_sequential(shifted, sizes={"n": 40}, shapes={"A": 40, "B": 40})
    print("no error")
except rake.Error as e:
    d = e.errors[0]
    file, line, _ = d.location.rsplit(":", 2)
    # CHECK-NEXT: error: out-of-bounds read of A[40]: index 40 of dimension 0 is outside its extent 40 (task = 1, t = 7) at run.py: "B[task * 32 + t] = A[task * 32 + t + 1]  # one too far at the end"
    import linecache
    print(f'error: {d.message} at {os.path.basename(file)}: "{linecache.getline(file, int(line)).strip()}"')

# A refusal of rake-run itself (it exits 1) is a rake.Error with its message.
try:
    rake.run_sequential(os.path.join(examples, "vector_add.mlir"), sizes={"nope": 3})
    print("no error")
except rake.Error as e:
    # CHECK-NEXT: refused: error: rake-run: give the value of index parameter 'n' with --sizes=n=N
    print("refused:", e.diagnostics[0])
