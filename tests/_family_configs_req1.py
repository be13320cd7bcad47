"""Hypothesis strategies for helper req1 (issue #15): each family's random small configs (tests/_family_configs.py)
with the value paramledger used to refuse drawn, where transformers 5.24.0 builds it (docs/notes/requires-req1.md).

Each strategy is the family's own with the flag drawn on top, so the rest of the config varies as it always has."""

from __future__ import annotations

from _family_configs import CONFIGS
from hypothesis import strategies as st

booleans = st.booleans()


@st.composite
def _cross_attention(draw, model_type: str, decoder: bool) -> dict:
    """add_cross_attention drawn; BERT-code classes build the block only in a decoder (is_decoder, else transformers
    refuses), GPT-BigCode only without multi-query attention (GPTBigCodeBlock raises for MQA)."""
    config = dict(draw(CONFIGS[model_type]))
    if draw(booleans):
        config["add_cross_attention"] = True
        if decoder:
            config["is_decoder"] = True
        if model_type == "gpt_bigcode":
            config["multi_query"] = False
    return config


@st.composite
def _tied(draw, model_type: str) -> dict:
    """tie_word_embeddings drawn at the top of the config."""
    return {**draw(CONFIGS[model_type]), "tie_word_embeddings": draw(booleans)}


@st.composite
def _florence2(draw) -> dict:
    """text_config's tie_word_embeddings drawn (BartModel's three tables when false) and the whole config's (the
    head's tie to shared)."""
    config = dict(draw(CONFIGS["florence2"]))
    config["text_config"] = {**config.get("text_config", {"model_type": "bart"}),
                             "tie_word_embeddings": draw(booleans)}
    if draw(booleans):
        config["tie_word_embeddings"] = draw(booleans)
    return config


@st.composite
def _mvp(draw) -> dict:
    """use_prompt drawn, with prompt_length and prompt_mid_dim (MvpDecoder's two MvpPrompt modules when true)."""
    config = dict(draw(CONFIGS["mvp"]))
    config["use_prompt"] = draw(booleans)
    if draw(booleans):
        config.update(prompt_length=draw(st.integers(1, 5)), prompt_mid_dim=draw(st.integers(1, 7)))
    return config


CONFIGS_REQ1 = {
    **{model_type: _cross_attention(model_type, decoder)
       for model_type, decoder in (("gpt_bigcode", False), ("xglm", False), ("megatron-bert", True),
                                   ("rembert", True), ("roberta-prelayernorm", True), ("xlm-roberta-xl", True))},
    "kyutai_speech_to_text": _tied("kyutai_speech_to_text"),
    "florence2": _florence2(),
    "mvp": _mvp(),
}
