"""Bundled multimodal releases (issue #16) against figures counted from their published checkpoints."""

from __future__ import annotations

import pytest

import paramledger


@pytest.mark.parametrize("name, tensors, total", [
    # Model-information reports in the search index (file ids 62543607479 and 62501178117; the same reports the
    # entries' config.json come from) list each checkpoint's safetensors: Qwen3-VL-8B-Instruct "权重张量数: 750,
    # 参数总量: 8,767,123,696"; Qwen3-VL-30B-A3B-Instruct "权重张量数: 882, 参数总量: 31,070,754,032" (its experts
    # stored fused, as transformers builds them: gate_up_proj [128, 2048, 1536] and down_proj [128, 768, 2048]).
    ("Qwen3-VL-8B-Instruct", 750, 8_767_123_696),
    ("Qwen3-VL-30B-A3B-Instruct", 882, 31_070_754_032),
])
def test_qwen3_vl_matches_its_checkpoint_listing(name, tensors, total):
    inv = paramledger.inventory(name)
    assert (len(inv.tensors), inv.total) == (tensors, total)


@pytest.mark.parametrize("name", ["Llama-3.2-90B-Vision-Instruct", "Kimi-K2.5", "EXAONE-4.5-33B"])
def test_release_keys_that_build_nothing_are_understood(name):
    """add_cross_attention (false in Llama 3.2 Vision's and Kimi K2.5's text_config) is read by no modeling file of
    their types; EXAONE 4.5's mtp keys describe a module transformers drops on load: no "not understood" note."""
    assert not any("not understood" in note for note in paramledger.load(name).notes)


def test_add_cross_attention_is_still_read_where_transformers_reads_it():
    notes = paramledger.load({"model_type": "llama", "add_cross_attention": True}).notes
    assert not any("not understood" in note for note in notes)  # LlamaDecoderLayer builds nothing more
    bert_decoder = {"model_type": "bert", "add_cross_attention": True, "is_decoder": True}
    assert paramledger.inventory(bert_decoder).total > \
        paramledger.inventory({"model_type": "bert"}).total
