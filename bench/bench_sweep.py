"""How fast is a sweep?  Points per second of the vectorized grid beside the per-point
engine, the peak memory, and a check that both give the same numbers.

    python bench/bench_sweep.py [POINTS_PER_AXIS]

Target (issue 5): a grid of at least 10^6 points at over 10^6 points per second; the
results equal the per-point engine (paramledger.inventory) on a random sample.
Peak memory is Python's tracemalloc peak (numpy reports its buffers to it) during the
sweep, plus the process's maximum resident set size from resource.getrusage.
"""

from __future__ import annotations

import random
import resource
import sys
import time
import tracemalloc

from paramledger.sweep import engine_row, sweep

SAMPLE = 300
AXES = ["hidden_size=64:2048:16", "num_hidden_layers=1:64:1", "vocab_size=1024:262144:2048"]


def main() -> None:
    sweep("seed-baseline", ["num_hidden_layers=1:2"])  # import numpy and sympy before timing
    tracemalloc.start()
    start = time.perf_counter()
    result = sweep("seed-baseline", AXES)
    elapsed = time.perf_counter() - start
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rate = result.points / elapsed
    print(f"grid: {' × '.join(AXES)} = {result.points:,} points, {result.kept:,} kept")
    print(f"vectorized: {elapsed:.3f} s, {rate:,.0f} points/s (target > 1,000,000): "
          f"{'met' if rate > 1e6 and result.points >= 1e6 else 'NOT met'}")
    print(f"peak memory: {peak / 2**20:,.1f} MiB traced (tracemalloc); "
          f"max RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**10:,.1f} MiB")

    rng = random.Random(5)
    keys = [axis.key for axis in result.plan.axes]
    sample = rng.sample(range(result.kept), SAMPLE)
    start = time.perf_counter()
    mismatches = 0
    for i in sample:
        point = {key: int(result.columns[key][i]) for key in keys}
        expected = engine_row(result.plan, point)
        got = {name: result.columns[name][i].item() for name in result.plan.columns}
        mismatches += got != expected
    engine_rate = SAMPLE / (time.perf_counter() - start)
    print(f"per-point engine: {engine_rate:,.0f} points/s; vectorized / engine = {rate / engine_rate:,.0f}×")
    print(f"check: {SAMPLE} random points equal the engine: {'yes' if not mismatches else f'NO ({mismatches} differ)'}")
    sys.exit(1 if mismatches else 0)


if __name__ == "__main__":
    main()
