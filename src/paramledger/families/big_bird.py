"""BigBird (transformers 5.24.0 models/big_bird): BERT's encoder and MLM head (families/bert.py) under BERT's own
names, whose head classes build the model with its pooler (BigBirdModel.pooler, a bare hidden × hidden Linear).

Identical to bert except: the pooler after the layers, q/k/v biases by use_bias (the output dense keeps its own),
BigBirdConfig's defaults; block-sparse attention (attention_type) reads the same projections."""

from __future__ import annotations

import dataclasses

from ._family import derived_from
from .bert import BERT, reading_cross_attention

BIG_BIRD = derived_from(
    BERT, model_type="big_bird", causal_lm_class="BigBirdForCausalLM",
    source="transformers 5.24.0 models/big_bird/configuration_big_bird.py",
    naming=dataclasses.replace(BERT.naming, pooler="bert.pooler",
                               model_order=("bert.embeddings", "bert.encoder.layer", "bert.pooler",
                                            "cls.predictions.bias", "cls.predictions.transform")),
    keys={**BERT.keys, "use_bias": "attention_bias"},
    switches={name: value for name, value in BERT.switches.items() if name != "attention_bias"},
    defaults={**BERT.defaults, "vocab_size": 50358, "hidden_act": "gelu_new", "max_position_embeddings": 4096,
              "use_bias": True},
    count_neutral=BERT.count_neutral | {"attention_type", "rescale_embeddings", "block_size", "num_random_blocks"},
    explain=())
FAMILIES = [reading_cross_attention(BIG_BIRD)]  # BigBirdLayer's crossattention is BERT's
