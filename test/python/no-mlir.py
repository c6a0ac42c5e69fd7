# Compile here, run there: the load-and-launch part of the package (rake.load,
# the kernels, rake.bench) imports and runs with only the C runtime, as on a
# GPU machine without MLIR: the package's Python files are copied without the
# _rake extension, a bundle made here is loaded and run (on the stand-in
# libcuda), and the compile part says what it needs.
# REQUIRES: python-bindings, ptxas-pinned
# RUN: rm -rf %t && mkdir -p %t/pkg/rake
# RUN: cp %rake_python_dir/rake/__init__.py %rake_python_dir/rake/runtime.py %rake_python_dir/rake/bench.py %rake_python_dir/rake/frontend.py %t/pkg/rake/
# RUN: rake-bundle %examples/vector_add.mlir -o %t/vadd --disasm-dir=%rake_src/test/Verifier/Inputs/disasm > %t/vadd.log
# RUN: env PYTHONPATH=%t/pkg RAKE_RUNTIME_LIB=%rake_bin/../lib/librake_runtime.so RAKE_LIBCUDA=%fake_cuda %rake_python %s %t/vadd 2>/dev/null | FileCheck %s
# RUN: not env PYTHONPATH=%t/pkg RAKE_RUNTIME_LIB=%t/none.so %rake_python -c "import rake; rake.load('%t/vadd')" 2>&1 | FileCheck %s --check-prefix=NOLIB
# NOLIB: rake.runtime.RuntimeFailure: cannot load the Rake C runtime {{.*}}none.so: {{.*}}

import os
import sys

import rake

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "Inputs"))
from fakes import f32_device  # noqa: E402

# CHECK: _rake: absent
print("_rake:", "absent" if "rake._rake" not in sys.modules else "present")



k = rake.load(sys.argv[1])
n = 64
A, B, C = f32_device([1.0] * n), f32_device([float(i) for i in range(n)]), f32_device([0.0] * n)
k(n, A, B, C)
# CHECK-NEXT: C[63] = 64.0
print("C[63] =", C.array[63])
try:
    rake.Module.parse("module {}")
except ImportError as e:
    # CHECK-NEXT: ImportError: this part of rake compiles and checks kernels and needs the _rake extension (a build of Rake with MLIR); this installation has only the load-and-launch part (rake.load): {{.*}}
    print("ImportError:", e)
