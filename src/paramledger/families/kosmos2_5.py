"""Kosmos-2.5 (microsoft/kosmos-2.5): the whole Kosmos2_5ForConditionalGeneration, as Kosmos-2's (families/kosmos2.py:
the text decoder first under text_model, then the vision model, then the image-to-text projection) except: the
decoder's layers hold no LayerNorm inside the attention (only the FFN's), its positions are shifted by a learned
two-row segment table (model.segment_emb: image or text), the vision model is Pix2Struct's encoder under Kosmos-2.5's
key names (towers/pix2struct.py), directly under vision_model, and the projection reads 2,048 latent queries by
default.  transformers 5.24.0 models/kosmos2_5/modeling_kosmos2_5.py and configuration_kosmos2_5.py."""

import dataclasses
from functools import partial

from ..towers import whole_naming
from ..towers.images import fixed
from ..towers.kosmos2 import latent_queries, projection
from ._family import derived_from, multimodal
from ..naming import Naming
from .kosmos2 import DECODER, HEAD, TEXT, WHOLE, XGLM

QUERIES = 2048  # Kosmos2_5Config.latent_query_num

# identical to Kosmos-2's decoder except: no self_attn.inner_attn_ln (Kosmos2_5TextAttention is built without it), the
# segment table after the token table (Kosmos2_5TextTransformer.segment_emb), Kosmos2_5TextConfig's defaults, no
# encoder_attn whatever add_cross_attention says
TEXT_2_5 = derived_from(
    TEXT, model_type="kosmos-2.5", causal_lm_class="Kosmos2_5TextForCausalLM",
    source="transformers 5.24.0 models/kosmos2_5/configuration_kosmos2_5.py (Kosmos2_5TextConfig)",
    naming=dataclasses.replace(TEXT.naming, attn_sub_norm=None, token_types="model.segment_emb",
                               layer_order=tuple(path for path in TEXT.naming.layer_order
                                                 if path != "self_attn.inner_attn_ln")),
    defaults={**TEXT.defaults, "vocab_size": 108481, "max_position_embeddings": 4096, "embed_dim": 1536,
              "ffn_dim": 6144, "attention_heads": 16},
    switches={**TEXT.switches, "attn_sub_norm": False, "type_vocab_size": 2},
    # add_cross_attention builds nothing: Kosmos2_5TextBlock has no encoder_attn (modeling_kosmos2_5.py), so it is
    # not read (Kosmos-2's is) and count-neutral (docs/notes/requires-req2.md)
    keys={key: field for key, field in TEXT.keys.items() if key != "add_cross_attention"})

ORDER = ("text_model.model.embed_tokens", "text_model.model.segment_emb", "text_model.model.layers",
         "text_model.model.layer_norm", HEAD, "vision_model", "image_to_text_projection")



def renamed(naming: Naming) -> Naming:
    """The decoder's naming (its "model." moved under text_model) with its head under text_model too."""
    return dataclasses.replace(naming, lm_head=HEAD, model_order=ORDER)


# tied by text_config's tie_word_embeddings alone: the whole config's own is never read (all nine combinations
# checked in tests/test_multimodal_k25.py)
WHOLE_2_5 = WHOLE._replace(renamed=renamed, tie_word_embeddings=False, tie_keys=(), tie_from_text=True, vision_config={"model_type": "kosmos_2_5_vision_model"},
                           projector=partial(projection, queries=QUERIES), vision_prefix="vision_model.",
                           vision_kind="kosmos_2_5_vision_model",
                           image_tokens=fixed(lambda config, tower: latent_queries(config, QUERIES)))
FAMILY = multimodal(TEXT_2_5, "kosmos-2.5", "transformers 5.24.0 models/kosmos2_5/configuration_kosmos2_5.py "
                    "(Kosmos2_5Config, Kosmos2_5TextConfig, Kosmos2_5VisionConfig)", WHOLE_2_5,
                    "Kosmos2_5ForConditionalGeneration")
FAMILIES = [dataclasses.replace(
    FAMILY, naming=renamed(whole_naming(TEXT_2_5.naming, DECODER)),
    count_neutral=XGLM.count_neutral | {"latent_query_num", "vision_config"})]
