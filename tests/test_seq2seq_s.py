"""T5Gemma counted whole (families/t5gemma.py): what AutoModelForSeq2SeqLM builds, the encoder and the decoder read
from their own sections (widths, vocabularies and depths apart), the cross-attention's GQA keys and values over the
encoder's width, the head tied by the whole config's key, the encoder apart in every view, the caches against
transformers' own after a real forward pass, and the refusals.  tests/test_families.py checks the defaults and
random configs (tests/_family_configs_s.py); these are the behaviours around them."""

from __future__ import annotations

import json
import re

import pytest

import paramledger
from paramledger._exceptions import ArchitectureError
from paramledger.families.t5gemma import SECTION_KNOWN
from paramledger.reference import build_reference, default_config, diff

from test_seq2seq_n import assert_caches_equal_transformers

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

ENCODER = {"vocab_size": 80, "hidden_size": 32, "intermediate_size": 48, "num_hidden_layers": 3,
           "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 8, "pad_token_id": 0}
DECODER = {"vocab_size": 72, "hidden_size": 24, "intermediate_size": 40, "num_hidden_layers": 2,
           "num_attention_heads": 2, "num_key_value_heads": 1, "head_dim": 12, "pad_token_id": 0}
TINY = {"model_type": "t5gemma", "encoder": ENCODER, "decoder": DECODER, "pad_token_id": 0}


def _meta(config: dict):
    cfg = transformers.AutoConfig.for_model(**config)
    with torch.device("meta"):
        return transformers.AutoModelForSeq2SeqLM.from_config(cfg)


def test_the_class_default_is_the_whole_model():
    """T5GemmaConfig's defaults (both sections Gemma 2 2B's sizes): 5,596,853,760 in the whole model, 2,614,341,888
    of them the encoder (its own table), 2,982,511,872 the decoder with its cross-attention and tied head."""
    config = default_config("t5gemma")
    inventory = paramledger.inventory(paramledger.load(config))
    whole = build_reference(config)
    assert whole.class_name == "T5GemmaForConditionalGeneration" and diff(inventory, whole).matches
    assert (inventory.total, inventory.component("encoder"), inventory.text_decoder) == (
        5_596_853_760, 2_614_341_888, 2_982_511_872)
    assert inventory.aliases == {"lm_head.out_proj.weight": "model.decoder.embed_tokens.weight"}


def test_each_stack_is_read_from_its_own_section():
    """The encoder's widths are its section's, the decoder's its own; the cross-attention's k_proj and v_proj read
    the encoder's width into the decoder's KV heads (T5GemmaCrossAttention)."""
    inventory = paramledger.inventory(paramledger.load(TINY))
    assert inventory["model.encoder.embed_tokens.weight"].shape == (80, 32)
    assert inventory["model.encoder.layers.2.self_attn.k_proj.weight"].shape == (16, 32)
    assert inventory["model.decoder.embed_tokens.weight"].shape == (72, 24)
    assert inventory["model.decoder.layers.1.cross_attn.q_proj.weight"].shape == (24, 24)
    assert inventory["model.decoder.layers.1.cross_attn.k_proj.weight"].shape == (12, 32)
    assert inventory["model.decoder.layers.1.post_cross_attn_layernorm.weight"].shape == (24,)
    assert diff(inventory, build_reference(TINY)).matches


@pytest.mark.parametrize("tie", [None, True, False])
def test_the_head_is_tied_by_the_whole_configs_key(tie):
    """T5GemmaForConditionalGeneration ties lm_head.out_proj to the decoder's table by the top-level
    tie_word_embeddings (default true); the encoder's table is never tied.  Hugging Face's non-embedding count
    drops both tables."""
    config = {**TINY, **({} if tie is None else {"tie_word_embeddings": tie})}
    model = _meta(config)
    inventory = paramledger.inventory(paramledger.load(config))
    tied = tie is not False
    assert (model.lm_head.out_proj.weight is model.model.decoder.embed_tokens.weight) == tied == inventory.tied
    assert inventory.total == model.num_parameters()
    assert inventory.non_embedding("hf") == model.num_parameters(exclude_embeddings=True)


def test_a_sections_keys_are_each_read_or_known_to_size_nothing():
    """Every key T5GemmaModuleConfig writes (and what T5GemmaConfig adds to each section) is classified; another
    is reported as not understood, under its section."""
    written = set(transformers.T5GemmaConfig().decoder.to_dict())
    assert sorted(written - SECTION_KNOWN) == []
    arch = paramledger.load({**TINY, "decoder": {**DECODER, "n_experts": 4}})
    assert any("decoder.n_experts" in note for note in arch.notes)


def test_count_shows_the_encoder_and_the_decoder_apart(cli, tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps(TINY))
    code, out, _ = cli("count", str(path), "--json")
    assert code == 0
    data = json.loads(out)
    whole = _meta(TINY)
    encoder = sum(p.numel() for name, p in whole.named_parameters() if name.startswith("model.encoder."))
    assert data["total"] == whole.num_parameters() and data["components"]["encoder"] == encoder
    assert data["text_decoder"] == data["total"] - encoder
    code, out, _ = cli("count", str(path))
    assert code == 0 and re.search(rf"^encoder\s+{encoder:,}\s", out, re.MULTILINE)
    assert f"text decoder: {data['text_decoder']:,} " in out


@pytest.mark.parametrize("decoder", [
    {},  # sliding, full: target 4 within the 4096 window
    {"sliding_window": 2},  # the sliding layer keeps its window of the 4 generated tokens
    {"sliding_window": 3, "layer_types": ["full_attention", "sliding_attention"]},
    {"num_hidden_layers": 3, "num_key_value_heads": 2},
])
def test_the_whole_models_caches_equal_transformers_after_a_forward_pass(decoder):
    """The decoder's self-attention cache (its sliding layers' windows) and the cross-attention's (the decoder's KV
    heads over each encoder token) as the EncoderDecoderCache holds them after a real forward pass."""
    assert_caches_equal_transformers({**TINY, "decoder": {**DECODER, **decoder}})


@pytest.mark.parametrize(("section", "key", "value", "message"), [
    ("decoder", "hidden_size", 0, "decoder.hidden_size: must be a positive whole number, got 0"),
    ("encoder", "num_hidden_layers", -2, "encoder.num_hidden_layers: must be a positive whole number, got -2"),
    ("encoder", "head_dim", None, "encoder.head_dim: must be a positive whole number, got None"),
    ("decoder", "vocab_size", "64", "decoder.vocab_size: must be a positive whole number, got '64'"),
    ("decoder", "hidden_size", 10 ** 30, "decoder.hidden_size: "),
    ("encoder", "hidden_size", 30, "encoder.hidden_size: 30 is not a multiple of num_attention_heads=4"),
    ("decoder", "num_key_value_heads", 3, "decoder.num_key_value_heads: 3 does not divide num_attention_heads=2"),
    ("decoder", "layer_types", ["full_attention"], "decoder.layer_types: must list num_hidden_layers=2"),
    ("encoder", "attention_bias", "yes", "encoder.attention_bias: must be true or false"),
])
def test_a_bad_value_is_refused_in_one_line_under_its_own_key(section, key, value, message):
    config = {**TINY, section: {**TINY[section], key: value}}
    with pytest.raises(ArchitectureError, match=re.escape(message)) as raised:
        paramledger.load(config)
    assert "\n" not in str(raised.value)


def test_a_section_that_is_not_an_object_is_refused():
    with pytest.raises(ArchitectureError, match=r"encoder: must be a JSON object, got \[1, 2\]"):
        paramledger.load({**TINY, "encoder": [1, 2]})


def test_a_bad_value_exits_2_with_one_line(cli, tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps({**TINY, "encoder": {**ENCODER, "intermediate_size": 0}}))
    code, out, err = cli("count", str(path))
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "encoder.intermediate_size" in err


PEGASUS_X = {"model_type": "pegasus_x", "vocab_size": 64, "d_model": 32, "decoder_layers": 3,
             "decoder_attention_heads": 4, "decoder_ffn_dim": 24, "encoder_layers": 2, "encoder_attention_heads": 2,
             "encoder_ffn_dim": 8, "num_global_tokens": 3, "block_size": 4, "pad_token_id": 0, "eos_token_id": 1,
             "decoder_start_token_id": 0, "forced_eos_token_id": None}


def test_pegasus_x_large_figures():
    """PegasusXConfig's defaults are pegasus-x-large's sizes: 568,568,832 in the whole model, 201,541,632 of them the
    encoder (its 32 global tokens' table and 16 global norms among them), 367,027,200 the decoder with the shared
    table; no attention bias, no position tensor."""
    config = default_config("pegasus_x")
    inventory = paramledger.inventory(paramledger.load(config))
    assert diff(inventory, build_reference(config)).matches
    assert (inventory.total, inventory.component("encoder"), inventory.text_decoder) == (
        568_568_832, 201_541_632, 367_027_200)
    assert inventory["model.encoder.embed_global.weight"].shape == (32, 1024)
    assert inventory["model.encoder.layers.15.global_self_attn_layer_norm.bias"].shape == (1024,)
    names = [t.name for t in inventory.tensors]
    assert not any(name.startswith("model.decoder.") and "global" in name for name in names)
    assert not any("_proj.bias" in name or "embed_positions" in name for name in names)


@pytest.mark.parametrize("tie", [True, False])
def test_pegasus_x_non_embedding_count_drops_the_global_tokens_table(tie):
    """num_parameters(exclude_embeddings=True) drops every nn.Embedding: embed_global with the token tables."""
    config = {**PEGASUS_X, "tie_word_embeddings": tie}
    model = _meta(config)
    inventory = paramledger.inventory(paramledger.load(config))
    assert inventory.total == model.num_parameters()
    assert inventory.non_embedding("hf") == model.num_parameters(exclude_embeddings=True)


@pytest.mark.parametrize("changes", [{}, {"stagger_local_blocks": False, "decoder_layers": 2}])
def test_pegasus_x_caches_equal_transformers_after_a_forward_pass(changes):
    assert_caches_equal_transformers({**PEGASUS_X, **changes})


@pytest.mark.parametrize("value", [-1, "4", None])
def test_pegasus_x_refuses_a_bad_number_of_global_tokens(value):
    # (a null: refused as its config class's field takes none, families/strict_nulls.py)
    said = r"num_global_tokens: (must be a whole number of zero or more|null, where its config class takes none)"
    with pytest.raises(ArchitectureError, match=said) as raised:
        paramledger.load({**PEGASUS_X, "num_global_tokens": value})
    assert "\n" not in str(raised.value)


PROPHETNET = {"model_type": "prophetnet", "vocab_size": 64, "hidden_size": 32, "num_encoder_layers": 3,
              "num_decoder_layers": 2, "encoder_ffn_dim": 20, "decoder_ffn_dim": 24, "num_encoder_attention_heads": 2,
              "num_decoder_attention_heads": 4, "max_position_embeddings": 40, "ngram": 2, "num_buckets": 8,
              "pad_token_id": 0, "bos_token_id": 1, "eos_token_id": 2, "decoder_start_token_id": 0}


def test_prophetnet_large_figures():
    """ProphetNetConfig's defaults (prophetnet-large's sizes): 391,321,600 in the whole model, 151,681,024 of them the
    encoder, 239,640,576 the decoder with the shared table: what ProphetNetForCausalLM holds, tied."""
    config = default_config("prophetnet")
    inventory = paramledger.inventory(paramledger.load(config))
    assert diff(inventory, build_reference(config)).matches
    assert (inventory.total, inventory.component("encoder"), inventory.text_decoder) == (
        391_321_600, 151_681_024, 239_640_576)
    config = transformers.AutoConfig.for_model("prophetnet")
    with torch.device("meta"):
        decoder = transformers.AutoModelForCausalLM.from_config(config)
    assert inventory.text_decoder == decoder.num_parameters()


def test_prophetnet_ngram_attention_sits_in_every_decoder_layer_only():
    """ProphetNetNgramSelfAttention's relative_pos_embeddings (hidden -> num_buckets x heads, biased) in every decoder
    layer, the encoder's ProphetNetAttention without it; ngram_embeddings (ngram rows) in the decoder alone."""
    inventory = paramledger.inventory(paramledger.load(PROPHETNET))
    names = [t.name for t in inventory.tensors]
    relative = [name for name in names if "relative_pos_embeddings" in name]
    assert relative == [f"prophetnet.decoder.layers.{i}.self_attn.relative_pos_embeddings.{p}"
                        for i in range(2) for p in ("weight", "bias")]
    assert inventory["prophetnet.decoder.layers.1.self_attn.relative_pos_embeddings.weight"].shape == (32, 32)
    assert inventory["prophetnet.decoder.ngram_embeddings.weight"].shape == (2, 32)
    assert inventory.aliases == {"lm_head.weight": "prophetnet.word_embeddings.weight",
                                 "prophetnet.encoder.word_embeddings.weight": "prophetnet.word_embeddings.weight",
                                 "prophetnet.decoder.word_embeddings.weight": "prophetnet.word_embeddings.weight"}


@pytest.mark.parametrize("changes", [{"tie_word_embeddings": False}, {"add_cross_attention": False}, {"ngram": 0}])
def test_prophetnet_whole_model_and_hugging_faces_non_embedding_count(changes):
    config = {**PROPHETNET, **changes}
    model = _meta(config)
    inventory = paramledger.inventory(paramledger.load(config))
    assert diff(inventory, build_reference(config)).matches
    assert inventory.total == model.num_parameters()
    assert inventory.non_embedding("hf") == model.num_parameters(exclude_embeddings=True)


@pytest.mark.parametrize("changes", [{}, {"num_decoder_layers": 3, "ngram": 3}])
def test_prophetnet_caches_equal_transformers_after_a_forward_pass(changes):
    """Only the main stream's keys and values are cached (the n-gram streams are recomputed each step).
    (transformers 5.24.0 sizes the decoder's DynamicCache by num_hidden_layers, the encoder's depth: a decoder
    deeper than the encoder fails in its own forward, so these keep num_encoder_layers >= num_decoder_layers.)"""
    assert_caches_equal_transformers({**PROPHETNET, **changes})


@pytest.mark.parametrize(("changes", "message"), [
    ({"architectures": ["ProphetNetForCausalLM"]}, "architectures: ProphetNetForCausalLM is not counted"),
    ({"num_decoder_attention_heads": 5}, "num_decoder_attention_heads: 5 does not divide hidden_size=32"),
    ({"num_encoder_attention_heads": 3}, "num_encoder_attention_heads: 3 does not divide hidden_size=32"),
    ({"ngram": -1}, "ngram: must be a whole number of zero or more, got -1"),
    ({"num_buckets": 0}, "num_buckets: must be positive, got 0"),
])
def test_prophetnet_refusals_in_one_line(changes, message):
    with pytest.raises(ArchitectureError, match=re.escape(message)) as raised:
        paramledger.load({**PROPHETNET, **changes})
    assert "\n" not in str(raised.value)


@pytest.mark.parametrize("tied", [True, False])
def test_prophetnet_text_only_is_refused_as_its_causal_lm_holds_a_wrapper_table(cli, tmp_path, tied):
    """ProphetNetForCausalLM holds prophetnet.word_embeddings beside the decoder's own table (a third table untied):
    the decoder alone under its own table would be named otherwise, and untied one table short, so it is refused."""
    config = {**PROPHETNET, "tie_word_embeddings": tied}
    with torch.device("meta"):
        built = transformers.ProphetNetForCausalLM(transformers.AutoConfig.for_model(**config))
    # (the whole model's "text decoder" line, its total less the encoder, is the CausalLM's: the shared table its own)
    assert sum(p.numel() for p in built.parameters()) == paramledger.inventory(paramledger.load(config)).text_decoder
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config))
    code, out, err = cli("count", str(path), "--text-only")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "ProphetNetForCausalLM" in err


SMALL = {"vocab_size": 10, "hidden_size": 16, "num_attention_heads": 2, "num_hidden_layers": 2, "intermediate_size": 8}


@pytest.mark.parametrize(("given", "message"), [
    ({"cross_attention_kv_heads": 2}, "cross_attention_kv_heads: set without add_cross_attention"),
    ({"ngram_attention_layers": (0, 1)}, "ngram_attention_layers: set without ngram_num_buckets"),
    ({"ngram_num_buckets": 4}, "ngram_num_buckets: set without ngram_attention_layers"),
    ({"ngram_attention_layers": (0,), "ngram_num_buckets": 0}, "ngram_num_buckets: must be positive"),
])
def test_the_new_design_keys_are_refused_alone_in_one_line(given, message):
    """A design (spec file, --set) giving the cross-attention's KV heads or the n-gram attention's keys without what
    they belong to."""
    from paramledger.architecture import Architecture

    with pytest.raises(ArchitectureError, match=re.escape(message)) as raised:
        Architecture.from_mapping({**SMALL, **given})
    assert "\n" not in str(raised.value)
