// The candidates of bench/fused/variants (pipelined rows; 7 or 9 warps a
// task with the last task guarded, 2 or 4 CTAs an SM) pass the synchronization check and
// compute the examples' bits row for row: on the same 96 rows (X and W
// saved from the 8-warp kernels' run), each variant's Y equals theirs,
// byte for byte. The softmax example is one of them (7 warps, 4 CTAs an
// SM): its body is make_warps.py's output, its header its own.
// RUN: rm -rf %t && mkdir -p %t
// The w variants are make_warps.py's output.
// RUN: %python %rake_src/bench/fused/variants/make_warps.py %rake_src/bench/fused/variants/softmax_w8.mlir 9 fused_softmax_w9 | diff - %rake_src/bench/fused/variants/softmax_w9.mlir
// RUN: %python %rake_src/bench/fused/variants/make_warps.py %rake_src/bench/fused/variants/softmax_w8.mlir 7 fused_softmax_w7 | diff - %rake_src/bench/fused/variants/softmax_w7.mlir
// RUN: %python %rake_src/bench/fused/variants/make_warps.py %rake_src/bench/fused/variants/softmax_w8.mlir 9 fused_softmax_w9b4 4 | diff - %rake_src/bench/fused/variants/softmax_w9b4.mlir
// RUN: %python %rake_src/bench/fused/variants/make_warps.py %rake_src/bench/fused/variants/softmax_w8.mlir 7 fused_softmax_w7b4 4 | diff - %rake_src/bench/fused/variants/softmax_w7b4.mlir
// RUN: %python %rake_src/bench/fused/variants/make_warps.py %rake_src/bench/fused/variants/softmax_w8.mlir 7 fused_softmax 4 | grep -v '^//' > %t/example-body.mlir
// RUN: grep -v '^//' %examples/fused_softmax.mlir | diff %t/example-body.mlir -
// RUN: %python %rake_src/bench/fused/variants/make_warps.py %examples/fused_rmsnorm.mlir 9 fused_rmsnorm_w9 | diff - %rake_src/bench/fused/variants/rmsnorm_w9.mlir
// RUN: %python %rake_src/bench/fused/variants/make_warps.py %examples/fused_rmsnorm.mlir 7 fused_rmsnorm_w7 | diff - %rake_src/bench/fused/variants/rmsnorm_w7.mlir
// RUN: for f in %rake_src/bench/fused/variants/*.mlir; do rake-opt $f --rake-check -o /dev/null || exit 1; done
// RUN: rake-run --seq %examples/fused_rmsnorm.mlir --sizes=blocks=12 --save-inputs=%t/rin --output-dir=%t/rms > /dev/null
// RUN: rake-run --seq %rake_src/bench/fused/variants/rmsnorm_r2p.mlir --sizes=blocks=6 --input=X=%t/rin/X.bin --input=W=%t/rin/W.bin --output-dir=%t/r2p > /dev/null
// RUN: rake-run --seq %rake_src/bench/fused/variants/rmsnorm_r4p.mlir --sizes=blocks=3 --input=X=%t/rin/X.bin --input=W=%t/rin/W.bin --output-dir=%t/r4p > /dev/null
// RUN: cmp %t/rms/Y.bin %t/r2p/Y.bin
// RUN: cmp %t/rms/Y.bin %t/r4p/Y.bin
// 96 rows are 10 tasks of 9 and a last of 6 (13 of 7 and a last of 5).
// RUN: rake-run --seq %rake_src/bench/fused/variants/rmsnorm_w9.mlir --sizes=rows=96 --input=X=%t/rin/X.bin --input=W=%t/rin/W.bin --output-dir=%t/rw9 > /dev/null
// RUN: rake-run --seq %rake_src/bench/fused/variants/rmsnorm_w7.mlir --sizes=rows=96 --input=X=%t/rin/X.bin --input=W=%t/rin/W.bin --output-dir=%t/rw7 > /dev/null
// RUN: cmp %t/rms/Y.bin %t/rw9/Y.bin
// RUN: cmp %t/rms/Y.bin %t/rw7/Y.bin
// RUN: rake-run --seq %rake_src/bench/fused/variants/softmax_w8.mlir --sizes=blocks=12 --save-inputs=%t/sin --output-dir=%t/sm > /dev/null
// RUN: rake-run --seq %rake_src/bench/fused/variants/softmax_r2p.mlir --sizes=blocks=6 --input=X=%t/sin/X.bin --output-dir=%t/s2p > /dev/null
// RUN: rake-run --seq %rake_src/bench/fused/variants/softmax_r4p.mlir --sizes=blocks=3 --input=X=%t/sin/X.bin --output-dir=%t/s4p > /dev/null
// RUN: cmp %t/sm/Y.bin %t/s2p/Y.bin
// RUN: cmp %t/sm/Y.bin %t/s4p/Y.bin
// RUN: rake-run --seq %rake_src/bench/fused/variants/softmax_w9.mlir --sizes=rows=96 --input=X=%t/sin/X.bin --output-dir=%t/sw9 > /dev/null
// RUN: rake-run --seq %rake_src/bench/fused/variants/softmax_w7.mlir --sizes=rows=96 --input=X=%t/sin/X.bin --output-dir=%t/sw7 > /dev/null
// RUN: cmp %t/sm/Y.bin %t/sw9/Y.bin
// RUN: cmp %t/sm/Y.bin %t/sw7/Y.bin
// RUN: rake-run --seq %rake_src/bench/fused/variants/softmax_w9b4.mlir --sizes=rows=96 --input=X=%t/sin/X.bin --output-dir=%t/sw9b4 > /dev/null
// RUN: rake-run --seq %rake_src/bench/fused/variants/softmax_w7b4.mlir --sizes=rows=96 --input=X=%t/sin/X.bin --output-dir=%t/sw7b4 > /dev/null
// RUN: cmp %t/sm/Y.bin %t/sw9b4/Y.bin
// RUN: cmp %t/sm/Y.bin %t/sw7b4/Y.bin
// RUN: rake-run --seq %examples/fused_softmax.mlir --sizes=rows=96 --input=X=%t/sin/X.bin --output-dir=%t/ex > /dev/null
// RUN: cmp %t/sm/Y.bin %t/ex/Y.bin
// In the machine-independent code (PTX), W's and both rows' loads (24 of 16 bytes)
// come before the first row's reduction, and no local memory is used.
// RUN: rake-translate --gpuir-to-ptx %rake_src/bench/fused/variants/rmsnorm_r2p.mlir > %t/r2p.ptx
// RUN: sed -n '1,/shfl.sync.bfly/p' %t/r2p.ptx | grep -c 'ld.global.v4.b32' | FileCheck %s --check-prefix=BEFORE
// BEFORE: 24
// RUN: FileCheck %s --check-prefix=ASM < %t/r2p.ptx
// ASM: shfl.sync.bfly.b32
// ASM: st.global.v4.b32
// ASM-NOT: .local
