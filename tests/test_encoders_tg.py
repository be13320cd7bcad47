"""NeoMME counted as NeoMMEForMaskedLM (set TG) against transformers 5.24.0: its figures, tying, the tensors only it
builds, its refusals.  tests/test_families.py checks the defaults and random configs (tests/_family_configs_tg.py)."""

from __future__ import annotations

import json
import re

import pytest
from _cli_refusal import refused_by_the_cli

import paramledger
from paramledger._exceptions import ArchitectureError
from paramledger.reference import build_reference, diff

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

TINY = {"model_type": "neomme", "vocab_size": 50, "embedding_rank": 8, "hidden_size": 32, "intermediate_size": 20,
        "num_hidden_layers": 3, "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16, "patch_size": 2}


def _meta(config: dict):
    cfg = transformers.AutoConfig.for_model(**config)
    with torch.device("meta"):
        return transformers.AutoModelForMaskedLM.from_config(cfg)


def test_the_class_defaults():
    """NeoMMEConfig's defaults (NeoMME-260M's sizes): 262,937,906, two vocab × 256 tables (the factorized token table
    and the value embeddings), the 3 × 32² patch stem."""
    config = {"model_type": "neomme"}
    inventory = paramledger.inventory(paramledger.load(config))
    assert diff(inventory, build_reference(config)).matches
    assert (inventory.total, inventory.component("embedding"), inventory.component("vision")) == (
        262_937_906, 2 * 131_072 * 256, 8_395_776)
    assert inventory.non_embedding("hf") == 195_829_042
    assert inventory.aliases == {"unembedding_projection.weight": "model.embed_tokens.embedding_projection.weight",
                                 "lm_head.weight": "model.embed_tokens.word_embeddings.weight"}


def test_a_layer_holds_its_lambdas_alpha_and_gated_output():
    inventory = paramledger.inventory(paramledger.load({**TINY, "attention_bias": True, "mlp_bias": True}))
    layer = "model.layers.1."
    assert [(t.name.removeprefix(layer), t.shape) for t in inventory.tensors if t.name.startswith(layer)] == [
        ("lambdas", (2,)), ("self_attn.q_proj.weight", (64, 32)), ("self_attn.q_proj.bias", (64,)),
        ("self_attn.k_proj.weight", (32, 32)), ("self_attn.k_proj.bias", (32,)),
        ("self_attn.v_proj.weight", (32, 32)), ("self_attn.v_proj.bias", (32,)),
        ("self_attn.exclusive_self_attention.alpha", (4,)),
        ("self_attn.output_projection.gate_proj.weight", (64, 32)),
        ("self_attn.output_projection.o_proj.weight", (32, 64)), ("self_attn.output_projection.o_proj.bias", (32,)),
        ("mlp.up_proj.weight", (20, 32)), ("mlp.up_proj.bias", (20,)), ("mlp.down_proj.weight", (32, 20)),
        ("mlp.down_proj.bias", (32,))]
    assert inventory["model.value_embeddings.weight"].shape == (50, 32)
    assert inventory["model.patch_embeddings.up_proj.weight"].shape == (64, 12)


@pytest.mark.parametrize("tie", [None, True, False])
def test_the_head_and_its_projection_are_tied_by_tie_word_embeddings(tie):
    """Tied (the default): lm_head and unembedding_projection are the factorized table's two halves; untied, each its
    own.  Hugging Face's non-embedding count drops both nn.Embedding tables (word and value embeddings)."""
    config = {**TINY, **({} if tie is None else {"tie_word_embeddings": tie})}
    model = _meta(config)
    inventory = paramledger.inventory(paramledger.load(config))
    tied = tie is not False
    assert (model.unembedding_projection.weight is model.model.embed_tokens.embedding_projection.weight) == tied
    assert inventory.tied == tied and inventory.total == model.num_parameters()
    assert inventory.non_embedding("hf") == model.num_parameters(exclude_embeddings=True)
    assert [t.name for t in inventory.tensors] == [name for name, _ in model.named_parameters()]


def test_count_says_the_head_and_its_projection_are_tied(cli, tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps(TINY))
    code, out, _ = cli("count", str(path))
    assert code == 0
    assert ("output head: tied (unembedding_projection.weight -> model.embed_tokens.embedding_projection.weight, "
            "lm_head.weight -> model.embed_tokens.word_embeddings.weight)") in out
    assert "shared tensors" not in out


@pytest.mark.parametrize(("changes", "message"), [
    ({"layer_types": ["sliding_attention"] * 3}, "layer_types: must hold a full_attention layer"),
    ({"layer_types": ["full_attention"]}, "layer_types: must list num_hidden_layers=3 entries"),
    ({"layer_types": ["full_attention", "chunked", "full_attention"]}, "layer_types: must list num_hidden_layers=3"),
    ({"sliding_window": None}, "sliding_window: must be a positive whole number, got None"),
    ({"sliding_window": 0}, "sliding_window: must be a positive whole number, got 0"),
    ({"rope_parameters": {"full_attention": {"partial_rotary_factor": 0.4}}},
     "rope_parameters: full_attention's partial_rotary_factor 0.4 rotates 6 of head_dim=16"),
    ({"head_dim": 8}, "rope_parameters: full_attention's partial_rotary_factor 0.25 rotates 2 of head_dim=8"),
    ({"rope_parameters": [1]}, "rope_parameters: must be a JSON object"),
    ({"patch_size": 0}, "patch_size: must be a positive whole number, got 0"),
    ({"embedding_rank": -1}, "embedding_rank: "),
    ({"patch_size": None}, "patch_size: must be a positive whole number, got None"),
    ({"head_dim": None}, "head_dim: must be a positive whole number, got None"),
])
def test_refusals_in_one_line(changes, message):
    with pytest.raises(ArchitectureError, match=re.escape(message)) as raised:
        paramledger.load({**TINY, **changes})
    assert "\n" not in str(raised.value)


def test_a_refusal_exits_2_with_one_line(tmp_path):
    refused_by_the_cli(tmp_path, json.dumps({**TINY, "layer_types": ["sliding_attention"] * 3}),
                       "layer_types: must hold a full_attention layer")


def test_the_lambdas_key_is_refused_beside_latent_attention():
    from paramledger.architecture import Architecture

    given = {"vocab_size": 64, "hidden_size": 32, "num_hidden_layers": 2, "num_attention_heads": 4,
             "intermediate_size": 48, "layer_lambdas": True, "kv_lora_rank": 16, "qk_rope_head_dim": 8,
             "qk_nope_head_dim": 8, "v_head_dim": 8}
    with pytest.raises(ArchitectureError, match="layer_lambdas: is built into plain multi-head self-attention"):
        Architecture.from_mapping(given)
