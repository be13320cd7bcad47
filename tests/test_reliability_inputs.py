"""Issue 23: hostile config.json, spec files and --set values get one line on stderr, exit
status 2 and no traceback, in bounded time and memory (measured with ``resource``)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import paramledger
from paramledger._exceptions import ArchitectureError, FileFormatError, UnknownKeyError

MODELS = Path(paramledger.__file__).parent / "models"

# Runs the CLI in a child held to 2 GB of address space (resource.RLIMIT_AS) and writes its peak
# RSS in KiB to the file named by argv[1]: VmHWM, as ru_maxrss keeps the parent's peak across exec.
_CHILD = textwrap.dedent("""
    import resource, sys
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
    from paramledger.cli import main
    try:
        status = main(sys.argv[2:])
    finally:
        with open("/proc/self/status") as status_file:
            peak = next(line.split()[1] for line in status_file if line.startswith("VmHWM:"))
        with open(sys.argv[1], "w") as out:
            out.write(peak)
    sys.exit(status)
""")


def refused(cli, *argv: str, match: str) -> str:
    """The CLI refuses ``argv`` with one line matching ``match``, exit 2, nothing on stdout."""
    status, out, err = cli(*argv)
    assert "Traceback" not in err, err
    assert status == 2, (status, err)
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("paramledger: error: ")
    assert re.search(match, lines[0]), lines[0]
    assert out == ""
    return lines[0]


def refused_bounded(tmp_path: Path, *argv: str, match: str, seconds: float = 10,
                    megabytes: int = 300) -> str:
    """``refused`` in a child process, which must end within ``seconds`` and ``megabytes`` of RSS."""
    rss = tmp_path / "rss"
    run = subprocess.run([sys.executable, "-c", _CHILD, str(rss), *argv], capture_output=True, text=True,
                         timeout=seconds, cwd=tmp_path)
    assert "Traceback" not in run.stderr, run.stderr[-2000:]
    assert run.returncode == 2, run.stderr
    lines = run.stderr.splitlines()
    assert len(lines) == 1, run.stderr[:2000]
    assert re.search(match, lines[0]), lines[0]
    assert int(rss.read_text()) < megabytes * 1024, f"peak RSS {int(rss.read_text()) // 1024} MB"
    return lines[0]


def llama_config() -> dict:
    return json.loads((MODELS / "Llama-3.2-1B.json").read_text())["config"]


def write_config(folder: Path, text: str) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.json").write_text(text, encoding="utf-8")
    return str(folder)


def llama_with(tmp_path: Path, tail: str) -> str:
    """Llama-3.2-1B's config.json with ``tail`` (raw JSON text: "key": value) added."""
    text = json.dumps(llama_config())[:-1] + ", " + tail + "}"
    return write_config(tmp_path / "model", text)


# --------------------------------------------------------------------------- tracebacks 1, 2


def test_deeply_nested_config_json_is_refused(cli, tmp_path):
    source = llama_with(tmp_path, '"rope_scaling": ' + "[" * 1000 + "]" * 1000)
    refused(cli, "count", source, match=r"config\.json: nested too deeply \(more than 64 levels\)")


def test_deeply_nested_objects_in_config_json_are_refused(cli, tmp_path):
    source = llama_with(tmp_path, '"x": ' + '{"a": ' * 5000 + "1" + "}" * 5000)
    refused(cli, "count", source, match=r"nested too deeply \(more than 64 levels\)")


def test_brackets_inside_strings_do_not_count_as_nesting(cli, tmp_path):
    source = llama_with(tmp_path, '"note": "' + "[" * 1000 + '"')
    status, out, err = cli("count", source, "--json")
    assert status == 0, err
    assert json.loads(out)["total"] > 0


def test_deeply_nested_spec_toml_is_refused(cli, tmp_path):
    spec = tmp_path / "deep.toml"
    spec.write_text("hidden_size = " + "[" * 1000 + "]" * 1000 + "\n", encoding="utf-8")
    refused(cli, "count", str(spec), match=r"deep\.toml: nested too deeply \(more than 64 levels\)")


def test_nested_inline_tables_in_spec_toml_are_refused(cli, tmp_path):
    spec = tmp_path / "deep.toml"
    spec.write_text("x = " + "{a = " * 200 + "1" + "}" * 200 + "\n", encoding="utf-8")
    refused(cli, "count", str(spec), match=r"nested too deeply \(more than 64 levels\)")


def test_integer_of_5000_digits_in_config_json_is_refused(cli, tmp_path):
    source = llama_with(tmp_path, '"foo": ' + "9" * 5000)
    refused(cli, "count", source, match=r"config\.json: invalid JSON: Exceeds the limit \(4300 digits\)")


def test_integer_of_5000_digits_in_spec_toml_is_refused(cli, tmp_path):
    spec = tmp_path / "big.toml"
    spec.write_text("vocab_size = " + "9" * 5000 + "\n", encoding="utf-8")
    refused(cli, "count", str(spec), match=r"big\.toml: invalid TOML: Exceeds the limit")


@pytest.mark.parametrize("value", ["1e999999", "1e99999999", "1e-99999999", "9" * 5000])
def test_huge_number_in_set_is_refused_at_once(tmp_path, value):
    refused_bounded(tmp_path, "count", "seed-baseline", "--set", f"intermediate_ratio={value}",
                    match=r"--set intermediate_ratio: .*(exponent beyond ±400|more than 400 digits)")


@pytest.mark.parametrize("source", ["seed-baseline", "Llama-3.2-1B"])
def test_layer_count_beyond_the_bound_is_refused(cli, source):
    refused(cli, "count", source, "--set", "num_hidden_layers=10000000000000000000000",
            match=r"num_hidden_layers: 10,000,000,000,000,000,000,000 is beyond the bound of 10,000,000")


def test_layer_count_beyond_the_bound_in_config_json_is_refused(cli, tmp_path):
    config = llama_config() | {"num_hidden_layers": 2**63}
    refused(cli, "count", write_config(tmp_path / "m", json.dumps(config)),
            match=r"num_hidden_layers: 9,223,372,036,854,775,808 is beyond the bound of 10,000,000")


def test_altup_streams_beyond_the_bound_are_refused(tmp_path):
    refused_bounded(tmp_path, "count", "seed-baseline", "--set", "altup_num_inputs=1000000000",
                    match=r"altup_num_inputs: 1,000,000,000 is beyond the bound of 10,000,000")


def test_size_beyond_two_to_the_53_is_refused_through_the_api():
    with pytest.raises(ArchitectureError, match=r"vocab_size: 9,007,199,254,740,993 is beyond the bound"):
        paramledger.load("seed-baseline", vocab_size=2**53 + 1)


def test_set_source_is_refused_in_one_line(cli):
    refused(cli, "count", "seed-baseline", "--set", "source=x", match=r"\(override\): source: unknown key")


def test_set_source_on_a_config_is_refused_in_one_line(cli):
    refused(cli, "count", "Llama-3.2-1B", "--set", "source=x", match=r"\(override\): source: unknown key")


def test_load_takes_source_positionally_so_a_source_override_cannot_collide():
    with pytest.raises(UnknownKeyError, match="source: unknown key"):
        paramledger.load("seed-baseline", source="x")


# --------------------------------------------------------------------------- wrong answers 2, 3, 7


@pytest.mark.parametrize("value", ['"false"', '"no"', '"true"', "0", "1"])
def test_tie_word_embeddings_given_as_a_string_or_number_is_refused(cli, tmp_path, value):
    config = json.dumps(llama_config() | {"tie_word_embeddings": None})
    text = config.replace('"tie_word_embeddings": null', f'"tie_word_embeddings": {value}')
    refused(cli, "count", write_config(tmp_path / "m", text),
            match=r"config\.json: tie_word_embeddings: must be true or false, got ")


def test_set_tie_word_embeddings_false_still_reads_as_a_boolean(cli):
    status, out, err = cli("count", "Llama-3.2-1B", "--set", "tie_word_embeddings=false", "--json")
    assert status == 0, err
    tied = json.loads(cli("count", "Llama-3.2-1B", "--json")[1])["total"]
    assert json.loads(out)["total"] == tied + 262_668_288


def gpt_neo(attention_types) -> str:
    return json.dumps({"model_type": "gpt_neo", "vocab_size": 50257, "hidden_size": 64, "num_layers": 2,
                       "num_heads": 4, "attention_types": attention_types, "max_position_embeddings": 128})


def test_gpt_neo_attention_types_repeated_a_billion_times_is_refused(tmp_path):
    source = write_config(tmp_path / "neo", gpt_neo([[["global", "local"], 10**9]]))
    refused_bounded(tmp_path, "count", source, match=r"attention_types: expands to more than 10,000,000 layers")


def test_gpt_neo_attention_types_with_a_negative_repeat_is_refused(cli, tmp_path):
    source = write_config(tmp_path / "neo", gpt_neo([[["global", "local"], -5]]))
    refused(cli, "count", source, match=r"attention_types: each entry must be \[pattern, repeat\]")


def test_set_model_type_on_a_design_is_refused(cli):
    refused(cli, "count", "seed-baseline", "--set", "model_type=zzz", match=r"--set: model_type is 'paramledger'")


# --------------------------------------------------------------------------- runaway memory 5, 6


def test_config_json_of_200_mb_is_refused_before_it_is_parsed(tmp_path):
    folder = tmp_path / "huge"
    folder.mkdir()
    with open(folder / "config.json", "w") as out:
        out.write('{"model_type": "llama"')
        chunk = "".join(f', "k{i}": 0' for i in range(100_000))
        for _ in range(200 * 2**20 // len(chunk) + 1):
            out.write(chunk)
        out.write("}")
    refused_bounded(tmp_path, "count", str(folder), match=r"larger than the 16,777,216-byte bound for a config json")


def test_config_json_with_two_million_values_is_refused(cli, tmp_path):
    source = llama_with(tmp_path, '"x": [' + ",".join(["0"] * 2_000_000) + "]")
    refused(cli, "count", source, match=r"more than 1,000,000 values")


def test_count_of_a_2_gb_safetensors_file_points_to_inspect(tmp_path):
    weights = tmp_path / "model.safetensors"
    with open(weights, "wb") as out:
        header = b'{"w": {"dtype": "U8", "shape": [2147483648], "data_offsets": [0, 2147483648]}}'
        out.write(len(header).to_bytes(8, "little") + header)
        out.truncate(8 + len(header) + 2**31)  # sparse: no disk used
    refused_bounded(tmp_path, "count", str(weights), match=r"it is a checkpoint: read it with `paramledger inspect`",
                    megabytes=100)


def test_count_of_a_gguf_file_points_to_inspect(cli, tmp_path):
    weights = tmp_path / "weights.bin"
    weights.write_bytes(b"GGUF" + bytes(100))
    refused(cli, "count", str(weights), match=r"weights\.bin: not a JSON config; it is a checkpoint")


def test_a_real_config_is_read_unchanged(cli, tmp_path):
    source = write_config(tmp_path / "m", json.dumps(llama_config(), indent=2))
    status, out, err = cli("count", source, "--json")
    assert status == 0, err
    assert json.loads(out)["total"] == json.loads(cli("count", "Llama-3.2-1B", "--json")[1])["total"]


def test_json_bounds_refuse_in_the_api_with_the_file_named():
    from paramledger.limits import json_text

    with pytest.raises(FileFormatError, match=r"^x\.json: nested too deeply"):
        json_text("[" * 65 + "]" * 65, "x.json")
    assert json_text("[" * 64 + "]" * 64, "x.json") is not None


def test_environment_has_the_default_int_limit():
    assert sys.get_int_max_str_digits() in (0, 4300) or os.environ.get("PYTHONINTMAXSTRDIGITS")


# ---------------------------------------------------------------- found by the input fuzzer (test_fuzz_inputs.py)
def test_quant_method_as_a_list_is_read_as_unknown_not_a_traceback(cli, tmp_path):
    config = llama_config() | {"quantization_config": {"quant_method": []}}
    (tmp_path / "config.json").write_text(json.dumps(config))
    status, out, err = cli("memory", str(tmp_path / "config.json"))
    assert status == 0 and err == ""
    words = " ".join(out.split())  # the assumption wraps under its figure
    assert "quant_method [] is not one paramledger reads" in words and "sized at bf16 (torch_dtype)" in words


@pytest.mark.parametrize("value", ["2147483647", "9223372036854775808"])
def test_whatif_vary_holds_the_bound_set_holds(cli, value):
    refused(cli, "whatif", "seed-baseline", "--vary", f"num_hidden_layers={value}",
            match=r"--vary num_hidden_layers=\d+: num_hidden_layers: [\d,]+ is beyond the bound of 10,000,000")


@pytest.mark.parametrize(("value", "match"), [("2.0e7", "20,000,000 is beyond the bound"),
                                              ("1e308", "a 309-digit number is beyond the bound"),
                                              ("nan", "must be a whole number, got nan")])
def test_a_specs_whole_float_is_bounded_as_its_integer(cli, tmp_path, value, match):
    spec = tmp_path / "spec.toml"
    spec.write_text(f"vocab_size = 32768\nhidden_size = 256\nnum_hidden_layers = {value}\nnum_attention_heads = 4\n")
    refused(cli, "count", str(spec), match=f"num_hidden_layers: {match}")
