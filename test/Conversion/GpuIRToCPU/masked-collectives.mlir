// Warp collectives over partial warps (`active(n)`): the padding lanes stay
// in the collective and supply the neutral operand, whatever they hold (the
// mask wins over the data: NaN and -1 in the padding lanes of the input).
// The sequential meaning equals an independent Python reference of the
// published orders bit for bit, for n = -1 (no data lane), 0 (empty data),
// 1 .. 31 (partial warps), 32 and 33 (every lane).
// RUN: rm -rf %t && mkdir -p %t/in
// RUN: rake-opt %S/Inputs/sm80-masked-collectives.mlir --rake-check > /dev/null
// RUN: python3 %S/Inputs/sm80_masked.py make %t/in
// RUN: rake-run --seq %S/Inputs/sm80-masked-collectives.mlir --input=X=%t/in/X.bin --input=V=%t/in/V.bin --output-dir=%t/out > /dev/null
// RUN: python3 %S/Inputs/sm80_masked.py check %t/out %t/in | FileCheck %s
// CHECK: empty rows: S[1, 0] = 0x80000000
// CHECK: masked collectives: 3264 of 3264 results equal the reference

// Without the masks the padding lanes' NaN and -1 reach the results: the
// reference tells them apart.
// RUN: sed 's/ active(%%t - 1)//' %S/Inputs/sm80-masked-collectives.mlir > %t/unmasked.mlir
// RUN: rake-run --seq %t/unmasked.mlir --input=X=%t/in/X.bin --input=V=%t/in/V.bin --output-dir=%t/unmasked > /dev/null
// RUN: not python3 %S/Inputs/sm80_masked.py check %t/unmasked %t/in | FileCheck %s --check-prefix=UNMASKED
// UNMASKED: MISMATCH

// Round trip of the syntax, and the device code: each lane compares its
// lane index with n (task - 1) and selects -0.0 (a sum) or a 0 vote where it
// is a padding lane, before the full-warp shuffles and the ballot over all
// 32 lanes.
// RUN: rake-opt %S/Inputs/sm80-masked-collectives.mlir | FileCheck %s --check-prefix=ROUND
// ROUND: gpuir.sm80.warp_sum %s, %x active(%t - 1) :
// ROUND: gpuir.sm80.warp_scan %p, %x active(%t - 1) :
// ROUND: gpuir.sm80.ballot %b, %v active(%t - 1) :
// RUN: rake-translate --gpuir-to-ptx %S/Inputs/sm80-masked-collectives.mlir | FileCheck %s --check-prefix=PTX
// PTX: selp.f32 {{.*}}0f80000000
// PTX-COUNT-5: shfl.sync.bfly.b32 {{.*}}, -1;
// PTX: shfl.sync.up.b32
// PTX: vote.sync.ballot.b32 {{.*}}, -1;
