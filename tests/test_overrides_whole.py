"""--set and --vary of an encoder-decoder's own config keys (BART's encoder_layers, encoder_ffn_dim): the decoder's
table does not read them, so the config the design was read from is read again with them, and the count is what
transformers builds from that config.  --vary takes a family's own keys too, as --set does (GPT-2's n_layer)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import paramledger
from paramledger.reference import build_reference, diff

BART = dict(model_type="bart", vocab_size=64, d_model=32, decoder_layers=3, decoder_attention_heads=4,
            decoder_ffn_dim=24, encoder_layers=2, encoder_attention_heads=2, encoder_ffn_dim=8,
            max_position_embeddings=40, pad_token_id=0, bos_token_id=0, eos_token_id=0, decoder_start_token_id=0,
            forced_eos_token_id=None)


@pytest.fixture
def bart_file(tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps(BART))
    return path


@pytest.mark.parametrize("changes", [{"encoder_layers": "5"}, {"encoder_ffn_dim": "20", "decoder_layers": "1"},
                                     {"encoder_attention_heads": "4", "encoder_layers": "1"}])
def test_an_encoder_key_set_counts_what_transformers_builds(bart_file, changes):
    pytest.importorskip("transformers")
    inventory = paramledger.inventory(paramledger.load(str(bart_file), **changes))
    reference = build_reference({**BART, **{key: int(value) for key, value in changes.items()}})
    assert diff(inventory, reference).matches
    assert inventory.architecture.source == str(bart_file)


def test_an_encoder_key_set_badly_is_one_line(bart_file):
    done = subprocess.run([sys.executable, "-m", "paramledger", "count", str(bart_file), "--set", "encoder_layers=0"],
                          capture_output=True, text=True)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().count("\n") == 0 and "encoder_layers" in done.stderr


def test_an_encoder_key_stays_unknown_to_a_decoder():
    with pytest.raises(paramledger.UnknownKeyError, match="encoder_layers"):
        paramledger.load("Llama-3.2-1B", encoder_layers=3)


def test_whatif_varies_an_encoder_key_and_a_family_key(bart_file):
    pytest.importorskip("transformers")
    rows = paramledger.what_if(str(bart_file), ["encoder_layers=4", "decoder_layers=1,encoder_ffn_dim=16"])
    for row, changes in zip(rows, ({"encoder_layers": 4}, {"decoder_layers": 1, "encoder_ffn_dim": 16})):
        assert diff(row.other, build_reference({**BART, **changes})).matches
    gpt2 = paramledger.what_if("gpt2", ["n_layer=3"])[0]  # GPT-2's own key for num_hidden_layers
    assert gpt2.other.architecture.num_hidden_layers == 3


def test_whatif_refuses_an_encoder_key_of_a_decoder_in_one_line():
    done = subprocess.run([sys.executable, "-m", "paramledger", "whatif", "SmolLM2-135M", "--vary", "encoder_layers=3"],
                          capture_output=True, text=True)
    assert done.returncode == 2 and done.stdout == "" and done.stderr.count("\n") == 1
    assert "--vary: encoder_layers: unknown key" in done.stderr
