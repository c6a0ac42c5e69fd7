"""Rake GPU from Python: parse GpuIR, check it, run pass pipelines, compile,
and launch verified bundles on GPU tensors.

    import rake
    m = rake.Module.load("examples/gemm_sm90a_tma.mlir")
    m.check()                      # raises rake.Error naming both accesses of a race
    ptx = m.ptx(chip="sm_90a")     # the kernel's PTX
    lowered = m.copy().run_pipeline("builtin.module(convert-gpuir-to-nvvm)")
    print(lowered)                 # the IR between passes

    gemm = rake.load("gemm.bundle")  # the C runtime checks the bundle
    gemm(2, 3, 10, a, bt, c)         # torch tensors, on torch's current stream

rake.load and the kernels it returns (rake.runtime) need only the C runtime
(librake_runtime.so) and the CUDA driver, not MLIR: they import where the
_rake extension is missing. Every diagnostic carries its source location; a failing call raises
rake.Error with all of them, nothing is printed and nothing aborts. The
package binds the compiler's C API (include/Rake-c/Rake.h).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
import warnings
from typing import Dict, List, Optional, Sequence, Union

from .runtime import (ArgumentError, Bundle, FormatWarning, Kernel,
                      RuntimeFailure, load, runtime_library)

try:
    from . import _rake
except ImportError as _missing:  # the load-and-launch part only
    class _Missing:
        def __init__(self, why):
            self._why = why

        def __getattr__(self, name):
            raise ImportError(
                "this part of rake compiles and checks kernels and needs the "
                "_rake extension (a build of Rake with MLIR); this installation "
                f"has only the load-and-launch part (rake.load): {self._why}")

    _rake = _Missing(_missing)

from .bench import BenchResult, bench

__all__ = ["Diagnostic", "Error", "Context", "Module", "compiler_revision",
           "run_sequential", "compile", "load", "Bundle", "Kernel",
           "ArgumentError", "FormatWarning", "RuntimeFailure", "runtime_library", "bench",
           "BenchResult"]


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

    def __init__(self, native, context: Context, name: str,
                 source: Optional[str] = None):
        self._native = native
        self.context = context
        self.name = name
        # The text it was parsed from, while the module is unchanged (what
        # rake.compile bundles: its names are the parameters' names).
        self._source = source

    @staticmethod
    def parse(text: str, name: str = "<string>",
              context: Optional[Context] = None) -> "Module":
        """Parses and verifies `text`; `name` names it in locations."""
        context = context or Context.default()
        native, raw = _rake.Module.parse(context._native, text, name)
        if native is None:
            raise Error(f"cannot parse {name}", _diagnostics(raw))
        return Module(native, context, name, text)

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
        self._source = None
        ok, raw = self._native.run_pipeline(pipeline)
        if not ok:
            raise Error(f"{self.name}: pipeline {pipeline!r} failed",
                        _diagnostics(raw))
        return self

    def schedule(self, script, steps: Optional[int] = None) -> "Module":
        """Applies a schedule in place and returns the module: `script` is
        the text of a transform script (a module with a
        `transform.named_sequence @__transform_main`, as
        examples/schedules/ holds) or a `rake.schedule.Schedule` built in
        Python. With `steps`, only that many of its operations run. A
        refused rewrite raises Error saying which accesses or bound stop
        it."""
        self._source = None
        text = str(script)
        ok, _, raw = self._native.apply_schedule(
            text, -1 if steps is None else steps)
        if not ok:
            raise Error(f"{self.name}: the schedule failed", _diagnostics(raw))
        return self

    def schedule_steps(self, script) -> List[tuple]:
        """The schedule applied step by step, on copies: a list of
        (step, IR after it) pairs, the step as the transform op's text.
        The module is not changed."""
        text = str(script)
        ok, applied, raw = self.copy()._native.apply_schedule(text, -1)
        if not ok:
            raise Error(f"{self.name}: the schedule failed", _diagnostics(raw))
        result = []
        for k, step in enumerate(applied, start=1):
            m = self.copy()
            m.schedule(text, steps=k)
            # Between steps a module may break GpuIR's rules (host memory in
            # a device function until set_memory): printed in custom form.
            result.append((step, m._native.print(2)))
        return result

    def ptx(self, chip: str = "sm_90a") -> str:
        """The PTX of the module's kernels (the rake-gpuir-to-ptx pipeline,
        on a copy)."""
        ptx, raw = self._native.to_ptx(chip)
        if ptx is None:
            raise Error(f"{self.name}: cannot compile to PTX", _diagnostics(raw))
        return ptx


# struct formats of the element types (bf16 has none: its raw 16 bits).
_FORMATS = {"f32": "f", "f64": "d", "f16": "e", "bf16": "H", "i8": "b",
            "i16": "h", "i32": "i", "i64": "q", "index": "q"}


def _tool(name: str) -> str:
    """A Rake tool: $RAKE_BIN/name, or the build's bin/ beside python/."""
    here = os.path.dirname(os.path.abspath(__file__))
    # A build (build/python/rake -> build/bin) or an install
    # (P/lib/python/rake -> P/bin).
    for d in (os.environ.get("RAKE_BIN"), os.path.join(here, "..", "..", "bin"),
              os.path.join(here, "..", "..", "..", "bin")):
        if d and os.path.exists(os.path.join(d, name)):
            return os.path.join(d, name)
    raise FileNotFoundError(f"{name} not found: build it, or set RAKE_BIN to its folder")


_DIAG = re.compile(r"^(?P<loc>[^\s:]+:\d+:\d+): (?P<sev>error|warning|note|remark): (?P<msg>.*)$")


def _tool_diagnostics(stderr: str, other_lines: bool) -> List[Diagnostic]:
    """The diagnostics a Rake tool printed (`file:line:col: severity: text`);
    with `other_lines`, each other non-empty line too, as an error without a
    location (rake-bundle's and rake-verify's own messages)."""
    diags = []
    for line in stderr.splitlines():
        m = _DIAG.match(line)
        if m:
            diags.append(Diagnostic(m["sev"], m["loc"], m["msg"]))
        elif other_lines and line.strip():
            diags.append(Diagnostic("error", "", line.strip()))
    return diags


def run_sequential(source, proc: Optional[str] = None,
                   sizes: Optional[Dict[str, int]] = None,
                   shapes: Optional[Dict[str, Union[int, tuple]]] = None,
                   inputs: Optional[Dict[str, object]] = None,
                   seed: int = 1) -> Dict[str, memoryview]:
    """Runs a procedure's sequential meaning on the host (rake-run --seq):
    parallel loops in order, synchronization a no-op, every access
    bounds-checked. `source` is a Module, a rake.frontend procedure, GpuIR
    text or a path; `sizes` gives the index parameters (default: the first
    gpuir.check_sizes), `shapes` each buffer's dynamic extents, `inputs`
    buffers' contents (anything with the buffer protocol: array.array,
    numpy arrays, bytes; row-major, little-endian); the other buffers come
    from a generator seeded with `seed`. Returns every buffer after the run
    as a memoryview of its elements (shaped; bf16 as raw uint16)."""
    path = None
    if isinstance(source, Module):
        text = str(source)
    elif hasattr(source, "text"):
        text = source.text  # a rake.frontend procedure: located at its Python lines
    elif isinstance(source, (str, os.PathLike)) and os.path.exists(source):
        path, text = os.fspath(source), None  # diagnostics name the file
    else:
        text = str(source)
    with tempfile.TemporaryDirectory(prefix="rake-seq-") as tmp:
        kernel = path or os.path.join(tmp, "kernel.mlir")
        if text is not None:
            with open(kernel, "w", encoding="utf-8") as f:
                f.write(text)
        cmd = [_tool("rake-run"), "--seq", kernel, f"--seed={seed}",
               f"--output-dir={os.path.join(tmp, 'out')}"]
        if proc:
            cmd.append(f"--proc={proc}")
        if sizes:
            cmd.append("--sizes=" + ",".join(f"{k}={v}" for k, v in sizes.items()))
        if shapes:
            def extents(v):
                return "x".join(str(d) for d in (v if isinstance(v, (tuple, list)) else (v,)))
            cmd.append("--shape=" + ",".join(f"{k}={extents(v)}" for k, v in shapes.items()))
        for name, data in (inputs or {}).items():
            path = os.path.join(tmp, f"in-{name}.bin")
            with open(path, "wb") as f:
                f.write(memoryview(data).cast("B"))
            cmd.append(f"--input={name}={path}")
        run = subprocess.run(cmd, capture_output=True, text=True)
        if run.returncode != 0:
            diags = _tool_diagnostics(run.stderr, other_lines=False)
            # A failed runtime check (an access out of bounds) prints the
            # access and its GpuIR location on stdout.
            loc = re.search(r'Location: loc\("([^"]+)":(\d+):(\d+)\)', run.stdout)
            what = re.search(r"\^ (.*)", run.stdout)
            if loc:
                diags.append(Diagnostic("error", f"{loc[1]}:{loc[2]}:{loc[3]}",
                                        (what[1] if what else "failed runtime check")
                                        + " in the sequential meaning"))
            if not diags:
                diags = [Diagnostic("error", "", run.stderr.strip() or run.stdout.strip())]
            raise Error("the sequential meaning failed", diags)
        result = {}
        for line in run.stdout.splitlines():
            m = re.match(r"^(\w+): ((?:\d+x)*)(\w+) checksum", line)
            if not m:
                continue
            name, dims, elt = m[1], m[2], m[3]
            shape = [int(d) for d in dims.split("x") if d] if dims else []
            with open(os.path.join(tmp, "out", f"{name}.bin"), "rb") as f:
                raw = memoryview(f.read())
            fmt = _FORMATS.get(elt, "B")
            view = raw.cast(fmt)
            result[name] = view.cast("B").cast(fmt, shape) if len(shape) > 1 else view
        return result


# ---------------------------------------------------------------------------
# rake.compile: check, bundle, verify, cache
# ---------------------------------------------------------------------------

_PTXAS_IDENTITY: Dict[str, str] = {}


def _ptxas_identity() -> str:
    """The ptxas rake-bundle will run (PATH, then /usr/local/cuda/bin), by
    path and content hash: part of a cache entry's name."""
    path = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
    if path not in _PTXAS_IDENTITY:
        try:
            with open(path, "rb") as f:
                _PTXAS_IDENTITY[path] = f"{path} {hashlib.sha256(f.read()).hexdigest()}"
        except OSError:
            _PTXAS_IDENTITY[path] = f"{path} (missing)"
    return _PTXAS_IDENTITY[path]


def _source_text(source) -> tuple:
    """(text, name) of what rake.compile was given."""
    if isinstance(source, Module):
        if source._source is not None:
            return source._source, source.name
        return str(source), source.name
    if hasattr(source, "text") and hasattr(source, "module"):
        return source.text, f"<proc {source.name}>"  # a rake.frontend procedure
    if isinstance(source, (str, os.PathLike)) and os.path.exists(source):
        with open(source, encoding="utf-8") as f:
            return f.read(), os.fspath(source)
    return str(source), "<string>"


def default_cache_dir() -> str:
    """$RAKE_CACHE_DIR, else $XDG_CACHE_HOME/rake, else ~/.cache/rake."""
    env = os.environ.get("RAKE_CACHE_DIR")
    if env:
        return env
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "rake")


def compile(source, profile: str = "nvidia-ptx-sm90a", check: bool = True,
            kernel: Optional[str] = None, cache_dir: Optional[str] = None,
            disasm_dirs: Sequence[str] = ()):
    """Compiles a GpuIR procedure into a verified bundle and returns its
    kernel (rake.Kernel), ready to call on CUDA tensors.

    `source` is a Module, a rake.frontend procedure, GpuIR text or a path.
    With `check`, the synchronization check runs first at each procedure's
    gpuir.check_sizes (a race raises Error naming both accesses). Then
    rake-bundle, which runs rake-check itself whatever `check` says, lowers
    it for `profile`, assembles it with the profile's
    pinned ptxas, verifies the cubin (nvdisasm where it exists, else a
    recorded disassembly from `disasm_dirs`) and seals the bundle.

    Bundles are cached in `cache_dir` (default: default_cache_dir()), in a
    folder named by the hash of the source, the profile, the compiler's
    revision and the ptxas; a cached bundle is opened through the C runtime
    like any other, so one that was changed on disk is refused, and then
    compiled again (with a warning), never loaded as it is. The kernel's
    `cached` says whether it came from the cache, `report` is the
    verifier's report."""
    text, name = _source_text(source)
    key = hashlib.sha256(json.dumps({
        "source": hashlib.sha256(text.encode()).hexdigest(),
        "profile": profile, "compiler": compiler_revision(),
        "ptxas": _ptxas_identity(), "check": bool(check),
    }, sort_keys=True).encode()).hexdigest()[:32]
    root = cache_dir or default_cache_dir()
    entry = os.path.join(root, key)
    source_sha = hashlib.sha256(text.encode()).hexdigest()
    if os.path.exists(os.path.join(entry, "manifest.json")):
        try:
            k = load(entry, kernel=kernel, profile=profile)
            # The entry's name says which source it was made from, but only
            # its manifest (as the runtime checked it) binds that: another
            # bundle moved into the folder is sealed just as well.
            made_from = k.bundle.manifest.get("source", {}).get("sha256")
            if made_from != source_sha:
                k.bundle.close()
                raise RuntimeFailure(
                    f"it was made from a source with sha256 {made_from}, not "
                    f"this one ({source_sha})", 5)
            k.cached = True
            k.report = _read(os.path.join(entry, "report.txt"))
            return k
        except RuntimeFailure as e:
            warnings.warn(f"rake.compile: the cached bundle {entry} was refused "
                          f"({e}); compiling it again", RuntimeWarning, stacklevel=2)
            shutil.rmtree(entry, ignore_errors=True)
    if check:
        module = source if isinstance(source, Module) else Module.parse(text, name)
        module.check()
    os.makedirs(root, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="rake-compile-", dir=root) as tmp:
        src = os.path.join(tmp, "source.mlir")
        with open(src, "w", encoding="utf-8") as f:
            f.write(text)
        out = os.path.join(tmp, "bundle")
        cmd = [_tool("rake-bundle"), src, "-o", out, f"--profile={profile}"]
        cmd += [f"--disasm-dir={d}" for d in disasm_dirs]
        run = subprocess.run(cmd, capture_output=True, text=True)
        stderr = run.stderr
        if run.returncode == 1:
            # Kept (never loaded: the runtime refuses an unverified bundle)
            # so that its disassembly can be recorded.
            kept = entry + ".unverified"
            shutil.rmtree(kept, ignore_errors=True)
            os.replace(out, kept)
            stderr = stderr.replace(out, kept)
        if run.returncode != 0:
            diags = _tool_diagnostics(stderr, other_lines=True)
            what = (f"{name}: the bundle is not verified" if run.returncode == 1
                    else f"{name}: cannot make a bundle")
            raise Error(what, diags)
        with open(os.path.join(out, "report.txt"), "w", encoding="utf-8") as f:
            f.write(run.stdout.replace(out, entry))
        try:
            os.replace(out, entry)
        except OSError:  # another process cached it first
            if not os.path.exists(os.path.join(entry, "manifest.json")):
                raise
    k = load(entry, kernel=kernel, profile=profile)
    k.cached = False
    k.report = _read(os.path.join(entry, "report.txt"))
    return k


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError:
        return ""
