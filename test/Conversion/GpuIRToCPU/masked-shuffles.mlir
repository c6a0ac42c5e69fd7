// Shuffles over partial warps (`active(n)`): no lane takes a value from a
// padding lane (an unavailable source). Under bfly, down and idx a lane whose
// source is past the last data lane keeps its own value (shfl.sync's clamp);
// up takes only lower lanes. The sequential meaning equals an independent
// Python reference of that rule for n = -2 .. 33 (no data lane, empty data,
// partial warps, every lane), and no data lane holds a padding lane's value.
// RUN: rm -rf %t && mkdir -p %t/in
// RUN: rake-opt %S/Inputs/sm80-masked-shuffles.mlir --rake-check > /dev/null
// RUN: python3 %S/Inputs/sm80_masked_shuffles.py make %t/in
// RUN: rake-run --seq %S/Inputs/sm80-masked-shuffles.mlir --input=X=%t/in/X.bin --output-dir=%t/out > /dev/null
// RUN: python3 %S/Inputs/sm80_masked_shuffles.py check %t/out %t/in | FileCheck %s
// CHECK: data lanes that read a padding lane: 0
// CHECK: masked shuffles: 4608 of 4608 results equal the reference

// Without the masks data lanes read the padding lanes' values.
// RUN: sed 's/ active(%%t - 2)//' %S/Inputs/sm80-masked-shuffles.mlir > %t/unmasked.mlir
// RUN: rake-run --seq %t/unmasked.mlir --input=X=%t/in/X.bin --output-dir=%t/unmasked > /dev/null
// RUN: not python3 %S/Inputs/sm80_masked_shuffles.py check %t/unmasked %t/in | FileCheck %s --check-prefix=UNMASKED
// UNMASKED: data lanes that read a padding lane: {{[1-9][0-9]*}}
// UNMASKED: MISMATCH

// Round trip, and the device code: every lane in the shuffle (mask -1), the
// clamp min(max(n - 1, 0), 31) computed from the task index for bfly, down
// and idx; up as without a mask (clamp 0).
// RUN: rake-opt %S/Inputs/sm80-masked-shuffles.mlir | FileCheck %s --check-prefix=ROUND
// ROUND: gpuir.sm80.shfl_bfly %{{.*}}, %{{.*}}, 3 active(%t - 2) :
// ROUND: gpuir.sm80.shfl_down %{{.*}}, %{{.*}}, 5 active(%t - 2) :
// ROUND: gpuir.sm80.shfl_up %{{.*}}, %{{.*}}, 7 active(%t - 2) :
// ROUND: gpuir.sm80.shfl_idx %{{.*}}, %{{.*}}, 9 active(%t - 2) :
// RUN: rake-translate --gpuir-to-ptx %S/Inputs/sm80-masked-shuffles.mlir | FileCheck %s --check-prefix=PTX
// PTX: shfl.sync.bfly.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 3, [[C:%r[0-9]+]], -1;
// PTX: shfl.sync.down.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 5, [[C]], -1;
// PTX: shfl.sync.up.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 7, 0, -1;
// PTX: shfl.sync.idx.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 9, [[C]], -1;
