// The profiles' floating-point rules as a CPU-reference test (the seed's
// "floating-point edge cases"): the sequential meaning of fp-edges.mlir on
// every pair of 16 edge values (signed zeros, subnormals, the smallest
// normal, ones and their neighbours, the largest finite, infinities, NaN)
// and on ties, subnormal results and a product an FMA would change equals,
// bit for bit, an independent reference in Python (Inputs/fp_edges.py:
// double arithmetic rounded once to f32, IEEE's special cases written out).
// RUN: rm -rf %t && mkdir -p %t/in
// RUN: rake-opt %S/Inputs/fp-edges.mlir --rake-check > /dev/null
// RUN: python3 %S/Inputs/fp_edges.py make %t/in > %t/n
// RUN: rake-run --seq %S/Inputs/fp-edges.mlir --sizes=n=264 --input=X=%t/in/X.bin --input=Y=%t/in/Y.bin --input=W=%t/in/W.bin --output-dir=%t/out > /dev/null
// RUN: python3 %S/Inputs/fp_edges.py check %t/out | FileCheck %s
// CHECK: fp_edges: 1056 results, 0 differ from the reference
// RUN: FileCheck %s --check-prefix=N < %t/n
// N: {{^}}264{{$}}

// The reference tells contraction apart: with the product and sum fused
// (math.fma), four results differ, among them (1 + 2^-12)^2 - (1 + 2^-11).
// RUN: sed 's/%%p = arith.addf %%xy, %%w : f32/%%p = math.fma %%x, %%y, %%w : f32/' %S/Inputs/fp-edges.mlir > %t/fma.mlir
// RUN: rake-run --seq %t/fma.mlir --sizes=n=264 --input=X=%t/in/X.bin --input=Y=%t/in/Y.bin --input=W=%t/in/W.bin --output-dir=%t/fma > /dev/null
// RUN: not python3 %S/Inputs/fp_edges.py check %t/fma | FileCheck %s --check-prefix=FMA
// FMA: P[256]: x=1.000244140625 y=1.000244140625 w=-1.00048828125: got 5.960464477539063e-08 (0x33800000), expected 0.0 (0x00000000)
// FMA: fp_edges: 1056 results, 4 differ from the reference

// Empty data: n = 0 launches nothing and writes nothing.
// RUN: rake-run --seq %S/Inputs/fp-edges.mlir --sizes=n=0 --output-dir=%t/empty | FileCheck %s --check-prefix=EMPTY
// EMPTY: @fp_edges ran (sequential meaning, seed 1)
// EMPTY: P: 0xf32
// RUN: wc -c < %t/empty/P.bin | FileCheck %s --check-prefix=BYTES
// BYTES: {{^ *}}0{{$}}

// The device code rounds each operation to nearest even, divides and takes
// square roots correctly rounded, and fuses nothing.
// RUN: rake-translate --gpuir-to-ptx %S/Inputs/fp-edges.mlir | FileCheck %s --check-prefix=PTX
// PTX: mul.rn.f32 [[XY:%r[0-9]+]], [[X:%r[0-9]+]], [[Y:%r[0-9]+]];
// PTX-NEXT: add.rn.f32 {{%r[0-9]+}}, [[XY]], {{%r[0-9]+}};
// PTX: div.rn.f32 {{%r[0-9]+}}, [[X]], [[Y]];
// PTX: sqrt.rn.f32 {{%r[0-9]+}}, [[X]];
// PTX: sub.rn.f32 {{%r[0-9]+}}, [[X]], [[Y]];
// PTX-NOT: fma
// PTX-NOT: .ftz
// PTX-NOT: .approx
