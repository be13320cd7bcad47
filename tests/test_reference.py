"""The reference itself: what transformers builds, and a diff that catches each kind of difference."""

from __future__ import annotations

import pytest

import paramledger
from paramledger._exceptions import ParamledgerError
from paramledger.inventory import Tensor, inventory_from_tensors
from paramledger.reference import build_reference, diff, llama_config, reference_of

TINY_LLAMA = {"model_type": "llama", "vocab_size": 10, "hidden_size": 8, "intermediate_size": 12,
              "num_hidden_layers": 1, "num_attention_heads": 2, "tie_word_embeddings": True}


@pytest.fixture(scope="module")
def tiny_reference():
    return build_reference(TINY_LLAMA)


def test_reference_lists_unique_tensors_and_aliases(tiny_reference):
    assert tiny_reference.class_name == "LlamaForCausalLM"
    assert tiny_reference.aliases == {"lm_head.weight": "model.embed_tokens.weight"}
    names = [name for name, _ in tiny_reference.tensors]
    assert "lm_head.weight" not in names
    assert dict(tiny_reference.tensors)["model.layers.0.mlp.gate_proj.weight"] == (12, 8)
    assert tiny_reference.total == 10 * 8 + 4 * 8 * 8 + 3 * 8 * 12 + 2 * 8 + 8


def test_reference_of_a_live_module_on_cpu():
    import torch

    model = torch.nn.Sequential(torch.nn.Embedding(5, 3), torch.nn.Linear(3, 5))
    model[1].weight = model[0].weight  # tied, as an LM head
    reference = reference_of(model, "toy")
    assert reference.tensors == (("0.weight", (5, 3)), ("1.bias", (5,)))
    assert reference.aliases == {"1.weight": "0.weight"}


def test_match(tiny_reference):
    result = diff(paramledger.inventory(paramledger.load(TINY_LLAMA)), tiny_reference)
    assert result.matches
    assert result.to_json()["match"] is True
    assert result.tensors == len(tiny_reference.tensors)


def _edited(inventory, tensors=None, aliases=None):
    return inventory_from_tensors(tensors if tensors is not None else inventory.tensors,
                                  aliases if aliases is not None else inventory.aliases)


def test_diff_reports_missing_extra_shape_and_tying(tiny_reference):
    ours = paramledger.inventory(paramledger.load(TINY_LLAMA))
    tensors = [t for t in ours.tensors if t.name != "model.norm.weight"]  # missing
    tensors.append(Tensor("model.layers.0.self_attn.sinks", (2,), "attention", 0))  # extra
    tensors = [Tensor(t.name, (12, 9), t.component, t.layer) if t.name.endswith("up_proj.weight") else t
               for t in tensors]
    result = diff(_edited(ours, tensors, aliases={}), tiny_reference)  # untied: a tying difference
    assert not result.matches
    assert result.missing == (("model.norm.weight", (8,)),)
    assert result.extra == (("model.layers.0.self_attn.sinks", (2,)),)
    assert result.shapes == (("model.layers.0.mlp.up_proj.weight", (12, 9), (12, 8)),)
    assert result.tying == (("lm_head.weight", None, "model.embed_tokens.weight"),)
    assert result.to_json()["shape_mismatches"] == [
        {"name": "model.layers.0.mlp.up_proj.weight", "ours": [12, 9], "reference": [12, 8]}]


def test_multimodal_reference_is_the_text_causal_lm():
    reference = build_reference({"model_type": "gemma3", "text_config": {"num_hidden_layers": 1}}, text_config=True)
    assert reference.class_name == "Gemma3ForCausalLM"
    assert reference.model_type == "gemma3_text"


def test_transformers_refusal_is_one_line():
    with pytest.raises(ParamledgerError, match=r"^transformers refuses the config: .*hidden size \(5\) is not a "
                                               r"multiple of the number of attention heads \(2\)"):
        build_reference({"model_type": "gemma2", "hidden_size": 5, "num_attention_heads": 2})


def test_llama_config_of_a_gated_design():
    config, note = llama_config(paramledger.load("seed-1.1b"))
    assert config["model_type"] == "llama"
    assert config["num_key_value_heads"] == 4 and config["intermediate_size"] == 5504
    assert "gated FFN" in note


def test_llama_config_of_an_ungated_design_is_arcee():
    config, note = llama_config(paramledger.load("seed-baseline"))
    assert config["model_type"] == "arcee"
    assert config["intermediate_size"] == 1024
    assert "positions sinusoidal, 0 parameters" in note


@pytest.mark.parametrize(("change", "message"), [
    ({"norm_type": "layernorm"}, r"norm_type='layernorm' has no Llama equivalent \(Llama needs 'rmsnorm'\)"),
    ({"norm_placement": "sandwich"}, r"norm_placement='sandwich' has no Llama equivalent"),
    ({"position_embedding_type": "learned"}, r"position_embedding_type='learned' has no Llama equivalent"),
    ({"attention_bias": True}, r"attention_bias != attention_output_bias has no Llama equivalent"),
    ({"qk_norm": "head"}, r"qk_norm='head' has no Llama equivalent"),
])
def test_design_without_a_llama_equivalent(change, message):
    with pytest.raises(ParamledgerError, match=message):
        llama_config(paramledger.load("seed-baseline", **change))
