"""Set Z (issue #15): Dots 3 Note's text decoder beyond tests/test_families.py's tensor-by-tensor check against
transformers 5.24.0: the cache each layer holds after a real forward pass of a small random model, byte for byte (the
latent and rotary key of every layer, the sliding layers' within their window, the indexer's key on the indexed
layers), and the refusals of the keys the family reads (one line naming the key, exit status 2)."""

from __future__ import annotations

import pytest
from _family_configs_z import dots3_note_text
from hypothesis import assume, given, settings
from test_hybrids import _model
from test_kvcache import _cache_bytes

import paramledger
from paramledger._exceptions import ArchitectureError
from paramledger.kvcache import kv_cache, kv_values_per_token

torch = pytest.importorskip("torch")

BATCH, PROMPT, DECODED = 2, 5, 2
# two indexed layers and two sliding ones (window 3) of other latent sizes, the released swa_* spelling
DOTS = {"model_type": "dots3_note_text", "pad_token_id": 0, "vocab_size": 64, "hidden_size": 16,
        "num_hidden_layers": 4, "num_attention_heads": 2, "num_key_value_heads": 2, "intermediate_size": 24,
        "moe_intermediate_size": 8, "n_routed_experts": 4, "num_experts_per_tok": 2, "q_lora_rank": 6,
        "kv_lora_rank": 8, "qk_nope_head_dim": 4, "qk_rope_head_dim": 2, "v_head_dim": 4, "head_dim": 8,
        "index_n_heads": 2, "index_head_dim": 4, "index_topk": 3, "sliding_window": 3,
        "swa_num_attention_heads": 4, "swa_num_key_value_heads": 4, "swa_q_lora_rank": 5, "swa_kv_lora_rank": 12,
        "swa_qk_nope_head_dim": 2, "swa_qk_rope_head_dim": 4, "swa_v_head_dim": 3, "swa_head_dim": 6}


def _decode(model):
    """The prompt, then DECODED tokens one at a time, each passing on the cache the model returned."""
    generator = torch.Generator().manual_seed(1)
    cache = None
    with torch.no_grad():
        for length in (PROMPT,) + (1,) * DECODED:
            ids = torch.randint(0, model.config.vocab_size, (BATCH, length), generator=generator)
            cache = model(ids, use_cache=True, cache=cache).cache
    return cache


def _ours(config: dict):
    return kv_cache(paramledger.load(config), context=PROMPT + DECODED, batch=BATCH, dtype="fp32")


def test_the_defaults_count_what_transformers_builds():
    """279,551,718,016 parameters (measured on the meta device: tests/test_families.py), 33 of 46 layers sliding."""
    arch = paramledger.load({"model_type": "dots3_note_text"})
    assert paramledger.inventory(arch).total == 279_551_718_016
    assert len(arch.sliding_head_gated_mla_layers) == 33 and arch.swa_kv_lora_rank == 1024
    # per token: 13 indexed layers' latent, rotary key and indexer key; 33 sliding layers' latent and rotary key
    assert kv_values_per_token(arch) == 13 * (512 + 64 + 128) + 33 * (1024 + 64)


def test_dots_cache_equals_what_transformers_holds():
    """Indexed layers: every token's latent (8), rotary key (2) and indexer key (4); sliding layers: the last
    window - 1 = 2 tokens' latent (12) and rotary key (4)."""
    cache = _decode(_model(DOTS))
    ours = _ours(DOTS)
    assert ours.bytes == _cache_bytes(cache) == BATCH * 4 * (2 * 7 * (8 + 2 + 4) + 2 * 2 * (12 + 4))


def test_full_and_indexed_layers_side_by_side():
    """With per_layer_config given, use_dsa converts nothing: full layers (no indexer) beside indexed ones, each
    type its own rotary."""
    swa = {"num_attention_heads": 4, "num_key_value_heads": 4, "q_lora_rank": 5, "kv_lora_rank": 12,
           "qk_nope_head_dim": 2, "qk_rope_head_dim": 4, "v_head_dim": 3, "head_dim": 6}
    config = {**DOTS, "per_layer_config": {"2": swa}, "layer_types": ["full_attention", "indexed_attention",
                                                                      "sliding_attention", "indexed_attention"]}
    arch = paramledger.load(config)
    assert (arch.head_gated_mla_layers, arch.indexed_head_gated_mla_layers) == ((0,), (1, 3))
    cache = _decode(_model(config))
    assert _ours(config).bytes == _cache_bytes(cache) == BATCH * 4 * (7 * (8 + 2) + 2 * 7 * (8 + 2 + 4)
                                                                       + 2 * (12 + 4))


def test_a_full_attention_dots_caches_no_indexer_key():
    """use_dsa False: the main layers are full attention, without an indexer (nor its cached key)."""
    config = {**DOTS, "use_dsa": False}
    arch = paramledger.load(config)
    assert arch.index_n_heads is None
    cache = _decode(_model(config))
    assert _ours(config).bytes == _cache_bytes(cache) == BATCH * 4 * (2 * 7 * (8 + 2) + 2 * 2 * (12 + 4))


@settings(max_examples=10, deadline=None)
@given(config=dots3_note_text())
def test_dots_cache_on_random_configs_equals_what_transformers_holds(config):
    config = {"model_type": "dots3_note_text", "pad_token_id": 0, **config}
    model = _model(config)
    try:
        cache = _decode(model)
    except (RuntimeError, ValueError):  # a rotary of another width than the key's (int(h × r / h) < r): no forward
        assume(False)
    assert _ours(config).bytes == _cache_bytes(cache)


@pytest.mark.parametrize(("changes", "message"), [
    ({"num_key_value_heads": 1}, r"num_key_value_heads: 1 on the indexed_attention layers is not "
                                 r"num_attention_heads=2 \(Dots3NoteTextConfig"),
    ({"swa_num_key_value_heads": 2}, r"num_key_value_heads: 2 on the sliding_attention layers is not "),
    ({"q_lora_rank": None}, r"q_lora_rank: required on the indexed_attention layers"),
    ({"swa_head_dim": 7}, r"swa_head_dim: 7 is not the sliding layers' qk_nope_head_dim \+ qk_rope_head_dim"),
    ({"index_head_dim": 1}, r"qk_rope_head_dim: 2 is more than index_head_dim=1"),
    ({"n_shared_experts": 0}, r"n_shared_experts: must be 1 or more, got 0"),
    ({"n_group": 3}, r"n_group: 3 does not divide n_routed_experts=4"),
    ({"n_group": 4}, r"n_routed_experts: 4 gives fewer than two experts in each of the 4 groups"),
    ({"n_group": 2, "topk_group": 3}, r"topk_group: must be in 1..n_group=2, got 3"),
    ({"layer_types": ["full_attention"] * 3}, r"layer_types: must list one of .* for each of the 4 layers"),
    ({"layer_types": ["linear_attention"] * 4}, r"layer_types: must list one of full_attention, indexed_attention"),
    ({"per_layer_config": {"0": {"kv_lora_rank": 4}, "2": {"kv_lora_rank": 4}},
      "layer_types": ["full_attention", "indexed_attention"] * 2},
     r"per_layer_config: gives the full_attention and indexed_attention layers other latent sizes: not counted"),
    ({"per_layer_config": {"2": {"intermediate_size": 4}}}, r"per_layer_config: layer 2 overrides "
                                                             r"intermediate_size; Dots 3 Note reads only"),
    ({"per_layer_config": {"9": {"head_dim": 4}}}, r"per_layer_config: layer 9 is outside 0..3"),
    ({"per_layer_config": {"x": {}}}, r"per_layer_config: 'x' is not a layer index"),
    ({"per_layer_config": [1]}, r"per_layer_config: must be an object of layer index -> overrides"),
    ({"per_layer_config": {"2": {"kv_lora_rank": 4}}}, r"per_layer_config: the sliding_attention layers differ"),
    ({"swa_kv_lora_rank": 0}, r"swa_kv_lora_rank: must be positive, got 0"),
    ({"swa_q_lora_rank": "five"}, r"swa_q_lora_rank: "),
])
def test_bad_dots_keys_are_refused_in_one_line_naming_the_key(changes, message):
    with pytest.raises(ArchitectureError, match=message) as caught:
        paramledger.load({**DOTS, **changes})
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(("fields", "message"), [
    ({"swa_kv_lora_rank": 4}, r"swa_kv_lora_rank: set without sliding_head_gated_mla_layers"),
    ({"sliding_head_gated_mla_layers": (0,), "kv_lora_rank": 4, "qk_nope_head_dim": 2, "qk_rope_head_dim": 2,
      "v_head_dim": 2, "q_lora_rank": 2}, r"swa_num_attention_heads: required with sliding_head_gated_mla_layers"),
    ({"head_gated_mla_layers": (0,)}, r"kv_lora_rank: required with head_gated_mla_layers"),
])
def test_the_flat_keys_are_refused_alone_in_one_line(fields, message):
    with pytest.raises(ArchitectureError, match=message):
        paramledger.Architecture.from_mapping({"vocab_size": 8, "hidden_size": 8, "num_hidden_layers": 1,
                                               "num_attention_heads": 2, **fields})


def test_a_bad_dots_key_exits_2_in_one_line(cli, tmp_path):
    import json

    path = tmp_path / "config.json"
    path.write_text(json.dumps({**DOTS, "n_shared_experts": 0}))
    code, _, err = cli("count", str(path))
    assert code == 2 and err.strip().count("\n") == 0 and "n_shared_experts: must be 1 or more" in err


# ----------------------------------------------------------------- the whole model (Dots3NoteForConditionalGeneration)
TEXT = {key: value for key, value in DOTS.items() if key != "model_type"}
WHOLE = {"model_type": "dots3_note", "text_config": TEXT,
         "vision_config": {"hidden_size": 8, "num_attention_heads": 2, "num_hidden_layers": 2, "adapter_in_dim": 8,
                           "adapter_out_dim": 16, "pyramid_num_routed": [-1, 2]},
         "audio_config": {"whisper_config": {"d_model": 8, "encoder_attention_heads": 2, "encoder_layers": 1},
                          "adapter_input_size": 8, "adapter_out_dim": 16}}


def test_the_whole_model_at_the_defaults_and_its_decoder_alone():
    """Dots3NoteForConditionalGeneration: 287,309,195,008 (measured on the meta device); --text-only: the decoder
    AutoModelForCausalLM builds from a Dots3NoteConfig, 279,551,718,016."""
    from paramledger.towers import text_only

    arch = paramledger.load({"model_type": "dots3_note"})
    assert paramledger.inventory(arch).total == 287_309_195_008
    assert paramledger.inventory(text_only(arch)).total == 279_551_718_016
    assert "counting the whole model (vision and audio towers" in arch.notes[0]


def test_the_released_form_holds_the_decoder_at_the_top_level():
    """A Dots3NoteConfig without text_config reads the decoder's keys at its top level (Dots3NoteConfig.__post_init__),
    beside the whole config's own keys."""
    top = {**{key: value for key, value in WHOLE.items() if key != "text_config"}, **TEXT, "image_token_id": 3}
    assert paramledger.inventory(paramledger.load(top)).total == paramledger.inventory(paramledger.load(WHOLE)).total


@pytest.mark.parametrize(("changes", "message"), [
    ({"vision_config": {**WHOLE["vision_config"], "adapter_out_dim": 8}},
     r"vision_config.adapter_out_dim: 8 is not the text hidden_size=16 \(Dots3NoteConfig"),
    ({"audio_config": {**WHOLE["audio_config"], "adapter_out_dim": 8}},
     r"audio_config.adapter_out_dim: 8 is not the text hidden_size=16"),
    ({"vision_config": {**WHOLE["vision_config"], "mlp_bias": True}}, r"vision_config.mlp_bias: true beside routed"),
    ({"vision_config": {**WHOLE["vision_config"], "adapter_in_dim": 4}}, r"vision_config.adapter_in_dim: 4 is not "),
    ({"vision_config": {**WHOLE["vision_config"], "adapter_merge_size": 3}},
     r"vision_config.adapter_merge_size: 3 is not spatial_merge_size=2"),
    ({"vision_config": {**WHOLE["vision_config"], "pyramid_num_routed": [2]}},
     r"vision_config.pyramid_num_routed: must list an expert count .* for each of the 2 blocks"),
    ({"vision_config": {**WHOLE["vision_config"], "num_attention_heads": 3}},
     r"vision_config.num_attention_heads: 3 heads do not divide hidden_size=8"),
    ({"vision_config": {**WHOLE["vision_config"], "pyramid_num_routed": None, "mlp_layer_types": ["sparse"] * 2,
                        "per_layer_config": {"0": {"intermediate_size": 4}}}},
     r"vision_config.per_layer_config: block 0: only num_local_experts and num_experts_per_tok"),
    ({"audio_config": {**WHOLE["audio_config"], "adapter_input_size": 4}}, r"audio_config.adapter_input_size: 4 is not"),
    ({"audio_config": {**WHOLE["audio_config"], "whisper_config": {"d_model": 8, "encoder_attention_heads": 3}}},
     r"audio_config.num_attention_heads: 3 heads do not divide hidden_size=8"),
    ({"audio_config": {**WHOLE["audio_config"], "feature_size": 0}}, r"audio_config.feature_size: must be a positive"),
])
def test_bad_tower_keys_are_refused_in_one_line_naming_the_key(changes, message):
    with pytest.raises(ArchitectureError, match=message) as caught:
        paramledger.load({**WHOLE, **changes})
    assert "\n" not in str(caught.value)
