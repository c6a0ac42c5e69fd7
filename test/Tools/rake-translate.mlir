// RUN: rake-translate --mlir-to-llvmir %s | FileCheck %s

// rake-translate carries the upstream translations, here MLIR's LLVM and
// NVVM dialects to LLVM IR.

// CHECK-LABEL: define ptx_kernel void @kernel
// CHECK: call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
llvm.func @kernel(%out: !llvm.ptr<1>) attributes {nvvm.kernel} {
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  llvm.store %tid, %out : i32, !llvm.ptr<1>
  llvm.return
}
