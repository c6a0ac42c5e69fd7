"""rake.bench: time a kernel call on the GPU (needs torch for CUDA events).

    r = rake.bench(gemm, Mt, Nt, Kt, a, bt, c)
    print(r.median_ms, r.tflops(2 * M * N * K))
"""

from __future__ import annotations

import dataclasses
import statistics
import sys
from typing import Callable, List


@dataclasses.dataclass
class BenchResult:
    """Per-call times in milliseconds, each measured with CUDA events around
    `batch` back-to-back calls on one stream (so the host's cost of a call
    counts only where it is longer than the kernel)."""

    times_ms: List[float]
    batch: int

    @property
    def median_ms(self) -> float:
        return statistics.median(self.times_ms)

    @property
    def min_ms(self) -> float:
        return min(self.times_ms)

    def tflops(self, flops: float) -> float:
        return flops / (self.median_ms * 1e-3) / 1e12

    def __str__(self) -> str:
        return (f"median {self.median_ms:.4f} ms, min {self.min_ms:.4f} ms "
                f"({len(self.times_ms)} samples of {self.batch} calls)")


def bench(fn: Callable, *args, warmup: int = 10, repeat: int = 20,
          batch: int = 10, stream=None, **kwargs) -> BenchResult:
    """Calls `fn(*args, **kwargs)` `warmup` times, then `repeat` samples of
    `batch` calls each between two CUDA events on torch's current stream
    (or `stream`), and returns the per-call times. `fn` is a rake.Kernel or
    any callable that launches on that stream (e.g. torch.matmul), so the
    same helper times the reference."""
    torch = sys.modules.get("torch")
    if torch is None:
        try:
            import torch  # noqa: F811
        except ImportError:
            raise RuntimeError("rake.bench times with CUDA events and needs torch") from None
    s = stream or torch.cuda.current_stream()
    with torch.cuda.stream(s):
        for _ in range(warmup):
            fn(*args, **kwargs)
        torch.cuda.synchronize()
        times = []
        for _ in range(repeat):
            start = torch.cuda.Event(enable_timing=True)
            stop = torch.cuda.Event(enable_timing=True)
            start.record(s)
            for _ in range(batch):
                fn(*args, **kwargs)
            stop.record(s)
            stop.synchronize()
            times.append(start.elapsed_time(stop) / batch)
    return BenchResult(times, batch)
