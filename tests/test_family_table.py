"""Seed 002's family table from real configs: where the seed is right and where it is not."""

from __future__ import annotations

import json

import pytest

import paramledger
from paramledger import family_table
from paramledger.family_table import SEED_002_MODELS, compare, family_row, kv_bytes_per_token

# What each config says, read by hand from the bundled config.json files.
FACTS = {
    "gpt2": dict(attention="MHA", norm="LayerNorm, pre", position="Learned abs", activation="GELU",
                 activation_key="gelu_new", tied=True, vocab_size=50_257, total=124_439_808),
    "Llama-2-7b-hf": dict(attention="MHA", norm="RMSNorm, pre", position="RoPE", activation="SwiGLU",
                          tied=False, vocab_size=32_000, total=6_738_415_616, num_key_value_heads=32),
    "Mistral-7B-v0.1": dict(attention="GQA (4×)", norm="RMSNorm, pre", position="RoPE", activation="SwiGLU",
                            tied=False, vocab_size=32_000, total=7_241_732_096, sliding_window=4096),
    "Phi-3-mini-4k-instruct": dict(attention="MHA", norm="RMSNorm, pre", position="RoPE", activation="SwiGLU",
                                   tied=False, vocab_size=32_064, rope_scaling=None),
    "gemma-2-2b": dict(attention="GQA (2×)", norm="RMSNorm, sandwich", position="RoPE", activation="GeGLU",
                       activation_key="gelu_pytorch_tanh", tied=True, vocab_size=256_000),
    "Qwen2.5-3B": dict(attention="GQA (8×)", norm="RMSNorm, pre", position="RoPE", activation="SwiGLU",
                       tied=True, vocab_size=151_936, qkv_bias=True, num_attention_heads=16, num_key_value_heads=2),
}


@pytest.fixture(scope="module")
def rows():
    return {name: family_row(name) for name in SEED_002_MODELS}


@pytest.mark.parametrize("name", SEED_002_MODELS)
def test_cells_read_from_the_config(rows, name):
    row = rows[name]
    for key, value in FACTS[name].items():
        assert getattr(row, key) == value, key


@pytest.mark.parametrize("name", SEED_002_MODELS)
def test_totals_and_shares_are_the_inventorys(rows, name):
    inv = paramledger.inventory(name)
    assert (rows[name].total, rows[name].embedding_share) == (inv.total, inv.embedding_share)


def test_kv_bytes_per_token_follow_seed_002():
    # 2 × layers × kv_heads × head_dim × 2 bytes (bf16)
    assert kv_bytes_per_token(paramledger.load("Llama-2-7b-hf")) == 2 * 32 * 32 * 128 * 2 == 524_288
    assert kv_bytes_per_token(paramledger.load("Mistral-7B-v0.1")) == 2 * 32 * 8 * 128 * 2
    assert kv_bytes_per_token(paramledger.load("gemma-2-2b")) == 2 * 26 * 4 * 256 * 2
    # Seed 002's worked example: 24 layers, 16 heads of 128 -> 98,304 values (196,608 bytes at 16 bits);
    # with 4 KV heads 24,576 values.
    budget = paramledger.load("seed-1.1b")
    assert kv_bytes_per_token(budget) == 24_576 * 2
    assert kv_bytes_per_token(budget.replace(num_key_value_heads=16)) == 196_608


def test_kv_bytes_per_token_of_latent_attention():
    # DeepSeek-V3 caches kv_lora_rank + qk_rope_head_dim per layer: (512 + 64) × 61 layers × 2 bytes
    assert kv_bytes_per_token(paramledger.load("DeepSeek-V3")) == (512 + 64) * 61 * 2


def test_attention_cell_per_layer_where_layers_differ():
    # gemma-4-31B-it: 32 query heads; its 50 sliding layers keep 16 KV heads, its 10 full layers 4
    # (num_global_key_value_heads, keys doubling as values).
    arch = paramledger.load("gemma-4-31B-it")
    assert (arch.layer_kv_heads(0), arch.layer_kv_heads(5)) == (16, 4)
    assert family_table.attention_cell(arch) == "GQA (2×) on 50 sliding, GQA (8×) on 10 full"
    # Qwen3-Next's class defaults: three Gated DeltaNet layers to one full-attention layer (16 query, 2 KV heads).
    qwen3_next = paramledger.load({"model_type": "qwen3_next"})
    assert family_table.attention_cell(qwen3_next) == "Gated DeltaNet on 36 linear, GQA (8×) on 12 full"
    # Per-layer query heads without layer types: counted in layers.
    design = paramledger.load("seed-baseline", num_attention_heads_per_layer=(8, 4, 4, 8, 8, 8), num_key_value_heads=4)
    assert family_table.attention_cell(design) == "GQA (2×) on 4 layers, MHA on 2 layers"
    assert family_table.attention_cell(paramledger.load("DeepSeek-V3")) == "MLA"


def lines(name):
    row = family_row(name)
    seed, found = compare(row)
    return [d.line(row, seed) for d in found]


def test_seed_is_wrong_about_llama_2_7b_attention():
    assert lines("Llama-2-7b-hf") == [
        "Llama-2-7b-hf: attention: the family table says 'GQA (4×)' (Llama 2/3); "
        "the config: 32 KV heads for 32 query heads: MHA"]


def test_seed_phi3_longrope_is_not_in_the_4k_config():
    assert lines("Phi-3-mini-4k-instruct") == [
        "Phi-3-mini-4k-instruct: position: the family table says 'RoPE (LongRope)' (Phi-3); the config: RoPE (no rope_scaling)"]


@pytest.mark.parametrize("name", ["gpt2", "Mistral-7B-v0.1", "gemma-2-2b", "Qwen2.5-3B", "Meta-Llama-3-8B"])
def test_seed_is_right(name):
    assert lines(name) == []


def test_only_the_70b_llama_2_groups_its_heads_and_by_8_not_4():
    assert lines("Llama-2-70b-hf") == [
        "Llama-2-70b-hf: attention: the family table says 'GQA (4×)' (Llama 2/3); "
        "the config: 8 KV heads for 64 query heads: GQA (8×)"]
    assert lines("Llama-2-13b-hf")[0].endswith("40 KV heads for 40 query heads: MHA")


def test_small_llama_3_ties_its_embeddings():
    assert lines("Llama-3.2-1B") == [
        "Llama-3.2-1B: tied: the family table says 'No' (Llama 2/3); the config: tie_word_embeddings is true"]


def test_qwen_seven_b_is_untied_as_the_seeds_small_qualifier_allows():
    found = lines("Qwen2.5-7B")
    assert "Qwen2.5-7B: attention: the family table says 'GQA (8×)' (Qwen 2.5); the config: 4 KV heads for 28 query heads: " \
           "GQA (7×)" in found
    assert any("tie_word_embeddings is false (the seed limits its cell: 'Yes (small)')" in line for line in found)


def test_signatures_the_configs_show_or_not():
    # Mistral's "Sliding-window attention" holds for 7B v0.1 (4096) but not for Mistral-Nemo (null).
    assert lines("Mistral-Nemo-Base-2407")[-1] == (
        "Mistral-Nemo-Base-2407: signature: the family table says 'Sliding-window attention' (Mistral); "
        "the config: sliding_window is null: every layer attends to the full context")
    # phi-4 is a phi3 model that groups its heads: the attention cell and "keeps MHA" both fail.
    assert [line.split(": ")[1] for line in lines("phi-4")] == ["attention", "position", "vocab", "signature"]


def test_a_family_outside_the_seed_has_no_comparison():
    row = family_row("DeepSeek-V3")
    assert (row.attention, row.position) == ("MLA", "RoPE (yarn)")
    assert compare(row) == (None, [])


def test_seed_table_is_the_seeds_six_rows():
    assert [r.family for r in family_table.SEED_002_TABLE] == \
        ["GPT-2", "Llama 2/3", "Mistral", "Phi-3", "Gemma 2", "Qwen 2.5"]


@pytest.mark.parametrize("gated, key, cell", [
    (True, "silu", "SwiGLU"), (True, "gelu_pytorch_tanh", "GeGLU"), (False, "gelu_new", "GELU"),
    (False, "relu", "ReLU"), (True, "relu", "ReGLU"), (False, "silu", "SiLU"), (True, "tanh", "tanh (gated)"),
])
def test_activation_cells(gated, key, cell):
    assert family_table.activation_cell(gated, key) == cell


@pytest.fixture
def config_folder(tmp_path):
    config = json.loads((paramledger.registry.get("Phi-3-mini-4k-instruct").path).read_text())["config"]
    config["rope_scaling"] = {"type": "longrope", "short_factor": [1.0] * 48, "long_factor": [1.0] * 48}
    (tmp_path / "config.json").write_text(json.dumps(config))
    return tmp_path


def test_a_config_folder_with_longrope_agrees_with_the_seed(config_folder):
    row = family_row(config_folder)
    assert row.position == "RoPE (longrope)"
    assert compare(row)[1] == []
    assert family_row(config_folder / "config.json") == row


# ----------------------------------------------------------------------------- the command
def test_families_command_prints_the_table_and_the_disagreements(cli):
    status, out, err = cli("families")
    assert status == 0 and err == ""
    assert out.splitlines()[0].split() == ["model", "attention", "norm", "position", "FFN", "tied", "vocab", "total",
                                           "emb.", "share", "KV", "bytes/token", "(bf16)"]
    for name in SEED_002_MODELS:
        assert name in out
    assert ("Llama-2-7b-hf: attention: the family table says 'GQA (4×)' (Llama 2/3); "
            "the config: 32 KV heads for 32 query heads: MHA") in out
    assert "gpt2: agrees with seed 002's GPT-2 row on all 6 cells (its signature states no checkable fact)" in out
    assert "Mistral-7B-v0.1: agrees with seed 002's Mistral row on all 6 cells and its signature" in out
    assert "524,288" in out  # Llama-2-7b's KV bytes per token


def test_families_json(cli):
    status, out, _ = cli("families", "Llama-2-7b-hf", "DeepSeek-V3", "--json")
    assert status == 0
    llama, deepseek = json.loads(out)
    assert llama["seed_002"] == {"family": "Llama 2/3", "disagreements": [
        {"column": "attention", "seed": "GQA (4×)", "config": "32 KV heads for 32 query heads: MHA"}]}
    assert llama["kv_bytes_per_token_bf16"] == 524_288
    assert "seed_002" not in deepseek and deepseek["attention"] == "MLA"


def test_families_unknown_name_is_one_line_and_status_2(cli):
    status, out, err = cli("families", "Llama-2-7b-hg")
    assert status == 2 and out == ""
    assert err.startswith("paramledger: error: Llama-2-7b-hg: ")
    assert "did you mean 'Llama-2-7b-hf'" in err and err.count("\n") == 1


def test_a_design_has_no_seed_row_but_its_cells(cli):
    status, out, _ = cli("families", "seed-1.1b")
    assert status == 0
    row = next(line for line in out.splitlines() if line.startswith("seed-1.1b "))
    assert row.split()[1:4] == ["GQA", "(4×)", "RMSNorm,"]
    assert "49,152" in row  # seed 002: 24,576 values per token with 4 KV heads, 2 bytes each
    assert "seed-1.1b: seed 002 has no row for model_type paramledger" in out
