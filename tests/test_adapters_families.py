"""LoRA on every supported family against PEFT 0.21.2: random small configs (tests/_family_configs.py), "all-linear"
(which modules are an nn.Linear, read from the inventory) and a fixed rank, compared tensor by tensor with
get_peft_model on transformers' meta-device model.  The default run takes a sample; ``-m slow`` every family."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paramledger import families

from _family_configs import CONFIGS
from test_adapters import assert_matches_peft

SAMPLE = ["llama", "gpt2", "gpt_neox", "phi3", "bloom", "falcon", "gemma3", "qwen3_moe", "mixtral", "deepseek_v3",
          "gpt_oss", "dbrx", "gemma3n_text", "qwen3_next", "opt"]
LORAS = [{"r": 2, "target_modules": "all-linear"}, {"r": 3, "target_modules": "all-linear", "use_dora": True,
                                                   "bias": "all"}]


@pytest.mark.parametrize("model_type", SAMPLE)
@settings(max_examples=2, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_sample_of_families_all_linear_matches_peft(model_type, data):
    assert_matches_peft(data.draw(CONFIGS[model_type], label="config"), **data.draw(st.sampled_from(LORAS)))


@pytest.mark.slow
@pytest.mark.parametrize("model_type", [name for name in families.supported() if name in CONFIGS])
@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_every_family_all_linear_matches_peft(model_type, data):
    assert_matches_peft(data.draw(CONFIGS[model_type], label="config"), **data.draw(st.sampled_from(LORAS)))


FSMT = {"model_type": "fsmt", "pad_token_id": 1, "d_model": 4, "decoder_layers": 1, "decoder_attention_heads": 1,
        "decoder_ffn_dim": 3, "max_position_embeddings": 4, "encoder_layers": 1, "encoder_attention_heads": 1,
        "encoder_ffn_dim": 3, "src_vocab_size": 6, "tgt_vocab_size": 6, "langs": ["en", "de"]}


@pytest.mark.parametrize("tied", [True, False])
def test_fsmt_all_linear_adapts_its_head_as_peft_does(tied):
    """FSMTForConditionalGeneration.get_output_embeddings is the decoder's table, so PEFT's all-linear wraps the head
    (model.decoder.output_projection); tied, it is the encoder's table under the head's name, a head's LoRA after the
    decoder's layers (not a shared block's later use)."""
    ours = assert_matches_peft({**FSMT, "tie_word_embeddings": tied}, r=2, target_modules="all-linear")
    assert any(t.name.endswith("output_projection.lora_A.default.weight") for t in ours.tensors)
