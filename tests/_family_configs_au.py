"""Hypothesis strategies: random small configs for the audio-text families of set AU (Voxtral Realtime, VibeVoice-ASR,
Kyutai speech-to-text), typed here.

Each spells the keys the way the family's config class does (tests/_family_configs.py's style)."""

from __future__ import annotations

import math

from _family_configs_o import whole
from hypothesis import strategies as st

booleans = st.booleans()


def _set(name: str) -> st.SearchStrategy:
    """A text strategy of tests/_family_configs.py, drawn when a test runs (that module imports this one)."""
    return st.deferred(lambda: __import__("_family_configs").CONFIGS[name])


def _text(name: str, model_type: str) -> st.SearchStrategy:
    """``name``'s text strategy under the text_config type the whole config class builds (``model_type``)."""
    return _set(name).map(lambda config: {**config, "model_type": model_type})


@st.composite
def voxtral_realtime_encoder(draw) -> dict:
    """VoxtralRealtimeEncoderConfig: each size by its stored name or its attribute_map alias (the heads also by
    num_key_value_heads, which the map sends to them), head_dim given or left to 64 (null is refused: the class
    declares an int)."""
    heads = draw(st.integers(1, 3))
    sizes = {("hidden_size", "d_model"): heads * draw(st.sampled_from([2, 4, 6])),
             ("intermediate_size", "encoder_ffn_dim"): draw(st.integers(1, 32)),
             ("num_hidden_layers", "encoder_layers"): draw(st.integers(1, 2)),
             ("num_attention_heads", "encoder_attention_heads", "num_key_value_heads"): heads}
    config = {"model_type": "voxtral_realtime_encoder", "num_mel_bins": draw(st.integers(1, 8))}
    for names, size in sizes.items():
        config[draw(st.sampled_from(names))] = size
    head_dim = draw(st.sampled_from(["absent", 2, 4, 6]))
    if head_dim != "absent":
        config["head_dim"] = head_dim
    return config


@st.composite
def vibevoice_tokenizer_encoder(draw) -> dict:
    """VibeVoiceAcousticTokenizerEncoderConfig: a few downsampling ratios, a depth per stage (the stem's first; now and
    then one more than read), small widths; each key drawn or left to the class's default where that stays small."""
    ratios = draw(st.lists(st.integers(1, 4), max_size=3))
    depths = draw(st.lists(st.integers(0, 2), min_size=len(ratios) + 1, max_size=len(ratios) + 2))
    config = {"model_type": "vibevoice_acoustic_tokenizer_encoder", "downsampling_ratios": ratios, "depths": depths,
              "num_filters": draw(st.integers(1, 3)), "hidden_size": draw(st.integers(1, 8))}
    for key, values in (("channels", st.integers(1, 2)), ("kernel_size", st.integers(1, 4)),
                        ("ffn_expansion", st.integers(1, 3))):
        if draw(booleans):
            config[key] = draw(values)
    return config


@st.composite
def vibevoice_asr(draw) -> dict:
    """VibeVoiceAsrConfig: a Qwen2 text_config, both tokenizer encoders (the semantic one now and then left out:
    its init_kwargs, 128 wide at the class's defaults), a chunk size the acoustic hop divides (given, or the
    default where it divides it), the tying keys drawn (never tied)."""
    acoustic = draw(vibevoice_tokenizer_encoder())
    config = {"model_type": "vibevoice_asr", "text_config": {**draw(_set("qwen2")), "model_type": "qwen2"},
              "acoustic_tokenizer_encoder_config": acoustic}
    if draw(booleans):
        config["semantic_tokenizer_encoder_config"] = draw(vibevoice_tokenizer_encoder())
    hop = math.prod(acoustic["downsampling_ratios"])
    if 1440000 % hop or draw(booleans):
        config["acoustic_tokenizer_chunk_size"] = hop * draw(st.integers(1, 5))
    if draw(booleans):
        config["tie_word_embeddings"] = draw(booleans)
    return config


@st.composite
def mimi(draw) -> dict:
    """MimiConfig, small: a few upsampling ratios, resnet blocks (0 to 2) with or without the shortcut, a compress
    the narrowest width survives, a power-of-2 codebook, quantizers split semantic/acoustic, the projections present
    or not, upsample groups dividing the width, a sampling rate that makes the latent stride 1, 2 or more (or a
    frame_rate given at or below the SEANet's rate), each key drawn or left to the class's default where that stays
    small; now and then one half dropped (its sub-config null, MimiConfig's setter)."""
    heads = draw(st.sampled_from([1, 2]))
    hidden = heads * draw(st.sampled_from([2, 4]))
    filters = draw(st.integers(1, 3))
    quantizers = draw(st.integers(2, 4))
    config = {"model_type": "mimi", "hidden_size": hidden, "num_attention_heads": heads,
              "num_key_value_heads": draw(st.sampled_from([k for k in (1, 2) if heads % k == 0])),
              "num_filters": filters, "upsampling_ratios": draw(st.lists(st.integers(1, 3), min_size=1, max_size=3)),
              "num_residual_layers": draw(st.integers(0, 2)), "compress": draw(st.integers(1, filters)),
              "codebook_size": draw(st.sampled_from([1, 2, 4])), "num_quantizers": quantizers,
              "num_semantic_quantizers": draw(st.integers(0, quantizers - 1)),
              "vector_quantization_hidden_dimension": draw(st.sampled_from([hidden, 3])),
              "upsample_groups": draw(st.sampled_from([1, hidden])), "num_hidden_layers": draw(st.integers(1, 2)),
              "intermediate_size": draw(st.integers(1, 8)), "sampling_rate": draw(st.integers(1, 100)),
              "kernel_size": draw(st.integers(1, 3)), "last_kernel_size": draw(st.integers(1, 3)),
              "residual_kernel_size": draw(st.integers(1, 3)), "dilation_growth_rate": draw(st.integers(1, 3))}
    for key, values in (("codebook_dim", st.integers(1, 4)), ("use_conv_shortcut", booleans),
                        ("attention_bias", booleans), ("head_dim", st.sampled_from([2, 4])),
                        ("audio_channels", st.integers(1, 2))):
        if draw(booleans):
            config[key] = draw(values)
    if draw(booleans):  # the SEANet's own rate over 1 to 3 (1: no down/upsampling); above it the stride would be 0
        encodec = math.ceil(config["sampling_rate"] / math.prod(config["upsampling_ratios"]))
        config["frame_rate"] = encodec / draw(st.integers(1, 3))
    dropped = draw(st.sampled_from([None, None, "encoder_config", "decoder_config"]))  # one half dropped: null
    if dropped is not None:
        config[dropped] = None
    return config


@st.composite
def kyutai_speech_to_text(draw) -> dict:
    """KyutaiSpeechToTextConfig: Moshi's decoder keys at the top, the codebooks (their count and vocabulary), the
    padding row inside the table or null, the head never tied (true is refused), a small codec_config."""
    config = {**draw(_set("moshi")), "model_type": "kyutai_speech_to_text",
              "num_codebooks": draw(st.integers(0, 3)), "codebook_vocab_size": draw(st.integers(1, 5)),
              "codec_config": draw(mimi())}
    if config.pop("tie_word_embeddings") is False and draw(booleans):
        config["tie_word_embeddings"] = False
    rows = config["vocab_size"] + config["num_codebooks"] * config["codebook_vocab_size"] + 1
    config["audio_pad_token_id"] = draw(st.one_of(st.none(), st.integers(0, rows - 1)))
    return config


CONFIGS_AU: dict[str, st.SearchStrategy] = {
    "voxtral_realtime": whole("voxtral_realtime", "voxtral_realtime_text", _text("mistral", "voxtral_realtime_text"),
                              voxtral_realtime_encoder(), downsample_factor=st.integers(1, 4)),
    "vibevoice_asr": vibevoice_asr(),
    "kyutai_speech_to_text": kyutai_speech_to_text(),
}
