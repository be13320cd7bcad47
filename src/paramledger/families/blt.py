"""BLT, the Byte Latent Transformer (transformers 5.24.0 models/blt: BltForCausalLM, issue #15), counted whole.

BltModel holds four stacks of Llama's layer (BltTransformerLayer), each read from its own sub-config: the local
encoder over bytes (encoder_config), the global transformer over patches (global_config), the local decoder back to
bytes (decoder_config) and the entropy patcher, a small causal LM of its own whose parameters are frozen
(patcher_config; built only with patch_in_forward), beside the hash n-gram table encoder_hash_tok_embedding and the
head lm_head (decoder_config's hidden_size wide, vocab_size rows).  The stacks differ in width, so no one design
holds them: the design is the local encoder (its embed_tokens and layers, as Llama's: identical to Llama's decoder
except that it has no final norm, its head reads the local decoder's width, and head_dim is always hidden_size //
num_attention_heads), and the rest is made by towers/blt.py (Whole.made), sorted into named_parameters() order by
the naming's model_order.  tie_word_embeddings ties lm_head to the local encoder's table (BltForCausalLM's
_tied_weights_keys), refused where their shapes differ (transformers then builds a head that cannot run).

transformers 5.24.0 cannot keep BLT's KV cache (BltModel.forward's DynamicCache(config=BltConfig) reads
num_hidden_layers, which BltConfig lacks): kvcache.NO_CACHE refuses memory's cache in one line, compute.NO_FLOPS
its FLOPs per token (the global transformer runs once a patch the patcher sizes), and the closed form is refused
(towers/blt.py's stacks follow the encoder's sizes by a rule no symbol reaches)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..naming import Naming
from ..towers import Whole, no_projector
from ..towers.blt import NEUTRAL, SECTIONS, TF, TOP, size, stack, stacks
from ._family import Family, multimodal
from ._tables import LLAMA_SWITCHES

E = "model.local_encoder."
NAMING = Naming(embed=E + "embed_tokens", layer=E + "layers.{i}", rotary=E + "rotary_emb",
                # BltLocalEncoder registers layers, patch_embedding_projection, embed_tokens, cross_attn_layers;
                # BltModel then global_transformer, local_decoder, encoder_hash_tok_embedding, patcher; lm_head last
                model_order=(E + "layers", E + "patch_embedding_projection", E + "embed_tokens", E + "cross_attn_layers",
                             "model.global_transformer", "model.local_decoder", "model.encoder_hash_tok_embedding",
                             "model.patcher", "lm_head"))


def blt_design(config: Mapping[str, Any]) -> dict[str, Any]:
    """The local encoder as the design (BltLocalEncoder over encoder_config) and the head (BltForCausalLM.lm_head:
    vocab_size rows, decoder_config's hidden_size wide)."""
    encoder, decoder = stack(config, "encoder_config"), stack(config, "decoder_config")
    if encoder.layers == 0:  # BltLocalEncoder.forward reads its last layer's output: none to read
        raise ArchitectureError("encoder_config.num_hidden_layers", "must be a whole number from 1, got 0")
    rows = size(config, "vocab_size", "vocab_size")
    table = size(encoder.section, "vocab_size", "encoder_config.vocab_size")
    context = size(encoder.section, "max_position_embeddings", "encoder_config.max_position_embeddings")
    if rows > table:  # (the design's head rows past its table's: a pruned head's, never more)
        raise ArchitectureError("vocab_size", f"{rows} is more than encoder_config.vocab_size {table}: the head "
                                "would predict ids the local encoder's table cannot read")
    tied = config.get("tie_word_embeddings")
    if tied is True and (rows, decoder.hidden) != (table, encoder.hidden):
        raise ArchitectureError("tie_word_embeddings", f"true ties lm_head ({rows} × {decoder.hidden}) to the local "
                                f"encoder's embed_tokens ({table} × {encoder.hidden}), another shape: transformers "
                                "5.24.0 builds a head that cannot run")
    return {"vocab_size": table, "output_vocab_size": None if rows == table else rows,
            "hidden_size": encoder.hidden, "num_hidden_layers": encoder.layers,
            "num_attention_heads": encoder.heads, "num_key_value_heads": encoder.kv_heads,
            # hidden_size // heads, derived where the heads divide the width (so a --set width keeps it so), else
            # given (the design refuses an undivided width with no head_dim)
            "head_dim": None if encoder.hidden % encoder.heads == 0 else encoder.head_dim,
            "intermediate_size": encoder.inner, "max_position_embeddings": context,
            # the head reads the local decoder's width whatever the design's (a --set hidden_size keeps it)
            "output_embedding_size": decoder.hidden,
            "hidden_act": encoder.section.get("hidden_act", "silu")}


TEXT = Family(
    model_type="blt",
    causal_lm_class="BltForCausalLM",
    source=TF,
    naming=NAMING,
    keys={"tie_word_embeddings": "tie_word_embeddings"},
    defaults=TOP,
    # no final norm in the local encoder (the local decoder's norm is a tower's, model.local_decoder.norm)
    switches={**LLAMA_SWITCHES, "final_norm": False},
    # every other key is read by blt_design or towers/blt.py's stacks, or sizes nothing (the patching arithmetic,
    # the local window: a mask)
    count_neutral=frozenset(TOP) - {"tie_word_embeddings"},
    sections={key: frozenset(defaults) | NEUTRAL | {"model_type"} for key, defaults in SECTIONS.items()},
    derive=(blt_design,),
)

FAMILIES = [multimodal(
    TEXT, "blt", TF,
    Whole({}, no_projector, projector_prefix="", decoder_prefix="model.", tie_word_embeddings=False,
          text_at_top=True, made=stacks,
          described="blt: counting the whole model (local encoder, global transformer, local decoder, hash n-gram "
                    "table, patcher and head)",
          decoder_alone_refused="its local encoder alone is no class transformers 5.24.0 builds: count the whole "
                                "model"),
    "BltForCausalLM")]
