# rake.compile: check, bundle, verify and cache a procedure, then call it.
# Without a GPU the stand-in libcuda runs vector_add on the host
# (test/Runtime/fake-cuda.c). A cached bundle is opened through the runtime
# like any other: one changed on disk is refused and compiled again, with a
# warning; a race stops the compile; a bundle that cannot be verified says
# how to finish it.
# REQUIRES: python-bindings, ptxas-pinned
# RUN: rm -rf %t && mkdir -p %t
# RUN: env RAKE_LIBCUDA=%fake_cuda %rake_python %s %t %rake_src 2> %t/err | FileCheck %s

import os
import sys
import warnings

import rake

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "Inputs"))
from fakes import f32_device  # noqa: E402
from rake import frontend as rf

work, src = sys.argv[1], sys.argv[2]
store = os.path.join(src, "test", "Verifier", "Inputs", "disasm")
cache = os.path.join(work, "cache")
vadd_path = os.path.join(src, "examples", "vector_add.mlir")



k = rake.compile(vadd_path, cache_dir=cache, disasm_dirs=[store])
# CHECK: first: cached False, vector_add(n: index, A: f32[n], B: f32[n], C: f32[n])
print(f"first: cached {k.cached}, {k.describe().splitlines()[0]}")
# CHECK-NEXT: report: bundle {{.*}}cache/{{[0-9a-f]+}}: verified
print("report:", k.report.splitlines()[0])
entry = k.bundle.path
n = 300
A, B, C = f32_device([float(i) for i in range(n)]), f32_device([2.0] * n), f32_device([0.0] * n)
k(n, A, B, C)
# CHECK-NEXT: C == A + B: True
print("C == A + B:", all(C.array[i] == A.array[i] + B.array[i] for i in range(n)))

# The same source again: from the cache, the same folder.
k2 = rake.compile(vadd_path, cache_dir=cache, disasm_dirs=[store])
# CHECK-NEXT: second: cached True, same entry True
print(f"second: cached {k2.cached}, same entry {k2.bundle.path == entry}")


def compile_vadd_printing_warnings():
    """rake.compile of vector_add into the cache, printing its warnings."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        k = rake.compile(vadd_path, cache_dir=cache, disasm_dirs=[store])
    for w in caught:
        print("warning:", w.message)
    return k


# A cache entry changed on disk is refused by the runtime, and compiled again.
with open(os.path.join(entry, "kernel.ptx"), "a") as f:
    f.write("// changed\n")
k3 = compile_vadd_printing_warnings()
# CHECK-NEXT: warning: rake.compile: the cached bundle {{.*}} was refused (refused bundle {{.*}}: kernel.ptx has sha256 {{[0-9a-f]+}}; the manifest binds {{[0-9a-f]+}} [rule integrity]); compiling it again
# CHECK-NEXT: third: cached False, same entry True
print(f"third: cached {k3.cached}, same entry {k3.bundle.path == entry}")

# A verified bundle of another source moved into the entry is sealed as well
# as the entry's own, but its manifest names another source: refused and
# compiled again (found by an adversarial review: the cache handed back the
# other kernel).
import shutil  # noqa: E402
other_text = open(vadd_path).read() + "// another source\n"
ko = rake.compile(rake.Module.parse(other_text, "other.mlir"), cache_dir=os.path.join(work, "other"),
                  disasm_dirs=[store])
shutil.rmtree(entry)
shutil.copytree(ko.bundle.path, entry)
k5 = compile_vadd_printing_warnings()
# CHECK-NEXT: warning: rake.compile: the cached bundle {{.*}} was refused (it was made from a source with sha256 {{[0-9a-f]+}}, not this one ({{[0-9a-f]+}})); compiling it again
# CHECK-NEXT: moved: cached False, same entry True
print(f"moved: cached {k5.cached}, same entry {k5.bundle.path == entry}")

# A stale entry (made by another compiler revision) is not the current
# compiler's: the cache key names the revision, so it is compiled again into
# an entry of its own.
real_revision = rake.compiler_revision
rake.compiler_revision = lambda: "0000000"
k4 = rake.compile(vadd_path, cache_dir=cache, disasm_dirs=[store])
rake.compiler_revision = real_revision
# CHECK-NEXT: other revision: cached False, same entry False
print(f"other revision: cached {k4.cached}, same entry {k4.bundle.path == entry}")

# A frontend procedure compiles the same way, its Python names the
# parameters'. This one is examples/vector_add.mlir op for op, so its cubin
# is the example's and the store has its disassembly.
@rf.proc(check_sizes=[{"n": 4096}])
def vector_add(n: rf.index, A: rf.gmem(rf.f32, "?", extents=lambda n: [n]),
               B: rf.gmem(rf.f32, "?", extents=lambda n: [n]),
               C: rf.gmem(rf.f32, "?", extents=lambda n: [n])):
    with rf.device_function(block=256, blocks_per_sm=8):
        for task in rf.cuda_tasks(0, rf.ceildiv(n, 256)):
            for t in rf.cuda_threads(0, 256, unit=rf.thread):
                with rf.if_(task * 256 + t < n):
                    C[task * 256 + t] = A[task * 256 + t] + B[task * 256 + t]


kf = rake.compile(vector_add, cache_dir=cache, disasm_dirs=[store])
# CHECK-NEXT: frontend: cached False, vector_add(n: index, A: f32[n], B: f32[n], C: f32[n])
print(f"frontend: cached {kf.cached}, {kf.describe().splitlines()[0]}")
C2 = f32_device([0.0] * n)
kf(n, A, B, C2)
# CHECK-NEXT: frontend C == A + B: True
print("frontend C == A + B:", all(C2.array[i] == A.array[i] + B.array[i] for i in range(n)))


# A kernel whose cubin has no recorded disassembly (and no nvdisasm here):
# not verified, and the error says how to finish it.
@rf.proc(check_sizes=[{"n": 256}])
def scale(n: rf.index, X: rf.gmem(rf.f32, "?", extents=lambda n: [n]),
          Y: rf.gmem(rf.f32, "?", extents=lambda n: [n])):
    with rf.device_function(block=128):
        for task in rf.cuda_tasks(0, rf.ceildiv(n, 128)):
            for t in rf.cuda_threads(0, 128, unit=rf.thread):
                with rf.if_(task * 128 + t < n):
                    Y[task * 128 + t] = X[task * 128 + t] * 2.0


try:
    rake.compile(scale, cache_dir=cache, disasm_dirs=[store])
    print("scale: compiled")
except rake.Error as e:
    # CHECK-NEXT: scale: <proc scale>: the bundle is not verified
    print("scale:", str(e).splitlines()[0])
    # CHECK-NEXT: rake-bundle: to finish this bundle, record the disassembly of its cubin on a machine with the CUDA toolkit's nvdisasm: `scripts/record-disasm.sh STORE {{.*}}cache/{{[0-9a-f]+}}.unverified` writes STORE/{{[0-9a-f]+}}.json; then make the bundle again here with --disasm-dir=STORE
    print([d.message for d in e.diagnostics if "to finish" in d.message][0])

# A race stops the compile before anything is bundled.
racy = open(os.path.join(src, "examples", "gemm_sm90a_tma.mlir")).read().replace(
    "outstanding(1)", "outstanding(2)")
try:
    rake.compile(rake.Module.parse(racy, "racy.mlir"), cache_dir=cache)
    print("racy: compiled")
except rake.Error as e:
    # CHECK-NEXT: racy: racy.mlir: the synchronization check failed
    # CHECK-NEXT: racy.mlir:{{[0-9]+}}:{{[0-9]+}}: error: WAR hazard: {{.*}}
    print("racy:", str(e).splitlines()[0])
    print(e.errors[0])
