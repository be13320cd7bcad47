"""Hypothesis strategies: random small configs for Nemotron 3.5 Transcribe (nemo_speechlm, issues #16 and #17), typed
here.

Each spells the keys the way the family's config classes do (tests/_family_configs.py's style)."""

from __future__ import annotations

from _family_configs_l import _set
from hypothesis import strategies as st

booleans = st.booleans()


@st.composite
def stack(draw, mel: bool = True, factor: float = 0.5) -> dict:
    """One encoder stack's config: heads dividing the width (validate_architecture), key-value heads of their own or
    none, a head_dim of its own or none, rope_parameters left to the class (a half rotary) or given (its factor)."""
    heads = draw(st.integers(1, 3))
    config = {"hidden_size": heads * draw(st.integers(1, 4)), "num_attention_heads": heads,
              "intermediate_size": draw(st.integers(1, 12)), "num_hidden_layers": draw(st.integers(0, 2))}
    if draw(booleans):
        config["num_key_value_heads"] = draw(st.integers(1, 3))
    if draw(booleans):
        config["head_dim"] = draw(st.integers(1, 6))
    if draw(booleans):
        config["rope_parameters"] = {"rope_type": "default", "rope_theta": 10000.0,
                                     **({"partial_rotary_factor": draw(st.sampled_from([0.25, 0.5, 1.0]))}
                                        if draw(booleans) else {})}
    factor = config.get("rope_parameters", {"partial_rotary_factor": factor}).get("partial_rotary_factor", 1.0)
    if config.get("head_dim", 0) > 4 and config["head_dim"] % 2 and factor == 1.0:
        config["head_dim"] -= 1  # an odd head fully rotated: validate_rope refuses it (paramledger too)
    if mel:
        config["num_mel_bins"] = draw(st.integers(1, 6))
    return config


@st.composite
def nemo_speechlm(draw) -> dict:
    """The composite config: text_config a small Nemotron-H (or left to the class's own, large: only sometimes),
    the audio tower's ASR encoder and diarization model (their subsampling factors, widths and speaker counts kept
    equal where validate_architecture checks them), and the word-timestamp encoder."""
    sub = draw(st.integers(1, 4))
    asr = draw(stack())
    asr = {**asr, "hidden_size": 2 * asr["hidden_size"], "subsampling_factor": sub}  # the speaker table's: even
    audio = {**draw(stack(factor=1.0)), "subsampling_factor": sub}  # the diarization encoder's rotary is whole
    speakers = draw(st.integers(1, 4))
    head = {"hidden_size": draw(st.integers(1, 6)), "num_speakers": speakers, "audio_hidden_size": audio["hidden_size"],
            "subsampling_factor": sub}
    diarization = {"model_type": "nemotron3_diarization", "audio_config": audio, "head_config": head,
                   "streaming_config": {"num_speakers": speakers, "subsampling_factor": sub,
                                        "speaker_cache_length": 2 * speakers + draw(st.integers(0, 4))}}
    vocab = draw(st.integers(1, 30))
    words = {**draw(stack(mel=False)), "vocab_size": vocab, "blank_token_id": draw(st.integers(0, vocab - 1)),
             "upsampling_factor": draw(st.integers(1, 3))}
    config = {"model_type": "nemo_speechlm", "text_config": {"model_type": "nemotron_h", **draw(_set("nemotron_h"))},
              "audio_config": {"asr_config": asr, "diarization_config": diarization},
              "word_timestamp_config": words}
    if draw(booleans):
        config["tie_word_embeddings"] = draw(booleans)
    return config


CONFIGS_NS: dict[str, st.SearchStrategy] = {"nemo_speechlm": nemo_speechlm()}
