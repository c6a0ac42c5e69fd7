# GpuIR written as Python functions (rake.frontend): the procedures equal the
# hand-written examples op for op, pass the synchronization check, compile to
# PTX; a race is reported at the Python lines of both accesses.
# REQUIRES: python-bindings
# RUN: %rake_python %s %rake_src | FileCheck %s

import array
import linecache
import os
import sys

import rake
from rake.frontend import *

src = sys.argv[1]


@proc(check_sizes=[{"n": 4096}, {"n": 1000}])
def vector_add(n: index, A: gmem(f32, "?", extents=lambda n: [n]),
               B: gmem(f32, "?", extents=lambda n: [n]),
               C: gmem(f32, "?", extents=lambda n: [n])):
    with device_function(block=256, blocks_per_sm=8):
        for task in cuda_tasks(0, ceildiv(n, 256)):
            for t in cuda_threads(0, 256, unit=thread):
                with if_(task * 256 + t < n):
                    a = A[task * 256 + t]
                    b = B[task * 256 + t]
                    C[task * 256 + t] = a + b


def reverse(with_fence):
    @proc(check_sizes=[{"n": 1024}, {"n": 300}])
    def reverse_tiles(n: index,
                      A: gmem(f32, "?", extents=lambda n: [ceildiv(n, 256) * 256]),
                      B: gmem(f32, "?", extents=lambda n: [ceildiv(n, 256) * 256])):
        with device_function(block=256):
            for task in cuda_tasks(0, ceildiv(n, 256)):
                tile = alloc(smem(f32, 256), name="tile")
                for t in cuda_threads(0, 256, unit=thread):
                    tile[t] = A[task * 256 + t]          # the write
                if with_fence:
                    fence("cuda_in_order", "cuda_in_order")
                for t in cuda_threads(0, 256, unit=thread):
                    B[task * 256 + t] = tile[255 - t]    # the read
    return reverse_tiles


def same_as_example(p, name):
    """Both parsed and printed (without locations): equal."""
    mine = str(p.module())
    theirs = str(rake.Module.load(os.path.join(src, "examples", name + ".mlir")))
    return mine == theirs


# CHECK: vector_add equals examples/vector_add.mlir: True
print("vector_add equals examples/vector_add.mlir:", same_as_example(vector_add, "vector_add"))
# CHECK-NEXT: reverse_tiles equals examples/reverse_tiles.mlir: True
print("reverse_tiles equals examples/reverse_tiles.mlir:",
      same_as_example(reverse(True), "reverse_tiles"))

m = vector_add.module()
m.check()
# CHECK-NEXT: vector_add: checked, 1 kernel in PTX
print("vector_add: checked, %d kernel in PTX" % m.ptx().count(".entry"))

# Without the fence, the check names both accesses at their Python lines.
try:
    reverse(False).module().check()
    print("no race found")
except rake.Error as e:
    for d in e.diagnostics[:2]:
        # CHECK-NEXT: error at "B[task * 256 + t] = tile[255 - t]    # the read": RAW hazard: thread 0 of task 0 read tile[255] on cuda_in_order_ram, written by thread 255 of task 0 on cuda_in_order_ram without synchronization that orders it before
        # CHECK-NEXT: note at "tile[t] = A[task * 256 + t]          # the write": the earlier write of tile[255]
        file, line, _ = d.location.rsplit(":", 2)
        print(f'{d.severity} at "{linecache.getline(file, int(line)).strip()}": {d.message}')

# The builders refuse what GpuIR cannot say, in Python.
try:
    @proc
    def bad(n: index, A: gmem(f32, "?")):
        with device_function(block=32):
            for t in cuda_tasks(0, n):
                A[t * t] = 1.0
except TypeError as e:
    # CHECK-NEXT: TypeError: control expressions multiply by integers only (quasi-affine)
    print("TypeError:", e)

# Warp specialization, windows, an instruction, a commit group.
@proc(check_sizes=[{"rows": 3}])
def warp_specialized(rows: index, X: gmem(f32, "?", 1024, extents=lambda rows: [rows, 1024]),
                     Y: gmem(f32, "?", 1024, extents=lambda rows: [rows, 1024])):
    with device_function(blocks_per_sm=1,
                         warps={"producer": (4, "dec", 40), "consumer": (4, "inc", 232)}):
        for r in cuda_tasks(0, rows, name="r"):
            s = alloc(smem(f32, 1024), name="s")
            cg = barrier("cp_async_group", name="cg")
            with warps("producer"):
                for t in cuda_threads(0, 128, unit=thread):
                    for c in seq(0, 2, name="c"):
                        d = s.window("d")[(c * 128 + t) * 4 : (c * 128 + t) * 4 + 4]
                        g = X.window("g")[r, (c * 128 + t) * 4 : (c * 128 + t) * 4 + 4]
                        instr("gpuir.sm80.cp_async", d, g)
                arrive(cg, "Sm80_cp_async")
                await_(cg, "cuda_in_order", outstanding=0)
            fence()
            with warps("consumer"):
                for t in cuda_threads(0, 128, unit=thread):
                    for i in seq(0, 8):
                        a = s[i * 128 + t]
                        b = s[1023 - i * 128 - t]
                        Y[r, i * 128 + t] = a * b


# CHECK-NEXT: warp_specialized equals examples/warp_specialized.mlir: True
print("warp_specialized equals examples/warp_specialized.mlir:",
      same_as_example(warp_specialized, "warp_specialized"))
warp_specialized.module().check()


# Register fragments, reductions, warp shuffles (an instruction with an
# integer attribute), a per-thread accumulator.
@proc(check_sizes=[{"rows": 4}, {"rows": 1}])
def block_sums(rows: index, X: gmem(f32, "?", 1024, extents=lambda rows: [rows, 1024]),
               S: gmem(f32, "?", extents=lambda rows: [rows])):
    with device_function(block=256, blocks_per_sm=4):
        for r in cuda_tasks(0, rows, name="r"):
            part = alloc(rmem(f32, 8, 32), name="part")
            other = alloc(rmem(f32, 8, 32), name="other")
            warp_sums = alloc(smem(f32, 8), name="warp_sums")
            for w in cuda_threads(0, 8, unit=warp, name="w"):
                for l in cuda_threads(0, 32, unit=thread, name="l"):
                    part[w, l] = const(0.0, name="zero")
                    for i in seq(0, 4):
                        part.reduce[w, l] = X[r, i * 256 + w * 32 + l]
                pw = part.window("pw")[w, 0:32]
                ow = other.window("ow")[w, 0:32]
                for distance in (16, 8, 4, 2, 1):
                    instr("gpuir.sm80.shfl_bfly", ow, pw, distance)
                    for l in cuda_threads(0, 32, unit=thread, name="l"):
                        part.reduce[w, l] = other[w, l]
                for l in cuda_threads(0, 1, unit=thread, name="l"):
                    warp_sums[w] = part[w, l]
            fence()
            for t in cuda_threads(0, 1, unit=thread):
                acc = alloc(rmem(f32, 1), name="acc")
                acc[0] = const(0.0, name="zero")
                for j in seq(0, 8, name="j"):
                    acc.reduce[0] = warp_sums[j]
                S[r] = acc[0]


# CHECK-NEXT: block_sums equals examples/block_sums.mlir: True
print("block_sums equals examples/block_sums.mlir:", same_as_example(block_sums, "block_sums"))
out = rake.run_sequential(block_sums, sizes={"rows": 3}, shapes={"X": 3, "S": 3})
X, S = out["X"].tolist(), out["S"].tolist()
# CHECK-NEXT: block_sums: sums within 1e-4: True
print("block_sums: sums within 1e-4:", all(abs(S[i] - sum(X[i])) < 1e-4 for i in range(3)))


# Math on values: a softmax of rows of 32 with exp, maximum and a division;
# the loop variables keep their Python names and every op its line and
# column; the sequential meaning against Python's math.
@proc(check_sizes=[{"rows": 2}])
def softmax32(rows: index, X: gmem(f32, "?", 32, extents=lambda rows: [rows, 32]),
              Y: gmem(f32, "?", 32, extents=lambda rows: [rows, 32])):
    with device_function(block=32):
        for row in cuda_tasks(0, rows):
            stats = alloc(smem(f32, 2), name="stats")
            for lead in cuda_threads(0, 1, unit=thread):
                acc = alloc(rmem(f32, 1), name="acc")
                acc[0] = X[row, 0]
                for j in seq(1, 32):
                    acc[0] = maximum(acc[0], X[row, j])
                stats[0] = acc[0]
                total = alloc(rmem(f32, 1), name="total")
                total[0] = 0.0
                for j in seq(0, 32):
                    total.reduce[0] = exp(X[row, j] - stats[0])
                stats[1] = total[0]
            fence()
            for lane in cuda_threads(0, 32, unit=thread):
                Y[row, lane] = exp(X[row, lane] - stats[0]) / stats[1]


lines = softmax32.text.splitlines()
# CHECK-NEXT: softmax32 loops: %row %lead %j %j %lane
print("softmax32 loops:", " ".join(l.split()[1] for l in lines if "gpuir.for" in l))
exp_line = [l for l in lines if "math.exp" in l][-1]
col = exp_line.rsplit(":", 1)[1].rstrip(")")
# CHECK-NEXT: softmax32 exp at column 32: True
print("softmax32 exp at column 32:", col == "32" and 'Y[row, lane] = exp(' in linecache.getline(__file__, int(exp_line.rsplit(":", 2)[1])))
softmax32.module().check()
out = rake.run_sequential(softmax32, sizes={"rows": 2}, shapes={"X": 2, "Y": 2})
import math as _m
Xs, Ys = out["X"].tolist(), out["Y"].tolist()
ok = True
for r in range(2):
    m_ = max(Xs[r]); es = [_m.exp(v - m_) for v in Xs[r]]; s_ = sum(es)
    ok = ok and all(abs(Ys[r][j] - es[j] / s_) <= 1e-5 * es[j] / s_ for j in range(32))
# CHECK-NEXT: softmax32: within 1e-5 of Python: True
print("softmax32: within 1e-5 of Python:", ok)


# The accumulator layouts: wgmma_d is the layout the wgmma examples spell
# out (examples/gemm_sm90a_tma.mlir's epilogue), mma_m16n8_c mma.sync's;
# as control expressions they index a write.
same = all(wgmma_d(t, 4 * j + i) == ((t // 32) * 16 + (t % 32) // 4 + (i // 2) * 8,
                                      j * 8 + (t % 4) * 2 + i % 2)
           for t in range(128) for j in range(16) for i in range(4))
cover = sorted(wgmma_d(t, r) for t in range(128) for r in range(64)) == \
    [(row, col) for row in range(64) for col in range(128)]
mma = sorted(mma_m16n8_c(l, r) for l in range(32) for r in range(4)) == \
    [(row, col) for row in range(16) for col in range(8)]
# CHECK-NEXT: fragments: True True True
print("fragments:", same, cover, mma)


@proc
def store_fragment(C: gmem(f32, 64, 128)):
    with device_function(block=128):
        for task in cuda_tasks(0, 1):
            for t in cuda_threads(0, 128, unit=thread):
                for r in seq(0, 64):
                    row, col = wgmma_d(t, r)
                    C[row, col] = const(1.0)


store_fragment.module().check()
# CHECK-NEXT: store_fragment: gpuir.write %c, %C[(((%t floordiv 32) * 16) + ((%t mod 32) floordiv 4)) + (((%r mod 4) floordiv 2) * 8), (((%r floordiv 4) * 8) + ((%t mod 4) * 2)) + (%r mod 2)]
print("store_fragment:", [l.strip().split(" : ")[0] for l in store_fragment.text.splitlines() if "gpuir.write" in l][0])


# cast, bitcast and constants that Python prints without a point.
@proc
def conversions(A: gmem(f32, 4), B: gmem(bf16, 4), C: gmem(i32, 4)):
    with device_function(block=32):
        for task in cuda_tasks(0, 1):
            for t in cuda_threads(0, 4, unit=thread):
                a = A[t] * 1e-06 + float("inf")
                B[t] = cast(a, bf16)
                C[t] = bitcast(abs(-a) + erf(tanh(log(exp2(rsqrt(a))))), i32)


text = conversions.text
# CHECK-NEXT: conversions: True True True True True
print("conversions:", "arith.constant 1.0e-06 : f32" in text, "0x7f800000 : f32" in text,
      "arith.truncf" in text and "arith.bitcast" in text, "math.absf" in text and "arith.negf" in text,
      all(f"math.{f} " in text for f in ("erf", "tanh", "log", "exp2", "rsqrt")))
conversions.module().check()


# An else branch.
@proc(check_sizes=[{"n": 64}])
def clamp(n: index, A: gmem(f32, "?")):
    with device_function(block=32):
        for task in cuda_tasks(0, ceildiv(n, 32)):
            for t in cuda_threads(0, 32, unit=thread):
                with if_(task * 32 + t < 40):
                    A[task * 32 + t] = const(1.0)
                with else_():
                    A[task * 32 + t] = const(2.0)


out = rake.run_sequential(clamp, sizes={"n": 64}, shapes={"A": 64})
# CHECK-NEXT: clamp: [1.0, 1.0] [2.0, 2.0]
print("clamp:", out["A"].tolist()[38:40], out["A"].tolist()[40:42])


# Conditions with | (or) and ~ (not): the sequential meaning follows them.
@proc(check_sizes=[{"n": 64}])
def edges(n: index, A: gmem(f32, "?")):
    with device_function(block=32):
        for task in cuda_tasks(0, ceildiv(n, 32)):
            for t in cuda_threads(0, 32, unit=thread):
                with if_((t == 0) | ~(t < 30) & (task == 1)):
                    A[task * 32 + t] = const(1.0)
                with else_():
                    A[task * 32 + t] = const(0.0)


# CHECK-NEXT: edges: gpuir.if %t == 0 or ((not %t < 30) and %task == 1) {
print("edges:", [l.strip() for l in edges.text.splitlines() if "gpuir.if" in l][0])
out = rake.run_sequential(edges, sizes={"n": 64}, shapes={"A": 64})
# CHECK-NEXT: edges: ones at [0, 32, 62, 63]
print("edges: ones at", [i for i, v in enumerate(out["A"].tolist()) if v == 1.0])


# Misuse is a Python error at the line that wrote it.
def refused(build):
    try:
        build()
        return "accepted"
    except (TypeError, ValueError, IndexError, SyntaxError, NameError, OverflowError) as e:
        return f"{type(e).__name__}: {e}"


def chained():
    @proc
    def p(n: index, A: gmem(f32, "?")):
        with device_function(block=32):
            for t in cuda_tasks(0, n):
                with if_(0 < t < n):
                    A[t] = 1.0


def unannotated():
    @proc
    def p(n, A: gmem(f32, "?")):
        pass


def bad_window():
    @proc
    def p(n: index, A: gmem(f32, "?")):
        with device_function(block=32):
            for t in cuda_tasks(0, n):
                A.window[t : n]


def wrong_rank():
    @proc
    def p(n: index, A: gmem(f32, "?", 4)):
        with device_function(block=32):
            for t in cuda_tasks(0, n):
                A[t] = 1.0


def bad_bitcast():
    @proc
    def p(A: gmem(f32, 4)):
        with device_function(block=32):
            for t in cuda_tasks(0, 4):
                bitcast(A[t], bf16)


def int_sqrt():
    @proc
    def p(A: gmem(i32, 4)):
        with device_function(block=32):
            for t in cuda_tasks(0, 4):
                sqrt(A[t])


def mixed_max():
    @proc
    def p(A: gmem(f32, 4), B: gmem(bf16, 4)):
        with device_function(block=32):
            for t in cuda_tasks(0, 4):
                maximum(A[t], B[t])


def lone_else():
    @proc
    def p(n: index, A: gmem(f32, "?")):
        with device_function(block=32):
            for t in cuda_tasks(0, n):
                with else_():
                    A[t] = 1.0


# CHECK-NEXT: TypeError: bitcast from f32 to bf16: the widths differ
print(refused(bad_bitcast))
# CHECK-NEXT: TypeError: math on values of different types: f32, bf16
print(refused(mixed_max))
# CHECK-NEXT: TypeError: sqrt takes a floating-point value, not i32
print(refused(int_sqrt))
# CHECK-NEXT: TypeError: a GpuIR condition has no Python truth value: use it in if_(...) and combine comparisons with &, | and ~
print(refused(chained))
# CHECK-NEXT: TypeError: parameter n of p needs the annotation `index` or a buffer type such as gmem(f32, '?')
print(refused(unannotated))
# CHECK-NEXT: ValueError: a window's interval is written start : start + n, with n an integer
print(refused(bad_window))
# CHECK-NEXT: IndexError: A has 2 dimensions, indexed with 1
print(refused(wrong_rank))
# CHECK-NEXT: SyntaxError: else_() must follow an if_ block directly
print(refused(lone_else))


# What an adversarial review found the frontend translating silently into
# something else; each is now refused where Python wrote it.
def escaped_value():
    @proc
    def p(A: gmem(f32, 4), C: gmem(f32, 4)):
        with device_function(block=32):
            for task in cuda_tasks(0, 1):
                for t in cuda_threads(0, 4, unit=thread):
                    a = A[t]
                for t in cuda_threads(0, 4, unit=thread):
                    C[t] = a + a   # `a` belongs to the first loop


def escaped_loop_variable():
    @proc
    def p(A: gmem(f32, 8), B: gmem(f32, 8)):
        with device_function(block=32):
            for task in cuda_tasks(0, 1):
                for i in seq(0, 8):
                    pass
                last = i
                for i in seq(0, 8):
                    B[i] = A[last]


def seq_step():
    @proc
    def p(B: gmem(f32, 8)):
        with device_function(block=32):
            for task in cuda_tasks(0, 1):
                for i in seq(0, 8, 2):
                    B[i] = 1.0


def continue_in_if():
    @proc
    def p(B: gmem(f32, 8)):
        with device_function(block=32):
            for task in cuda_tasks(0, 1):
                for t in cuda_threads(0, 8, unit=thread):
                    with if_(t < 4):
                        continue
                    B[t] = 1.0


def window_step():
    @proc
    def p(A: gmem(f32, 8)):
        with device_function(block=32):
            for task in cuda_tasks(0, 1):
                A.window[0:8:2]


def float_divisor():
    @proc
    def p(A: gmem(f32, 8)):
        with device_function(block=32):
            for task in cuda_tasks(0, 1):
                for t in cuda_threads(0, 8, unit=thread):
                    A[t // 2.5] = 1.0


def fraction_in_int():
    @proc
    def p(A: gmem(i32, 8)):
        with device_function(block=32):
            for task in cuda_tasks(0, 1):
                for t in cuda_threads(0, 8, unit=thread):
                    A[t] = A[t] * 1.5


def int_out_of_range():
    @proc
    def p(A: gmem(i32, 8)):
        with device_function(block=32):
            for task in cuda_tasks(0, 1):
                for t in cuda_threads(0, 8, unit=thread):
                    A[t] = minimum(A[t], 3000000000)


def f32_overflow():
    @proc
    def p(A: gmem(f32, 8)):
        with device_function(block=32):
            for task in cuda_tasks(0, 1):
                for t in cuda_threads(0, 8, unit=thread):
                    A[t] = A[t] * 1e39


def value_truth():
    @proc
    def p(A: gmem(f32, 8), B: gmem(f32, 8)):
        with device_function(block=32):
            for task in cuda_tasks(0, 1):
                for t in cuda_threads(0, 8, unit=thread):
                    B[t] = A[t] or 42.0


def control_truth():
    @proc
    def p(B: gmem(f32, 8)):
        with device_function(block=32):
            for task in cuda_tasks(0, 1):
                for t in cuda_threads(0, 8, unit=thread):
                    if t:
                        B[t] = 1.0


def int_true_division():
    @proc
    def p(A: gmem(i32, 8)):
        with device_function(block=32):
            for task in cuda_tasks(0, 1):
                for t in cuda_threads(0, 8, unit=thread):
                    A[t] = A[t] / 2


# CHECK-NEXT: NameError: 'v' is used outside the loop or branch that made it: a value, buffer or loop variable of a block exists only inside it (compute it again there, or keep it in a buffer)
print(refused(escaped_value))
# CHECK-NEXT: NameError: 'i' is used outside the loop or branch that made it
print(refused(escaped_loop_variable))
# CHECK-NEXT: TypeError: a loop takes (lo, hi) and an optional name; found 2 where the name goes: GpuIR loops have no step (write the index as lo + step * i over a loop of (hi - lo) // step iterations)
print(refused(seq_step))
# CHECK-NEXT: SyntaxError: 'continue' in a @proc function (line {{[0-9]+}}): the frontend records the statements a run reaches, and GpuIR would not know the rest of the block was skipped; use if_(...) around what should not run
print(refused(continue_in_if))
# CHECK-NEXT: ValueError: a window's interval has no step (found 2): a window takes consecutive elements
print(refused(window_step))
# CHECK-NEXT: TypeError: a divisor must be an integer, found 2.5
print(refused(float_divisor))
# CHECK-NEXT: TypeError: 1.5 is not an integer: it would be truncated to 1 in i32
print(refused(fraction_in_int))
# CHECK-NEXT: OverflowError: 3000000000 does not fit in i32 (-2147483648 to 2147483647)
print(refused(int_out_of_range))
# CHECK-NEXT: OverflowError: 1e+39 overflows f32 (its largest finite value is 3.4028235677973366e+38)
print(refused(f32_overflow))
# CHECK-NEXT: TypeError: a GpuIR value has no Python truth value (it is known only when the kernel runs): compare values with maximum/minimum or select with control conditions in if_(...)
print(refused(value_truth))
# CHECK-NEXT: TypeError: a control expression has no Python truth value: compare it (t < n, t == 0) and use the comparison in if_(...)
print(refused(control_truth))
# CHECK-NEXT: TypeError: '/' on i32 values: Python's / divides exactly and GpuIR's integer division truncates toward zero; convert to a float type with cast(...) to divide
print(refused(int_true_division))


# A window of a window (its source's strided type; before, the frontend
# wrote the source's plain type and the parser refused it).
@proc
def window_of_window(A: gmem(f32, 8), B: gmem(f32, 2)):
    with device_function(block=32):
        for task in cuda_tasks(0, 1):
            w = A.window[2:6]
            v = w.window[1:3]
            for t in cuda_threads(0, 2, unit=thread):
                B[t] = v[t]


# CHECK-NEXT: window of a window: B = A[3:5]: True
out = rake.run_sequential(window_of_window, inputs={"A": array.array("f", range(8))})
print("window of a window: B = A[3:5]:", out is not None and list(out["B"]) == [3.0, 4.0])


# Clear refusals for constructs that used to end in an internal error.
def and_with_bool():
    @proc
    def p(B: gmem(f32, 8)):
        with device_function(block=32):
            for task in cuda_tasks(0, 1):
                for t in cuda_threads(0, 8, unit=thread):
                    with if_((t < 4) & True):
                        B[t] = 1.0


def control_as_data():
    @proc
    def p(B: gmem(f32, 8)):
        with device_function(block=32):
            for task in cuda_tasks(0, 1):
                for t in cuda_threads(0, 8, unit=thread):
                    B[t] = t


# CHECK-NEXT: TypeError: '&' joins two conditions (comparisons of control expressions); found True
print(refused(and_with_bool))
# CHECK-NEXT: TypeError: %t is a control expression (loop variables and index parameters), not a data value: write data read from buffers or constants
print(refused(control_as_data))


# t != 0 is not (t == 0).
@proc
def not_equal(B: gmem(f32, 8)):
    with device_function(block=32):
        for task in cuda_tasks(0, 1):
            for t in cuda_threads(0, 8, unit=thread):
                with if_(t != 0):
                    B[t] = 1.0


# CHECK-NEXT: not equal: gpuir.if not %t == 0 {
print("not equal:", next(l.strip().split(" loc(")[0] for l in not_equal.text.splitlines() if "gpuir.if" in l))
# CHECK-NEXT: not equal: B = [0, 1, 1, 1, 1, 1, 1, 1]
out = rake.run_sequential(not_equal, inputs={"B": array.array("f", [0.0] * 8)})
print("not equal: B =", [int(x) for x in out["B"]])
