"""`--dtype` takes llama-quantize's mixtures (Q4_K_M, Q8_0, ...): memory, its JSON and fit price each tensor
at the type quantization/gguf.py chooses for it (checked there against files the gguf package writes)."""

from __future__ import annotations

import json

import pytest

import paramledger
from paramledger.memory import weight_bytes
from paramledger.quantization.gguf import mixture_bytes


def test_memory_of_a_mixture_is_the_mixture_total(cli):
    status, out, _ = cli("memory", "Meta-Llama-3-8B", "--dtype", "Q4_K_M", "--json")
    report = json.loads(out)
    assert status == 0 and report["weights_bytes"] == 4_912_898_048  # 4.58 GiB, llama-quantize's figure
    assert report["dtype"] == "Q4_K_M" and set(report["weights_bytes_by_dtype"]) == {"Q4_K", "Q6_K", "F32"}


@pytest.mark.parametrize(("name", "mixture"), [("Qwen3-30B-A3B", "q5_k_s"), ("gpt-oss-20b", "MXFP4_MOE"),
                                               ("DeepSeek-V3", "IQ2_XXS"), ("gemma-2-2b", "Q8_0")])
def test_one_row_per_tensor_summing_what_the_converter_splits(name, mixture):
    inv = paramledger.inventory(name)
    weights = weight_bytes(inv, mixture)
    assert [row.name for row in weights.tensors] == [t.name for t in inv.tensors]
    assert weights.total == sum(row.bytes for row in weights.tensors) == mixture_bytes(inv, mixture).total


def test_fit_takes_a_mixture(cli):
    status, out, _ = cli("fit", "Meta-Llama-3-8B", "--dtype", "Q4_K_M", "--gpu", "rtx4090", "--context", "8k",
                         "--json")
    plan = json.loads(out)
    assert status == 0 and plan["fits"] and plan["per_device"][0]["weights_bytes"] == 4_912_898_048


@pytest.mark.parametrize(("argv", "key"), [
    (["--dtype", "Q4_KM"], "did you mean 'Q4_K_M'"),
    (["--dtype", "Q4_K_M", "--keep", "norm=fp32"], "--keep does not apply"),
    (["--dtype", "Q4_K_M", "--group-size", "64"], "own block sizes"),
])
def test_bad_input_is_one_line(cli, argv, key):
    status, out, err = cli("memory", "Meta-Llama-3-8B", *argv)
    assert status == 2 and out == "" and err.count("\n") == 1 and key in err
