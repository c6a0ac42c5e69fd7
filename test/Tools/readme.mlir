// The README's commands run as written (issue 15): every command of its
// ```sh blocks, in a scratch folder that links the checkout's build/,
// examples/, scripts/, test/ and bench/; skipped only the main commands
// (this suite runs inside them) and what needs a GPU or torch.
// REQUIRES: python-bindings, ptxas-pinned
// RUN: %python %rake_src/test/Tools/Inputs/readme_commands.py %rake_src %rake_bin/.. %t | FileCheck %s
// CHECK: skipped (a main command (the test suite runs inside it)): scripts/run-example.sh
// CHECK: skipped (a main command (the test suite runs inside it)): scripts/test.sh
// CHECK: skipped (needs torch and a GPU): PYTHONPATH=build/python python3 -c '
// CHECK: skipped (needs a GPU): scripts/gpu-run.sh run work/gemm
// CHECK: ran 24 README commands, skipped 4
