"""Perceiver counted as AutoModelForMaskedLM builds it (families/perceiver.py, perceiver_tables.py): the class
defaults' figures, what lies outside the self-attention layers, num_blocks counted once, a --set change counted as
the config so changed, LoRA against PEFT, and the refusals.  tests/test_families.py checks the defaults and random
configs (tests/_family_configs_sm.py); these are the behaviours around them."""

from __future__ import annotations

import json

import pytest
from _cli_refusal import refused_by_the_cli

import paramledger
from paramledger._exceptions import ArchitectureError
from paramledger.buffers import every_buffer
from paramledger.hf_config import config_with_overrides
from paramledger.reference import build_reference, default_config, diff

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

TINY = {"model_type": "perceiver", "num_latents": 8, "d_latents": 16, "d_model": 24, "num_self_attends_per_block": 2,
        "num_self_attention_heads": 2, "num_cross_attention_heads": 1, "vocab_size": 20, "max_position_embeddings": 10}


def _meta(config: dict):
    with torch.device("meta"):
        return transformers.AutoModelForMaskedLM.from_config(transformers.AutoConfig.for_model(**config))


def test_the_class_default_figures():
    """PerceiverConfig's defaults (language-perceiver's sizes): 269,319,430 in PerceiverForMaskedLM, 457 tensors, no
    alias and no buffer; Hugging Face's non-embedding count drops the two nn.Embedding tables alone (the latents and
    the decoder's position queries are bare Parameters)."""
    config = default_config("perceiver")
    inventory = paramledger.inventory(paramledger.load(config))
    reference = build_reference(config)
    assert reference.class_name == "PerceiverForMaskedLM" and diff(inventory, reference).matches
    assert [t.name for t in inventory.tensors] == [name for name, _ in reference.tensors]
    assert (inventory.total, len(inventory.tensors), inventory.aliases) == (269_319_430, 457, {})
    assert list(every_buffer(inventory)) == []
    model = _meta(config)
    assert inventory.non_embedding("hf") == model.num_parameters(exclude_embeddings=True) == 267_545_350


def test_what_lies_outside_the_layers():
    inventory = paramledger.inventory(paramledger.load(TINY))
    names = [t.name for t in inventory.tensors]
    assert names[:3] == ["perceiver.input_preprocessor.embeddings.weight",
                         "perceiver.input_preprocessor.position_embeddings.weight", "perceiver.embeddings.latents"]
    assert inventory["perceiver.embeddings.latents"].shape == (8, 16)
    assert inventory["perceiver.encoder.cross_attention.attention.self.key.weight"].shape == (24, 24)  # d_model ("kv")
    assert inventory["perceiver.decoder.decoding_cross_attention.attention.self.query.weight"].shape == (256, 24)
    assert inventory["perceiver.decoder.output_position_encodings.position_embeddings"].shape == (10, 24)
    assert names[-1] == "embedding_decoder.bias" and not any(name.startswith("lm_head") for name in names)
    assert not any("embeddings_project" in name for name in names)  # the tables feed the cross-attention as they are


@pytest.mark.parametrize("blocks", [1, 3])
def test_num_blocks_reuses_the_same_layers(blocks, cli, tmp_path):
    config = {**TINY, "num_blocks": blocks}
    inventory = paramledger.inventory(paramledger.load(config))
    assert diff(inventory, build_reference(config)).matches
    assert inventory.total == paramledger.inventory(paramledger.load(TINY)).total
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config))
    code, out, _ = cli("count", str(path))
    assert code == 0 and "run num_blocks times over the latents with the same weights" in out
    assert "output head: the token table read in forward, no module of its own; its bias counted" in out


@pytest.mark.parametrize("changes", [{"hidden_size": 640}, {"num_attention_heads": 16}, {"embedding_size": 512},
                                     {"num_hidden_layers": 3}, {"num_latents": 64}, {"max_position_embeddings": 100}],
                         ids=["d_latents", "heads", "d_model", "depth", "latents", "positions"])
def test_a_set_change_counts_the_config_so_changed(changes):
    """The sizes that follow d_latents and d_model (head_dim, the MLPs, the cross-attention's channels) are the
    design's couplings, not numbers kept from before."""
    config = default_config("perceiver")
    changed = paramledger.inventory(paramledger.load(config, **changes))
    written = config_with_overrides(config, changes)
    assert changed.total == paramledger.inventory(paramledger.load(written)).total
    assert diff(changed, build_reference(written)).matches


def test_lora_matches_peft():
    """Every cross-attention's and self-attention layer's Linears are PEFT's "all-linear"; the head is no module."""
    pytest.importorskip("peft")
    from test_adapters import assert_matches_peft

    assert_matches_peft(TINY, r=2, target_modules="all-linear")
    assert_matches_peft(TINY, r=3, target_modules="all-linear", use_dora=True, bias="all")


@pytest.mark.parametrize(("given", "message"), [
    ({"num_cross_attention_heads": 3}, "num_cross_attention_heads: 3 heads do not divide d_latents=16"),
    ({"num_cross_attention_heads": 0}, "num_cross_attention_heads: must be a positive whole number, got 0"),
    ({"qk_channels": 7, "v_channels": 16}, "qk_channels: 7 query/key channels do not split over "
                                            "num_self_attention_heads=2"),
    ({"qk_channels": 8}, "v_channels: 8 values (v_channels, else qk_channels) are not d_latents=16"),
    ({"v_channels": "x"}, "v_channels: must be a positive whole number, got 'x'"),
    ({"cross_attention_shape_for_attention": "k"}, "cross_attention_shape_for_attention: 'k' is not 'q' or 'kv'"),
    ({"d_model": 12}, "d_model: 12 value channels of the decoder (d_model) do not split over the decoder's heads=8"),
    ({"d_model": 12, "num_cross_attention_heads": 8, "d_latents": 16}, "d_model: 12 query/key channels of the "
                                                                        "cross-attention do not split"),
    ({"hidden_act": "prelu"}, "hidden_act: 'prelu' is not counted"),
    ({"self_attention_widening_factor": 0}, "self_attention_widening_factor: must be a positive whole number, got 0"),
    ({"cross_attention_widening_factor": 1.5}, "cross_attention_widening_factor: must be a positive whole number"),
    ({"num_blocks": -1}, "num_blocks: must be a whole number, got -1"),
    ({"num_latents": 0}, "num_latents: must be positive, got 0"),
])
def test_a_bad_value_is_refused_in_one_line_under_its_own_key(given, message):
    with pytest.raises(ArchitectureError, match=message.replace("(", r"\(").replace(")", r"\)")) as raised:
        paramledger.load({**TINY, **given})
    assert "\n" not in str(raised.value)


@pytest.mark.parametrize("given", [{"num_cross_attention_heads": 3}, {"qk_channels": 7, "v_channels": 16},
                                   {"cross_attention_shape_for_attention": "k"}, {"d_model": 12}])
def test_transformers_refuses_what_is_refused(given):
    with pytest.raises(ValueError):
        _meta({**TINY, **given})


def test_transformers_builds_values_narrower_than_the_latents_but_cannot_run_them():
    """v_channels (else qk_channels) other than d_latents: the self-attention's output is that wide, and the layer adds
    it to the latents (PerceiverAttention.forward's query residual)."""
    config = {**TINY, "qk_channels": 8}
    model = transformers.AutoModelForMaskedLM.from_config(transformers.AutoConfig.for_model(**config))
    with pytest.raises(RuntimeError):
        model(inputs=torch.randint(0, 20, (1, 10)))


@pytest.mark.parametrize(("change", "message"), [
    ({"latent_cross_qk_channels": 8}, "latent_cross_qk_channels: set without num_latents"),
    ({"num_latents": None, "latent_cross_widening_factor": 2}, "latent_cross_widening_factor: set without num_latents"),
])
def test_the_latent_keys_mean_nothing_without_latents(change, message):
    design = paramledger.load({"model_type": "llama", "vocab_size": 64, "hidden_size": 32, "num_hidden_layers": 2,
                               "num_attention_heads": 4, "intermediate_size": 48})
    with pytest.raises(ArchitectureError, match=message):
        design.replace(**change)


def test_a_latent_design_has_no_head_to_tie():
    with pytest.raises(ArchitectureError, match="tie_word_embeddings: a latent model's head reads the token table"):
        paramledger.load(TINY).replace(tie_word_embeddings=True)


def test_the_cli_refuses_with_status_2(tmp_path):
    refused_by_the_cli(tmp_path, json.dumps({"model_type": "perceiver", "d_model": 20}),
                       "d_model: 20 query/key channels of the cross-attention do not split over "
                       "num_cross_attention_heads=8")
    refused_by_the_cli(tmp_path, json.dumps({"model_type": "perceiver", "d_model": 12, "num_cross_attention_heads": 4}),
                       "d_model: 12 value channels of the decoder (d_model) do not split")
