"""The T5 lineage counted whole (families/t5.py, parts/relative_bias.py): what AutoModelForSeq2SeqLM builds for t5,
mt5 and umt5, the relative-position table where each class learns it, the head tied whatever the config says, the
encoder apart in every view, the caches against transformers' own after a real forward pass, and the refusals.
tests/test_families.py checks every type's defaults and random configs (tests/_family_configs_r.py); these are the
behaviours around them."""

from __future__ import annotations

import json
import re

import pytest

import paramledger
from paramledger._exceptions import ArchitectureError
from paramledger.reference import build_reference, default_config, diff

from test_seq2seq_n import assert_caches_equal_transformers

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

LINEAGE = ("t5", "mt5", "umt5", "longt5")
TINY = {"vocab_size": 64, "d_model": 32, "d_kv": 8, "d_ff": 24, "num_layers": 3, "num_decoder_layers": 3,
        "num_heads": 4, "relative_attention_num_buckets": 16, "pad_token_id": 0, "eos_token_id": 1,
        "decoder_start_token_id": 0}
TABLE = "layer.0.SelfAttention.relative_attention_bias.weight"


def _meta(config: dict):
    cfg = transformers.AutoConfig.for_model(**config)
    with torch.device("meta"):
        return transformers.AutoModelForSeq2SeqLM.from_config(cfg)


def _tables(inventory) -> list[str]:
    return [t.name for t in inventory.tensors if t.name.endswith(TABLE)]


@pytest.mark.parametrize("model_type", LINEAGE)
def test_the_class_default_is_the_whole_model(model_type):
    config = default_config(model_type)
    inventory = paramledger.inventory(paramledger.load(config))
    whole = build_reference(config)
    assert whole.class_name == paramledger.families.get(model_type).seq2seq.whole_class
    assert diff(inventory, whole).matches
    assert [t.name for t in inventory.tensors] == [name for name, _ in whole.tensors]
    assert inventory.has_towers and inventory.component("encoder") + inventory.text_decoder == inventory.total


def test_t5_small_figures():
    """T5Config's defaults are t5-small's sizes: 60,506,624 in the whole model (the T5 paper's "60M"), 18,881,280
    of them the encoder (its parameters in named_parameters(), its table the shared one), 41,625,344 the decoder
    with the shared table; 44,056,576 without the nn.Embeddings (num_parameters(exclude_embeddings=True))."""
    inventory = paramledger.inventory(paramledger.load(default_config("t5")))
    assert (inventory.total, inventory.component("encoder"), inventory.text_decoder) == (
        60_506_624, 18_881_280, 41_625_344)
    assert inventory.non_embedding("hf") == 44_056_576
    assert inventory.aliases == {"lm_head.weight": "shared.weight", "encoder.embed_tokens.weight": "shared.weight",
                                 "decoder.embed_tokens.weight": "shared.weight"}


@pytest.mark.parametrize(("model_type", "layers"), [("t5", [0]), ("mt5", [0]), ("umt5", [0, 1, 2])])
def test_the_relative_table_sits_where_the_class_learns_it(model_type, layers):
    """T5Stack: the first block's self-attention only (has_relative_attention_bias=bool(i == 0)), in the encoder
    and the decoder, never the cross-attention; UMT5: every block's."""
    inventory = paramledger.inventory(paramledger.load({"model_type": model_type, **TINY}))
    expected = [f"{stack}.block.{i}.{TABLE}" for stack in ("encoder", "decoder") for i in layers]
    assert _tables(inventory) == expected
    assert all(inventory[name].shape == (16, 4) for name in expected)
    assert all(inventory[name].component == ("encoder" if name.startswith("encoder.") else "positions")
               for name in expected)


@pytest.mark.parametrize("model_type", ["t5", "umt5"])
def test_a_new_depth_keeps_the_table_where_the_class_learns_it(model_type):
    """--set num_hidden_layers (the decoder's depth: num_decoder_layers) rereads the config: the first block's
    table alone in T5, every block's in UMT5; the encoder keeps its num_layers."""
    path_config = {"model_type": model_type, **TINY}
    deeper = paramledger.load(path_config).replace(num_hidden_layers=5)
    inventory = paramledger.inventory(deeper)
    reference = build_reference({**path_config, "num_decoder_layers": 5})
    assert diff(inventory, reference).matches
    decoder = [name for name in _tables(inventory) if name.startswith("decoder.")]
    assert decoder == [f"decoder.block.{i}.{TABLE}" for i in ([0] if model_type == "t5" else range(5))]


@pytest.mark.parametrize("tie", [None, True, False])
@pytest.mark.parametrize("model_type", LINEAGE)
def test_the_head_is_tied_whatever_the_config_says(model_type, tie):
    """T5Config, MT5Config and UMT5Config force tie_word_embeddings true (the config's value only becomes
    scale_decoder_outputs): T5 v1.1, Flan-T5 and mT5 releases say false and are tied in 5.24.0 all the same."""
    config = {"model_type": model_type, **TINY, **({} if tie is None else {"tie_word_embeddings": tie})}
    model = _meta(config)
    assert model.lm_head.weight is model.shared.weight
    inventory = paramledger.inventory(paramledger.load(config))
    assert inventory.tied and inventory.aliases["lm_head.weight"] == "shared.weight"
    assert inventory.total == model.num_parameters()
    # num_parameters(exclude_embeddings=True) drops every nn.Embedding: the shared table and the relative tables
    assert inventory.non_embedding("hf") == model.num_parameters(exclude_embeddings=True)


@pytest.mark.parametrize(("proj", "names"), [
    ("relu", ["wi", "wo"]), ("gelu_new", ["wi", "wo"]), ("gated-gelu", ["wi_0", "wi_1", "wo"]),
    ("gated-silu", ["wi_0", "wi_1", "wo"])])
def test_the_feed_forward_is_named_as_its_gating(proj, names):
    inventory = paramledger.inventory(paramledger.load({"model_type": "t5", **TINY, "feed_forward_proj": proj}))
    assert [t.name.rsplit(".", 2)[-2] for t in inventory.tensors if t.name.startswith("decoder.block.0.layer.2.")
            and "DenseReluDense" in t.name] == names
    assert diff(inventory, build_reference({"model_type": "t5", **TINY, "feed_forward_proj": proj})).matches


def test_a_head_width_apart_from_d_model():
    """d_kv is each head's width whatever d_model is (T5Attention's inner_dim = n_heads × d_kv)."""
    inventory = paramledger.inventory(paramledger.load({"model_type": "t5", **TINY, "d_kv": 5, "num_heads": 3}))
    assert inventory["decoder.block.0.layer.0.SelfAttention.q.weight"].shape == (15, 32)
    assert inventory["decoder.block.0.layer.1.EncDecAttention.o.weight"].shape == (32, 15)


def test_count_shows_the_encoder_and_the_decoder_apart(cli, tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"model_type": "t5", **TINY, "num_decoder_layers": 2}))
    code, out, _ = cli("count", str(path), "--json")
    assert code == 0
    data = json.loads(out)
    whole = _meta({"model_type": "t5", **TINY, "num_decoder_layers": 2})
    encoder = sum(p.numel() for name, p in whole.named_parameters() if name.startswith("encoder."))
    assert data["total"] == whole.num_parameters() and data["components"]["encoder"] == encoder
    assert data["text_decoder"] == data["total"] - encoder
    code, out, _ = cli("count", str(path))
    assert code == 0 and re.search(rf"^encoder\s+{encoder:,}\s", out, re.MULTILINE)
    assert f"text decoder: {data['text_decoder']:,} " in out and "the total less the encoder;" in out


@pytest.mark.parametrize(("model_type", "decoder_layers"),
                         [("t5", 3), ("t5", 2), ("umt5", 3), ("mt5", 4), ("longt5", 2)])
def test_the_whole_models_caches_equal_transformers_after_a_forward_pass(model_type, decoder_layers):
    assert_caches_equal_transformers({"model_type": model_type, **TINY, "num_decoder_layers": decoder_layers})


@pytest.mark.parametrize(("key", "value", "message"), [
    ("relative_attention_num_buckets", 0, "relative_attention_num_buckets: must be positive, got 0"),
    ("relative_attention_num_buckets", -3, "relative_attention_num_buckets: must be zero or more, got -3"),
    ("feed_forward_proj", "gated-swishy", "feed_forward_proj: 'swishy' is not an activation transformers 5.24.0"),
    ("feed_forward_proj", "relu-gated", "feed_forward_proj: must be 'ACT' or 'gated-ACT'"),
    ("feed_forward_proj", "gated-gelu-new", "feed_forward_proj: must be 'ACT' or 'gated-ACT'"),
    ("feed_forward_proj", 7, "feed_forward_proj: must be 'ACT' or 'gated-ACT'"),
    ("feed_forward_proj", "gated-prelu", "feed_forward_proj: 'prelu' is not counted"),
    ("num_decoder_layers", -1, "num_decoder_layers: must be positive, got -1"),
    ("num_layers", None, "num_layers: must be a positive whole number, got None"),  # (num_decoder_layers null: it)
    ("num_layers", 0, "num_layers: must be a positive whole number, got 0"),
    ("d_kv", 0, "d_kv: must be"),
])
def test_a_bad_value_is_refused_in_one_line_under_its_own_key(key, value, message):
    with pytest.raises(ArchitectureError, match=message.replace("(", r"\(").replace(")", r"\)")) as raised:
        paramledger.load({"model_type": "t5", **TINY, key: value})
    assert "\n" not in str(raised.value)


def test_a_bad_value_exits_2_with_one_line(cli, tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"model_type": "t5", **TINY, "num_decoder_layers": -1}))
    code, out, err = cli("count", str(path))
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "num_decoder_layers" in err


@pytest.mark.parametrize("given", [{}, {"num_decoder_layers": None}], ids=["absent", "null"])
@pytest.mark.parametrize("model_type", LINEAGE)
def test_num_decoder_layers_absent_or_null_is_num_layers(model_type, given):
    """T5Config: num_decoder_layers defaults to num_layers ("default = symmetry"), its class default null."""
    config = {**{key: value for key, value in TINY.items() if key != "num_decoder_layers"}, **given, "num_layers": 2}
    arch = paramledger.load({"model_type": model_type, **config})
    assert arch.num_hidden_layers == 2
    assert diff(paramledger.inventory(arch), build_reference({"model_type": model_type, **config})).matches


@pytest.mark.parametrize("model_type", ["t5", "umt5"])
def test_lora_on_the_whole_model_matches_peft(model_type):
    """PEFT's "all-linear" on T5: q, k, v, o, EncDecAttention's and the feed-forward's Linears; the shared table,
    the stacks' embed_tokens and the relative tables are nn.Embeddings it leaves."""
    pytest.importorskip("peft")
    from test_adapters import assert_matches_peft

    config = {"model_type": model_type, **TINY, "feed_forward_proj": "gated-gelu"}
    assert_matches_peft(config, r=2, target_modules="all-linear")


@pytest.mark.parametrize(("kind", "attention", "tables"), [
    (None, "LocalSelfAttention", ["relative_attention_bias"]),
    ("local", "LocalSelfAttention", ["relative_attention_bias"]),
    ("transient-global", "TransientGlobalSelfAttention", ["relative_attention_bias", "global_relative_attention_bias"]),
])
def test_longt5_encoder_attention_by_its_type(kind, attention, tables):
    """LongT5's encoder runs LongT5LocalAttention or LongT5TransientGlobalAttention (its two tables in the first block,
    its global_input_layer_norm in every block), its decoder T5's self-attention."""
    config = {"model_type": "longt5", **TINY, **({"encoder_attention_type": kind} if kind else {})}
    inventory = paramledger.inventory(paramledger.load(config))
    assert diff(inventory, build_reference(config)).matches
    prefix = f"encoder.block.0.layer.0.{attention}."
    assert [t.name for t in inventory.tensors if "relative_attention_bias" in t.name] == [
        *(f"{prefix}{table}.weight" for table in tables), f"decoder.block.0.{TABLE}"]
    norms = [t.name for t in inventory.tensors if t.name.endswith("global_input_layer_norm.weight")]
    assert norms == ([f"encoder.block.{i}.layer.0.{attention}.global_input_layer_norm.weight" for i in range(3)]
                     if kind == "transient-global" else [])


def test_longt5_refuses_another_attention_type():
    with pytest.raises(ArchitectureError, match="encoder_attention_type: must be 'local' or 'transient-global', "
                                                "got 'global'"):
        paramledger.load({"model_type": "longt5", **TINY, "encoder_attention_type": "global"})


def test_a_release_whose_file_says_untied_is_told_what_its_checkpoint_holds_beside_the_tied_count():
    """mT5's config.json says tie_word_embeddings false and its checkpoint stores lm_head; MT5Config ties anyway."""
    notes = paramledger.inventory("mt5-base").notes
    (note,) = [n for n in notes if n.startswith("the head is tied")]
    assert "192,086,016 more" in note  # 250,112 × 768: the 582,401,280 the untied checkpoint holds
    assert not any(n.startswith("the head is tied") for n in paramledger.inventory("t5-base").notes)
