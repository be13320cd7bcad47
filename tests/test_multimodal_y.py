"""The whole models of set Y (issue #16: Ovis2, ...): one-line refusals for a config their towers cannot count,
the components, Hugging Face's non-embedding count and the text decoder alone as its own family counts it.  Each
whole model is checked tensor by tensor in tests/test_families.py and test_buffers.py."""

from __future__ import annotations

import pytest
from _cli_refusal import refused_by_the_cli
from _family_configs_y import CONFIGS_Y
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from test_kvcache import _cache_bytes, _run
from test_towers_l import _sums  # our components, the reference's parameters under prefixes

import paramledger
from paramledger._exceptions import ArchitectureError
from paramledger.kvcache import kv_cache
from paramledger.reference import build_reference, diff
from paramledger.towers import text_only

SMALL_TEXT = {"model_type": "qwen2", "hidden_size": 8, "num_hidden_layers": 1, "num_attention_heads": 2,
              "num_key_value_heads": 1, "intermediate_size": 4, "vocab_size": 50}
SMALL_OVIS2 = {"model_type": "ovis2", "hidden_size": 8, "vocab_size": 50, "text_config": SMALL_TEXT,
               "vision_config": {"hidden_size": 4, "num_hidden_layers": 1, "num_attention_heads": 2,
                                 "intermediate_size": 3, "image_size": 6, "patch_size": 3, "vocab_size": 20}}


def _refused(config: dict, message: str) -> None:
    with pytest.raises(ArchitectureError, match=message) as error:
        paramledger.load(config)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize(("config", "message"), [
    ({"vision_config": {"hidden_size": 10, "num_attention_heads": 3}},
     "vision_config.num_attention_heads: 3 heads do not divide hidden_size=10"),
    ({"vision_config": {"image_size": [448, 448]}},
     r"vision_config.image_size: must be a positive whole number, got \[448, 448\]"),
    ({"vision_config": {"image_size": 10, "patch_size": 14}}, "vision_config.patch_size: 14 is larger than"),
    ({"vision_config": {"hidden_stride": 0}}, "vision_config.hidden_stride: must be a positive whole number, got 0"),
    ({"vision_config": {"num_visual_indicator_tokens": -1}},
     "vision_config.num_visual_indicator_tokens: must be a whole number from 0, got -1"),
    ({"vision_config": {"vocab_size": 5}},
     "vision_config.num_visual_indicator_tokens: 5 leaves no visual token of vocab_size=5 for the head"),
    ({"vision_config": {"qkv_bias": "yes"}}, "vision_config.qkv_bias: must be true or false, got 'yes'"),
    ({"hidden_size": 0}, "hidden_size: must be a positive whole number, got 0"),
    ({"tie_word_embeddings": False}, "hidden_size: 1536 differs from text_config's 4096: untied"),
    ({"tie_word_embeddings": False, "hidden_size": 4096},
     "vocab_size: 151643 differs from text_config's 151936: untied"),
    ({"tie_word_embeddings": "no"}, "tie_word_embeddings: must be true or false, got 'no'"),
    ({"text_config": {"model_type": "llama"}},
     "text_config.model_type: 'llama' is not a text decoder paramledger builds in ovis2"),
])
def test_an_ovis2_config_it_cannot_count_is_one_line(config, message):
    _refused({"model_type": "ovis2", **config}, message)


def test_the_cli_refuses_a_bad_ovis2_key_in_one_line_with_status_2(tmp_path):
    refused_by_the_cli(tmp_path, '{"model_type": "ovis2", "vision_config": {"hidden_stride": -2}}',
                       "vision_config.hidden_stride: must be a positive whole number, got -2")


def test_ovis2s_visual_table_is_the_projector_and_its_head_the_tower():
    ours, (table, tower) = _sums(SMALL_OVIS2, "model.visual_embeddings_table.", "model.vision_tower.")
    assert (ours["projector"], ours["vision"]) == (table, tower)
    assert table == 20 * 8  # the visual vocabulary, the whole config's width


def test_ovis2s_non_embedding_count_drops_its_visual_table_as_hugging_face_does():
    """num_parameters(exclude_embeddings=True) drops every nn.Embedding: the decoder's table, the tower's positions
    and Ovis2VisualEmbeddingTable (an nn.Embedding subclass), 20 × 8."""
    import torch
    from transformers import AutoConfig, AutoModelForImageTextToText

    config = {**SMALL_OVIS2, "tie_word_embeddings": False}
    with torch.device("meta"):
        model = AutoModelForImageTextToText.from_config(AutoConfig.for_model(**config))
    inventory = paramledger.inventory(paramledger.load(config))
    assert inventory.total == model.num_parameters()
    assert inventory.non_embedding("hf") == model.num_parameters(exclude_embeddings=True)


def test_a_tied_ovis2_head_is_the_decoders_table_whatever_the_whole_config_sizes():
    """Tied, lm_head.weight is embed_tokens.weight, whatever the whole config's hidden_size and vocab_size say."""
    config = {**SMALL_OVIS2, "hidden_size": 12, "vocab_size": 40, "tie_word_embeddings": True}
    inv = paramledger.inventory(paramledger.load(config))
    assert diff(inv, build_reference(config)).matches
    assert inv.tied


@pytest.mark.parametrize(("config", "message"), [
    ({"vision_config": {"out_hidden_size": 512}},
     "vision_config.out_hidden_size: 512 must equal text_config.hidden_size=1024"),
    ({"vision_config": {"out_hidden_size": 1026}, "text_config": {"hidden_size": 1026, "num_attention_heads": 18,
                                                                   "num_key_value_heads": 3}},
     "vision_config.out_hidden_size: 1026 is not a multiple of 4"),
    ({"vision_config": {"scale_factor": 1}}, r"vision_config.scale_factor: 1 leaves the fine route \(use_fine_route\)"),
    ({"vision_config": {"scale_factor": 0}}, "vision_config.scale_factor: must be a positive whole number, got 0"),
    ({"vision_config": {"deepstack_visual_indexes": 3}},
     "vision_config.deepstack_visual_indexes: must be a list of layer indexes, got 3"),
    ({"vision_config": {"use_fine_route": "yes"}}, "vision_config.use_fine_route: must be true or false, got 'yes'"),
    ({"vision_config": {"image_size": [512, 512]}}, "vision_config.image_size: must be a positive whole number"),
    ({"density_router_hidden_size": 0}, "density_router_hidden_size: must be a positive whole number or null, got 0"),
    ({"density_router_hidden_size": 64, "vision_config": {"use_fine_route": False}},
     "density_router_hidden_size: the density router selects the fine route"),
])
def test_a_granite_docling_config_it_cannot_count_is_one_line(config, message):
    _refused({"model_type": "granite_docling", **config}, message)


SMALL_DOCLING = {"model_type": "granite_docling", "density_router_hidden_size": 5,
                 "text_config": {**SMALL_TEXT, "model_type": "granite_docling_text", "pad_token_id": None},
                 "vision_config": {"hidden_size": 4, "num_hidden_layers": 3, "num_attention_heads": 2,
                                   "intermediate_size": 3, "image_size": 16, "patch_size": 2, "out_hidden_size": 8,
                                   "deepstack_visual_indexes": [0, 2]}}


def test_granite_doclings_connector_and_router_are_the_projector():
    ours, (connector, router, vision) = _sums(SMALL_DOCLING, "model.vision_model.connector.", "model.density_router.",
                                              "model.vision_model.")
    assert (ours["projector"], ours["vision"]) == (connector + router, vision - connector)


@pytest.mark.parametrize("tie", [True, False])
def test_granite_doclings_decoder_alone_is_the_whole_models_text_model(tie):
    """--text-only: the whole model's model.text_model tensors and its own head (transformers registers no CausalLM
    for granite_docling_text, so the whole class is the reference), tied by text_config."""
    config = {**SMALL_DOCLING, "text_config": {**SMALL_DOCLING["text_config"], "tie_word_embeddings": tie}}
    decoder = paramledger.inventory(text_only(paramledger.load(config)))
    reference = [(name, shape) for name, shape in build_reference(config).tensors
                 if name.startswith("model.text_model.")]
    assert [(t.name, t.shape) for t in decoder.tensors] == reference + ([] if tie else [("lm_head.weight", (50, 8))])
    assert decoder.tied == tie


@pytest.mark.parametrize(("config", "message"), [
    ({"high_res_vision_config": {"model_type": "got_ocr2_vision"}},
     "high_res_vision_config.model_type: 'got_ocr2_vision' is a high-resolution tower paramledger does not build"),
    ({"high_res_vision_config": {"global_attn_indexes": []}},
     "high_res_vision_config.global_attn_indexes: must name at least one layer"),
    ({"high_res_vision_config": {"hidden_size": 10, "num_attention_heads": 3}},
     "high_res_vision_config.num_attention_heads: 3 heads do not divide hidden_size=10"),
    ({"high_res_vision_config": {"mlp_ratio": "wide"}}, "high_res_vision_config.mlp_ratio: must be a number above 0"),
    ({"high_res_vision_config": {"output_channels": 0}},
     "high_res_vision_config.output_channels: must be a positive whole number, got 0"),
    ({"high_res_vision_config": [1024]}, "high_res_vision_config: must be a JSON object"),
    ({"vision_config": {"model_type": "siglip_vision_model", "image_size": 8}},
     "vision_config.patch_size: 16 is larger than image_size=8"),
    ({"text_config": {"model_type": "qwen2"}},
     "text_config.model_type: 'qwen2' is not a text decoder paramledger builds in deepseek_vl_hybrid"),
])
def test_a_deepseek_vl_hybrid_config_it_cannot_count_is_one_line(config, message):
    _refused({"model_type": "deepseek_vl_hybrid", **config}, message)


def test_deepseek_vl_hybrids_high_res_path_is_vision_and_its_aligner_the_projector():
    """The alpha, SAM's encoder, its second neck and projection are the vision component with SigLIP; the aligner
    is the projector; the high-resolution path is registered first, the model's own alpha before it."""
    config = {"model_type": "deepseek_vl_hybrid", "text_config": {"num_hidden_layers": 1},
              "vision_config": {"num_hidden_layers": 1}, "high_res_vision_config": {"num_hidden_layers": 3,
                                                                                    "global_attn_indexes": [2]}}
    ours, (aligner, siglip, high_res) = _sums(config, "model.aligner.", "model.vision_model.", "model.high_res_")
    assert (ours["projector"], ours["vision"]) == (aligner, siglip + high_res)
    assert paramledger.inventory(paramledger.load(config)).tensors[0].name == "model.high_res_vision_alpha"


@pytest.mark.parametrize(("config", "message"), [
    ({"text_config": {}}, "text_config.head_dim: missing"),
    ({}, "head_dim: missing"),
    ({"head_dim": 8, "vision_config": {"max_image_size": 8}},
     "vision_config.patch_size: 16 is larger than max_image_size=8"),
    ({"head_dim": 8, "vision_config": {"attention_heads": 0}},
     "vision_config.num_attention_heads: must be a positive whole number, got 0"),
    ({"head_dim": 8, "vision_config": {"spatial_merge_size": None}},
     "vision_config.spatial_merge_size: must be a positive whole number, got None"),
])
def test_a_hunyuan_vl_config_it_cannot_count_is_one_line(config, message):
    _refused({"model_type": "hunyuan_vl", **config}, message)


SMALL_HUNYUAN = {"model_type": "hunyuan_vl",
                 "text_config": {**SMALL_TEXT, "model_type": "hunyuan_vl_text", "head_dim": 4},
                 "vision_config": {"hidden_size": 4, "num_hidden_layers": 1, "num_attention_heads": 2,
                                   "intermediate_size": 3, "patch_size": 2, "max_image_size": 6}}


@pytest.mark.parametrize(("whole", "text"), [(None, None), (False, None), (False, True), (False, False), (True, False)])
def test_hunyuan_vl_ties_by_either_config_and_its_decoder_comes_first(whole, text):
    """HunYuanVLConfig.__post_init__ ties the whole model where text_config does (its default True); the decoder
    is registered before the tower, the merger is the projector."""
    config = {**SMALL_HUNYUAN, "text_config": {**SMALL_HUNYUAN["text_config"],
                                               **({} if text is None else {"tie_word_embeddings": text})},
              **({} if whole is None else {"tie_word_embeddings": whole})}
    inv = paramledger.inventory(paramledger.load(config))
    assert diff(inv, build_reference(config)).matches
    assert inv.tied == (whole is not False or text is not False)
    assert inv.tensors[0].name == "model.language_model.embed_tokens.weight"
    ours, (merger, tower) = _sums(config, "model.vision_tower.patch_merger.", "model.vision_tower.")
    assert (ours["projector"], ours["vision"]) == (merger, tower - merger)


@pytest.mark.parametrize("model_type", ["granite_docling", "hunyuan_vl"])
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_a_decoder_without_a_causal_lm_alone_is_the_whole_models_decoder(model_type, data):
    """--text-only where transformers registers no CausalLM for the text type: the whole model's decoder tensors,
    in order, and a head of their own unless text_config ties it."""
    config = data.draw(CONFIGS_Y[model_type], label="config")
    arch = text_only(paramledger.load(config))
    decoder = paramledger.inventory(arch)
    prefix = "model.text_model." if model_type == "granite_docling" else "model.language_model."
    reference = [(name, shape) for name, shape in build_reference(config).tensors if name.startswith(prefix)]
    head = [] if arch.tie_word_embeddings else [("lm_head.weight", (arch.vocab_size, arch.hidden_size))]
    assert [(t.name, t.shape) for t in decoder.tensors] == reference + head


# the whole models whose text_config has a CausalLM of its own (granite_docling_text and hunyuan_vl_text have none;
# mistral4 is a decoder)
TEXT_CAUSAL_LM = sorted(set(CONFIGS_Y) - {"granite_docling", "hunyuan_vl", "mistral4"})


@pytest.mark.parametrize("model_type", TEXT_CAUSAL_LM)
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_the_decoder_alone_is_its_text_configs_causal_lm(model_type, data):
    """--text-only: the decoder text_config names, tensor by tensor against its own CausalLM."""
    config = data.draw(CONFIGS_Y[model_type], label="config")
    decoder = paramledger.inventory(text_only(paramledger.load(config)))
    result = diff(decoder, build_reference(config["text_config"]))
    assert result.matches, result.to_json()


@pytest.mark.slow  # a real model per example
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(data=st.data())
def test_mistral4_caches_what_transformers_caches(data):
    """Mistral4Attention caches the compressed latent (kv_lora_rank, and the rotary key as one head): paramledger's
    "latent" MLA layout, against the bytes of transformers' own cache after a real forward pass.  transformers maps
    mistral4 for image-text-to-text only, so the model is built through that auto class (the slow suite's
    draw_runnable_model asks AutoModelForCausalLM)."""
    import torch

    from paramledger.reference import auto_class, hf_config

    config = data.draw(CONFIGS_Y["mistral4"], label="config")
    arch = paramledger.load(config)
    hf = hf_config(config)
    torch.manual_seed(0)
    model = auto_class(hf).from_config(hf, experts_implementation="eager").eval()
    tokens, batch = data.draw(st.integers(1, 12), label="tokens"), data.draw(st.integers(1, 2), label="batch")
    try:
        cache = _run(model, batch, tokens)
    except (RuntimeError, IndexError):  # a config transformers builds but cannot run (topk(2) over one expert a group)
        assume(False)
    assert type(model).__name__ == "Mistral4ForCausalLM"
    assert kv_cache(arch, tokens, batch, "fp32").bytes == _cache_bytes(cache)


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_a_mistral3_whose_decoder_is_mistral4_counts_it_as_mistral4(data):
    """Mistral Small 4's layout: Mistral3ForConditionalGeneration around a mistral4 text_config (AutoConfig builds
    whichever type it names); counted as DeepSeek-V3's decoder, tensor by tensor, not as a dense Mistral."""
    from _family_configs_f import vit

    text = data.draw(CONFIGS_Y["mistral4"], label="text_config")
    config = {"model_type": "mistral3", "text_config": text, "vision_config": data.draw(vit("pixtral", step=2)),
              "tie_word_embeddings": data.draw(st.booleans())}
    inventory = paramledger.inventory(paramledger.load(config))
    reference = build_reference(config)
    assert diff(inventory, reference).matches
    assert [t.name for t in inventory.tensors] == [name for name, _ in reference.tensors]


def test_a_mistral3_decoder_of_another_type_is_refused_in_one_line():
    _refused({"model_type": "mistral3", "text_config": {"model_type": "qwen2"}},
             "text_config.model_type: 'qwen2' is not a text decoder paramledger builds in mistral3")


@pytest.mark.slow  # a real model per example
@pytest.mark.parametrize("model_type", ["granite_docling", "hunyuan_vl"])
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(data=st.data())
def test_a_decoder_without_a_causal_lm_caches_what_transformers_caches(model_type, data):
    """GraniteDocling's and HunYuan-VL's decoders have no CausalLM of their own (the slow suite's KV-cache check
    skips them): the whole model, run on text alone, against the bytes of transformers' cache."""
    import torch

    from paramledger.reference import auto_class, hf_config

    config = data.draw(CONFIGS_Y[model_type], label="config")
    if model_type == "hunyuan_vl":  # its rotary runs one row of positions per M-RoPE section: one, the half head
        text = config.get("text_config", config)
        half = text.get("head_dim", text.get("attention_head_dim")) // 2
        text["rope_parameters"] = {"rope_type": "default", "rope_theta": 10000.0, "mrope_section": [half]}
    arch = paramledger.load(config)
    hf = hf_config(config)
    torch.manual_seed(0)
    model = auto_class(hf).from_config(hf).eval()
    tokens, batch = data.draw(st.integers(1, 12), label="tokens"), data.draw(st.integers(1, 2), label="batch")
    ids = torch.randint(0, hf.text_config.vocab_size, (batch, tokens), generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        cache = model(ids, use_cache=True).cache
    assert kv_cache(arch, tokens, batch, "fp32").bytes == _cache_bytes(cache)
