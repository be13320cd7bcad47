"""Header-only counting time against file size: flat.

For each size from 1 GB to 100 GB a safetensors file is written whose header declares the
tensors of a Llama-shaped model (the same 2 + 9 × 32 + 1 = 291 tensors at every size, their
rows scaled so the data section is the target size) and whose data section is a sparse
hole (truncate: zeros only logically, no disk used).  paramledger's reader is timed beside
the safetensors library's own ``safe_open(...).keys()`` + ``get_slice(k).get_shape()`` on
the same file, and the ratio printed.  The same for GGUF (paramledger vs gguf.GGUFReader).

    python bench/bench_headers.py [--sizes 1,10,100] [--repeat 5] [--dir /tmp]

Times are medians of ``--repeat`` runs, in milliseconds.  Sizes are decimal GB (10⁹ bytes).
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import struct
import tempfile
import time
from pathlib import Path

HIDDEN = 4096
LAYERS = 32


def _layout(target_bytes: int, bytes_per_value: int = 2) -> list[tuple[str, tuple[int, ...]]]:
    """Llama-named tensors whose total is ``target_bytes``: every matrix HIDDEN columns wide,
    its rows scaled with the target; the final norm takes the remainder."""
    names = ["model.embed_tokens.weight", "lm_head.weight"]
    for i in range(LAYERS):
        prefix = f"model.layers.{i}."
        names += [prefix + n for n in ("self_attn.q_proj.weight", "self_attn.k_proj.weight", "self_attn.v_proj.weight",
                                       "self_attn.o_proj.weight", "mlp.gate_proj.weight", "mlp.up_proj.weight",
                                       "mlp.down_proj.weight")]
    norms = [f"model.layers.{i}.{n}" for i in range(LAYERS) for n in ("input_layernorm.weight",
                                                                      "post_attention_layernorm.weight")]
    values = target_bytes // bytes_per_value
    rows = max((values - HIDDEN * len(norms)) // (HIDDEN * len(names)), 1)
    layout = [(name, (rows, HIDDEN)) for name in names] + [(name, (HIDDEN,)) for name in norms]
    used = sum(r * c for r, c in (s if len(s) == 2 else (1, s[0]) for _, s in layout))
    layout.append(("model.norm.weight", (max(values - used, 1),)))
    return layout


def write_sparse_safetensors(path: Path, target_bytes: int) -> int:
    header, offset = {"__metadata__": {"format": "pt"}}, 0
    for name, shape in _layout(target_bytes):
        size = 2 * _prod(shape)
        header[name] = {"dtype": "BF16", "shape": list(shape), "data_offsets": [offset, offset + size]}
        offset += size
    raw = json.dumps(header).encode()
    raw += b" " * (-len(raw) % 8)
    with open(path, "wb") as handle:
        handle.write(struct.pack("<Q", len(raw)) + raw)
        handle.truncate(8 + len(raw) + offset)  # the data: a hole, zeros only logically
    return len(header) - 1


def write_sparse_gguf(path: Path, target_bytes: int) -> int:
    """A GGUF header written by gguf.GGUFWriter (tensor infos only), then a sparse data hole."""
    import gguf
    import numpy as np

    layout = _layout(target_bytes)
    writer = gguf.GGUFWriter(str(path), "llama")
    for name, shape in layout:
        writer.add_tensor_info(name, shape, np.dtype(np.float16), 2 * _prod(shape))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_ti_data_to_file()
    writer.close()
    header_end = path.stat().st_size
    data_start = -(-header_end // 32) * 32
    data = sum(-(-2 * _prod(s) // 32) * 32 for _, s in layout)
    with open(path, "r+b") as handle:
        handle.truncate(data_start + data)
    return len(layout)


def _prod(shape: tuple[int, ...]) -> int:
    out = 1
    for s in shape:
        out *= s
    return out


def _median_ms(fn, repeat: int) -> tuple[float, object]:
    """Median wall time, the garbage collector off while timing (as timeit does): the
    object graph GGUFReader leaves behind would otherwise bill its collection to whoever
    runs next."""
    times, result = [], None
    gc.collect()
    gc.disable()
    try:
        for _ in range(repeat):
            start = time.perf_counter()
            result = fn()
            times.append((time.perf_counter() - start) * 1000)
    finally:
        gc.enable()
    return statistics.median(times), result


def ours_safetensors(path: Path) -> int:
    from paramledger.checkpoints.safetensors import read_safetensors

    return read_safetensors(path).total_values


def library_safetensors(path: Path) -> int:
    from safetensors import safe_open

    total = 0
    with safe_open(str(path), "np") as handle:
        for key in handle.keys():
            total += _prod(tuple(handle.get_slice(key).get_shape()))
    return total


def ours_gguf(path: Path) -> int:
    from paramledger.checkpoints.gguf import read_gguf

    return read_gguf(path).total_values


def library_gguf(path: Path) -> int:
    import gguf

    return sum(int(t.n_elements) for t in gguf.GGUFReader(str(path)).tensors)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="1,3,10,30,100", help="file sizes in GB, comma-separated")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--dir", default=None, help="where to write the sparse files (default: a temp folder)")
    args = parser.parse_args()
    sizes = [float(s) for s in args.sizes.split(",")]
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        rows = []
        for gb in sizes:
            target = int(gb * 10**9)
            for fmt, writer, ours, library, label in (
                    ("safetensors", write_sparse_safetensors, ours_safetensors, library_safetensors, "safe_open"),
                    ("gguf", write_sparse_gguf, ours_gguf, library_gguf, "GGUFReader")):
                path = Path(folder) / f"bench-{gb:g}GB.{fmt}"
                count = writer(path, target)
                size = path.stat().st_size
                on_disk = path.stat().st_blocks * 512
                ours_ms, ours_total = _median_ms(lambda: ours(path), args.repeat)
                lib_ms, lib_total = _median_ms(lambda: library(path), args.repeat)
                assert ours_total == lib_total, (fmt, ours_total, lib_total)
                rows.append((fmt, f"{size / 1e9:.1f}", f"{on_disk / 1e6:.2f}", str(count), f"{ours_total:,}",
                             f"{ours_ms:.2f}", f"{lib_ms:.2f}", label, f"{ours_ms / lib_ms:.2f}"))
                path.unlink()
    head = ("format", "file GB", "on disk MB", "tensors", "values (both agree)", "paramledger ms", "library ms",
            "library", "ratio")
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    for row in [head, *rows]:
        print("  ".join(c.rjust(w) for c, w in zip(row, widths)))
    for fmt in ("safetensors", "gguf"):
        times = [float(r[5]) for r in rows if r[0] == fmt]
        print(f"{fmt}: paramledger's time at the largest file / at the smallest = {times[-1] / times[0]:.2f} "
              "(flat: the data section is never read)")


if __name__ == "__main__":
    main()
