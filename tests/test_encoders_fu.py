"""Set FU's encoder, Funnel Transformer (FunnelForMaskedLM), beyond tests/test_families.py's tensor-by-tensor check:
Hugging Face's own non-embedding count, no KV cache (as transformers keeps none), the layers' names in the encoder's
blocks and the decoder's list, and the refusals of the keys its rule reads."""

from __future__ import annotations

import contextlib
import io
import warnings

import pytest
from _family_configs_fu import CONFIGS_FU
from hypothesis import given, settings

import paramledger
import paramledger.cli
from paramledger._exceptions import ArchitectureError
from paramledger.kvcache import kv_cache, kv_values_per_token
from paramledger.reference import default_config, hf_config

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")


def masked_lm(config: dict, device: str = "meta"):
    """AutoModelForMaskedLM's model of ``config`` (on the meta device unless asked)."""
    transformers.logging.set_verbosity_error()
    cfg = hf_config(config)
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings(), torch.device(device):
        warnings.simplefilter("ignore")
        return transformers.AutoModelForMaskedLM.from_config(cfg)


def test_hugging_face_non_embedding_count_at_the_class_defaults():
    """num_parameters(exclude_embeddings=True) drops the word table (and its tied head): 131,003,706 in all,
    107,562,810 without embeddings, as FunnelForMaskedLM counts itself."""
    config = default_config("funnel")
    model = masked_lm(config)
    inventory = paramledger.inventory(paramledger.load(config))
    assert inventory.total == model.num_parameters() == 131_003_706
    assert inventory.non_embedding("hf") == model.num_parameters(exclude_embeddings=True) == 107_562_810


def test_layers_are_named_in_the_encoder_blocks_then_the_decoder_list():
    config = {"model_type": "funnel", "block_sizes": [2, 0, 1], "num_decoder_layers": 2}
    names = [t.name for t in paramledger.inventory(paramledger.load(config)).tensors]
    layers = list(dict.fromkeys(name.rsplit(".attention.", 1)[0] for name in names if ".attention.r_w_bias" in name))
    assert layers == ["funnel.encoder.blocks.0.0", "funnel.encoder.blocks.0.1", "funnel.encoder.blocks.2.0",
                      "funnel.decoder.layers.0", "funnel.decoder.layers.1"]


@settings(max_examples=5, deadline=None)
# (transformers builds but cannot run a block of 0 layers, nor an odd d_model: FunnelAttentionStructure's sinusoids
# take d_model // 2 frequencies)
@given(config=CONFIGS_FU["funnel"].filter(lambda config: all(config["block_sizes"])
                                          and config.get("d_model", config.get("hidden_size")) % 2 == 0))
def test_no_kv_cache_as_transformers_keeps_none(config):
    """FunnelModel's forward takes no use_cache and returns no past_key_values: every layer attends both ways over
    the whole (pooled) sequence, and paramledger caches nothing for it."""
    arch = paramledger.load(config)
    assert kv_values_per_token(arch) == 0
    assert kv_cache(arch, context=16, batch=2, dtype="fp32").bytes == 0
    torch.manual_seed(0)
    model = masked_lm(config, "cpu").eval()
    with torch.no_grad():
        out = model(torch.randint(0, config["vocab_size"], (2, 16)))
    assert getattr(out, "past_key_values", None) is None
    assert "past_key_values" not in out and "cache" not in out


@pytest.mark.parametrize(("change", "message"), [
    ({"block_sizes": []}, r"block_sizes: \[\] is not a non-empty list of layer counts of 0 or more"),
    ({"block_sizes": [2, -1]}, r"block_sizes: \[2, -1\] is not a non-empty list"),
    ({"block_sizes": [0], "num_decoder_layers": 0}, "block_sizes: no layer in the blocks nor in the decoder"),
    ({"block_sizes": [10**12]}, "block_sizes: 1,000,000,000,002 layers with the decoder's are beyond the 10,000"),
    ({"block_repeats": [1, 2]}, "block_repeats: 2 entries for 3 blocks"),
    ({"block_repeats": [1, 0, 1]}, None),  # counted: a repeat changes no tensor
    ({"num_decoder_layers": -1}, "num_decoder_layers: -1 is not a layer count of 0 or more"),
    ({"pooling_type": "min"}, r"pooling_type: 'min' is not one of \['mean', 'max'\]"),
    ({"attention_type": "full"}, r"attention_type: 'full' is not one of \['relative_shift', 'factorized'\]"),
])
def test_funnel_refuses_what_its_config_class_refuses(change, message):
    config = {"model_type": "funnel", **change}
    if message is None:
        assert paramledger.inventory(paramledger.load(config)).total == 131_003_706
        return
    with pytest.raises(ArchitectureError, match=message):
        paramledger.load(config)


def test_funnel_refusal_is_one_line_and_exit_status_2(tmp_path, capsys):
    path = tmp_path / "config.json"
    path.write_text('{"model_type": "funnel", "pooling_type": "min"}')
    assert paramledger.cli.main(["count", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "pooling_type: 'min' is not one of" in err


@pytest.mark.parametrize(("change", "message"), [
    ({"block_sizes": (2,)}, r"block_sizes: set without funnel_layers"),
    ({"funnel_layers": (0, 1)}, r"funnel_layers: its layers hold their own norms: needs norm_placement 'none'"),
])
def test_the_funnel_layer_keys_on_another_design_are_refused(change, message):
    """The part's flat keys given to a design whose layers are not Funnel's (--set): one line naming the key."""
    with pytest.raises(ArchitectureError, match=message):
        paramledger.load("seed-1.1b", **change)
