# Schedules from Python: a transform script as text or built with
# rake.schedule.Schedule, applied to a module, step by step, and a refused
# rewrite as rake.Error with its location.
# REQUIRES: python-bindings
# RUN: %rake_python %s %rake_src | FileCheck %s

import os
import sys

import rake
from rake.schedule import Schedule

src = sys.argv[1]
schedules = os.path.join(src, "examples", "schedules")

# The transpose schedule, as text: the result is the hand-written kernel.
seq = rake.Module.load(os.path.join(schedules, "transpose_seq.mlir"))
script = open(os.path.join(schedules, "transpose.schedule.mlir")).read()
derived = seq.copy().schedule(script)
derived.check()
hand = rake.Module.load(os.path.join(src, "examples", "transpose.mlir"))
# CHECK: transpose: same PTX as examples/transpose.mlir: True
print("transpose: same PTX as examples/transpose.mlir:", derived.ptx() == hand.ptx())

# Built in Python: divide a loop, then make it parallel.
text = """
gpuir.proc @scale(%n: index, %X: memref<?xf32, #gpuir.host> {gpuir.extents = affine_map<(n) -> (n * 128)>}, %Y: memref<?xf32, #gpuir.host> {gpuir.extents = affine_map<(n) -> (n * 128)>})
    attributes {gpuir.check_sizes = [{n = 3}]} {
  gpuir.for %i = 0 to %n * 128 : seq {
    %v = gpuir.read %X[%i] : memref<?xf32, #gpuir.host>
    gpuir.write %v, %Y[%i] : memref<?xf32, #gpuir.host>
  }
}
"""
m = rake.Module.parse(text, "scale.mlir")
s = Schedule()
proc = s.match("gpuir.proc")
s.set_memory(proc, "gmem", name="X")
s.set_memory(proc, "gmem", name="Y")
i = s.loop("i")
task, t = s.divide_loop(i, 128, names=("task", "t"))
s.wrap_device_function(task, block=128)
s.set_loop_mode(task, "cuda_tasks")
s.set_loop_mode(t, "cuda_threads", unit="thread")

# Step by step: the IR after each rewrite.
steps = m.schedule_steps(s)
# CHECK-NEXT: 8 steps
print(len(steps), "steps")
# CHECK-NEXT: transform.gpuir.divide_loop {{.*}} by 128 names("task", "t")
# CHECK-NEXT: gpuir.for %task = 0 to %n : seq {
step, ir = steps[4]
print(step)
print([l.strip() for l in ir.splitlines() if "gpuir.for %task" in l][0])

m.schedule(s)
m.check()
# CHECK-NEXT: gpuir.for %task = 0 to %n : cuda_tasks {
# CHECK-NEXT: gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
for line in str(m).splitlines():
    if "gpuir.for" in line:
        print(line.strip())

# A refusal: the trip count of %i is not a multiple of 96.
m = rake.Module.parse(text, "scale.mlir")
bad = Schedule()
bad.divide_loop(bad.loop("i"), 96)
try:
    m.schedule(bad)
    print("accepted")
except rake.Error as e:
    # CHECK-NEXT: scale.mlir:4:3: error: cannot divide the loop over %i by 96 perfectly: its trip count n * 128 is not a multiple of 96 for every value of its parameters; use tail(guard) or tail(cut)
    print(e.errors[0])

# The synchronization and instruction rewrites from Python: the copy through
# shared memory of test/Transforms/schedule-sync.mlir, built here.
text = open(os.path.join(src, "test", "Transforms", "schedule-sync.mlir")).read()
payload = text[text.index("gpuir.proc"):text.index("module attributes")]
m = rake.Module.parse(payload, "copy.mlir")
s = Schedule()
t = s.loop("t")
xs, copy = s.stage_mem(t, "X", [256], "smem", "Xs")
ct, ce = s.divide_loop(copy, 8, names=("ct", "ce"))
s.set_loop_mode(ct, "cuda_threads", unit="thread")
s.replace(ce, "gpuir.sm80.cp_async", ["Xs", "X"])
s.alloc_barrier(ct, "!gpuir.barrier<cp_async_group>", "cg")
s.insert_arrive(ct, "Sm80_cp_async", "cg")
s.insert_await(t, "cg", outstanding=0)
m.schedule(s)
m.check()
# CHECK-NEXT: copy: checked, 1 cp_async
print("copy: checked,", str(m).count("gpuir.sm80.cp_async %"), "cp_async")

# add_if and bind_expr from Python: the last slice specialized, the product
# bound to a register.
m = rake.Module.parse("""
gpuir.proc @scale2(%Kt: index, %X: memref<?xf32, #gpuir.host> {gpuir.extents = affine_map<(Kt) -> (Kt * 4)>}) {
  gpuir.for %k = 0 to %Kt : seq {
    gpuir.for %e = 0 to 4 : seq {
      %v = gpuir.read %X[%k * 4 + %e] : memref<?xf32, #gpuir.host>
      %p = arith.mulf %v, %v : f32
      gpuir.write %p, %X[%k * 4 + %e] : memref<?xf32, #gpuir.host>
    }
  }
}
""", "scale2.mlir")
s = Schedule()
s.bind_expr(s.match("arith.mulf"), "p")
s.add_if(s.loop("e"), "(k, Kt) : (Kt - k - 2 >= 0)", ["k", "Kt"], specialize=True)
m.schedule(s)
# CHECK-NEXT: gpuir.if %Kt >= %k + 2 {
# CHECK-NEXT: } else {
# CHECK-NEXT: bound: 2 buffers
for line in str(m).splitlines():
    if "gpuir.if" in line or "else" in line:
        print(line.strip())
print("bound:", str(m).count("%p = gpuir.alloc : memref<f32, #gpuir.host>"), "buffers")

# Warp groups with their register counts.
m = rake.Module.parse("""
gpuir.proc @groups(%n: index, %X: memref<?xf32, #gpuir.host> {gpuir.extents = affine_map<(n) -> (n * 32)>}) {
  gpuir.for %i = 0 to %n : seq {
    gpuir.for %p = 0 to 32 : seq {
      %v = gpuir.read %X[%i * 32 + %p] : memref<?xf32, #gpuir.host>
    }
  }
}
""", "groups.mlir")
s = Schedule()
s.set_memory(s.match("gpuir.proc"), "gmem", "X")
i = s.loop("i")
s.wrap_device_function(i, groups=[("producer", 4), ("consumer", 8)], setmaxnreg=[-40, 232])
s.set_loop_mode(i, "cuda_tasks")
m.schedule(s)
# CHECK-NEXT: gpuir.device_function warps(producer = 4 dec(40), consumer = 8 inc(232)) {
print([l.strip() for l in str(m).splitlines() if "device_function" in l][0])

# A ring of stages from Python.
m = rake.Module.parse("""
gpuir.proc @ring(%Kt: index, %A: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(Kt) -> (Kt * 64)>}) {
  gpuir.device_function block(64) {
    gpuir.for %m = 0 to 1 : cuda_tasks {
      gpuir.for %kt = 0 to %Kt : seq {
        %As = gpuir.alloc : memref<64xf32, #gpuir.smem>
        gpuir.for %t = 0 to 64 : cuda_threads<#gpuir.unit<thread>> {
          %v = gpuir.read %A[%kt * 64 + %t] : memref<?xf32, #gpuir.gmem>
          gpuir.write %v, %As[%t] : memref<64xf32, #gpuir.smem>
        }
      }
    }
  }
}
""", "ring.mlir")
s = Schedule()
s.ring(s.match("gpuir.alloc"), 2, "kt", "full")
m.schedule(s)
# CHECK-NEXT: %full = gpuir.alloc : !gpuir.barrier<mbarrier [2]>
# CHECK-NEXT: %As = gpuir.alloc : memref<2x64xf32, #gpuir.smem>
for line in str(m).splitlines():
    if "gpuir.alloc" in line:
        print(line.strip())
