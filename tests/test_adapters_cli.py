"""count/memory --lora: adapter files and inline specs, LoRA and QLoRA memory, and the refusals PEFT makes on the
same input (one line, exit 2)."""

from __future__ import annotations

import json

import pytest

import paramledger
from paramledger._exceptions import AdapterError
from paramledger.adapters import lora_inventory, read_adapter
from paramledger.cli import main

from test_adapters import LLAMA, peft_model

Q_V = "r=16,target_modules=q_proj+v_proj"


def run_json(capsys, *argv: str) -> dict:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_adapter_config_json_and_its_folder_count_as_the_inline_spec(tmp_path, capsys):
    (tmp_path / "adapter_config.json").write_text(json.dumps({
        "peft_type": "LORA", "task_type": "CAUSAL_LM", "r": 16, "lora_alpha": 32, "lora_dropout": 0.05,
        "target_modules": ["v_proj", "q_proj"], "base_model_name_or_path": "meta-llama/Llama-3.2-1B"}))
    inline = run_json(capsys, "count", "Llama-3.2-1B", "--lora", Q_V + ",lora_alpha=32")
    for adapter in (tmp_path, tmp_path / "adapter_config.json"):
        out = run_json(capsys, "count", "Llama-3.2-1B", "--lora", str(adapter))
        assert (out["trainable"], out["total"]) == (inline["trainable"], inline["total"]) == (1_703_936,
                                                                                                1_237_518_336)


def test_manifest_lists_peft_names(capsys):
    out = run_json(capsys, "count", "Llama-3.2-1B", "--lora", Q_V, "--manifest")
    names = [t["name"] for t in out["tensors"]]
    assert names[:4] == ["base_model.model.model.embed_tokens.weight",
                         "base_model.model.model.layers.0.self_attn.q_proj.base_layer.weight",
                         "base_model.model.model.layers.0.self_attn.q_proj.lora_A.default.weight",
                         "base_model.model.model.layers.0.self_attn.q_proj.lora_B.default.weight"]
    lora_a = out["tensors"][2]
    assert (lora_a["shape"], lora_a["frozen"], lora_a["component"]) == ([16, 2048], False, "adapter")
    assert out["aliases"] == {"base_model.model.lm_head.weight": "base_model.model.model.embed_tokens.weight"}


def test_inline_spec_lists_mappings_and_regexes():
    spec = read_adapter(r"r=8,target_modules=.*\.(q|v)_proj,rank_pattern=q_proj:4+v_proj:2")
    assert spec.target_modules == r".*\.(q|v)_proj" and spec.rank_pattern == {"q_proj": 4, "v_proj": 2}
    spec = read_adapter("r=8,target_modules=q_proj,layers_to_transform=0+3,modules_to_save=lm_head,use_dora=true")
    assert spec.layers_to_transform == (0, 3) and spec.modules_to_save == ("lm_head",) and spec.use_dora


def test_qlora_memory_base_at_nf4_adapter_at_bf16_optimizer_for_the_adapter_only(capsys):
    out = run_json(capsys, "memory", "Llama-3.2-1B", "--lora", Q_V, "--dtype", "nf4", "--training",
                   "bf16-mixed-adam")
    base = run_json(capsys, "memory", "Llama-3.2-1B", "--dtype", "nf4")
    adapter = 1_703_936
    assert out["weights_bytes"] == base["weights_bytes"] + 2 * adapter  # the base at nf4, the adapter at bf16
    rotary = 2 * 4 * 32  # RoPE's float32 tables
    assert out["weights_bytes_by_dtype"] == {"nf4": base["weights_bytes"] - rotary, "bf16": 2 * adapter, "fp32": rotary}
    training = out["training"]
    assert training["weights_bytes"] == out["weights_bytes"]
    assert training["gradients_bytes"] == 2 * adapter
    assert training["optimizer_bytes"] == 12 * adapter  # fp32 master weights and both Adam moments
    assert "frozen ones at nf4, the trainable ones at bf16" in training["definition"]


def test_lora_memory_with_zero_shards_the_trainable_states(capsys):
    out = run_json(capsys, "memory", "Llama-3.2-1B", "--lora", Q_V, "--dtype", "int8", "--training",
                   "fp32-adam", "--zero", "2", "--devices", "4")
    adapter = 1_703_936
    assert out["training"]["gradients_bytes"] == 4 * adapter // 4
    assert out["training"]["optimizer_bytes"] == 8 * adapter // 4
    assert out["weights_bytes_by_dtype"]["fp32"] == 4 * adapter + 2 * 4 * 32  # and RoPE's float32 tables


def _refused(capsys, *argv: str) -> str:
    assert main(list(argv)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    return err


def test_target_matching_no_module_is_refused_as_peft_refuses_it(capsys):
    with pytest.raises(ValueError, match="Target modules .* not found in the base model"):
        peft_model(LLAMA, r=4, target_modules=["qq_proj"])
    err = _refused(capsys, "count", "Llama-3.2-1B", "--lora", "r=4,target_modules=qq_proj")
    assert "--lora: target_modules: Target modules ['qq_proj'] not found in the base model" in err


@pytest.mark.parametrize("spec", ["r=0,target_modules=q_proj", "r=-2,target_modules=q_proj",
                                  "r=4,target_modules=q_proj,rank_pattern=q_proj:0"])
def test_rank_not_positive_is_refused(capsys, spec):
    with pytest.raises(ValueError, match="`r` should be a positive integer value"):
        peft_model(LLAMA, r=0, target_modules=["q_proj"])
    assert "should be a positive integer value but the value passed is" in _refused(
        capsys, "count", "Llama-3.2-1B", "--lora", spec)


def test_target_that_is_no_linear_is_refused():
    inv = paramledger.inventory(paramledger.load(LLAMA))
    with pytest.raises(ValueError, match="is not supported"):
        peft_model(LLAMA, r=4, target_modules=["input_layernorm"])
    with pytest.raises(AdapterError, match=r"model.layers.0.input_layernorm is not supported \(no nn.Linear"):
        lora_inventory(inv, "r=4,target_modules=input_layernorm")


def test_adapter_for_another_model_type_is_refused(tmp_path, capsys):
    (tmp_path / "adapter_config.json").write_text(json.dumps({"r": 8, "target_modules": ["q_proj"],
                                                              "base_model_name_or_path": "openai/gpt-oss-20b"}))
    err = _refused(capsys, "count", "Llama-3.2-1B", "--lora", str(tmp_path))
    assert "base_model_name_or_path: openai/gpt-oss-20b is a gpt_oss model; the adapter cannot go on" in err


def test_adapter_for_another_model_of_the_type_is_reported(tmp_path, capsys):
    (tmp_path / "adapter_config.json").write_text(json.dumps({"r": 8, "target_modules": ["q_proj"],
                                                              "base_model_name_or_path": "meta-llama/Llama-3.1-8B"}))
    out = run_json(capsys, "count", "Llama-3.2-1B", "--lora", str(tmp_path))
    assert "the adapter names meta-llama/Llama-3.1-8B as its base model; counted on meta-llama/Llama-3.2-1B" \
        in out["notes"]


@pytest.mark.parametrize("spec, message", [
    ("r=4,target_module=q_proj", "target_module: not a LoraConfig field (did you mean 'target_modules'?)"),
    ("r=4,target_modules=q_proj,bias=some", "bias: 'some' is not implemented; one of none, all, lora_only"),
    ("r=4,peft_type=IA3,target_modules=q_proj", "peft_type: 'IA3': only LoRA adapters are counted"),
    ("r=4,target_modules=q_proj,layer_replication=0+1", "layer_replication: adds tensors paramledger does not"),
    (r"r=4,target_modules=.*q_proj,layers_to_transform=0", "layers_to_transform: cannot be used when target_"),
    ("r=4,target_modules=q_proj,layers_pattern=layers", "layers_pattern: needs layers_to_transform as well"),
    ("r=4,target_modules=q_proj,exclude_modules=q_proj", "No modules were targeted for adaptation: ['q_proj']"),
    ("r=4,target_modules=q_proj,use_dora=true,lora_bias=true", "lora_bias: is not supported with use_dora"),
    ("r4", "spec: expected KEY=VALUE, got 'r4'"),
])
def test_bad_specs_are_one_line(capsys, spec, message):
    assert message in _refused(capsys, "count", "Llama-3.2-1B", "--lora", spec)


def test_unreadable_adapter_file_is_one_line(tmp_path, capsys):
    (tmp_path / "adapter_config.json").write_text("{not json")
    assert "file: not a readable JSON file" in _refused(capsys, "count", "Llama-3.2-1B", "--lora",
                                                        str(tmp_path / "adapter_config.json"))
    assert "adapter_config.json: not found in the folder" in _refused(capsys, "count", "Llama-3.2-1B", "--lora",
                                                                      str(tmp_path / ".."))
