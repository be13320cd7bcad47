"""`paramledger verify`: exit 0 and one line on a match, every difference and exit 1 otherwise,
exit 2 and one line on bad input."""

from __future__ import annotations

import dataclasses
import json

import pytest

from paramledger import families
from paramledger.naming import Naming
from paramledger.sources import bundled_designs, bundled_models


@pytest.mark.parametrize("name", sorted(bundled_models()))
def test_every_bundled_model_verifies_at_full_size(cli, name):
    status, out, err = cli("verify", name)
    assert status == 0, out + err
    assert out.splitlines()[-1].startswith("match: ")


@pytest.mark.parametrize("name", sorted(bundled_designs()))
def test_every_seed_design_verifies_through_an_equal_llama(cli, name):
    status, out, err = cli("verify", name)
    assert status == 0, out + err
    assert "design translated to an equivalent" in out


def test_match_line_names_tensors_and_total(cli):
    status, out, _ = cli("verify", "seed-baseline")
    assert status == 0
    assert out.splitlines() == [
        "reference: ArceeForCausalLM (transformers, meta device)",
        "note: design translated to an equivalent arcee config (ungated FFN; positions sinusoidal, 0 parameters)",
        "match: 50 tensors, total 13,110,528",
    ]


def test_config_json_and_its_folder(cli, tmp_path):
    (tmp_path / "config.json").write_text(json.dumps({"model_type": "qwen2", "num_hidden_layers": 2,
                                                      "hidden_size": 64, "num_attention_heads": 4,
                                                      "num_key_value_heads": 2, "intermediate_size": 96,
                                                      "vocab_size": 1000}))
    for source in (tmp_path, tmp_path / "config.json"):
        status, out, _ = cli("verify", str(source))
        assert status == 0
        assert out.splitlines()[-1] == "match: 27 tensors, total 190,016"


def test_set_writes_the_family_key(cli):
    """--set num_hidden_layers on GPT-2 becomes n_layer in the config transformers builds."""
    status, out, _ = cli("verify", "gpt2", "--set", "num_hidden_layers=2", "--set", "tie_word_embeddings=false")
    assert status == 0
    assert out.splitlines()[-1] == "match: 29 tensors, total 92,158,464"
    # GPT-2's own key works as well, and one field set twice is refused.
    status, out, _ = cli("verify", "gpt2", "--set", "n_layer=2", "--set", "tie_word_embeddings=false")
    assert status == 0
    assert out.splitlines()[-1] == "match: 29 tensors, total 92,158,464"
    status, _, err = cli("verify", "gpt2", "--set", "n_layer=2", "--set", "num_hidden_layers=3")
    assert (status, err) == (2, "paramledger: error: --set: n_layer and num_hidden_layers both set num_hidden_layers\n")


def test_json(cli):
    status, out, _ = cli("verify", "gemma-3-270m", "--json")
    assert status == 0
    result = json.loads(out)
    assert result["match"] is True and result["reference_class"] == "Gemma3ForCausalLM"
    assert result["total"] == result["reference_total"] == 268_098_176
    assert result["missing"] == result["extra"] == result["shape_mismatches"] == result["tying_differences"] == []


@pytest.fixture
def llama_table_with_a_wrong_name(monkeypatch):
    """A family table that misnames the attention output: verify must catch it."""
    registry = families._load()
    wrong = dataclasses.replace(registry["llama"], naming=Naming(o="self_attn.out_proj"))
    monkeypatch.setitem(registry, "llama", wrong)


def test_difference_exits_1_and_lists_every_tensor(cli, llama_table_with_a_wrong_name):
    status, out, _ = cli("verify", "Llama-3.2-1B", "--set", "num_hidden_layers=1")
    assert status == 1
    lines = out.splitlines()
    assert "missing (transformers has, paramledger lacks): model.layers.0.self_attn.o_proj.weight (2048, 2048)" in lines
    assert "extra (paramledger has, transformers lacks): model.layers.0.self_attn.out_proj.weight (2048, 2048)" in lines
    assert lines[-1] == "DIFFERENT: total paramledger 323,491,840, transformers 323,491,840 (+0)"


def test_difference_in_json(cli, llama_table_with_a_wrong_name):
    status, out, _ = cli("verify", "Llama-3.2-1B", "--set", "num_hidden_layers=1", "--json")
    assert status == 1
    result = json.loads(out)
    assert result["match"] is False
    assert result["missing"] == [{"name": "model.layers.0.self_attn.o_proj.weight", "shape": [2048, 2048]}]


def one_error_line(cli, *argv: str) -> str:
    status, out, err = cli("verify", *argv)
    assert status == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("paramledger: error: "), err
    return lines[0]


def test_design_without_llama_equivalent_is_one_line(cli):
    line = one_error_line(cli, "seed-baseline", "--set", "norm_type=layernorm")
    assert "norm_type='layernorm' has no Llama equivalent (Llama needs 'rmsnorm')" in line


def test_set_without_a_family_key_is_one_line(cli):
    line = one_error_line(cli, "gpt2", "--set", "norm_placement=post")
    assert "--set: norm_placement has no gpt2 config key" in line


def test_unknown_source_is_one_line(cli):
    line = one_error_line(cli, "no-such-model")
    assert "no-such-model: not a file, a folder or a bundled model name" in line


def test_missing_file_is_one_line(cli, tmp_path):
    line = one_error_line(cli, str(tmp_path / "config.json"))
    assert "config.json: no such file" in line


def test_unsupported_model_type_is_one_line(cli, tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"model_type": "made_up_lm"}))
    line = one_error_line(cli, str(path))
    assert "model_type 'made_up_lm' is not supported" in line and "paramledger families --supported" in line


def test_config_transformers_refuses_is_one_line(cli, tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"model_type": "internlm3", "qkv_bias": True, "bias": False}))
    line = one_error_line(cli, str(path))
    assert "transformers refuses the config:" in line


@pytest.mark.parametrize("model_type", ["kosmos-2", "pix2struct", "granite_docling", "granite4_vision"])
def test_text_only_without_a_decoder_class_compares_the_whole_models_decoder(cli, tmp_path, model_type):
    """transformers registers no class that builds these decoders alone: verify --text-only builds the whole model
    and compares our decoder with its tensors outside the towers (the towers once were all listed as missing)."""
    from paramledger.reference import default_config

    path = tmp_path / "config.json"
    path.write_text(json.dumps(default_config(model_type)))
    status, out, err = cli("verify", str(path), "--text-only")
    assert status == 0, out + err
    assert "builds no class for" in out and "outside its towers" in out
    assert out.splitlines()[-1].startswith("match: ")
    status, out, _ = cli("verify", str(path))  # the whole model: every tower tensor compared too
    assert status == 0 and "outside its towers" not in out
