"""Issue 23, the items left at the last landing: every per-layer sum works per kind of layer, so depth costs
no Python step per layer.  Each run in a child of its own, held to 10 s and 300 MB of peak RSS (the pattern
of test_reliability_scale.py; on the machine this was written on each takes 0.1-1.8 s and 20-210 MB):
- memory at 10^7 layers with --tokens (the KV cache, the recurrent state and FLOPs summed per run of a kind;
  5.7 s and 1.3 GB before, walking every layer);
- formula at 10^7 layers (524 MB before: the traced stand-in's layers and each check's held at once);
- a hybrid (Mamba + attention, Jamba and Nemotron-H) at 10^6 layers through every command (count 3.8 s
  before: the builder listed one block per layer; the blocks are now looked up in the layer plan on use);
- the API at its bound of 10^6 layers on a hybrid, the fit panel included (fit's caches per stage counted per run).
Since a family config's lists repeat per period at a new depth (fc7d01b), Jamba's and Nemotron-H's kinds alternate
every layer: the views read each kind once (StampedTensors.layer_kinds), its layers offsets of the period."""

from __future__ import annotations

import dataclasses
import json

import pytest
from _cli_refusal import refused_by_the_cli
from test_reliability_scale import ask, bounded

import paramledger
from paramledger.design.flat import layer_plan
from paramledger.kvcache import kv_cache, layer_runs

DEEP = "num_hidden_layers=10000000"
HYBRIDS = ["AI21-Jamba-1.5-Mini", "NVIDIA-Nemotron-3-Nano-30B-A3B-BF16"]
MILLION = "num_hidden_layers=1000000"


@pytest.mark.parametrize("json_flag", [(), ("--json",)])
def test_memory_of_ten_million_layers_with_tokens(tmp_path, json_flag):
    out = bounded(tmp_path, "memory", "seed-baseline", "--set", DEEP, "--tokens", "1000", "--flops", *json_flag)
    if json_flag:
        data = json.loads(out)
        assert data["kv_values_per_token"] == 5_120_000_000 and data["kv_cache_bytes"] == 20_971_520_000_000
    else:
        assert "5,120,000,000 values per token" in out and "keys and values of 10000000 layers" in out


@pytest.mark.parametrize("model", ["Qwen3-Next-80B-A3B-Instruct", "gemma-2-27b", "gpt-oss-20b"])
def test_memory_of_a_million_layers_of_several_kinds(tmp_path, model):
    """Linear attention beside full attention (a fixed state and keys), and sliding layers by layer_types."""
    data = json.loads(bounded(tmp_path, "memory", model, "--set", MILLION, "--tokens", "1000", "--json"))
    assert data["kv_cache_bytes"] > 0


def test_formula_of_ten_million_layers(tmp_path):
    pytest.importorskip("sympy")
    out = bounded(tmp_path, "formula", "Llama-2-13b-hf", "--set", DEEP)
    assert "L" in out


# The views that walked every run of a design whose kinds alternate each layer (Jamba's expert period at 10^6 layers:
# 10^6 runs) took 3-5 s and 330-410 MB at e4f5d13; they now read each kind once, its layers offsets of the period
# (_layers.periodic_kinds), and formula verifies a hybrid's form (the new layers of its perturbed designs are of the
# kind the form grows; before, every hybrid was refused as having no closed form).
@pytest.mark.parametrize("model", HYBRIDS)
@pytest.mark.parametrize("argv", [["count"], ["count", "--json"], ["memory"], ["memory", "--json"],
                                  ["compare", "SELF", "--tensors"], ["formula"], ["report", "-o", "r.html"]])
def test_a_hybrid_of_a_million_layers(tmp_path, model, argv):
    if argv[0] == "formula":
        pytest.importorskip("sympy")
    command, *rest = argv
    rest = [model if word == "SELF" else word for word in rest]
    out = bounded(tmp_path, command, model, *rest, "--set", MILLION)
    if argv == ["count", "--json"]:
        data = json.loads(out)
        assert data["architecture"]["num_hidden_layers"] == 1_000_000


@pytest.mark.parametrize("model", HYBRIDS)
def test_whatif_of_a_hybrid_to_a_million_layers(tmp_path, model):
    assert "num_hidden_layers" in bounded(tmp_path, "whatif", model, "--vary", MILLION)


@pytest.mark.parametrize("route", ["count", "view", "memory", "fit?gpu=h100", "fit/view?gpu=h100"])
def test_api_answers_a_hybrid_at_the_bound(tmp_path, route):
    name, _, query = route.partition("?")
    status, body = ask(tmp_path, f"api/{name}?source=AI21-Jamba-1.5-Mini&num_hidden_layers=1000000"
                                 + (f"&{query}" if query else ""))
    assert status == 200, body


@pytest.mark.parametrize("model", ["gemma-2-27b", "gemma-3-1b-it", "gpt-oss-20b", "Qwen3-Next-80B-A3B-Instruct",
                                   "gemma-4-31B-it", "AI21-Jamba-1.5-Mini", "Mistral-7B-v0.1"])
def test_runs_of_layers_are_the_layers_grouped(model):
    """layer_runs (each distinct Layer and sliding flag found by C scans) against the layers walked one by one:
    the same runs, first layers and counts, and KVCache.layers (made from them) as each layer's own cache."""
    arch = paramledger.load(model, num_hidden_layers=61)
    plan = layer_plan(arch)
    walked: dict[tuple[int, bool], list[int]] = {}
    for i, (layer, sliding) in enumerate(zip(plan.layers, arch.sliding_layers())):
        walked.setdefault((id(layer), sliding), []).append(i)
    runs = layer_runs(arch)
    assert [(id(r.layer), r.sliding, r.first, r.layers) for r in runs] == \
        [(key[0], key[1], at[0], len(at)) for key, at in walked.items()]
    cache = kv_cache(arch, 4096)
    assert [c.layer for c in cache.layers] == list(range(61))
    for run, (layer_cache, n) in zip(runs, cache.runs):
        assert n == run.layers
        for i in walked[(id(run.layer), run.sliding)]:
            assert dataclasses.replace(cache.layers[i], layer=run.first) == layer_cache


def test_count_json_of_alternating_kinds_gives_each_layer_total_once(tmp_path):
    """Qwen3-Next's 3 linear-attention layers and 1 full, 10^6 deep: 500,000 runs of alike layers, given as one
    entry per layer total past render.LISTED_RUNS runs; every layer in exactly one entry."""
    data = json.loads(bounded(tmp_path, "count", "Qwen3-Next-80B-A3B-Instruct", "--set", MILLION, "--json"))
    by_layer = data["by_layer"]
    assert list(by_layer) == ["outside", "0-999998, 750,000 layers in 250,000 runs",
                              "3-999999, 250,000 layers in 250,000 runs"]
    layers = [int(key.split(", ")[1].split()[0].replace(",", "")) for key in list(by_layer)[1:]]
    assert by_layer["outside"] + sum(n * total for n, total in zip(layers, list(by_layer.values())[1:])) \
        == data["total"]


def test_gpu_memory_utilization_past_a_float_is_one_line(tmp_path):
    """Found by the slow input fuzzer (fit, 4,355 examples): 1e400 raised OverflowError formatting its refusal."""
    from test_reliability_inputs import refused_bounded

    refused_bounded(tmp_path, "fit", "seed-1.1b", "--gpu-memory", "24GB", "--gpu-memory-utilization", "1e400",
                    match=r"--gpu-memory-utilization: must be in \(0, 1\], got a number past 1e300")


@pytest.mark.parametrize(("config", "key"), [
    ({"model_type": "hy_v4_vl", "vision_config": {"num_hidden_layers": 10**8}}, "vision_config.num_hidden_layers"),
    ({"model_type": "qwen2_vl", "vision_config": {"depth": 10**7}}, "vision_config.depth"),
    ({"model_type": "qwen2_audio", "audio_config": {"encoder_layers": 10_001}}, "audio_config.encoder_layers"),
])
def test_a_tower_past_its_layer_bound_is_one_line(tmp_path, config, key):
    """A tower's tensors are named layer by layer: HY-V4-VL's at 10^8 layers ran for minutes before the bound."""
    refused_by_the_cli(tmp_path, json.dumps(config), f"{key}: ")
    refused_by_the_cli(tmp_path, json.dumps(config), "is beyond the bound of 10,000 a tower's layers are named to")


def test_a_tower_at_its_layer_bound_counts(tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"model_type": "hy_v4_vl", "vision_config": {"num_hidden_layers": 10_000}}))
    assert "total" in bounded(tmp_path, "count", str(path))
