"""Rake GPU from Python: parse GpuIR, check it, run pass pipelines, compile.

    import rake
    m = rake.Module.load("examples/gemm_sm90a_tma.mlir")
    m.check()                      # raises rake.Error naming both accesses of a race
    ptx = m.ptx(chip="sm_90a")     # the kernel's PTX
    lowered = m.copy().run_pipeline("builtin.module(convert-gpuir-to-nvvm)")
    print(lowered)                 # the IR between passes

Every diagnostic carries its source location; a failing call raises
rake.Error with all of them, nothing is printed and nothing aborts. The
package binds the compiler's C API (include/Rake-c/Rake.h).
"""

from __future__ import annotations

import dataclasses
import os
from typing import List, Optional

from . import _rake

__all__ = ["Diagnostic", "Error", "Context", "Module", "compiler_revision"]


def compiler_revision() -> str:
    """The git revision the compiler was built from."""
    return _rake.compiler_revision()


@dataclasses.dataclass(frozen=True)
class Diagnostic:
    """One message of the compiler: severity ('error', 'warning', 'note',
    'remark'), location ('file:line:col', or '' when it has none), text."""

    severity: str
    location: str
    message: str

    def __str__(self) -> str:
        where = f"{self.location}: " if self.location else ""
        return f"{where}{self.severity}: {self.message}"


class Error(Exception):
    """A call failed; `diagnostics` holds what the compiler said, notes
    after the error they belong to."""

    def __init__(self, what: str, diagnostics: List[Diagnostic]):
        self.diagnostics = diagnostics
        super().__init__("\n".join([what] + [str(d) for d in diagnostics]))

    @property
    def errors(self) -> List[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]


def _diagnostics(raw) -> List[Diagnostic]:
    return [Diagnostic(*d) for d in raw]


class Context:
    """The dialects and passes of Rake GPU (GpuIR, AMIR and the upstream
    dialects it lowers through). Modules keep their context alive."""

    _default: Optional["Context"] = None

    def __init__(self):
        self._native = _rake.Context()

    @classmethod
    def default(cls) -> "Context":
        if cls._default is None:
            cls._default = Context()
        return cls._default


class Module:
    """A parsed and verified MLIR module (GpuIR procedures)."""

    def __init__(self, native, context: Context, name: str):
        self._native = native
        self.context = context
        self.name = name

    @staticmethod
    def parse(text: str, name: str = "<string>",
              context: Optional[Context] = None) -> "Module":
        """Parses and verifies `text`; `name` names it in locations."""
        context = context or Context.default()
        native, raw = _rake.Module.parse(context._native, text, name)
        if native is None:
            raise Error(f"cannot parse {name}", _diagnostics(raw))
        return Module(native, context, name)

    @staticmethod
    def load(path: str, context: Optional[Context] = None) -> "Module":
        with open(path, encoding="utf-8") as f:
            return Module.parse(f.read(), os.fspath(path), context)

    def __str__(self) -> str:
        return self._native.print(False)

    def generic(self) -> str:
        """The IR in MLIR's generic operation form."""
        return self._native.print(True)

    def copy(self) -> "Module":
        """An independent copy (pipelines change a module in place)."""
        return Module.parse(self.generic(), self.name, self.context)

    def check(self) -> None:
        """The synchronization check (rake-opt --rake-check) at each
        procedure's gpuir.check_sizes; raises Error with every race, each
        naming both accesses. The module is not changed."""
        ok, raw = self._native.check()
        if not ok:
            raise Error(f"{self.name}: the synchronization check failed",
                        _diagnostics(raw))

    def run_pipeline(self, pipeline: str) -> "Module":
        """Runs a textual pass pipeline in place, as rake-opt's
        --pass-pipeline takes it; returns the module."""
        ok, raw = self._native.run_pipeline(pipeline)
        if not ok:
            raise Error(f"{self.name}: pipeline {pipeline!r} failed",
                        _diagnostics(raw))
        return self

    def ptx(self, chip: str = "sm_90a") -> str:
        """The PTX of the module's kernels (the rake-gpuir-to-ptx pipeline,
        on a copy)."""
        ptx, raw = self._native.to_ptx(chip)
        if ptx is None:
            raise Error(f"{self.name}: cannot compile to PTX", _diagnostics(raw))
        return ptx
