"""Hypothesis strategies: random small configs for the families of set O (audio towers and audio-text models), typed here.

Each spells the keys the way the family's config class does (tests/_family_configs.py's style)."""

from __future__ import annotations

from hypothesis import strategies as st

booleans = st.booleans()


def _set(name: str) -> st.SearchStrategy:
    """A text strategy of tests/_family_configs.py, drawn when a test runs (that module imports this one)."""
    return st.deferred(lambda: __import__("_family_configs").CONFIGS[name])


WHISPER_NAMES = ("d_model", "encoder_layers", "encoder_attention_heads", "encoder_ffn_dim")
LLAMA_NAMES = ("hidden_size", "num_hidden_layers", "num_attention_heads", "intermediate_size")


@st.composite
def whisper_encoder(draw, model_type: str, own: tuple[str, ...] = WHISPER_NAMES,
                    alias: tuple[str, ...] | None = LLAMA_NAMES) -> dict:
    """A Whisper-style encoder config (WhisperEncoder's sizes), each of the four aliased sizes spelled by its class's
    own name or, where the class has an attribute_map (``alias``), drawn either way."""
    heads = draw(st.integers(1, 3))
    sizes = (heads * draw(st.sampled_from([2, 4, 6, 8])), draw(st.integers(1, 2)), heads, draw(st.integers(1, 32)))
    config = {"model_type": model_type, "num_mel_bins": draw(st.integers(1, 8)),
              "max_source_positions": draw(st.integers(1, 64))}
    for i, size in enumerate(sizes):
        config[alias[i] if alias and draw(booleans) else own[i]] = size
    return config


@st.composite
def glmasr_encoder(draw) -> dict:
    """GlmAsrEncoderConfig: GQA heads (or none given: the attention heads), head_dim given or not, the rotary factor
    in rope_parameters, at the top or left to its default."""
    kv = draw(st.integers(1, 3))
    heads = kv * draw(st.integers(1, 2))
    config = {"model_type": "glmasr_encoder", "hidden_size": heads * draw(st.sampled_from([2, 4, 8])),
              "num_hidden_layers": draw(st.integers(1, 2)), "num_attention_heads": heads,
              "intermediate_size": draw(st.integers(1, 32)), "num_mel_bins": draw(st.integers(1, 8))}
    if draw(booleans):
        config["num_key_value_heads"] = kv
    if draw(booleans):
        config["head_dim"] = draw(st.sampled_from([2, 4, 6, 8]))
    factor = draw(st.sampled_from([None, 0.25, 0.5, 1.0]))
    if factor is not None:
        if draw(booleans):
            config["rope_parameters"] = {"rope_type": "default", "rope_theta": 10000.0, "partial_rotary_factor": factor}
        else:
            config["partial_rotary_factor"] = factor
    return config


@st.composite
def qwen3_asr_encoder(draw) -> dict:
    """Qwen3ASREncoderConfig: Whisper's sizes (an even width: the sinusoid table), the downsampling front end, the
    projector's output_dim, the sinusoid table's rows."""
    config = draw(whisper_encoder("qwen3_asr_encoder"))
    heads = config.get("encoder_attention_heads", config.get("num_attention_heads"))
    width = heads * draw(st.sampled_from([2, 4, 6]))
    config.pop("max_source_positions")
    config["d_model" if "d_model" in config else "hidden_size"] = width * 2 if width < 4 else width
    return {**config, "num_mel_bins": draw(st.integers(1, 20)), "downsample_hidden_size": draw(st.integers(1, 8)),
            "output_dim": draw(st.integers(1, 32)), "max_position_embeddings": draw(st.integers(1, 20))}


@st.composite
def omni_audio_encoder(draw) -> dict:
    """Qwen2_5OmniAudioEncoderConfig: Whisper's sizes at an even width (the sinusoid table) and output_dim."""
    config = draw(whisper_encoder("qwen2_5_omni_audio_encoder"))
    width_key = "d_model" if "d_model" in config else "hidden_size"
    config[width_key] *= 2
    return {**config, "output_dim": draw(st.integers(1, 32))}


def qwen2_5_omni_thinker() -> st.SearchStrategy:
    """The thinker: text_config (Qwen2's keys), audio_config, vision_config (Qwen2.5-VL's keys), its own tying."""
    from _family_configs_g import qwen2_5_vl_vision

    vision = qwen2_5_vl_vision().map(lambda config: {**config, "model_type": "qwen2_5_omni_vision_encoder"})
    return whole("qwen2_5_omni_thinker", "qwen2_5_omni_text", _set("qwen2"), omni_audio_encoder(),
                 vision_config=vision)


def qwen3_omni_moe_thinker() -> st.SearchStrategy:
    """The MoE thinker: Qwen3-MoE's text keys, Qwen3-ASR's audio keys (max_source_positions rows), Qwen3-VL's vision
    keys (deepstack mergers drawn)."""
    from _family_configs_g import qwen3_vl_vision

    audio = qwen3_asr_encoder().map(lambda config: {
        **{key: value for key, value in config.items() if key != "max_position_embeddings"},
        "model_type": "qwen3_omni_moe_audio_encoder", "max_source_positions": config["max_position_embeddings"]})
    # (its attention never slides: Qwen3OmniMoeThinkerTextAttention sets sliding_window None, which
    # tests/test_families.py's reading of the config's window would not know)
    text = _set("qwen3_moe").map(lambda config: {key: value for key, value in config.items()
                                                 if key not in ("use_sliding_window", "sliding_window")})
    return whole("qwen3_omni_moe_thinker", "qwen3_omni_moe_text", text, audio,
                 vision_config=qwen3_vl_vision("qwen3_omni_moe_vision_encoder"))


@st.composite
def fun_asr_nano_encoder(draw) -> dict:
    """FunAsrNanoEncoderConfig: the SAN-M sizes, an even input width (mel bins × stacked frames), the FSMN kernel,
    the timestamp layers (as many as the layers or more: then only the last layer is normalized)."""
    heads = draw(st.integers(1, 3))
    mels, frames = draw(st.integers(2, 6)), draw(st.integers(1, 3))
    return {"model_type": "fun_asr_nano_encoder", "hidden_size": heads * draw(st.sampled_from([2, 4, 8])),
            "num_attention_heads": heads, "intermediate_size": draw(st.integers(1, 32)),
            "num_hidden_layers": draw(st.integers(1, 4)), "num_mel_bins": mels * 2 if mels * frames % 2 or mels * frames < 4 else mels,
            "num_stacked_frames": frames, "max_position_embeddings": draw(st.integers(2, 20)),
            "fsmn_kernel_size": draw(st.integers(1, 5)), "num_timestamp_prediction_layers": draw(st.integers(0, 4))}


@st.composite
def fun_asr_nano(draw) -> dict:
    """The whole config: FunAsrNanoConfig requires adaptor_config's hidden_size to be text_config's and its
    intermediate_size a quarter of it, so the adaptor is always given (its other keys drawn or left to
    FunAsrNanoAdaptorConfig's defaults) and the text width a multiple of 4."""
    config = draw(whole("fun_asr_nano", "qwen3", _set("qwen3"), fun_asr_nano_encoder()))
    text = config["text_config"]
    text["hidden_size"] = text["num_attention_heads"] * 4 * draw(st.integers(1, 2))
    adaptor = {"hidden_size": text["hidden_size"], "intermediate_size": text["hidden_size"] // 4,
               "num_attention_heads": draw(st.integers(1, 4))}  # (its default 8 is more heads than a small width)
    for key, values in (("num_hidden_layers", st.integers(0, 2)),
                        ("projector_hidden_size", st.integers(1, 16))):
        if draw(booleans):
            adaptor[key] = draw(values)
    return {**config, "adaptor_config": adaptor}


def whole(model_type: str, text_type: str, text: st.SearchStrategy, audio: st.SearchStrategy,
          **extra: st.SearchStrategy) -> st.SearchStrategy:
    """The whole config: text_config, audio_config, a tie_word_embeddings drawn or left out (at the top and in
    text_config: none of these classes ties) and ``extra`` keys of the whole config."""
    return st.tuples(text, audio, st.one_of(st.none(), booleans), st.fixed_dictionaries(extra)).map(
        lambda drawn: {"model_type": model_type, "text_config": {"model_type": text_type, **drawn[0]},
                       "audio_config": drawn[1], **drawn[3],
                       **({} if drawn[2] is None else {"tie_word_embeddings": drawn[2]})})


@st.composite
def musicflamingo(draw) -> dict:
    """Audio Flamingo 3's draw plus the time rotary's keys (MusicFlamingoConfig: rope_parameters' rope_theta, the
    positions' rows, and partial_rotary_factor, there, at the top or left to their defaults)."""
    config = draw(whole("musicflamingo", "qwen2", _set("qwen2"), whisper_encoder(
        "audioflamingo3_encoder", own=LLAMA_NAMES, alias=WHISPER_NAMES), projector_bias=booleans))
    rope = {"rope_type": "default"}
    if draw(booleans):
        rope["rope_theta"] = draw(st.one_of(st.integers(1, 64), st.floats(1.0, 64.0)))
    factor = draw(st.sampled_from([None, 0.2, 0.5, 0.9, 1.0]))
    if factor is not None and draw(booleans):
        rope["partial_rotary_factor"] = factor
    elif factor is not None:
        config["partial_rotary_factor"] = factor
    if len(rope) > 1 or draw(booleans):
        config["rope_parameters"] = rope
    return config


@st.composite
def granite_speech(draw, model_type: str = "granite_speech") -> dict:
    """GraniteSpeechConfig: a Granite text_config (its strategy), a small Conformer encoder_config (dim_head given
    or derived, a context within max_pos_emb), a small BLIP-2 Q-Former projector_config with its own
    encoder_hidden_size, the windows' sizes, and the whole model's tying, each drawn or left to the default."""
    heads = draw(st.integers(1, 3))
    positions = draw(st.integers(1, 8))
    encoder = {"hidden_dim": heads * draw(st.integers(1, 4)), "num_heads": heads, "num_layers": draw(st.integers(1, 2)),
               "input_dim": draw(st.integers(1, 8)), "output_dim": draw(st.integers(1, 8)),
               "feedforward_mult": draw(st.integers(1, 3)), "conv_expansion_factor": draw(st.integers(1, 3)),
               "conv_kernel_size": draw(st.integers(1, 5)), "max_pos_emb": positions,
               "context_size": draw(st.integers(1, positions))}
    if draw(booleans):
        encoder["dim_head"] = draw(st.integers(1, 6))
    q_heads = draw(st.integers(1, 3))
    qformer = {"hidden_size": q_heads * draw(st.integers(1, 4)), "num_attention_heads": q_heads,
               "num_hidden_layers": draw(st.integers(0, 3)), "intermediate_size": draw(st.integers(1, 16)),
               "cross_attention_frequency": draw(st.integers(1, 3)), "encoder_hidden_size": draw(st.integers(1, 12))}
    if model_type == "granite_speech_plus" and draw(booleans):  # the projector then reads them side by side
        encoder["cat_hidden_layers"] = draw(st.lists(st.integers(0, encoder["num_layers"] - 1), max_size=3))
        qformer["encoder_hidden_size"] = encoder["hidden_dim"] * (len(encoder["cat_hidden_layers"]) + 1)
    config = {"model_type": model_type, "text_config": {"model_type": "granite", **draw(_set("granite"))},
              "encoder_config": encoder, "projector_config": qformer}
    for key, values in (("window_size", st.integers(1, 20)), ("downsample_rate", st.integers(1, 6)),
                        ("tie_word_embeddings", booleans)):
        if draw(booleans):
            config[key] = draw(values)
    return config


CONFIGS_O: dict[str, st.SearchStrategy] = {
    "granite_speech": granite_speech(),
    "granite_speech_plus": granite_speech("granite_speech_plus"),
    "musicflamingo": musicflamingo(),
    "qwen2_audio": whole("qwen2_audio", "qwen2", _set("qwen2"), whisper_encoder("qwen2_audio_encoder")),
    "audioflamingo3": whole("audioflamingo3", "qwen2", _set("qwen2"), whisper_encoder(
        "audioflamingo3_encoder", own=LLAMA_NAMES, alias=WHISPER_NAMES), projector_bias=booleans),
    "glmasr": whole("glmasr", "llama", _set("llama"), glmasr_encoder()),
    "qwen3_asr": whole("qwen3_asr", "qwen3", _set("qwen3"), qwen3_asr_encoder()),
    "qwen2_5_omni_thinker": qwen2_5_omni_thinker(),
    "fun_asr_nano": fun_asr_nano(),
    "moss_transcribe_diarize": whole("moss_transcribe_diarize", "qwen3", _set("qwen3"), whisper_encoder(
        "moss_transcribe_diarize_audio", own=LLAMA_NAMES, alias=WHISPER_NAMES), projector_bias=booleans,
        audio_merge_size=st.integers(1, 4)),
    "qwen3_omni_moe_thinker": qwen3_omni_moe_thinker(),
    "voxtral": whole("voxtral", "llama", _set("llama"),
                     whisper_encoder("voxtral_encoder", own=LLAMA_NAMES, alias=WHISPER_NAMES)),
}
