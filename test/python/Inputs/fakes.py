"""Stand-ins the Python tests pass to kernels on the stand-in driver
(test/Runtime/fake-cuda.c, whose "device memory" is host memory): host
arrays offered as CUDA memory, and objects that look to the package as torch
tensors do (CI has no torch)."""

import ctypes


class Device:
    """Host memory offered as CUDA memory (__cuda_array_interface__)."""

    def __init__(self, ctype, typestr, shape, values=None, byte_offset=0, strides=None):
        n = 1
        for d in shape:
            n *= d
        self.array = (ctype * (n + 16))()
        if values is not None:
            for i, v in enumerate(values):
                self.array[i] = v
        self.__cuda_array_interface__ = {
            "shape": shape, "typestr": typestr, "version": 3,
            "data": (ctypes.addressof(self.array) + byte_offset, False),
            "strides": strides}


class Tensor:
    """Looks to the package as a torch tensor does (no torch in CI)."""
    __module__ = "torch"

    class _Device:
        def __init__(self, type_, index):
            self.type, self.index = type_, index

    class _Dtype:
        def __init__(self, name):
            self.name = name

        def __str__(self):
            return f"torch.{self.name}"

    def __init__(self, dtype, shape, element_bytes, cuda=True, index=0, backed=True):
        n = 1
        for d in shape:
            n *= d
        # backed=False: a tensor too large to hold, for arguments that must
        # be refused before anything touches their memory.
        self.mem = (ctypes.c_uint8 * ((n * element_bytes if backed else 0) + 64))()
        self.dtype = Tensor._Dtype(dtype)
        self.shape = shape
        self.is_cuda = cuda
        self.device = Tensor._Device("cuda" if cuda else "cpu", index if cuda else None)
        s, strides = 1, []
        for d in reversed(shape):
            strides.append(s)
            s *= d
        self._strides = tuple(reversed(strides))

    def data_ptr(self):
        a = ctypes.addressof(self.mem)
        return a + (-a) % 64

    def stride(self):
        return self._strides


def f32_device(values):
    """A one-dimensional f32 Device holding `values`."""
    return Device(ctypes.c_float, "<f4", (len(values),), values)
