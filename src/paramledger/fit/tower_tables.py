"""The tables fit/towers.py reads: for each whole model_type vLLM 0.33.0 (commit 4ba787ec9) builds, the vLLM class of
each of its towers and projectors and the rule of each of their tensors, by its module path under the tower (a
layer index written N); docs/notes/fit-towers.md has each rule's file and lines."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

# rule words: "column" (output rows split by tp), "row" (input columns split, its bias whole), "qkv" (a
# QKVParallelLinear of a tower: rows split by its heads, which tp must divide), "replicated", "absent" (not loaded)
COLUMN, ROW, QKV, REPLICATED, ABSENT = "column", "row", "qkv", "replicated", "absent"
GQA = "gqa"  # a tower's QKVParallelLinear with fewer KV heads: its KV rows replicated past tp = KV heads
KV = "kv"  # the k or v of such a QKVParallelLinear stored apart: max(1, KV heads // tp) heads' rows on each rank
ANY = "*"  # a table's rule for every name it does not list
REFUSED = "refused"  # a tensor vLLM's class has no module for and whose weight its loader refuses (WholeRules.refused)

# vllm/model_executor/models/qwen2_vl.py Qwen2VisionTransformer: Qwen2VisionAttention.qkv a ColumnParallelLinear
# over the heads (divide(num_heads, tp)), proj and fc2 RowParallelLinear, fc1 ColumnParallelLinear; the patch
# Conv3dLayer and the LayerNorms whole; Qwen2VisionPatchMerger mlp.0 column, mlp.2 row
QWEN2_VISION = {
    "patch_embed.proj": REPLICATED, "blocks.N.norm1": REPLICATED, "blocks.N.norm2": REPLICATED,
    "blocks.N.attn.qkv": QKV, "blocks.N.attn.proj": ROW, "blocks.N.mlp.fc1": COLUMN, "blocks.N.mlp.fc2": ROW,
    "merger.ln_q": REPLICATED, "merger.mlp.0": COLUMN, "merger.mlp.2": ROW,
}
# models/qwen2_5_vl.py Qwen2_5_VisionTransformer: attn.qkv a QKVParallelLinear (the checkpoint's q, k, v stacked
# into it: Qwen2.5-Omni's tower stores them apart), mlp.gate_proj/up_proj one MergedColumnParallelLinear,
# down_proj and attn.proj RowParallelLinear, RMSNorms whole; Qwen2_5_VisionPatchMerger as Qwen2-VL's
QWEN2_5_VISION = {
    **{key: rule for key, rule in QWEN2_VISION.items() if ".mlp.fc" not in key},
    "blocks.N.attn.q": QKV, "blocks.N.attn.k": QKV, "blocks.N.attn.v": QKV,
    "blocks.N.mlp.gate_proj": COLUMN, "blocks.N.mlp.up_proj": COLUMN, "blocks.N.mlp.down_proj": ROW,
}
# models/qwen3_vl.py Qwen3_VisionTransformer: pos_embed an nn.Embedding (whole), blocks with
# Qwen2_5_VisionAttention and Qwen3_VisionMLP (linear_fc1 column, linear_fc2 row), Qwen3_VisionPatchMerger for
# merger and each deepstack_merger_list entry (norm whole, linear_fc1 column, linear_fc2 row)
QWEN3_VISION = {
    "patch_embed.proj": REPLICATED, "pos_embed": REPLICATED, "blocks.N.norm1": REPLICATED,
    "blocks.N.norm2": REPLICATED, "blocks.N.attn.qkv": QKV, "blocks.N.attn.proj": ROW,
    "blocks.N.mlp.linear_fc1": COLUMN, "blocks.N.mlp.linear_fc2": ROW,
    "merger.norm": REPLICATED, "merger.linear_fc1": COLUMN, "merger.linear_fc2": ROW,
    "deepstack_merger_list.N.norm": REPLICATED, "deepstack_merger_list.N.linear_fc1": COLUMN,
    "deepstack_merger_list.N.linear_fc2": ROW,
}
_ENCODER_LAYER = {  # CLIPEncoderLayer (models/clip.py) and SiglipEncoderLayer (models/siglip.py) alike
    "encoder.layers.N.self_attn.q_proj": QKV, "encoder.layers.N.self_attn.k_proj": QKV,
    "encoder.layers.N.self_attn.v_proj": QKV, "encoder.layers.N.self_attn.out_proj": ROW,
    "encoder.layers.N.mlp.fc1": COLUMN, "encoder.layers.N.mlp.fc2": ROW,
    "encoder.layers.N.layer_norm1": REPLICATED, "encoder.layers.N.layer_norm2": REPLICATED,
}
# models/clip.py CLIPVisionTransformer: class_embedding an nn.Parameter, patch_embedding a Conv2dLayer,
# position_embedding an nn.Embedding, pre_layrnorm/post_layernorm nn.LayerNorm: whole
CLIP_VISION = {
    "embeddings.class_embedding": REPLICATED, "embeddings.patch_embedding": REPLICATED,
    "embeddings.position_embedding": REPLICATED, "pre_layrnorm": REPLICATED, "post_layernorm": REPLICATED,
    **_ENCODER_LAYER,
}
# models/siglip.py SiglipVisionTransformer: built with use_head=False by SiglipVisionModel's default: the
# pooling head is neither built nor loaded (its weights dropped by the mapper)
SIGLIP_VISION = {
    "embeddings.patch_embedding": REPLICATED, "embeddings.position_embedding": REPLICATED,
    "post_layernorm": REPLICATED, "head.*": ABSENT, **_ENCODER_LAYER,
}
# models/pixtral.py PixtralHFVisionModel: patch_conv a Conv2dLayer, RMSNorms whole, PixtralHFAttention's q/k/v
# one QKVParallelLinear and o_proj row, PixtralHFMLP gate/up one MergedColumnParallelLinear and down_proj row
PIXTRAL_VISION = {
    "patch_conv": REPLICATED, "ln_pre": REPLICATED, "transformer.layers.N.attention_norm": REPLICATED,
    "transformer.layers.N.ffn_norm": REPLICATED, "transformer.layers.N.attention.q_proj": QKV,
    "transformer.layers.N.attention.k_proj": QKV, "transformer.layers.N.attention.v_proj": QKV,
    "transformer.layers.N.attention.o_proj": ROW, "transformer.layers.N.feed_forward.gate_proj": COLUMN,
    "transformer.layers.N.feed_forward.up_proj": COLUMN, "transformer.layers.N.feed_forward.down_proj": ROW,
}
LLAVA_PROJECTOR = {"linear_1": COLUMN, "linear_2": ROW}  # models/llava.py LlavaMultiModalProjector
# models/mistral3.py Mistral3MultiModalProjector: norm an RMSNorm, Mistral3PatchMerger.merging_layer an nn.Linear
MISTRAL3_PROJECTOR = {"norm": REPLICATED, "patch_merger.merging_layer": REPLICATED, **LLAVA_PROJECTOR}
# models/gemma3_mm.py Gemma3MultiModalProjector: mm_input_projection_weight an nn.Parameter, a GemmaRMSNorm
GEMMA3_PROJECTOR = {"mm_input_projection_weight": REPLICATED, "mm_soft_emb_norm": REPLICATED}
# models/qwen3_omni_moe_thinker.py Qwen3Omni_VisionTransformer: Qwen2_5_VisionAttention, its own Qwen3_VisionMLP
# (linear_fc1 column, linear_fc2 row) and Qwen3_VisionPatchMerger for merger and each merger_list entry (ln_q whole,
# mlp.0 column, mlp.2 row); pos_embed an nn.Embedding
QWEN3_OMNI_VISION = {
    **{key: rule for key, rule in QWEN3_VISION.items() if not key.startswith(("merger.", "deepstack"))},
    "merger.ln_q": REPLICATED, "merger.mlp.0": COLUMN, "merger.mlp.2": ROW,
    "merger_list.N.ln_q": REPLICATED, "merger_list.N.mlp.0": COLUMN, "merger_list.N.mlp.2": ROW,
}
# models/qwen3_omni_moe_thinker.py Qwen3OmniMoeAudioEncoder: each layer's qkv_proj, out_proj, fc1 and fc2 split
# only when tp divides encoder_attention_heads (disable_tp = heads % tp != 0: else whole, the "?" words); the
# nn.Conv2d stem, conv_out, proj1 and proj2 (ReplicatedLinear) and the LayerNorms whole
QWEN3_OMNI_AUDIO = {
    "layers.N.self_attn.q_proj": QKV + "?", "layers.N.self_attn.k_proj": QKV + "?",
    "layers.N.self_attn.v_proj": QKV + "?", "layers.N.self_attn.out_proj": ROW + "?",
    "layers.N.fc1": COLUMN + "?", "layers.N.fc2": ROW + "?", "layers.N.self_attn_layer_norm": REPLICATED,
    "layers.N.final_layer_norm": REPLICATED, "ln_post": REPLICATED, "conv2d1": REPLICATED, "conv2d2": REPLICATED,
    "conv2d3": REPLICATED, "conv_out": REPLICATED, "proj1": REPLICATED, "proj2": REPLICATED,
}
# lfm2_siglip2.py Siglip2VisionTransformer (Siglip2Model, every layer and post_layernorm built): patch_embedding a
# ReplicatedLinear, position_embedding an nn.Embedding, the encoder layers as SigLIP's
SIGLIP2_VISION = {"embeddings.patch_embedding": REPLICATED, "embeddings.position_embedding": REPLICATED,
                  "post_layernorm": REPLICATED, **_ENCODER_LAYER}
# lfm2_vl.py Lfm2VLMultiModalProjector: layer_norm an nn.LayerNorm, linear_1 and linear_2 ReplicatedLinear
LFM2_VL_PROJECTOR = {"layer_norm": REPLICATED, "linear_1": REPLICATED, "linear_2": REPLICATED}
# idefics2_vision_model.py Idefics2VisionTransformer (idefics3.py imports it as Idefics3VisionTransformer,
# require_post_norm=True): patch_embedding a Conv2dLayer, position_embedding an nn.Embedding, SigLIP's layers
IDEFICS2_VISION = {"embeddings.patch_embedding": REPLICATED, "embeddings.position_embedding": REPLICATED,
                   "post_layernorm": REPLICATED, **_ENCODER_LAYER}
IDEFICS3_CONNECTOR = {"modality_projection.proj": REPLICATED}  # idefics3.py Idefics3SimpleMLP: a ReplicatedLinear
# kimi_k25_vit.py MoonViT3dPretrainedModel: each MoonViTEncoderLayer (l. 369) splits only when tp divides its heads
# (is_vit_use_data_parallel(num_heads), l. 388: else whole, the "?" rules): wqkv a QKVParallelLinear (transformers'
# q/k/v_proj), wo row (attn.proj), MLP2 fc0 column and fc1 row (transformers' mlp.fc1 and fc2); the Conv2dLayer
# patch embedding, the nn.Parameter position table and the LayerNorms whole
MOONVIT = {
    "patch_embed.proj": REPLICATED, "patch_embed.pos_emb.position_embeddings": REPLICATED,
    "layers.N.norm1": REPLICATED, "layers.N.norm2": REPLICATED, "final_layernorm": REPLICATED,
    "layers.N.attn.q_proj": QKV + "?", "layers.N.attn.k_proj": QKV + "?", "layers.N.attn.v_proj": QKV + "?",
    "layers.N.attn.proj": ROW + "?", "layers.N.mlp.fc1": COLUMN + "?", "layers.N.mlp.fc2": ROW + "?",
}
# kimi_k25_vit.py KimiK25MultiModalProjector: pre_norm an nn.LayerNorm, linear_1 and linear_2 (the checkpoint's
# proj.0 and proj.2; transformers' in_proj and out_proj) ReplicatedLinear
KIMI_K25_PROJECTOR = {"pre_norm": REPLICATED, "in_proj": REPLICATED, "out_proj": REPLICATED}
# blip.py BlipVisionModel (blip2.py:532, every layer and post_layernorm built): class_embedding and
# position_embedding nn.Parameter, patch_embedding a Conv2dLayer, LayerNorms whole; BlipAttention qkv a
# QKVParallelLinear, projection row; BlipMLP fc1 column, fc2 row
BLIP_VISION = {
    "embeddings.class_embedding": REPLICATED, "embeddings.position_embedding": REPLICATED,
    "embeddings.patch_embedding": REPLICATED, "post_layernorm": REPLICATED,
    "encoder.layers.N.self_attn.qkv": QKV, "encoder.layers.N.self_attn.projection": ROW,
    "encoder.layers.N.mlp.fc1": COLUMN, "encoder.layers.N.mlp.fc2": ROW,
    "encoder.layers.N.layer_norm1": REPLICATED, "encoder.layers.N.layer_norm2": REPLICATED,
}
# interns1_vit.py InternS1VisionModel (interns1.py:591; registry.py maps InternVLForConditionalGeneration to
# interns1's InternS1ForConditionalGeneration, every layer built, no dummy heads): InternSdpaAttention's q/k/v_proj
# and projection_layer plain nn.Linear and its norms whole; InternS1VisionMLP fc1 column, fc2 row; cls_token,
# mask_token, position_embeddings, lambda_1/lambda_2 nn.Parameter, the patch Conv2dLayer and the norms whole
INTERNS1_VISION = {
    "embeddings.cls_token": REPLICATED, "embeddings.mask_token": REPLICATED,
    "embeddings.position_embeddings": REPLICATED, "embeddings.patch_embeddings.projection": REPLICATED,
    "encoder.layer.N.lambda_1": REPLICATED, "encoder.layer.N.lambda_2": REPLICATED,
    "encoder.layer.N.attention.q_proj": REPLICATED, "encoder.layer.N.attention.k_proj": REPLICATED,
    "encoder.layer.N.attention.v_proj": REPLICATED, "encoder.layer.N.attention.q_norm": REPLICATED,
    "encoder.layer.N.attention.k_norm": REPLICATED, "encoder.layer.N.attention.projection_layer": REPLICATED,
    "encoder.layer.N.mlp.fc1": COLUMN, "encoder.layer.N.mlp.fc2": ROW,
    "encoder.layer.N.layernorm_before": REPLICATED, "encoder.layer.N.layernorm_after": REPLICATED,
    "layernorm": REPLICATED,
}
# mllama4.py Llama4VisionModel (l. 465): patch_embedding.linear a ColumnParallelLinear (Llama4UnfoldConvolution,
# l. 443), class_embedding and positional_embedding_vlm nn.Parameter, the LayerNorms whole; Llama4VisionAttention
# (l. 239) q/k/v one QKVParallelLinear, o_proj row; Llama4VisionMLP (l. 123) fc1 column, fc2 row, in each layer and
# in vision_adapter's Llama4VisionPixelShuffleMLP
LLAMA4_VISION = {
    "class_embedding": REPLICATED, "positional_embedding_vlm": REPLICATED, "patch_embedding.linear": COLUMN,
    "layernorm_pre": REPLICATED, "layernorm_post": REPLICATED,
    "model.layers.N.self_attn.q_proj": QKV, "model.layers.N.self_attn.k_proj": QKV,
    "model.layers.N.self_attn.v_proj": QKV, "model.layers.N.self_attn.o_proj": ROW,
    "model.layers.N.mlp.fc1": COLUMN, "model.layers.N.mlp.fc2": ROW,
    "model.layers.N.input_layernorm": REPLICATED, "model.layers.N.post_attention_layernorm": REPLICATED,
    "vision_adapter.mlp.fc1": COLUMN, "vision_adapter.mlp.fc2": ROW,
}
# whisper.py WhisperEncoder (voxtral.py:733 VoxtralEncoderModel, non-causal): WhisperAttention q/k/v one
# QKVParallelLinear (l. 242), out_proj row (l. 197); WhisperMLP fc1 column, fc2 row (l. 363, 369); conv1/conv2
# nn.Conv1d, the LayerNorms whole.  embed_positions is left out of the table on purpose: vLLM makes it in float32
# (init_in_fp32, l. 554-561), which a per-tensor split does not price: it is listed, whole on every device.
WHISPER_ENCODER = {
    "conv1": REPLICATED, "conv2": REPLICATED, "layer_norm": REPLICATED,
    "layers.N.self_attn.q_proj": QKV, "layers.N.self_attn.k_proj": QKV, "layers.N.self_attn.v_proj": QKV,
    "layers.N.self_attn.out_proj": ROW, "layers.N.fc1": COLUMN, "layers.N.fc2": ROW,
    "layers.N.self_attn_layer_norm": REPLICATED, "layers.N.final_layer_norm": REPLICATED,
}
# glm4_1v.py Glm4vVisionTransformer (l. 606): Glm4vVisionAttention qkv a QKVParallelLinear (l. 296), proj row;
# Glm4vVisionMLP gate/up one MergedColumnParallelLinear, down_proj row; Glm4vPatchMerger (l. 462) proj column,
# gate/up column, down_proj row, post_projection_norm whole; embeddings.position_embedding nn.Embedding, the Conv3d
# patch embedding, post_conv_layernorm, the Conv2dLayer downsample, post_layernorm and the RMSNorms whole
GLM4V_VISION = {
    "embeddings.position_embedding": REPLICATED, "patch_embed.proj": REPLICATED, "post_conv_layernorm": REPLICATED,
    "downsample": REPLICATED, "post_layernorm": REPLICATED, "blocks.N.norm1": REPLICATED, "blocks.N.norm2": REPLICATED,
    "blocks.N.attn.qkv": QKV, "blocks.N.attn.proj": ROW, "blocks.N.mlp.gate_proj": COLUMN,
    "blocks.N.mlp.up_proj": COLUMN, "blocks.N.mlp.down_proj": ROW, "merger.proj": COLUMN,
    "merger.post_projection_norm": REPLICATED, "merger.gate_proj": COLUMN, "merger.up_proj": COLUMN,
    "merger.down_proj": ROW,
}
# aria.py AriaProjector (l. 121): query an nn.Parameter, cross_attn transformers' AriaCrossAttention as it is, the
# LayerNorm whole; AriaProjectorMLP (l. 96) linear_in column, linear_out row
ARIA_PROJECTOR = {"query": REPLICATED, "cross_attn.*": REPLICATED, "layer_norm": REPLICATED,
                  "feed_forward.linear_in": COLUMN, "feed_forward.linear_out": ROW}
# a tower vLLM takes from transformers as it is (plain nn.Linear and nn.Conv1d, or nn.Linear made ReplicatedLinear):
# models/qwen2_5_omni_thinker.py builds transformers' Qwen2_5OmniAudioEncoder
TRANSFORMERS_MODULE = {ANY: REPLICATED}


class Truncated(NamedTuple):
    """A tower vLLM builds only up to its deepest feature layer (models/llava.py _get_num_hidden_layers,
    init_vision_tower_for_llava; llava_next.py, llava_onevision.py and mistral3.py the same), dropping the layers
    past it and the post_layernorm (each passes require_post_norm=False)."""
    key: str  # the whole config's key
    default: int  # its config class's default
    layers: Mapping[str, str]  # vision_config model_type -> the path of its layers
    source: str
    # an index counts the layers kept from the first (internvl.py _init_vision_model: index + 1 layers), not from the
    # embeddings' output as get_layer_index does (index layers)
    from_first: bool = False


class DropLast(NamedTuple):
    """A vision tower whose last layer vLLM drops when the whole config's boolean ``key`` is true (MiniCPM-V 4.6's
    drop_vision_last_layer): that layer is not loaded."""
    key: str
    layers: str  # the path of the tower's layers under its prefix
    source: str


class WholeRules(NamedTuple):
    """The vLLM class of a whole model_type and the table of each of its roles."""
    # (role: vision, projector or audio, read as its Whole's prefix, or a module path; the table, or one per
    # vision_config model_type)
    roles: tuple[tuple[str, Any], ...]
    source: str  # the vLLM file and class, as registry.py maps the architecture
    left_out: tuple[str, ...] = ()  # module prefixes vLLM never loads
    left_out_source: str = ""
    truncated: Truncated | None = None
    pp_unmodelled: tuple[str, ...] = ()  # roles whose placement over pipeline stages is not modelled: listed at pp > 1
    absent: tuple[str, str] = (  # what a table's "absent" entries are, and the source (SigLIP's head unless said)
        "vision tower pooling head", "vllm/model_executor/models/siglip.py SiglipVisionTransformer: "
        "SiglipVisionModel's use_head=False builds no pooling head and its mapper drops the head's weights")
    # the rule of a decoder's own tensor where vLLM's class differs from the decoder's usual one (full module path,
    # a layer index written N): Whisper's nn.Embedding table and its decoder layers' cross-attention
    decoder: Mapping[str, str] = {}
    # (a tower prefix, the config keys of its heads, first found, its default) where no tower part says
    heads: tuple[tuple[str, tuple[str, ...], int | None], ...] = ()
    no_pp: str = ""  # why vLLM refuses --pp > 1 for the class (no SupportsPP), "" where it does not
    drop_last: DropLast | None = None
    refused: tuple[str, str] = ("", "")  # (the config key, why) where a table says REFUSED


_FEATURE_LAYERS = {"clip_vision_model": "encoder.layers.", "siglip_vision_model": "encoder.layers.",
                   "pixtral": "transformer.layers."}
_LLAVA_TOWERS = {"clip_vision_model": CLIP_VISION, "siglip_vision_model": SIGLIP_VISION, "pixtral": PIXTRAL_VISION}
_OMNI = ("vllm/model_executor/models/registry.py maps {arch} to {file} {cls}: the thinker alone; its "
         "hf_to_vllm_mapper drops {dropped}")
WHOLE: dict[str, WholeRules] = {
    "qwen2_vl": WholeRules((("vision", QWEN2_VISION),), "models/qwen2_vl.py Qwen2VLForConditionalGeneration"),
    "qwen2_5_vl": WholeRules((("vision", QWEN2_5_VISION),),
                             "models/qwen2_5_vl.py Qwen2_5_VLForConditionalGeneration"),
    "qwen3_vl": WholeRules((("vision", QWEN3_VISION),), "models/qwen3_vl.py Qwen3VLForConditionalGeneration"),
    "qwen3_vl_moe": WholeRules((("vision", QWEN3_VISION),),
                               "models/qwen3_vl_moe.py Qwen3VLMoeForConditionalGeneration (Qwen3_VisionTransformer)"),
    "qwen3_5": WholeRules((("vision", QWEN3_VISION),),
                          "models/qwen3_5.py Qwen3_5ForConditionalGeneration (Qwen3_VisionTransformer)"),
    "qwen3_5_moe": WholeRules((("vision", QWEN3_VISION),),
                              "models/qwen3_5.py Qwen3_5MoeForConditionalGeneration (Qwen3_VisionTransformer)"),
    "gemma3": WholeRules((("vision", {"siglip_vision_model": SIGLIP_VISION}), ("projector", GEMMA3_PROJECTOR)),
                         "models/gemma3_mm.py Gemma3ForConditionalGeneration (SiglipVisionModel)"),
    "llava": WholeRules((("vision", _LLAVA_TOWERS), ("projector", LLAVA_PROJECTOR)),
                        "models/llava.py LlavaForConditionalGeneration (init_vision_tower_for_llava)",
                        truncated=Truncated("vision_feature_layer", -2, _FEATURE_LAYERS,
                                            "models/llava.py init_vision_tower_for_llava: layers up to "
                                            "vision_feature_layer, require_post_norm=False")),
    "llava_next": WholeRules((("vision", _LLAVA_TOWERS), ("model.multi_modal_projector.", LLAVA_PROJECTOR),
                              ("model.image_newline", TRANSFORMERS_MODULE)),
                             "models/llava_next.py LlavaNextForConditionalGeneration (init_vision_tower_for_llava; "
                             "image_newline an nn.Parameter)",
                             truncated=Truncated("vision_feature_layer", -2, _FEATURE_LAYERS,
                                                 "models/llava_next.py: init_vision_tower_for_llava, layers up to "
                                                 "vision_feature_layer, require_post_norm=False")),
    # its projector two plain nn.Linear (LlavaOnevisionMultiModalProjector): whole
    "llava_onevision": WholeRules((("vision", _LLAVA_TOWERS), ("model.multi_modal_projector.", TRANSFORMERS_MODULE),
                                   ("model.image_newline", TRANSFORMERS_MODULE)),
                                  "models/llava_onevision.py LlavaOnevisionForConditionalGeneration",
                                  truncated=Truncated("vision_feature_layer", -1, _FEATURE_LAYERS,
                                                      "models/llava_onevision.py: init_vision_tower_for_llava, layers "
                                                      "up to vision_feature_layer, require_post_norm=False")),
    # SiglipVisionModel at its defaults (every layer, no head) and PaliGemmaMultiModalProjector's nn.Linear: whole
    "paligemma": WholeRules((("vision", {"siglip_vision_model": SIGLIP_VISION}), ("projector", TRANSFORMERS_MODULE)),
                            "models/paligemma.py PaliGemmaForConditionalGeneration (SiglipVisionModel)"),
    "mistral3": WholeRules((("vision", {"pixtral": PIXTRAL_VISION}), ("projector", MISTRAL3_PROJECTOR)),
                           "models/mistral3.py Mistral3ForConditionalGeneration (PixtralHFVisionModel)",
                           truncated=Truncated("vision_feature_layer", -1, _FEATURE_LAYERS,
                                               "models/mistral3.py init_vision_tower_for_mistral3: layers up to "
                                               "vision_feature_layer")),
    # lfm2_siglip2.py Siglip2Model builds no pooling head: a head's weights meet AutoWeightsLoader's "There is no
    # module or parameter named" ValueError (utils.py:441-448), so a config whose tower has one is refused
    "lfm2_vl": WholeRules((("vision", {"siglip2_vision_model": {**SIGLIP2_VISION, "head.*": REFUSED}}),
                           ("projector", LFM2_VL_PROJECTOR)),
                          "models/lfm2_vl.py Lfm2VLForConditionalGeneration (Siglip2Model)",
                          refused=("vision_config.vision_use_head",
                                   "true builds a pooling head vLLM 0.33.0's Siglip2Model (lfm2_siglip2.py) has no "
                                   "module for; its loader refuses the head's weights (models/utils.py "
                                   "AutoWeightsLoader: 'There is no module or parameter named')")),
    "idefics3": WholeRules((("vision", IDEFICS2_VISION), ("model.connector.", IDEFICS3_CONNECTOR)),
                           "models/idefics3.py Idefics3ForConditionalGeneration (Idefics2VisionTransformer)"),
    # gemma4_mm.py: transformers' own towers (AutoModel.from_config) whose nn.Linear recursive_replace_linear turns
    # into "replicate" layers, and Gemma4MultimodalEmbedder's ReplicatedLinear and RMSNorm: all whole
    "gemma4": WholeRules((("vision", TRANSFORMERS_MODULE), ("audio", TRANSFORMERS_MODULE),
                          ("model.embed_vision.", TRANSFORMERS_MODULE), ("model.embed_audio.", TRANSFORMERS_MODULE)),
                         "models/gemma4_mm.py Gemma4ForConditionalGeneration"),
    "kimi_k25": WholeRules((("vision", MOONVIT), ("projector", KIMI_K25_PROJECTOR)),
                           "models/kimi_k25.py KimiK25ForConditionalGeneration (MoonViT3dPretrainedModel)"),
    # blip2.py: Blip2QFormerModel is plain nn.Linear and nn.LayerNorm (l. 79-398), query_tokens an nn.Parameter,
    # language_projection an nn.Linear (l. 533-544): whole
    "blip-2": WholeRules((("vision", BLIP_VISION), ("qformer.", TRANSFORMERS_MODULE),
                          ("query_tokens", TRANSFORMERS_MODULE), ("language_projection.", TRANSFORMERS_MODULE)),
                         "models/blip2.py Blip2ForConditionalGeneration (BlipVisionModel)"),
    # exaone4_5.py EXAONE4_5_VisionTransformer (a Qwen2_5_VisionTransformer): EXAONE4_5_VisionAttention's qkv a
    # QKVParallelLinear with num_key_value_heads (l. 104), proj row; Exaone4GatedMLP (exaone4.py) gate/up column,
    # down row; RMSNorms, the Conv3d patch embedding whole; the merger Qwen2.5-VL's
    "exaone4_5": WholeRules((("vision", {**QWEN2_5_VISION, "blocks.N.attn.qkv": GQA}),),
                            "models/exaone4_5.py Exaone4_5_ForConditionalGeneration (EXAONE4_5_VisionTransformer)"),
    # interns1.py InternS1MultiModalProjector: layer_norm, linear_1, linear_2 plain torch: whole
    "internvl": WholeRules((("vision", INTERNS1_VISION), ("projector", TRANSFORMERS_MODULE)),
                           "models/interns1.py InternS1ForConditionalGeneration (InternS1VisionModel)"),
    # mllama4.py Llama4MultiModalProjector (l. 164): linear_1 a ColumnParallelLinear (gather_output: still split)
    "llama4": WholeRules((("vision", LLAMA4_VISION), ("projector", {"linear_1": COLUMN})),
                         "models/mllama4.py Llama4ForConditionalGeneration (Llama4VisionModel)"),
    # voxtral.py: its AudioLanguageAdapter two nn.Linear (l. 651; transformers' linear_1, linear_2): whole.  With
    # pp > 1 WhisperEncoder builds its layers by make_layers (whisper.py:528: split by stage) inside a tower vLLM
    # builds on the first stage only: not modelled, the audio tower listed whole on stage 0
    "voxtral": WholeRules((("audio", WHISPER_ENCODER), ("projector", TRANSFORMERS_MODULE)),
                          "models/voxtral.py VoxtralForConditionalGeneration (WhisperEncoder)",
                          pp_unmodelled=("audio",)),
    "smolvlm": WholeRules((("vision", IDEFICS2_VISION), ("model.connector.", IDEFICS3_CONNECTOR)),
                          "models/smolvlm.py SmolVLMForConditionalGeneration (an Idefics3ForConditionalGeneration)"),
    # llava_next_video.py: the tower by init_vision_tower_for_llava (l. 350, require_post_norm=False), its projector
    # two nn.Linear (l. 284, 288); image_newline never built, its weight skipped (load_weights l. 484:
    # ignore_unexpected_prefixes, "This model doesn't support images for now")
    "llava_next_video": WholeRules(
        (("vision", _LLAVA_TOWERS), ("model.multi_modal_projector.", TRANSFORMERS_MODULE)),
        "models/llava_next_video.py LlavaNextVideoForConditionalGeneration", ("model.image_newline",),
        "vllm/model_executor/models/llava_next_video.py load_weights: ignore_unexpected_prefixes=['image_newline'] "
        "(the model takes no images)",
        truncated=Truncated("vision_feature_layer", -2, _FEATURE_LAYERS, "models/llava_next_video.py: "
                            "init_vision_tower_for_llava, layers up to vision_feature_layer, require_post_norm=False")),
    # qwen2_audio.py: transformers' Qwen2AudioEncoder as it is (l. 343) and an nn.Linear projector (l. 114): whole
    "qwen2_audio": WholeRules((("audio", TRANSFORMERS_MODULE), ("projector", TRANSFORMERS_MODULE)),
                              "models/qwen2_audio.py Qwen2AudioForConditionalGeneration"),
    "glm4v": WholeRules((("vision", GLM4V_VISION),), "models/glm4_1v.py Glm4vForConditionalGeneration"),
    "glm4v_moe": WholeRules((("vision", GLM4V_VISION),), "models/glm4_1v.py Glm4vMoeForConditionalGeneration"),
    # cohere2_vision.py: SiglipVisionModel at its defaults (l. 341: no pooling head), Cohere2VisionMultiModalProjector
    # (l. 86) linear_1 a MergedColumnParallelLinear, linear_2 row
    "cohere2_vision": WholeRules((("vision", {"siglip_vision_model": SIGLIP_VISION}),
                                  ("model.multi_modal_projector.", LLAVA_PROJECTOR)),
                                 "models/cohere2_vision.py Cohere2VisionForConditionalGeneration (SiglipVisionModel)"),
    # aria.py AriaVisionTransformer (l. 66): Idefics2's, but its post_layernorm an nn.Identity, the weight dropped
    "aria": WholeRules((("vision", {**IDEFICS2_VISION, "post_layernorm": ABSENT}),
                        ("model.multi_modal_projector.", ARIA_PROJECTOR)),
                       "models/aria.py AriaForConditionalGeneration (AriaVisionTransformer)",
                       absent=("vision tower post_layernorm",
                               "vllm/model_executor/models/aria.py AriaVisionTransformer: post_layernorm an "
                               "nn.Identity, its weight dropped by hf_to_vllm_mapper")),
    "qwen2_5_omni": WholeRules(
        (("vision", QWEN2_5_VISION), ("audio", TRANSFORMERS_MODULE)),
        "models/qwen2_5_omni_thinker.py Qwen2_5OmniThinkerForConditionalGeneration", ("talker.", "token2wav."),
        _OMNI.format(arch="Qwen2_5OmniModel and Qwen2_5OmniForConditionalGeneration", file="qwen2_5_omni_thinker",
                     cls="Qwen2_5OmniThinkerForConditionalGeneration", dropped="talker. and token2wav.")),
    "qwen3_omni_moe": WholeRules(
        (("vision", QWEN3_OMNI_VISION), ("audio", QWEN3_OMNI_AUDIO)),
        "models/qwen3_omni_moe_thinker.py Qwen3OmniMoeThinkerForConditionalGeneration", ("talker.", "code2wav."),
        _OMNI.format(arch="Qwen3OmniMoeForConditionalGeneration", file="qwen3_omni_moe_thinker",
                     cls="Qwen3OmniMoeThinkerForConditionalGeneration", dropped="talker. and code2wav.")),
}
