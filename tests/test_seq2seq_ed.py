"""EncoderDecoderModel (families/encoder_decoder.py, towers/encoder_decoder.py): the behaviours around the whole
model that tests/test_families.py checks at its defaults and on random pairs (tests/_family_configs_ed.py): its
figures at EncoderDecoderConfig's defaults, the decoder alone (--text-only), the encoder shown apart, Hugging Face's
non-embedding count, the refusals (one line naming the key) and the caches against a real forward pass."""

from __future__ import annotations

import json

import pytest

import paramledger
from paramledger._exceptions import ArchitectureError
from paramledger.reference import diff, verify

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")


def tiny(model_type: str, hidden: int = 16, **extra) -> dict:
    return {"model_type": model_type, "vocab_size": 64, "hidden_size": hidden, "num_hidden_layers": 2,
            "num_attention_heads": 2, "intermediate_size": 24, "max_position_embeddings": 40, "pad_token_id": 1,
            **extra}


def pair(encoder: str, decoder: str, width: int = 16, **extra) -> dict:
    return {"model_type": "encoder-decoder", "encoder": tiny(encoder),
            "decoder": tiny(decoder, width, is_decoder=True, add_cross_attention=True, **extra),
            "decoder_start_token_id": 2, "pad_token_id": 1}


def _meta(config: dict):
    cfg = transformers.AutoConfig.for_model(**config)
    with torch.device("meta"):
        return transformers.EncoderDecoderModel(cfg)


def test_the_class_defaults_build_bert2bert():
    """EncoderDecoderConfig's sub_configs_defaults build a BERT encoder and a BERT decoder with cross-attention."""
    inventory = paramledger.inventory(paramledger.load({"model_type": "encoder-decoder"}))
    assert (len(inventory.tensors), inventory.total) == (521, 247_363_386)
    assert inventory.aliases == {"decoder.cls.predictions.decoder.weight":
                                 "decoder.bert.embeddings.word_embeddings.weight",
                                 "decoder.cls.predictions.decoder.bias": "decoder.cls.predictions.bias"}


@pytest.mark.parametrize(("encoder", "decoder"), [("bert", "bert"), ("roberta", "roberta"), ("bert", "roberta")])
@pytest.mark.parametrize("width", [16, 24])
def test_hugging_face_counts_of_the_whole_model(encoder, decoder, width):
    """The total and num_parameters(exclude_embeddings=True); enc_to_dec_proj only where the widths differ."""
    config = pair(encoder, decoder, width)
    model = _meta(config)
    inventory = paramledger.inventory(paramledger.load(config))
    assert inventory.total == model.num_parameters()
    assert inventory.non_embedding("hf") == model.num_parameters(exclude_embeddings=True)
    assert any(t.name == "enc_to_dec_proj.weight" for t in inventory.tensors) == (width != 16)


def test_the_decoder_alone_is_reachable():
    """--text-only counts config.decoder alone, as its own CausalLM (BertLMHeadModel) builds it."""
    config = pair("bert", "bert", 24)
    result = verify(config, text_only=True)
    alone = transformers.AutoConfig.for_model(**config["decoder"])
    with torch.device("meta"):
        model = transformers.AutoModelForCausalLM.from_config(alone)
    assert result.inventory.total == model.num_parameters()
    assert not result.inventory.has_towers
    assert diff(paramledger.inventory(paramledger.load(config["decoder"])), result.reference).matches


def test_count_json_shows_the_encoder_apart(cli, tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps(pair("bert", "bert", 24)))
    code, out, _ = cli("count", str(path), "--json")
    assert code == 0
    data = json.loads(out)
    assert data["components"]["encoder"] > 0
    assert any("encoder-decoder: counting the whole model" in note for note in data["notes"])


@pytest.mark.parametrize(("config", "message"), [
    ({"encoder": {"model_type": "gpt2"}}, "encoder.model_type: 'gpt2' is not counted in encoder-decoder yet"),
    ({"decoder": {"model_type": "mbart"}}, "decoder.model_type: 'mbart' is not counted in encoder-decoder yet"),
    ({"encoder": [1]}, "encoder: must be a JSON object"),
    ({"decoder": "bert"}, "decoder: must be a JSON object"),
    ({"encoder": {"model_type": "bert", "hidden_size": -1}}, "encoder.hidden_size: must be positive, got -1"),
    ({"encoder": {"model_type": "bert", "hidden_size": 12, "num_attention_heads": 2},
      "decoder": {"model_type": "bert", "is_decoder": True, "add_cross_attention": True,
                  "cross_attention_hidden_size": 10}},
     r"decoder.cross_attention_hidden_size: 10 must be the encoder's hidden_size \(12\)"),
])
def test_bad_input_is_refused_in_one_line_naming_the_key(config, message):
    with pytest.raises(ArchitectureError, match=message) as raised:
        paramledger.load({"model_type": "encoder-decoder", **config})
    assert "\n" not in str(raised.value)


def test_a_refusal_exits_2_in_the_cli(cli, tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"model_type": "encoder-decoder", "decoder": {"model_type": "mbart"}}))
    code, _, err = cli("count", str(path))
    assert code == 2 and "decoder.model_type" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(("encoder", "decoder", "width"), [("bert", "bert", 16), ("roberta", "roberta", 24)])
def test_the_caches_equal_transformers_after_a_forward_pass(encoder, decoder, width):
    """The decoder's self-attention cache and its cross-attention cache (fixed by the encoder's length) as the
    whole model's EncoderDecoderCache holds them after a real forward pass."""
    from paramledger.kvcache import cross_attention_cache, kv_cache

    config = pair(encoder, decoder, width)
    torch.manual_seed(0)
    model = transformers.EncoderDecoderModel(transformers.AutoConfig.for_model(**config)).eval()
    generator = torch.Generator().manual_seed(1)
    batch, source, target = 2, 9, 4
    ids = torch.randint(3, 64, (batch, source), generator=generator)
    decoder_ids = torch.randint(3, 64, (batch, target), generator=generator)
    with torch.no_grad():
        cache = model(input_ids=ids, decoder_input_ids=decoder_ids, use_cache=True).past_key_values

    def held(part) -> int:
        return sum(layer.keys.nbytes + layer.values.nbytes for layer in part.layers
                   if getattr(layer, "keys", None) is not None)

    arch = paramledger.load(config)
    assert kv_cache(arch, context=target, batch=batch, dtype="fp32").bytes == held(cache.self_attention_cache) > 0
    assert cross_attention_cache(arch, encoder_length=source, batch=batch,
                                 dtype="fp32").bytes == held(cache.cross_attention_cache) > 0


@pytest.mark.parametrize("tie", [True, False])
def test_tie_encoder_decoder_ties_nothing_in_5_24(tie):
    """tie_encoder_decoder (which transformers 4.x honoured) is read nowhere in transformers 5.24.0:
    each model ties only its own head, by its own tie_word_embeddings, and nothing crosses encoder and decoder."""
    config = {**pair("bert", "bert"), "tie_encoder_decoder": tie}
    config["decoder"] = {**config["decoder"], "tie_encoder_decoder": tie, "tie_word_embeddings": tie}
    result = verify(config)
    assert result.diff.matches
    assert not any(alias.startswith("encoder.") or target.startswith("encoder.")
                   for alias, target in result.inventory.aliases.items())
    assert bool(result.inventory.aliases) == tie


def test_the_decoders_pretraining_note_is_not_said_of_an_encoder_decoder():
    """BERT's note on BertForPreTraining's heads is about a masked LM's checkpoint: a decoder's config (add_cross_
    attention: bert2bert's) has none, so EncoderDecoderModel's count does not say it."""
    notes = paramledger.load({"model_type": "encoder-decoder"}).notes
    assert not any("BertForPreTraining" in note for note in notes)
    assert any("BertForPreTraining" in note for note in paramledger.load("bert-base-uncased").notes)
