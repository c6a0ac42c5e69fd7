// The check accepts the mbarrier ring of examples/ring_sums.mlir and
// rejects it when a half of its protocol is missing.
// RUN: rake-opt %examples/ring_sums.mlir --rake-check > /dev/null

// Without the consumers' arrive on "empty", the producer's third wait has no
// phase to wait for.
// RUN: grep -v "gpuir.arrive cuda_in_order >> %empty" %examples/ring_sums.mlir > %t.noarrive.mlir
// RUN: not rake-opt %t.noarrive.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=NOARRIVE
// NOARRIVE: error: await without matching arrive: threads 0..127 of task 0 await phase 0 of empty, but only 0 arrives happened on it before

// Without the producer's wait on "empty", it refills a stage before its
// earlier copies into it (and the consumers' reads) are ordered before.
// RUN: grep -v "gpuir.await %empty" %examples/ring_sums.mlir > %t.nowait.mlir
// RUN: not rake-opt %t.nowait.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=NOWAIT
// NOWAIT: error: WAW hazard: thread 0 of task 0 write ring[0, 0:4] on Sm80_cp_async, written by thread 0 of task 0 on Sm80_cp_async without synchronization that orders it before

// Arriving on "full" before the copies (an in-order arrive does not wait for
// cp.async) lets the consumers read a stage still being filled.
// RUN: sed 's/gpuir.arrive Sm80_cp_async >> %full/gpuir.arrive cuda_in_order >> %full/' %examples/ring_sums.mlir > %t.early.mlir
// RUN: not rake-opt %t.early.mlir --rake-check 2>&1 | FileCheck %s --check-prefix=EARLY
// EARLY: error: RAW hazard: thread 128 of task 0 read ring[0, 0] on cuda_in_order_ram, written by thread 0 of task 0 on Sm80_cp_async without synchronization that orders it before
