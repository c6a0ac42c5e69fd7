// RUN: not env -u RAKE_SYNC_CHECK_COMPARE rake-opt %examples/gemm_sm90a_tma.mlir --rake-sync-check="sizes=Mt=2,Nt=2,Kt=2 budget=0.000001" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REDUCED
// RUN: not rake-opt %examples/gemm_sm90a_tma.mlir --rake-sync-check="sizes=Mt=2,Nt=2,Kt=2 budget=0.000001 symmetry=false" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FULL
// RUN: rake-opt %examples/gemm_sm90a_tma.mlir --rake-sync-check="sizes=Mt=2,Nt=2,Kt=2 budget=600 progress" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PROGRESS
// RUN: rake-opt %examples/gemm_sm90a_tma.mlir --rake-sync-check="sizes=Mt=2,Nt=1,Kt=2 symmetry=false progress" -o /dev/null 2>&1 | FileCheck %s --check-prefix=EACH
// RUN: rake-opt %examples/gemm_sm90a_tma.mlir --rake-check=summary -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHECK-SUMMARY
// RUN: rake-opt %examples/gemm_sm90a_tma.mlir --mlir-disable-threading --rake-sync-check="sizes=Mt=2,Nt=2,Kt=2 summary" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SERIAL

// A check that runs past its budget stops with an error: nothing is proven,
// and the message says what to do. A tiny budget runs out in the first
// task, whichever way the check goes.
// REDUCED: gemm_sm90a_tma.mlir:21:1: error: the synchronization check ran past its budget of 0.00 s after interpreting 0 of the 1 representative tasks, so the procedure is not proven at Mt = 2, Nt = 2, Kt = 2; give it more time (--rake-sync-check="budget=SECONDS", 0 for no limit) or check smaller sizes
// FULL: error: the synchronization check ran past its budget of 0.00 s after interpreting 0 tasks, so the procedure is not proven at Mt = 2, Nt = 2, Kt = 2; give it more time (--rake-sync-check="budget=SECONDS", 0 for no limit) or check smaller sizes (every task is interpreted: the symmetry reduction is off)

// Progress: the tasks interpreted so far (the representatives, under the
// symmetry reduction), one line each with `progress`.
// PROGRESS: rake-sync-check @gemm_sm90a_tma: 1 of 1 tasks interpreted
// PROGRESS-NOT: error
// EACH: rake-sync-check @gemm_sm90a_tma: 1 tasks interpreted
// EACH: rake-sync-check @gemm_sm90a_tma: 2 tasks interpreted
// EACH-NOT: error

// Without threads the representatives run one after another, same result.
// SERIAL: remark: synchronization check at Mt = 2, Nt = 2, Kt = 2: no hazard in 4 tasks; 1 class of equivalent tasks, 1 interpreted, the rest proven by translation

// --rake-check=summary: one remark per size set of gpuir.check_sizes.
// CHECK-SUMMARY: remark: synchronization check at Mt = 2, Nt = 1, Kt = 7: no hazard in 2 tasks; 1 class of equivalent tasks, 1 interpreted, the rest proven by translation; {{[0-9.]+}} s, peak memory {{[0-9]+}} MB
// CHECK-SUMMARY: remark: synchronization check at Mt = 1, Nt = 1, Kt = 1: no hazard in 1 task;
