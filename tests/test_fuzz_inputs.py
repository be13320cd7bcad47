"""Issue 23, fuzzing at scale: the bundled real config.json files and spec files mutated (their JSON or
TOML structure and their bytes), `--set` on real keys, and the numbers `memory`, `fit`, `formula` and
`whatif` take, run through the CLI in-process (``_fuzz_cli.run``: one line and exit 2, or valid output;
no traceback; under 10 s and 245 MB of RSS growth each).

CI runs a few hundred examples per surface; the 10,000-example runs are marked slow. Each test's counts
(examples, refused, accepted) are printed in the terminal summary.
"""

from __future__ import annotations

import json
import tempfile
import tomllib
from pathlib import Path

import pytest
from _fuzz_cli import run
from _fuzz_counts import fuzz_counts_reported, tally  # noqa: F401 (the fixture prints the counts)
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from paramledger import Architecture
from paramledger.fit.catalog import GPUS
from paramledger.sources import bundled_designs, bundled_models

CONFIGS = {name: json.loads(path.read_text(encoding="utf-8"))["config"] for name, path in bundled_models().items()}
SPECS = {name: tomllib.loads(path.read_text(encoding="utf-8")) for name, path in bundled_designs().items()}
SOURCES = sorted(SPECS) + sorted(CONFIGS)
FIELDS = Architecture.field_names()
# Every key some real config or spec holds, for a key spliced from one model into another.
REAL_KEYS = sorted({key for config in [*CONFIGS.values(), *SPECS.values()] for key in config})
# The engine's keys each source gives itself: a change of one of these is the likeliest to be counted.
OWN_FIELDS = {name: sorted(set(config) & set(FIELDS)) or FIELDS for name, config in [*CONFIGS.items(), *SPECS.items()]}

_WORK = tempfile.TemporaryDirectory(prefix="paramledger-fuzz-")  # one folder, each example overwrites its file
WORK = Path(_WORK.name)

# --------------------------------------------------------------------------- values


_EDGE_INTEGERS = [-(2**63), -1, 0, 1, 2, 3, 7, 2**31 - 1, 2**31, 2**32, 2**53 + 1, 2**63, 2**64, 10**7, 10**7 + 1,
                  10**30, 10**300]
_EDGE_STRINGS = ["", " ", "0", "32", "-1", "1e3", "nan", "inf", "true", "false", "none", "null", "llama", "rmsnorm",
                 "\u0663\u0662", "\U0001f600", "\x00", "\u202e", "a" * 300, "[1, 2]"]
_SCALARS = st.one_of(
    st.integers(-3, 4096), st.sampled_from(_EDGE_INTEGERS), st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.5, -0.0, 1e-300, 1e308, 2.0**53, 1.5]), st.booleans(), st.none(),
    st.text(max_size=12), st.sampled_from(_EDGE_STRINGS))
_JSON_VALUES = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=4)
                            | st.dictionaries(st.text(max_size=8) | st.sampled_from(REAL_KEYS), inner, max_size=4),
                            max_leaves=10)


@st.composite
def hostile_value(draw, old=None):
    """A value to put where ``old`` was: a scalar or structure of any type, the old number moved to an
    edge, or a deep or long structure."""
    kind = draw(st.sampled_from(["any", "any", "number", "nested", "long"]))
    if kind == "number" and isinstance(old, (int, float)) and not isinstance(old, bool):
        change = draw(st.sampled_from(["negate", "zero", "plus", "minus", "times", "float", "string", "half"]))
        return {"negate": -old, "zero": 0, "plus": old + 1, "minus": old - 1, "times": old * 10**draw(st.integers(1, 30)),
                "float": float(old), "string": str(old), "half": old / 2}[change]
    if kind == "nested":
        depth = draw(st.sampled_from([2, 10, 63, 64, 65, 200]))
        value = draw(_SCALARS)
        for _ in range(depth):
            value = [value] if draw(st.booleans()) else {"a": value}
        return value
    if kind == "long":
        return [draw(st.sampled_from([0, 1, "global", None]))] * draw(st.sampled_from([100, 10_000, 200_000]))
    return draw(_JSON_VALUES)


def misspelt(draw, key: str) -> str:
    how = draw(st.sampled_from(["drop", "double", "swap", "upper", "suffix", "prefix", "unicode"]))
    at = draw(st.integers(0, max(len(key) - 1, 0)))
    if how == "drop":
        return key[:at] + key[at + 1:]
    if how == "double":
        return key[:at] + key[at:at + 1] * 2 + key[at + 1:]
    if how == "swap" and len(key) > 1:
        at = min(at, len(key) - 2)
        return key[:at] + key[at + 1] + key[at] + key[at + 2:]
    if how == "upper":
        return key.upper()
    if how == "prefix":
        return draw(st.sampled_from(["n_", "num_", "text_", "_"])) + key
    if how == "unicode":
        return key.replace("i", "\u0456", 1) if "i" in key else key + "\u200b"
    return key + draw(st.sampled_from(["_", "s", "2", " "]))


def _containers(value):
    """Every dict and non-empty list in ``value`` (the top first; a list's first 8 items only)."""
    if isinstance(value, dict):
        yield value
        for inner in value.values():
            yield from _containers(inner)
    elif isinstance(value, list) and value:
        yield value
        for inner in value[:8]:
            yield from _containers(inner)


@st.composite
def mutated_mapping(draw, original: dict) -> object:
    """``original`` (a real config or spec) after 1-4 structural mutations: a key dropped, misspelt or
    taken from another model, a value of another type or at an edge; now and then not a mapping at all."""
    mapping = json.loads(json.dumps(original))  # a deep copy
    for _ in range(draw(st.integers(1, 4))):
        places = list(_containers(mapping))
        if not places:
            break
        node = places[0] if draw(st.integers(0, 2)) else draw(st.sampled_from(places))
        op = draw(st.sampled_from(["drop", "rename", "value", "value", "value", "add", "splice"]))
        if isinstance(node, list):
            at = draw(st.integers(0, len(node) - 1))
            if op == "drop":
                del node[at]
            else:
                node[at] = draw(hostile_value(node[at]))
            continue
        if not node:
            op = "add"
        key = draw(st.sampled_from(sorted(node))) if node else ""
        if op == "drop":
            del node[key]
        elif op == "rename":
            node[misspelt(draw, key)] = node.pop(key)
        elif op == "value":
            node[key] = draw(hostile_value(node[key]))
        elif op == "add":
            node[draw(st.text(min_size=1, max_size=12))] = draw(hostile_value())
        else:  # another real model's key, at that model's value or a hostile one
            donor = draw(st.sampled_from(sorted(CONFIGS)))
            donor_key = draw(st.sampled_from(sorted(CONFIGS[donor])))
            kept = draw(st.booleans())  # a copy: a later mutation must not reach into CONFIGS
            node[donor_key] = json.loads(json.dumps(CONFIGS[donor][donor_key])) if kept else draw(hostile_value())
    if draw(st.integers(0, 49)) == 0:
        return draw(st.sampled_from([[], [mapping], "config", 0, None]))
    return mapping


_BYTE_TOKENS = [b"NaN", b"Infinity", b"-Infinity", b"1e999", b"9" * 5000, b"\\ud800", b"\xff\xfe", b"\xc3", b"{", b"[",
           b"]", b"}", b",", b'"', b"\x00", b"\xe2\x80\xae", b"'", b"=", b"\n[x]\n", b"\\", b"-0", b"0x10", b"1_0"]


@st.composite
def mutated_bytes(draw, text: bytes) -> bytes:
    data = bytearray(text)
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["flip", "truncate", "insert", "insert", "delete"]))
        at = draw(st.integers(0, max(len(data) - 1, 0)))
        if op == "flip" and data:
            data[at] ^= 1 << draw(st.integers(0, 7))
        elif op == "truncate":
            del data[at:]
        elif op == "insert":
            data[at:at] = draw(st.sampled_from(_BYTE_TOKENS) | st.binary(min_size=1, max_size=8))
        else:
            del data[at:at + draw(st.integers(1, 16))]
    return bytes(data)


def _toml_string(text: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's; a lone surrogate, which UTF-8 cannot hold, becomes ?)."""
    return json.dumps(text.encode("utf-8", "replace").decode("utf-8"), ensure_ascii=False)


def toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)  # TOML spells nan, inf and -inf as Python does
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(inner) for inner in value if inner is not None) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_toml_string(key)} = {toml_value(inner)}" for key, inner in value.items()
                               if inner is not None) + "}"
    raise TypeError(value)


def toml_text(mapping) -> str:
    """A spec file holding ``mapping`` (TOML has no null: a key set to None is left out)."""
    if not isinstance(mapping, dict):
        return f"x = {toml_value(mapping) if mapping is not None else 1}\n"
    return "".join(f"{_toml_string(key)} = {toml_value(value)}\n" for key, value in mapping.items() if value is not None)


# --------------------------------------------------------------------------- inputs


_FILE_COMMANDS = [["count", "--json"], ["count", "--json"], ["count"], ["memory", "--json"],
                  ["fit", "--gpu", "h100", "--json"], ["whatif", "--vary", "num_hidden_layers=2", "--json"],
                  ["formula", "--json"]]


@st.composite
def config_inputs(draw) -> tuple[list[str], bytes]:
    name = draw(st.sampled_from(sorted(CONFIGS)))
    if draw(st.integers(0, 3)):
        data = json.dumps(draw(mutated_mapping(CONFIGS[name])), indent=draw(st.sampled_from([None, 2]))).encode()
    else:
        data = draw(mutated_bytes(json.dumps(CONFIGS[name], indent=2).encode()))
    return draw(st.sampled_from(_FILE_COMMANDS)), data


@st.composite
def spec_inputs(draw) -> tuple[list[str], bytes]:
    name = draw(st.sampled_from(sorted(SPECS)))
    if draw(st.integers(0, 3)):
        data = toml_text(draw(mutated_mapping(SPECS[name]))).encode("utf-8", "surrogatepass")
    else:
        data = draw(mutated_bytes(toml_text(SPECS[name]).encode()))
    return draw(st.sampled_from(_FILE_COMMANDS)), data


_NUMBER_WORDS = ["", " ", "nan", "inf", "-inf", "1e400", "1e-400", "1e999999", "9" * 401, "0x10", "1_000", "08",
                 "\u0663", "\uff18", "8/3", "1/0", "0/0", "50%", "150%", "-5%", "2T", "128k", "1M", "20B", "1.5",
                 "-0", "+3", "true", "false", "none", "null", "[1, 2]", "{}", "0,1", "1,,2", "=", "x", "8 ", " 8",
                 "24GB", "24GiB", "0GB", "-1GiB", "1e30TB", "500 MiB", "512MiB", "1.5GB", "NaNGB", "1kB", "3 KiB"]


@st.composite
def number_text(draw) -> str:
    """A number as a user might type it, or a near-number: integers at the edges, floats, fractions,
    percentages, k/M/B/T and byte-unit suffixes, words."""
    kind = draw(st.integers(0, 4))
    if kind == 0:
        return str(draw(st.integers(-3, 2**20) | st.sampled_from(_EDGE_INTEGERS)))
    if kind == 1:
        return repr(draw(st.floats(allow_nan=True, allow_infinity=True)))
    if kind == 2:
        number = draw(st.integers(0, 10**6).map(str) | st.sampled_from(["0.5", "1e3", "-2", "1e20", "1.5"]))
        return number + draw(st.sampled_from(["k", "M", "B", "T", "GB", "GiB", "MB", "MiB", "kB", "TiB", "%", "e3",
                                              "e400", "/3", "/0", " GB", "gb"]))
    if kind == 3:
        return draw(st.sampled_from(_NUMBER_WORDS))
    return draw(st.text(max_size=8))


# Mostly the keys the engine reads (HF names), sometimes any key a real config holds.
_KEYS = st.one_of(st.sampled_from(FIELDS), st.sampled_from(FIELDS), st.sampled_from(FIELDS), st.sampled_from(REAL_KEYS))


def _mostly(plausible: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """Two draws in three a value a user would give, else any of number_text's: enough runs get past
    parsing to exercise what comes after it."""
    return st.one_of(plausible, plausible, number_text())


_SETTING = _mostly(st.integers(0, 8192).map(str) | st.sampled_from(["true", "false", "1", "2", "64", "128"]))
_COUNT = _mostly(st.integers(1, 64).map(str) | st.sampled_from(["1", "2", "4", "8"]))
_TOKEN_COUNT = _mostly(st.sampled_from(["1", "512", "4096", "8k", "128k", "1M", "2T", "15e12"]))
_SIZE = _mostly(st.sampled_from(["24GB", "80GiB", "500MiB", "1GB", "0.5GiB", "192GB", "0B", "16 GB"]))
_FRACTION = _mostly(st.sampled_from(["0.9", "0.5", "1", "0.95", "1/2", "50%"]))


@st.composite
def set_inputs(draw) -> list[str]:
    source = draw(st.sampled_from(SOURCES))
    argv = [*draw(st.sampled_from(_FILE_COMMANDS[:5])), source]
    for _ in range(draw(st.integers(1, 4))):
        key = draw(st.one_of(_KEYS, st.sampled_from(OWN_FIELDS[source])))
        if draw(st.integers(0, 9)) == 0:
            key = misspelt(draw, key)
        argv += ["--set", f"{key}={draw(_SETTING)}"]
    return argv


_DTYPES = ["fp32", "fp16", "bf16", "fp8_e4m3", "fp8_e5m2", "int8", "int4", "int4_asym", "nf4", "nf4_dq", "fp4",
           "mxfp4", "mxfp6_e2m3", "mxfp6_e3m2", "mxfp8_e4m3", "Q4_K_M", "Q5_K_M", "Q8_0", "IQ4_XS", "Q2_K", "F16",
           "q4_k_m", "int3", "", "bf16 ", "fp8"]
_COMPONENTS = ["embedding", "norm", "lm_head", "experts", "vectors", "attention", "ffn", "router", "x", ""]
_RECIPES = ["fp32-adam", "bf16-mixed-adam", "fp16-mixed-adam", "adam", ""]


def _some(draw, options: dict) -> list[str]:
    """A random subset of ``options`` (flag -> strategy of its value, or None for a bare flag)."""
    argv = []
    for flag in draw(st.lists(st.sampled_from(sorted(options)), max_size=5, unique=True)):
        argv += [flag] if options[flag] is None else [flag, draw(options[flag])]
    return argv


def _source(draw) -> list[str]:
    source = [draw(st.sampled_from(SOURCES))]
    if draw(st.integers(0, 4)) == 0:
        source += ["--set", f"{draw(st.sampled_from(OWN_FIELDS[source[0]]))}={draw(_SETTING)}"]
    return source


_DTYPE = st.sampled_from(_DTYPES) | st.text(max_size=6)
_SHARED = {"--dtype": _DTYPE, "--kv-dtype": _DTYPE, "--context": _TOKEN_COUNT, "--batch": _COUNT,
           "--keep": st.builds("{}={}".format, st.sampled_from(_COMPONENTS), _DTYPE),
           "--training": st.sampled_from(_RECIPES), "--zero": _mostly(st.sampled_from(["1", "2", "3"])),
           "--json": None}


@st.composite
def memory_inputs(draw) -> list[str]:
    options = _SHARED | {"--group-size": _mostly(st.sampled_from(["32", "64", "128", "256"])), "--devices": _COUNT,
                         "--tokens": _TOKEN_COUNT, "--flops": None}
    return ["memory", *_source(draw), *_some(draw, options)]


@st.composite
def fit_inputs(draw) -> list[str]:
    device = (["--gpu", draw(st.sampled_from(sorted(GPUS)) | st.text(max_size=6))] if draw(st.booleans())
              else ["--gpu-memory", draw(_SIZE)])
    options = _SHARED | {flag: _COUNT for flag in ["--gpus", "--tp", "--pp", "--ep"]}
    options |= {flag: _SIZE for flag in ["--cuda-context", "--non-torch-memory", "--cuda-graphs",
                                         "--activation-memory"]}
    options |= {"--block-size": _TOKEN_COUNT, "--max-batched-tokens": _TOKEN_COUNT, "--gpu-memory-utilization": _FRACTION,
                "--pp-layer-partition": st.lists(_COUNT, min_size=1, max_size=4).map(",".join)}
    return ["fit", *_source(draw), *device, *_some(draw, options)]


@st.composite
def formula_inputs(draw) -> list[str]:
    options = {"--solve": st.sampled_from(["vocab_size", "hidden_size", "num_hidden_layers", "intermediate_size"])
               | _KEYS, "--budget": _mostly(st.sampled_from(["20M", "1B", "7e9", "20_000_000", "100"])),
               "--share": _FRACTION, "--json": None}
    return ["formula", *_source(draw), *_some(draw, options)]


@st.composite
def whatif_inputs(draw) -> list[str]:
    argv = ["whatif", *_source(draw)]
    own = st.sampled_from(OWN_FIELDS[argv[1]])
    for _ in range(draw(st.integers(1, 3))):
        pairs = draw(st.lists(st.tuples(st.one_of(own, own, _KEYS), _SETTING), min_size=1, max_size=2))
        argv += ["--vary", ",".join(f"{key}={value}" for key, value in pairs)]
    return argv + (["--json"] if draw(st.booleans()) else [])


# --------------------------------------------------------------------------- the checks


def _parsed(data: bytes, name: str):
    try:
        return json.loads(data) if name == "config.json" else tomllib.loads(data.decode("utf-8"))
    except ValueError:
        return None


# Bugs found by this fuzzing in files this test's author does not own, each with its reproducer; an input
# of that exact shape is tallied as "known bug" and not run, so that the rest of the surface still is.
# Delete an entry once its bug is fixed.
KNOWN_BUGS: dict = {  # none known: each found so far is fixed and has its named test (test_reliability_*.py)
}


def check_file(test: str, argv: list[str], data: bytes, name: str) -> None:
    """Writes ``data`` as ``name`` in the work folder and runs ``argv`` on it (the folder for a config)."""
    path = WORK / name
    path.write_bytes(data)
    note(f"{path}: {data[:3000]!r}")
    config = _parsed(data, name) if name == "spec.toml" or b"quant" in data else None
    known = next((bug for bug, matches in KNOWN_BUGS.items() if matches(config)), None)
    if known:
        tally(test, f"known bug, not run ({known})")
        return
    tally(test, run([*argv[:1], str(WORK if name == "config.json" else path), *argv[1:]]))


# As KNOWN_BUGS, for a command line.
KNOWN_ARGV_BUGS: dict = {  # none known: formula at 10^7 layers holds one design's layers at a time (210 MB)
}

def check_argv(test: str, argv: list[str]) -> None:
    note(f"paramledger {' '.join(argv)!r}")
    known = next((bug for bug, matches in KNOWN_ARGV_BUGS.items() if matches(argv)), None)
    if known:
        tally(test, f"known bug, not run ({known})")
        return
    tally(test, run(argv))


def _fuzz(examples: int):
    return settings(max_examples=examples, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much, HealthCheck.large_base_example])


SURFACES = {  # name: (strategy, check, CI examples)
    "config.json": (config_inputs(), lambda test, example: check_file(test, *example, "config.json"), 200),
    "spec file": (spec_inputs(), lambda test, example: check_file(test, *example, "spec.toml"), 200),
    "--set": (set_inputs(), check_argv, 200),
    "memory": (memory_inputs(), check_argv, 100),
    "fit": (fit_inputs(), check_argv, 100),
    "formula": (formula_inputs(), check_argv, 60),
    "whatif": (whatif_inputs(), check_argv, 100),
}


def _test(surface: str, examples: int, label: str):
    strategy, check, _ = SURFACES[surface]

    @_fuzz(examples)
    @given(strategy)
    def test(example):
        check(label, example)

    return test


for _surface, (_strategy, _check, _examples) in SURFACES.items():
    _name = _surface.strip("-").replace(".", "_").replace(" ", "_")
    globals()[f"test_fuzz_{_name}"] = _test(_surface, _examples, f"{_surface} (CI)")
    globals()[f"test_fuzz_{_name}_10000"] = pytest.mark.slow(_test(_surface, 10_000, _surface))
