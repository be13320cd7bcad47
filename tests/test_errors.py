"""Every refused input: a one-line message naming the key and the place, exit status 2."""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import paramledger
from paramledger import Architecture, ArchitectureError, FileFormatError, SourceError, UnknownKeyError

BASE = {"vocab_size": 100, "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4}


@pytest.mark.parametrize("changes,match", [
    ({"num_attention_heads": 6}, r"num_attention_heads: 6 heads do not divide hidden_size=64; set head_dim"),
    ({"num_key_value_heads": 3}, r"num_key_value_heads: 3 does not divide num_attention_heads=4"),
    ({"hidden_size": 0}, r"hidden_size: must be positive, got 0"),
    ({"num_hidden_layers": -1}, r"num_hidden_layers: must be positive, got -1"),
    ({"vocab_size": 2.5}, r"vocab_size: must be a whole number, got 2.5"),
    ({"vocab_size": True}, r"vocab_size: must be a whole number, got True"),
    ({"head_dim": 0}, r"head_dim: must be positive, got 0"),
    ({"intermediate_size": -4}, r"intermediate_size: must be positive, got -4"),
    ({"norm_type": "rmsnrom"}, r"norm_type: 'rmsnrom' is not one of .* \(did you mean 'rmsnorm'\?\)"),
    ({"norm_placement": "middle"}, r"norm_placement: 'middle' is not one of pre, post, sandwich"),
    ({"position_embedding_type": "rotary"}, r"position_embedding_type: 'rotary' is not one of"),
    ({"tie_word_embeddings": "maybe"}, r"tie_word_embeddings: must be true or false, got 'maybe'"),
    ({"num_experts": 4, "num_experts_per_tok": 5}, r"num_experts_per_tok: must be between 1 and num_experts=4, got 5"),
    ({"num_experts_per_tok": 2}, r"num_experts_per_tok: set without num_experts"),
    ({"num_experts": 4, "num_experts_per_tok": 1, "mlp_only_layers": [7]}, r"mlp_only_layers: layer 7 is outside 0..1"),
    ({"kv_lora_rank": 8}, r"qk_nope_head_dim: required with kv_lora_rank"),
    ({"layer_types": ["full_attention"]}, r"layer_types: has 1 entries for num_hidden_layers=2"),
    ({"intermediate_ratio": "x/3"}, r"intermediate_ratio: must be a number or a fraction like 8/3"),
    ({"vocab_size": None}, r"vocab_size: may not be null"),
])
def test_inconsistent_architecture_is_refused(changes, match):
    with pytest.raises(ArchitectureError, match=match):
        Architecture.from_mapping({**BASE, **changes}, "design.toml")


def test_message_names_the_place():
    with pytest.raises(ArchitectureError, match=r"^design.toml: hidden_size: must be positive"):
        Architecture.from_mapping({**BASE, "hidden_size": 0}, "design.toml")


def test_missing_required_key():
    with pytest.raises(ArchitectureError, match=r"spec: hidden_size: missing \(required\)"):
        Architecture.from_mapping({"vocab_size": 10, "num_hidden_layers": 1, "num_attention_heads": 1}, "spec")


def test_misspelt_key_gets_did_you_mean():
    with pytest.raises(UnknownKeyError, match=r"num_hiden_layers: unknown key \(did you mean 'num_hidden_layers'\?\)"):
        paramledger.load("seed-baseline", num_hiden_layers=3)


def test_unknown_name_gets_did_you_mean():
    with pytest.raises(SourceError, match=r"seed-baselin: not a file, a folder or a bundled model name "
                                          r"\(did you mean 'seed-baseline'\?\)"):
        paramledger.load("seed-baselin")


def test_malformed_spec_file(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("vocab_size = = 3\n")
    with pytest.raises(FileFormatError, match=r"bad.toml: invalid TOML"):
        paramledger.load(bad)


def test_spec_with_unknown_key(tmp_path):
    spec = tmp_path / "d.toml"
    spec.write_text("vocab_size = 10\nhidden_size = 8\nnum_hidden_layers = 1\nnum_attention_heads = 2\nvocab = 3\n")
    with pytest.raises(UnknownKeyError, match=r"d.toml: vocab: unknown key \(did you mean 'vocab_size'\?\)"):
        paramledger.load(spec)


def test_missing_spec_file(tmp_path):
    with pytest.raises(SourceError, match=r"nope.toml: no such file"):
        paramledger.load(tmp_path / "nope.toml")


def test_folder_without_config(tmp_path):
    with pytest.raises(SourceError, match=r"folder has no config.json"):
        paramledger.load(tmp_path)


@pytest.mark.parametrize("argv,line", [
    (["count", "seed-baseline", "--set", "num_attention_heads=3"],
     "paramledger: error: seed-baseline (override): num_attention_heads: 3 heads do not divide hidden_size=256; "
     "set head_dim"),
    (["count", "seed-baseline", "--set", "num_hiden_layers=3"],
     "paramledger: error: seed-baseline (override): num_hiden_layers: unknown key (did you mean 'num_hidden_layers'?)"),
    (["count", "seed-baseline", "--set", "num_hidden_layers"],
     "paramledger: error: --set: expected KEY=VALUE, got 'num_hidden_layers'"),
    (["count", "seed-baseline", "--set", "hidden_size=-8"],
     "paramledger: error: seed-baseline (override): hidden_size: must be positive, got -8"),
    (["count", "seed-baseline", "--set", "hidden_size=\u0663"],
     "paramledger: error: seed-baseline (override): hidden_size: must be a whole number, got '\u0663'"),
    (["count", "seed-baseline", "--set", "hidden_size=wide"],
     "paramledger: error: seed-baseline (override): hidden_size: must be a whole number, got 'wide'"),
    (["count", "seed-baselin"],
     "paramledger: error: seed-baselin: not a file, a folder or a bundled model name (did you mean 'seed-baseline'?) "
     "(see `paramledger models`)"),
    (["cuont", "seed-baseline"], "paramledger: error: unknown command 'cuont' (did you mean 'count'?)"),
    (["encode", "seed-small-vocab", "cameras"],
     "paramledger: error: text: 's' has no piece in the toy vocabulary seed-B (it lists only ca, me, ra)"),
])
def test_cli_error_is_one_line_exit_2(cli, argv, line):
    status, out, err = cli(*argv)
    assert status == 2
    assert out == ""
    assert err == line + "\n"


def test_cli_usage_error_is_one_line(cli):
    status, out, err = cli("count")
    assert status == 2 and err.count("\n") == 1 and "SOURCE" in err


def test_real_process_no_traceback(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b"\xff\xfe not text")
    result = subprocess.run([sys.executable, "-m", "paramledger", "count", str(bad)], capture_output=True, text=True)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("paramledger: error: ") and result.stderr.count("\n") == 1
    assert "Traceback" not in result.stderr


def test_depth_change_carries_the_layer_pattern(cli):
    """A config with per-layer attention types keeps a consistent pattern at a new depth."""
    arch = paramledger.load("gemma-2-2b", num_hidden_layers=4)
    assert arch.layer_types == ("sliding_attention", "full_attention") * 2
    status, out, err = cli("count", "gemma-2-2b", "--set", "num_hidden_layers=4", "--json")
    assert status == 0 and err == ""


_VALUES = st.one_of(st.integers(-3, 10**6).map(str), st.sampled_from(["true", "false", "none", "", "8/3", "1e3", "x"]),
                    st.text(max_size=8))


@settings(max_examples=200)
@given(st.lists(st.tuples(st.sampled_from(Architecture.field_names()), _VALUES), min_size=1, max_size=4),
       st.sampled_from(["seed-baseline", "seed-1.1b", "gpt2", "Mixtral-8x7B-v0.1", "DeepSeek-V3"]))
def test_any_override_counts_or_is_one_line(overrides, source):
    """Random --set values on every key: a count, or one line and exit 2; never a traceback."""
    from paramledger.cli import main

    argv = ["count", source, "--json"]
    for key, value in overrides:
        argv += ["--set", f"{key}={value}"]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(argv)
    if status == 0:
        assert err.getvalue() == "" and '"total"' in out.getvalue()
    else:
        assert status == 2 and out.getvalue() == ""
        assert err.getvalue().startswith("paramledger: error: ") and err.getvalue().count("\n") == 1


@pytest.mark.parametrize(("key", "hint"), [
    ("n_layer", "num_hidden_layers"),  # GPT-2's name for it, not conv_layers (which merely looks alike)
    ("num_layers", "num_hidden_layers"),  # T5's
    ("n_embd", "hidden_size"),
    ("hiden_size", "hidden_size"),  # a near-spelling
    ("vocab", "vocab_size"),  # cut short
])
def test_an_unknown_keys_hint_names_the_same_thing(key, hint):
    with pytest.raises(UnknownKeyError) as raised:
        paramledger.load("Llama-3.1-8B", **{key: 3})
    assert f"(did you mean '{hint}'?)" in str(raised.value)


def test_an_unknown_key_like_no_known_one_gets_no_hint():
    with pytest.raises(UnknownKeyError) as raised:
        paramledger.load("Llama-3.1-8B", widget_count=3)
    assert "did you mean" not in str(raised.value)


@pytest.mark.parametrize(("overrides", "message"), [
    (["entity_vocab_size=1"], "entity_emb_size: must be given with entity_vocab_size"),
    (["entity_emb_size=8"], "entity_vocab_size: must be given with entity_emb_size"),
])
def test_half_an_entity_table_is_one_line(cli, overrides, message):
    """Found by the override fuzzing above: LUKE's entity table given rows without a width was a traceback."""
    argv = ["count", "seed-baseline"] + [arg for pair in overrides for arg in ("--set", pair)]
    status, out, err = cli(*argv)
    assert status == 2 and out == "" and err.count("\n") == 1 and message in err


def test_a_grouped_conv_layer_reads_the_designs_ffn_width(cli):
    """A design giving intermediate_ratio, not intermediate_size (seed-baseline): SqueezeBERT's grouped convs are
    ffn_size wide (found by the fuzzing above: a traceback)."""
    status, out, _ = cli("count", "seed-baseline", "--set", "grouped_conv_layers=0", "--json")
    assert status == 0 and json.loads(out)["total"] > 0
