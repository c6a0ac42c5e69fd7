// The transpose schedule (examples/schedules/): the sequential transpose,
// rewritten step by step, is the hand-written examples/transpose.mlir.
//
// RUN: rake-opt %examples/schedules/transpose_seq.mlir \
// RUN:   --transform-preload-library=transform-library-paths=%examples/schedules/transpose.schedule.mlir \
// RUN:   --transform-interpreter -o %t.mlir
// RUN: FileCheck %s < %t.mlir
//
// The synchronization check proves the parallel program it made:
// RUN: rake-opt %t.mlir --rake-check -o /dev/null
//
// Its sequential meaning is the sequential program's (partial tiles at the
// edges included):
// RUN: rake-run --seq %examples/schedules/transpose_seq.mlir --sizes=R=70,C=40 --shape=X=70x40,Y=40x70 | grep checksum > %t.seq
// RUN: rake-run --seq %t.mlir --sizes=R=70,C=40 --shape=X=70x40,Y=40x70 | grep checksum > %t.derived
// RUN: diff %t.seq %t.derived
//
// And it compiles to the hand-written kernel's PTX, instruction for
// instruction (so it runs as fast):
// RUN: rake-translate --gpuir-to-ptx %t.mlir -o %t.derived.ptx
// RUN: rake-translate --gpuir-to-ptx %examples/transpose.mlir -o %t.hand.ptx
// RUN: diff %t.derived.ptx %t.hand.ptx

// CHECK:      gpuir.proc @transpose(%R: index, %C: index, %X: memref<?x?xf32, #gpuir.gmem>
// CHECK:      gpuir.device_function blocks_per_sm(4) block(256) {
// CHECK-NEXT:   gpuir.for %i = 0 to %R ceildiv 32 : cuda_tasks {
// CHECK-NEXT:     gpuir.for %j = 0 to %C ceildiv 32 : cuda_tasks {
// CHECK-NEXT:       %tile = gpuir.alloc : memref<32x33xf32, #gpuir.smem>
// CHECK-NEXT:       gpuir.for %w = 0 to 8 : cuda_threads<#gpuir.unit<warp>> {
// CHECK-NEXT:         gpuir.for %tile1 = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
// CHECK-NEXT:           gpuir.for %k = 0 to 4 : seq {
// CHECK-NEXT:             gpuir.if %i * 32 + %w * 4 + %k < %R and %j * 32 + %tile1 < %C {
// CHECK-NEXT:               gpuir.read %X[%i * 32 + %w * 4 + %k, %j * 32 + %tile1]
// CHECK-NEXT:               gpuir.write %{{.*}}, %tile[%w * 4 + %k, %tile1]
// CHECK:            gpuir.fence cuda_in_order -> cuda_in_order
// CHECK-NEXT:       gpuir.for %w = 0 to 8 : cuda_threads<#gpuir.unit<warp>> {
// CHECK-NEXT:         gpuir.for %ii = 0 to 32 : cuda_threads<#gpuir.unit<thread>> {
// CHECK-NEXT:           gpuir.for %k = 0 to 4 : seq {
// CHECK-NEXT:             gpuir.if %j * 32 + %w * 4 + %k < %C and %i * 32 + %ii < %R {
// CHECK-NEXT:               gpuir.read %tile[%ii, %w * 4 + %k]
// CHECK-NEXT:               gpuir.write %{{.*}}, %Y[%j * 32 + %w * 4 + %k, %i * 32 + %ii]
