"""Hypothesis strategies: random small configs for the whole Qwen2.5-Omni (issue #16), typed here.

Each spells the keys the way the family's config classes do (tests/_family_configs.py's style)."""

from __future__ import annotations

from _family_configs_o import qwen2_5_omni_thinker
from hypothesis import strategies as st

booleans = st.booleans()
small = st.integers(1, 8)
# odd up to 4 (validate_rope lets those through; an odd one above 4 is refused: test_multimodal_omni.py)
HEAD_DIMS = st.sampled_from([1, 2, 3, 4, 6, 8])


@st.composite
def omni_talker(draw) -> dict:
    """Qwen2_5OmniTalkerConfig: Qwen2's decoder keys with its own table width (embedding_size) and head_dim, the KV
    heads dividing the heads."""
    heads = draw(st.integers(1, 4))
    config = {"model_type": "qwen2_5_omni_talker", "vocab_size": draw(st.integers(1, 40)),
              "embedding_size": draw(st.integers(1, 24)), "hidden_size": draw(st.integers(1, 24)),
              "intermediate_size": draw(st.integers(1, 24)), "num_hidden_layers": draw(st.integers(1, 3)),
              "num_attention_heads": heads, "head_dim": draw(HEAD_DIMS)}
    # (absent: the class's 4; its field is an int, never null)
    config["num_key_value_heads"] = draw(st.sampled_from([n for n in range(1, heads + 1) if heads % n == 0]))
    if draw(booleans):
        config["tie_word_embeddings"] = draw(booleans)  # (never ties: the class declares no tied keys)
    return config


@st.composite
def omni_dit(draw) -> dict:
    """Qwen2_5OmniDiTConfig: the DiT's sizes and the speaker encoder's channel lists (as long as each other, the
    middle ones at least the Res2Net scale wide)."""
    blocks = draw(st.integers(2, 4))
    scale = draw(st.integers(1, 3))
    channels = [draw(st.integers(scale, 12)) for _ in range(blocks)]
    return {"hidden_size": draw(st.integers(1, 16)), "num_hidden_layers": draw(st.integers(1, 3)),
            "num_attention_heads": draw(st.integers(1, 3)), "head_dim": draw(HEAD_DIMS),
            "ff_mult": draw(st.integers(1, 3)), "emb_dim": draw(small), "num_embeds": draw(st.integers(0, 20)),
            "mel_dim": draw(small), "enc_emb_dim": draw(small), "enc_dim": draw(small), "enc_channels": channels,
            "enc_kernel_sizes": [draw(st.integers(1, 5)) for _ in range(blocks)],
            "enc_dilations": [draw(st.integers(1, 3)) for _ in range(blocks)],
            "enc_attention_channels": draw(small), "enc_res2net_scale": scale, "enc_se_channels": draw(small)}


@st.composite
def omni_bigvgan(draw) -> dict:
    """Qwen2_5OmniBigVGANConfig: upsampling steps (each kernel at least its rate), the resblock kernels and their
    three dilations each, a first channel count the steps can halve."""
    steps = draw(st.integers(1, 3))
    rates = [draw(st.integers(1, 3)) for _ in range(steps)]
    resblocks = draw(st.integers(1, 3))
    return {"mel_dim": draw(small), "upsample_initial_channel": draw(st.integers(1 << steps, 32)),
            "upsample_rates": rates, "upsample_kernel_sizes": [rate + draw(st.integers(0, 3)) for rate in rates],
            "resblock_kernel_sizes": [draw(st.integers(1, 5)) for _ in range(resblocks)],
            "resblock_dilation_sizes": [[draw(st.integers(1, 3)) for _ in range(3)] for _ in range(resblocks)]}


@st.composite
def qwen2_5_omni(draw) -> dict:
    """Qwen2_5OmniConfig: the thinker's config (its text, audio and vision configs, its tying) in thinker_config, the
    talker's and token2wav's beside it, enable_audio_output drawn or left to the class (True)."""
    thinker = {key: value for key, value in draw(qwen2_5_omni_thinker()).items() if key != "model_type"}
    config = {"model_type": "qwen2_5_omni", "thinker_config": thinker, "talker_config": draw(omni_talker()),
              "token2wav_config": {"dit_config": draw(omni_dit()), "bigvgan_config": draw(omni_bigvgan())}}
    enabled = draw(st.one_of(st.none(), booleans))
    return config if enabled is None else {**config, "enable_audio_output": enabled}


CONFIGS_OMNI: dict[str, st.SearchStrategy] = {"qwen2_5_omni": qwen2_5_omni()}
