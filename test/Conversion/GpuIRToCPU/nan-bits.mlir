// A NaN's sign and payload are not specified: the host's arithmetic makes
// negative NaNs and passes an operand's payload on, the GPU's makes the
// positive canonical NaN. Where they would show in a number (a float's bits
// read as an integer, a NaN's sign given to another value), both lowerings
// read every NaN as the canonical one, so the sequential meaning and the
// GPU agree; index arithmetic has the integers' defined meaning. Before,
// the sequential run gave 0xffc00000 and -1.0 where the GPU gave 0x7fffffff
// and 1.0, and stopped on SIGFPE for an index division by zero (found by an
// adversarial review). test/GPU/sm80.mlir runs the GPU against it.
// RUN: rm -rf %t && mkdir -p %t/in
// RUN: rake-opt %S/Inputs/nan-bits.mlir --rake-check > /dev/null
// RUN: python3 %S/Inputs/nan_bits.py make %t/in
// RUN: rake-run --seq %S/Inputs/nan-bits.mlir --input=X=%t/in/X.bin --input=S=%t/in/S.bin --output-dir=%t/out > /dev/null
// RUN: python3 %S/Inputs/nan_bits.py check %t/out %t/in | FileCheck %s
// CHECK-NOT: lane
// CHECK: nan bits: 192 of 192 results equal the reference (16 NaN inputs)

// The device code reads the bits through the same select.
// RUN: rake-translate --gpuir-to-ptx %S/Inputs/nan-bits.mlir | FileCheck %s --check-prefix=PTX
// PTX: setp.nan.f32 [[P:%p[0-9]+]],
// PTX: selp.b32 %r{{[0-9]+}}, 2147483647, %r{{[0-9]+}}, [[P]];
