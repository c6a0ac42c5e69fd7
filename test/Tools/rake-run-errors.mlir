// rake-run's refusals: each names what is missing or wrong.
// A math op without an exact lowering is refused at the op, with no dump of
// generic IR after the error.
// RUN: not rake-run --seq %S/Inputs/atan.mlir 2>&1 | FileCheck %s --check-prefix=LOG
// LOG: atan.mlir:7:14: error: 'math.atan' op has no lowering that exact floating point allows (its library call or instruction is approximate); compute it on the host, or from arith operations and math.exp, math.exp2, math.log, math.tanh, math.erf, math.sqrt and math.fma
// LOG-NOT: see current operation
// RUN: not rake-run %s 2>&1 | FileCheck %s --check-prefix=NOSEQ
// NOSEQ: rake-run: only --seq (the sequential meaning on the host) is available; running on the GPU comes with code generation
// RUN: not rake-run --seq %s 2>&1 | FileCheck %s --check-prefix=SEVERAL
// SEVERAL: rake-run: the file holds several procedures; name one with --proc
// RUN: not rake-run --seq %s --proc=nope 2>&1 | FileCheck %s --check-prefix=NOPROC
// NOPROC: rake-run: no procedure named 'nope'
// RUN: not rake-run --seq %s --proc=tiles --shape=X=16 2>&1 | FileCheck %s --check-prefix=NOSIZE
// NOSIZE: rake-run: give the value of index parameter 'n' with --sizes=n=N
// RUN: not rake-run --seq %s --proc=tiles --sizes=n=16 2>&1 | FileCheck %s --check-prefix=NOSHAPE
// NOSHAPE: rake-run: give the extents of the dynamic dimensions of 'X' (1) with --shape=X=...
// RUN: not rake-run --seq %s --proc=tiles --sizes=n=16 --shape=X=4x4 2>&1 | FileCheck %s --check-prefix=RANK
// RANK: rake-run: --shape gives 2 extents for 'X', which has 1 dynamic dimensions
// RUN: not rake-run --seq %s --proc=tiles --sizes=n=sixteen 2>&1 | FileCheck %s --check-prefix=BADSIZE
// BADSIZE: rake-run: --sizes: expected name=integer[xinteger...], got 'n=sixteen'
// RUN: not rake-run --seq %s --proc=tiles --sizes=n=16 --shape=X=16 --input=Y=%s 2>&1 | FileCheck %s --check-prefix=NOBUF
// NOBUF: rake-run: --input names 'Y', which is not a buffer parameter of @tiles
// RUN: not rake-run --seq %s --proc=tiles --sizes=n=16 --shape=X=16 --input=X=%s 2>&1 | FileCheck %s --check-prefix=SIZE
// SIZE: rake-run: '{{.*}}rake-run-errors.mlir' holds {{[0-9]+}} bytes; X needs 64
// RUN: not rake-run --seq %s --proc=tiles --sizes=n=16 --shape=X=16 --print=Y 2>&1 | FileCheck %s --check-prefix=NOPRINT
// NOPRINT: rake-run: --print names 'Y', which is not a buffer parameter of @tiles

// RUN: not rake-run --seq %s --proc=tiles --sizes=n=16 --shape=X=16 --input=X=%t.missing 2>&1 | FileCheck %s --check-prefix=NOFILE
// NOFILE: rake-run: cannot read '{{.*}}.missing': No such file or directory
// RUN: not rake-run --seq %s --proc=tiles --sizes=n=16 --shape=X=16 --input=X 2>&1 | FileCheck %s --check-prefix=BADINPUT
// BADINPUT: rake-run: --input: expected name=file, got 'X'
// RUN: not rake-run --seq %s --proc=tiles --sizes=n=16 --shape=X=16 --launch-args=%t.args 2>&1 | FileCheck %s --check-prefix=NOLAUNCH
// NOLAUNCH: rake-run: @tiles has no device function to launch
// RUN: echo 'func.func @f() { return }' > %t.noproc.mlir
// RUN: not rake-run --seq %t.noproc.mlir 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: rake-run: the file holds no gpuir.proc

// Elements rake-run cannot store: neither whole bytes nor a 4- or 6-bit
// float (one per byte).
// RUN: echo 'gpuir.proc @bits(%X: memref<4xi2, #gpuir.gmem>) { }' > %t.bits.mlir
// RUN: not rake-run --seq %t.bits.mlir 2>&1 | FileCheck %s --check-prefix=BITS
// BITS: rake-run: parameter 'X' has elements rake-run cannot generate (8 to 64 bit integers and floats, and the 4- and 6-bit floats, only)

// Extents rake-run cannot allocate: a clear error, not a crash.
// RUN: not rake-run --seq %s --proc=tiles --sizes=n=16 --shape=X=4611686018427387904 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: rake-run: 'X' needs more than 2^64 bytes, and the buffers together more than this machine's {{[0-9]+}} bytes of memory: run at smaller sizes
// RUN: not rake-run --seq %s --proc=tiles --sizes=n=16 --shape=X=9223372036854775807 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: not rake-run --seq %s --proc=tiles --sizes=n=16 --shape=X=100000000000000 2>&1 | FileCheck %s --check-prefix=LARGE
// LARGE: rake-run: 'X' needs 400000000000000 bytes, and the buffers together more than this machine's {{[0-9]+}} bytes of memory: run at smaller sizes
// RUN: not rake-run --seq %s --proc=tiles --sizes=n=16 --shape=X=-5 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: rake-run: 'X' would have extent -5; extents are not negative

// Declared extents (gpuir.extents) give the shape, and --shape must agree.
// RUN: rake-run --seq %s --proc=declared --sizes=n=3 --print=X | FileCheck %s --check-prefix=DECLARED
// DECLARED: X: 3x64xf32 checksum
// RUN: not rake-run --seq %s --proc=declared --sizes=n=3 --shape=X=4 2>&1 | FileCheck %s --check-prefix=DISAGREE
// DISAGREE: rake-run: --shape gives X=4, but the procedure declares its dynamic extents as 3 at these sizes (gpuir.extents)

// An access out of bounds stops the run at its source location instead of
// reading or writing past the buffer, and says which element and extent.
// RUN: not rake-run --seq %s --proc=tiles --sizes=n=20 --shape=X=16 2>&1 | FileCheck %s --check-prefix=OOB
// OOB: rake-run-errors.mlir:[[# @LINE + 9]]:5: error: out-of-bounds write of X[16]: index 16 of dimension 0 is outside its extent 16 (i = 16)
// OOB: rake-run: the procedure stopped before an access out of bounds
// (the report names the access, the element, the extent and the loops)
// Instructions have no sequential behavior yet.
// RUN: not rake-run --seq %s --proc=instr 2>&1 | FileCheck %s --check-prefix=INSTR
// INSTR: error: 'rtest.in_order_op' op has no sequential behavior yet; instructions' behaviors come with their instruction sets
gpuir.proc @tiles(%n: index, %X: memref<?xf32, #gpuir.host>) {
  gpuir.for %i = 0 to %n : seq {
    %v = arith.constant 1.0 : f32
    gpuir.write %v, %X[%i] : memref<?xf32, #gpuir.host>
  }
}
gpuir.proc @instr(%x: memref<4xf32, #gpuir.gmem>) {
  gpuir.device_function block(32) {
    gpuir.for %t = 0 to 1 : cuda_tasks {
      gpuir.for %l = 0 to 1 : cuda_threads<#gpuir.unit<thread>> {
        rtest.in_order_op %x unit <thread> : memref<4xf32, #gpuir.gmem>
      }
    }
  }
}

gpuir.proc @declared(%n: index, %X: memref<?x64xf32, #gpuir.host> {gpuir.extents = affine_map<(n) -> (n, 64)>}) {
  gpuir.for %i = 0 to %n : seq {
    %z = arith.constant 2.0 : f32
    gpuir.write %z, %X[%i, 0] : memref<?x64xf32, #gpuir.host>
  }
}

// A two-dimensional buffer in nested loops: the report gives every index
// and every loop value.
// RUN: not rake-run --seq %s --proc=grid --sizes=n=3 --shape=Y=3 2>&1 | FileCheck %s --check-prefix=GRID
// GRID: rake-run-errors.mlir:[[# @LINE + 6]]:12: error: out-of-bounds read of Y[0, 4]: index 4 of dimension 1 is outside its extent 4 (r = 0, c = 3)
gpuir.proc @grid(%n: index, %Y: memref<?x4xf32, #gpuir.host>) {
  gpuir.for %r = 0 to %n : seq {
    gpuir.for %c = 0 to 4 : seq {
      %v = arith.constant 2.0 : f32
      gpuir.write %v, %Y[%r, %c] : memref<?x4xf32, #gpuir.host>
      %w = gpuir.read %Y[%r, %c + 1] : memref<?x4xf32, #gpuir.host>
      gpuir.write %w, %Y[%r, %c] : memref<?x4xf32, #gpuir.host>
    }
  }
}
