"""T5Gemma 2 counted whole (set TG): T5Gemma2ForConditionalGeneration against transformers 5.24.0, its caches after
a real forward pass, its refusals.  tests/test_families.py checks the defaults and random configs
(tests/_family_configs_tg.py); these are the behaviours around them."""

from __future__ import annotations

import json
import re

import pytest
from _cli_refusal import refused_by_the_cli

import paramledger
from paramledger._exceptions import ArchitectureError
from paramledger.families.t5gemma2 import ENCODER_KNOWN, SECTION_KNOWN
from paramledger.reference import build_reference, default_config, diff

from test_seq2seq_n import assert_caches_equal_transformers

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

TEXT = {"vocab_size": 64, "hidden_size": 32, "intermediate_size": 48, "num_hidden_layers": 2,
        "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 8, "pad_token_id": 0, "eos_token_id": 1,
        "bos_token_id": 2}
VISION = {"hidden_size": 16, "intermediate_size": 24, "num_hidden_layers": 1, "num_attention_heads": 2,
          "image_size": 32, "patch_size": 8}
DECODER = {**TEXT, "intermediate_size": 40, "num_hidden_layers": 3, "num_attention_heads": 2,
           "num_key_value_heads": 1}
TINY = {"model_type": "t5gemma2", "encoder": {"text_config": TEXT, "vision_config": VISION, "mm_tokens_per_image": 4},
        "decoder": DECODER}
# google/t5gemma-2-270m-270m's sizes, as a printed T5Gemma2Config in a public file gives them (no config.json of the
# release was found: nothing is bundled)
T270M = {"vocab_size": 262144, "hidden_size": 640, "intermediate_size": 2048, "num_hidden_layers": 18,
         "num_attention_heads": 4, "num_key_value_heads": 1, "head_dim": 256, "sliding_window": 512,
         "max_position_embeddings": 32768,
         "rope_parameters": {"full_attention": {"factor": 8.0, "rope_theta": 1000000, "rope_type": "linear"},
                             "sliding_attention": {"rope_theta": 10000, "rope_type": "default"}}}


def _meta(config: dict):
    cfg = transformers.AutoConfig.for_model(**config)
    with torch.device("meta"):
        return transformers.AutoModelForSeq2SeqLM.from_config(cfg)


def test_the_class_default_is_the_whole_model():
    """T5Gemma2Config's defaults: 4,747,846,400 in the whole model (890 tensors), the encoder's text model, its
    SigLIP tower and projector, the decoder; the decoder's table, its eoi_embedding and the head tied to the
    encoder's."""
    config = default_config("t5gemma2")
    inventory = paramledger.inventory(paramledger.load(config))
    whole = build_reference(config)
    assert whole.class_name == "T5Gemma2ForConditionalGeneration" and diff(inventory, whole).matches
    assert (inventory.total, len(inventory.tensors)) == (4_747_846_400, 890)
    assert (inventory.component("encoder"), inventory.component("vision"), inventory.component("projector")) == (
        2_024_531_200, 92_884_224, 1_770_240)
    table = "model.encoder.text_model.embed_tokens."
    assert inventory.aliases == {"model.decoder.embed_tokens.weight": table + "weight",
                                 "model.decoder.embed_tokens.eoi_embedding": table + "eoi_embedding",
                                 "lm_head.out_proj.weight": table + "weight"}


def test_a_decoder_layer_holds_no_cross_attention_of_its_own():
    """T5Gemma2MergedAttention: the self-attention's projections and q/k norms serve the encoder's states too."""
    inventory = paramledger.inventory(paramledger.load(TINY))
    layer = "model.decoder.layers.2."
    modules = ("self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj", "self_attn.o_proj", "self_attn.q_norm",
               "self_attn.k_norm", "pre_self_attn_layernorm", "post_self_attn_layernorm", "mlp.gate_proj",
               "mlp.up_proj", "mlp.down_proj", "pre_feedforward_layernorm", "post_feedforward_layernorm")
    assert [t.name.removeprefix(layer) for t in inventory.tensors if t.name.startswith(layer)] == [
        f"{module}.weight" for module in modules]
    assert inventory["model.encoder.multi_modal_projector.mm_input_projection_weight"].shape == (16, 32)
    assert inventory["model.encoder.text_model.embed_tokens.eoi_embedding"].shape == (32,)


@pytest.mark.parametrize("tie", [None, True, False])
def test_the_tables_and_the_head_are_tied_by_the_whole_configs_key(tie):
    """Tied (T5Gemma2Config's tie_word_embeddings, default true): one table and one eoi_embedding, the encoder's;
    untied: three tables and two eoi_embedding vectors.  Hugging Face's non-embedding count drops the tables (and the
    tower's position table), never an eoi_embedding."""
    config = {**TINY, **({} if tie is None else {"tie_word_embeddings": tie})}
    model = _meta(config)
    inventory = paramledger.inventory(paramledger.load(config))
    tied = tie is not False
    encoder, decoder = model.model.encoder.text_model.embed_tokens, model.model.decoder.embed_tokens
    assert (model.lm_head.out_proj.weight is encoder.weight) == tied == inventory.tied
    assert (decoder.eoi_embedding is encoder.eoi_embedding) == tied
    assert inventory.total == model.num_parameters()
    assert inventory.non_embedding("hf") == model.num_parameters(exclude_embeddings=True)
    assert [t.name for t in inventory.tensors] == [name for name, _ in model.named_parameters()]


def test_a_release_sized_config_matches_transformers():
    """t5gemma-2-270m-270m's sizes (a 896-pixel SigLIP of 27 layers without its head, 256 tokens an image): the
    whole model against transformers, tensor by tensor."""
    vision = {"hidden_size": 1152, "intermediate_size": 4304, "num_hidden_layers": 27, "num_attention_heads": 16,
              "image_size": 896, "patch_size": 14, "vision_use_head": False, "model_type": "siglip_vision_model"}
    # (with the keys its printed config adds beside the sizes)
    section = {**T270M, "_sliding_window_pattern": 6, "use_bidirectional_attention": False, "dropout_rate": 0.0}
    config = {"model_type": "t5gemma2", "encoder": {"text_config": section, "vision_config": vision,
                                                    "mm_tokens_per_image": 256, "dropout_rate": 0.0,
                                                    "vocab_size": 262144, "attention_dropout": 0.0},
              "decoder": section, "eoi_token_index": 256000, "image_token_index": 256001,
              "classifier_dropout_rate": 0.0, "dropout_rate": 0.0, "is_encoder_decoder": True}
    inventory = paramledger.inventory(paramledger.load(config))
    assert diff(inventory, build_reference(config)).matches
    assert inventory.total == 786_029_296
    assert not any("not understood" in note for note in paramledger.load(config).notes)


def test_a_sections_keys_are_each_read_or_known_to_size_nothing():
    """Every key T5Gemma2DecoderConfig and T5Gemma2EncoderConfig write (and what T5Gemma2Config adds) is classified;
    another is reported as not understood, under its section."""
    written = transformers.T5Gemma2Config()
    assert sorted(set(written.decoder.to_dict()) - SECTION_KNOWN) == []
    assert sorted(set(written.encoder.to_dict()) - ENCODER_KNOWN) == []
    arch = paramledger.load({**TINY, "decoder": {**DECODER, "n_experts": 4}})
    assert any("decoder.n_experts" in note for note in arch.notes)


def test_count_shows_the_encoder_its_tower_and_the_decoder_apart(cli, tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps(TINY))
    code, out, _ = cli("count", str(path), "--json")
    assert code == 0
    data = json.loads(out)
    whole = _meta(TINY)
    # (the encoder's table and eoi_embedding are the shared ones, counted beside the decoder as BART's model.shared)
    encoder = sum(p.numel() for name, p in whole.named_parameters()
                  if name.startswith("model.encoder.") and ".embed_tokens." not in name)
    assert data["total"] == whole.num_parameters() and data["text_decoder"] == data["total"] - encoder
    code, out, _ = cli("count", str(path))
    assert code == 0 and re.search(r"^vision\s+7,280\s", out, re.MULTILINE)
    assert ("shared token table: model.decoder.embed_tokens.eoi_embedding -> model.encoder.text_model.embed_tokens."
            "eoi_embedding; model.decoder.embed_tokens.weight -> model.encoder.text_model.embed_tokens.weight") in out


@pytest.mark.parametrize("decoder", [
    {},  # every layer sliding within the 4096 window
    {"sliding_window": 2},  # the sliding layers keep their window of the 4 generated tokens
    {"sliding_window": 3, "layer_types": ["full_attention", "sliding_attention", "sliding_attention"]},
    {"sliding_window": 2, "sliding_window_pattern": 2, "num_key_value_heads": 2},
])
def test_the_whole_models_caches_equal_transformers_after_a_forward_pass(decoder):
    """The decoder's self-attention cache (its sliding layers' windows) and the merged attention's cross cache (the
    decoder's KV heads over each encoder token) as the EncoderDecoderCache holds them after a real forward pass."""
    assert_caches_equal_transformers({**TINY, "decoder": {**DECODER, **decoder}})


def _with(section: str, key: str, value) -> dict:
    if section == "decoder":
        return {**TINY, "decoder": {**DECODER, key: value}}
    encoder = dict(TINY["encoder"])
    if section == "encoder":
        encoder[key] = value
    else:  # encoder.text_config, encoder.vision_config
        inner = section.removeprefix("encoder.")
        encoder[inner] = {**encoder[inner], key: value}
    return {**TINY, "encoder": encoder}


@pytest.mark.parametrize(("section", "key", "value", "message"), [
    ("encoder.text_config", "hidden_size", 48, "encoder.text_config.hidden_size: 48 differs from decoder.hidden_size"
                                               "=32 (T5Gemma2Config refuses an imbalanced encoder-decoder)"),
    ("encoder.text_config", "vocab_size", 65, "encoder.text_config.vocab_size: 65 differs from decoder.vocab_size=64"),
    ("encoder.text_config", "num_hidden_layers", 0, "encoder.text_config.num_hidden_layers: must be a positive "
                                                    "whole number, got 0"),
    ("encoder.text_config", "num_attention_heads", 3, "encoder.text_config.hidden_size: 32 is not a multiple of "
                                                      "num_attention_heads=3"),
    ("decoder", "sliding_window_pattern", 0, "decoder.sliding_window_pattern: must be a positive whole number"),
    ("decoder", "layer_types", ["full_attention"], "decoder.layer_types: must list num_hidden_layers=3"),
    ("decoder", "layer_types", ["chunked_attention"] * 3, "decoder.layer_types: must list full_attention or "
                                                          "sliding_attention layers"),
    ("decoder", "sliding_window", -1, "decoder.sliding_window: must be a positive whole number, got -1"),
    ("encoder", "mm_tokens_per_image", 0, "encoder.mm_tokens_per_image: must be a positive whole number, got 0"),
    ("encoder", "mm_tokens_per_image", None, "encoder.mm_tokens_per_image: must be a positive whole number"),
    ("encoder.vision_config", "hidden_size", 0, "encoder.vision_config.hidden_size: must be a positive whole number"),
    ("encoder.vision_config", "model_type", "clip_vision_model", "encoder.vision_config.model_type: "
                                                                 "'clip_vision_model' is not counted in t5gemma2"),
    ("encoder", "text_config", [1], "encoder.text_config: must be a JSON object"),
])
def test_a_bad_value_is_refused_in_one_line_under_its_own_key(section, key, value, message):
    with pytest.raises(ArchitectureError, match=re.escape(message)) as raised:
        paramledger.load(_with(section, key, value))
    assert "\n" not in str(raised.value)


def test_the_whole_configs_own_refusals():
    with pytest.raises(ArchitectureError, match=r"encoder: must be a JSON object, got 3"):
        paramledger.load({**TINY, "encoder": 3})
    with pytest.raises(ArchitectureError, match=r"is_encoder_decoder: false is refused by transformers \(T5Gemma2Config: \"T5Gemma2Model only support"):
        paramledger.load({**TINY, "is_encoder_decoder": False})


def test_a_bad_value_exits_2_with_one_line(tmp_path):
    refused_by_the_cli(tmp_path, json.dumps(_with("encoder", "mm_tokens_per_image", -4)),
                       "encoder.mm_tokens_per_image: must be a positive whole number, got -4")


def test_the_merged_cross_attention_key_is_refused_alone():
    from paramledger.architecture import Architecture

    given = {"vocab_size": 64, "hidden_size": 32, "num_hidden_layers": 2, "num_attention_heads": 4,
             "intermediate_size": 48, "cross_attention_merged": True}
    with pytest.raises(ArchitectureError, match="cross_attention_merged: set without add_cross_attention"):
        Architecture.from_mapping(given)


def test_the_closed_form_gives_transformers_count_at_another_design():
    """formula traces the decoder and the encoder's text model in symbols, the projector in the decoder's width d, the
    SigLIP tower as its count; evaluated at other depths and widths it is transformers' total."""
    from paramledger import formula

    form = formula.closed_form(paramledger.load(TINY))
    assert form.evaluate(form.total, paramledger.load(TINY)) == paramledger.inventory(paramledger.load(TINY)).total
    wider = {"hidden_size": 48, "num_hidden_layers": 4}
    other = {**TINY, "encoder": {**TINY["encoder"], "text_config": {**TEXT, **wider, "num_hidden_layers": 1}},
             "decoder": {**DECODER, **wider}}
    assert form.evaluate(form.total, paramledger.load(other)) == build_reference(other).total
