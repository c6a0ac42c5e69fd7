// rake-opt --help starts with Rake's pipelines and passes and their
// options, before MLIR's options and some three hundred upstream passes.
// RUN: rake-opt --help > %t && head -n 40 %t | FileCheck %s
// CHECK: Rake GPU pipelines:
// CHECK-NEXT: --rake-check
// CHECK: --summary
// CHECK: --rake-gpuir-to-llvm-cpu
// CHECK: --rake-gpuir-to-ptx
// CHECK: Rake GPU passes:
// CHECK-NEXT: --rake-sync-check
// CHECK: --all-sizes
// CHECK: --convert-gpuir-to-cpu
// CHECK: (MLIR's options and upstream passes follow.)
