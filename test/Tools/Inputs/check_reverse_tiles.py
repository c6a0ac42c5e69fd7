#!/usr/bin/env python3
"""Independent reference for examples/reverse_tiles.mlir (and
warpgroup_reverse.mlir): B holds every tile of A reversed.
Usage: check_reverse_tiles.py A.bin B.bin [TILE, default 256]"""
import struct
import sys

a = open(sys.argv[1], "rb").read()
b = open(sys.argv[2], "rb").read()
n = len(a) // 4
A = struct.unpack("<%df" % n, a)
B = struct.unpack("<%df" % n, b)
tile = int(sys.argv[3]) if len(sys.argv) > 3 else 256
assert n % tile == 0, "whole tiles only"
bad = [i for i in range(n)
       if B[i] != A[(i // tile) * tile + tile - 1 - i % tile]]
if bad:
    print("mismatch at %d of %d elements, first at %d" % (len(bad), n, bad[0]))
    sys.exit(1)
print("reverse_tiles: %d elements match (tiles of %d)" % (n, tile))
