// arith.minnumf and maxnumf order the zeros as PTX's min and max do
// (-0 < +0) and return the other operand of a NaN, on the host and the GPU.
// LLVM's minnum leaves the sign of a zero result open: the host returned
// the first operand (found by an adversarial review). Lanes: (+0, -0),
// (-0, +0), (NaN, 1), (1, NaN), (2, 3).
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 -c "import struct; v=[(0.0,-0.0),(-0.0,0.0),(float('nan'),1.0),(1.0,float('nan')),(2.0,3.0)]; v += [(0.0, 0.0)] * 27; open('%t/X.bin','wb').write(struct.pack('<32f', *[a for a, b in v])); open('%t/Y.bin','wb').write(struct.pack('<32f', *[b for a, b in v])); open('%t/D.bin','wb').write(struct.pack('<32d', *[a for a, b in v])); open('%t/E.bin','wb').write(struct.pack('<32d', *[b for a, b in v]))"
// RUN: rake-run --seq %s --input=X=%t/X.bin --input=Y=%t/Y.bin --input=D=%t/D.bin --input=E=%t/E.bin --output-dir=%t/out > /dev/null
// RUN: python3 -c "import struct; r=struct.unpack('<64f', open('%t/out/R.bin','rb').read()); s=struct.unpack('<64d', open('%t/out/S.bin','rb').read()); print('f32 min', [repr(x) for x in r[0:5]]); print('f32 max', [repr(x) for x in r[32:37]]); print('f64 min', [repr(x) for x in s[0:5]]); print('f64 max', [repr(x) for x in s[32:37]])" | FileCheck %s
// CHECK: f32 min ['-0.0', '-0.0', '1.0', '1.0', '2.0']
// CHECK: f32 max ['0.0', '0.0', '1.0', '1.0', '3.0']
// CHECK: f64 min ['-0.0', '-0.0', '1.0', '1.0', '2.0']
// CHECK: f64 max ['0.0', '0.0', '1.0', '1.0', '3.0']
// RUN: rake-translate --gpuir-to-ptx %s | FileCheck %s --check-prefix=PTX
// PTX: min.NaN.f32
// PTX: max.NaN.f32
// PTX: min.f64
// PTX: max.f64
gpuir.proc @minmax_zero(%X: memref<32xf32, #gpuir.gmem>, %Y: memref<32xf32, #gpuir.gmem>, %D: memref<32xf64, #gpuir.gmem>, %E: memref<32xf64, #gpuir.gmem>, %R: memref<2x32xf32, #gpuir.gmem>, %S: memref<2x32xf64, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      gpuir.for %l = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
        %x = gpuir.read %X[%l] : memref<32xf32, #gpuir.gmem>
        %y = gpuir.read %Y[%l] : memref<32xf32, #gpuir.gmem>
        %mn = arith.minnumf %x, %y : f32
        gpuir.write %mn, %R[0, %l] : memref<2x32xf32, #gpuir.gmem>
        %mx = arith.maxnumf %x, %y : f32
        gpuir.write %mx, %R[1, %l] : memref<2x32xf32, #gpuir.gmem>
        %d = gpuir.read %D[%l] : memref<32xf64, #gpuir.gmem>
        %e = gpuir.read %E[%l] : memref<32xf64, #gpuir.gmem>
        %dn = arith.minnumf %d, %e : f64
        gpuir.write %dn, %S[0, %l] : memref<2x32xf64, #gpuir.gmem>
        %dx = arith.maxnumf %d, %e : f64
        gpuir.write %dx, %S[1, %l] : memref<2x32xf64, #gpuir.gmem>
      }
    }
  }
}
