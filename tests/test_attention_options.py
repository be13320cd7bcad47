"""DiffLlama's and Doge's additions to attention and the layer (each verified tensor by tensor in
test_families.py): what they hold at full size, and their bad input refused in one line."""

from __future__ import annotations

import json

import pytest

import paramledger
from paramledger._exceptions import ArchitectureError


def test_diffllama_holds_four_head_dim_lambdas_per_layer():
    inv = paramledger.inventory({"model_type": "diffllama"})  # DiffLlamaConfig's defaults: 16 layers, head_dim 64
    lambdas = [t for t in inv.tensors if ".lambda_" in t.name]
    assert len(lambdas) == 16 * 4 and {t.shape for t in lambdas} == {(64,)}
    llama_like = paramledger.inventory(inv.architecture.replace(attention_lambdas=False))
    assert inv.total - llama_like.total == 16 * 4 * 64


def test_doge_cdmoe_routes_rows_of_two_tables():
    inv = paramledger.inventory({"model_type": "doge", "is_moe": True})  # 16,384 experts, 64 per token
    d, e = 1024, 16384
    down = inv["model.layers.0.mlp.down_embed.weight"]
    assert down.shape == (e, d) and down.experts == e
    assert inv["model.layers.0.mlp.router_gate.weight"].shape == (2 * 128, d)  # 2 x floor(sqrt(16384))
    assert inv.total - inv.active == 32 * 2 * (e - 64) * d  # all but 64 rows of each table idle per token


@pytest.mark.parametrize(("config", "key"), [
    ({"model_type": "diffllama", "num_attention_heads": 6, "num_key_value_heads": 3, "hidden_size": 96},
     "num_key_value_heads"),
    ({"model_type": "doge", "is_moe": True, "num_experts": 0}, "num_experts"),
    ({"model_type": "doge", "is_moe": True, "num_experts": 4, "num_experts_per_tok": 8}, "num_experts_per_tok"),
])
def test_bad_input_is_one_line_naming_the_key(tmp_path, cli, config, key):
    with pytest.raises(ArchitectureError) as raised:
        paramledger.inventory(config)
    assert raised.value.key == key
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config))
    status, out, err = cli("count", str(path))
    assert status == 2 and out == "" and err.count("\n") == 1 and key in err


def test_the_options_mean_nothing_without_their_part():
    with pytest.raises(ArchitectureError, match="expert_embeddings: set without num_experts"):
        paramledger.load("Llama-3.2-1B", expert_embeddings=True)
    with pytest.raises(ArchitectureError, match="attention_lambdas"):
        paramledger.load("DeepSeek-V3", attention_lambdas=True)
