"""Set P's encoders (issue #17) beyond tests/test_families.py's tensor-by-tensor check: Hugging Face's own
non-embedding count of each masked-LM class, the masked-LM class beside a registered CausalLM class, what the
design says of ALBERT's shared layers, and the refusals of what a family's table does not build.

The types docs/notes/encoders-p.patch registers are tested once it is applied (skipped until then)."""

from __future__ import annotations

import pytest
from _family_configs_p import CONFIGS_P, REGISTERED
from hypothesis import given
from hypothesis import strategies as st
from test_encoders_k import masked_lm  # AutoModelForMaskedLM on the meta device

import paramledger
from paramledger._exceptions import ArchitectureError
from paramledger.reference import default_config, diff, reference_of

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")



@pytest.mark.parametrize("model_type", sorted(CONFIGS_P))
def test_hugging_face_non_embedding_count_at_the_class_defaults(model_type):
    """num_parameters(exclude_embeddings=True) drops the nn.Embedding weights: the tables, RoFormer's sinusoidal
    table (an nn.Embedding too), not the embeddings' projections."""
    config = default_config(model_type)
    model = masked_lm(config)
    inventory = paramledger.inventory(paramledger.load(config))
    assert inventory.total == model.num_parameters()
    assert inventory.non_embedding("hf") == model.num_parameters(exclude_embeddings=True)


@pytest.mark.parametrize("model_type", ["roformer", "xmod", "roc_bert"])  # they register a CausalLM class
@given(data=st.data())
def test_the_masked_lm_class_holds_the_causal_lm_class_tensors(model_type, data):
    """test_families checks RoFormerForCausalLM, XmodForCausalLM and RoCBertForCausalLM; their masked-LM classes
    hold the same tensors, names and order."""
    config = data.draw(CONFIGS_P[model_type], label="config")
    inventory = paramledger.inventory(paramledger.load(config))
    assert diff(inventory, reference_of(masked_lm(config), model_type)).matches


def test_albert_counts_its_groups_once_and_says_so():
    """albert-base's sizes (768 wide, 12 steps through one group): one layer's tensors, as
    AlbertForMaskedLM holds them, and a note that the steps are not layers of their own."""
    config = {"model_type": "albert", "hidden_size": 768, "num_attention_heads": 12, "intermediate_size": 3072,
              "hidden_act": "gelu_new"}
    arch = paramledger.load(config)
    inventory = paramledger.inventory(arch)
    assert arch.num_hidden_layers == 1
    assert inventory.total == masked_lm(config).num_parameters() == 11_221_680  # measured
    assert any("num_hidden_layers steps" in note for note in arch.notes)


def test_albert_layers_inside_a_group_are_counted():
    """inner_group_num 2: one group of two layers (tests/test_requires_req2.py checks random ones tensor by tensor)."""
    arch = paramledger.load({"model_type": "albert", "inner_group_num": 2})
    assert arch.num_hidden_layers == 2
    assert paramledger.inventory(arch).total == 407_748_784  # AlbertForMaskedLM on the meta device, measured


def test_fnet_has_no_attention_tensor():
    inventory = paramledger.inventory(paramledger.load({"model_type": "fnet", "num_hidden_layers": 2}))
    assert inventory.component("attention") == 0
    assert "fnet.embeddings.projection.weight" in [t.name for t in inventory.tensors]


def test_roformer_table_is_one_head_wide_and_frozen():
    inventory = paramledger.inventory(paramledger.load({"model_type": "roformer"}))
    table = inventory["roformer.encoder.embed_positions.weight"]
    assert table.shape == (1536, 64)
    assert inventory.frozen == table.count


@pytest.mark.parametrize(("config", "message"), [
    ({"model_type": "deberta", "embedding_size": 128}, "config: embedding_size: 128 apart from hidden_size"),
    ({"model_type": "deberta", "legacy": "no"}, "config: legacy: must be true or false"),
    ({"model_type": "convbert", "num_groups": 0}, "config: num_groups: 0 is not a positive integer"),
    ({"model_type": "convbert", "add_cross_attention": True, "is_decoder": False},
     "config: add_cross_attention: needs is_decoder true"),
    ({"model_type": "squeezebert", "embedding_size": 128}, "config: embedding_size: 128 apart from hidden_size"),
    ({"model_type": "squeezebert", "q_groups": 5}, "config: q_groups: 5 does not divide the conv's channels"),
    ({"model_type": "xmod", "adapter_reduction_factor": 0}, "config: adapter_reduction_factor: 0 is not a positive"),
    ({"model_type": "xmod", "hidden_size": 8, "num_attention_heads": 2, "adapter_reduction_factor": 9},
     "config: adapter_reduction_factor: 9 leaves no bottleneck"),
    ({"model_type": "tapas", "type_vocab_sizes": [3, -1]}, r"config: type_vocab_sizes: \[3, -1\] is not a list"),
])
def test_what_a_table_does_not_build_is_refused_by_its_key(config, message):
    with pytest.raises(ArchitectureError, match=message):
        paramledger.load(config)


def test_every_pending_type_is_drawn_once_registered():
    assert set(REGISTERED) <= set(CONFIGS_P)
