"""Reformer (transformers 5.24.0 models/reformer): the token table, axial position encodings (one Parameter per axis:
axial_pos_embds) or a plain position table, layers each a ReformerLayer (parts/reformer_layer.py: local or LSH
self-attention by attn_layers, a feed-forward, each with its own pre-LayerNorm), the encoder's final LayerNorm over
the two reversible streams (2 × hidden_size), and lm_head: a Linear from 2 × hidden_size with its own bias, beside a
second bias Parameter lm_head.bias (ReformerOnlyLMHead registers both, never one parameter: 5.24.0 ties neither).

The class counted is the one transformers builds for the config: ReformerModelWithLMHead (the causal-LM mapping) where
is_decoder is true, else ReformerForMaskedLM (the masked-LM mapping; ReformerModelWithLMHead asserts is_decoder and
ReformerForMaskedLM asserts its absence): the same tensors (reference.auto_class picks the same class)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..limits import MAX_REPEAT, big
from ..naming import Naming
from ._family import Family, same

TF = "transformers 5.24.0 models/reformer/configuration_reformer.py"
_KINDS = ("local", "lsh")


def _sizes(config: Mapping[str, Any], key: str) -> tuple[int, ...]:
    value = config[key]
    if not isinstance(value, (list, tuple)) or not value or not all(type(size) is int and size > 0 for size in value):
        raise ArchitectureError(key, f"{value!r} is not a non-empty list of positive sizes"[:200])
    return tuple(value)


def _depth(layers: Any, kinds: list) -> int:
    """ReformerConfig.__post_init__ sets num_hidden_layers = len(attn_layers) (configuration_reformer.py line 148),
    but a given one is set after it (PreTrainedConfig's kwargs) and ReformerEncoder builds that many layers
    (modeling_reformer.py line 1766), each of the one kind where attn_layers names one, else attn_layers[layer]."""
    if type(layers) is not int or layers < 1:  # (ReformerModel asserts num_hidden_layers > 0)
        raise ArchitectureError("num_hidden_layers", f"must be a positive whole number, got {layers!r}"[:200])
    if layers > MAX_REPEAT:
        raise ArchitectureError("num_hidden_layers", f"{big(layers)} is beyond the bound of {MAX_REPEAT:,} "
                                "(docs/limits.md)")
    if len(set(kinds)) > 1 and layers > len(kinds):
        raise ArchitectureError("num_hidden_layers", f"{layers} layers, but attn_layers mixes 'local' and 'lsh' for "
                                f"{len(kinds)}: ReformerAttention reads attn_layers[layer] (an IndexError)")
    return layers


def reformer_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """ReformerConfig: one layer per attn_layers entry ("local" or "lsh"), axial position encodings whose dims sum to
    hidden_size, the final norm and the head over 2 × hidden_size."""
    kinds = config["attn_layers"]
    if not isinstance(kinds, (list, tuple)) or not kinds:  # ReformerModel asserts num_hidden_layers > 0
        raise ArchitectureError("attn_layers", f"{kinds!r} is not a non-empty list of 'local' and 'lsh'"[:200])
    for kind in kinds:  # ReformerAttention raises NotImplementedError on any other
        if kind not in _KINDS:
            raise ArchitectureError("attn_layers", f"{kind!r} is not 'local' or 'lsh' (ReformerAttention refuses "
                                    "it)"[:200])
    decoder = config.get("is_decoder", False)
    if type(decoder) is not bool:
        raise ArchitectureError("is_decoder", f"must be true or false, got {decoder!r}"[:200])
    if decoder:  # ReformerModelWithLMHead's asserts (a causal mask looks at no later chunk)
        for kind, key in (("local", "local_num_chunks_after"), ("lsh", "lsh_num_chunks_after")):
            if kind in kinds and config.get(key) != 0:
                raise ArchitectureError(key, f"must be 0 with is_decoder and {kind!r} layers (ReformerModelWithLMHead "
                                        f"refuses {config.get(key)!r})"[:200])
    hidden = config["hidden_size"]
    # learned absolute positions either way: the axial encodings are learned too, by axes in the table's place
    values: dict[str, Any] = {"position_embedding_type": "learned", "axial_pos_shape": (),
                              "axial_pos_embds_dim": ()}
    axial = config.get("axial_pos_embds", True)
    if type(axial) is not bool:
        raise ArchitectureError("axial_pos_embds", f"must be true or false, got {axial!r}"[:200])
    if axial:
        shape, dims = _sizes(config, "axial_pos_shape"), _sizes(config, "axial_pos_embds_dim")
        if len(dims) != len(shape):  # AxialPositionEmbeddings makes one weight per dim, each on its axis
            raise ArchitectureError("axial_pos_embds_dim", f"{len(dims)} dims for the {len(shape)} axes of "
                                    "axial_pos_shape (one per axis)")
        if sum(dims) != hidden:  # AxialPositionEmbeddings.__init__ raises ValueError
            raise ArchitectureError("axial_pos_embds_dim", f"{list(dims)} sums to {sum(dims)}, not hidden_size "
                                    f"{hidden} (AxialPositionEmbeddings refuses it)"[:200])
        # (their product need not be max_position_embeddings: transformers builds any, training asks the sequence
        # to be the product and inference reads within it, so a release's [11, 11] beside 4096 is counted)
        values.update(axial_pos_shape=shape, axial_pos_embds_dim=dims)
    layers = _depth(config.get("num_hidden_layers", len(kinds)), kinds)
    kinds = [kinds[0]] * layers if len(set(kinds)) == 1 else list(kinds[:layers])
    every = tuple(range(layers))
    return {**values, "num_hidden_layers": layers, "reformer_layers": every, "layers_without_ffn": every,
            "reformer_lsh_layers": tuple(i for i, kind in enumerate(kinds) if kind == "lsh"),
            "final_norm_width": 2 * hidden, "output_embedding_size": 2 * hidden}


def _which_class(arch: Any) -> str:
    return ("ReformerModelWithLMHead (is_decoder)" if arch.reformer_decoder else
            "ReformerForMaskedLM (is_decoder false; ReformerModelWithLMHead builds the same tensors)") + (
        ": lm_head.bias and lm_head.decoder.bias are two parameters")


def _decoder(config: Mapping[str, Any]) -> dict[str, Any]:
    """is_decoder chooses the class counted (and the note saying which)."""
    return {"reformer_decoder": bool(config.get("is_decoder", False))}


FAMILIES = [
    # identical to funnel (families/funnel.py) except: every layer is Reformer's (parts/reformer_layer.py, local or
    # LSH attention by attn_layers), no embedding norm, axial or plain positions, a final LayerNorm over 2 × hidden,
    # the head from 2 × hidden, never tied, its bias held apart beside the Linear's own (modeling_reformer.py lines
    # 193-221, 298-320, 1761-1769, 1822-1830)
    Family(
        model_type="reformer",
        causal_lm_class="ReformerForMaskedLM",  # the class at the defaults (is_decoder false): _which_class
        source=TF,
        naming=Naming(embed="reformer.embeddings.word_embeddings",
                      positions="reformer.embeddings.position_embeddings.embedding",
                      axial_positions="reformer.embeddings.position_embeddings",
                      layer="reformer.encoder.layers.{i}", final_norm="reformer.encoder.layer_norm",
                      lm_head="lm_head.decoder", lm_head_bias="lm_head.bias", rotary=None),
        keys=same("vocab_size", "hidden_size", "num_attention_heads", "hidden_act", "max_position_embeddings",
                  attention_head_size="head_dim", feed_forward_size="intermediate_size"),
        defaults={"vocab_size": 320, "hidden_size": 256, "num_attention_heads": 12, "attention_head_size": 64,
                  "feed_forward_size": 512, "hidden_act": "relu", "max_position_embeddings": 4096,
                  "attn_layers": ["local", "lsh", "local", "lsh", "local", "lsh"], "axial_pos_embds": True,
                  "axial_pos_shape": [64, 64], "axial_pos_embds_dim": [64, 192], "is_decoder": False,
                  "local_num_chunks_after": 0, "lsh_num_chunks_after": 0},
        switches={"norm_type": "layernorm", "norm_placement": "none", "final_norm": True, "lm_head_bias": True,
                  "mlp_gated": False, "tie_word_embeddings": False},
        # read by the rules; the rest steer hashing, chunking, dropout and initialisation.  tie_word_embeddings:
        # ReformerOnlyLMHead's decoder is 2 × hidden wide, and 5.24.0 declares no tied keys: never tied;
        # num_hidden_layers: ReformerConfig.__post_init__ sets it to len(attn_layers), unless the config gives it
        # (read by _depth)
        count_neutral=frozenset({"attn_layers", "axial_pos_embds", "axial_pos_shape", "axial_pos_embds_dim",
                                 "is_decoder", "local_num_chunks_after", "lsh_num_chunks_after",
                                 "tie_word_embeddings", "axial_norm_std", "chunk_size_lm_head", "hash_seed",
                                 "hidden_dropout_prob", "layer_norm_eps", "local_num_chunks_before",
                                 "local_attention_probs_dropout_prob", "local_attn_chunk_length",
                                 "lsh_attn_chunk_length", "lsh_attention_probs_dropout_prob",
                                 "lsh_num_chunks_before", "num_buckets", "num_hashes", "use_cache",
                                 "classifier_dropout", "chunk_size_feed_forward", "num_hidden_layers"}),
        derive=(reformer_layers, _decoder),
        explain=(lambda arch: "counted as " + _which_class(arch),),
    ),
]
