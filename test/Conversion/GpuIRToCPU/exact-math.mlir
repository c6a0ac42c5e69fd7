// math ops lower to exactly specified arithmetic, the same on the host and
// the device (lib/Conversion/GpuIRToCPU/ExactMath.cpp): Rake's exp, exp2,
// log, tanh and erf within 2 ulp with the functions' special values, rsqrt
// as 1 / sqrt, sqrt, floor, abs and division correctly rounded. The sequential meaning is checked against Python's
// double-precision results on special values and 8000 random ones.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/math_table.py make %t/X.bin 8192
// RUN: rake-run --seq %s --sizes=n=64 --input=X=%t/X.bin --output-dir=%t/out
// RUN: %python %S/Inputs/math_table.py check %t/out | FileCheck %s --check-prefix=TABLE
// TABLE: 8192 values: exp within 1 ulp, exp2 within 1 ulp, log within 1 ulp, tanh within 1 ulp, rsqrt within 1 ulp, erf within 0 ulp, the rest exact

// On the device the same operations are single correctly rounded PTX
// instructions (sqrt.rn, div.rn, fma.rn, cvt.rmi) and no approximation,
// library call or flush to zero.
// RUN: rake-translate --gpuir-to-ptx %s -o %t/k.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/k.ptx
// RUN: FileCheck %s --check-prefix=NOAPPROX < %t/k.ptx
// PTX-DAG: sqrt.rn.f32
// PTX-DAG: div.rn.f32
// PTX-DAG: fma.rn.f32
// PTX-DAG: cvt.rmi.f32.f32
// NOAPPROX-NOT: {{approx|ftz|ex2|lg2|call|__nv_}}
gpuir.proc @math_table(%n: index, %X: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 128)>}, %E: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 128)>}, %S: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 128)>}, %A: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 128)>}, %L: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 128)>}, %T: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 128)>}, %R: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 128)>}, %F: memref<?xf32, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 128)>})
    attributes {gpuir.check_sizes = [{n = 2}]} {
  gpuir.device_function block(128) {
    gpuir.for %i = 0 to %n : cuda_tasks {
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        %x = gpuir.read %X[%i * 128 + %t] : memref<?xf32, #gpuir.gmem>
        %e = math.exp %x : f32
        gpuir.write %e, %E[%i * 128 + %t] : memref<?xf32, #gpuir.gmem>
        %a = math.absf %x : f32
        %r = math.sqrt %a : f32
        %one = arith.constant 1.0 : f32
        %a1 = arith.addf %a, %one : f32
        %q = arith.divf %r, %a1 : f32
        %f = math.floor %x : f32
        %s = arith.addf %q, %f : f32
        gpuir.write %s, %S[%i * 128 + %t] : memref<?xf32, #gpuir.gmem>
        %e2 = math.exp2 %x : f32
        gpuir.write %e2, %A[%i * 128 + %t] : memref<?xf32, #gpuir.gmem>
        %l = math.log %x : f32
        gpuir.write %l, %L[%i * 128 + %t] : memref<?xf32, #gpuir.gmem>
        %th = math.tanh %x : f32
        gpuir.write %th, %T[%i * 128 + %t] : memref<?xf32, #gpuir.gmem>
        %rs = math.rsqrt %x : f32
        gpuir.write %rs, %R[%i * 128 + %t] : memref<?xf32, #gpuir.gmem>
        %er = math.erf %x : f32
        gpuir.write %er, %F[%i * 128 + %t] : memref<?xf32, #gpuir.gmem>
      }
    }
  }
}
