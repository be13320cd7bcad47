"""Fuzzing the header readers: valid files written by the real libraries, mutated.

Whatever the bytes, a reader either returns or raises one of paramledger's own errors
(never a bare exception), and its peak allocation stays small (tracemalloc): the header
length and every count are bounded before anything is allocated for them. Each verdict is
the library's own (safetensors' safe_open, gguf's GGUFReader): the same tensors when both
read the file, and a refusal where the library refuses, but for the few rules listed below
where the two differ on purpose. CI runs 300 examples per test; the 100,000-example runs
are marked slow, and each test's counts are printed in the terminal summary.
"""

from __future__ import annotations

import contextlib
import json
import os
import pickle
import re
import resource
import signal
import struct
import tempfile
import time
import tracemalloc
from pathlib import Path

import numpy as np
import pytest
from _fuzz_counts import fuzz_counts_reported, measured, tally  # noqa: F401 (the fixture prints the counts)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paramledger._exceptions import ParamledgerError
from paramledger.checkpoints.gguf import read_gguf
from paramledger.checkpoints.safetensors import read_safetensors

PEAK_BOUND = 8 * 2**20  # bytes; every seed file is under 4 KB, so a reader allocating more is unbounded


def _safetensors_seeds() -> list[bytes]:
    import safetensors.numpy

    return [
        safetensors.numpy.save({"a": np.zeros((2, 3), np.float32), "b": np.zeros(4, np.float16)},
                               metadata={"format": "np"}),
        safetensors.numpy.save({"model.embed_tokens.weight": np.zeros((8, 4), np.int8),
                                "model.norm.weight": np.zeros(4, np.float64), "s": np.zeros((), np.int32)}),
    ]


def _gguf_seed() -> bytes:
    import gguf

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "seed.gguf"
        writer = gguf.GGUFWriter(str(path), "llama")
        writer.add_uint32("llama.block_count", 1)
        writer.add_array("tokenizer.ggml.tokens", ["a", "b", "c"])
        writer.add_array("tokenizer.ggml.scores", [0.5] * 70)
        writer.add_tensor("token_embd.weight", np.zeros((3, 32), np.float32))
        block, block_bytes = gguf.GGML_QUANT_SIZES[gguf.GGMLQuantizationType.Q8_0]
        writer.add_tensor("blk.0.attn_q.weight", np.zeros((2, 64 // block * block_bytes), np.uint8),
                          raw_shape=(2, 64 // block * block_bytes), raw_dtype=gguf.GGMLQuantizationType.Q8_0)
        writer.write_header_to_file()
        writer.write_kv_data_to_file()
        writer.write_tensors_to_file()
        writer.close()
        return path.read_bytes()


SAFETENSORS_SEEDS = _safetensors_seeds()
GGUF_SEED = _gguf_seed()
_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12)


@st.composite
def mutated(draw, seeds: list[bytes]) -> bytes:
    data = bytearray(draw(st.sampled_from(seeds)))
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["flip", "overwrite", "truncate", "insert", "u64", "u32"]))
        at = draw(st.integers(0, max(len(data) - 1, 0)))
        if op == "flip" and data:
            data[at] ^= 1 << draw(st.integers(0, 7))
        elif op == "overwrite":
            chunk = draw(st.binary(min_size=1, max_size=8))
            data[at:at + len(chunk)] = chunk
        elif op == "truncate":
            del data[at:]
        elif op == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=16))
        elif op in ("u64", "u32"):  # a count or a length: the fields a header lies with
            fmt, top = ("<Q", 2**64 - 1) if op == "u64" else ("<I", 2**32 - 1)
            value = draw(st.integers(0, top) | st.sampled_from([0, 1, top, 2**31, 10**8, 100_000_001]))
            data[at:at + struct.calcsize(fmt)] = struct.pack(fmt, value)
    return bytes(data)


@st.composite
def rewritten_safetensors_header(draw) -> bytes:
    """A structurally plausible header with one field replaced by any JSON value."""
    header = {"w": {"dtype": "F32", "shape": [2, 2], "data_offsets": [0, 16]},
              "v": {"dtype": "F16", "shape": [4], "data_offsets": [16, 24]}}
    tensor = draw(st.sampled_from(["w", "v"]))
    field = draw(st.sampled_from(["dtype", "shape", "data_offsets", "__metadata__", "extra"]))
    value = draw(_JSON_VALUES)
    if field == "__metadata__":
        header["__metadata__"] = value
    else:
        header[tensor][field] = value
    raw = json.dumps(header).encode()
    return struct.pack("<Q", len(raw)) + raw + b"\0" * draw(st.integers(0, 32))


def _safetensors_library(path: str) -> dict[str, tuple]:
    from safetensors import safe_open

    with safe_open(path, "np") as opened:
        return {name: (opened.get_slice(name).get_dtype(), tuple(opened.get_slice(name).get_shape()))
                for name in opened.keys()}  # noqa: SIM118 (safe_open is not iterable)


def _gguf_library(path: str) -> dict[str, tuple]:
    import gguf

    return {tensor.name: (tensor.tensor_type.name, tuple(int(size) for size in reversed(tensor.shape)))
            for tensor in gguf.GGUFReader(path).tensors}


# Where paramledger's verdict differs from the Python library's on purpose, by the reader's
# file suffix: refusals it adds (the library reads on) and the library's refusals it does not share.
_STRICTER = {
    # llama.cpp's gguf_init_from_file_impl (ggml/src/gguf.cpp) refuses "tensor ... has offset %zu,
    # expected %zu": each tensor starts where the one before it ends, aligned; GGUFReader never checks.
    # And a value type past GGUF_TYPE_COUNT, which gguf.cpp refuses as "invalid type" (a v2 file's array of
    # type 262 was read by GGUFReader in the 100,000-example run).  And an array longer than the bytes left:
    # gguf.cpp's reads fail at the end of the file, while GGUFReader's memmap slices come back short (a
    # 70-entry float array with 4 bytes left read as 70 "values" of one part each, at 52,413 examples).
    # And more than GGML_MAX_DIMS (4) dimensions, which gguf.cpp refuses as "invalid number of dimensions"
    # (a 6-dim tensor was read by GGUFReader at 22,168 examples).
    ".gguf": re.compile(r"offset [\d,]+ where the previous tensors end at [\d,]+|of unknown value type \d+"
                        r"|array length of '[^']*' [\d,]+ is more than the [\d,]+ bytes left"
                        r"|\d+ dims \(GGML allows at most 4\)"),
}
_LIBRARY_STRICTER = {
    # GGUFReader decodes every key and name as strict UTF-8; llama.cpp's gguf.cpp reads them as bytes
    # and so does paramledger (U+FFFD for a bad byte).
    ".gguf": (UnicodeDecodeError,),
}
REFERENCE_SECONDS = 10  # a library left reading longer gives no verdict for that example


class _ReferenceTimeout(BaseException):
    pass


def _alarm(signum, frame):
    raise _ReferenceTimeout


@contextlib.contextmanager
def _address_space(headroom: int = 2 * 2**30):
    """At most ``headroom`` more bytes of private writable memory (RLIMIT_DATA over the process's VmData): a
    runaway allocation raises MemoryError rather than waking the OOM killer.  The address space (RLIMIT_AS over
    VmSize) was bounded before, but VmSize counts reservations never touched, and GGUFReader's millions of memmap
    views of one hostile file grew past 23 GB of RSS under it in the 100,000-example run."""
    with open("/proc/self/status") as status:
        data = next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmData:"))
    soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
    resource.setrlimit(resource.RLIMIT_DATA, (data + headroom, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_DATA, (soft, hard))


def _library_verdict(library, path: str) -> tuple[str, object]:
    """The library's verdict, worked out in a forked child: whatever it allocates (GGUFReader's millions of memmap
    views of one hostile file, which stayed allocated across examples: 17.6 GB by minute 9 of the 100,000-example
    run) goes back when the child ends; its time and private memory are bounded there too."""
    incoming, outgoing = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: one verdict, pickled to the parent, then gone
        try:
            os.close(incoming)
            verdict = _verdict_here(library, path)
            try:
                payload = pickle.dumps(verdict)
            except Exception:  # noqa: BLE001 (an exception that does not pickle: its words are enough)
                payload = pickle.dumps(("refused", RuntimeError(repr(verdict[1])[:200])))
            with os.fdopen(outgoing, "wb") as out:
                out.write(payload)
        finally:
            os._exit(0)
    os.close(outgoing)
    with os.fdopen(incoming, "rb") as reply:
        payload = reply.read()
    os.waitpid(pid, 0)
    return pickle.loads(payload) if payload else ("out of memory", None)  # a child killed for its memory


def _verdict_here(library, path: str) -> tuple[str, object]:
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(REFERENCE_SECONDS)
    try:
        with _address_space():
            return "read", library(path)
    except _ReferenceTimeout:
        return "timeout", None
    except MemoryError:  # the library's allocation, not a verdict
        return "out of memory", None
    except Exception as error:  # noqa: BLE001 (any exception is the library's refusal)
        return "refused", error
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _read_bounded(reader, data: bytes, test: str, library, suffix: str = ".safetensors") -> None:
    """``reader`` on ``data``: one of paramledger's errors in one line naming the file, or tensors; a small
    peak allocation; and ``library``'s verdict (tallied under ``test``)."""
    with tempfile.NamedTemporaryFile(suffix=".bin") as handle:
        handle.write(data)
        handle.flush()
        refusal = None
        tracemalloc.start()
        start = time.monotonic()
        try:
            with _address_space():
                tensors = {tensor.name: (tensor.dtype, tuple(tensor.shape)) for tensor in reader(handle.name).tensors}
        except ParamledgerError as error:
            refusal = str(error)
            assert "\n" not in refusal and handle.name in refusal
        finally:
            _, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
            measured(f"{len(data):,} bytes", time.monotonic() - start, peak, "peak allocation")
        assert peak < PEAK_BOUND, f"peak allocation {peak:,} bytes"
        verdict, answer = _library_verdict(library, handle.name)
    ours = "refused" if refusal is not None else "read"
    outcome = f"{ours}, library {verdict}"
    if verdict == "read" and ours == "read":
        assert tensors == answer, (data, tensors, answer)
    elif verdict == "read":
        stricter = _STRICTER.get(suffix)
        assert stricter is not None and stricter.search(refusal), (data, refusal, "the library reads it")
        outcome += " (a rule the library lacks)"
    elif verdict == "refused" and ours == "read":
        assert isinstance(answer, _LIBRARY_STRICTER.get(suffix, ())), (data, repr(answer), "we read it")
        outcome += f" ({type(answer).__name__})"
    tally(test, outcome)


# A few hundred examples each in CI (a read takes about a millisecond), above the "ci"
# profile's 40: mutations are cheap and the bugs they find are rare.
_FUZZ = settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
                 deadline=None)


@_FUZZ
@given(mutated(SAFETENSORS_SEEDS))
def test_mutated_safetensors(data):
    _read_bounded(read_safetensors, data, "mutated safetensors (CI)", _safetensors_library)


@_FUZZ
@given(rewritten_safetensors_header())
def test_rewritten_safetensors_headers(data):
    _read_bounded(read_safetensors, data, "rewritten safetensors headers (CI)", _safetensors_library)


@_FUZZ
@given(mutated([GGUF_SEED]))
def test_mutated_gguf(data):
    _read_bounded(read_gguf, data, "mutated GGUF (CI)", _gguf_library, ".gguf")


def test_seeds_are_valid():
    with tempfile.NamedTemporaryFile() as handle:
        handle.write(GGUF_SEED)
        handle.flush()
        assert len(read_gguf(handle.name).tensors) == 2
    for seed in SAFETENSORS_SEEDS:
        with tempfile.NamedTemporaryFile() as handle:
            handle.write(seed)
            handle.flush()
            assert read_safetensors(handle.name).tensors


# 100,000 examples each (issue 23), each compared with the library's verdict: about 15 minutes for the three.
_LONG = settings(max_examples=100_000, suppress_health_check=list(HealthCheck), deadline=None)


@pytest.mark.slow
@_LONG
@given(mutated(SAFETENSORS_SEEDS))
def test_mutated_safetensors_100000(data):
    _read_bounded(read_safetensors, data, "mutated safetensors", _safetensors_library)


@pytest.mark.slow
@_LONG
@given(rewritten_safetensors_header())
def test_rewritten_safetensors_headers_100000(data):
    _read_bounded(read_safetensors, data, "rewritten safetensors headers", _safetensors_library)


# In two halves of 50,000 (random examples each, tallied together): each half can run in a process of its own
# (`-k "gguf_100000 and half0"`), as a whole run takes about 40 minutes on one core of this machine.
_HALF = settings(_LONG, max_examples=50_000)


@pytest.mark.slow
@pytest.mark.parametrize("half", ["half0", "half1"])
@_HALF
@given(data=mutated([GGUF_SEED]))
def test_mutated_gguf_100000(half, data):
    _read_bounded(read_gguf, data, "mutated GGUF", _gguf_library, ".gguf")
