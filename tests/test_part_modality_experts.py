"""ERNIE 4.5 VL's modality-isolated experts part against transformers 5.24.0's Ernie4_5_VLMoeMoeBlock built alone:
its tensors (names, shapes, order: the text experts, the vision experts, the shared experts where
moe_num_shared_experts > 0, biased by use_bias), and a text token's share of them (no vision expert)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from _part_reference import built, module_tensors, part_tensors
from paramledger.parts.modality_experts import ModalityExperts, text_token_share

sizes = st.fixed_dictionaries({
    "hidden_size": st.sampled_from([4, 8, 16]),
    "moe_num_experts": st.integers(1, 6),
    "moe_num_shared_experts": st.integers(0, 2),
    "moe_intermediate_size": st.lists(st.integers(1, 12), min_size=2, max_size=2),
    "use_bias": st.booleans(),
})


def _block(drawn: dict, device: str = "cpu"):
    from transformers.models.ernie4_5_vl_moe.configuration_ernie4_5_vl_moe import Ernie4_5_VLMoeTextConfig
    from transformers.models.ernie4_5_vl_moe.modeling_ernie4_5_vl_moe import Ernie4_5_VLMoeMoeBlock

    config = Ernie4_5_VLMoeTextConfig(vocab_size=16, num_hidden_layers=2, num_attention_heads=2, moe_k=1, **drawn)
    return config, built(lambda: Ernie4_5_VLMoeMoeBlock(config), None, device)


def _part(config) -> ModalityExperts:
    text, vision = config.moe_intermediate_size[:2]
    return ModalityExperts(config.hidden_size, config.moe_num_experts, text, vision,
                           text * config.moe_num_shared_experts, config.use_bias)


@given(drawn=sizes)
def test_tensors_are_the_blocks_in_its_order(drawn):
    config, block = _block(drawn)
    assert part_tensors(_part(config)) == module_tensors("mlp.", block)


def test_class_defaults():
    config, block = _block({}, device="meta")
    assert part_tensors(_part(config)) == module_tensors("mlp.", block)


def test_a_text_token_reads_no_vision_expert():
    from paramledger.inventory import Tensor

    vision = Tensor("model.layers.1.mlp.vision_moe.experts.down_proj", (4, 8, 2), "experts", 1, False, 4)
    text = Tensor("model.layers.1.mlp.text_moe.experts.down_proj", (4, 8, 2), "experts", 1, False, 4)
    assert (text_token_share(vision), text_token_share(text)) == (0, 16)
