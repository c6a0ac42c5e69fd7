# The Python package: parse, check, pipelines, PTX, and the errors a user
# catches, each with its source location.
# REQUIRES: python-bindings
# RUN: %rake_python %s %rake_src | FileCheck %s

import os
import sys

import rake

src = sys.argv[1]
examples = os.path.join(src, "examples")

# CHECK: revision: {{[0-9a-f]+}}
print("revision:", rake.compiler_revision())

m = rake.Module.load(os.path.join(examples, "gemm_sm90a_tma.mlir"))
m.check()
# CHECK-NEXT: checked gemm_sm90a_tma
print("checked", "gemm_sm90a_tma")

# A race: rake.Error lists the diagnostics, the error naming both accesses.
text = open(os.path.join(examples, "gemm_sm90a_tma.mlir")).read()
racy = rake.Module.parse(text.replace("outstanding(1)", "outstanding(2)"), "racy.mlir")
try:
    racy.check()
    print("no race found")
except rake.Error as e:
    # CHECK-NEXT: racy.mlir:{{[0-9]+}}:{{[0-9]+}}: error: WAR hazard: thread 0 of task 0 write As[0, 0:256, 0:64] on tma_to_smem_async, read by threads 0..127 of task 0 on wgmma_async_smem without synchronization that orders it before
    print(e.errors[0])
    # CHECK-NEXT: note: the earlier read
    print("note:", [d for d in e.diagnostics if d.severity == "note"][0].message.split(" of ")[0])

# The check does not change the module; pipelines do, in place.
# CHECK-NEXT: tiling before the pipeline: False
print("tiling before the pipeline:", "gpuir.tiling" in str(m))
lowered = m.copy().run_pipeline("builtin.module(convert-gpuir-to-nvvm)")
# CHECK-NEXT: lowered: True True
print("lowered:", "gpu.func @gemm_sm90a_tma" in str(lowered), "gpuir.proc" in str(m))

# PTX.
ptx = m.ptx("sm_90a")
# CHECK-NEXT: ptx: 2 tma copies, 4 wgmma
print("ptx: %d tma copies, %d wgmma" % (ptx.count("cp.async.bulk.tensor.2d"),
                                         ptx.count("wgmma.mma_async.sync.aligned")))

# Parse errors and bad pipelines raise rake.Error; nothing is printed.
try:
    rake.Module.parse("gpuir.proc @p( {", "bad.mlir")
except rake.Error as e:
    # CHECK-NEXT: bad.mlir:1:15: error: expected non-function type
    print(e.errors[0])
try:
    m.copy().run_pipeline("builtin.module(no-such-pass)")
except rake.Error as e:
    # CHECK-NEXT: error: bad pass pipeline: {{.*}}'no-such-pass' does not refer to a registered pass or pass pipeline
    print(str(e.errors[0]).splitlines()[0])

# A refusal of code generation, at its op.
try:
    rake.Module.load(os.path.join(src, "test", "CAPI", "Inputs", "refused.mlir")).ptx()
except rake.Error as e:
    # CHECK-NEXT: refused.mlir:5:12: error: 'gpuir.alloc' op allocates shared memory in the 64-byte swizzle
    print(e.errors[0])
