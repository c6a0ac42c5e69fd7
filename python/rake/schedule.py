"""Schedules built in Python: a transform script of `transform.gpuir.*`
rewrites (docs/Scheduling.md), applied with `rake.Module.schedule`.

    s = Schedule()
    i = s.loop("i")
    io, ii = s.divide_loop(i, 32, tail="guard", names=("i", "ii"))
    s.set_loop_mode(io, "cuda_tasks")
    module.schedule(s)

Each method adds one transform op and returns the handles it produces.
`str(schedule)` is the script's text, which rake-opt runs as well.
"""

from typing import List, Optional, Sequence, Tuple

_ANY = "!transform.any_op"


class Handle:
    """A handle to payload ops (an SSA value of the script)."""

    def __init__(self, name: str):
        self.name = name

    def __str__(self) -> str:
        return self.name


def _quote(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _ints(v: Sequence[int]) -> str:
    return "[" + ", ".join(str(int(x)) for x in v) + "]"


class Schedule:
    """A transform script under construction; `root` is the payload."""

    def __init__(self):
        self._lines: List[str] = []
        self._count = 0
        self.root = Handle("%root")

    def _new(self, n: int) -> List[Handle]:
        hs = [Handle(f"%h{self._count + k}") for k in range(n)]
        self._count += n
        return hs

    def _op(self, text: str, operands: Sequence[Handle], results: int):
        hs = self._new(results)
        lhs = ", ".join(h.name for h in hs) + " = " if hs else ""
        types = ", ".join([_ANY] * results)
        ins = ", ".join([_ANY] * len(operands))
        sig = f"({ins}) -> ({types})" if results != 1 else f"({ins}) -> {_ANY}"
        if results == 0:
            sig = _ANY
        self._lines.append(f"    {lhs}{text} : {sig}")
        return hs

    # Finding ops.
    def match(self, op_name: str, within: Optional[Handle] = None) -> Handle:
        """All ops of one name (`gpuir.if`) in `within` (default: root)."""
        w = within or self.root
        return self._op(f'transform.structured.match ops{{["{op_name}"]}} in {w}',
                        [w], 1)[0]

    def loop(self, name: str, within: Optional[Handle] = None,
             occurrence: Optional[int] = None) -> Handle:
        """The gpuir.for loops over the variable `name` (`%name`)."""
        w = within or self.root
        occ = f" occurrence({occurrence})" if occurrence is not None else ""
        return self._op(f"transform.gpuir.loop {_quote(name)} in {w}{occ}",
                        [w], 1)[0]

    def parent(self, h: Handle, op_name: str) -> Handle:
        return self._op(f'transform.get_parent_op {h} {{op_name = "{op_name}"}}',
                        [h], 1)[0]

    # Loops.
    def divide_loop(self, loop: Handle, factor: int, tail: str = "perfect",
                    names: Optional[Tuple[str, str]] = None) -> Tuple[Handle, Handle]:
        text = f"transform.gpuir.divide_loop {loop} by {int(factor)}"
        if tail != "perfect":
            text += f" tail({tail})"
        if names:
            text += f" names({_quote(names[0])}, {_quote(names[1])})"
        o, i = self._op(text, [loop], 2)
        return o, i

    def reorder_loops(self, loop: Handle) -> Tuple[Handle, Handle]:
        o, i = self._op(f"transform.gpuir.reorder_loops {loop}", [loop], 2)
        return o, i

    def reorder_stmts(self, stmt: Handle) -> None:
        self._op(f"transform.gpuir.reorder_stmts {stmt}", [stmt], 0)

    def fission(self, stmt: Handle) -> Tuple[Handle, Handle]:
        a, b = self._op(f"transform.gpuir.fission {stmt}", [stmt], 2)
        return a, b

    def unroll(self, loop: Handle) -> None:
        self._op(f"transform.gpuir.unroll {loop}", [loop], 0)

    def lift_scope(self, stmt: Handle) -> Handle:
        return self._op(f"transform.gpuir.lift_scope {stmt}", [stmt], 1)[0]

    def set_loop_mode(self, loop: Handle, mode: str,
                      unit: Optional[str] = None) -> None:
        """`mode` is seq, cuda_tasks or cuda_threads (with `unit`, e.g.
        "warp", "thread", "4 x warp")."""
        m = mode if unit is None else f"{mode}<#gpuir.unit<{unit}>>"
        self._op(f"transform.gpuir.set_loop_mode {loop} {m}", [loop], 0)

    def simplify(self, target: Handle) -> None:
        self._op(f"transform.gpuir.simplify {target}", [target], 0)

    # Device code and memory.
    def wrap_device_function(self, stmt: Handle, block: Optional[int] = None,
                             blocks_per_sm: int = 1, cluster: int = 1,
                             groups: Optional[Sequence[Tuple[str, int]]] = None,
                             setmaxnreg: Optional[Sequence[int]] = None) -> Handle:
        """`block` threads, or named warp `groups` ((name, warps), ...);
        `setmaxnreg`, one count per group: negative releases registers
        (setmaxnreg.dec), positive takes them (setmaxnreg.inc), 0 keeps them."""
        text = f"transform.gpuir.wrap_device_function {stmt}"
        if block is not None:
            text += f" block({int(block)})"
        if groups:
            names = "[" + ", ".join(_quote(n) for n, _ in groups) + "]"
            text += f" groups {names} warps {_ints([w for _, w in groups])}"
        if setmaxnreg:
            text += f" setmaxnreg {_ints(setmaxnreg)}"
        if blocks_per_sm != 1:
            text += f" blocks_per_sm({int(blocks_per_sm)})"
        if cluster != 1:
            text += f" cluster({int(cluster)})"
        return self._op(text, [stmt], 1)[0]

    def wrap_warps(self, stmt: Handle, group: str,
                   range: Optional[Tuple[int, int]] = None) -> Handle:
        r = f" range {_ints(range)}" if range else ""
        return self._op(f"transform.gpuir.wrap_warps {stmt} {_quote(group)}{r}",
                        [stmt], 1)[0]

    def set_memory(self, target: Handle, memory: str,
                   name: Optional[str] = None) -> None:
        """`memory` is a memory type without `#gpuir.`: "gmem", "smem"."""
        of = f"{_quote(name)} in " if name else ""
        self._op(f"transform.gpuir.set_memory #gpuir.{memory} for {of}{target}",
                 [target], 0)

    def stage_mem(self, stmt: Handle, buffer: str, shape: Sequence[int],
                  memory: str, staged: str,
                  padding: Optional[Sequence[int]] = None) -> Tuple[Handle, Handle]:
        text = (f"transform.gpuir.stage_mem {stmt} {_quote(buffer)} "
                f"{_ints(shape)} #gpuir.{memory} as {_quote(staged)}")
        if padding:
            text += f" padding {_ints(padding)}"
        a, c = self._op(text, [stmt], 2)
        return a, c

    def insert_fence(self, stmt: Handle, pre: str = "cuda_in_order",
                     post: str = "cuda_in_order", before: bool = False) -> Handle:
        where = "before" if before else "after"
        return self._op(f"transform.gpuir.insert_fence {where} {stmt} {pre} -> {post}",
                        [stmt], 1)[0]

    def replace(self, nest: Handle, instr: str, buffers: Sequence[str],
                attrs: Optional[str] = None) -> Handle:
        """The nest as the instruction `instr` ("gpuir.sm80.mma_sync") on
        windows of `buffers`; `attrs` is the attribute dictionary's text."""
        names = "[" + ", ".join(_quote(b) for b in buffers) + "]"
        text = f"transform.gpuir.replace {nest} with {_quote(instr)} {names}"
        if attrs:
            text += f" attrs {attrs}"
        return self._op(text, [nest], 1)[0]

    # Buffers' layouts (the target is a gpuir.alloc handle).
    def divide_dim(self, alloc: Handle, dim: int, factor: int) -> None:
        self._op(f"transform.gpuir.divide_dim {alloc} {int(dim)} by {int(factor)}",
                 [alloc], 0)

    def mult_dim(self, alloc: Handle, dim: int) -> None:
        self._op(f"transform.gpuir.mult_dim {alloc} {int(dim)}", [alloc], 0)

    def rearrange_dim(self, alloc: Handle, perm: Sequence[int]) -> None:
        self._op(f"transform.gpuir.rearrange_dim {alloc} {_ints(perm)}", [alloc], 0)

    def expand_dim(self, alloc: Handle, size: int, index: str,
                   loops: Sequence[str]) -> None:
        """`index` is an affine map's text over the loops' variables:
        "affine_map<(k) -> (k mod 2)>"."""
        names = "[" + ", ".join(_quote(l) for l in loops) + "]"
        self._op(f"transform.gpuir.expand_dim {alloc} {int(size)} index({index}) of {names}",
                 [alloc], 0)

    def ring(self, alloc: Handle, stages: int, loop: str, barrier: str) -> Handle:
        """The buffer staged per iteration of the loop over `loop` as a ring
        of `stages` stages with its mbarriers `barrier`; returns them."""
        return self._op(f"transform.gpuir.ring {alloc} stages({int(stages)}) over "
                        f"{_quote(loop)} barrier {_quote(barrier)}", [alloc], 1)[0]

    def lift_alloc(self, alloc: Handle) -> None:
        self._op(f"transform.gpuir.lift_alloc {alloc}", [alloc], 0)

    def inline(self, call: Handle) -> None:
        self._op(f"transform.gpuir.inline {call}", [call], 0)

    def inline_window(self, window: Handle) -> None:
        self._op(f"transform.gpuir.inline_window {window}", [window], 0)

    # More loops.
    def cut_loop(self, loop: Handle, at: int) -> Tuple[Handle, Handle]:
        a, b = self._op(f"transform.gpuir.cut_loop {loop} at {int(at)}", [loop], 2)
        return a, b

    def fuse(self, loop: Handle) -> Handle:
        return self._op(f"transform.gpuir.fuse {loop}", [loop], 1)[0]

    def mult_loops(self, loop: Handle, name: Optional[str] = None) -> Handle:
        n = f" name({_quote(name)})" if name else ""
        return self._op(f"transform.gpuir.mult_loops {loop}{n}", [loop], 1)[0]

    def add_loop(self, stmt: Handle, size: int, name: str) -> Handle:
        return self._op(f"transform.gpuir.add_loop {stmt} {int(size)} name({_quote(name)})",
                        [stmt], 1)[0]

    def add_if(self, stmt: Handle, condition: str, names: Sequence[str],
               specialize: bool = False) -> Handle:
        """`condition` is an integer set's text over the named control values,
        one dimension each: "(k, Kt) : (Kt - k - 2 >= 0)"."""
        return self._op(f"transform.gpuir.add_if {stmt} affine_set<{condition}> of "
                        f"[{', '.join(_quote(n) for n in names)}]"
                        f"{' specialize' if specialize else ''}", [stmt], 1)[0]

    def bind_expr(self, value: Handle, name: str,
                  memory: Optional[str] = None) -> Handle:
        """Binds the value `value` computes to a new one-element buffer;
        `memory` is its memory's text ("#gpuir.rmem"), by default registers in
        a device function and host memory outside."""
        mem = f" memory({memory})" if memory else ""
        return self._op(f"transform.gpuir.bind_expr {value} as {_quote(name)}{mem}",
                        [value], 1)[0]

    # Synchronization.
    def alloc_barrier(self, before: Handle, type: str, name: str) -> Handle:
        """`type` is the barrier type's text: "!gpuir.barrier<cp_async_group>"."""
        return self._op(f"transform.gpuir.alloc_barrier before {before} {type} as {_quote(name)}",
                        [before], 1)[0]

    def _coords(self, coords: Optional[str], loops: Sequence[str]) -> str:
        if not coords:
            return ""
        names = "[" + ", ".join(_quote(l) for l in loops) + "]"
        return f" coords({coords}) of {names}"

    def insert_arrive(self, stmt: Handle, pre: str, barrier: str,
                      coords: Optional[str] = None, loops: Sequence[str] = (),
                      before: bool = False) -> Handle:
        where = "before" if before else "after"
        return self._op(f"transform.gpuir.insert_arrive {where} {stmt} {pre} >> "
                        f"{_quote(barrier)}{self._coords(coords, loops)}", [stmt], 1)[0]

    def insert_await(self, stmt: Handle, barrier: str, post: str = "cuda_in_order",
                     lag: Optional[int] = None, outstanding: Optional[int] = None,
                     coords: Optional[str] = None, loops: Sequence[str] = (),
                     after: bool = False) -> Handle:
        where = "after" if after else "before"
        text = f"transform.gpuir.insert_await {where} {stmt} {_quote(barrier)} {post}"
        if lag is not None:
            text += f" lag({int(lag)})"
        if outstanding is not None:
            text += f" outstanding({int(outstanding)})"
        return self._op(text + self._coords(coords, loops), [stmt], 1)[0]

    def __str__(self) -> str:
        body = "\n".join(self._lines)
        return ("module attributes {transform.with_named_sequence} {\n"
                "  transform.named_sequence @__transform_main("
                "%root: !transform.any_op {transform.readonly}) {\n"
                f"{body}\n    transform.yield\n  }}\n}}\n")
