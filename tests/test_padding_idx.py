"""pad_token_id outside a table transformers builds with padding_idx = pad_token_id (families/padding_idx.py,
issue #15): refused in one line naming the key, exactly where transformers refuses to build the model.

For every supported type, its smallest random config (tests/_family_configs.py) is built on the meta device with
pad_token_id at the edges of the rows the table lists (inside: transformers builds it and the counts match;
outside: both refuse), and a type the table does not list builds with any pad_token_id (both count it).
"""

from __future__ import annotations

import copy
import functools

import pytest
from hypothesis import HealthCheck, given, settings

import paramledger
from paramledger import families
from paramledger._exceptions import ArchitectureError, ParamledgerError
from paramledger.families.padding_idx import PADDED
from paramledger.hf_config import _text_config, _text_family
from paramledger.reference import build_reference, hf_config

from _family_configs import CONFIGS
from test_families import assert_matches_reference

FAR = 10**6  # beyond every small config's tables


def _smallest(model_type: str) -> dict:
    """The type's first random config (a copy: the draw is made once a process, for the many tests that start
    from it)."""
    return copy.deepcopy(_first_draw(model_type))


@functools.cache
def _first_draw(model_type: str) -> dict:
    found: list[dict] = []

    @settings(max_examples=1, database=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(CONFIGS[model_type])
    def take(config):
        found.append(config)

    take()
    return found[0]


def _reader(config: dict) -> tuple[str, str]:
    """The family whose table reads the config's pad_token_id, and the section it is read from ("": the top)."""
    family = families.get(config["model_type"])
    if not family.text_config:
        return family.model_type, ""
    nested = not (family.whole is not None and family.whole.text_at_top and config.get("text_config") is None)
    # (Unlimited OCR's decoder is its language_config where no text_config is given)
    section = "language_config" if "language_config" in config and "text_config" not in config else "text_config"
    if family.whole is None:
        return family.model_type, section if nested else ""
    text_family = _text_family(family, _text_config(family, config, "config"), "config").model_type
    if family.whole.inner_section:  # the decoder of a model inside the whole (Qwen2.5-Omni's thinker_config)
        return text_family, f"{family.whole.inner_section}.{section}"
    return text_family, section if nested else ""


def _with_pad(config: dict, pad: int, nested: str) -> dict:
    if "." in nested:  # a section inside a section (thinker_config.text_config)
        outer, inner = nested.split(".", 1)
        return {**config, outer: _with_pad(config.get(outer) or {}, pad, inner)}
    if nested:
        return {**config, nested: {**config.get(nested, {}), "pad_token_id": pad}}
    return {**config, "pad_token_id": pad}


def _transformers_refuses(config: dict) -> bool:
    family = families.get(config["model_type"])
    try:
        build_reference(config, text_config=family.text_decoder_only)
    except ParamledgerError as error:
        # (torch's "Padding_idx must be within num_embeddings"; IdeficsDecoupledEmbedding's own "padding_idx must be")
        assert "padding_idx" in str(error).lower() or "out of bounds" in str(error), error
        return True
    return False


# encoder-decoder (and vision-encoder-decoder): its decoder and encoder are sections of their own (decoder, encoder),
# not a text_config; a text_config beside them makes transformers' get_text_config ambiguous (not measured here)
# pi0: its decoders' sections are vlm_config.text_config and dit_config (tests/test_multimodal_udop.py checks them)
@pytest.mark.parametrize("model_type", [t for t in families.supported()
                                        if t not in ("encoder-decoder", "vision-encoder-decoder", "pi0")])
def test_pad_token_id_refused_where_transformers_refuses(model_type):
    config = _smallest(model_type)
    reader, nested = _reader(config)
    key = f"{nested}.pad_token_id" if nested else "pad_token_id"
    padded = PADDED.get(reader)
    if padded is None:  # no table pads at pad_token_id: any value builds
        for pad in (FAR, -FAR):
            assert not _transformers_refuses(_with_pad(config, pad, nested))
            paramledger.load(_with_pad(config, pad, nested))
        return
    text = hf_config(config).get_text_config(decoder=True)
    rows = min(getattr(text, name) + extra for name, extra in padded.rows)
    # (FSMT's position tables, max_position_embeddings + pad_token_id + 1 rows, take no -rows at its smallest config)
    inside = (rows - 1, -rows) if model_type != "fsmt" else (rows - 1,)
    for pad in inside:
        assert_matches_reference(_with_pad(config, pad, nested))
    for pad in (rows, -rows - 1):
        assert _transformers_refuses(_with_pad(config, pad, nested)), pad
        with pytest.raises(ArchitectureError, match=f"{key}: .* (is outside|is not supported)"):
            paramledger.load(_with_pad(config, pad, nested))


@pytest.mark.parametrize(("config", "message"), [
    ({"model_type": "hy_v4", "vocab_size": 40},  # its class's pad_token_id 120002
     r"config: pad_token_id: 120,002 is outside the 40 rows of a table transformers builds with padding_idx = "
     r"pad_token_id \(vocab_size = 40; nn.Embedding refuses it\)"),
    ({"model_type": "llama", "vocab_size": 40, "pad_token_id": 40}, r"pad_token_id: 40 is outside the 40 rows"),
    ({"model_type": "llava", "text_config": {"vocab_size": 40, "pad_token_id": -41}},
     r"config: text_config.pad_token_id: -41 is outside the 40 rows"),
    ({"model_type": "roberta", "max_position_embeddings": 8, "pad_token_id": 8},
     r"pad_token_id: 8 is outside the 8 rows .*\(max_position_embeddings = 8; "),
    ({"model_type": "xglm", "max_position_embeddings": 8, "pad_token_id": 10},
     r"pad_token_id: 10 is outside the 10 rows .*\(max_position_embeddings = 8 \+ 2; "),
])
def test_pad_token_id_refusal_says_which_table(config, message):
    with pytest.raises(ArchitectureError, match=message):
        paramledger.load(config)


def test_pad_token_id_named_where_the_decoder_reads_it():
    config = {"model_type": "unlimited_ocr", "language_config": {"vocab_size": 40, "pad_token_id": 40}}
    with pytest.raises(ArchitectureError, match=r"config: language_config.pad_token_id: 40 is outside the 40 rows"):
        paramledger.load(config)


def test_pad_token_id_null_or_inside_counts():
    assert paramledger.load({"model_type": "llama", "vocab_size": 40, "pad_token_id": None}).vocab_size == 40
    assert paramledger.load({"model_type": "llama", "vocab_size": 40, "pad_token_id": -40}).vocab_size == 40


def test_pad_token_id_out_of_range_is_one_line_and_status_2(cli, tmp_path):
    path = tmp_path / "config.json"
    path.write_text('{"model_type": "hy_v4", "vocab_size": 40}')
    status, out, err = cli("count", str(path))
    assert status == 2 and not out
    assert err.strip().count("\n") == 0 and "pad_token_id: 120,002 is outside the 40 rows" in err


_T5GEMMA_SECTION = {"hidden_size": 8, "intermediate_size": 8, "num_hidden_layers": 1, "num_attention_heads": 2,
                    "num_key_value_heads": 1, "head_dim": 4, "vocab_size": 20}


@pytest.mark.parametrize(("encoder_pad", "decoder_pad", "top_pad"), [
    (0, 0, None), (25, 0, None), (0, 25, None), (0, 0, 25), (19, 19, None), (-20, -21, None)])
def test_t5gemma_sections_pad_their_own_tables(encoder_pad, decoder_pad, top_pad):
    """Each T5Gemma stack builds nn.Embedding(vocab_size, ..., padding_idx) from its own section; the top-level
    pad_token_id pads nothing.  paramledger refuses exactly what transformers cannot build, naming the section."""
    config = {"model_type": "t5gemma", "encoder": {**_T5GEMMA_SECTION, "pad_token_id": encoder_pad},
              "decoder": {**_T5GEMMA_SECTION, "pad_token_id": decoder_pad}}
    if top_pad is not None:
        config["pad_token_id"] = top_pad
    try:
        reference = build_reference(config)
    except ParamledgerError as error:
        assert "Padding_idx must be within num_embeddings" in str(error)
        section = "encoder" if not -20 <= encoder_pad < 20 else "decoder"
        with pytest.raises(ArchitectureError, match=f"config: {section}.pad_token_id: .* is outside the 20 rows"):
            paramledger.load(config)
        return
    assert paramledger.inventory(config).total == reference.total
