// The correctly rounded f64 operations and the sign-bit ones
// (ExactMath.cpp): on the device sqrt.rn.f64, cvt.rmi/rpi/rzi/rni.f64.f64
// and no libdevice call; on the host the same values, checked against
// Python's double arithmetic (sqrt and floor of doubles are exact there).
// abs and copysign work on the bits, for any float type (here f64 and bf16).
// RUN: rm -rf %t && mkdir -p %t
// RUN: rake-translate --gpuir-to-ptx %s -o %t/k.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/k.ptx
// PTX-DAG: sqrt.rn.f64
// PTX-DAG: cvt.rmi.f64.f64
// PTX-DAG: cvt.rpi.f64.f64
// PTX-DAG: cvt.rzi.f64.f64
// PTX-DAG: cvt.rni.f64.f64
// PTX-NOT: {{approx|__nv_|call}}
// RUN: %python -c "import array, sys; array.array('d', [-2.5, -0.0, 0.0, 0.5, 1.5, 2.5, 2.0, 1e300, -7.25] + [i * 0.37 - 20 for i in range(119)]).tofile(open(sys.argv[1], 'wb'))" %t/X.bin
// RUN: rake-run --seq %s --sizes=n=1 --input=X=%t/X.bin --output-dir=%t/out
// RUN: %python %S/Inputs/check_f64.py %t/out | FileCheck %s --check-prefix=VALUES
// VALUES: 128 values: sqrt, floor, ceil, trunc, roundeven, copysign and abs exact
gpuir.proc @f64_ops(%n: index, %X: memref<?xf64, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 128)>}, %Y: memref<?x6xf64, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 128, 6)>}, %B: memref<?xbf16, #gpuir.gmem> {gpuir.extents = affine_map<(n) -> (n * 128)>})
    attributes {gpuir.check_sizes = [{n = 1}]} {
  gpuir.device_function block(128) {
    gpuir.for %i = 0 to %n : cuda_tasks {
      gpuir.for %t = 0 to 128 : cuda_threads<#gpuir.unit<thread>> {
        %x = gpuir.read %X[%i * 128 + %t] : memref<?xf64, #gpuir.gmem>
        %a = math.absf %x : f64
        %r = math.sqrt %a : f64
        %neg = arith.constant -1.0 : f64
        %s = math.copysign %r, %neg : f64
        gpuir.write %s, %Y[%i * 128 + %t, 0] : memref<?x6xf64, #gpuir.gmem>
        %fl = math.floor %x : f64
        gpuir.write %fl, %Y[%i * 128 + %t, 1] : memref<?x6xf64, #gpuir.gmem>
        %ce = math.ceil %x : f64
        gpuir.write %ce, %Y[%i * 128 + %t, 2] : memref<?x6xf64, #gpuir.gmem>
        %tr = math.trunc %x : f64
        gpuir.write %tr, %Y[%i * 128 + %t, 3] : memref<?x6xf64, #gpuir.gmem>
        %re = math.roundeven %x : f64
        gpuir.write %re, %Y[%i * 128 + %t, 4] : memref<?x6xf64, #gpuir.gmem>
        gpuir.write %a, %Y[%i * 128 + %t, 5] : memref<?x6xf64, #gpuir.gmem>
        %x32 = arith.truncf %x : f64 to f32
        %h = arith.truncf %x32 : f32 to bf16
        %nh = arith.negf %h : bf16
        %ah = math.absf %nh : bf16
        gpuir.write %ah, %B[%i * 128 + %t] : memref<?xbf16, #gpuir.gmem>
      }
    }
  }
}
