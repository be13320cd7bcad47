"""ProphetNet (transformers 5.24.0 models/prophetnet/): ProphetNetForCausalLM (the decoder under a head) and, whole,
ProphetNetForConditionalGeneration.

What the classes build (modeling_prophetnet.py): ProphetNetModel (lines 1357-1372) registers ``word_embeddings``
(the shared table: both stacks' word_embeddings and lm_head tied to it while tie_word_embeddings), then
``encoder`` and ``decoder``.  ProphetNetEncoder (lines 949-955): word_embeddings, position_embeddings
(ProphetNetPositionalEmbeddings, an nn.Embedding of max_position_embeddings rows, no offset), embeddings_layer_norm,
then its layers (ProphetNetEncoderLayer: self_attn of ProphetNetAttention, key_proj, value_proj, query_proj,
out_proj, all biased; self_attn_layer_norm; feed_forward.intermediate/output, biased; feed_forward_layer_norm:
post-norm).  ProphetNetDecoder (lines 1056-1073): word_embeddings, position_embeddings, ``ngram_embeddings`` (ngram
rows), its layers, then embeddings_layer_norm.  A decoder layer (lines 872-890): self_attn is
ProphetNetNgramSelfAttention (parts/ngram_attention.py: the attention and relative_pos_embeddings, a Linear to
num_buckets × heads), self_attn_layer_norm, cross_attn (ProphetNetAttention) and cross_attn_layer_norm where
add_cross_attention, the feed-forward and its norm.  No buffer; lm_head has no bias.

ProphetNetForCausalLM (lines 1665-1682, ProphetNetDecoderWrapper lines 1826-1839) holds the table at
``prophetnet.word_embeddings`` with the decoder's word_embeddings tied to it while tie_word_embeddings (untied, a
third table): a config naming that class is refused in one line, and so is ``--text-only`` (the decoder alone under
its own table would name the table otherwise and, untied, hold one table fewer).  Both stacks' heads must divide hidden_size (ProphetNetAttention asserts it)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..naming import Naming
from ..towers.encoder import Seq2Seq
from ._family import Family, same
from .bart import BIASED_POST

SOURCE = "transformers 5.24.0 models/prophetnet/configuration_prophetnet.py"
TOP, DECODER, ENCODER = "prophetnet", "prophetnet.decoder", "prophetnet.encoder"
ATTENTION, CROSS = "self_attn", "cross_attn"
LAYER_ORDER = (f"{ATTENTION}.key_proj", f"{ATTENTION}.value_proj", f"{ATTENTION}.query_proj", f"{ATTENTION}.out_proj",
               f"{ATTENTION}.relative_pos_embeddings", "self_attn_layer_norm", f"{CROSS}.key_proj",
               f"{CROSS}.value_proj", f"{CROSS}.query_proj", f"{CROSS}.out_proj", "cross_attn_layer_norm",
               "feed_forward.intermediate", "feed_forward.output", "feed_forward_layer_norm")
NAMING = Naming(
    embed=f"{DECODER}.word_embeddings", positions=f"{DECODER}.position_embeddings", position_offset=0,
    token_types=f"{DECODER}.ngram_embeddings", embed_norm=f"{DECODER}.embeddings_layer_norm",
    layer=f"{DECODER}.layers.{{i}}", q=f"{ATTENTION}.query_proj", k=f"{ATTENTION}.key_proj",
    v=f"{ATTENTION}.value_proj", o=f"{ATTENTION}.out_proj", attn_pre_norm="self_attn_layer_norm",
    attn_post_norm="self_attn_layer_norm", cross_q=f"{CROSS}.query_proj", cross_k=f"{CROSS}.key_proj",
    cross_v=f"{CROSS}.value_proj", cross_o=f"{CROSS}.out_proj", cross_attn_norm="cross_attn_layer_norm",
    up="feed_forward.intermediate", down="feed_forward.output", ffn_pre_norm="feed_forward_layer_norm",
    ffn_post_norm="feed_forward_layer_norm", final_norm=f"{DECODER}.layer_norm", rotary=None,
    layer_order=LAYER_ORDER,
    model_order=(f"{DECODER}.word_embeddings", f"{DECODER}.position_embeddings", f"{DECODER}.ngram_embeddings",
                 f"{DECODER}.layers", f"{DECODER}.embeddings_layer_norm"))
# The encoder's names where they differ from the decoder's moved under it: its embeddings_layer_norm before its
# layers (ProphetNetEncoder's registration order)
ENCODER_NAMING = (("model_order", (f"{ENCODER}.word_embeddings", f"{ENCODER}.position_embeddings",
                                   f"{ENCODER}.embeddings_layer_norm", f"{ENCODER}.layers")),)


CAUSAL_LM, PROPHETNET_WHOLE = "ProphetNetForCausalLM", "ProphetNetForConditionalGeneration"


def _decoder(config: Mapping[str, Any]) -> dict[str, Any]:
    """The n-gram self-attention in every decoder layer (ProphetNetDecoderLayer) and the ngram table's rows; the
    heads dividing hidden_size in both stacks (ProphetNetAttention's and ProphetNetNgramSelfAttention's assert)."""
    named = config.get("architectures")
    if isinstance(named, list) and CAUSAL_LM in named and PROPHETNET_WHOLE not in named:
        raise ArchitectureError("architectures", f"{CAUSAL_LM} is not counted (its ProphetNetDecoderWrapper holds "
                                "a table of its own beside the decoder's, tied to it only while tie_word_embeddings: "
                                f"not built here); drop it, or name {PROPHETNET_WHOLE}, to count the whole model")
    hidden = config["hidden_size"]
    for key in ("num_decoder_attention_heads", "num_encoder_attention_heads"):
        heads = config[key]
        if type(heads) is int and heads > 0 and type(hidden) is int and hidden % heads:
            raise ArchitectureError(key, f"{heads} does not divide hidden_size={hidden} (ProphetNetAttention "
                                    "asserts it)")
    ngram = config["ngram"]
    if type(ngram) is not int or ngram < 0:  # (0 rows: an empty table, as nn.Embedding builds it)
        raise ArchitectureError("ngram", f"must be a whole number of zero or more, got {ngram!r}")
    return {"ngram_attention_layers": tuple(range(config["num_hidden_layers"])), "type_vocab_size": ngram}


PROPHETNET = Family(
    model_type="prophetnet",
    causal_lm_class="ProphetNetForCausalLM",
    source=SOURCE,
    naming=NAMING,
    keys={**same("vocab_size", "hidden_size", "max_position_embeddings", "tie_word_embeddings", "add_cross_attention"),
          "num_decoder_layers": "num_hidden_layers", "num_decoder_attention_heads": "num_attention_heads",
          "decoder_ffn_dim": "intermediate_size", "activation_function": "hidden_act",
          "num_buckets": "ngram_num_buckets"},
    # ProphetNetConfig's defaults (configuration_prophetnet.py lines 24-51)
    defaults={"vocab_size": 30522, "hidden_size": 1024, "num_decoder_layers": 12, "num_decoder_attention_heads": 16,
              "decoder_ffn_dim": 4096, "num_encoder_layers": 12, "num_encoder_attention_heads": 16,
              "encoder_ffn_dim": 4096, "max_position_embeddings": 512, "activation_function": "gelu",
              "tie_word_embeddings": True, "add_cross_attention": True, "ngram": 2, "num_buckets": 32},
    switches={key: value for key, value in BIASED_POST.items() if key != "add_cross_attention"},
    count_neutral=frozenset({
        "num_encoder_layers", "num_encoder_attention_heads", "encoder_ffn_dim",  # the encoder's (Seq2Seq.keys)
        "ngram",  # read by _decoder
        "relative_max_distance", "disable_ngram_loss", "eps", "activation_dropout", "init_std", "num_labels",
        "gradient_checkpointing", "output_past"}),
    derive=(_decoder,),
    seq2seq=Seq2Seq("ProphetNetForConditionalGeneration",
                    {"num_encoder_layers": "num_hidden_layers", "num_encoder_attention_heads": "num_attention_heads",
                     "encoder_ffn_dim": "intermediate_size"},
                    {"num_encoder_layers": 12, "num_encoder_attention_heads": 16, "encoder_ffn_dim": 4096,
                     "tie_word_embeddings": True},
                    shared=f"{TOP}.word_embeddings", decoder=DECODER, encoder=ENCODER, head_buffers=(),
                    encoder_fields={"ngram_attention_layers": (), "ngram_num_buckets": None, "type_vocab_size": None},
                    encoder_naming=ENCODER_NAMING,
                    decoder_alone_refused=f"the decoder alone is {CAUSAL_LM}, whose ProphetNetDecoderWrapper holds a "
                    "table of its own beside the decoder's (named before it, a third table when untied): not built "
                    "here; count the whole model"),
)

FAMILIES = [PROPHETNET]
