"""A whole model's towers follow a change to its decoder (Architecture.replace, --set, --vary, what-if, sweep): an
encoder is the decoder's design at the encoder's own sizes, a projector reads the decoder's width and Whisper's audio
encoder reads d_model, so a copy that kept them from before counted a model no config describes.  Each change is
checked against the config written with that change and read again, tensor by tensor."""

from __future__ import annotations

import pytest

import paramledger
from paramledger import registry
from paramledger.hf_config import config_with_overrides

WHOLE = [m.name for m in registry.bundled() if paramledger.load(m.name).towers]
SEQ2SEQ_DEFAULTS = ["bart", "marian", "fsmt", "led", "whisper", "t5", "umt5", "longt5", "m2m_100", "pegasus", "pegasus_x",
                    "prophetnet"]


def _listing(inventory) -> list[tuple[str, tuple, str]]:
    return [(t.name, t.shape, t.component) for t in inventory.tensors]


def _assert_follows(config: dict, changes: dict) -> None:
    changed = paramledger.inventory(paramledger.load(config, **changes))
    reread = paramledger.inventory(paramledger.load(config_with_overrides(config, changes)))
    assert _listing(changed) == _listing(reread)
    assert changed.aliases == reread.aliases and changed.total == reread.total


@pytest.mark.parametrize("name", WHOLE)
def test_a_bundled_whole_models_towers_follow_its_decoders_width(name):
    config = registry.parsed_entry(registry.get(name).path)["config"]
    arch = paramledger.load(name)
    width = arch.hidden_size + 2 * arch.num_attention_heads
    _assert_follows(config, {"hidden_size": width})


@pytest.mark.parametrize("model_type", SEQ2SEQ_DEFAULTS)
# (a vocabulary above Marian's and Whisper's pad_token_id, 58100 and 50256: transformers builds no smaller one)
@pytest.mark.parametrize("changes", [{"hidden_size": 1536}, {"vocab_size": 60_000}, {"intermediate_size": 1000}],
                         ids=["width", "vocabulary", "ffn"])
def test_an_encoder_decoders_encoder_follows_a_change_to_the_decoder(model_type, changes):
    _assert_follows({"model_type": model_type}, changes)


def test_a_copy_of_a_copy_still_follows():
    arch = paramledger.load("t5-base").replace(hidden_size=1024).replace(num_attention_heads=16)
    reread = paramledger.load(config_with_overrides(
        registry.parsed_entry(registry.get("t5-base").path)["config"], {"hidden_size": 1024, "num_attention_heads": 16}))
    assert paramledger.inventory(arch).total == paramledger.inventory(reread).total


def test_count_with_set_says_the_whole_models_real_total(cli):
    code, out, err = cli("count", "t5-base", "--set", "d_model=1024", "--json")
    import json

    assert code == 0, err
    assert json.loads(out)["total"] == 297_204_480  # t5-base's config.json with d_model 1024, read whole


def test_t5gemmas_set_changes_its_decoder_section_alone():
    """T5Gemma's stacks have sections of their own: a change to the decoder is its decoder section's, the encoder
    keeps its own width (its cross-attention reads that), as transformers builds the config so written."""
    changes = {"hidden_size": 1536, "num_attention_heads": 8}
    changed = paramledger.inventory(paramledger.load({"model_type": "t5gemma"}, **changes))
    reread = paramledger.inventory(paramledger.load({"model_type": "t5gemma", "decoder": changes}))
    assert _listing(changed) == _listing(reread) and changed.total == reread.total


def test_opt_at_another_width_keeps_its_tables_width_and_projects_as_transformers_builds_it():
    # opt-125m's config gives word_embed_proj_dim 768: at hidden_size 816 OPTDecoder builds project_in/project_out
    config = registry.parsed_entry(registry.get("opt-125m").path)["config"]
    _assert_follows(config, {"hidden_size": 816})
    names = {t.name for t in paramledger.inventory(paramledger.load("opt-125m", hidden_size=816)).tensors}
    assert {"model.decoder.project_in.weight", "model.decoder.project_out.weight"} <= names
