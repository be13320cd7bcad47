"""LoRA adapters against PEFT 0.21.2 itself: get_peft_model on transformers' meta-device model, compared tensor by
tensor (names, shapes, trainable or frozen, in named_parameters() order) and by get_nb_trainable_parameters()."""

from __future__ import annotations

import contextlib
import io
import json
import warnings

import pytest

import paramledger
from paramledger import families
from paramledger._exceptions import AdapterError
from paramledger.adapters import lora_inventory
from paramledger.cli import main

peft = pytest.importorskip("peft")
torch = pytest.importorskip("torch")


def peft_model(config: dict, **lora: object):
    """get_peft_model(<Family>ForCausalLM, or a multimodal family's whole model, on the meta device,
    LoraConfig(**lora))."""
    from paramledger.reference import auto_class, causal_lm_config, hf_config

    cfg = hf_config(config)
    if families.get(config["model_type"]).text_decoder_only:
        cfg = causal_lm_config(cfg)
    with warnings.catch_warnings(), contextlib.redirect_stderr(io.StringIO()):
        warnings.simplefilter("ignore")
        with torch.device("meta"):
            model = auto_class(cfg).from_config(cfg)
        return peft.get_peft_model(model, peft.LoraConfig(**lora))


def assert_matches_peft(config: dict, **lora: object) -> paramledger.Inventory | None:
    """Our adapted inventory equals PEFT's model, or both refuse the adapter (PEFT's ValueError, our AdapterError)."""
    base = paramledger.inventory(paramledger.load(config))
    try:
        reference = peft_model(config, **lora)
    except ValueError as refusal:
        with pytest.raises(AdapterError):
            lora_inventory(base, _spec(lora))
        return print(f"both refuse: {refusal}")
    ours = lora_inventory(base, _spec(lora))
    theirs = [(name, tuple(p.shape), not p.requires_grad) for name, p in reference.named_parameters()]
    mine = [(t.name, t.shape, t.frozen) for t in ours.tensors]
    assert sorted(mine) == sorted(theirs)
    assert mine == theirs  # named_parameters() order
    trainable, total = reference.get_nb_trainable_parameters()
    assert (ours.trainable, ours.total, ours.frozen) == (trainable, total, total - trainable)
    seen: dict[int, str] = {}
    aliases = {}
    for name, p in reference.named_parameters(remove_duplicate=False):
        if id(p) in seen:
            aliases[name] = seen[id(p)]
        seen.setdefault(id(p), name)
    assert dict(ours.aliases) == aliases
    return ours


def _spec(lora: dict) -> dict:
    return {key: sorted(value) if isinstance(value, set) else value for key, value in lora.items()}


LLAMA = {"model_type": "llama", "vocab_size": 50, "hidden_size": 16, "intermediate_size": 24,
         "num_hidden_layers": 3, "num_attention_heads": 4, "num_key_value_heads": 2, "attention_bias": True,
         "tie_word_embeddings": False}
TIED = {**LLAMA, "tie_word_embeddings": True}


def test_acceptance_llama_3_2_1b_q_and_v(capsys):
    assert main(["count", "Llama-3.2-1B", "--lora", "r=16,target_modules=q_proj+v_proj", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["trainable"], out["total"]) == (1_703_936, 1_237_518_336)
    assert out["frozen"] == 1_235_814_400


@pytest.mark.parametrize("lora", [
    {"r": 4, "target_modules": ["q_proj", "v_proj"]},
    {"r": 4, "target_modules": "all-linear"},
    {"r": 4, "target_modules": r".*\.layers\.[02]\.(self_attn\.o_proj|mlp\.down_proj)"},
    {"r": 4, "target_modules": "all-linear", "exclude_modules": ["k_proj", "gate_proj"]},
    {"r": 4, "target_modules": "all-linear", "exclude_modules": r".*\.layers\.1\..*"},
    {"r": 4, "target_modules": ["q_proj", "down_proj"], "rank_pattern": {"down_proj": 2, r"layers\.0\.q_proj": 7},
     "alpha_pattern": {"q_proj": 3}},
    {"r": 4, "target_modules": ["q_proj", "up_proj"], "layers_to_transform": [0, 2]},
    {"r": 4, "target_modules": ["q_proj"], "layers_to_transform": 1, "layers_pattern": "layers"},
    {"r": 4, "target_modules": ["q_proj"], "modules_to_save": ["lm_head", "embed_tokens"]},
    {"r": 4, "target_modules": ["q_proj", "o_proj"], "bias": "all"},
    {"r": 4, "target_modules": ["q_proj", "o_proj"], "bias": "lora_only"},
    {"r": 4, "target_modules": ["q_proj", "gate_proj"], "use_dora": True},
    {"r": 4, "target_modules": ["q_proj", "embed_tokens"], "use_dora": True},
    {"r": 4, "target_modules": ["v_proj"], "lora_bias": True},
    {"r": 4, "target_modules": ["q_proj", "lm_head"]},
], ids=lambda lora: ",".join(f"{k}={v}" for k, v in lora.items())[:60])
@pytest.mark.parametrize("config", [LLAMA, TIED], ids=["untied", "tied"])
def test_options_match_peft(config, lora):
    assert_matches_peft(config, **lora)


def test_tied_head_saved_is_a_full_copy():
    inv = assert_matches_peft(TIED, r=4, target_modules=["q_proj"], modules_to_save=["lm_head"])
    copy = inv["base_model.model.lm_head.modules_to_save.default.weight"]
    assert copy.shape == (50, 16) and not copy.frozen
    assert inv.aliases == {"base_model.model.lm_head.original_module.weight": "base_model.model.model.embed_tokens.weight"}


def test_gpt2_conv1d_fan_in_fan_out():
    config = {"model_type": "gpt2", "vocab_size": 40, "n_embd": 12, "n_layer": 2, "n_head": 3, "n_positions": 16}
    assert_matches_peft(config, r=2, target_modules=["c_attn", "c_proj"], fan_in_fan_out=True)
    assert_matches_peft(config, r=2, target_modules="all-linear", bias="all")
    assert_matches_peft(config, r=3)  # PEFT's default targets for gpt2: c_attn


def test_phi3_fused_qkv():
    config = {"model_type": "phi3", "vocab_size": 40, "hidden_size": 16, "intermediate_size": 20,
              "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2, "pad_token_id": 0}
    assert_matches_peft(config, r=4, target_modules=["qkv_proj", "gate_up_proj"], use_dora=True)


MIXTRAL = {"model_type": "mixtral", "vocab_size": 40, "hidden_size": 16, "intermediate_size": 20,
           "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2, "num_local_experts": 4,
           "num_experts_per_tok": 2}
QWEN3_MOE = {"model_type": "qwen3_moe", "vocab_size": 40, "hidden_size": 16, "intermediate_size": 20,
             "moe_intermediate_size": 6, "num_hidden_layers": 3, "num_attention_heads": 4, "num_key_value_heads": 2,
             "num_experts": 4, "num_experts_per_tok": 2, "mlp_only_layers": [1]}
GPT_OSS = {"model_type": "gpt_oss", "vocab_size": 40, "hidden_size": 16, "intermediate_size": 8,
           "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 4,
           "num_local_experts": 4, "num_experts_per_tok": 2}


@pytest.mark.parametrize("config, lora", [
    (MIXTRAL, {"r": 2, "target_modules": ["q_proj"], "target_parameters": ["experts.gate_up_proj"]}),
    (MIXTRAL, {"r": 2, "target_modules": [], "target_parameters": ["gate_up_proj", "down_proj"]}),
    (MIXTRAL, {"r": 2, "target_modules": ["q_proj", "w1", "w3", "w2"]}),  # v4 names moved onto the fused experts
    (MIXTRAL, {"r": 2, "target_modules": "all-linear"}),
    (QWEN3_MOE, {"r": 2, "target_modules": ["gate_proj", "up_proj", "o_proj"]}),
    (QWEN3_MOE, {"r": 2, "target_modules": "all-linear"}),
    (QWEN3_MOE, {"r": 2, "target_modules": r".*\.(q_proj|down_proj)"}),
    (GPT_OSS, {"r": 2, "target_modules": ["q_proj"], "target_parameters": ["mlp.experts.gate_up_proj",
                                                                         "mlp.experts.down_proj"]}),
], ids=lambda v: v["model_type"] if "model_type" in v else str(v)[:50])
def test_moe_target_parameters_match_peft(config, lora):
    assert_matches_peft(config, **lora)
