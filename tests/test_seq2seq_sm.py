"""SeamlessM4T and SeamlessM4T v2 counted as AutoModelForSeq2SeqLM builds them (families/seamless_m4t.py): the text
model SeamlessM4T[v2]ForTextToText, its figures at the config class's defaults, its tying, its buffers, its caches
against transformers' own after a real forward pass, and its refusals.  tests/test_families.py checks every type's
defaults and random configs (tests/_family_configs_sm.py); these are the behaviours around them."""

from __future__ import annotations

import json

import pytest
from _cli_refusal import refused_by_the_cli
from test_seq2seq_n import assert_caches_equal_transformers

import paramledger
from paramledger._exceptions import ArchitectureError
from paramledger.buffers import every_buffer
from paramledger.reference import build_reference, default_config, diff

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

TYPES = ("seamless_m4t", "seamless_m4t_v2")
TINY = {"vocab_size": 64, "hidden_size": 32, "encoder_layers": 3, "decoder_layers": 3, "encoder_ffn_dim": 24,
        "decoder_ffn_dim": 20, "encoder_attention_heads": 4, "decoder_attention_heads": 2,
        "max_position_embeddings": 40, "pad_token_id": 0, "bos_token_id": 0, "eos_token_id": 0,
        "decoder_start_token_id": 0}


def _meta(config: dict):
    with torch.device("meta"):
        return transformers.AutoModelForSeq2SeqLM.from_config(transformers.AutoConfig.for_model(**config))


@pytest.mark.parametrize(("model_type", "positions"), [("seamless_m4t", 1026), ("seamless_m4t_v2", 4098)])
def test_the_class_default_is_the_text_model(model_type, positions):
    """SeamlessM4TConfig's defaults (hf-seamless-m4t-large's text model): 1,370,531,840 in SeamlessM4TForTextToText,
    503,736,320 of them the encoder (its table the shared one), the same in v2 (only its position buffers are longer:
    max_position_embeddings 4096 + 2 rows)."""
    config = default_config(model_type)
    inventory = paramledger.inventory(paramledger.load(config))
    whole = build_reference(config)
    assert whole.class_name == paramledger.families.get(model_type).seq2seq.whole_class
    assert diff(inventory, whole).matches
    assert [t.name for t in inventory.tensors] == [name for name, _ in whole.tensors]
    assert (inventory.total, inventory.component("encoder"), inventory.text_decoder) == (
        1_370_531_840, 503_736_320, 866_795_520)
    assert inventory.aliases == {"lm_head.weight": "shared.weight", "text_encoder.embed_tokens.weight": "shared.weight",
                                 "text_decoder.embed_tokens.weight": "shared.weight"}
    buffers = {b.name: (b.shape, b.persistent) for b in every_buffer(inventory)}
    assert buffers == {"text_encoder.embed_positions.weights": ((positions, 1024), False),
                       "text_decoder.embed_positions.weights": ((positions, 1024), False)}


@pytest.mark.parametrize("model_type", TYPES)
def test_a_note_says_the_speech_parts_are_not_counted(model_type, cli, tmp_path):
    """The keys of the speech encoder, text-to-unit model and vocoder change no tensor of the text model: read as
    count-neutral, with a note that those parts are not counted.  A release's architectures (SeamlessM4TModel, the
    whole class) still count the text model whole."""
    whole = "SeamlessM4Tv2Model" if model_type.endswith("v2") else "SeamlessM4TModel"
    config = {"model_type": model_type, **TINY, "speech_encoder_layers": 2, "t2u_decoder_layers": 1,
              "unit_embed_dim": 8, "architectures": [whole]}
    inventory = paramledger.inventory(paramledger.load(config))
    assert diff(inventory, build_reference(config)).matches and inventory.has_towers
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config))
    code, out, _ = cli("count", str(path), "--json")
    assert code == 0
    notes = json.loads(out)["notes"]
    assert not any("not understood" in note for note in notes)
    assert any("the speech encoder, text-to-unit model and vocoder" in note and "are not counted" in note
               for note in notes)


@pytest.mark.parametrize("tie", [True, False])
@pytest.mark.parametrize("model_type", TYPES)
def test_the_tables_are_tied_as_the_config_says(model_type, tie):
    """Tied, lm_head and both embed_tokens are shared.weight; untied, each stack and the head hold their own beside
    shared (four tables).  Hugging Face's non-embedding count drops every nn.Embedding."""
    config = {"model_type": model_type, **TINY, "tie_word_embeddings": tie}
    inventory = paramledger.inventory(paramledger.load(config))
    model = _meta(config)
    assert diff(inventory, build_reference(config)).matches
    assert (model.lm_head.weight is model.shared.weight) is tie
    assert (model.text_encoder.embed_tokens.weight is model.shared.weight) is tie
    assert inventory.total == model.num_parameters()
    assert inventory.non_embedding("hf") == model.num_parameters(exclude_embeddings=True)


@pytest.mark.parametrize("names", [("decoder_layers", "decoder_attention_heads"),
                                   ("num_hidden_layers", "num_attention_heads")], ids=["own", "attribute_map"])
def test_the_decoder_sizes_are_read_by_either_name(names):
    """SeamlessM4TConfig.attribute_map reads num_hidden_layers and num_attention_heads as the decoder's (M2M100Config's
    as the encoder's)."""
    config = {key: value for key, value in {"model_type": "seamless_m4t", **TINY}.items()
              if key not in ("decoder_layers", "decoder_attention_heads")}
    config.update({names[0]: 2, names[1]: 8})
    inventory = paramledger.inventory(paramledger.load(config))
    assert diff(inventory, build_reference(config)).matches
    assert sum(1 for t in inventory.tensors if t.name.endswith("cross_attention.q_proj.weight")) == 2


@pytest.mark.parametrize("config", [
    {**TINY, "model_type": "seamless_m4t"}, {**TINY, "model_type": "seamless_m4t_v2", "decoder_layers": 2},
    {**TINY, "model_type": "seamless_m4t", "tie_word_embeddings": False, "encoder_layers": 1},
], ids=["3-over-3", "v2-2-over-3", "untied-3-over-1"])
def test_the_caches_equal_transformers_after_a_forward_pass(config):
    assert_caches_equal_transformers(config)


@pytest.mark.parametrize(("key", "value", "message"), [
    ("activation_function", "prelu", "activation_function: 'prelu' is not counted"),
    ("activation_function", "xielu", "activation_function: 'xielu' is not counted"),
    ("hidden_size", 2, "hidden_size: 2 is too narrow for the sinusoidal positions"),
    ("hidden_size", 3, "hidden_size: 3 is too narrow for the sinusoidal positions"),
    ("encoder_layers", 0, "encoder_layers: must be a positive whole number, got 0"),
    ("encoder_attention_heads", 3, "encoder_attention_heads: 3 heads do not divide hidden_size=32"),
    ("num_attention_heads", 3, "num_attention_heads: 3 heads do not divide hidden_size=32"),
    ("num_hidden_layers", "x", "num_hidden_layers: must be a whole number, got 'x'"),
    ("tie_word_embeddings", "yes", "tie_word_embeddings: must be true or false, got 'yes'"),
])
@pytest.mark.parametrize("model_type", TYPES)
def test_a_bad_value_is_refused_in_one_line_under_its_own_key(model_type, key, value, message):
    config = {"model_type": model_type, **TINY, key: value}
    if key in ("num_attention_heads", "num_hidden_layers"):
        config.pop({"num_attention_heads": "decoder_attention_heads", "num_hidden_layers": "decoder_layers"}[key])
    with pytest.raises(ArchitectureError, match=message.replace("(", r"\(").replace(")", r"\)")) as raised:
        paramledger.load(config)
    assert "\n" not in str(raised.value)


@pytest.mark.parametrize("width", [2, 3])
def test_transformers_cannot_build_the_narrow_widths_refused(width):
    config = {"model_type": "seamless_m4t", **TINY, "hidden_size": width, "encoder_attention_heads": 1,
              "decoder_attention_heads": 1}
    with pytest.raises(ZeroDivisionError):
        _meta(config)


def test_the_cli_refuses_a_weighted_activation_with_status_2(tmp_path):
    refused_by_the_cli(tmp_path, json.dumps({"model_type": "seamless_m4t_v2", "activation_function": "prelu"}),
                       "activation_function: 'prelu' is not counted")


@pytest.mark.parametrize("tie", [True, False])
@pytest.mark.parametrize("model_type", TYPES)
def test_lora_on_the_text_model_matches_peft(model_type, tie):
    """text_encoder.embed_tokens tied to shared is an nn.Embedding to PEFT's "all-linear", not a head."""
    pytest.importorskip("peft")
    from test_adapters import assert_matches_peft

    config = {"model_type": model_type, **TINY, "tie_word_embeddings": tie}
    assert_matches_peft(config, r=2, target_modules="all-linear")
    assert_matches_peft(config, r=3, target_modules="all-linear", use_dora=True, bias="all")


@pytest.mark.parametrize("model_type", TYPES)
@pytest.mark.parametrize("changes", [{"hidden_size": 1536}, {"vocab_size": 1000}, {"intermediate_size": 1000},
                                     {"num_hidden_layers": 4}], ids=["width", "vocabulary", "ffn", "depth"])
def test_the_encoder_follows_a_change_to_the_decoder(model_type, changes):
    """test_whole_follows_decoder's check: a --set change counted as the config written with it and read again
    (the depth is the decoder's: decoder_layers, through attribute_map's num_hidden_layers)."""
    from test_whole_follows_decoder import _assert_follows

    _assert_follows({"model_type": model_type}, changes)
    if "num_hidden_layers" in changes:
        inventory = paramledger.inventory(paramledger.load({"model_type": model_type}, **changes))
        config = {"model_type": model_type, "decoder_layers": 4}
        assert diff(inventory, build_reference(config)).matches
