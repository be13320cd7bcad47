"""SqueezeBERT (transformers 5.24.0 models/squeezebert, SqueezeBertForMaskedLM; only in the masked-LM mapping): BERT
(families/bert.py) whose layers are SqueezeBertModule's grouped pointwise convolutions
(parts/grouped_conv_layer.py: the whole layer, one part).

Identical to bert except (configuration_squeezebert.py, modeling_squeezebert.py lines 45-80, 121-400): the model
under "transformer", its layers at transformer.encoder.layers.{i}; every projection a grouped Conv1d (q_groups,
k_groups, v_groups, post_attention_groups, intermediate_groups, output_groups); the pooler SqueezeBertModel always
builds (transformer.pooler.dense); only embedding_size = hidden_size (SqueezeBertEncoder asserts it); no
token_type_ids buffer; SqueezeBertConfig's defaults (four groups but after the attention)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ._family import derived_from, same
from .bert import BERT
from .bert_variants import renamed

GROUPS = ("q_groups", "k_groups", "v_groups", "post_attention_groups", "intermediate_groups", "output_groups")


def conv_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """Every layer is a SqueezeBertModule, its FFN and norms inside it."""
    width = config.get("embedding_size")
    if width is not None and width != config["hidden_size"]:
        raise ArchitectureError("embedding_size", f"{width} apart from hidden_size={config['hidden_size']}: "
                                "SqueezeBertEncoder asserts they are equal")
    every = tuple(range(config["num_hidden_layers"]))
    return {"grouped_conv_layers": every, "layers_without_ffn": every}


SQUEEZEBERT = derived_from(
    BERT, model_type="squeezebert", causal_lm_class="SqueezeBertForMaskedLM",
    source="transformers 5.24.0 models/squeezebert/configuration_squeezebert.py",
    naming=renamed(BERT.naming, "transformer", layer="transformer.encoder.layers.{i}", q="attention.query",
                   k="attention.key", v="attention.value", pooler="transformer.pooler.dense",
                   model_buffers=(("transformer.embeddings.position_ids", (1, "max_position_embeddings"), "int64",
                                   False),), layer_order=(),
                   model_order=("transformer.embeddings", "transformer.encoder.layers", "transformer.pooler",
                                "cls.predictions.bias", "cls.predictions.transform")),
    keys={**BERT.keys, **same(*GROUPS)},
    defaults={**BERT.defaults, "embedding_size": 768, "q_groups": 4, "k_groups": 4, "v_groups": 4,
              "post_attention_groups": 1, "intermediate_groups": 4, "output_groups": 4},
    switches={**BERT.switches, "norm_placement": "none"},
    count_neutral=BERT.count_neutral | {"embedding_size"},  # read by conv_layers: only hidden_size is built
    # add_cross_attention builds nothing: SqueezeBertModule has no crossattention (modeling_squeezebert.py), so
    # BERT's refusal is dropped and the key is count-neutral (docs/notes/requires-req2.md)
    requires={key: value for key, value in BERT.requires.items() if key != "add_cross_attention"},
    derive=(*BERT.derive, conv_layers), explain=())

FAMILIES = [SQUEEZEBERT]
