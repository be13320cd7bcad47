"""Perceiver's latents and its two cross-attentions (transformers 5.24.0 models/perceiver/modeling_perceiver.py,
PerceiverForMaskedLM lines 806-834), built where a design has a latent array (num_latents): the self-attention
layers (the builder's, ``perceiver.encoder.self_attends``) run over the latents, not over the tokens.

- Before the layers (after the token and position tables, PerceiverTextPreprocessor: embedding_size wide, no
  projection), ``perceiver.embeddings.latents`` (num_latents × hidden_size, a bare Parameter) and the encoder's
  ``cross_attention`` (PerceiverLayer, lines 354-416: the latents query the tables' rows): ``attention.self``'s
  layernorm1 (hidden_size) and layernorm2 (the tables' width), query (hidden -> latent_cross_qk_channels, else the
  tables' width), key (width -> qk), value (width -> latent_cross_v_channels, else qk), ``attention.output.dense``
  (v -> hidden), ``layernorm`` and ``mlp.dense1`` / ``mlp.dense2`` (hidden -> latent_cross_widening_factor × hidden
  -> hidden), every Linear biased.
- After the layers, PerceiverBasicDecoder (lines 1898-1950) with the arguments PerceiverForMaskedLM gives it:
  ``output_position_encodings.position_embeddings`` (max_position_embeddings × the tables' width, a bare Parameter:
  PerceiverTrainablePositionEncoding) and ``decoding_cross_attention``, a PerceiverLayer whose queries are those
  positions (q_dim the tables' width) over the latents (kv_dim hidden_size), qk_channels 8 × 32, v_channels the
  tables' width, no widening; its final_layer is nn.Identity (final_project=False).
- The head, PerceiverEmbeddingDecoder (lines 2698-2720), multiplies by the token table in forward and holds its
  bias alone (``embedding_decoder.bias``, the builder's lm_head_bias): no module, no alias."""

from __future__ import annotations

from typing import Any

from .parts._collector import Collector

ENCODER, DECODER = "perceiver.encoder.cross_attention", "perceiver.decoder"
DECODER_QK_CHANNELS = 8 * 32  # PerceiverForMaskedLM: qk_channels=8 * 32, num_heads=8 (lines 825-827)
DECODER_HEADS = 8


def _cross_layer(c: Collector, path: str, queries: int, keys: int, qk: int, v: int, inner: int) -> None:
    """One cross-attending PerceiverLayer: ``queries``-wide queries over ``keys``-wide inputs, the output back to
    ``queries`` channels, then its MLP ``inner`` wide (registration order: attention.self's norms and Linears,
    attention.output, the layer's layernorm, mlp)."""
    c.norm(f"{path}.attention.self.layernorm1", queries)
    c.norm(f"{path}.attention.self.layernorm2", keys)
    c.linear(f"{path}.attention.self.query", qk, queries, "attention", None, True)
    c.linear(f"{path}.attention.self.key", qk, keys, "attention", None, True)
    c.linear(f"{path}.attention.self.value", v, keys, "attention", None, True)
    c.linear(f"{path}.attention.output.dense", queries, v, "attention", None, True)
    c.norm(f"{path}.layernorm", queries)
    c.linear(f"{path}.mlp.dense1", inner, queries, "ffn", None, True)
    c.linear(f"{path}.mlp.dense2", queries, inner, "ffn", None, True)


def latent_inputs(c: Collector, arch: Any) -> None:
    """The latents and the encoder's cross-attention from the tables' rows into them."""
    d, width = arch.hidden_size, arch.embedding_size or arch.hidden_size
    c.add("perceiver.embeddings.latents", (arch.num_latents, d), "attention")  # (the queries: no nn.Embedding)
    qk = arch.latent_cross_qk_channels or width  # (PerceiverAttention: the keys' width, "kv")
    _cross_layer(c, ENCODER, d, width, qk, arch.latent_cross_v_channels or qk,
                 (arch.latent_cross_widening_factor or 1) * d)


def latent_outputs(c: Collector, arch: Any) -> None:
    """The decoder's position queries and its cross-attention from the latents back to every position."""
    d, width = arch.hidden_size, arch.embedding_size or arch.hidden_size
    c.add(f"{DECODER}.output_position_encodings.position_embeddings", (arch.max_position_embeddings, width),
          "attention")
    _cross_layer(c, f"{DECODER}.decoding_cross_attention", width, d, DECODER_QK_CHANNELS, width, width)
