"""Every way a config can be wrong gets one clear line: through the API (the exception and
its message) and through the CLI (exit status 2, one line on stderr, no traceback)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import paramledger
from paramledger import families
from paramledger._exceptions import (ArchitectureError, FileFormatError, SourceError, UnsupportedFamilyError)


def assert_cli_error(cli, source: str, pattern: str) -> None:
    status, out, err = cli("count", source)
    assert status == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("paramledger: error: ")
    assert re.search(pattern, lines[0]), lines[0]
    assert "Traceback" not in err


@pytest.fixture
def missing_config(tmp_path):
    return tmp_path / "absent" / "config.json"


@pytest.fixture
def invalid_json_config(tmp_path):
    path = tmp_path / "config.json"
    path.write_text('{"model_type": "llama", "hidden_size": 64,,}', encoding="utf-8")
    return path


@pytest.fixture
def config_without_model_type(tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"vocab_size": 100, "hidden_size": 64}), encoding="utf-8")
    return path


@pytest.fixture
def misspelt_model_type_config(tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"model_type": "lama", "vocab_size": 100}), encoding="utf-8")
    return path


@pytest.fixture
def grouped_albert_config(tmp_path):
    """(GPT-2 with add_cross_attention, then ALBERT's inner_group_num were the examples until each was counted:
    I-BERT's hidden_act is one transformers itself refuses)"""
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"model_type": "ibert", "hidden_act": "relu"}), encoding="utf-8")
    return path


def test_missing_config_file(cli, missing_config):
    with pytest.raises(SourceError, match="config.json: no such file"):
        paramledger.load(missing_config)
    assert_cli_error(cli, str(missing_config), r"config\.json: no such file")


def test_a_path_that_is_neither_a_file_nor_a_folder(cli, tmp_path):
    """A pipe (whose read would block) or a device is said to be one, not "no such file"."""
    pipe = tmp_path / "config.json"
    os.mkfifo(pipe)
    with pytest.raises(SourceError, match="config.json: not a regular file or a folder"):
        paramledger.load(pipe)
    assert_cli_error(cli, str(pipe), r"config\.json: not a regular file or a folder")
    assert_cli_error(cli, os.devnull, r"not a regular file or a folder")


def test_folder_without_config(cli, tmp_path):
    with pytest.raises(SourceError, match="folder has no config.json"):
        paramledger.load(tmp_path)
    assert_cli_error(cli, str(tmp_path), "folder has no config.json")


def test_invalid_json(cli, invalid_json_config):
    with pytest.raises(FileFormatError, match=r"invalid JSON at line 1 column \d+"):
        paramledger.load(invalid_json_config)
    assert_cli_error(cli, str(invalid_json_config), r"invalid JSON at line 1 column \d+")


def test_missing_model_type(cli, config_without_model_type):
    with pytest.raises(ArchitectureError, match=r"model_type: missing \(required to choose the family\)"):
        paramledger.load(config_without_model_type)
    assert_cli_error(cli, str(config_without_model_type), r"model_type: missing \(required to choose the family\)")


def test_missing_required_key_in_a_design(cli, tmp_path):
    spec = tmp_path / "design.toml"
    spec.write_text("vocab_size = 100\nnum_hidden_layers = 2\nnum_attention_heads = 4\n", encoding="utf-8")
    with pytest.raises(ArchitectureError, match=r"hidden_size: missing \(required\)"):
        paramledger.load(spec)
    assert_cli_error(cli, str(spec), r"hidden_size: missing \(required\)")


def test_null_where_the_family_needs_a_value(cli, tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"model_type": "llama", "hidden_size": None}), encoding="utf-8")
    with pytest.raises(ArchitectureError, match="hidden_size: may not be null"):
        paramledger.load(path)
    assert_cli_error(cli, str(path), "hidden_size: may not be null")


def test_unknown_model_type_lists_supported_and_closest(cli, misspelt_model_type_config):
    with pytest.raises(UnsupportedFamilyError) as caught:
        paramledger.load(misspelt_model_type_config)
    message = str(caught.value)
    assert "model_type 'lama' is not supported (did you mean 'llama'?)" in message
    assert f"`paramledger families --supported` lists the {len(families.supported())} that are" in message
    assert caught.value.model_type == "lama"
    assert_cli_error(cli, str(misspelt_model_type_config),
                     r"model_type 'lama' is not supported \(did you mean 'llama'\?\); `paramledger families")


def test_unknown_model_type_with_nothing_close():
    with pytest.raises(UnsupportedFamilyError, match=r"model_type 'zqx_model' is not supported; `paramledger "
                                                      r"families --supported` lists the \d+ that are$"):
        paramledger.load({"model_type": "zqx_model"})


@pytest.mark.parametrize(("model_type", "hint"), [
    # a type transformers builds that paramledger does not count (deepseek_v4, the example before, is counted now)
    ("deepseek_ocr2_text", "(transformers builds it; paramledger does not count it yet)"),
    ("deepseek_ocr2_textx", "(did you mean 'deepseek_ocr2_text'? transformers builds it; paramledger does not count it "
                            "yet)"),
])
def test_a_type_transformers_builds_is_said_to_be_one(model_type, hint):
    with pytest.raises(UnsupportedFamilyError) as caught:
        paramledger.load({"model_type": model_type})
    assert f"model_type {model_type!r} is not supported {hint}; `paramledger families" in str(caught.value)


def test_the_types_transformers_builds_are_its_own():
    """families/transformers_types.txt (package data: the core imports no transformers) is the pinned release's
    CONFIG_MAPPING_NAMES; regenerate it from there when the pin moves."""
    mapping = pytest.importorskip("transformers.models.auto.configuration_auto").CONFIG_MAPPING_NAMES
    assert families.transformers_types().keys() == set(mapping)
    assert set(families.supported()) - families.transformers_types().keys() <= {"paramledger"}


@pytest.mark.parametrize("model_type", ["musicgen", "musicgen_melody"])
def test_a_type_transformers_cannot_build_as_a_causal_lm_is_refused_saying_why(model_type):
    """AutoModelForCausalLM hands the composite config to the decoder's class: it raises for every config of the
    type, so the refusal does not say transformers builds it."""
    with pytest.raises(UnsupportedFamilyError) as caught:
        paramledger.load({"model_type": model_type})
    message = str(caught.value)
    assert "cannot build it as a CausalLM" in message and "transformers builds it" not in message
    assert "\n" not in message


@pytest.mark.parametrize("model_type", ["deepseek_v5", "qwen4_moe", "gemma5"])  # (qwen4_exp, deepseek_v4 counted now)
def test_another_version_is_not_offered_as_a_misspelling(model_type):
    """A different architecture is never "did you mean": deepseek_v5 is not deepseek_v4."""
    with pytest.raises(UnsupportedFamilyError) as caught:
        paramledger.load({"model_type": model_type})
    assert "did you mean" not in str(caught.value) and len(str(caught.value)) < 200


def test_families_supported_lists_every_counted_model_type(cli):
    code, out, _ = cli("families", "--supported")
    assert code == 0 and out.split() == families.supported()


def test_config_value_the_family_cannot_count(cli, grouped_albert_config):
    with pytest.raises(ArchitectureError, match=r"hidden_act: 'relu' is refused by transformers 5\.24\.0"):
        paramledger.load(grouped_albert_config)
    assert_cli_error(cli, str(grouped_albert_config), r"hidden_act: 'relu' is refused by transformers 5\.24\.0")


def test_helium_head_dim_that_no_o_proj_fits():
    with pytest.raises(ArchitectureError,
                       match=r"head_dim: 64 × 4 heads != hidden_size=128; its o_proj is hidden_size square"):
        paramledger.load({"model_type": "helium", "hidden_size": 128, "num_attention_heads": 4, "head_dim": 64})


def test_text_config_must_be_an_object():
    with pytest.raises(ArchitectureError, match="text_config: must be a JSON object"):
        paramledger.load({"model_type": "gemma3", "text_config": [1, 2]})


def test_heads_that_do_not_divide_the_width(cli, tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"model_type": "gpt2", "n_embd": 100, "n_head": 12}), encoding="utf-8")
    # Said under GPT-2's own key, with the field it stands for; no "set head_dim" (GPT2Config has no such key).
    message = "n_head: 12 heads do not divide hidden_size=100 (n_head is read as num_attention_heads)"
    with pytest.raises(ArchitectureError, match=re.escape(message)):
        paramledger.load(path)
    assert_cli_error(cli, str(path), re.escape(message))


def test_keys_not_understood_are_reported_not_ignored():
    arch = paramledger.load({"model_type": "llama", "num_hidden_layers": 2, "moe_layer_freq": 2,
                             "layer_norm_eps": 1e-5})
    assert arch.notes == ("config keys not understood (they might change the count): moe_layer_freq",)
    assert paramledger.inventory(arch).notes == arch.notes


def test_a_sliding_pattern_is_read_only_without_layer_types():
    """LGAI-EXAONE/EXAONE-4.0-32B's config.json says "sliding_window_pattern": "LLLG" beside its layer_types;
    Exaone4Config reads the pattern only to fill layer_types in, so the config builds, and is counted."""
    config = {"model_type": "exaone4", "num_hidden_layers": 4, "hidden_size": 64, "num_attention_heads": 4,
              "num_key_value_heads": 2, "intermediate_size": 128, "vocab_size": 100, "sliding_window": 16,
              "sliding_window_pattern": "LLLG", "layer_types": ["sliding_attention"] * 3 + ["full_attention"]}
    assert paramledger.load(config).layer_types == ("sliding_attention",) * 3 + ("full_attention",)
    del config["layer_types"]  # then transformers computes (i + 1) % "LLLG" and fails
    with pytest.raises(ArchitectureError, match=r"sliding_window_pattern: must be a positive whole number, got 'LLLG'"):
        paramledger.load(config)


def test_keys_nested_in_a_section_are_reported_too():
    """DBRX keeps its sizes in attn_config and ffn_config (databricks/dbrx-instruct's own keys there are
    understood, model_type "" included); a key no DBRX config class has is named with its section."""
    config = {"model_type": "dbrx", "d_model": 256, "n_heads": 4, "n_layers": 2, "vocab_size": 100,
              "attn_config": {"clip_qkv": 8, "kv_n_heads": 2, "model_type": "", "rope_theta": 500000},
              "ffn_config": {"ffn_hidden_size": 64, "model_type": "", "moe_jitter_eps": 0, "moe_loss_weight": 0.05,
                             "moe_num_experts": 4, "moe_top_k": 2}}
    assert paramledger.load(config).notes == ()
    config["ffn_config"]["moe_shared_experts"] = 1
    assert paramledger.load(config).notes == (
        "config keys not understood (they might change the count): ffn_config.moe_shared_experts",)


def test_keys_transformers_ignores_are_understood_at_their_releases_value():
    """bigcode/starcoder2's and MiniMaxAI/MiniMax-M2's configs carry keys their transformers config classes never
    read: at the value every release has they describe what transformers builds; another value is reported."""
    starcoder2 = {"model_type": "starcoder2", "num_hidden_layers": 2, "norm_type": "layer_norm", "mlp_type": "default",
                  "attention_softmax_in_fp32": True, "scale_attention_softmax_in_fp32": True}
    assert paramledger.load(starcoder2).notes == ()
    assert paramledger.load({**starcoder2, "norm_type": "rms_norm"}).notes == (
        "config keys not understood (they might change the count): norm_type",)
    minimax = {"model_type": "minimax_m2", "num_hidden_layers": 2, "attn_type_list": [1, 1],
               "shared_intermediate_size": 0, "use_mtp": True, "num_mtp_modules": 3, "mtp_transformer_layers": 1}
    assert paramledger.load(minimax).notes == ()
    assert paramledger.load({**minimax, "attn_type_list": [0, 1], "shared_intermediate_size": 1536}).notes == (
        "config keys not understood (they might change the count): attn_type_list, shared_intermediate_size",)
    # Qwen/Qwen3.5-9B's text_config: the output gate every Qwen3.5 attention layer has; the DeltaNet state's dtype.
    qwen35 = {"model_type": "qwen3_5", "text_config": {"attn_output_gate": True, "mamba_ssm_dtype": "float32"}}
    assert paramledger.load(qwen35).notes == ("qwen3_5 is multimodal: counting the whole model (vision tower, "
                                              "projector and text decoder); --text-only counts the decoder alone",)
    assert paramledger.load({"model_type": "qwen3_5_text", "attn_output_gate": False}).notes == (
        "config keys not understood (they might change the count): attn_output_gate",)


def test_keys_of_another_family_are_not_read():
    """Mistral has no attention_bias: transformers ignores it, so must we (and say so)."""
    arch = paramledger.load({"model_type": "mistral", "num_hidden_layers": 1, "attention_bias": True})
    assert arch.attention_bias is False
    assert "attention_bias" in arch.notes[0]


def test_multimodal_config_says_what_it_counts():
    arch = paramledger.load({"model_type": "gemma3", "text_config": {"num_hidden_layers": 2}})
    assert arch.notes == ("gemma3 is multimodal: counting the whole model (vision tower, projector and text decoder); --text-only counts the decoder alone",)
    assert arch.num_hidden_layers == 2
    arch = paramledger.load({"model_type": "gemma4", "text_config": {"num_hidden_layers": 2}})
    assert arch.notes == ("gemma4 is multimodal: counting the whole model (its vision and audio towers where the "
                          "config gives them, their embedders and the text decoder); --text-only counts the decoder "
                          "alone",)
    arch = paramledger.load({"model_type": "emu3", "text_config": {"num_hidden_layers": 2}})
    assert arch.notes == ("emu3 is multimodal: counting the whole model (vq tower and text decoder); --text-only "
                          "counts the decoder alone",)


def test_overrides_written_under_the_family_keys_recompute_the_window_pattern():
    from paramledger.hf_config import config_with_overrides

    config = config_with_overrides({"model_type": "gemma2"}, {"num_hidden_layers": "4"})
    assert config == {"model_type": "gemma2", "num_hidden_layers": 4}
    arch = paramledger.load(config)
    assert arch.layer_types == ("sliding_attention", "full_attention") * 2
    assert config_with_overrides({"model_type": "gpt2", "n_layer": 12}, {"num_hidden_layers": 2})["n_layer"] == 2


def test_override_without_a_family_key():
    from paramledger._exceptions import OptionError
    from paramledger.hf_config import config_with_overrides

    with pytest.raises(OptionError, match="--set: norm_placement has no llama config key: no llama config "
                                          "expresses that change"):
        config_with_overrides({"model_type": "llama"}, {"norm_placement": "post"})
    # A field's own name means the field, even where the family reads a config key of that name into another
    # field (MiniMax-M2's config intermediate_size is its experts' width): as --set means it on a count.
    with pytest.raises(OptionError, match="--set: intermediate_size has no minimax_m2 config key"):
        config_with_overrides({"model_type": "minimax_m2"}, {"intermediate_size": 64})


_JSON_VALUES = st.one_of(st.none(), st.booleans(), st.integers(-5, 3000), st.floats(allow_nan=True),
                         st.text(max_size=6), st.lists(st.integers(-2, 5), max_size=3),
                         st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["gpt2", "Llama-3.2-1B", "Mixtral-8x7B-v0.1", "gemma-2-2b", "Qwen3-30B-A3B", "DeepSeek-V3",
                        "gpt-oss-20b", "gemma-3-4b-it", "phi-4", "pythia-160m"]),
       st.data())
def test_a_mangled_real_config_counts_or_fails_in_one_line(tmp_path_factory, name, data):
    """A real config with one key set to any JSON value: a count, or one line and exit 2."""
    from paramledger import registry
    from paramledger.cli import main

    config = registry.get(name).config
    key = data.draw(st.sampled_from(sorted(config)), label="key")
    config[key] = data.draw(_JSON_VALUES, label="value")
    path = tmp_path_factory.mktemp("mangled") / "config.json"
    path.write_text(json.dumps(config))
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["count", str(path), "--json"])
    if status == 0:
        assert err.getvalue() == ""
    else:
        assert status == 2 and out.getvalue() == ""
        assert err.getvalue().startswith("paramledger: error: ") and err.getvalue().count("\n") == 1


@pytest.mark.parametrize("name,key,value,message", [
    ("Qwen3-30B-A3B", "decoder_sparse_step", "0", r"decoder_sparse_step: must be a whole number, got '0'"),
    ("DeepSeek-V3", "num_hidden_layers", None, r"num_hidden_layers: may not be null"),
    ("gpt2", "n_layer", 0, r"n_layer: must be positive, got 0"),
    ("gemma-2-2b", "hidden_size", 2.5, r"hidden_size: must be a whole number, got 2.5"),
    ("DeepSeek-V3", "first_k_dense_replace", -1, r"first_k_dense_replace: must be zero or more, got -1"),
])
def test_rule_inputs_are_checked_under_the_config_key(tmp_path, cli, name, key, value, message):
    from paramledger import registry

    config = registry.get(name).config
    config[key] = value
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config))
    with pytest.raises(ArchitectureError, match=message):
        paramledger.load(path)
    status, out, err = cli("count", str(path))
    assert status == 2 and out == "" and err.count("\n") == 1 and "config.json: " in err


def test_a_remote_code_release_of_a_supported_architecture_is_counted_as_it_and_says_so():
    """Kimi K2's config names kimi_k2, which transformers does not know; its auto_map is DeepSeek-V3's code."""
    from paramledger import registry

    config = {**registry.get("DeepSeek-V3").config, "model_type": "kimi_k2"}
    config.pop("quantization_config", None)
    ours = paramledger.load(config)
    assert ours.model_type == "deepseek_v3"
    assert ours.notes[0].startswith("kimi_k2 is counted as deepseek_v3: its remote code is deepseek_v3's")
    same = {**config, "model_type": "deepseek_v3"}
    assert paramledger.inventory(ours).total == paramledger.inventory(same).total == 671_026_404_352


def test_a_remote_code_release_verifies_as_the_family_it_is_counted_as(cli, tmp_path):
    """verify builds what the remote code's family builds (transformers knows no kimi_k2), saying so; once it
    refused the config as an unsupported type.  transformers 4.48's _attn_implementation_autoset, which Kimi K2's
    config.json holds, is bookkeeping: no "not understood" note."""
    from paramledger import registry

    config = {**registry.get("DeepSeek-V3").config, "model_type": "kimi_k2", "_attn_implementation_autoset": True}
    config.pop("quantization_config", None)
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config))
    status, out, err = cli("verify", str(path))
    assert status == 0, out + err
    assert out.splitlines()[:2] == [
        "reference: DeepseekV3ForCausalLM (transformers, meta device)",
        "note: kimi_k2 is built as deepseek_v3: its remote code is deepseek_v3's (the release's deploy guidance: "
        "DeepSeek-V3's architecture, renamed)"]
    assert out.splitlines()[-1] == "match: 909 tensors, total 671,026,404,352" and "not understood" not in out


@pytest.mark.parametrize(("config", "key"), [
    ({"model_type": "gemma3", "text_config": {"hidden_size": -1}}, "text_config.hidden_size"),
    # (Gemma3TextConfig refuses 2,304 wide in 7 heads first, whatever head_dim: families/head_multiple.py)
    ({"model_type": "gemma3", "text_config": {"num_attention_heads": 7}}, "text_config.hidden_size"),
    ({"model_type": "pi0", "vlm_config": {"text_config": {"hidden_size": -1}}}, "vlm_config.text_config.hidden_size"),
    ({"model_type": "pi0", "vlm_config": {"text_config": {"pad_token_id": 10 ** 9}}},
     "vlm_config.text_config.pad_token_id"),
    ({"model_type": "qwen2_5_omni", "thinker_config": {"text_config": {"hidden_size": -1}}},
     "thinker_config.text_config.hidden_size"),
    ({"model_type": "llava", "text_config": {"model_type": "gemma"}}, "text_config.model_type"),
    ({"model_type": "llama", "hidden_size": -1}, "hidden_size"),  # a decoder's own keys: at the top
])
def test_a_text_decoder_key_is_named_where_the_config_holds_it(cli, tmp_path, config, key):
    """A whole model's decoder is read from a section (text_config, PI0's vlm_config.text_config, Qwen2.5-Omni's
    thinker_config.text_config): its refusals name the key by that path, not bare as a top-level key."""
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config))
    assert_cli_error(cli, str(path), rf"config\.json: {re.escape(key)}: ")


@pytest.mark.parametrize(("attention", "key"), [
    ({"clip_qkv": 6}, "attn_config.clip_qkv"),  # MosaicML's mpt-30b-chat config.json: an int where a float belongs
    ({"attn_pdrop": 0.0}, "attn_config.attn_pdrop"), ({"alibi": 1}, "attn_config.alibi"),
    ({"attn_type": "grouped_query_attention"}, "attn_config.attn_type"),
])
def test_an_mpt_attn_config_transformers_refuses_is_refused_in_one_line(cli, tmp_path, attention, key):
    """MptAttentionConfig is a strict dataclass: a field of another type than it declares is refused as the config is
    made (measured: StrictDataclassFieldValidationError), so paramledger refuses it too, naming the key."""
    from paramledger.reference import build_reference

    config = {"model_type": "mpt", "d_model": 64, "n_heads": 4, "n_layers": 2, "vocab_size": 128,
              "attn_config": attention}
    with pytest.raises(paramledger.ParamledgerError, match="transformers refuses the config"):
        build_reference(config)
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config))
    assert_cli_error(cli, str(path), rf"config\.json: {re.escape(key)}: must be ")
    fine = {**config, "attn_config": {"clip_qkv": 6.0, "attn_pdrop": 0, "alibi": True}}
    assert paramledger.inventory(paramledger.load(fine)).total == build_reference(fine).total
