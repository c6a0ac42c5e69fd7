// The Sm80 instructions (and Sm90a's wgmma) on the GPU against their
// sequential meaning, on
// random inputs: shuffles exactly; mma.sync (f16 through cp.async and
// ldmatrix, tf32 from global fragments) within the rounding of f32 sums of
// 16 or 8 products. A wrong fragment layout in a sequential behavior shows
// up here as a mismatch. Needs a CUDA device beside the build.
// REQUIRES: gpu
// RUN: rm -rf %t
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/shfl %S/../Conversion/GpuIRToCPU/Inputs/sm80-shuffles.mlir
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/f16 %S/../Conversion/GpuIRToCPU/Inputs/sm80-mma-f16.mlir --rtol=1e-5 --atol=1e-5
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/tf32 %S/../Conversion/GpuIRToCPU/Inputs/sm80-mma-tf32.mlir --rtol=1e-5 --atol=1e-5
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/wgmma %S/../Conversion/GpuIRToCPU/Inputs/sm90a-wgmma.mlir --rtol=1e-5 --atol=1e-5
// The 8-bit forms: integer sums exactly (wrapping: C = 2^31 - 1 for the
// mma.sync), FP8 within 1e-2: the hardware's FP8 accumulation keeps fewer
// bits than f32 (measured on the H200: largest error 2.6e-3 at K = 128 on
// inputs in [-1, 1); docs/Codegen.md).
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/wfp8 %S/../Conversion/GpuIRToCPU/Inputs/sm90a-wgmma-fp8.mlir --rtol=1e-2 --atol=1e-2
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/wi8 %S/../Conversion/GpuIRToCPU/Inputs/sm90a-wgmma-int8.mlir
// RUN: mkdir -p %t && python3 -c "import struct; open('%t/Cmax.bin', 'wb').write(struct.pack('<128i', *[2**31 - 1] * 128))"
// The floating-point rules bit for bit on edge values (NaNs of any
// payload), and against the independent reference as well:
// RUN: mkdir -p %t/fein && python3 %S/../Conversion/GpuIRToCPU/Inputs/fp_edges.py make %t/fein > /dev/null
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/fp %S/../Conversion/GpuIRToCPU/Inputs/fp-edges.mlir --sizes=n=264 --input=X=%t/fein/X.bin --input=Y=%t/fein/Y.bin --input=W=%t/fein/W.bin
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/mi8 %S/../Conversion/GpuIRToCPU/Inputs/sm80-mma-int8.mlir --input=C=%t/Cmax.bin
// The vote on lanes of which some are zero (multiples of 3 and lane 31 are not):
// RUN: mkdir -p %t && python3 -c "import struct; open('%t/Xb.bin', 'wb').write(struct.pack('<32i', *[l if l %% 3 == 0 or l == 31 else 0 for l in range(32)]))"
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/ballot %S/../Conversion/GpuIRToCPU/Inputs/sm80-ballot.mlir --input=X=%t/Xb.bin
// The warp's sum and scan on random floats, bit for bit (the published
// order of additions is the sequential meaning):
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/sums %S/../Conversion/GpuIRToCPU/Inputs/sm80-warp-sums.mlir
// Partial warps (active(n), n = -1 .. 33, NaN and -1 in the padding lanes):
// RUN: mkdir -p %t/mcin && python3 %S/../Conversion/GpuIRToCPU/Inputs/sm80_masked.py make %t/mcin
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/masked %S/../Conversion/GpuIRToCPU/Inputs/sm80-masked-collectives.mlir --input=X=%t/mcin/X.bin --input=V=%t/mcin/V.bin
// Shuffles over partial warps (active(n), n = -2 .. 33: the hardware clamp
// keeps padding lanes' values from data lanes):
// RUN: mkdir -p %t/msin && python3 %S/../Conversion/GpuIRToCPU/Inputs/sm80_masked_shuffles.py make %t/msin
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/mshfl %S/../Conversion/GpuIRToCPU/Inputs/sm80-masked-shuffles.mlir --input=X=%t/msin/X.bin
// The integer operations LLVM leaves undefined, on edge values, and the
// order of zeros in minnumf/maxnumf (docs/GpuIR.md "Integer arithmetic",
// "Math"):
// RUN: mkdir -p %t/diin && python3 %S/../Conversion/GpuIRToCPU/Inputs/defined_integer.py make %t/diin
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/defint %S/../Conversion/GpuIRToCPU/Inputs/defined-integer.mlir --input=X=%t/diin/X.bin --input=S=%t/diin/S.bin --input=F=%t/diin/F.bin
// RUN: mkdir -p %t/mmin && python3 -c "import struct; v=[(0.0,-0.0),(-0.0,0.0),(float('nan'),1.0),(1.0,float('nan')),(2.0,3.0)]; v += [(0.0, 0.0)] * 27; open('%t/mmin/X.bin','wb').write(struct.pack('<32f', *[a for a, b in v])); open('%t/mmin/Y.bin','wb').write(struct.pack('<32f', *[b for a, b in v])); open('%t/mmin/D.bin','wb').write(struct.pack('<32d', *[a for a, b in v])); open('%t/mmin/E.bin','wb').write(struct.pack('<32d', *[b for a, b in v]))"
// RUN: env RAKE_BIN=%rake_bin %rake_src/scripts/gpu-run.sh prepare %t/minmax %S/../Conversion/GpuIRToCPU/minmax-zeros.mlir --input=X=%t/mmin/X.bin --input=Y=%t/mmin/Y.bin --input=D=%t/mmin/D.bin --input=E=%t/mmin/E.bin
// RUN: %rake_src/scripts/gpu-run.sh run %t/shfl %t/ballot %t/sums %t/masked %t/mshfl %t/defint %t/minmax %t/f16 %t/tf32 %t/wgmma %t/wfp8 %t/wi8 %t/mi8 %t/fp | FileCheck %s
// CHECK-DAG: shuffles: Y.bin equals the sequential meaning
// CHECK-DAG: ballot: Y.bin equals the sequential meaning
// CHECK-DAG: warp_sums: Y.bin equals the sequential meaning
// CHECK-DAG: masked_collectives: S.bin equals the sequential meaning
// CHECK-DAG: masked_collectives: P.bin equals the sequential meaning
// CHECK-DAG: masked_collectives: B.bin equals the sequential meaning
// CHECK-DAG: masked_shuffles: Y.bin equals the sequential meaning
// CHECK-DAG: defined_integer: Y.bin equals the sequential meaning
// CHECK-DAG: minmax_zero: R.bin equals the sequential meaning
// CHECK-DAG: minmax_zero: S.bin equals the sequential meaning
// CHECK-DAG: mma_f16: D.bin {{equals|matches}} the sequential meaning
// CHECK-DAG: mma_tf32: D.bin {{equals|matches}} the sequential meaning
// CHECK-DAG: wgmma_tile: C.bin {{equals|matches}} the sequential meaning
// CHECK-DAG: wgmma_fp8: C.bin {{equals|matches}} the sequential meaning
// CHECK-DAG: wgmma_int8: C.bin equals the sequential meaning
// CHECK-DAG: mma_int8: D.bin equals the sequential meaning
// CHECK-DAG: fp_edges: P.bin equals the sequential meaning
// CHECK-DAG: fp_edges: Q.bin equals the sequential meaning
// CHECK-DAG: fp_edges: R.bin equals the sequential meaning
// CHECK-DAG: fp_edges: S.bin equals the sequential meaning
// CHECK-NOT: differ from the sequential meaning
// RUN: python3 %S/../Conversion/GpuIRToCPU/Inputs/fp_edges.py check %t/fp/gpu | FileCheck %s --check-prefix=FPREF
// FPREF: fp_edges: 1056 results, 0 differ from the reference
