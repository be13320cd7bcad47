"""One config key set another way, where paramledger and transformers disagreed (issue #15, scripts/flag_parity.py):
each case is a supported type's smallest random config (tests/_family_configs.py) with the key set in the section
its decoder reads (tests/_flag_parity.py), built by transformers 5.24.0 on the meta device inside the test.

AGREE: both count the same total, or both refuse (transformers' config class refuses it, or the build fails).
REFUSED: transformers builds it, paramledger refuses it in one line on purpose (a size of 0, a learned activation
paramledger does not place, a width transformers builds but cannot run): docs/notes/flag-parity.md says why.
"""

from __future__ import annotations

import json

import pytest

from _flag_parity import case
from _rope_parity import agree, paramledger_outcome, transformers_outcome

AGREE = [
    # given beside feed_forward_proj, is_gated_act and dense_act_fn win (PreTrainedConfig.__post_init__ sets the
    # kwargs after T5Config's own): gated wi_0 and wi_1 (31, not 29)
    *((model_type, "is_gated_act", True) for model_type in ("t5", "mt5", "umt5", "longt5", "udop")),
    ("t5", "dense_act_fn", "silu"), ("mt5", "is_gated_act", False), ("t5", "feed_forward_proj", "xielu"),
    ("step3p7", "mlp_bias", True),  # Step3p7MLP's biases (462, not 459)
    # Cohere2Config derives head_dim before the kwargs are set: a given one wins
    ("cohere2", "head_dim", 4), ("cohere_compass_text", "head_dim", 4), ("aya_vision", "head_dim", 4),
    ("recurrent_gemma", "head_dim", 4),
    # Qwen2Config declares no head_dim; Qwen2Attention reads getattr(config, "head_dim", ...) (was 50, built 72)
    ("qwen2", "head_dim", 4), ("qwen2_moe", "head_dim", 4), ("audioflamingo3", "head_dim", 4),
    ("qwen2_vl", "head_dim", 8), ("qwen2_5_vl", "head_dim", 8),  # (their attention does not: only their rotary)
    ("cosmos3_edge", "head_dim", 1),
    ("zamba2", "attention_head_dim", 5),  # odd and rotated whole: validate_rope reads it as head_dim (was counted 55)  # its mrope_section no longer sums to half of head_dim: both refuse (was 63)  # RecurrentGemmaConfig too (was read as count-neutral, scripts/combo_parity.py)
    # transformers cannot build these: refused in one line
    *((model_type, "use_bidirectional_attention", True) for model_type in ("gemma3", "gemma3_text", "shieldgemma2")),
    ("laguna", "moe_apply_router_weight_on_input", True), ("nystromformer", "inv_coeff_init_option", True),
    ("gemma3n_text", "num_kv_shared_layers", 1), ("mobilebert", "true_hidden_size", 0),
    ("mobilebert", "true_hidden_size", 1),  # a given width wins: built that wide, counted (57), noted unrunnable
    ("qwen2_moe", "decoder_sparse_step", 0), ("qwen3_moe", "decoder_sparse_step", 0),
    ("llama4_text", "interleave_moe_layer_step", 0), ("llama4_text", "no_rope_layer_interval", 0),
    ("inkling2_text", "n_layers_per_attn_res_block", 0), ("afmoe", "global_attn_every_n_layers", 0),
    ("step3p7", "query_pre_attn_scalar", 0), ("gemma2", "query_pre_attn_scalar", 0),
    ("gemma3", "query_pre_attn_scalar", 0), ("vaultgemma", "query_pre_attn_scalar", 0),
    ("t5gemma", "query_pre_attn_scalar", 0), ("t5gemma2", "query_pre_attn_scalar", 0),
    # a class that does not read query_pre_attn_scalar builds a 0 there like any key it ignores: counted
    ("llama", "query_pre_attn_scalar", 0), ("gemma", "query_pre_attn_scalar", 0),
    ("paligemma", "query_pre_attn_scalar", 0), ("olmo_hybrid", "linear_key_head_dim", 0),
    ("olmo_hybrid", "num_key_value_heads", 0), ("longcat_flash", "num_key_value_heads", 0),
    ("qwen4_exp_text", "shared_expert_intermediate_size", 0), ("mamba2", "head_dim", 0),
    ("longformer", "attention_window", 1), ("led", "attention_window", 3),
    ("modernbert", "classifier_pooling", "late"), ("big_bird", "attention_type", "relative_shift"),
    ("neomme", "hidden_act", "gelu"), ("openai-gpt", "afn", "gelu_new"),
    ("dory", "n_input_layers", 1), ("dory", "n_recurrent_loops", 0), ("cwm", "sliding_window", 0),
    ("kolibri1", "sliding_window", 0),
    # ReformerConfig derives num_hidden_layers from attn_layers, and a given one wins: that many layers
    ("reformer", "num_hidden_layers", 3), ("reformer", "num_hidden_layers", 0),
    ("mpnet", "vocab_size", 1), ("mpnet", "max_position_embeddings", 1),  # (padding_idx 1 whatever pad_token_id)
    # xIELU where paramledger places it exactly (the dense FFN's act)
    ("apertus", "hidden_act", "xielu"), ("llama", "hidden_act", "xielu"),
]

REFUSED = [
    ("llama", "hidden_act", "prelu", "'prelu' is not counted: nn.PReLU holds a weight"),
    ("bart", "activation_function", "prelu", "'prelu' is not counted"),
    ("bert", "hidden_act", "xielu", "'xielu' is not counted: XIELUActivation holds alpha_p and alpha_n"),
    ("deepseek_v4", "scoring_func", "xielu", "scoring_func: 'xielu' is not counted"),
    ("modernbert", "classifier_activation", "prelu", "classifier_activation: 'prelu' is not counted"),
    ("step3p7", "hidden_act", "xielu", "'xielu' is not counted"),
    ("gemma3n_text", "altup_num_inputs", 0, "altup_num_inputs: 0 is not counted"),
    ("gemma3n_text", "laurel_rank", 0, "laurel_rank: 0 is not counted"),
    ("olmo_hybrid", "linear_num_value_heads", 0, "linear_num_value_heads: must be a positive whole number"),
    ("minicpm3", "v_head_dim", 0, "v_head_dim: must be positive"),
]


@pytest.mark.parametrize("model_type, key, value", AGREE, ids=[f"{t}-{k}={v}" for t, k, v in AGREE])
def test_agrees_with_transformers(model_type, key, value):
    config = case(model_type, key, value)
    theirs, ours = transformers_outcome(config), paramledger_outcome(config)
    assert agree(theirs, ours), (theirs, ours)


@pytest.mark.parametrize("model_type, key, value, match", REFUSED, ids=[f"{t}-{k}={v}" for t, k, v, _ in REFUSED])
def test_refused_where_transformers_builds(model_type, key, value, match):
    config = case(model_type, key, value)
    assert transformers_outcome(config).startswith("builds ")
    ours = paramledger_outcome(config)
    assert ours.startswith("refuses: ") and match in ours and "\n" not in ours, ours


# what a class's config refuses in keys that size nothing in it (MoshiConfig's sub-configs: MoshiForCausalLM builds
# neither the depth decoder nor the audio encoder)
WHOLE_CONFIGS = [
    {"model_type": "moshi", "num_codebooks": 33}, {"model_type": "moshi", "num_codebooks": 32},
    {"model_type": "moshi", "num_codebooks": 10, "audio_encoder_config": {"num_quantizers": 8}},
    {"model_type": "moshi", "audio_encoder_config": {"num_codebooks": 8}},
    {"model_type": "moshi", "depth_decoder_config": {}},
    {"model_type": "moshi", "depth_decoder_config": {}, "audio_vocab_size": 5},
    {"model_type": "moshi", "depth_decoder_config": {}, "audio_encoder_config": {}},
    {"model_type": "moshi", "depth_decoder_config": []}, {"model_type": "moshi", "audio_encoder_config": 5},
]


@pytest.mark.parametrize("config", WHOLE_CONFIGS, ids=[json.dumps(c)[15:] for c in WHOLE_CONFIGS])
def test_whole_config_agrees_with_transformers(config):
    theirs, ours = transformers_outcome(config), paramledger_outcome(config)
    assert agree(theirs, ours), (theirs, ours)
    assert "\n" not in ours


@pytest.mark.parametrize("config", [
    {"model_type": "t5gemma", "encoder": {"query_pre_attn_scalar": 0}},
    {"model_type": "t5gemma", "decoder": {"query_pre_attn_scalar": 0}},
    {"model_type": "t5gemma2", "encoder": {"text_config": {"query_pre_attn_scalar": 0}}},
    {"model_type": "t5gemma2", "decoder": {"query_pre_attn_scalar": 0}},
], ids=["t5gemma-encoder", "t5gemma-decoder", "t5gemma2-encoder.text_config", "t5gemma2-decoder"])
def test_a_sections_divisor_of_0_is_refused_under_its_section(config):
    """T5Gemma's attention reads query_pre_attn_scalar from its own section (the top level's is ignored: AGREE)."""
    section = next(key for key in config if key != "model_type")
    inner = config[section]
    name = section + (".text_config" if "text_config" in inner else "")
    assert transformers_outcome(config).startswith("fails: ZeroDivisionError")
    assert paramledger_outcome(config).startswith(f"refuses: config: {name}.query_pre_attn_scalar: 0: ")


@pytest.mark.parametrize("config, said", [
    ({"model_type": "laguna", "moe_apply_router_weight_on_input": True},
     "moe_apply_router_weight_on_input: True: transformers 5.24.0 cannot build it"),
    ({"model_type": "gemma3_text", "use_bidirectional_attention": True, "sliding_window": None},
     "use_bidirectional_attention: true halves sliding_window, which is null"),
    ({"model_type": "llama", "hidden_act": "prelu"}, "hidden_act: 'prelu' is not counted"),
])
def test_refusal_is_one_line_and_status_2(cli, tmp_path, config, said):
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config))
    for command in ("count", "memory"):
        status, out, err = cli(command, str(path))
        assert status == 2 and not out
        assert err.strip().count("\n") == 0 and said in err, err
