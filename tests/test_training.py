"""Training memory: bytes per parameter by recipe, frozen tensors, ZeRO sharding."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

import paramledger
from paramledger._exceptions import OptionError
from paramledger.training import RECIPES, training_memory
from strategies import architectures

SEED = 1_128_892_416  # seed 002's ~1.1B budget


@pytest.mark.parametrize("recipe", ["fp32-adam", "bf16-mixed-adam", "fp16-mixed-adam", "fp32", "bf16-mixed"])
def test_sixteen_bytes_per_parameter(recipe):
    memory = training_memory(paramledger.inventory("seed-1.1b"), recipe)
    assert memory.total == 16 * SEED
    assert "activations not included" in memory.definition


def test_bf16_mixed_parts():
    memory = training_memory(paramledger.inventory("seed-1.1b"), "bf16-mixed-adam")
    assert (memory.weights, memory.gradients, memory.optimizer) == (2 * SEED, 2 * SEED, 12 * SEED)


@pytest.mark.parametrize(("stage", "weights", "gradients", "optimizer"), [
    (0, 2 * SEED, 2 * SEED, 12 * SEED),
    (1, 2 * SEED, 2 * SEED, 12 * SEED // 8),
    (2, 2 * SEED, 2 * SEED // 8, 12 * SEED // 8),
    (3, 2 * SEED // 8, 2 * SEED // 8, 12 * SEED // 8),
])
def test_zero_stages_shard_in_order(stage, weights, gradients, optimizer):
    memory = training_memory(paramledger.inventory("seed-1.1b"), "bf16-mixed-adam", stage, 8)
    assert (memory.weights, memory.gradients, memory.optimizer) == (weights, gradients, optimizer)


def test_a_shard_rounds_up_to_a_byte():
    inv = paramledger.inventory("seed-baseline")  # 13,110,528 parameters
    memory = training_memory(inv, "fp32-adam", 3, 7)
    assert memory.weights == -(-4 * 13_110_528 // 7)


def test_frozen_tensors_keep_weights_but_no_gradients_or_states():
    arch = paramledger.load("seed-1.1b", frozen=["model.embed_tokens.weight"])
    memory = training_memory(paramledger.inventory(arch), "fp32-adam")
    table = 32_000 * 2048
    assert memory.weights == 4 * SEED
    assert memory.gradients == 4 * (SEED - table)
    assert memory.optimizer == 8 * (SEED - table)


@given(arch=architectures(), devices=st.integers(1, 64), stage=st.integers(0, 3))
def test_sharding_never_adds_memory(arch, devices, stage):
    inv = paramledger.inventory(arch)
    alone = training_memory(inv, "bf16-mixed-adam")
    shared = training_memory(inv, "bf16-mixed-adam", stage, devices)
    assert shared.total <= alone.total
    assert alone.total == 16 * inv.total


def test_training_through_the_cli(cli):
    status, out, err = cli("memory", "seed-1.1b", "--training", "bf16-mixed", "--zero", "3", "--devices", "8",
                           "--json")
    assert status == 0, err
    training = json.loads(out)["training"]
    assert training["total_bytes"] == 16 * SEED // 8
    assert "ZeRO stage 3 over 8 devices" in training["definition"]


def test_every_recipe_says_what_it_holds():
    assert all("bytes/param" in recipe.description for recipe in RECIPES.values())


@pytest.mark.parametrize(("kwargs", "message"), [
    (dict(recipe="sgd"), r"training: unknown recipe 'sgd'"),
    (dict(recipe="bf16-mixed-adamw"), r"\(did you mean 'bf16-mixed-adam'\?\)"),
    (dict(zero_stage=2), r"zero: stage 2 shards over devices: give --devices N"),
    (dict(zero_stage=5, devices=2), r"zero: ZeRO stage must be 0, 1, 2 or 3, got 5"),
    (dict(zero_stage=1, devices=-2), r"devices: must be a whole number of at least 1, got -2"),
])
def test_refusals(kwargs, message):
    with pytest.raises(OptionError, match=message):
        training_memory(paramledger.inventory("seed-baseline"), **kwargs)
