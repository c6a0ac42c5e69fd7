"""Inputs and the independent reference of sm80-masked-shuffles.mlir.

  sm80_masked_shuffles.py make DIR        writes DIR/X.bin (36 x 32 i32):
                                          data lanes hold 1000 t + l, padding
                                          lanes -1 - l (told apart from data)
  sm80_masked_shuffles.py check OUT DIR   compares OUT/Y.bin with the rule

The rule, written from the PTX ISA's shfl.sync (clamp c, no segments): lane
l's source j is l ^ 3 (bfly), l + 5 (down), l - 7 (up) or 9 (idx); it takes
lane j's value when j is valid (bfly, down, idx: j <= c with c = min(max(n -
1, 0), 31); up: j >= 0), else keeps its own. With n = t - 2 lanes 0 .. n - 1
are data lanes. The check also counts data lanes that took a padding lane's
value: the rule allows none."""
import struct
import sys

ROWS, LANES = 36, 32


def n_of(t):
    return t - 2  # the kernel's active(%t - 2)


def make(d):
    xs = []
    for t in range(ROWS):
        for l in range(LANES):
            xs.append(1000 * t + l if l < n_of(t) else -1 - l)
    open(f"{d}/X.bin", "wb").write(struct.pack(f"<{len(xs)}i", *xs))


def reference(xs):
    ys = []
    for t in range(ROWS):
        n = n_of(t)
        c = min(max(n - 1, 0), 31)
        row = xs[t * LANES:(t + 1) * LANES]
        for mode in ("bfly", "down", "up", "idx"):
            for l in range(LANES):
                if mode == "bfly":
                    j, ok = l ^ 3, (l ^ 3) <= c
                elif mode == "down":
                    j = l + 5
                    ok = j <= c and j <= 31
                elif mode == "up":
                    j = l - 7
                    ok = j >= 0
                else:
                    j, ok = 9, 9 <= c
                ys.append(row[j] if ok else row[l])
    return ys


def check(out, d):
    xs = struct.unpack(f"<{ROWS * LANES}i", open(f"{d}/X.bin", "rb").read())
    ys = struct.unpack(f"<{ROWS * 4 * LANES}i", open(f"{out}/Y.bin", "rb").read())
    ref = reference(xs)
    same = sum(1 for a, b in zip(ys, ref) if a == b)
    unavailable = 0
    for t in range(ROWS):
        for i in range(4):
            for l in range(min(max(n_of(t), 0), LANES)):
                if ys[(t * 4 + i) * LANES + l] < 0:
                    unavailable += 1
    print(f"data lanes that read a padding lane: {unavailable}")
    if same != len(ref):
        first = next(k for k, (a, b) in enumerate(zip(ys, ref)) if a != b)
        t, rest = divmod(first, 4 * LANES)
        i, l = divmod(rest, LANES)
        print(f"MISMATCH at t={t} shuffle {i} lane {l}: {ys[first]} != {ref[first]}")
        sys.exit(1)
    print(f"masked shuffles: {same} of {len(ref)} results equal the reference")


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2])
    else:
        check(sys.argv[2], sys.argv[3])
