# Whether every f32 of the second file is the correctly rounded square root
# of the same element of the first (NaN for a negative one) (test/Tools/cpu-pipeline.mlir).
import array
import math
import sys

a, b = array.array("f"), array.array("f")
a.frombytes(open(sys.argv[1], "rb").read())
b.frombytes(open(sys.argv[2], "rb").read())


def root_ok(x, y):
    if x < 0 or math.isnan(x):
        return math.isnan(y)  # sqrt of a negative number is NaN
    return array.array("f", [math.sqrt(x)])[0] == y


print("roots", len(a) == len(b) and all(root_ok(x, y) for x, y in zip(a, b)))
