"""The keys paramledger once refused for some encoder families (Family.requires) though transformers 5.24.0 builds
them: each drawn on random small configs and compared tensor by tensor with transformers on the meta device (names,
shapes, aliases, total, named_parameters() order, buffers); where transformers refuses the config, paramledger
refuses it in one line naming the key (docs/notes/requires-req2.md)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

import paramledger
from paramledger._exceptions import ArchitectureError, ParamledgerError
from paramledger.reference import build_reference

from _family_configs_req2 import CONFIGS_REQ2, REFUSED_REQ2
from test_buffers import ours, reference
from test_families import assert_matches_reference

EXAMPLES = settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))


@pytest.mark.parametrize("name", sorted(CONFIGS_REQ2))
def test_drawn_key_matches_transformers(name):
    @EXAMPLES
    @given(CONFIGS_REQ2[name])
    def check(config):
        assert_matches_reference(config)
        assert ours(config) == reference(config)  # buffers: name, shape, dtype, persistence

    check()


@pytest.mark.parametrize("model_type", sorted(REFUSED_REQ2))
def test_what_transformers_refuses_is_refused_in_one_line(model_type):
    @EXAMPLES
    @given(REFUSED_REQ2[model_type])
    def check(config):
        with pytest.raises(ParamledgerError, match="transformers"):  # (the reference cannot build it either)
            build_reference(config)
        with pytest.raises(ArchitectureError) as refused:
            paramledger.load(config)
        assert "\n" not in str(refused.value)

    check()


@pytest.mark.parametrize("config, message", [
    ({"model_type": "ibert", "hidden_act": "relu"},
     r"config: hidden_act: 'relu' is refused by transformers 5\.24\.0: IBertIntermediate supports only 'gelu'"),
    ({"model_type": "ibert", "hidden_act": None}, r"config: hidden_act: null is refused by transformers 5\.24\.0"),
    ({"model_type": "albert", "inner_group_num": 0}, r"config: inner_group_num: 0 is not a positive integer"),
    ({"model_type": "deberta-v2", "conv_kernel_size": 3, "conv_groups": 5},
     r"config: conv_groups: 5 does not divide hidden_size=1536 \(transformers 5\.24\.0 refuses it"),
    ({"model_type": "deberta-v2", "conv_kernel_size": 3, "conv_groups": 0},
     r"config: conv_groups: 0 is refused by transformers 5\.24\.0"),
    ({"model_type": "albert", "inner_group_num": 10**9},
     r"config: inner_group_num: 1,000,000,000 layers in each of 1 groups are beyond the bound of 10,000,000"),
    ({"model_type": "convbert", "num_groups": 10**20}, r"config: num_groups: .* is beyond the bound of"),
    ({"model_type": "deberta-v2", "conv_kernel_size": 10**20}, r"config: conv_kernel_size: .* is beyond the bound of"),
    ({"model_type": "esm", "vocab_size": 33, "add_cross_attention": True},
     r"config: add_cross_attention: needs is_decoder true"),
])
def test_refusal_names_the_key(config, message):
    with pytest.raises(ArchitectureError, match=message):
        paramledger.load(config)


@pytest.mark.parametrize("model_type", ["layoutlm", "luke", "mobilebert", "mra", "squeezebert", "yoso"])
def test_ignored_cross_attention_counts_as_false(model_type):
    """These classes build no crossattention whatever add_cross_attention says: the same count, no note."""
    plain = paramledger.inventory({"model_type": model_type})
    flagged_arch = paramledger.load({"model_type": model_type, "add_cross_attention": True, "is_decoder": True})
    assert paramledger.inventory(flagged_arch).total == plain.total
    assert not any("not understood" in note for note in flagged_arch.notes)


def test_albert_names_each_layer_in_its_group():
    """Layer i sits in group i // inner_group_num as its layer i % inner_group_num, in named_parameters() order."""
    config = {"model_type": "albert", "num_hidden_groups": 2, "inner_group_num": 3, "hidden_size": 8,
              "num_attention_heads": 2, "intermediate_size": 8, "embedding_size": 4, "vocab_size": 10}
    arch = paramledger.load(config)
    assert arch.num_hidden_layers == 6
    names = [t.name for t in paramledger.inventory(arch).tensors if ".albert_layers." in t.name and
             t.name.endswith("full_layer_layer_norm.weight")]
    assert names == [f"albert.encoder.albert_layer_groups.{g}.albert_layers.{j}.full_layer_layer_norm.weight"
                     for g in range(2) for j in range(3)]


@pytest.mark.parametrize("config, change, message", [
    ({"model_type": "albert", "inner_group_num": 2}, {"num_hidden_layers": 3},
     r"num_hidden_layers: 3 is not a whole number of groups of inner_group_num=2"),
    ({"model_type": "albert", "inner_group_num": 2}, {"inner_group_num": 3},
     r"num_hidden_layers: 2 is not a whole number of groups of inner_group_num=3"),
    ({"model_type": "deberta-v2", "conv_kernel_size": 3}, {"encoder_conv_groups": 5},
     r"encoder_conv_groups: 5 does not divide hidden_size=1536"),
])
def test_a_change_transformers_could_not_build_is_refused(config, change, message):
    """--set on a read config: a depth that splits a group, conv groups that do not divide the width."""
    with pytest.raises(ArchitectureError, match=message):
        paramledger.load(config, **change)


def test_albert_at_another_depth_keeps_its_groups():
    arch = paramledger.load({"model_type": "albert", "inner_group_num": 2}, num_hidden_layers=4)
    names = {t.name.split(".albert_layers.")[0] for t in paramledger.inventory(arch).tensors if "albert_layers" in t.name}
    assert names == {"albert.encoder.albert_layer_groups.0", "albert.encoder.albert_layer_groups.1"}


@pytest.mark.parametrize("cross, groups, encoder", [(False, 1, None), (True, 1, 1), (True, 3, 1), (True, 1, None)])
def test_convbert_cross_attention_flops_match_torch(cross, groups, encoder):
    """One token through ConvBertForMaskedLM as a decoder, over one encoder token (ConvBertSelfAttention views the
    encoder's keys at the decoder's length: transformers' own forward fails on a longer encoder), eager attention."""
    import torch
    import transformers
    from torch.utils.flop_counter import FlopCounterMode

    from paramledger.compute import forward_flops_per_token

    config = {"model_type": "convbert", "vocab_size": 50, "hidden_size": 48, "num_attention_heads": 4,
              "intermediate_size": 36, "embedding_size": 48, "num_hidden_layers": 2, "head_ratio": 2,
              "conv_kernel_size": 5, "is_decoder": True, "add_cross_attention": cross, "num_groups": groups}
    ours = forward_flops_per_token(paramledger.load(config), 1, encoder_length=encoder).total
    hf = transformers.ConvBertConfig(**{k: v for k, v in config.items() if k != "model_type"},
                                     attn_implementation="eager")
    model = transformers.ConvBertForMaskedLM(hf).eval()
    states = {"encoder_hidden_states": torch.randn(1, encoder, 48)} if encoder else {}
    with torch.no_grad(), FlopCounterMode(display=False) as counter:
        model(input_ids=torch.tensor([[3]]), **states)
    assert ours == counter.get_total_flops()
