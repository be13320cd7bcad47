"""A whole model's closed form (formula_towers.py): an encoder-decoder's encoder traced with its own sizes as symbols
of their own (L_enc, h_enc ...), a multimodal model's projector traced in the decoder's width d, each form checked
against what transformers builds at a design other than the one it was traced at."""

from __future__ import annotations

import pytest

import paramledger
from paramledger import formula

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
from paramledger.reference import build_reference  # noqa: E402

BART = {"model_type": "bart", "vocab_size": 64, "d_model": 32, "encoder_layers": 2, "decoder_layers": 3,
        "encoder_attention_heads": 4, "decoder_attention_heads": 2, "encoder_ffn_dim": 40, "decoder_ffn_dim": 24,
        "max_position_embeddings": 64}
T5 = {"model_type": "t5", "vocab_size": 64, "d_model": 32, "d_kv": 8, "d_ff": 24, "num_layers": 2,
      "num_decoder_layers": 3, "num_heads": 4, "relative_attention_num_buckets": 16}


def _reference_total(config: dict) -> int:
    return build_reference(config).total  # (AutoModelForSeq2SeqLM's unique parameters)


@pytest.mark.parametrize(("config", "other"), [
    (BART, {"encoder_layers": 5, "encoder_attention_heads": 8, "encoder_ffn_dim": 56, "decoder_layers": 1,
            "d_model": 48, "vocab_size": 80}),
    (T5, {"num_layers": 4, "num_decoder_layers": 1, "d_model": 48, "d_kv": 6, "num_heads": 2, "d_ff": 20}),
], ids=["bart", "t5"])
def test_an_encoder_decoders_form_gives_transformers_count_at_another_design(config, other):
    form = formula.closed_form(paramledger.load(config))
    assert {"L", "L_enc"} <= {str(symbol) for symbol in form.total.free_symbols}
    moved = paramledger.load({**config, **other})
    assert form.evaluate(form.total, moved) == _reference_total({**config, **other})
    assert form.evaluate(form.components["encoder"], moved) == paramledger.inventory(moved).component("encoder")


def test_the_encoders_own_sizes_are_symbols_of_their_own_and_the_shared_ones_the_decoders():
    form = formula.closed_form(paramledger.load(BART))
    encoder = {str(symbol) for symbol in form.components["encoder"].free_symbols}
    assert {"L_enc", "h_enc", "m_enc", "d"} <= encoder and not {"L", "h", "m"} & encoder
    assert form.variables()["L_enc"] == 2 and form.variables()["m_enc"] == 40


def test_a_multimodal_models_projector_is_traced_in_the_decoders_width():
    form = formula.closed_form("llava-1.5-7b-hf")
    assert str(form.components["projector"]) == "d**2 + 1026*d"  # linear_1 (4096 → d) and linear_2 (d → d)
    assert form.components["vision"].is_Integer  # fixed by its vision_config


def test_a_tower_made_from_the_config_alone_is_refused_in_one_line(cli, tmp_path):
    path = tmp_path / "config.json"
    path.write_text('{"model_type": "whisper"}')
    code, out, err = cli("formula", str(path))
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "Whisper's audio encoder" in err
    code, out, err = cli("formula", str(path), "--text-only")
    assert code == 0 and "total" in out


def test_an_encoder_with_a_section_of_its_own_has_every_size_its_own_symbol():
    """T5Gemma's encoder is read from its own section (width, depth, heads, vocabulary): d_enc and the rest."""
    form = formula.closed_form(paramledger.load({"model_type": "t5gemma"}))
    encoder = {str(symbol) for symbol in form.components["encoder"].free_symbols}
    assert {"d_enc", "L_enc", "h_enc", "m_enc", "V_enc"} <= encoder and not {"d", "L", "h", "m", "V"} & encoder
