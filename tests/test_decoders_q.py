"""Set Q's decoder-only types: the one-line refusals of their kinds' keys and what a count says of them (each
family's tensors are checked against transformers 5.24.0 by tests/test_families.py and tests/test_buffers.py, its
strategy in tests/_family_configs_q.py)."""

from __future__ import annotations

import pytest

import paramledger
from paramledger._exceptions import ArchitectureError

# registered by docs/notes/decoders-q.patch (a whole model without a tower, every layer sharing keys and values)

FLAT = {"vocab_size": 64, "hidden_size": 16, "num_hidden_layers": 2, "num_attention_heads": 2,
        "intermediate_size": 32}


@pytest.mark.parametrize(("config", "changes", "message"), [
    (FLAT, {"ngpt_scales_layers": [0]},
     r"ngpt_scales_layers: the kind sits beside the attention only: set ngpt_scales_beside_attention instead"),
    (FLAT, {"cross_attention_layers": [1]},
     (r"cross_attention_layers: layer 1 must be in layers_without_attn_pre_norm too \(the cross-attention layer "
      r"registers its input_layernorm itself\)")),
    (FLAT, {"cross_attention_layers": [2], "layers_without_attn_pre_norm": [2]},
     r"cross_attention_layers: layer 2 is outside 0..1"),
    ({"model_type": "mllama"}, {"text_config": {"cross_attention_layers": "3"}},
     r"cross_attention_layers: must be a list of layer indices, got '3'"),
    (FLAT, {"block_indexer_layers": [0]},
     r"block_index_heads: required with block_indexer_layers \(the block indexer's size\)"),
    (FLAT, {"block_indexer_layers": [0], "block_index_heads": 0, "block_index_head_dim": 4},
     r"block_index_heads: must be positive, got 0"),
    ({"model_type": "minimax_m3_vl_text"}, {"mlp_layer_types": "dense"},
     r"mlp_layer_types: must be a list, one entry a layer, got 'dense'"),
])
def test_bad_kind_keys_are_refused_in_one_line_naming_the_key(config, changes, message):
    with pytest.raises(ArchitectureError, match=message) as caught:
        paramledger.load({**config, **changes})
    assert "\n" not in str(caught.value)


def test_ngpt_scales_beside_attention_add_four_vectors_to_every_layer():
    plain = paramledger.inventory(paramledger.load(FLAT))
    scaled = paramledger.inventory(paramledger.load({**FLAT, "ngpt_scales_beside_attention": True}))
    # sqk and s_gate (heads × head_dim = 16), suv_gate and suv_up (intermediate_size = 32), in each of 2 layers
    assert scaled.total - plain.total == 2 * (16 + 16 + 32 + 32)


def test_dory_released_layout_counts_as_transformers_builds_it():
    # A released config.json names each layer as an attention and an mlp block, every count doubled
    # (DoryConfig.__post_init__ halves them): the count is what DoryForCausalLM builds, the recurrence in a note.
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    halved = {"model_type": "dory", "num_hidden_layers": 4, "n_input_layers": 1, "n_recurrent_layers": 2,
              "n_output_layers": 1, "layer_types": ["sliding_attention"] * 3 + ["full_attention"]}
    released = {**halved, "num_hidden_layers": 8, "n_input_layers": 2, "n_recurrent_layers": 4, "n_output_layers": 2,
                "layer_types": [block for kind in halved["layer_types"] for block in (kind, "mlp")]}
    arch = paramledger.load(released)
    assert arch.num_hidden_layers == 4
    with torch.device("meta"):
        model = transformers.AutoModelForCausalLM.from_config(transformers.AutoConfig.for_model(**released))
    assert paramledger.inventory(arch).total == sum(p.numel() for p in model.parameters())
    assert any("n_recurrent_loops" in note for note in arch.notes)


@pytest.mark.parametrize(("text", "message"), [
    ({"hidden_size_per_layer_input": 256},
     (r"config: text_config.hidden_size_per_layer_input: must be 0 in a Gemma 4 assistant, got 256 "
      r"\(Gemma4AssistantConfig.validate_architecture")),
    ({"hidden_size_per_layer_input": 0, "vocab_size_per_layer_input": 0, "use_double_wide_mlp": True},
     r"config: text_config.use_double_wide_mlp: must be False in a Gemma 4 assistant, got True"),
    ({"hidden_size_per_layer_input": 0, "vocab_size_per_layer_input": 0, "num_hidden_layers": 4,
      "num_kv_shared_layers": 2},
     r"config: text_config.num_kv_shared_layers: must be num_hidden_layers \(4\) in a Gemma 4 assistant, got 2"),
])
def test_a_gemma4_assistant_transformers_refuses_is_refused_in_one_line(text, message):
    with pytest.raises(ArchitectureError, match=message) as caught:
        paramledger.load({"model_type": "gemma4_assistant", "text_config": text})
    assert "\n" not in str(caught.value)


def test_a_gemma4_assistant_caches_nothing_of_its_own():
    # every layer reads the main model's keys and values (shared_kv_states): no k_proj, v_proj, and no cache
    arch = paramledger.load({"model_type": "gemma4_unified_assistant"})
    names = [tensor.name for tensor in paramledger.inventory(arch).tensors]
    assert not any(name.endswith("k_proj.weight") for name in names)
    assert names[-2:] == ["pre_projection.weight", "post_projection.weight"]
    assert paramledger.kv_values_per_token(arch) == 0


def test_a_whole_model_without_a_tower_names_none_in_its_note():
    """Fuyu's whole model holds a patch Linear, no tower: its note says projector and text decoder only."""
    notes = paramledger.load({"model_type": "fuyu"}).notes
    assert any("counting the whole model (projector and text decoder)" in note for note in notes)
