"""The attribute_map of each config class paramledger reads a decoder's section with (transformers 5.24.0): an alias
key the class maps onto another (T5Config's hidden_size onto d_model, BartConfig's num_hidden_layers onto
encoder_layers).  PreTrainedConfig sets a keyword that is no dataclass field after the class's own __post_init__
(configuration_utils.py lines 499-506), through __setattr__'s attribute_map, so a given alias wins over its target:
T5 given hidden_size 2 beside d_model builds 56 where d_model alone built 29.  ``resolved`` writes each given alias
over its target before the family's table reads the section (issue #15; tests/test_attribute_maps.py checks this
table against transformers' classes and the counts against its builds).  Keyed by the reading family's model_type."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# the maps shared by four types or more (config classes copied from one parent's)
ROUTED = {"num_local_experts": "n_routed_experts"}
BART_LINE = {"hidden_size": "d_model", "num_attention_heads": "encoder_attention_heads",
             "num_hidden_layers": "encoder_layers"}
TO_LOCAL = {"num_experts": "num_local_experts"}
GPT2_LINE = {"hidden_size": "n_embd", "max_position_embeddings": "n_positions", "num_attention_heads": "n_head",
             "num_hidden_layers": "n_layer"}
FROM_LOCAL = {"num_local_experts": "num_experts"}
T5_LINE = {"head_dim": "d_kv", "hidden_size": "d_model", "num_attention_heads": "num_heads",
           "num_hidden_layers": "num_layers"}

# (without the hybrids' layer_types/layers_block_type aliases: a list their config classes read in __post_init__
# before the alias (Zamba 2's hybrid_layer_ids), which the families' own rules read or refuse as before)
MAPS: dict[str, dict[str, str]] = {
    **dict.fromkeys(("axk1", "axk2", "deepseek_v32", "dots1", "dots3_note_text", "glm4v_moe", "glm5_next",
        "glm_moe_dsa", "hy_v4", "hy_v4_vl", "mimo_v2_flash", "mistral4", "mistral_large4", "nemotron_h",
        "solar_open"), ROUTED),
    **dict.fromkeys(("bart", "blenderbot", "blenderbot-small", "m2m_100", "marian", "mbart", "mvp", "nllb-moe",
        "pegasus", "pegasus_x", "pp_formulanet"), BART_LINE),
    **dict.fromkeys(("gpt_oss", "kolibri1", "minimax", "minimax_m2", "minimax_m3_vl_text", "mixtral", "qwen3_moe",
        "qwen3_vl_moe"), TO_LOCAL),
    **dict.fromkeys(("codegen", "ctrl", "gpt-sw3", "gpt2", "gpt_bigcode", "gptj", "openai-gpt"), GPT2_LINE),
    **dict.fromkeys(("flex_olmo", "hy_v3", "jamba", "olmoe"), FROM_LOCAL),
    **dict.fromkeys(("longt5", "mt5", "t5", "umt5"), T5_LINE),
    "bailing_hybrid": {"max_position_embeddings": "model_max_length", "n_group": "num_expert_group",
        "n_shared_experts": "num_shared_experts", "norm_topk_prob": "moe_renormalize",
        "num_experts_per_tok": "num_experts_per_token", "num_local_experts": "num_experts",
        "num_mtp_layers": "num_nextn_predict_layers"},
    "bigbird_pegasus": {"attention_probs_dropout_prob": "attention_dropout", "hidden_size": "d_model",
        "num_attention_heads": "encoder_attention_heads", "num_hidden_layers": "encoder_layers"},
    "bloom": {"num_attention_heads": "n_head", "num_hidden_layers": "n_layer"},
    # (DBRX's hidden_size is left to families/dbrx.py: DbrxConfig sizes its ffn_config by d_model before the alias)
    "dbrx": {"max_position_embeddings": "max_seq_len", "num_attention_heads": "n_heads",
        "num_hidden_layers": "n_layers"},
    "deepseek_ocr2": {"num_experts": "n_routed_experts"},
    "deepseek_v2": {"num_experts": "n_routed_experts"},
    "deepseek_v3": {"num_local_experts": "n_routed_experts", "num_mtp_layers": "num_nextn_predict_layers"},
    "deepseek_v4": {"intermediate_size": "moe_intermediate_size", "num_local_experts": "n_routed_experts"},
    "distilbert": {"hidden_size": "dim", "num_attention_heads": "n_heads", "num_hidden_layers": "n_layers"},
    "ernie4_5_moe": {"num_experts": "moe_num_experts", "num_experts_per_tok": "moe_k"},
    "ernie4_5_vl_moe": {"num_experts": "moe_num_experts", "num_experts_per_tok": "moe_k"},
    "exaone": {"activation_function": "hidden_act", "layer_norm_epsilon": "rms_norm_eps",
        "num_layers": "num_hidden_layers"},
    "flaubert": {"bos_index": "bos_token_id", "eos_index": "eos_token_id", "hidden_size": "emb_dim",
        "n_words": "vocab_size", "num_attention_heads": "n_heads", "num_hidden_layers": "n_layers",
        "pad_index": "pad_token_id"},
    "fsmt": {"hidden_size": "d_model", "num_attention_heads": "encoder_attention_heads",
        "num_hidden_layers": "encoder_layers", "vocab_size": "tgt_vocab_size"},
    "funnel": {"hidden_size": "d_model", "num_attention_heads": "n_head"},
    "glm4_moe": {"num_local_experts": "n_routed_experts", "num_mtp_layers": "num_nextn_predict_layers"},
    "glm4_moe_lite": {"head_dim": "qk_rope_head_dim", "num_local_experts": "n_routed_experts"},
    "gpt_neo": {"num_attention_heads": "num_heads", "num_hidden_layers": "num_layers"},
    "hunyuan_v1_moe": {"num_experts_per_tok": "moe_topk", "num_local_experts": "num_experts"},
    "hunyuan_vl": {"attention_head_dim": "head_dim", "org_vocab_size": "vocab_size", "pad_id": "pad_token_id"},
    "inkling2_loop_text": {"intermediate_size": "moe_intermediate_size", "model_max_length": "max_position_embeddings",
        "num_local_experts": "n_routed_experts", "routed_scaling_factor": "route_scale",
        "sconv_kernel_size": "conv_kernel_size", "sliding_window": "sliding_window_size"},
    "inkling2_text": {"intermediate_size": "moe_intermediate_size", "model_max_length": "max_position_embeddings",
        "num_local_experts": "n_routed_experts", "routed_scaling_factor": "route_scale",
        "sconv_kernel_size": "conv_kernel_size", "sliding_window": "sliding_window_size"},
    "inkling_text": {"embedding_multiplier": "logits_mup_width_multiplier",
        "model_max_length": "max_position_embeddings", "num_local_experts": "n_routed_experts",
        "sconv_kernel_size": "conv_kernel_size", "sliding_window": "sliding_window_size"},
    "internlm3": {"bias": "mlp_bias", "qkv_bias": "attention_bias"},
    "jetmoe": {"head_dim": "kv_channels"},
    "kimi_linear": {"max_position_embeddings": "model_max_length", "n_group": "num_expert_group",
        "n_shared_experts": "num_shared_experts", "norm_topk_prob": "moe_renormalize",
        "num_experts_per_tok": "num_experts_per_token", "num_local_experts": "num_experts"},
    "kosmos-2": {"hidden_size": "embed_dim", "num_attention_heads": "attention_heads", "num_hidden_layers": "layers"},
    "kosmos-2.5": {"hidden_size": "embed_dim", "num_attention_heads": "attention_heads", "num_hidden_layers": "layers"},
    "led": {"attention_probs_dropout_prob": "attention_dropout", "hidden_size": "d_model",
        "initializer_range": "init_std", "num_attention_heads": "encoder_attention_heads",
        "num_hidden_layers": "encoder_layers"},
    "lfm3": {"rms_norm_eps": "norm_eps"},
    "longcat_flash": {"intermediate_size": "ffn_hidden_size", "moe_intermediate_size": "expert_ffn_hidden_size",
        "num_experts_per_tok": "moe_topk", "num_local_experts": "n_routed_experts"},
    "mellum": {"num_experts": "num_local_experts", "num_mtp_layers": "num_nextn_predict_layers"},
    "molmo2": {"layer_norm_eps": "rms_norm_eps", "qkv_bias": "attention_bias"},
    "mpt": {"hidden_size": "d_model", "num_attention_heads": "n_heads", "num_hidden_layers": "n_layers"},
    "pix2struct": {"decoder_attention_heads": "num_heads", "decoder_layers": "num_layers",
        "encoder_attention_heads": "num_heads", "encoder_layers": "num_layers", "num_attention_heads": "num_heads",
        "num_hidden_layers": "num_layers"},
    "plbart": {"hidden_size": "d_model", "initializer_range": "init_std",
        "num_attention_heads": "encoder_attention_heads", "num_hidden_layers": "encoder_layers"},
    "prophetnet": {"num_attention_heads": "num_encoder_attention_heads"},
    "recurrent_gemma": {"sliding_window": "attention_window_size"},
    "rwkv": {"max_position_embeddings": "context_length"},
    "sarvam_mla": {"num_experts": "n_routed_experts", "num_local_experts": "n_routed_experts",
        "num_mtp_layers": "num_nextn_predict_layers", "num_shared_experts": "n_shared_experts"},
    "sarvam_moe": {"num_experts": "n_routed_experts", "num_local_experts": "n_routed_experts",
        "num_mtp_layers": "num_nextn_predict_layers", "num_shared_experts": "n_shared_experts",
        "use_qkv_bias": "attention_bias"},
    "seamless_m4t": {"num_attention_heads": "decoder_attention_heads", "num_hidden_layers": "decoder_layers"},
    "seamless_m4t_v2": {"num_attention_heads": "decoder_attention_heads", "num_hidden_layers": "decoder_layers"},
    "step3p7": {"moe_num_experts": "n_routed_experts", "moe_top_k": "num_experts_per_tok",
        "num_attention_groups": "num_key_value_heads", "num_local_experts": "n_routed_experts",
        "num_mtp_layers": "num_nextn_predict_layers", "share_expert_dims": "share_expert_dim"},
    "switch_transformers": {"hidden_size": "d_model", "num_attention_heads": "num_heads",
        "num_hidden_layers": "num_layers"},
    "t5gemma2": {"eoi_token_id": "eoi_token_index", "image_token_id": "image_token_index"},
    "trocr": {"hidden_size": "d_model", "num_attention_heads": "decoder_attention_heads",
        "num_hidden_layers": "decoder_layers"},
    "udop": {"hidden_size": "d_model", "num_attention_heads": "num_heads", "num_hidden_layers": "num_layers"},
    "whisper": {"hidden_size": "d_model", "num_attention_heads": "encoder_attention_heads",
        "num_hidden_layers": "encoder_layers", "num_key_value_heads": "encoder_attention_heads"},
    "xglm": {"hidden_size": "d_model", "num_attention_heads": "attention_heads", "num_hidden_layers": "num_layers"},
    "xlm": {"bos_index": "bos_token_id", "eos_index": "eos_token_id", "hidden_size": "emb_dim", "n_words": "vocab_size",
        "num_attention_heads": "n_heads", "num_hidden_layers": "n_layers", "pad_index": "pad_token_id"},
    "xlnet": {"hidden_size": "d_model", "n_token": "vocab_size", "num_attention_heads": "n_head",
        "num_hidden_layers": "n_layer"},
    "zamba": {"head_dim": "attention_head_dim"},
    "zamba2": {"head_dim": "attention_head_dim"},
}


# the aliases that are dataclass fields of their class (set by its __init__, before the keywords that are none): of an
# alias and its target both given, the target wins there (Qwen3MoeConfig given num_experts 5 and num_local_experts 7
# has 7 experts), and the alias alone still sets the target
_BAILING_FIELDS = frozenset({"max_position_embeddings", "n_group", "n_shared_experts", "norm_topk_prob",
                             "num_experts_per_tok", "num_local_experts"})
TARGET_WINS: dict[str, frozenset[str]] = {
    **dict.fromkeys(("kolibri1", "qwen3_moe", "qwen3_vl_moe"), frozenset({"num_experts"})),
    "mellum": frozenset({"num_experts", "num_mtp_layers"}),
    **dict.fromkeys(("deepseek_v3", "glm4_moe", "sarvam_mla", "sarvam_moe"), frozenset({"num_mtp_layers"})),
    "bailing_hybrid": _BAILING_FIELDS | {"num_mtp_layers"}, "kimi_linear": _BAILING_FIELDS,
}


# what a class's own __post_init__ derives from a target before the alias is set: (derived key, its sources, how),
# the derived key keeping the value from before the alias (T5Config: num_decoder_layers from num_layers, so T5 given
# num_hidden_layers 2 beside num_layers 1 builds 2 encoder layers and 1 decoder layer; XLNetConfig: d_head from
# d_model // n_head, which its validate_architecture then holds against the alias's width: refused)
def _floor_ratio(width: Any, heads: Any) -> Any:
    return width // heads if type(width) is int and type(heads) is int and heads > 0 else None


DERIVED_FIRST: dict[str, tuple[tuple[str, tuple[str, ...], Any], ...]] = {
    **{model_type: (("num_decoder_layers", ("num_layers",), lambda layers: layers),)
       for model_type in ("t5", "mt5", "umt5", "longt5", "udop")},
    "xlnet": (("d_head", ("d_model", "n_head"), _floor_ratio),)}


def resolved(model_type: str, config: Mapping[str, Any], defaults: Mapping[str, Any]) -> Mapping[str, Any]:
    """``config`` with each alias it gives written over its target, as transformers' config class sets it
    (``config`` itself where it gives none: most configs, one look a key of the class's map); ``defaults``: the
    class defaults a derived key reads where the config gives no source."""
    renamed = MAPS.get(model_type)
    if renamed is None or not any(alias in config for alias in renamed):
        return config
    # in the config's order: of two aliases of one key (Pix2Struct's encoder_layers and decoder_layers), the later wins
    fields = TARGET_WINS.get(model_type, ())
    written = {renamed[key]: value for key, value in config.items() if key in renamed
               and not (key in fields and renamed[key] in config)}
    written.update({alias: config[renamed[alias]] for alias in fields if alias in config and renamed[alias] in config})
    for derived, sources, how in DERIVED_FIRST.get(model_type, ()):
        if any(source in written for source in sources) and config.get(derived) is None:
            written[derived] = how(*(config.get(source, defaults.get(source)) for source in sources))
    return {**config, **written}


def note(model_type: str, config: Mapping[str, Any], defaults: Mapping[str, Any]) -> str | None:
    """What ``resolved`` changed, said once: each alias the config gives with another value than its key would
    have (None where each agrees with it: bart-large's num_hidden_layers beside encoder_layers, both 12)."""
    fields = TARGET_WINS.get(model_type, ())
    differs = [(alias, target) for alias, target in MAPS[model_type].items()
               if alias in config and config[alias] != config.get(target, defaults.get(target))]
    wins = [f"{alias}={config[alias]!r} as {target}" for alias, target in differs
            if not (alias in fields and target in config)]
    kept = [f"{target}={config[target]!r} over {alias}={config[alias]!r}" for alias, target in differs
            if alias in fields and target in config]
    said = "; ".join(([", ".join(wins) + " (a given alias wins over its key)"] if wins else []) +
                     ([", ".join(kept) + " (the alias is a field of the class: its key wins)"] if kept else []))
    return f"read as {model_type}'s config class maps them: {said}" if said else None
