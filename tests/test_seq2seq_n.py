"""Whole encoder-decoder models (towers/encoder.py, families/bart.py's seq2seq records): what
AutoModelForSeq2SeqLM builds, counted tensor by tensor, the encoder shown apart in every view, the decoder alone
still reachable (--text-only, a config whose architectures name XForCausalLM), and the caches of the whole model
against transformers' own after a real forward pass.  tests/test_families.py checks every type's defaults and
random configs (tests/_family_configs_n.py); these are the behaviours around them."""

from __future__ import annotations

import json

import pytest

import paramledger
from paramledger._exceptions import ArchitectureError
from paramledger.reference import build_reference, default_config, diff, verify

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

BART_LINEAGE = ("bart", "mbart", "marian", "pegasus", "blenderbot", "blenderbot-small", "plbart", "mvp",
                "bigbird_pegasus", "whisper", "m2m_100", "led", "fsmt")
TINY = dict(vocab_size=64, d_model=32, decoder_layers=3, decoder_attention_heads=4, decoder_ffn_dim=24,
            encoder_layers=2, encoder_attention_heads=2, encoder_ffn_dim=8, max_position_embeddings=40,
            pad_token_id=0, bos_token_id=0, eos_token_id=0, decoder_start_token_id=0, forced_eos_token_id=None)


def _meta(config: dict, auto: str):
    cfg = transformers.AutoConfig.for_model(**config)
    with torch.device("meta"):
        return getattr(transformers, auto).from_config(cfg)


@pytest.mark.parametrize("model_type", BART_LINEAGE)
def test_the_class_default_is_the_whole_model(model_type):
    """A seq2seq type's defaults are its ForConditionalGeneration (MarianMTModel), and the decoder's own total (the
    "text decoder" line) is what its CausalLM builds from the same config."""
    config = default_config(model_type)
    inventory = paramledger.inventory(paramledger.load(config))
    whole = build_reference(config)
    assert whole.class_name == paramledger.families.get(model_type).seq2seq.whole_class
    assert diff(inventory, whole).matches
    assert inventory.has_towers and inventory.component("encoder") > 0
    if model_type in ("m2m_100", "led", "fsmt"):  # (transformers registers no CausalLM of theirs)
        return
    decoder = _meta({"model_type": model_type}, "AutoModelForCausalLM")
    head = decoder.get_output_embeddings().weight
    # (BigBirdPegasusForCausalLM never ties its head; the whole model ties it to model.shared)
    untied = 0 if head is decoder.get_input_embeddings().weight else head.numel()
    assert inventory.text_decoder == sum(p.numel() for p in decoder.parameters()) - untied


def test_bart_large_figures():
    """BartConfig's defaults are bart-large's sizes: 406,291,456 in the whole model, 152,207,360 of them the encoder
    (its table is the shared one), 254,084,096 the decoder with the shared table."""
    inventory = paramledger.inventory(paramledger.load(default_config("bart")))
    assert (inventory.total, inventory.component("encoder"), inventory.text_decoder) == (
        406_291_456, 152_207_360, 254_084_096)
    assert inventory.aliases == {"lm_head.weight": "model.shared.weight",
                                 "model.encoder.embed_tokens.weight": "model.shared.weight",
                                 "model.decoder.embed_tokens.weight": "model.shared.weight"}


@pytest.mark.parametrize("tie", [True, False])
@pytest.mark.parametrize("model_type", ["bart", "marian", "bigbird_pegasus"])
def test_hugging_face_non_embedding_count_of_the_whole_model(model_type, tie):
    """num_parameters(exclude_embeddings=True) drops every nn.Embedding: the shared table, the encoder's own where
    untied, both position tables."""
    config = {"model_type": model_type, **TINY, "tie_word_embeddings": tie}
    model = _meta(config, "AutoModelForSeq2SeqLM")
    inventory = paramledger.inventory(paramledger.load(config))
    assert inventory.total == model.num_parameters()
    assert inventory.non_embedding("hf") == model.num_parameters(exclude_embeddings=True)


@pytest.mark.parametrize("model_type", ["bart", "pegasus", "bigbird_pegasus"])
def test_the_decoder_alone_is_reachable(model_type):
    """--text-only (verify's text_only) and a config whose architectures name the CausalLM count the decoder
    alone, against that class; naming the whole model counts it whole."""
    family = paramledger.families.get(model_type)
    config = {"model_type": model_type, **TINY}
    result = verify(config, text_only=True)
    assert result.diff.matches and result.reference.class_name == family.causal_lm_class
    assert not result.inventory.has_towers
    named = {**config, "architectures": [family.causal_lm_class]}
    reference = build_reference(named)
    assert reference.class_name == family.causal_lm_class
    assert diff(paramledger.inventory(paramledger.load(named)), reference).matches
    whole = {**config, "architectures": [family.seq2seq.whole_class]}
    assert build_reference(whole).class_name == family.seq2seq.whole_class
    assert paramledger.inventory(paramledger.load(whole)).has_towers


def test_count_json_shows_the_encoder_apart(cli, tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"model_type": "bart", **TINY}))
    code, out, _ = cli("count", str(path), "--json")
    assert code == 0
    data = json.loads(out)
    assert data["components"]["encoder"] > 0
    assert data["text_decoder"] == data["total"] - data["components"]["encoder"]
    assert any("encoder-decoder: counting the whole model" in note for note in data["notes"])
    code, out, _ = cli("count", str(path))
    assert code == 0 and "text decoder:" in out and "the total less the encoder;" in out


@pytest.mark.parametrize(("key", "value", "message"), [
    ("encoder_layers", 0, "must be a positive whole number, got 0"),
    ("encoder_ffn_dim", "wide", "must be a positive whole number, got 'wide'"),
    ("encoder_attention_heads", 3, "3 heads do not divide hidden_size=32"),
])
def test_a_bad_encoder_size_is_refused_under_its_own_key(key, value, message):
    with pytest.raises(ArchitectureError, match=f"{key}: {message}"):
        paramledger.load({"model_type": "bart", **TINY, key: value})


def _encoder_keys() -> list[tuple[str, str]]:
    from paramledger import families

    return [(model_type, key) for model_type in sorted(families.supported())
            if (family := families.get(model_type)).seq2seq is not None for key in family.seq2seq.keys]


@pytest.mark.parametrize(("model_type", "key"), _encoder_keys())
def test_a_null_encoder_size_is_refused_as_transformers_cannot_build_it(model_type, key):
    """No config class builds an encoder of a null size (a strict field refuses it; BartConfig's takes it and
    BartEncoder's range() fails): refused in one line under the key, never counted at the decoder's size."""
    with pytest.raises(Exception):  # noqa: B017 (either failure: the config class's or the model's)
        config = transformers.AutoConfig.for_model(model_type, **{key: None})
        with torch.device("meta"):
            transformers.AutoModelForSeq2SeqLM.from_config(config)
    # (refused as a size, or as a null its config class's field takes none of: families/strict_nulls.py)
    with pytest.raises(ArchitectureError, match=f"{key}: (must be a positive whole number, got None|null, where its "
                                                "config class takes none)") as raised:
        paramledger.load({"model_type": model_type, key: None})
    assert "\n" not in str(raised.value)


def assert_caches_equal_transformers(config: dict) -> None:
    """The decoder's self-attention cache grows with the generated length, the cross-attention's is fixed by the
    encoder's input length: both as the whole model's EncoderDecoderCache holds them after a real forward pass of
    a small random ``config``'s model (token ids from 2: past every lineage's special ids)."""
    from paramledger.kvcache import cross_attention_cache, kv_cache

    torch.manual_seed(0)
    model = transformers.AutoModelForSeq2SeqLM.from_config(transformers.AutoConfig.for_model(**config)).eval()
    generator = torch.Generator().manual_seed(1)
    batch, source, target = 2, 9, 4
    ids = torch.randint(2, 64, (batch, source), generator=generator)
    decoder_ids = torch.randint(2, 64, (batch, target), generator=generator)
    with torch.no_grad():
        cache = model(input_ids=ids, decoder_input_ids=decoder_ids, use_cache=True).past_key_values

    def held(part) -> int:
        return sum(layer.keys.nbytes + layer.values.nbytes for layer in part.layers
                   if getattr(layer, "keys", None) is not None)

    arch = paramledger.load(config)
    assert kv_cache(arch, context=target, batch=batch, dtype="fp32").bytes == held(cache.self_attention_cache) > 0
    assert cross_attention_cache(arch, encoder_length=source, batch=batch,
                                 dtype="fp32").bytes == held(cache.cross_attention_cache) > 0


@pytest.mark.parametrize("model_type", ["bart", "mbart", "marian"])
def test_the_whole_models_caches_equal_transformers_after_a_forward_pass(model_type):
    assert_caches_equal_transformers({"model_type": model_type, **TINY, "encoder_layers": 3})  # (a slot per layer)


@pytest.mark.parametrize("tie", [True, False])
@pytest.mark.parametrize("model_type", ["bart", "marian", "m2m_100"])
def test_lora_on_the_whole_model_matches_peft(model_type, tie):
    """An encoder's embed_tokens tied to the shared table is an nn.Embedding to PEFT's "all-linear", not a head."""
    pytest.importorskip("peft")
    from test_adapters import assert_matches_peft

    config = {"model_type": model_type, **TINY, "tie_word_embeddings": tie}
    assert_matches_peft(config, r=2, target_modules="all-linear")
    assert_matches_peft(config, r=3, target_modules="all-linear", use_dora=True, bias="all")
