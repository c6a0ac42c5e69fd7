"""Load verified Rake bundles and launch their kernels on GPU tensors.

    import rake, torch
    gemm = rake.load("gemm.bundle")            # checked as rake-verify checks it
    a = torch.randn(512, 640, device="cuda", dtype=torch.bfloat16)
    ...
    gemm(2, 3, 10, a, bt, c)                   # on torch's current stream

This part of the package is pure Python over the C runtime's shared library
(librake_runtime.so, include/rake/runtime.h) and the CUDA driver: it needs
neither MLIR nor LLVM, so bundles compiled and verified on a build machine
run on a GPU machine that has neither. What runs is exactly the bundle's
verified cubin: the runtime refuses a bundle whose seal, hashes, profile,
toolchain pins or ABI do not hold, and checks every launch against the
bundle's launch shape and parameter layout.

Each call checks its arguments against the kernel's source signature (the
manifest's kernels[].signature: what the synchronization check assumed):
the number of arguments, index values, and for each buffer its kind (a CUDA
tensor: a torch tensor, or any object with __cuda_array_interface__ or
__dlpack__), device, element type, shape (the declared extents evaluated at
the call's index values), row-major contiguity and 16-byte alignment. A
wrong argument raises ArgumentError naming the parameter, what was expected
and what was given; a refusal of the runtime or the driver raises
RuntimeFailure with the runtime's message. Nothing is launched then.
"""

from __future__ import annotations

import collections
import ctypes
import json
import os
import re
import struct
import sys
import warnings
from typing import Dict, List, Optional, Sequence

__all__ = ["load", "Kernel", "Bundle", "ArgumentError", "FormatWarning",
           "RuntimeFailure", "runtime_library"]


class FormatWarning(UserWarning):
    """A kernel multiplies an argument in a wider format than its values
    need: every value is exact in a narrower one (the profile's
    narrower-format warning; see Kernel.__call__)."""


class ArgumentError(ValueError):
    """A kernel call's argument is not what the kernel's signature says;
    `parameter` names it (None for the argument count)."""

    def __init__(self, message: str, parameter: Optional[str] = None):
        super().__init__(message)
        self.parameter = parameter


class RuntimeFailure(RuntimeError):
    """The C runtime refused a bundle or a launch, or the driver failed:
    `status` is the runtime's rake_status name (e.g. 'RAKE_ERR_INTEGRITY'),
    `code` its number, the message the runtime's."""

    def __init__(self, message: str, code: int = 0):
        super().__init__(message)
        self.code = code
        self.status = _STATUS_NAMES.get(code, f"rake_status {code}")


_STATUS_NAMES = {
    0: "RAKE_OK", 1: "RAKE_ERR_ARGUMENT", 2: "RAKE_ERR_IO",
    3: "RAKE_ERR_MANIFEST", 4: "RAKE_ERR_NOT_VERIFIED",
    5: "RAKE_ERR_INTEGRITY", 6: "RAKE_ERR_ARCH", 7: "RAKE_ERR_FLAGS",
    8: "RAKE_ERR_ABI", 9: "RAKE_ERR_NO_DRIVER", 10: "RAKE_ERR_DRIVER",
    11: "RAKE_ERR_NOT_FOUND", 12: "RAKE_ERR_TOOLCHAIN", 13: "RAKE_ERR_PROFILE",
    14: "RAKE_ERR_SIGNATURE", 15: "RAKE_ERR_ELF", 16: "RAKE_ERR_PTX",
    17: "RAKE_ERR_RESOURCES", 20: "RAKE_ERR_LAUNCH_NO_SHAPE",
    21: "RAKE_ERR_LAUNCH_BLOCK", 22: "RAKE_ERR_LAUNCH_GRID",
    23: "RAKE_ERR_LAUNCH_CLUSTER", 24: "RAKE_ERR_LAUNCH_SHARED",
    25: "RAKE_ERR_PARAM_LAYOUT", 26: "RAKE_ERR_PARAM_BYTES",
    27: "RAKE_ERR_PARAM_COUNT", 28: "RAKE_ERR_PARAM_SIZE",
    29: "RAKE_ERR_PARAM_ALIGN",
    30: "RAKE_ERR_DATA_ALIGN",
    31: "RAKE_ERR_BUFFER",
}

# ---------------------------------------------------------------------------
# The C runtime through ctypes (include/rake/runtime.h)
# ---------------------------------------------------------------------------


class _Error(ctypes.Structure):
    _fields_ = [("code", ctypes.c_int), ("message", ctypes.c_char * 1024)]


class _ParamInfo(ctypes.Structure):
    _fields_ = [("offset", ctypes.c_uint32), ("size", ctypes.c_uint32),
                ("align", ctypes.c_uint32), ("name", ctypes.c_char_p),
                ("role", ctypes.c_char_p)]


class _LaunchShape(ctypes.Structure):
    _fields_ = [("block", ctypes.c_uint32 * 3), ("blocks_per_sm", ctypes.c_uint32),
                ("dynamic_shared_bytes", ctypes.c_uint32), ("cluster", ctypes.c_uint32)]


class _LaunchConfig(ctypes.Structure):
    _fields_ = [("grid", ctypes.c_uint32 * 3), ("block", ctypes.c_uint32 * 3),
                ("dynamic_shared_bytes", ctypes.c_uint32)]


class _OpenOptions(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("public_key_pem", ctypes.c_char_p),
                ("public_key_file", ctypes.c_char_p), ("profile", ctypes.c_char_p),
                ("allow_relaxed", ctypes.c_int), ("allow_repinned", ctypes.c_int)]


_lib = None


def runtime_library() -> str:
    """The path of the C runtime this package loads: $RAKE_RUNTIME_LIB, else
    librake_runtime.so beside the package (an install), else the build's
    lib/ (build/python/rake -> build/lib)."""
    env = os.environ.get("RAKE_RUNTIME_LIB")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    for cand in (os.path.join(here, "librake_runtime.so"),
                 os.path.join(here, "..", "..", "lib", "librake_runtime.so")):
        if os.path.exists(cand):
            return os.path.normpath(cand)
    raise RuntimeFailure(
        "the Rake C runtime (librake_runtime.so) is not found beside the "
        "package or in the build's lib/: build it (the rake_runtime_shared "
        "target, or scripts/build-runtime.sh OUT.so on a machine without "
        "LLVM) and set RAKE_RUNTIME_LIB to its path", 9)


def _runtime():
    global _lib
    if _lib is not None:
        return _lib
    path = runtime_library()
    try:
        lib = ctypes.CDLL(path)
    except OSError as e:
        raise RuntimeFailure(f"cannot load the Rake C runtime {path}: {e}", 9) from None
    P, E = ctypes.c_void_p, ctypes.POINTER(_Error)
    u32, u64, s = ctypes.c_uint32, ctypes.c_uint64, ctypes.c_char_p
    sigs = {
        "rake_bundle_open_with": ([s, ctypes.POINTER(_OpenOptions), ctypes.POINTER(P), E], ctypes.c_int),
        "rake_bundle_close": ([P], None),
        "rake_bundle_manifest": ([P], s),
        "rake_bundle_trust": ([P], s),
        "rake_bundle_profile": ([P], s),
        "rake_bundle_target": ([P], s),
        "rake_bundle_kernel_count": ([P], u32),
        "rake_bundle_kernel_name": ([P, u32], s),
        "rake_kernel_layout": ([P, s, ctypes.POINTER(u32), ctypes.POINTER(u32),
                                ctypes.POINTER(u32), E], ctypes.c_int),
        "rake_kernel_param": ([P, s, u32, ctypes.POINTER(_ParamInfo), E], ctypes.c_int),
        "rake_kernel_launch_shape": ([P, s, ctypes.POINTER(_LaunchShape), E], ctypes.c_int),
        "rake_module_load": ([P, P, ctypes.POINTER(P), E], ctypes.c_int),
        "rake_module_unload": ([P, E], ctypes.c_int),
        "rake_kernel_launch_config": ([P, s, ctypes.POINTER(_LaunchConfig), E], ctypes.c_int),
        "rake_launch": ([P, s, ctypes.POINTER(_LaunchConfig), P, u32, P,
                         ctypes.c_size_t, E], ctypes.c_int),
        "rake_tensor_map_create": ([P, s, u32, u64, u64, u64, u64,
                                    ctypes.POINTER(u64), E], ctypes.c_int),
        "rake_tensor_map_destroy": ([P, u64, E], ctypes.c_int),
    }
    for name, (args, res) in sigs.items():
        fn = getattr(lib, name, None)
        if fn is None:
            raise RuntimeFailure(
                f"the Rake C runtime {path} has no {name}: it is older than "
                "this package; rebuild it from the same sources", 9)
        fn.argtypes, fn.restype = args, res
    _lib = lib
    return lib


def _check(status: int, err: _Error, what: str = "") -> None:
    if status != 0:
        msg = err.message.decode("utf-8", "replace")
        raise RuntimeFailure(f"{what}{msg}", status)


# ---------------------------------------------------------------------------
# Element types and the arguments' views
# ---------------------------------------------------------------------------

_ELEMENT_BYTES = {"f32": 4, "f64": 8, "f16": 2, "bf16": 2, "i1": 1, "i8": 1,
                  "i16": 2, "i32": 4, "i64": 8, "index": 8, "f8E4M3FN": 1,
                  "f8E5M2": 1}
_TORCH_NAMES = {"f32": "float32", "f64": "float64", "f16": "float16",
                "bf16": "bfloat16", "i8": "int8", "i16": "int16",
                "i32": "int32", "i64": "int64", "index": "int64", "i1": "bool",
                "f8E4M3FN": "float8_e4m3fn", "f8E5M2": "float8_e5m2"}
_TORCH_TO_ELEMENT = {"float32": "f32", "float64": "f64", "float16": "f16",
                     "bfloat16": "bf16", "int8": "i8", "int16": "i16",
                     "int32": "i32", "int64": "i64", "bool": "i1",
                     "uint8": "u8", "float8_e4m3fn": "f8E4M3FN",
                     "float8_e5m2": "f8E5M2"}
# __cuda_array_interface__ type strings (little-endian); bf16 has none.
_TYPESTR_TO_ELEMENT = {"<f4": "f32", "<f8": "f64", "<f2": "f16", "|i1": "i8",
                       "<i2": "i16", "<i4": "i32", "<i8": "i64", "|b1": "i1",
                       "|u1": "u8", "<u2": "u16", "<u4": "u32", "<u8": "u64"}
_ALIGNMENT = 16
_DTYPES: dict = {}  # torch dtype -> (element type, its name)


class _View:
    """What a call needs of a buffer argument."""
    __slots__ = ("ptr", "shape", "strides", "element", "what", "device")

    def __init__(self, ptr, shape, strides, element, what, device):
        self.ptr, self.shape, self.strides = ptr, shape, strides
        self.element, self.what, self.device = element, what, device


def _exact_narrower_format(t) -> Optional[str]:
    """'bf16' or 'f16' where every element of the torch float32 tensor `t`
    (not empty) is exact in that format, else None."""
    if not type(t).__module__.startswith("torch") or str(getattr(t, "dtype", "")) != "torch.float32":
        return None
    try:
        import torch
    except ImportError:
        return None
    if not isinstance(t, torch.Tensor) or t.numel() == 0:
        return None
    for name, dtype in (("bf16", torch.bfloat16), ("f16", torch.float16)):
        # Equal after the round trip: exact (a NaN is never equal, so a
        # tensor with one gets no warning).
        if torch.equal(t, t.to(dtype).to(torch.float32)):
            return name
    return None


def _view(obj, name: str) -> _View:
    cls = type(obj)
    if cls.__module__.startswith("torch") and hasattr(obj, "data_ptr"):
        known = _DTYPES.get(obj.dtype)
        if known is None:
            dtype = str(obj.dtype).replace("torch.", "")
            known = _DTYPES[obj.dtype] = (_TORCH_TO_ELEMENT.get(dtype, dtype), f"torch.{dtype}")
        if not obj.is_cuda:
            raise ArgumentError(
                f"argument '{name}' is a tensor on the {obj.device.type.upper()}; "
                f"kernels run on the GPU: pass a CUDA tensor ({name}.cuda())", name)
        return _View(obj.data_ptr(), tuple(obj.shape), obj.stride(),
                     known[0], known[1], obj.device.index or 0)
    cai = getattr(obj, "__cuda_array_interface__", None)
    if cai is not None:
        typestr = cai.get("typestr", "?")
        element = _TYPESTR_TO_ELEMENT.get(typestr, typestr)
        shape = tuple(int(d) for d in cai["shape"])
        size = _ELEMENT_BYTES.get(element, 1)
        strides = cai.get("strides")
        if strides is None:
            strides = _row_major(shape)
        else:
            if any(s % size for s in strides):
                raise ArgumentError(
                    f"argument '{name}' has strides {tuple(strides)} bytes, not "
                    f"whole {element} elements", name)
            strides = tuple(s // size for s in strides)
        return _View(int(cai["data"][0]), shape, strides, element, typestr, 0)
    if hasattr(obj, "__dlpack__"):
        torch = sys.modules.get("torch")
        if torch is None:
            try:
                import torch  # noqa: F811
            except ImportError:
                raise ArgumentError(
                    f"argument '{name}' is a DLPack object; reading DLPack needs "
                    "torch: install it, or pass an object with "
                    "__cuda_array_interface__", name) from None
        return _view(torch.from_dlpack(obj), name)
    raise ArgumentError(
        f"argument '{name}' must be a CUDA tensor (a torch.Tensor, or an object "
        f"with __cuda_array_interface__ or __dlpack__), got {cls.__name__}", name)


def _row_major(shape: Sequence[int]) -> tuple:
    strides, step = [], 1
    for d in reversed(shape):
        strides.append(step)
        step *= max(int(d), 1)
    return tuple(reversed(strides))


# ---------------------------------------------------------------------------
# Extents: the expressions the manifest's signature records
# ---------------------------------------------------------------------------

_TOKEN = re.compile(r"\s*(?:(-?\d+)|([A-Za-z_][A-Za-z_0-9]*)|(\(|\)|\+|\*))")
_OPS = {"+", "*", "mod", "floordiv", "ceildiv"}


def _parse_extent(text: str):
    """A fully parenthesized affine expression as rake-bundle writes it:
    integers, index parameter names, and (a OP b) for + * mod floordiv
    ceildiv. Returns a function of the index values by name."""
    tokens, pos = [], 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            if text[pos:].strip() == "":
                break
            raise ValueError(f"cannot read the extent {text!r}")
        tokens.append(m.group(1) or m.group(2) or m.group(3))
        pos = m.end()
    it = iter(tokens)

    def expr():
        t = next(it)
        if t == "(":
            lhs, op, rhs = expr(), next(it), expr()
            if op not in _OPS or next(it) != ")":
                raise ValueError(f"cannot read the extent {text!r}")
            return lambda env, l=lhs, r=rhs, o=op: _apply(o, l(env), r(env))
        if re.fullmatch(r"-?\d+", t):
            return lambda env, v=int(t): v
        return lambda env, n=t: env[n]

    f = expr()
    if next(it, None) is not None:
        raise ValueError(f"cannot read the extent {text!r}")
    return f


def _apply(op, a, b):
    if op == "+":
        return a + b
    if op == "*":
        return a * b
    if op == "mod":
        return a % b
    if op == "floordiv":
        return a // b
    return -((-a) // b)  # ceildiv


_V_INDEX, _V_PTR, _V_ZERO, _V_SIZE, _V_STRIDE, _V_MAP = range(6)


def _shape_function(extents):
    """f(env, given_shape) -> the shape a buffer must have: each declared
    extent evaluated at the index values, a dimension without one ('?') as
    given (nothing to check it against)."""
    fns = [None if e == "?" else _parse_extent(e) for e in extents]
    if all(f is not None for f in fns):
        def shape(env, given, fns=fns):
            return tuple(f(env) for f in fns)
    else:
        def shape(env, given, fns=fns):
            return tuple(given[d] if f is None and d < len(given) else
                         (f(env) if f is not None else -1) for d, f in enumerate(fns))
    return shape


def _pretty(extent: str) -> str:
    e = extent
    if e.startswith("(") and e.endswith(")"):
        e = e[1:-1]
    return e


# ---------------------------------------------------------------------------
# Bundles and kernels
# ---------------------------------------------------------------------------


class Bundle:
    """A bundle the C runtime opened and checked (its seal, hashes, profile,
    toolchain, ABI: everything rake-verify checks that needs no
    disassembler), and the kernels in it."""

    def __init__(self, path: str, profile: Optional[str] = None,
                 public_key: Optional[str] = None, allow_relaxed: bool = False):
        lib = _runtime()
        self.path = os.fspath(path)
        opts = _OpenOptions(1, None,
                            os.fsencode(public_key) if public_key else None,
                            profile.encode() if profile else None,
                            int(allow_relaxed), 0)
        handle, err = ctypes.c_void_p(), _Error()
        _check(lib.rake_bundle_open_with(os.fsencode(self.path), ctypes.byref(opts),
                                         ctypes.byref(handle), ctypes.byref(err)),
               err, f"refused bundle {self.path}: ")
        self._handle = handle
        self._lib = lib
        self.manifest = json.loads(lib.rake_bundle_manifest(handle).decode())
        self.trust = lib.rake_bundle_trust(handle).decode()
        self.profile = lib.rake_bundle_profile(handle).decode()
        self.target = lib.rake_bundle_target(handle).decode()
        self._modules: Dict[int, ctypes.c_void_p] = {}
        self.kernels: Dict[str, Kernel] = {}
        for i in range(lib.rake_bundle_kernel_count(handle)):
            name = lib.rake_bundle_kernel_name(handle, i).decode()
            self.kernels[name] = Kernel(self, name)

    def __getitem__(self, name: str) -> "Kernel":
        try:
            return self.kernels[name]
        except KeyError:
            raise KeyError(f"bundle {self.path} has no kernel '{name}'; it has "
                           f"{', '.join(self.kernels) or 'none'}") from None

    def _module(self, device: int) -> ctypes.c_void_p:
        """The bundle's cubin loaded on `device` (torch's context for it, or
        the thread's current context)."""
        m = self._modules.get(device)
        if m is not None:
            return m
        torch = sys.modules.get("torch")
        if torch is not None and torch.cuda.is_available():
            torch.cuda.init()
            with torch.cuda.device(device):
                torch.cuda.current_stream(device)  # makes the context current
                m = self._load()
        else:
            m = self._load()
        self._modules[device] = m
        return m

    def _load(self) -> ctypes.c_void_p:
        m, err = ctypes.c_void_p(), _Error()
        _check(self._lib.rake_module_load(self._handle, None, ctypes.byref(m),
                                          ctypes.byref(err)),
               err, f"cannot load bundle {self.path}: ")
        return m

    def close(self) -> None:
        if getattr(self, "_handle", None):
            for k in self.kernels.values():
                k._maps.clear()
            for m in self._modules.values():
                err = _Error()
                self._lib.rake_module_unload(m, ctypes.byref(err))
            self._modules.clear()
            self._lib.rake_bundle_close(self._handle)
            self._handle = None

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def __repr__(self) -> str:
        return f"<rake.Bundle {self.path} ({self.profile}): {', '.join(self.kernels)}>"


class Kernel:
    """One kernel of a bundle, callable with its procedure's arguments in
    order: ints for the index parameters, CUDA tensors for the buffers.
    `kernel(*args, stream=None)` launches it asynchronously on `stream` (a
    torch.cuda.Stream, a CUstream handle as an int, or None: torch's current
    stream when torch is in use, else the default stream)."""

    _MAX_MAPS = 64

    def __init__(self, bundle: Bundle, name: str):
        lib, h = bundle._lib, bundle._handle
        self.bundle, self.name = bundle, name
        self._bname = name.encode()
        entry = next(k for k in bundle.manifest["kernels"] if k["name"] == name)
        self.registers = entry["registers"]
        self.static_shared_bytes = entry["shared_bytes"]
        self.frame_bytes = entry["frame_bytes"]
        self.tensor_core = dict(entry.get("tensor_core", {}))
        self.signature: Optional[List[dict]] = entry.get("signature")
        err = _Error()
        shape = _LaunchShape()
        status = lib.rake_kernel_launch_shape(h, self._bname, ctypes.byref(shape), ctypes.byref(err))
        self.has_launch_shape = status == 0
        self.block = tuple(shape.block)
        self.blocks_per_sm = shape.blocks_per_sm
        self.dynamic_shared_bytes = shape.dynamic_shared_bytes
        self.cluster = shape.cluster
        version, nbytes, count = ctypes.c_uint32(), ctypes.c_uint32(), ctypes.c_uint32()
        _check(lib.rake_kernel_layout(h, self._bname, ctypes.byref(version), ctypes.byref(nbytes),
                                      ctypes.byref(count), ctypes.byref(err)), err)
        self._layout_version = version.value
        self.param_bytes = nbytes.value
        self._params = []
        for i in range(count.value):
            info = _ParamInfo()
            _check(lib.rake_kernel_param(h, self._bname, i, ctypes.byref(info), ctypes.byref(err)), err)
            self._params.append((info.offset, info.size, (info.role or b"").decode()))
        self._plan = self._make_plan() if self.signature is not None else None
        self._maps: "collections.OrderedDict[tuple, int]" = collections.OrderedDict()
        self._config: Dict[int, _LaunchConfig] = {}
        self._last_key, self._last_device = None, 0
        self._formats_checked = False
        # Set by rake.compile: whether the bundle came from its cache, and
        # the verifier's report of it.
        self.cached = False
        self.report = ""

    # -- what the kernel takes ------------------------------------------------

    @property
    def parameters(self) -> List[str]:
        return [p["name"] for p in self.signature or []]

    def describe(self) -> str:
        """The kernel's signature, launch shape and resources, one line each."""
        lines = [f"{self.name}({', '.join(self._param_text(p) for p in self.signature or [])})"]
        if self.has_launch_shape:
            lines.append(f"  launch: persistent, {self.blocks_per_sm} CTA(s) per SM of "
                         f"{self.block[0]} threads, clusters of {self.cluster}, "
                         f"{self.dynamic_shared_bytes} bytes of dynamic shared memory")
        lines.append(f"  registers: {self.registers} per thread, static shared memory "
                     f"{self.static_shared_bytes} bytes, stack frame {self.frame_bytes} bytes")
        if self.tensor_core:
            lines.append("  tensor cores: " + ", ".join(f"{k} x{v}" for k, v in sorted(self.tensor_core.items())))
        lines.append(f"  bundle: {self.bundle.path} ({self.bundle.profile}; {self.bundle.trust})")
        return "\n".join(lines)

    @staticmethod
    def _param_text(p: dict) -> str:
        if p["kind"] == "index":
            return f"{p['name']}: index"
        if p["kind"] == "buffer":
            text = f"{p['name']}: {p['element']}[{', '.join(_pretty(e) for e in p['extents'])}]"
            if p.get("multiplied_as") and p["multiplied_as"] != p["element"]:
                text += f" as {p['multiplied_as']}"
            return text
        return f"{p['name']}: tensor_map"

    def _warn_narrower_formats(self, args) -> None:
        """On a kernel's first call: warns (FormatWarning) for each f32 torch
        tensor the tensor cores multiply as tf32 whose every value is exact
        in bf16 or f16, a narrower format that would lose nothing (the seed's
        BF16 weights declared as TF32). One pass over those tensors, on the
        first call only; other kinds of buffers are not read."""
        for i, p in enumerate(self.signature):
            if p["kind"] != "buffer" or p.get("multiplied_as") != "tf32":
                continue
            t = args[i]
            narrower = _exact_narrower_format(t)
            if narrower:
                warnings.warn(
                    f"kernel '{self.name}': every value of argument "
                    f"'{p['name']}' is exact in {narrower}, and the kernel "
                    f"multiplies it as tf32: a {narrower} kernel would take "
                    f"the same values in half the bytes, exactly",
                    FormatWarning, stacklevel=3)

    def __repr__(self) -> str:
        return f"<rake.Kernel {self.describe().splitlines()[0]}>"

    # -- calling it -------------------------------------------------------------

    def _make_plan(self):
        """What a call does, worked out once: the index parameters, each
        buffer's expected shape as a function of the index values, and how
        each kernel parameter's value is taken (one struct packs them)."""
        sig = self.signature
        buffers = []
        for i, p in enumerate(sig):
            if p["kind"] == "tensor_map":
                raise RuntimeFailure(
                    f"kernel '{self.name}': parameter '{p['name']}' is a "
                    "gpuir.tensor_map, which no lowering accepts", 8)
            if p["kind"] == "buffer":
                buffers.append((i, p["name"], p["element"], _shape_function(p["extents"]),
                                ", ".join(_pretty(e) for e in p["extents"])))
        indices = [(i, p["name"]) for i, p in enumerate(sig) if p["kind"] == "index"]
        fmt, pos, values = "<", 0, []
        for index, (offset, size, role) in enumerate(self._params):
            m = re.fullmatch(r"arg(\d+)\.(index|allocated|aligned(?:\d+)?|offset|size(\d+)|stride(\d+))", role)
            t = re.fullmatch(r"tensormap\.arg(\d+)\.(\d+)x(\d+)\.swizzle(\d+)", role)
            if size not in (4, 8) or offset < pos:
                raise RuntimeFailure(
                    f"kernel '{self.name}': parameter {index} has {size} bytes at "
                    f"offset {offset}; this package packs 4- and 8-byte parameters", 8)
            fmt += "x" * (offset - pos) + ("Q" if size == 8 else "I")
            pos = offset + size
            if m:
                arg, what = int(m.group(1)), m.group(2)
                dim = int(m.group(3) or m.group(4) or 0)
                if what.startswith("aligned"):
                    what = "aligned"
                code = {"index": _V_INDEX, "allocated": _V_PTR, "aligned": _V_PTR,
                        "offset": _V_ZERO}.get(what, _V_SIZE if what.startswith("size") else _V_STRIDE)
                values.append((code, arg, dim))
            elif t:
                values.append((_V_MAP, int(t.group(1)), index))
            else:
                raise RuntimeFailure(
                    f"kernel '{self.name}': a parameter with role '{role or '(none)'}'"
                    ": this package launches kernels compiled from GpuIR; launch this "
                    "one from C (rake_launch)", 8)
        fmt += "x" * (self.param_bytes - pos)
        packer = struct.Struct(fmt)
        if packer.size != self.param_bytes:
            raise RuntimeFailure(
                f"kernel '{self.name}': its parameters do not fill its "
                f"{self.param_bytes} parameter bytes", 8)
        self._buf = bytearray(self.param_bytes)
        self._raw = (ctypes.c_char * max(self.param_bytes, 1)).from_buffer(
            self._buf if self.param_bytes else bytearray(1))
        return indices, buffers, values, packer

    def __call__(self, *args, stream=None):
        if self._plan is None:
            raise RuntimeFailure(
                f"kernel '{self.name}' was bundled from PTX: the bundle records no "
                "source signature to check arguments against; launch it from C "
                "(rake_launch)", 8)
        indices, buffers, values, packer = self._plan
        sig = self.signature
        if len(args) != len(sig):
            names = ", ".join(p["name"] for p in sig)
            raise ArgumentError(
                f"{self.name}() takes {len(sig)} arguments ({names}), "
                f"{len(args)} given")
        env = {}
        for i, name in indices:
            a = args[i]
            if type(a) is not int:
                if isinstance(a, bool) or not hasattr(a, "__index__"):
                    raise ArgumentError(
                        f"argument '{name}' must be an int (an index), got "
                        f"{type(a).__name__} {a!r}", name)
                a = a.__index__()
            if not 0 <= a < 2 ** 63:
                raise ArgumentError(
                    f"argument '{name}' must be a non-negative index below "
                    f"2^63, got {a}", name)
            env[name] = a
        views = {}
        for i, name, want, shape_of, declared in buffers:
            v = _view(args[i], name)
            if v.element != want:
                torch_name = _TORCH_NAMES.get(want)
                hint = f" (torch.{torch_name})" if torch_name else ""
                raise ArgumentError(
                    f"argument '{name}' must have element type {want}{hint}, "
                    f"got {v.what}", name)
            views[i] = v
        if not self._formats_checked:
            self._formats_checked = True
            self._warn_narrower_formats(args)
        # The checks and the packed parameters depend only on this: a call
        # with the same index values and buffers as the last one reuses them.
        key = (tuple(env.values()),
               tuple((v.ptr, v.shape, v.strides, v.device) for v in views.values()))
        if key != self._last_key:
            self._last_key = None
            dev = self._check_and_pack(env, views)
            self._last_key, self._last_device = key, dev
        dev = self._last_device
        module = self.bundle._modules[dev]
        lib = self.bundle._lib
        err = _Error()
        config = self._config.get(dev)
        if config is None:
            config = _LaunchConfig()
            _check(lib.rake_kernel_launch_config(module, self._bname, ctypes.byref(config),
                                                 ctypes.byref(err)), err,
                   f"cannot launch {self.name}: ")
            self._config[dev] = config
        _check(lib.rake_launch(module, self._bname, ctypes.byref(config),
                               _stream_handle(stream, dev), self._layout_version,
                               self._raw, self.param_bytes, ctypes.byref(err)),
               err, f"cannot launch {self.name}: ")

    def _check_and_pack(self, env, views) -> int:
        """Checks each buffer's shape, layout, alignment and device against
        the signature and packs the parameters; returns the device."""
        indices, buffers, values, packer = self._plan
        sig = self.signature
        device = None
        for i, name, want, shape_of, declared in buffers:
            v = views[i]
            shape = shape_of(env, v.shape)
            if v.shape != shape:
                at = ", ".join(f"{k}={env[k]}" for k in env)
                raise ArgumentError(
                    f"argument '{name}' must have shape {shape} (its extents "
                    f"({declared}) at {at or 'no index values'}), got {v.shape}", name)
            step, strides = 1, v.strides
            for d in range(len(shape) - 1, -1, -1):
                if shape[d] != 1 and strides[d] != step:
                    raise ArgumentError(
                        f"argument '{name}' must be contiguous and row-major (strides "
                        f"{_row_major(shape)} in elements), got strides {strides}: pass "
                        f"{name}.contiguous()", name)
                step *= max(shape[d], 1)
            if v.ptr % _ALIGNMENT:
                raise ArgumentError(
                    f"argument '{name}' must start at a {_ALIGNMENT}-byte aligned "
                    f"address, got 0x{v.ptr:x}: a view that starts inside another "
                    "tensor can break this; pass a fresh tensor", name)
            if device is None:
                device = (v.device, name)
            elif v.device != device[0]:
                raise ArgumentError(
                    f"argument '{name}' is on cuda:{v.device}, argument "
                    f"'{device[1]}' on cuda:{device[0]}: every buffer of a "
                    "launch must be on one device", name)
        dev = device[0] if device else 0
        module = self.bundle._module(dev)
        out = []
        for code, arg, extra in values:
            if code == _V_INDEX:
                out.append(env[sig[arg]["name"]])
            elif code == _V_PTR:
                out.append(views[arg].ptr)
            elif code == _V_ZERO:
                out.append(0)
            elif code == _V_SIZE:
                out.append(views[arg].shape[extra])
            elif code == _V_STRIDE:
                out.append(views[arg].strides[extra])
            else:
                out.append(self._tensor_map(module, extra, views[arg]))
        packer.pack_into(self._buf, 0, *out)
        return dev

    def _tensor_map(self, module, param: int, v: _View) -> int:
        if len(v.shape) != 2:
            raise ArgumentError(
                f"a tensor map needs a two-dimensional buffer, got shape {v.shape}")
        rows, cols = v.shape
        pitch = v.strides[0] * _ELEMENT_BYTES[v.element]
        key = (id(module), param, v.ptr, rows, cols, pitch)
        addr = self._maps.get(key)
        if addr is not None:
            self._maps.move_to_end(key)
            return addr
        out, err = ctypes.c_uint64(), _Error()
        lib = self.bundle._lib
        _check(lib.rake_tensor_map_create(module, self._bname, param, v.ptr, rows, cols,
                                          pitch, ctypes.byref(out), ctypes.byref(err)),
               err, f"cannot launch {self.name}: ")
        self._maps[key] = out.value
        if len(self._maps) > self._MAX_MAPS:
            _, old = self._maps.popitem(last=False)
            lib.rake_tensor_map_destroy(module, old, ctypes.byref(err))
        return out.value


def _stream_handle(stream, device: int):
    if stream is None:
        torch = sys.modules.get("torch")
        if torch is not None and torch.cuda.is_initialized():
            return torch.cuda.current_stream(device).cuda_stream or None
        return None
    if isinstance(stream, int):
        return stream or None
    for attr in ("cuda_stream", "ptr", "handle"):
        h = getattr(stream, attr, None)
        if isinstance(h, int):
            return h or None
    raise ArgumentError(
        f"stream must be a torch.cuda.Stream, a CUstream handle (int) or None, "
        f"got {type(stream).__name__}", "stream")


def load(path, kernel: Optional[str] = None, profile: Optional[str] = None,
         public_key: Optional[str] = None):
    """Opens the bundle folder `path` (a rake-bundle output, or a
    rake.compile cache entry) through the C runtime and returns its kernel:
    the only one, or the one named `kernel`. `profile` requires the bundle
    to name that profile; `public_key` (a PEM file) requires the signature
    of that key (else $RAKE_PUBLIC_KEY, else integrity only)."""
    b = Bundle(path, profile=profile, public_key=public_key)
    if kernel is not None:
        return b[kernel]
    if len(b.kernels) != 1:
        raise ValueError(f"bundle {b.path} has {len(b.kernels)} kernels "
                         f"({', '.join(b.kernels)}): name one, rake.load(path, kernel=...)")
    return next(iter(b.kernels.values()))
