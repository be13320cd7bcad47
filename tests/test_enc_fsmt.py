"""FSMT's pad_token_id other than FSMTConfig's 1 (helper enc, issue #15): both stacks' position tables hold
max_position_embeddings + pad_token_id + 1 rows (modeling_fsmt.py lines 332-337, 528-533), checked tensor by tensor
against transformers 5.24.0 on the meta device; a pad_token_id outside the tables transformers builds with
padding_idx = pad_token_id is refused in one line naming it, where transformers fails too."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import paramledger
from paramledger._exceptions import ArchitectureError
from paramledger.towers import text_only

from _family_configs import CONFIGS
from _rope_parity import transformers_outcome
from test_families import assert_matches_reference
from test_padding_idx import _smallest


@st.composite
def _padded(draw) -> dict:
    """FSMT's own strategy with pad_token_id drawn anywhere transformers builds: from the most negative the position
    tables (-rows <= pad, rows = max_position_embeddings + pad + 1) and the token tables take to the last row of the
    smaller vocabulary."""
    config = dict(draw(CONFIGS["fsmt"]))
    words = min(config["src_vocab_size"], config["tgt_vocab_size"])
    lowest, highest = max(-((config["max_position_embeddings"] + 1) // 2), -words), words - 1
    config["pad_token_id"] = draw(st.integers(lowest, highest).filter(lambda pad: pad != 1))
    config["tie_word_embeddings"] = draw(st.booleans())
    return config


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(_padded())
def test_position_tables_follow_pad_token_id_as_transformers_builds_them(config):
    assert_matches_reference(config)


@pytest.mark.parametrize("pad, rows", [(0, 2), (3, 5), (-1, 1)])
def test_the_smallest_config_counts_its_position_rows(pad, rows):
    config = {**_smallest("fsmt"), "pad_token_id": pad}  # max_position_embeddings 1, d_model 2
    inventory = paramledger.inventory(paramledger.load(config))
    shapes = {t.name: t.shape for t in inventory.tensors}
    assert shapes["model.encoder.embed_positions.weight"] == shapes["model.decoder.embed_positions.weight"] == (rows, 2)
    assert inventory.total == 142 + 4 * (rows - 3)  # (142 at pad_token_id 1: 3 rows a table)
    deeper = paramledger.load(config).replace(num_hidden_layers=2)  # a copy keeps the config's rows
    assert {t.name: t.shape for t in paramledger.inventory(deeper).tensors}["model.encoder.embed_positions.weight"] \
        == (rows, 2)


@pytest.mark.parametrize("pad, rows", [(0, 2), (3, 5)])
def test_the_decoder_alone_counts_the_same_rows(pad, rows):
    """--text-only (the decoder alone, towers.text_only) sizes its position table by pad_token_id as the whole
    model does: the design's position_offset, not the naming's BART offset of 2."""
    config = {**_smallest("fsmt"), "pad_token_id": pad}
    whole = paramledger.inventory(paramledger.load(config))
    alone = paramledger.inventory(text_only(paramledger.load(config)))
    shapes = {t.name: t.shape for t in alone.tensors}
    assert shapes["model.decoder.embed_positions.weight"] == (rows, 2)
    assert {t.name: t.shape for t in whole.tensors}["model.decoder.embed_positions.weight"] == (rows, 2)


@pytest.mark.parametrize("pad", [-2, -3])
def test_a_pad_token_id_outside_the_position_tables_is_refused_in_one_line(pad):
    config = {**_smallest("fsmt"), "pad_token_id": pad}
    assert "Padding_idx must be within num_embeddings" in transformers_outcome(config)
    with pytest.raises(ArchitectureError, match=r"^config: pad_token_id: -\d is outside the -?\d+ rows of FSMT's "
                                                r"position tables") as raised:
        paramledger.load(config)
    assert "\n" not in str(raised.value)


def test_a_pad_token_id_that_is_no_whole_number_is_refused():
    with pytest.raises(ArchitectureError, match="pad_token_id: must be a whole number, got 'x'"):
        paramledger.load({**_smallest("fsmt"), "pad_token_id": "x"})


@pytest.mark.parametrize("overrides, said", [
    (("position_embedding_type=learned", "position_offset=-5000"),
     "position_offset: -5,000 leaves a learned position table of -2,952 rows"),
    (("rope_type=zzz",), "rope_type: 'zzz' is not a rope_type transformers 5.24.0 makes"),
])
def test_the_designs_table_offset_and_rope_type_are_checked_when_set(cli, overrides, said):
    """The design fields FSMT's pad_token_id and Mistral Large 4's rope_type set are a design's too (--set, spec
    files): a table of no rows, or a rope_type no init function makes, is refused in one line, exit status 2."""
    status, out, err = cli("count", "seed-baseline", *(arg for pair in overrides for arg in ("--set", pair)))
    assert status == 2 and not out and said in err and err.strip().count("\n") == 0, err
