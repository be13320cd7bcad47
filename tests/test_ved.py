"""VisionEncoderDecoderModel (families/vision_encoder_decoder.py, towers/vit.py) and GPT-2's cross-attention
(parts/cross_attention.py's fused keys and values, families/gpt2.py): the behaviours around the whole model that
tests/test_families.py checks at its defaults and on random pairs (tests/_family_configs_ved.py): its figures at
VisionEncoderDecoderConfig's defaults and at release-shaped sizes, the decoder alone (--text-only), the encoder shown
apart, the refusals (one line naming the key), and GPT-2's cross-attention cache and FLOPs against a forward pass."""

from __future__ import annotations

import json

import pytest

import paramledger
from paramledger._exceptions import ArchitectureError
from paramledger.reference import diff, verify

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

VIT_BASE = {"model_type": "vit", "hidden_size": 768, "num_hidden_layers": 12, "num_attention_heads": 12,
            "intermediate_size": 3072, "image_size": 224, "patch_size": 16, "num_channels": 3, "qkv_bias": True}
TROCR = {"model_type": "trocr", "is_decoder": True, "add_cross_attention": True, "scale_embedding": True,
         "tie_word_embeddings": False, "activation_function": "relu", "pad_token_id": 1, "bos_token_id": 0,
         "eos_token_id": 2}
# The sizes of microsoft/trocr-base-* and trocr-small-* (the configs convert_trocr_unilm_to_pytorch.py's users paste:
# transformers 4.12.0.dev0 and 4.14.1), and of nlpconnect/vit-gpt2-image-captioning (ViT-base beside GPT-2 small
# with add_cross_attention); no verbatim config.json was at hand, so none is bundled.
TROCR_BASE = {"model_type": "vision-encoder-decoder", "tie_word_embeddings": False,
              "encoder": {**VIT_BASE, "image_size": 384, "qkv_bias": False},
              "decoder": {**TROCR, "d_model": 1024, "decoder_layers": 12, "decoder_attention_heads": 16,
                          "decoder_ffn_dim": 4096, "cross_attention_hidden_size": 768, "max_position_embeddings": 1024,
                          "vocab_size": 50265, "layernorm_embedding": False, "use_learned_position_embeddings": False}}
TROCR_SMALL = {"model_type": "vision-encoder-decoder", "tie_word_embeddings": False,
               "encoder": {**VIT_BASE, "model_type": "deit", "hidden_size": 384, "num_attention_heads": 6,
                           "intermediate_size": 1536, "image_size": 384},
               "decoder": {**TROCR, "d_model": 256, "decoder_layers": 6, "decoder_attention_heads": 8,
                           "decoder_ffn_dim": 1024, "cross_attention_hidden_size": 384, "max_position_embeddings": 512,
                           "vocab_size": 64044, "layernorm_embedding": True, "use_learned_position_embeddings": True}}
VIT_GPT2 = {"model_type": "vision-encoder-decoder", "tie_word_embeddings": False, "pad_token_id": 50256,
            "decoder_start_token_id": 50256, "encoder": VIT_BASE,
            "decoder": {"model_type": "gpt2", "n_embd": 768, "n_layer": 12, "n_head": 12, "n_positions": 1024,
                        "vocab_size": 50257, "add_cross_attention": True, "is_decoder": True}}

# The sizes of naver-clova-ix/donut-base (DonutSwin at 2560 × 1920 beside an MBart decoder of 4 layers), from memory
# of its card and config: checked against transformers as any config is, its hub label not compared.
DONUT_BASE = {"model_type": "vision-encoder-decoder", "tie_word_embeddings": False,
              "encoder": {"model_type": "donut-swin", "image_size": [2560, 1920], "patch_size": 4, "embed_dim": 128,
                          "depths": [2, 2, 14, 2], "num_heads": [4, 8, 16, 32], "window_size": 10},
              "decoder": {"model_type": "mbart", "d_model": 1024, "decoder_layers": 4, "decoder_attention_heads": 16,
                          "decoder_ffn_dim": 4096, "vocab_size": 57525, "max_position_embeddings": 1536,
                          "scale_embedding": True, "is_decoder": True, "add_cross_attention": True}}


def small(decoder: dict, **encoder) -> dict:
    return {"model_type": "vision-encoder-decoder", "decoder_start_token_id": 0, "pad_token_id": 0,
            "encoder": {"model_type": "vit", "hidden_size": 24, "num_hidden_layers": 2, "num_attention_heads": 2,
                        "intermediate_size": 20, "image_size": 32, "patch_size": 8, **encoder},
            "decoder": decoder}


GPT2 = {"model_type": "gpt2", "n_embd": 16, "n_layer": 2, "n_head": 2, "vocab_size": 64, "n_positions": 40,
        "add_cross_attention": True}


def _meta(config: dict):
    cfg = transformers.AutoConfig.for_model(**config)
    with torch.device("meta"):
        return transformers.VisionEncoderDecoderModel(cfg)


def test_the_class_defaults_build_vit_and_a_bert_decoder():
    """VisionEncoderDecoderConfig's sub_configs_defaults: ViTModel (with its pooler) and BertLMHeadModel with
    cross-attention; the head tied by the decoder's own config."""
    inventory = paramledger.inventory(paramledger.load({"model_type": "vision-encoder-decoder"}))
    assert (len(inventory.tensors), inventory.total) == (522, 224_270_394)
    assert inventory.components["vision"] == 86_389_248  # ViT-base at 224/16 with its pooler
    assert inventory.tensors[0].name == "encoder.embeddings.cls_token"
    assert inventory.aliases == {"decoder.cls.predictions.decoder.weight":
                                 "decoder.bert.embeddings.word_embeddings.weight",
                                 "decoder.cls.predictions.decoder.bias": "decoder.cls.predictions.bias"}


@pytest.mark.parametrize(("config", "tensors", "total"), [
    (TROCR_BASE, 478, 384_864_768), (TROCR_SMALL, 362, 61_596_672), (VIT_GPT2, 444, 239_195_904),
    (DONUT_BASE, 463, 201_852_024)])
def test_release_sized_pairs_match_transformers(config, tensors, total):
    """TrOCR (ViT or DeiT and TrOCR's decoder: no projection, cross_attention_hidden_size), ViT-GPT2 (GPT-2's
    crossattention, head tied) and Donut (DonutSwin's four stages, 1024 wide after the last, and MBart's decoder),
    tensor by tensor in named_parameters() order."""
    result = verify(config)
    assert result.diff.matches and (len(result.inventory.tensors), result.inventory.total) == (tensors, total)
    model = _meta(config)
    assert result.inventory.non_embedding("hf") == model.num_parameters(exclude_embeddings=True)


@pytest.mark.parametrize("encoder", ["swin", "donut-swin"])
@pytest.mark.parametrize("absolute", [False, True])
def test_swin_encoders_match_transformers_with_their_buffers(encoder, absolute):
    """SwinModel (q_proj..., its final layernorm, a flat non-persistent index) and DonutSwinModel (query..., a (w², w²)
    persistent index, positions one row longer), each beside a BART decoder."""
    from paramledger.buffers import every_buffer

    config = {"model_type": "vision-encoder-decoder",
              "encoder": {"model_type": encoder, "embed_dim": 8, "depths": [1, 2], "num_heads": [2, 4],
                          "window_size": 3, "image_size": [24, 20], "patch_size": 4, "qkv_bias": False,
                          "use_absolute_embeddings": absolute},
              "decoder": {"model_type": "bart", "d_model": 16, "decoder_layers": 1, "decoder_attention_heads": 2,
                          "decoder_ffn_dim": 8, "vocab_size": 50, "max_position_embeddings": 20}}
    result = verify(config)
    assert result.diff.matches
    model = _meta(config)
    ours = {b.name: (b.shape, b.persistent) for b in every_buffer(result.inventory)
            if b.name.startswith("encoder.")}
    theirs = {name: (tuple(b.shape), name.rpartition(".")[2] not in model.get_submodule(
        name.rpartition(".")[0])._non_persistent_buffers_set) for name, b in model.named_buffers()
        if name.startswith("encoder.")}
    assert ours == theirs and len(ours) == 3


@pytest.mark.parametrize("width", [16, 24])
def test_enc_to_dec_proj_only_where_the_widths_differ(width):
    config = small({**GPT2, "n_embd": width})
    model = _meta(config)
    inventory = paramledger.inventory(paramledger.load(config))
    assert inventory.total == model.num_parameters()
    assert any(t.name == "enc_to_dec_proj.weight" for t in inventory.tensors) == (width != 24)


def test_the_decoder_alone_is_reachable():
    """--text-only counts config.decoder alone, as its own CausalLM (GPT2LMHeadModel) builds it."""
    config = small(GPT2)
    result = verify(config, text_only=True)
    alone = transformers.AutoConfig.for_model(**config["decoder"])
    with torch.device("meta"):
        model = transformers.AutoModelForCausalLM.from_config(alone)
    assert result.inventory.total == model.num_parameters() and not result.inventory.has_towers
    assert diff(paramledger.inventory(paramledger.load(config["decoder"])), result.reference).matches


def test_count_json_shows_the_image_encoder_apart(cli, tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps(small(GPT2)))
    code, out, _ = cli("count", str(path), "--json")
    assert code == 0
    data = json.loads(out)
    assert data["components"]["vision"] > 0 and data["components"]["projector"] == 24 * 16 + 16
    assert data["total"] - data["components"]["vision"] - data["components"]["projector"] == data["text_decoder"]
    assert any("vision-encoder-decoder: counting the whole model" in note for note in data["notes"])
    code, out, _ = cli("verify", str(path))
    assert code == 0 and "match:" in out
    code, out, _ = cli("memory", str(path), "--text-only")
    assert code == 0 and "gpt2" in out


@pytest.mark.parametrize(("config", "message"), [
    ({"encoder": {"model_type": "swinv2"}},
     "encoder.model_type: 'swinv2' is not counted in vision-encoder-decoder yet"),
    ({"encoder": {"model_type": "beit"}}, "encoder.model_type: 'beit' is not counted"),
    ({"decoder": {"model_type": "t5"}}, "decoder.model_type: 't5' is not counted in vision-encoder-decoder"),
    ({"encoder": {"model_type": "swin", "num_heads": [200, 6, 12, 24]}},
     "encoder.num_heads: 200 heads are more than stage 0's width 96"),
    ({"encoder": {"model_type": "donut-swin", "num_heads": [4, 8]}},
     "encoder.num_heads: has 2 entries for 4 stages"),
    ({"encoder": {"model_type": "donut-swin", "num_heads": [5, 6, 12, 24]}},
     "encoder.num_heads: 5 heads do not divide stage 0's width 96"),
    ({"encoder": {"model_type": "donut-swin", "depths": [2, 0]}},
     "encoder.depths: must be a list of positive whole numbers"),
    ({"encoder": {"model_type": "donut-swin", "depths": [9000, 9000]}}, "encoder.depths: 18,000 blocks are beyond"),
    ({"encoder": {"model_type": "donut-swin", "depths": [1] * 80, "num_heads": [1] * 80}},
     "encoder.depths: 80 stages widen embed_dim=96 past the bound"),
    ({"encoder": {"model_type": "donut-swin", "window_size": 0}}, "encoder.window_size: must be a positive whole"),
    ({"encoder": {"model_type": "donut-swin", "mlp_ratio": 0.001}}, "encoder.mlp_ratio: 0.001 gives stage 0 an FFN"),
    ({"encoder": {"model_type": "donut-swin", "mlp_ratio": "4"}}, "encoder.mlp_ratio: must be a positive number"),
    ({"encoder": {"model_type": "donut-swin", "use_absolute_embeddings": 1}},
     "encoder.use_absolute_embeddings: must be true or false"),
    ({"encoder": {"model_type": "donut-swin", "embed_dim": 8, "depths": [1, 1], "num_heads": [1, 1]},
      "decoder": {"model_type": "mbart", "cross_attention_hidden_size": 8}},
     r"decoder.cross_attention_hidden_size: 8 must be the encoder's hidden_size \(16\)"),
    ({"encoder": [1]}, "encoder: must be a JSON object"),
    ({"decoder": "bert"}, "decoder: must be a JSON object"),
    ({"encoder": {"hidden_size": 0}}, "encoder.hidden_size: must be a positive whole number, got 0"),
    ({"encoder": {"num_hidden_layers": -1}}, "encoder.num_hidden_layers: must be a positive whole number, got -1"),
    ({"encoder": {"num_hidden_layers": 10**9}}, "encoder.num_hidden_layers: 1,000,000,000 is beyond the bound"),
    ({"encoder": {"patch_size": 32, "image_size": 16}}, "encoder.patch_size: 32 is larger than image_size=16"),
    ({"encoder": {"patch_size": [16, 0]}}, "encoder.patch_size: must be a positive whole number or two of them"),
    ({"encoder": {"image_size": "big"}}, "encoder.image_size: must be a positive whole number or two of them"),
    ({"encoder": {"num_attention_heads": 5}}, "encoder.num_attention_heads: 5 heads do not divide hidden_size=768"),
    ({"encoder": {"qkv_bias": "no"}}, "encoder.qkv_bias: must be true or false"),
    ({"encoder": {"pooler_output_size": -3}}, "encoder.pooler_output_size: must be a positive whole number"),
    ({"decoder": {"model_type": "bert", "is_decoder": True, "add_cross_attention": True,
                  "cross_attention_hidden_size": 10}},
     r"decoder.cross_attention_hidden_size: 10 must be the encoder's hidden_size \(768\)"),
])
def test_bad_input_is_refused_in_one_line_naming_the_key(config, message):
    with pytest.raises(ArchitectureError, match=message) as raised:
        paramledger.load({"model_type": "vision-encoder-decoder", **config})
    assert "\n" not in str(raised.value)


@pytest.mark.parametrize("model_type", ["vision-encoder-decoder", "encoder-decoder"])
def test_a_decoder_refusal_names_the_decoder_key(model_type):
    """The decoder's own refusals are said under decoder. (Whole.text_key), the section the user wrote."""
    decoder = {"model_type": "bert", "is_decoder": True, "add_cross_attention": True, "vocab_size": 40,
               "pad_token_id": 40}
    with pytest.raises(ArchitectureError, match=r"decoder.pad_token_id: 40 is outside the 40 rows"):
        paramledger.load({"model_type": model_type, "decoder": decoder})


def test_a_refusal_exits_2_in_the_cli(cli, tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"model_type": "vision-encoder-decoder", "encoder": {"model_type": "beit"}}))
    code, _, err = cli("count", str(path))
    assert code == 2 and "encoder.model_type" in err and len(err.strip().splitlines()) == 1


# GPT-2's own cross-attention (GPT2Block.crossattention with add_cross_attention), checked apart from any whole model.
def _gpt2(**extra):
    from transformers import AutoConfig, AutoModelForCausalLM

    torch.manual_seed(0)
    return AutoModelForCausalLM.from_config(AutoConfig.for_model(**{**GPT2, **extra}), attn_implementation="eager").eval()


def test_gpt2_with_cross_attention_matches_transformers():
    for config in (GPT2, {**GPT2, "tie_word_embeddings": False, "n_inner": 7}, {**GPT2, "add_cross_attention": False}):
        assert verify(config).diff.matches


@pytest.mark.parametrize(("tokens", "encoder_tokens", "decode_steps"), [(5, 7, 0), (2, 11, 3)])
def test_gpt2_cross_attention_cache_equals_the_encoder_decoder_cache(tokens, encoder_tokens, decode_steps):
    from test_cross_attention import _bytes, _run

    from paramledger.kvcache import cross_attention_cache, kv_cache

    arch = paramledger.load(GPT2)
    cache = _run(_gpt2(), 2, tokens, encoder_tokens, decode_steps)
    cross = cross_attention_cache(arch, encoder_length=encoder_tokens, batch=2, dtype="fp32")
    assert cross.bytes == _bytes(cache.cross_attention_cache) > 0 and cross.layers == 2
    assert kv_cache(arch, context=tokens + decode_steps, batch=2, dtype="fp32").bytes == _bytes(
        cache.self_attention_cache)


@pytest.mark.parametrize("encoder_tokens", [None, 1, 9])
def test_gpt2_decoding_step_flops_equal_torch(encoder_tokens):
    """One decoded token after 6: the cross-attention's q_attn and c_proj and its attention over the encoder's
    cached keys and values (c_attn runs on the encoder's states once, on the first step)."""
    from torch.utils.flop_counter import FlopCounterMode

    from paramledger.compute import forward_flops_per_token

    model = _gpt2()
    generator = torch.Generator().manual_seed(2)
    ids = torch.randint(0, GPT2["vocab_size"], (1, 7), generator=generator)
    encoder = None if encoder_tokens is None else torch.randn(1, encoder_tokens, GPT2["n_embd"], generator=generator)
    with torch.no_grad():
        cache = model(ids[:, :-1], encoder_hidden_states=encoder, use_cache=True).cache
        with FlopCounterMode(display=False) as counter:
            model(ids[:, -1:], encoder_hidden_states=encoder, cache=cache, use_cache=True)
    ours = forward_flops_per_token(paramledger.inventory(paramledger.load(GPT2)), 7, encoder_tokens)
    assert counter.get_total_flops() == ours.total


@pytest.mark.parametrize("width", [16, 24])
def test_encoder_decoder_takes_a_gpt2_decoder_too(width):
    """bert2gpt2: EncoderDecoderModel's decoder GPT2LMHeadModel with add_cross_attention (families/encoder_decoder.py
    reads it through the same GPT-2 table), enc_to_dec_proj where BERT's width is not n_embd."""
    config = {"model_type": "encoder-decoder", "decoder_start_token_id": 0, "pad_token_id": 0,
              "encoder": {"model_type": "bert", "vocab_size": 64, "hidden_size": width, "num_hidden_layers": 2,
                          "num_attention_heads": 2, "intermediate_size": 24, "max_position_embeddings": 40},
              "decoder": GPT2}
    result = verify(config)
    assert result.diff.matches and result.reference.total == result.inventory.total
    assert any(t.name == "enc_to_dec_proj.weight" for t in result.inventory.tensors) == (width != 16)
    assert result.inventory.aliases == {"decoder.lm_head.weight": "decoder.transformer.wte.weight"}
