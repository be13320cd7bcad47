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
