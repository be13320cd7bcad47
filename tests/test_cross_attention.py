"""Cross-attention (parts/cross_attention.py) and the BART-lineage decoders (families/bart.py): the cache it holds
against what transformers' EncoderDecoderCache holds after a real forward pass given encoder_hidden_states, apart
from the self-attention's, and its refusals, each one line naming the key (exit 2)."""

from __future__ import annotations

import json
import re

import pytest

import paramledger
from paramledger._exceptions import ArchitectureError, OptionError
from paramledger.kvcache import cross_attention_cache, kv_cache

torch = pytest.importorskip("torch")

# One tiny decoder of each family: heads dividing d_model, the encoder's width d_model (BartAttention's k/v read it);
# as many encoder layers as decoder layers, since BartDecoder's DynamicCache(config=...) makes one slot per
# config.num_hidden_layers, which BartConfig.attribute_map reads as encoder_layers (fewer: an IndexError).
TINY = dict(vocab_size=64, d_model=32, decoder_layers=3, decoder_attention_heads=4, decoder_ffn_dim=24,
            encoder_layers=3, encoder_attention_heads=2, encoder_ffn_dim=8, max_position_embeddings=40,
            pad_token_id=0, bos_token_id=0, eos_token_id=0, decoder_start_token_id=0, forced_eos_token_id=None)
# TrOCR's cross-attention reads a narrower encoder (cross_attention_hidden_size: TrOCRAttention's kdim, vdim).
# BERT's decoder (BertLayer.crossattention with is_decoder): BertConfig's own keys.
BERT = dict(vocab_size=64, hidden_size=32, num_hidden_layers=3, num_attention_heads=4, intermediate_size=24,
            max_position_embeddings=40, pad_token_id=0, is_decoder=True, add_cross_attention=True)
FAMILIES = {"bart": {}, "mbart": {}, "marian": {}, "pegasus": {}, "blenderbot": {}, "blenderbot-small": {},
            "plbart": {}, "mvp": {}, "trocr": {"cross_attention_hidden_size": 12},
            "whisper": {"max_target_positions": 40}, "bert": BERT, "bert-generation": BERT, "roberta": BERT,
            "electra": BERT}


def _config(model_type: str) -> dict:
    return FAMILIES[model_type] if "is_decoder" in FAMILIES[model_type] else {**TINY, **FAMILIES[model_type]}


def _model(model_type: str):
    from transformers import AutoConfig, AutoModelForCausalLM

    torch.manual_seed(0)
    config = AutoConfig.for_model(model_type, **_config(model_type))
    return AutoModelForCausalLM.from_config(config).eval()


def _encoder(model, states) -> dict:
    """The encoder's output as the class takes it (WhisperForCausalLM names it encoder_outputs)."""
    return {"encoder_outputs" if model.config.model_type == "whisper" else "encoder_hidden_states": states}


def _run(model, batch: int, tokens: int, encoder_tokens: int, decode_steps: int = 0):
    """Prefill ``tokens`` for ``batch`` sequences attending over ``encoder_tokens`` random encoder states, then
    decode ``decode_steps`` more; the EncoderDecoderCache transformers returns."""
    generator = torch.Generator().manual_seed(1)
    width = getattr(model.config, "cross_attention_hidden_size", None) or model.config.hidden_size
    encoder = torch.randn(batch, encoder_tokens, width, generator=generator)
    ids = torch.randint(0, model.config.vocab_size, (batch, tokens), generator=generator)
    with torch.no_grad():
        cache = model(ids, **_encoder(model, encoder), use_cache=True).cache
        for _ in range(decode_steps):
            step = torch.randint(0, model.config.vocab_size, (batch, 1), generator=generator)
            cache = model(step, **_encoder(model, encoder), cache=cache, use_cache=True).cache
    return cache


def _bytes(cache) -> int:
    return sum(layer.keys.nbytes + layer.values.nbytes for layer in cache.layers if layer.keys is not None)


@pytest.mark.parametrize("model_type", sorted(FAMILIES))
@pytest.mark.parametrize(("tokens", "encoder_tokens", "decode_steps"), [(5, 7, 0), (2, 11, 3)])
def test_cross_attention_cache_equals_the_encoder_decoder_cache(model_type, tokens, encoder_tokens, decode_steps):
    """The cross-attention's keys and values are fixed by the encoder's length (decoding adds none), and the
    self-attention's figure holds none of them."""
    arch = paramledger.load({"model_type": model_type, **_config(model_type)})
    batch = 2
    cache = _run(_model(model_type), batch, tokens, encoder_tokens, decode_steps)
    cross = cross_attention_cache(arch, encoder_length=encoder_tokens, batch=batch, dtype="fp32")
    assert cross.bytes == _bytes(cache.cross_attention_cache) > 0
    assert cross.layers == 3
    own = kv_cache(arch, context=tokens + decode_steps, batch=batch, dtype="fp32")
    assert own.bytes == _bytes(cache.self_attention_cache)
    assert "reported apart (cross_attention_cache)" in own.definition


@pytest.mark.parametrize("model_type", ["bart", "mbart", "trocr", "whisper", "bert"])
@pytest.mark.parametrize("encoder_tokens", [None, 1, 9])
def test_decoding_step_flops_equal_torch(model_type, encoder_tokens):
    """One decoded token after 6 (torch's FlopCounterMode, eager attention): the cross-attention's q and o and its
    attention over the encoder's cached keys and values; none of it without an encoder's output."""
    from torch.utils.flop_counter import FlopCounterMode
    from transformers import AutoConfig, AutoModelForCausalLM

    from paramledger.compute import forward_flops_per_token

    config = AutoConfig.for_model(model_type, **_config(model_type))
    model = AutoModelForCausalLM.from_config(config, attn_implementation="eager").eval()
    generator = torch.Generator().manual_seed(2)
    ids = torch.randint(0, config.vocab_size, (1, 7), generator=generator)
    width = getattr(config, "cross_attention_hidden_size", None) or config.hidden_size
    encoder = None if encoder_tokens is None else torch.randn(1, encoder_tokens, width, generator=generator)
    with torch.no_grad():
        cache = model(ids[:, :-1], **_encoder(model, encoder), use_cache=True).cache
        with FlopCounterMode(display=False) as counter:
            model(ids[:, -1:], **_encoder(model, encoder), cache=cache, use_cache=True)
    ours = forward_flops_per_token(paramledger.inventory(paramledger.load({"model_type": model_type,
                                                                            **_config(model_type)})), 7, encoder_tokens)
    assert counter.get_total_flops() == ours.total
    assert (ours.cross_attention_flops > 0) == (encoder_tokens is not None)


def test_cross_attention_cache_figures():
    """bart-large's decoder: 12 layers × 2 × 16 heads × 64 per encoder token."""
    from paramledger.reference import default_config

    cross = cross_attention_cache(paramledger.load(default_config("bart")), encoder_length=1024, batch=2)
    assert cross.values_per_token == 12 * 2 * 1024
    assert cross.bytes == 2 * 1024 * 12 * 2 * 1024 * 2  # bf16
    assert "fixed by the encoder's input length" in cross.definition


def test_a_design_without_cross_attention_caches_nothing_for_an_encoder():
    cross = cross_attention_cache(paramledger.load("seed-baseline"), encoder_length=100)
    assert (cross.values, cross.layers) == (0, 0)
    assert cross.definition.startswith("no cross-attention")


@pytest.mark.parametrize("encoder_length", [0, -3, True, 2.5])
def test_encoder_length_must_be_a_whole_positive_number(encoder_length):
    with pytest.raises(OptionError, match="encoder-length"):
        cross_attention_cache(paramledger.load("seed-baseline"), encoder_length=encoder_length)


def test_cross_attention_on_a_design_of_our_own_adds_the_sublayer():
    spec = {"vocab_size": 50, "hidden_size": 16, "num_hidden_layers": 2, "num_attention_heads": 2}
    plain = paramledger.inventory(paramledger.load(spec))
    crossed = paramledger.inventory(paramledger.load({**spec, "add_cross_attention": True,
                                                      "cross_attention_hidden_size": 8}))
    # q (16×16), k and v from the 8-wide encoder (16×8 each), o (16×16), one RMSNorm (16), per layer
    assert crossed.total - plain.total == 2 * (16 * 16 + 2 * 16 * 8 + 16 * 16 + 16)
    assert "model.layers.1.encoder_attn.k_proj.weight" in {t.name for t in crossed.tensors}


def _assert_one_line(cli, source: str, *options: str, pattern: str) -> None:
    status, out, err = cli("count", source, *options)
    assert status == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert re.search(pattern, lines[0]), lines[0]


def test_encoder_width_without_cross_attention_is_refused(cli):
    _assert_one_line(cli, "seed-baseline", "--set", "cross_attention_hidden_size=8",
                     pattern=r"cross_attention_hidden_size: set without add_cross_attention")
    with pytest.raises(ArchitectureError, match="cross_attention_hidden_size"):
        paramledger.load({"vocab_size": 50, "hidden_size": 16, "num_hidden_layers": 2, "num_attention_heads": 2,
                          "cross_attention_hidden_size": 8})


def test_cross_attention_beside_latent_attention_is_refused(cli):
    with pytest.raises(ArchitectureError, match="add_cross_attention: is built beside plain multi-head"):
        paramledger.load({"vocab_size": 50, "hidden_size": 16, "num_hidden_layers": 2, "num_attention_heads": 2,
                          "kv_lora_rank": 4, "qk_nope_head_dim": 4, "qk_rope_head_dim": 4, "v_head_dim": 4,
                          "add_cross_attention": True})


def _written(tmp_path, config: dict):
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config), encoding="utf-8")
    return path


@pytest.fixture
def mvp_with_prompts(tmp_path):
    return _written(tmp_path, {"model_type": "mvp", **TINY, "use_prompt": True})


@pytest.fixture
def marian_with_its_own_decoder_vocabulary(tmp_path):
    return _written(tmp_path, {"model_type": "marian", **TINY, "decoder_vocab_size": 32})


def test_mvp_prompts_are_counted_in_the_whole_model_only(cli, mvp_with_prompts):
    """MvpDecoder's self_attn_prompt and cross_attn_prompt (families/_mvp_prompts.py); MvpForCausalLM builds none."""
    status, out, err = cli("verify", str(mvp_with_prompts))
    assert status == 0 and "match" in out, err
    status, out, err = cli("verify", "--text-only", str(mvp_with_prompts))
    assert status == 0 and "match" in out, err


def test_marian_decoder_vocabulary_apart_is_refused(cli, marian_with_its_own_decoder_vocabulary):
    _assert_one_line(cli, str(marian_with_its_own_decoder_vocabulary),
                     pattern=r"decoder_vocab_size: 32 != vocab_size=64 is not supported")


@pytest.fixture
def bert_encoder_with_cross_attention(tmp_path):
    return _written(tmp_path, {"model_type": "bert", **BERT, "is_decoder": False})


@pytest.fixture
def roberta_prelayernorm_with_cross_attention(tmp_path):
    return _written(tmp_path, {"model_type": "roberta-prelayernorm", **BERT})


def test_bert_cross_attention_in_an_encoder_is_refused(cli, bert_encoder_with_cross_attention):
    """transformers' BertLayer raises "should be used as a decoder model if cross attention is added"."""
    _assert_one_line(cli, str(bert_encoder_with_cross_attention), pattern=r"add_cross_attention: needs is_decoder true")


def test_cross_attention_of_a_pre_norm_bert_code_family_is_counted(cli, roberta_prelayernorm_with_cross_attention):
    """RoBERTa-PreLayerNorm's crossattention norm is its own (crossattention.LayerNorm, before the block): counted
    and verified against transformers (tests/test_requires_req1.py draws it)."""
    status, out, err = cli("verify", str(roberta_prelayernorm_with_cross_attention))
    assert status == 0 and "crossattention.LayerNorm" not in err, err
    assert "match" in out


@pytest.mark.parametrize(("model_type", "legacy", "understood"), [
    ("bart", {"add_final_layer_norm": False, "normalize_before": False, "normalize_embedding": True}, True),
    ("pegasus", {"add_final_layer_norm": True, "normalize_before": True, "static_position_embeddings": True}, True),
    ("bart", {"add_final_layer_norm": True}, False),  # a final norm BartDecoder does not build
    ("marian", {"static_position_embeddings": False}, False),  # a learned table MarianDecoder does not build
])
def test_transformers_3_switches_are_read_as_each_family_builds(model_type, legacy, understood):
    """Released configs (google/pegasus-large's among them) still carry BART's old shared switches; a value other
    than the one the family's class builds describes another checkpoint, and is said."""
    notes = paramledger.load({"model_type": model_type, **TINY, **legacy}).notes
    assert any(key in note for note in notes for key in legacy) != understood


def test_memory_adds_the_cross_attention_cache_of_an_encoder_input(cli, tmp_path):
    """memory --encoder-length N (issue #17 item 3): the cross-attention keys and values of an N-token encoder input
    (checked against EncoderDecoderCache above), beside the self-attention cache, in the total; refused in one
    line for a decoder with no cross-attention."""
    from paramledger.kvcache import cross_attention_cache

    path = tmp_path / "config.json"
    path.write_text(json.dumps({"model_type": "bart"}))
    status, out, _ = cli("memory", str(path), "--encoder-length", "1024", "--context", "256", "--batch", "2", "--json")
    data = json.loads(out)
    cross = cross_attention_cache(paramledger.load(str(path)), 1024, 2, "bf16")
    assert status == 0 and data["encoder_length"] == 1024 and data["cross_attention_cache_bytes"] == cross.bytes
    assert cross.bytes == 2 * 1024 * 12 * 2 * 1024 * 2  # batch × tokens × layers × (k, v) × d_model × 2 bytes
    assert data["total_bytes"] == data["weights_bytes"] + data["kv_cache_bytes"] + cross.bytes
    status, out, _ = cli("memory", str(path), "--encoder-length", "1024")
    assert "cross-attention cache at bf16: 24,576 values per encoder token" in out
    status, _, err = cli("memory", "Llama-3.2-1B", "--encoder-length", "10")
    assert status == 2 and err.count("\n") == 1 and "llama has no cross-attention" in err
