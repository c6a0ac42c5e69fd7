// The integer operations LLVM leaves undefined get one meaning on the host
// and the GPU (docs/GpuIR.md "Integer arithmetic"): shifts by the bit width
// or more give 0 or the sign, float-to-integer conversions saturate (NaN
// gives 0), division by zero gives 0 and remainder the dividend, the signed
// minimum by -1 gives itself. Before, the sequential meaning masked the
// shift count as x86 does (the GPU clamps it), converted out-of-range floats
// to the minimum (the GPU saturates), and stopped with a floating-point
// exception on a division by zero (found by an adversarial review). The
// sequential meaning equals an independent Python reference of the
// definitions on edge values; test/GPU/sm80.mlir runs the GPU against it.
// RUN: rm -rf %t && mkdir -p %t/in
// RUN: rake-opt %S/Inputs/defined-integer.mlir --rake-check > /dev/null
// RUN: python3 %S/Inputs/defined_integer.py make %t/in
// RUN: rake-run --seq %S/Inputs/defined-integer.mlir --input=X=%t/in/X.bin --input=S=%t/in/S.bin --input=F=%t/in/F.bin --output-dir=%t/out > /dev/null
// RUN: python3 %S/Inputs/defined_integer.py check %t/out %t/in | FileCheck %s
// CHECK: defined integer: 704 of 704 results equal the reference

// The device code: the conversions keep PTX's saturating cvt.rzi and select
// the bounds and 0 for NaN; every division divides by a divisor replaced by
// 1 where it is 0 (or -1 under the signed minimum), then selects.
// RUN: rake-translate --gpuir-to-ptx %S/Inputs/defined-integer.mlir | FileCheck %s --check-prefix=PTX
// PTX: shl.b32
// PTX: shr.u32
// PTX: selp.b32 [[AMOUNT:%r[0-9]+]], %r{{[0-9]+}}, 31, %p{{[0-9]+}};
// PTX-NEXT: shr.s32 %r{{[0-9]+}}, %r{{[0-9]+}}, [[AMOUNT]];
// PTX: cvt.rzi.s32.f32
// PTX: selp.b32 {{%r[0-9]+}}, 2147483647, 0,
// PTX: selp.b32 {{%r[0-9]+}}, -2147483648,
// PTX: cvt.rzi.u32.f32
// PTX: selp.b32 {{%r[0-9]+}}, -1, 0,
// PTX: selp.b32 [[D:%r[0-9]+]], 1, %r{{[0-9]+}},
// PTX: div.s32 %r{{[0-9]+}}, %r{{[0-9]+}}, {{%r[0-9]+}};
