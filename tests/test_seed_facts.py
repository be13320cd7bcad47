"""Every figure of ../shared/SEED_FACTS.md, through the Python API and through the CLI."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

import paramledger
from paramledger import lessons

# design -> (total, component counts); seed 000's table
SEED_000 = {
    "seed-baseline": 13_110_528,
    "seed-shallow": 10_749_696,
    "seed-untied": 21_499_136,
    "seed-narrow": 5_375_616,
    "seed-small-vocab": 6_819_072,
}


@pytest.mark.parametrize("design,total", SEED_000.items())
def test_seed_000_totals_api(design, total):
    assert paramledger.inventory(paramledger.load(design)).total == total


@pytest.mark.parametrize("design,total", SEED_000.items())
def test_seed_000_totals_cli(cli, design, total):
    status, out, err = cli("count", design, "--json")
    assert status == 0 and err == ""
    assert json.loads(out)["total"] == total


def test_seed_000_baseline_parts():
    inv = paramledger.inventory("seed-baseline")
    assert inv.embedding == 8_388_608
    matrices = inv.component("attention") + inv.component("ffn")
    assert matrices == 4_718_592
    assert sum(t.count for t in inv.select(layer=0) if t.component != "norm") == 786_432
    assert inv.component("norm") == 3_328
    assert f"{float(inv.embedding_share * 100):.6f}" == "63.983754"
    assert inv.non_embedding("hf") == 4_721_920


def test_seed_000_baseline_parts_cli(cli):
    status, out, _ = cli("count", "seed-baseline", "--json")
    data = json.loads(out)
    assert data["components"]["embedding"] == 8_388_608
    assert data["components"]["attention"] + data["components"]["ffn"] == 4_718_592
    assert data["components"]["norm"] == 3_328
    assert data["by_layer"]["0"] - 512 == 786_432
    assert f"{data['embedding_share'] * 100:.6f}" == "63.983754"
    assert data["tied"] is True
    status, text, _ = cli("count", "seed-baseline")
    assert "13,110,528" in text and "63.983754 %" in text


def _delta(design):
    base = paramledger.inventory("seed-baseline").total
    total = paramledger.inventory(design).total
    return total - base, Fraction(total - base, base) * 100


def test_seed_000_variants():
    delta, pct = _delta("seed-shallow")
    assert delta == -2_360_832 and f"{float(pct):.6f}" == "-18.007147"
    assert f"{float(paramledger.inventory('seed-shallow').embedding_share * 100):.2f}" == "78.04"
    delta, pct = _delta("seed-untied")
    assert delta == 8_388_608 and f"{float(pct):.2f}" == "63.98"
    delta, pct = _delta("seed-narrow")
    assert delta == -7_734_912 and f"{float(pct):.6f}" == "-58.997715"
    delta, pct = _delta("seed-small-vocab")
    assert delta == -6_291_456 and f"{float(pct):.6f}" == "-47.987816"
    assert paramledger.inventory("seed-small-vocab").non_embedding() == 4_721_920


@pytest.mark.parametrize("override,total", [
    ("num_hidden_layers=3", 10_749_696),
    ("tie_word_embeddings=false", 21_499_136),
    ("hidden_size=128", 5_375_616),  # the design couples m = 4d, as the seed does
    ("vocab_size=8192", 6_819_072),
])
def test_seed_000_variants_by_override_cli(cli, override, total):
    status, out, _ = cli("count", "seed-baseline", "--set", override, "--json")
    assert status == 0 and json.loads(out)["total"] == total


def test_seed_000_closed_form():
    for L in (1, 3, 6, 9):
        for d in (64, 128, 256):
            for V in (1000, 8192, 32768):
                inv = paramledger.inventory("seed-baseline", num_hidden_layers=L, hidden_size=d, vocab_size=V)
                m = 4 * d
                assert inv.total == V * d + L * (4 * d * d + 2 * d * m + 2 * d) + d
                assert inv.total == V * d + 12 * L * d * d + 2 * L * d + d


def test_seed_000_break_even(cli):
    arch = paramledger.load("seed-baseline")
    assert paramledger.break_even_vocab_size(arch) == 18_446  # V > 12·L·d + 2·L + 1 = 18,445
    assert 12 * 6 * 256 + 2 * 6 + 1 == 18_445
    below = paramledger.inventory(arch.replace(vocab_size=18_445))
    above = paramledger.inventory(arch.replace(vocab_size=18_446))
    assert below.embedding == below.total - below.embedding  # exactly equal at the boundary
    assert above.embedding > above.total - above.embedding
    assert json.loads(cli("count", "seed-baseline", "--json")[1])["break_even_vocab_size"] == 18_446
    assert paramledger.break_even_vocab_size(paramledger.load("seed-untied")) is None


def test_seed_000_counting_rules():
    """Frozen still counts; an alias counts once; two equal independent tables count twice."""
    base = paramledger.inventory("seed-baseline")
    frozen = paramledger.inventory("seed-baseline", frozen=["model.embed_tokens.weight"])
    assert frozen.total == base.total and frozen.frozen == 8_388_608
    assert frozen.trainable == base.total - 8_388_608
    assert base.aliases == {"lm_head.weight": "model.embed_tokens.weight"}
    assert base["lm_head.weight"] is base["model.embed_tokens.weight"]
    untied = paramledger.inventory("seed-untied")
    assert untied.total - base.total == 32_768 * 256
    assert untied["lm_head.weight"].shape == untied["model.embed_tokens.weight"].shape


def test_seed_000_frozen_cli(cli):
    status, out, _ = cli("count", "seed-baseline", "--set", "frozen=model.embed_tokens.weight", "--json")
    data = json.loads(out)
    assert data["total"] == 13_110_528 and data["frozen"] == 8_388_608


def test_seed_000_tokenizer_example(cli):
    from paramledger.tokenizer import encode

    a, b = paramledger.load("seed-baseline"), paramledger.load("seed-small-vocab")
    assert (a.vocab_size, b.vocab_size) == (32_768, 8_192)
    assert encode(a, "camera") == [("camera", 3141)]
    assert encode(b, "camera") == [("ca", 41), ("me", 72), ("ra", 105)]
    assert "".join(p for p, _ in encode(b, "camera")) == "camera"
    status, out, _ = cli("encode", "seed-baseline", "camera", "--json")
    assert [t["id"] for t in json.loads(out)["tokens"]] == [3141]
    status, out, _ = cli("encode", "seed-small-vocab", "camera", "--json")
    assert [t["id"] for t in json.loads(out)["tokens"]] == [41, 72, 105]
    status, out, _ = cli("encode", "seed-small-vocab", "camera")
    assert "3 tokens" in out and "8,192 rows" in out


# ---------------------------------------------------------------- seed 001
def test_seed_001_functions():
    assert lessons.attn_params(4) == 64
    assert lessons.attn_params(4, bias=True) == 80
    assert lessons.mlp_params(4, 8) == 64
    assert lessons.mlp_params(4, 8, gated=True) == 96
    assert lessons.mlp_params(4, 8, bias=True) - lessons.mlp_params(4, 8) == 8 + 4  # f + d
    assert lessons.mlp_params(4, 8, gated=True, bias=True) - lessons.mlp_params(4, 8, gated=True) == 2 * 8 + 4
    assert lessons.block_params(4, 8) == 128
    assert lessons.block_params(4, 8, bias=True, norms=2) == 164
    assert lessons.model_params(1, 4, 8, 100, norms_per_block=0, final_norm=False) == 528
    assert lessons.model_params(1, 4, 8, 100) == 540
    assert lessons.model_params(1, 4, 8, 100, tied=False) == 940


def test_seed_001_cli(cli, tmp_path):
    spec = tmp_path / "lesson.toml"
    spec.write_text(
        "vocab_size = 100\nhidden_size = 4\nnum_hidden_layers = 1\nnum_attention_heads = 1\n"
        "intermediate_size = 8\nnorm_placement = 'none'\nfinal_norm = false\nposition_embedding_type = 'none'\n"
    )
    assert json.loads(cli("count", str(spec), "--json")[1])["total"] == 528
    assert json.loads(cli("count", str(spec), "--set", "norm_placement=pre", "--set", "final_norm=true",
                          "--json")[1])["total"] == 540
    assert json.loads(cli("count", str(spec), "--set", "norm_placement=pre", "--set", "final_norm=true",
                          "--set", "tie_word_embeddings=false", "--json")[1])["total"] == 940


def test_seed_001_context_length_adds_nothing():
    """Doubling the context adds no learned weights: no field of a RoPE design is a context length."""
    inv = paramledger.inventory("seed-1.1b")
    longer = paramledger.inventory("seed-1.1b", max_position_embeddings=2 * 2048, sliding_window=4096)
    assert longer.total == inv.total


def test_seed_001_norms():
    from paramledger.norms import layer_norm, rms_norm

    assert layer_norm([3.0, 4.0]) == [-1.0, 1.0]
    assert rms_norm([3.0, 4.0]) == pytest.approx([3 / 12.5**0.5, 4 / 12.5**0.5])


# ---------------------------------------------------------------- seed 002
def test_seed_002_budget():
    inv = paramledger.inventory("seed-1.1b")
    layer = inv.select(layer=0)
    by = {t.name.rsplit(".", 2)[-2]: t.count for t in layer}
    assert inv.by_layer[0] == 44_306_432
    assert by["q_proj"] + by["o_proj"] == 8_388_608
    assert by["k_proj"] + by["v_proj"] == 2_097_152
    assert by["gate_proj"] + by["up_proj"] + by["down_proj"] == 33_816_576
    assert by["input_layernorm"] + by["post_attention_layernorm"] == 4_096
    assert inv.total == 1_128_892_416
    mha = paramledger.inventory("seed-1.1b", num_key_value_heads=16)
    assert mha.total - inv.total == 150_994_944
    assert sum(t.count for t in mha.select(layer=0) if ".k_proj" in t.name or ".v_proj" in t.name) == 8_388_608


def test_seed_002_budget_cli(cli):
    status, out, _ = cli("count", "seed-1.1b", "--json")
    assert json.loads(out)["total"] == 1_128_892_416
    status, out, _ = cli("count", "seed-1.1b", "--set", "num_key_value_heads=16", "--json")
    assert json.loads(out)["total"] == 1_128_892_416 + 150_994_944


def test_seed_002_gemma_table():
    inv = paramledger.inventory({"vocab_size": 256_000, "hidden_size": 2304, "num_hidden_layers": 1,
                                 "num_attention_heads": 8, "head_dim": 256})
    assert inv.embedding == 589_824_000


# ---------------------------------------------------------------- seed 003
GPT2_SMALL = {"V": 50257, "L": 12, "d_model": 768, "n_heads": 12, "d_ff": 3072, "ffn_type": "standard",
              "tie_embeddings": True}


def test_seed_003_as_written_and_corrected():
    as_written = lessons.full_parameter_count(**GPT2_SMALL)
    assert as_written["total"] == 123_653_376
    corrected = lessons.full_parameter_count(**GPT2_SMALL, max_position_embeddings=1024)
    assert corrected["total"] == 124_439_808
    assert corrected["position_embedding"] == 1024 * 768 == 786_432
    assert corrected["total"] - as_written["total"] == 786_432
    keys = ["embedding", "attention_per_layer", "ffn_per_layer", "norm_per_layer", "total_per_layer",
            "all_layers", "final_norm", "output_head", "total"]
    assert list(as_written) == keys
    assert as_written["embedding"] + as_written["all_layers"] + as_written["final_norm"] \
        + as_written["output_head"] == as_written["total"]


def test_seed_003_rule_of_thumb(cli, tmp_path):
    spec = tmp_path / "gpt2.toml"
    spec.write_text(
        "vocab_size = 50257\nhidden_size = 768\nnum_hidden_layers = 12\nnum_attention_heads = 12\n"
        "intermediate_size = 3072\nattention_bias = true\nattention_output_bias = true\nmlp_bias = true\n"
        "norm_type = 'layernorm'\nposition_embedding_type = 'learned'\nmax_position_embeddings = 1024\n"
    )
    rule = paramledger.rule_of_thumb(paramledger.load(spec))
    assert rule.estimate == 84_934_656
    assert rule.exact == 124_439_808
    assert rule.gap == 124_439_808 - 84_934_656
    data = json.loads(cli("count", str(spec), "--json")[1])
    assert data["total"] == 124_439_808
    assert data["rule_of_thumb"] == {"formula": "12 * num_hidden_layers * hidden_size**2",
                                     "estimate": 84_934_656, "gap": 39_505_152}


def test_seed_001_norms_cli(cli):
    status, out, _ = cli("norm", "3", "4", "--json")
    data = json.loads(out)
    assert data["layer_norm"] == [-1.0, 1.0]
    assert data["rms_norm"] == pytest.approx([3 / 12.5**0.5, 4 / 12.5**0.5])
