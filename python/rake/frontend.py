"""Write GpuIR procedures as Python functions.

A procedure is a Python function over symbolic parameters; calling the
statement builders inside it (loops, allocations, reads and writes, fences,
barriers) records GpuIR, each op located at the Python line that made it, so
the verifiers' and the synchronization check's diagnostics point into the
Python source:

    from rake.frontend import *

    @proc(check_sizes=[{"n": 4096}, {"n": 1000}])
    def vector_add(n: index, A: gmem(f32, "?"), B: gmem(f32, "?"), C: gmem(f32, "?")):
        with device_function(block=256, blocks_per_sm=8):
            for task in cuda_tasks(0, ceildiv(n, 256)):
                for t in cuda_threads(0, 256, unit=thread):
                    with if_(task * 256 + t < n):
                        C[task * 256 + t] = A[task * 256 + t] + B[task * 256 + t]

    vector_add.text          # the GpuIR
    vector_add.module()      # a rake.Module: .check(), .ptx(), ...

Loops are Python `for` statements over cuda_tasks / cuda_threads / seq: the
body runs once, with the loop variable symbolic. Control values (parameters
of type `index`, loop variables) combine into quasi-affine expressions with
+, -, * by integers, // (floordiv), % (mod) and ceildiv; comparing them
makes the conditions of `if_` (join them with `&`, `|` and `~`, each comparison in parentheses).
Indexing a buffer with control expressions reads (an SSA value) or writes
(assignment); values combine with +, -, *, /, unary - and abs() into arith
ops of their element type, and with sqrt, rsqrt, exp, exp2, log, tanh, erf,
fma, maximum, minimum, cast and bitcast into the math and arith ops of docs/GpuIR.md ("Math").
wgmma_d(t, r) and mma_m16n8_c(lane, r) give the row and column of a register
of the tensor cores' accumulator fragments. Loop
variables keep their Python names in the IR, and every op is located at the
line and column of the Python expression that made it.
"""

from __future__ import annotations

import contextlib
import inspect
import linecache
import os
import re
from typing import Dict, List, Optional, Sequence, Union

__all__ = [
    "proc", "index", "gmem", "smem", "rmem", "smem_swizzled", "f32", "f16",
    "bf16", "f64", "i32", "i64", "thread", "warp", "warpgroup", "cta",
    "cta_in_cluster", "device_function", "warps", "cuda_tasks",
    "cuda_threads", "seq", "if_", "else_", "alloc", "barrier", "fence", "arrive",
    "await_", "instr", "ceildiv", "const", "Value", "Control", "Procedure",
    "sqrt", "exp", "exp2", "log", "tanh", "erf", "rsqrt", "fma", "maximum",
    "minimum", "cast", "bitcast", "wgmma_d", "mma_m16n8_c",
]

_HERE = os.path.dirname(os.path.abspath(__file__))

# ---------------------------------------------------------------- types


class ElementType:
    def __init__(self, name: str, is_float: bool):
        self.name, self.is_float = name, is_float

    def __repr__(self):
        return self.name


f32, f16, bf16, f64 = (ElementType(n, True) for n in ("f32", "f16", "bf16", "f64"))
i32, i64 = ElementType("i32", False), ElementType("i64", False)


class _Index:
    """The type of control parameters."""

    def __repr__(self):
        return "index"


index = _Index()


class BufferType:
    """A memref in a GpuIR memory space: element type, shape (ints, or "?"
    for sizes known at run time), memory attribute; for a parameter, its
    extents (gpuir.extents) as a function of the procedure's control
    parameters, in order, returning one expression per dimension."""

    def __init__(self, element: ElementType, shape: Sequence[Union[int, str]],
                 space: str, extents=None):
        self.element, self.shape, self.space = element, tuple(shape), space
        self.extents = extents

    def __str__(self):
        dims = "x".join("?" if d == "?" else str(d) for d in self.shape)
        return f"memref<{dims}x{self.element.name}, {self.space}>"


def gmem(element: ElementType, *shape, extents=None) -> BufferType:
    """A global buffer; `extents=lambda n: [n]` declares the extents of its
    dimensions over the control parameters, so that the synchronization
    check proves every access inside them."""
    return BufferType(element, shape, "#gpuir.gmem", extents)


def smem(element: ElementType, *shape) -> BufferType:
    return BufferType(element, shape, "#gpuir.smem")


def rmem(element: ElementType, *shape) -> BufferType:
    return BufferType(element, shape, "#gpuir.rmem")


def smem_swizzled(element: ElementType, *shape, bytes: int = 128) -> BufferType:
    return BufferType(element, shape, f"#gpuir.smem_swizzled<{bytes}>")


class _Unit:
    def __init__(self, text: str):
        self.text = text


thread, warp, warpgroup = _Unit("thread"), _Unit("warp"), _Unit("warpgroup")
cta, cta_in_cluster = _Unit("cta"), _Unit("cta_in_cluster")

# ---------------------------------------------------------------- builder


class _Builder:
    """The procedure being recorded: lines of GpuIR, indented by nesting."""

    current: Optional["_Builder"] = None

    def __init__(self):
        self.lines: List[str] = []
        self.depth = 1
        # Two names for each SSA value. The recorded text uses a name new in
        # the procedure (never reused), so that a Python object that outlives
        # its loop or branch cannot silently name another value: its use is
        # refused (_check_uses). The procedure's text then uses the display
        # name, which sibling regions may repeat as hand-written GpuIR does
        # (`for t` twice), substituted at the end (display()).
        self.scopes: List[set] = [set()]  # display names, per open region
        self.uscopes: List[set] = [set()]  # unique names, per open region
        self.taken: set = set()
        self.names: Dict[str, str] = {}  # unique -> display
        self.last_if: Optional[int] = None  # the line closing the last if_

    def push_scope(self):
        self.scopes.append(set())
        self.uscopes.append(set())

    def pop_scope(self):
        self.scopes.pop()
        self.uscopes.pop()

    def declare(self, unique: str):
        """Makes a value made in a region's header visible in the region."""
        self.scopes[-1].add(self.names[unique])
        self.uscopes[-1].add(unique)

    def fresh(self, hint: str) -> str:
        name, n = hint, 0
        while name in self.taken:
            n += 1
            name = f"{hint}_{n}"
        visible = set().union(*self.scopes)
        shown, n = hint, 0
        while shown in visible:
            n += 1
            shown = f"{hint}_{n}"
        self.taken.add(name)
        self.names[name] = shown
        self.scopes[-1].add(shown)
        self.uscopes[-1].add(name)
        return name

    def display(self, text: str) -> str:
        """The recorded text with each value's display name."""
        return re.sub(r"%([A-Za-z_][\w.]*)",
                      lambda m: "%" + self.names.get(m.group(1), m.group(1)), text)

    def _check_uses(self, text: str):
        """Refuses a statement that uses a value, buffer or loop variable
        outside the loop or branch that made it (a Python name that outlived
        its block: in GpuIR the value does not exist there)."""
        # What the statement defines (%x = ..., gpuir.for %i = ...) is not a use.
        uses = re.sub(r"%[\w.]+ = ", "", text)
        visible = set().union(*self.uscopes)
        for name in re.findall(r"%([A-Za-z_][\w.]*)", uses):
            if name in self.taken and name not in visible:
                raise NameError(
                    f"'{name}' is used outside the loop or branch that made it: a "
                    f"value, buffer or loop variable of a block exists only inside "
                    f"it (compute it again there, or keep it in a buffer)")

    def emit(self, text: str, located: bool = True):
        self._check_uses(text)
        loc = f" loc({_caller_location()})" if located else ""
        self.lines.append("  " * self.depth + text + loc)

    @contextlib.contextmanager
    def region(self, header: str, footer: str = "}"):
        self.emit(header + " {", located=False)
        self.depth += 1
        self.push_scope()
        yield
        self.pop_scope()
        self.depth -= 1
        self.lines.append("  " * self.depth + footer + f" loc({_caller_location()})")


def _b() -> _Builder:
    if _Builder.current is None:
        raise RuntimeError("GpuIR statements are recorded inside a @proc function")
    return _Builder.current


def _caller_location() -> str:
    """The innermost frame outside this package: the user's line."""
    frame = inspect.currentframe()
    while frame and (os.path.dirname(os.path.abspath(frame.f_code.co_filename)) == _HERE
                     or frame.f_code.co_filename.startswith("<frozen")
                     or frame.f_code.co_filename.endswith("contextlib.py")):
        frame = frame.f_back
    if frame is None:
        return '"<unknown>":0:0'
    # The column of the expression being evaluated (Python 3.11+ records
    # each instruction's position), 1-based as MLIR's.
    col = 1
    positions = getattr(inspect.getframeinfo(frame, context=0), "positions", None)
    if positions is not None and positions.col_offset is not None:
        col = positions.col_offset + 1
    return f'{_quote(frame.f_code.co_filename)}:{frame.f_lineno}:{col}'


def _quote(text: str) -> str:
    """An MLIR string literal."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


# ------------------------------------------------- control expressions


class Control:
    """A quasi-affine expression over control values (procedure parameters
    of type index and loop variables)."""

    def __init__(self, text: str, atomic: bool = True):
        self.text, self.atomic = text, atomic

    def _p(self) -> str:
        return self.text if self.atomic else f"({self.text})"

    @staticmethod
    def of(x) -> "Control":
        if isinstance(x, Control):
            return x
        if isinstance(x, int) and not isinstance(x, bool):
            return Control(str(x)) if x >= 0 else Control(f"0 - {-x}", False)
        raise TypeError(f"expected a control expression or an int, found {x!r}")

    def __add__(self, o):
        sum = Control(f"{self._p()} + {Control.of(o)._p()}", False)
        if isinstance(o, int):
            sum.base, sum.plus = self, o  # for a window's size: (e + n) - e
        return sum
    def __radd__(self, o): return Control.of(o) + self
    def __sub__(self, o): return Control(f"{self._p()} - {Control.of(o)._p()}", False)
    def __rsub__(self, o): return Control.of(o) - self

    def __mul__(self, o):
        if not isinstance(o, int):
            raise TypeError("control expressions multiply by integers only (quasi-affine)")
        return Control(f"{self._p()} * {o}", False)

    __rmul__ = __mul__

    def __floordiv__(self, o: int): return Control(f"{self._p()} floordiv {_integer(o, 'a divisor')}", False)
    def __mod__(self, o: int): return Control(f"{self._p()} mod {_integer(o, 'a divisor')}", False)

    def __lt__(self, o): return Condition([f"{self.text} < {Control.of(o).text}"])
    def __le__(self, o): return Condition([f"{self.text} <= {Control.of(o).text}"])
    def __gt__(self, o): return Condition([f"{self.text} > {Control.of(o).text}"])
    def __ge__(self, o): return Condition([f"{self.text} >= {Control.of(o).text}"])

    def __eq__(self, o):  # type: ignore[override]
        return Condition([f"{self.text} == {Control.of(o).text}"])

    def __ne__(self, o):  # type: ignore[override]
        return ~(self == o)

    __hash__ = None  # type: ignore[assignment]

    def __bool__(self):
        raise TypeError("a control expression has no Python truth value: compare it "
                        "(t < n, t == 0) and use the comparison in if_(...)")

    def __str__(self):
        return self.text


def ceildiv(a, b: int) -> Control:
    return Control(f"{Control.of(a)._p()} ceildiv {_integer(b, 'a divisor')}", False)


def _integer(v, what: str) -> int:
    """`v` as an int, refusing what int() would silently truncate."""
    if isinstance(v, bool) or not isinstance(v, int):
        if isinstance(v, float) and v.is_integer():
            return int(v)
        raise TypeError(f"{what} must be an integer, found {v!r}")
    return v


def wgmma_d(t, r):
    """(row, column) of register r of thread t (0..127 of its warpgroup) in
    the f32 accumulator of wgmma.m64nNk*: warp t // 32 holds rows 16 (t //
    32) + .. + 15, register 4 j + i column 8 j + 2 (t % 4) + i % 2 and row
    (t % 32) // 4 + 8 (i // 2) of those. Works on control expressions (loop
    variables) and on integers."""
    return ((t // 32) * 16 + (t % 32) // 4 + ((r % 4) // 2) * 8,
            (r // 4) * 8 + (t % 4) * 2 + r % 2)


def mma_m16n8_c(lane, r):
    """(row, column) of register r (0..3) of `lane` in the f32 accumulator
    (C/D) of mma.sync.m16n8k*: row lane // 4 + 8 (r // 2), column 2 (lane %
    4) + r % 2."""
    return lane // 4 + (r // 2) * 8, (lane % 4) * 2 + r % 2


class Condition:
    """A condition on control expressions: comparisons joined with `&` (and),
    `|` (or) and `~` (not), each comparison in parentheses, as Python's `&`,
    `|` and `~` bind tighter than comparisons: `(i == 0) | ~(t < 32)`."""

    def __init__(self, parts: List[str], text: Optional[str] = None):
        self.parts = parts  # the comparisons of a plain conjunction
        self._text = text  # anything else, as GpuIR text

    def _group(self) -> str:
        if self._text is None and len(self.parts) == 1:
            return self.parts[0]
        return f"({self})"

    @staticmethod
    def _check(other, op: str):
        if not isinstance(other, Condition):
            raise TypeError(f"'{op}' joins two conditions (comparisons of control "
                            f"expressions); found {other!r}")

    def __and__(self, other: "Condition") -> "Condition":
        Condition._check(other, "&")
        if self._text is None and other._text is None:
            return Condition(self.parts + other.parts)
        return Condition([], f"{self._group()} and {other._group()}")

    def __or__(self, other: "Condition") -> "Condition":
        Condition._check(other, "|")
        return Condition([], f"{self._group()} or {other._group()}")

    def __rand__(self, other):
        Condition._check(other, "&")

    def __ror__(self, other):
        Condition._check(other, "|")

    def __invert__(self) -> "Condition":
        return Condition([], f"not {self._group()}")

    def __bool__(self):
        raise TypeError("a GpuIR condition has no Python truth value: use it in if_(...)"
                        " and combine comparisons with &, | and ~")

    def __str__(self):
        return self._text if self._text is not None else " and ".join(self.parts)


# ------------------------------------------------------------- values


class Value:
    """An SSA value of an element type (a read, a constant, arithmetic)."""

    def __init__(self, name: str, type: ElementType):
        self.name, self.type = name, type

    def _binary(self, o, float_op: str, int_op: str) -> "Value":
        o = o if isinstance(o, Value) else const(o, self.type)
        if o.type is not self.type:
            raise TypeError(f"arithmetic on {self.type} and {o.type}")
        b = _b()
        name = b.fresh("v")
        op = float_op if self.type.is_float else int_op
        b.emit(f"%{name} = arith.{op} %{self.name}, %{o.name} : {self.type.name}")
        return Value(name, self.type)

    def __add__(self, o): return self._binary(o, "addf", "addi")
    def __sub__(self, o): return self._binary(o, "subf", "subi")
    def __mul__(self, o): return self._binary(o, "mulf", "muli")
    def __truediv__(self, o):
        if not self.type.is_float:
            # Python's / is true division and // floors; arith.divsi
            # truncates toward zero: no Python operator means it.
            raise TypeError(f"'/' on {self.type.name} values: Python's / divides exactly "
                            "and GpuIR's integer division truncates toward zero; convert "
                            "to a float type with cast(...) to divide")
        return self._binary(o, "divf", "divsi")

    def __radd__(self, o): return const(o, self.type) + self
    def __rsub__(self, o): return const(o, self.type) - self
    def __rmul__(self, o): return const(o, self.type) * self
    def __rtruediv__(self, o):
        if not self.type.is_float:
            raise TypeError(f"'/' on {self.type.name} values: Python's / divides exactly "
                            "and GpuIR's integer division truncates toward zero; convert "
                            "to a float type with cast(...) to divide")
        return const(o, self.type) / self

    def __neg__(self):
        if not self.type.is_float:
            return const(0, self.type) - self
        return _op("arith.negf", [self], self.type)

    def __abs__(self):
        return _op("math.absf" if self.type.is_float else "math.absi", [self], self.type)

    def __bool__(self):
        raise TypeError("a GpuIR value has no Python truth value (it is known only when "
                        "the kernel runs): compare values with maximum/minimum or select "
                        "with control conditions in if_(...)")


_WIDTH = {"f64": 64, "f32": 32, "i32": 32, "i64": 64, "f16": 16, "bf16": 16}


def _op(name: str, args: Sequence["Value"], type: "ElementType") -> "Value":
    b = _b()
    res = b.fresh("v")
    b.emit(f"%{res} = {name} {', '.join('%' + a.name for a in args)} : {type.name}")
    return Value(res, type)


def _values(*args) -> List["Value"]:
    vals = [a for a in args if isinstance(a, Value)]
    if not vals:
        raise TypeError("expected at least one value (a read or a constant)")
    t = vals[0].type
    out = [a if isinstance(a, Value) else const(a, t) for a in args]
    if any(v.type is not t for v in out):
        raise TypeError("math on values of different types: " +
                        ", ".join(str(v.type) for v in out))
    return out


def _float(name: str, v: "Value") -> None:
    if not v.type.is_float:
        raise TypeError(f"{name} takes a floating-point value, not {v.type}")


def _unary_math(name: str, doc: str):
    """The builder of the one-operand float op math.<name>."""
    def build(x) -> "Value":
        (x,) = _values(x)
        _float(name, x)
        return _op(f"math.{name}", [x], x.type)
    build.__name__ = build.__qualname__ = name
    build.__doc__ = doc
    return build


sqrt = _unary_math("sqrt", "The correctly rounded square root (math.sqrt).")
exp = _unary_math("exp", "e^x (math.exp: Rake's exp, within 1 ulp, for f32; docs/GpuIR.md).")
exp2 = _unary_math("exp2", '2^x (math.exp2, f32; docs/GpuIR.md "Math").')
log = _unary_math("log", "The natural logarithm (math.log, f32).")
tanh = _unary_math("tanh", "tanh (math.tanh, f32).")
erf = _unary_math("erf", "The error function (math.erf, f32).")
rsqrt = _unary_math("rsqrt", "1 / sqrt(x) (math.rsqrt: two correctly rounded operations).")


def fma(a, b, c) -> "Value":
    """a * b + c rounded once (math.fma)."""
    a, b, c = _values(a, b, c)
    _float("fma", a)
    return _op("math.fma", [a, b, c], a.type)


def maximum(a, b) -> "Value":
    """The larger value (arith.maximumf: NaN if either is; arith.maxsi)."""
    a, b = _values(a, b)
    return _op("arith.maximumf" if a.type.is_float else "arith.maxsi", [a, b], a.type)


def minimum(a, b) -> "Value":
    """The smaller value (arith.minimumf: NaN if either is; arith.minsi)."""
    a, b = _values(a, b)
    return _op("arith.minimumf" if a.type.is_float else "arith.minsi", [a, b], a.type)


def cast(x, type: "ElementType") -> "Value":
    """x converted to `type`: between float formats extf / truncf (rounded
    to nearest even), between floats and integers sitofp / fptosi."""
    (x,) = _values(x)
    if x.type is type:
        return x
    wa, wb = _WIDTH[x.type.name], _WIDTH[type.name]
    if x.type.is_float and type.is_float:
        op = "arith.extf" if wb > wa else "arith.truncf"
    elif x.type.is_float:
        op = "arith.fptosi"
    elif type.is_float:
        op = "arith.sitofp"
    else:
        op = "arith.extsi" if wb > wa else "arith.trunci"
    b = _b()
    res = b.fresh("v")
    b.emit(f"%{res} = {op} %{x.name} : {x.type.name} to {type.name}")
    return Value(res, type)


def bitcast(x, type: "ElementType") -> "Value":
    """The bits of x as `type` (of the same width; arith.bitcast)."""
    (x,) = _values(x)
    if _WIDTH[x.type.name] != _WIDTH[type.name]:
        raise TypeError(f"bitcast from {x.type} to {type}: the widths differ")
    b = _b()
    res = b.fresh("v")
    b.emit(f"%{res} = arith.bitcast %{x.name} : {x.type.name} to {type.name}")
    return Value(res, type)


def _float_literal(v: float, type: "ElementType") -> str:
    """An MLIR float literal: decimal with a point (1.0e-06, not Python's
    1e-06), or the bits in hexadecimal for infinities and NaN."""
    import math
    if math.isfinite(v):
        text = repr(v)
        mantissa, _, exponent = text.partition("e")
        if "." not in mantissa:
            mantissa += ".0"
        return mantissa + ("e" + exponent if exponent else "")
    bits = {"f32": (0x7F800000, 0x7FC00000, 32), "f64": (0x7FF0000000000000, 0x7FF8000000000000, 64),
            "f16": (0x7C00, 0x7E00, 16), "bf16": (0x7F80, 0x7FC0, 16)}[type.name]
    sign = 1 << (bits[2] - 1) if v < 0 else 0
    value = bits[1] if math.isnan(v) else bits[0] | sign
    return hex(value)


def _checked_literal(value, type: ElementType) -> str:
    """The literal of `value` in `type`, refusing what would change it
    silently: a fraction or an out-of-range integer in an integer type, a
    finite number that overflows to infinity or a nonzero one that underflows
    to zero in a float type (rounding to the nearest value is the
    conversion's meaning and kept)."""
    import math
    import struct
    if not type.is_float:
        if isinstance(value, float):
            if not value.is_integer():
                raise TypeError(f"{value!r} is not an integer: it would be truncated to "
                                f"{int(value) if math.isfinite(value) else value} in {type.name}")
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"expected a number for a {type.name} constant, found {value!r}")
        bits = _WIDTH.get(type.name, 64)
        if not -(1 << (bits - 1)) <= value < (1 << (bits - 1)):
            raise OverflowError(f"{value} does not fit in {type.name} "
                                f"({-(1 << (bits - 1))} to {(1 << (bits - 1)) - 1})")
        return str(value)
    v = float(value)
    if math.isfinite(v) and v != 0.0:
        limits = {"f64": (1.7976931348623157e308, 5e-324),
                  "f32": (3.4028235677973366e38, 1.401298464324817e-45),
                  "f16": (65504.0, 5.960464477539063e-08),
                  "bf16": (3.3895313892515355e38, 9.183549615799121e-41)}
        largest, smallest = limits.get(type.name, (math.inf, 0.0))
        # Past the largest finite value by half an ulp or more rounds to
        # infinity; below half the smallest subnormal, to zero.
        if type.name == "f32":
            try:
                struct.pack("<f", v)
            except OverflowError:
                raise OverflowError(f"{v!r} overflows {type.name} (its largest finite value is {largest!r})")
            if struct.unpack("<f", struct.pack("<f", v))[0] == 0.0:
                raise OverflowError(f"{v!r} underflows {type.name} to zero (its smallest subnormal is {smallest!r})")
        elif abs(v) > largest * (1 + 2.0 ** -11 if type.name == "f16" else 1 + 2.0 ** -8 if type.name == "bf16" else 1):
            raise OverflowError(f"{v!r} overflows {type.name} (its largest finite value is {largest!r})")
        elif abs(v) < smallest / 2:
            raise OverflowError(f"{v!r} underflows {type.name} to zero (its smallest subnormal is {smallest!r})")
    return _float_literal(v, type)


def const(value, type: ElementType = f32, name: str = "c") -> Value:
    literal = _checked_literal(value, type)
    b = _b()
    name = b.fresh(name)
    b.emit(f"%{name} = arith.constant {literal} : {type.name}")
    return Value(name, type)


class Buffer:
    """A buffer (procedure parameter or allocation): index it with control
    expressions to read, assign to write."""

    def __init__(self, name: str, type: BufferType):
        self.name, self.type = name, type
        self.type_text = str(type)  # a window's carries its strides
        self.strides = None

    @property
    def window(self) -> _Windows:
        return _Windows(self)

    @property
    def reduce(self) -> _Reduce:
        """buffer.reduce[i, j] = v: gpuir.reduce (buffer[i, j] += v, one
        atomic-free addition the check orders like a write)."""
        return _Reduce(self)

    def _indices(self, key) -> str:
        key = key if isinstance(key, tuple) else (key,)
        if len(key) != len(self.type.shape):
            raise IndexError(f"{self.name} has {len(self.type.shape)} dimensions, "
                             f"indexed with {len(key)}")
        return ", ".join(Control.of(k).text for k in key)

    def __getitem__(self, key) -> Value:
        b = _b()
        name = b.fresh("v")
        b.emit(f"%{name} = gpuir.read %{self.name}[{self._indices(key)}] : {self.type_text}")
        return Value(name, self.type.element)

    def __setitem__(self, key, value):
        if isinstance(value, Control):
            raise TypeError(f"{value.text} is a control expression (loop variables and "
                            "index parameters), not a data value: write data read from "
                            "buffers or constants")
        if not isinstance(value, Value):
            value = const(value, self.type.element)
        _b().emit(f"gpuir.write %{value.name}, %{self.name}[{self._indices(key)}] : {self.type_text}")


def _size(start, stop) -> int:
    """The static size of the interval start : stop (stop is start + n)."""
    if isinstance(start, int) and isinstance(stop, int):
        return stop - start
    if isinstance(stop, Control) and getattr(stop, "base", None) is not None:
        if Control.of(start).text == stop.base.text:
            return stop.plus
    raise ValueError("a window's interval is written start : start + n, with n an integer")


class _Windows:
    def __init__(self, buffer: "Buffer", name: Optional[str] = None):
        self.buffer, self.name = buffer, name

    def __call__(self, name: str) -> "_Windows":
        """buffer.window("d")[...]: the view named d in the IR."""
        return _Windows(self.buffer, name)

    def __getitem__(self, key) -> "Buffer":
        """buffer.window[i, lo : lo + n, ...]: a view; points drop their
        dimension, intervals keep theirs (strides of the source)."""
        key = key if isinstance(key, tuple) else (key,)
        src = self.buffer
        if len(key) != len(src.type.shape):
            raise IndexError(f"{src.name} has {len(src.type.shape)} dimensions, "
                             f"windowed with {len(key)}")
        strides, static = [], True
        for d in reversed(range(len(src.type.shape))):
            strides.insert(0, src.strides[d] if src.strides else None)
        if not src.strides:
            acc: Union[int, str] = 1
            strides = []
            for d in reversed(src.type.shape):
                strides.insert(0, acc)
                acc = "?" if acc == "?" or d == "?" else acc * d
        parts, shape, kept = [], [], []
        for k, stride in zip(key, strides):
            if isinstance(k, slice):
                if k.step is not None and k.step != 1:
                    raise ValueError(f"a window's interval has no step (found {k.step!r}): "
                                     "a window takes consecutive elements")
                n = _size(k.start, k.stop)
                parts.append(f"{Control.of(k.start).text} : {Control.of(k.stop).text}")
                shape.append(n)
                kept.append(stride)
            else:
                parts.append(Control.of(k).text)
        layout = "strided<[" + ", ".join(str(st) for st in kept) + "], offset: ?>"
        dims = "x".join(str(d) for d in shape)
        type_text = f"memref<{dims}x{src.type.element.name}, {layout}, {src.type.space}>"
        b = _b()
        name = b.fresh(self.name or src.name + "_w")
        b.emit(f"%{name} = gpuir.window %{src.name}[{', '.join(parts)}] : {src.type_text} -> {type_text}")
        view = Buffer(name, BufferType(src.type.element, shape, src.type.space))
        view.type_text, view.strides = type_text, kept
        return view


class _Reduce:
    def __init__(self, buffer: "Buffer"):
        self.buffer = buffer

    def __setitem__(self, key, value):
        b = self.buffer
        if not isinstance(value, Value):
            value = const(value, b.type.element)
        _b().emit(f"gpuir.reduce %{value.name}, %{b.name}[{b._indices(key)}] : {b.type_text}")


class Barrier:
    def __init__(self, name: str, type: str):
        self.name, self.type = name, type

    def __getitem__(self, key) -> "_BarrierElement":
        key = key if isinstance(key, tuple) else (key,)
        return _BarrierElement(self, ", ".join(Control.of(k).text for k in key))


class _BarrierElement:
    def __init__(self, barrier: Barrier, indices: str):
        self.barrier, self.indices = barrier, indices


# --------------------------------------------------------- statements


@contextlib.contextmanager
def device_function(block: Optional[int] = None, blocks_per_sm: int = 1,
                    cluster: int = 1, warps: Optional[Dict[str, tuple]] = None):
    """The kernel: `block` threads per CTA, or named warp groups
    `warps={"producer": (4, "dec", 40), "consumer": (4, "inc", 232)}`."""
    parts = []
    if cluster != 1:
        parts.append(f"cluster({cluster})")
    parts.append(f"blocks_per_sm({blocks_per_sm})")
    if warps:
        groups = []
        for name, spec in warps.items():
            count, *change = spec if isinstance(spec, tuple) else (spec,)
            groups.append(f"{name} = {count}" + (f" {change[0]}({change[1]})" if change else ""))
        parts.append("warps(" + ", ".join(groups) + ")")
    elif block is not None:
        parts.append(f"block({block})")
    else:
        raise ValueError("device_function needs block= or warps=")
    with _b().region("gpuir.device_function " + " ".join(parts)):
        yield


@contextlib.contextmanager
def warps(name: str):
    """Statements run by the warps of one named group."""
    with _b().region(f'gpuir.warps "{name}"'):
        yield


def _loop_target(default: str) -> str:
    """The name of the user's loop variable: the target of the `for`
    statement on the line that called the loop builder, when it is a plain
    name (the IR and its diagnostics then use the Python name)."""
    frame = inspect.currentframe()
    while frame and (os.path.dirname(os.path.abspath(frame.f_code.co_filename)) == _HERE
                     or frame.f_code.co_filename.endswith("contextlib.py")):
        frame = frame.f_back
    if frame is None:
        return default
    line = linecache.getline(frame.f_code.co_filename, frame.f_lineno)
    m = re.match(r"\s*(?:async\s+)?for\s+([A-Za-z_][A-Za-z0-9_]*)\s+in\b", line)
    return m.group(1) if m else default


def _loop(lo, hi, mode: str, name: Optional[str], default: str):
    if name is not None and not isinstance(name, str):
        raise TypeError(f"a loop takes (lo, hi) and an optional name; found {name!r} where "
                        "the name goes: GpuIR loops have no step (write the index as "
                        "lo + step * i over a loop of (hi - lo) // step iterations)")
    name = name or _loop_target(default)
    b = _b()
    bounds = f"{Control.of(lo).text} to {Control.of(hi).text} : {mode}"
    # The variable belongs to the loop's region.
    b.push_scope()
    var = b.fresh(name)
    b.pop_scope()
    with b.region(f"gpuir.for %{var} = {bounds}"):
        b.declare(var)
        yield Control(f"%{var}")


def cuda_tasks(lo, hi, name: Optional[str] = None):
    """A loop whose iterations are tasks, each run by one cluster."""
    return _loop(lo, hi, "cuda_tasks", name, "task")


def cuda_threads(lo, hi, unit: _Unit = thread, name: Optional[str] = None):
    """A loop whose iterations run on the current threads, `unit` each."""
    return _loop(lo, hi, f"cuda_threads<#gpuir.unit<{unit.text}>>", name, "t")


def seq(lo, hi, name: Optional[str] = None):
    """A sequential loop."""
    return _loop(lo, hi, "seq", name, "i")


@contextlib.contextmanager
def if_(condition: Condition):
    b = _b()
    with b.region(f"gpuir.if {condition}"):
        yield
    b.last_if = len(b.lines) - 1


@contextlib.contextmanager
def else_():
    """The else branch of the if_ just closed."""
    b = _b()
    if b.last_if != len(b.lines) - 1:
        raise SyntaxError("else_() must follow an if_ block directly")
    # Reopen the if's closing line as "} else {".
    indent = b.lines[-1][: len(b.lines[-1]) - len(b.lines[-1].lstrip())]
    b.lines[-1] = indent + "} else {"
    b.depth += 1
    b.push_scope()
    yield
    b.pop_scope()
    b.depth -= 1
    b.lines.append(indent + f"}} loc({_caller_location()})")
    b.last_if = None


def alloc(type: BufferType, name: str = "buf") -> Buffer:
    b = _b()
    var = b.fresh(name)
    b.emit(f"%{var} = gpuir.alloc : {type}")
    return Buffer(var, type)


def barrier(mechanism: str, *shape: int, name: str = "bar") -> Barrier:
    """A barrier: "mbarrier", "mbarrier_prearrive", "cp_async_group",
    "wgmma_group", "cluster_sync"; mbarriers may be arrays."""
    b = _b()
    var = b.fresh(name)
    dims = (" [" + ", ".join(str(d) for d in shape) + "]") if shape else ""
    type = f"!gpuir.barrier<{mechanism}{dims}>"
    b.emit(f"%{var} = gpuir.alloc : {type}")
    return Barrier(var, type)


def fence(pre: str = "cuda_in_order", post: str = "cuda_in_order"):
    _b().emit(f"gpuir.fence {pre} -> {post}")


def _target(bar) -> tuple:
    if isinstance(bar, _BarrierElement):
        return f"%{bar.barrier.name}[{bar.indices}]", bar.barrier.type
    return f"%{bar.name}", bar.type


def arrive(bar, pre: str = "cuda_in_order"):
    target, type = _target(bar)
    _b().emit(f"gpuir.arrive {pre} >> {target} : {type}")


def await_(bar, post: str = "cuda_in_order", outstanding: Optional[int] = None):
    target, type = _target(bar)
    extra = f", outstanding({outstanding})" if outstanding is not None else ""
    _b().emit(f"gpuir.await {target}, {post}{extra} : {type}")


def instr(name: str, *operands):
    """An instruction op of an instruction set, on buffers and windows (and
    integer attributes where the op takes them):
    instr("gpuir.sm80.cp_async", dst, src), instr("gpuir.sm80.shfl_bfly", o, p, 16)."""
    names = ", ".join(f"%{o.name}" if isinstance(o, Buffer) else str(_integer(o, "an attribute"))
                      for o in operands)
    types = ", ".join(o.type_text for o in operands if isinstance(o, Buffer))
    _b().emit(f"{name} {names} : {types}")


# ---------------------------------------------------------- procedures


class Procedure:
    """A recorded GpuIR procedure: `.text` is its GpuIR, `.module()` parses
    it (rake.Module)."""

    def __init__(self, name: str, text: str):
        self.name, self.text = name, text

    def module(self, context=None):
        from . import Module
        return Module.parse(self.text, f"<proc {self.name}>", context)

    def __str__(self):
        return self.text


def _extents_attr(t: BufferType, controls: List[str]) -> str:
    """` {gpuir.extents = affine_map<(controls) -> (...)>}` for a buffer
    type with extents, else ""."""
    if t.extents is None:
        return ""
    results = list(t.extents(*[Control(name) for name in controls]))
    if len(results) != len(t.shape):
        raise TypeError(f"extents gives {len(results)} expressions for a buffer "
                        f"of rank {len(t.shape)}")
    texts = [Control.of(e).text for e in results]
    return (" {gpuir.extents = affine_map<(" + ", ".join(controls) + ") -> ("
            + ", ".join(texts) + ")>}")


def _refuse_untraced_statements(fn):
    """The frontend records what a function does when it runs once: `break`,
    `continue` and `return` would leave a Python `with` or `for` block early
    without GpuIR knowing (the rest of a GpuIR loop or branch silently
    dropped), so they are refused."""
    import ast
    import textwrap
    try:
        source = textwrap.dedent(inspect.getsource(fn))
    except (OSError, TypeError):
        return
    tree = ast.parse(source)
    top = tree.body[0] if tree.body else None
    if not isinstance(top, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return

    def visit(node):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                continue
            if isinstance(child, (ast.Break, ast.Continue, ast.Return)):
                word = type(child).__name__.lower()
                line = fn.__code__.co_firstlineno + child.lineno - top.lineno
                raise SyntaxError(f"'{word}' in a @proc function (line {line}): the frontend "
                                  f"records the statements a run reaches, and GpuIR would not "
                                  f"know the rest of the block was skipped; use if_(...) around "
                                  f"what should not run")
            visit(child)

    visit(top)


def proc(fn=None, *, check_sizes: Optional[List[Dict[str, int]]] = None):
    """Records a Python function as a GpuIR procedure. Its parameters are
    annotated `index` (control values) or with a buffer type (gmem(...))."""

    def record(fn) -> Procedure:
        _refuse_untraced_statements(fn)
        signature = inspect.signature(fn)
        # Under `from __future__ import annotations` each annotation is its
        # source text: evaluate it where the function was written (its
        # globals and the names its closure captured).
        scope = dict(fn.__globals__)
        if fn.__closure__:
            scope.update(zip(fn.__code__.co_freevars,
                             (c.cell_contents for c in fn.__closure__)))
        annotations = {}
        for p in signature.parameters.values():
            t = p.annotation
            if isinstance(t, str):
                try:
                    t = eval(t, scope)
                except Exception as e:
                    raise TypeError(f"the annotation of parameter {p.name} of {fn.__name__} "
                                    f"({p.annotation!r}) cannot be evaluated: {e}") from None
            annotations[p.name] = t
        args, params = [], []
        controls = [p.name for p in signature.parameters.values()
                    if annotations[p.name] is index]
        for p in signature.parameters.values():
            t = annotations[p.name]
            if t is index:
                args.append(Control(f"%{p.name}"))
                params.append(f"%{p.name}: index")
            elif isinstance(t, BufferType):
                args.append(Buffer(p.name, t))
                params.append(f"%{p.name}: {t}{_extents_attr(t, controls)}")
            else:
                raise TypeError(f"parameter {p.name} of {fn.__name__} needs the annotation "
                                f"`index` or a buffer type such as gmem(f32, '?')")
        attrs = ""
        if check_sizes:
            sets = ", ".join("{" + ", ".join(f"{k} = {v}" for k, v in s.items()) + "}"
                             for s in check_sizes)
            attrs = f"\n    attributes {{gpuir.check_sizes = [{sets}]}}"
        builder = _Builder()
        builder.scopes[0].update(signature.parameters)
        builder.uscopes[0].update(signature.parameters)
        builder.taken.update(signature.parameters)
        previous, _Builder.current = _Builder.current, builder
        try:
            fn(*args)
        finally:
            _Builder.current = previous
        location = f'loc({_quote(inspect.getsourcefile(fn) or "<unknown>")}:{fn.__code__.co_firstlineno}:1)'
        text = (f"gpuir.proc @{fn.__name__}({', '.join(params)}){attrs} {{\n"
                + builder.display("\n".join(builder.lines)) + f"\n}} {location}\n")
        return Procedure(fn.__name__, text)

    return record(fn) if fn is not None else record
