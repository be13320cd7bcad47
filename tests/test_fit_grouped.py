"""fit places each kind of layer once past 1,000 layers (fit/_rows.py): the same bytes on every device as
placing every tensor (issue 23: a design of 10^6 layers took over 200 s and 4.5 GB)."""

from __future__ import annotations

import pytest

import paramledger
from paramledger.fit.plan import _device_weights, _Setup
from paramledger.fit.sharding import Parallel

CASES = [("Llama-3.1-8B", Parallel(tp=2, pp=3)), ("Mixtral-8x7B-v0.1", Parallel(tp=2, pp=2, expert_parallel=True)),
         ("gemma-3-4b-it", Parallel(tp=1, pp=4, layer_partition=(10, 6, 10, 8))), ("Llama-3.2-1B", Parallel(pp=2)),
         ("Qwen3-Next-80B-A3B-Instruct", Parallel(tp=2, pp=2)), ("DeepSeek-V3", Parallel(tp=8, pp=2))]


@pytest.mark.parametrize(("model", "parallel"), CASES, ids=[model for model, _ in CASES])
@pytest.mark.parametrize("dtype", ["bf16", "fp8_e4m3"])
def test_each_kind_placed_once_gives_what_every_tensor_placed_gives(model, parallel, dtype):
    setup = _Setup(paramledger.inventory(model))
    priced = setup.priced(dtype, ())
    assert _device_weights(setup, priced, parallel, grouped=True) == _device_weights(setup, priced, parallel,
                                                                                     grouped=False)
