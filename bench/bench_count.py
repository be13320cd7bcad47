"""How fast is a count?  In-process microseconds per count, and the whole CLI process
beside a bare interpreter start, measured side by side in one run.

    python bench/bench_count.py

Targets (issue 2): under 50 µs per count of seed-baseline in-process; a few milliseconds
for the largest bundled model; `paramledger count seed-baseline --json` within 2.5× of
`python -c pass` (issue 22; issue 2 asked 4×).

Both processes start from bytecode, as an installed package does (pip compiles it at install): the
run gives them a bytecode cache of its own (PYTHONPYCACHEPREFIX, written by a first untimed start),
since an environment with PYTHONDONTWRITEBYTECODE set would otherwise charge every start with
compiling every module from source.  That figure is printed too.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time

import paramledger

from paramledger.sources import bundled_models

START_TARGET = 2.5  # the CLI's start within 2.5x a bare interpreter's (issue #22; issue 2 asked 4x)


def per_count_us(arch, repeat: int) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        paramledger.inventory(arch).total
    return (time.perf_counter() - start) / repeat * 1e6


def process_ms(argv: list[str], env: dict[str, str], runs: int = 15) -> float:
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, env=env)  # writes the bytecode, untimed
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, env=env)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def main() -> None:
    baseline = paramledger.load("seed-baseline")
    per_count_us(baseline, 200)  # warm up
    us = per_count_us(baseline, 5000)
    print(f"seed-baseline: {us:.1f} µs per count in-process (target < 50 µs): {'met' if us < 50 else 'NOT met'}")
    largest = None
    for name in bundled_models():
        try:
            arch = paramledger.load(name)
        except paramledger.ParamledgerError:
            continue
        tensors = len(paramledger.inventory(arch).tensors)
        if largest is None or tensors > largest[1]:
            largest = (name, tensors, arch)
    if largest:
        name, tensors, arch = largest
        ms = per_count_us(arch, 50) / 1e3
        print(f"{name} ({tensors:,} tensors): {ms:.2f} ms per count in-process")
    bare_argv = [sys.executable, "-c", "pass"]
    cli_argv = [sys.executable, "-m", "paramledger", "count", "seed-baseline", "--json"]
    with tempfile.TemporaryDirectory() as cache:
        env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = cache
        bare, cli = process_ms(bare_argv, env), process_ms(cli_argv, env)
    ratio = cli / bare
    print(f"python -c pass: {bare:.1f} ms; paramledger count seed-baseline --json: {cli:.1f} ms; "
          f"ratio {ratio:.2f}× (target within {START_TARGET}×, issue #22): {'met' if ratio <= START_TARGET else 'NOT met'}")
    source_env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    cold = process_ms(cli_argv, source_env, runs=5)
    print(f"  compiling every module from source on every start (PYTHONDONTWRITEBYTECODE): {cold:.1f} ms, "
          f"{cold / bare:.2f}× the bare start")


if __name__ == "__main__":
    main()
