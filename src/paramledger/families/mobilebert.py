"""MobileBERT (transformers 5.24.0 models/mobilebert, MobileBertForMaskedLM; only in the masked-LM mapping): BERT
(families/bert.py) whose layers are MobileBertLayer's bottlenecks and stacked FFNs (parts/mobile_bottleneck_layer.py:
the whole layer, one part).

Identical to bert except (configuration_mobilebert.py, modeling_mobilebert.py lines 55-139, 476-520, 759-786): the
model under "mobilebert" without a pooler (MobileBertForMaskedLM passes add_pooling_layer=False); the token table
embedding_size wide, the position and token-type tables hidden_size wide; embedding_transformation, a biased Linear
from the 3-gram concatenation (3 × embedding_size with trigram_input, else embedding_size) to hidden_size, built
whatever the widths, then the embeddings' norm (NoNorm or LayerNorm by normalization_type) after it; the head's
transform hidden wide (always a LayerNorm), then cls.predictions.dense, an unbiased Linear(vocab -> hidden_size -
embedding_size) of its own whose weight the head concatenates under the decoder's (vocab × embedding_size, tied to
the token table; its bias an alias of cls.predictions.bias when tied); no token_type_ids buffer; MobileBertConfig's
defaults."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ._family import derived_from, same
from .bert import BERT
from .bert_variants import renamed

BOTTLENECK = ("trigram_input", "intra_bottleneck_size", "use_bottleneck", "use_bottleneck_attention",
              "key_query_shared_bottleneck", "num_feedforward_networks")
NORMS = {"no_norm": True, "layer_norm": False}  # NORM2FN's keys: is it NoNorm


def mobile_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """Every layer is a MobileBertLayer, its norms NoNorm or LayerNorm by normalization_type."""
    norm = config.get("normalization_type", "no_norm")
    if norm not in NORMS:
        raise ArchitectureError("normalization_type", f"{norm!r} is not one of {', '.join(map(repr, NORMS))} "
                                "(modeling_mobilebert.py's NORM2FN)")
    width, hidden = config["embedding_size"], config["hidden_size"]
    if width is None:
        raise ArchitectureError("embedding_size", "null: MobileBertEmbeddings sizes its token table by it")
    if width > hidden:
        raise ArchitectureError("embedding_size", f"{width} is wider than hidden_size={hidden}: the head's "
                                "cls.predictions.dense would have hidden_size - embedding_size < 0 rows (nn.Linear "
                                "refuses it)")
    derived = config["intra_bottleneck_size"] if config["use_bottleneck"] else hidden
    true = config.get("true_hidden_size", derived)
    # MobileBertConfig.__post_init__ derives it (configuration_mobilebert.py lines 86-90), then PreTrainedConfig's
    # sets a given one over it (configuration_utils.py lines 499-506): the layers are built that wide (given_width)
    if type(true) is not int:  # (null: None / heads, TypeError; a float: no tensor size)
        raise ArchitectureError("true_hidden_size", f"must be a whole number, got {true!r}"[:200])
    every = tuple(range(config["num_hidden_layers"]))
    return {"mobile_bottleneck_layers": every, "layers_without_ffn": every, "no_norm": NORMS[norm],
            "true_hidden_size": None if true == derived else true}


def given_width(arch: Any) -> str | None:
    """A true_hidden_size other than the derived width: MobileBertLayer's attention and FFNs take and give that many
    channels, the bottleneck (or, without use_bottleneck, the layer's input) the other, so the forward fails on the
    first matmul (measured: "mat1 and mat2 shapes cannot be multiplied"); counted as transformers builds it."""
    if arch.true_hidden_size is None:
        return None
    derived = "intra_bottleneck_size" if arch.use_bottleneck else "hidden_size"
    return (f"true_hidden_size {arch.true_hidden_size:,} is not {derived}={getattr(arch, derived):,}, the width "
            "MobileBertConfig derives: counted as transformers builds it (the attention and FFNs that wide), a model "
            "whose forward cannot run (what feeds them, the bottleneck or the input, is the other width)")


MOBILEBERT = derived_from(
    BERT, model_type="mobilebert", causal_lm_class="MobileBertForMaskedLM",
    source="transformers 5.24.0 models/mobilebert/configuration_mobilebert.py",
    naming=renamed(BERT.naming, "mobilebert", embed_norm=None, positions_hidden_wide=True,
                   token_types_hidden_wide=True, embed_project="mobilebert.embeddings.embedding_transformation",
                   embed_project_always=True, embed_project_norm="mobilebert.embeddings.LayerNorm",
                   lm_head_extra="cls.predictions.dense", layer_order=(),
                   model_buffers=(("mobilebert.embeddings.position_ids", (1, "max_position_embeddings"), "int64",
                                   False),),
                   model_order=("mobilebert.embeddings", "mobilebert.encoder.layer", "cls.predictions.bias",
                                "cls.predictions.transform", "cls.predictions.dense", "cls.predictions.decoder")),
    keys={**BERT.keys, "embedding_size": "embedding_size", **same(*BOTTLENECK)},
    defaults={**BERT.defaults, "hidden_size": 512, "num_hidden_layers": 24, "num_attention_heads": 4,
              "intermediate_size": 512, "hidden_act": "relu", "embedding_size": 128, "trigram_input": True,
              "intra_bottleneck_size": 128, "use_bottleneck": True, "use_bottleneck_attention": False,
              "key_query_shared_bottleneck": True, "num_feedforward_networks": 4, "normalization_type": "no_norm"},
    switches={**BERT.switches, "norm_placement": "none", "lm_head_rest": True},
    # normalization_type and true_hidden_size are read by mobile_layers (MobileBertConfig.__post_init__ derives
    # true_hidden_size from use_bottleneck; a given one wins, noted by given_width); classifier_activation builds the
    # pooler MobileBertForMaskedLM leaves out
    count_neutral=BERT.count_neutral | {"normalization_type", "true_hidden_size",
                                        "classifier_activation"},
    # add_cross_attention builds nothing: MobileBertLayer has no crossattention (modeling_mobilebert.py), so BERT's
    # refusal is dropped and the key is count-neutral (docs/notes/requires-req2.md)
    requires={key: value for key, value in BERT.requires.items() if key != "add_cross_attention"},
    derive=(*BERT.derive, mobile_layers), explain=(given_width,))

FAMILIES = [MOBILEBERT]
