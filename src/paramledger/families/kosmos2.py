"""Kosmos-2 (microsoft/kosmos-2-*): the whole Kosmos2ForConditionalGeneration, its text decoder first (text_model: a
Kosmos2TextForCausalLM, its Kosmos2TextTransformer under text_model.model and its head text_model.lm_head), then the
CLIP-like vision tower (vision_model.model) and the image-to-text projection (towers/kosmos2.py).  transformers
5.24.0 models/kosmos2/modeling_kosmos2.py and configuration_kosmos2.py.

The text decoder (Kosmos2TextConfig, model_type kosmos_2_text_model) is no type transformers registers with an Auto
class; it is counted by this table, read from text_config (Kosmos2Config builds a Kosmos2TextConfig whatever its
model_type says), and --text-only counts it as Kosmos2TextForCausalLM builds it (tests/test_multimodal_ko.py).
The head is tied where either config says so: Kosmos2Config's tie_word_embeddings (default True) or text_config's
(the inner Kosmos2TextForCausalLM ties by its own); untied only where both say false (all nine combinations checked
in tests/test_multimodal_ko.py)."""

import dataclasses
from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..naming import Naming
from ..towers import Whole, whole_naming
from ..towers.kosmos2 import IMAGE_TOKENS, projection
from ._family import derived_from, multimodal
from .fairseq import FAMILIES as FAIRSEQ

XGLM = next(family for family in FAIRSEQ if family.model_type == "xglm")



def sinusoid_width(config: Mapping[str, Any]) -> dict[str, Any]:
    """embed_dim of at least 4: Kosmos2TextSinusoidalPositionalEmbedding.get_embedding divides by embed_dim // 2 - 1
    (a narrower decoder is no model transformers builds: ZeroDivisionError)."""
    if config["hidden_size"] < 4:
        raise ArchitectureError("embed_dim", f"{config['hidden_size']} is below 4: the sinusoidal positions divide by "
                                "embed_dim // 2 - 1")
    return {}


# identical to XGLM except (Kosmos2TextTransformer, Kosmos2TextBlock, KosmosTextAttention, Kosmos2TextFFN):
# a LayerNorm on the attention output before out_proj (self_attn.inner_attn_ln) and one over the FFN's inner width
# before fc2 (ffn.ffn_layernorm), the FFN's Linears under ffn., Kosmos2TextConfig's key names and defaults.
TEXT = derived_from(
    XGLM, model_type="kosmos-2", causal_lm_class="Kosmos2TextForCausalLM",
    source="transformers 5.24.0 models/kosmos2/configuration_kosmos2.py (Kosmos2TextConfig)",
    naming=dataclasses.replace(
        XGLM.naming, up="ffn.fc1", down="ffn.fc2", attn_sub_norm="self_attn.inner_attn_ln",
        ffn_sub_norm="ffn.ffn_layernorm",
        # Kosmos2TextBlock registers self_attn (k, v, q, out_proj, inner_attn_ln), its norm, with add_cross_attention
        # encoder_attn (k, v, q, out_proj: no inner_attn_ln) and its norm (modeling_kosmos2.py lines 798-807), ffn,
        # final_layer_norm
        layer_order=("self_attn.k_proj", "self_attn.v_proj", "self_attn.q_proj", "self_attn.out_proj",
                     "self_attn.inner_attn_ln", "self_attn_layer_norm", "encoder_attn.k_proj", "encoder_attn.v_proj",
                     "encoder_attn.q_proj", "encoder_attn.out_proj", "encoder_attn_layer_norm", "ffn.fc1", "ffn.fc2",
                     "ffn.ffn_layernorm", "final_layer_norm")),
    # Kosmos2TextConfig.attribute_map: embed_dim, layers, attention_heads are its own names
    keys={**{key: field for key, field in XGLM.keys.items() if key not in ("d_model", "num_layers")},
          "embed_dim": "hidden_size", "layers": "num_hidden_layers", "add_cross_attention": "add_cross_attention"},
    requires={key: value for key, value in XGLM.requires.items() if key != "add_cross_attention"},
    defaults={"vocab_size": 65037, "max_position_embeddings": 2048, "embed_dim": 2048, "layers": 24,
              "ffn_dim": 8192, "attention_heads": 32, "activation_function": "gelu", "tie_word_embeddings": True},
    switches={**XGLM.switches, "attn_sub_norm": True, "ffn_sub_norm": True}, derive=(*XGLM.derive, sinusoid_width))

DECODER = "text_model.model."
HEAD = "text_model.lm_head"
# named_parameters(): the decoder's table, layers and final norm, its head, then the tower and the projection
ORDER = ("text_model.model.embed_tokens", "text_model.model.layers", "text_model.model.layer_norm", HEAD,
         "vision_model", "image_to_text_projection")


def renamed(naming: Naming) -> Naming:
    """The decoder's naming (its "model." moved under text_model) with its head under text_model too."""
    return dataclasses.replace(naming, lm_head=HEAD, model_order=ORDER)


WHOLE = Whole({"model_type": "kosmos_2_vision_model"}, projection, vision_prefix="vision_model.model.",
              projector_prefix="image_to_text_projection.", decoder_prefix=DECODER, tie_word_embeddings=True,
              tie_from_text=True,
              vision_kind="kosmos_2_vision_model", image_tokens=IMAGE_TOKENS, renamed=renamed)

FAMILIES = [dataclasses.replace(
    multimodal(TEXT, "kosmos-2", "transformers 5.24.0 models/kosmos2/configuration_kosmos2.py (Kosmos2Config, "
               "Kosmos2TextConfig, Kosmos2VisionConfig)", WHOLE, "Kosmos2ForConditionalGeneration"),
    naming=renamed(whole_naming(TEXT.naming, DECODER)),
    count_neutral=XGLM.count_neutral | {"latent_query_num", "vision_config"})]
