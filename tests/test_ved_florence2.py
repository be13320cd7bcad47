"""Florence-2 (families/florence2.py, towers/davit.py): the whole model that tests/test_families.py checks at its
defaults and on random configs (tests/_family_configs_ved.py): its figures at Florence2Config's defaults, the head
tied or not by the whole config, the BART decoder alone (--text-only), the parts shown apart and the refusals (one
line naming the key)."""

from __future__ import annotations

import json

import pytest

import paramledger
from paramledger._exceptions import ArchitectureError
from paramledger.reference import verify

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

SMALL = {"model_type": "florence2",
         "vision_config": {"embed_dim": [8, 16], "depths": [1, 2], "num_heads": [2, 2], "num_groups": [2, 4],
                           "patch_size": [7, 3], "patch_stride": [4, 2], "patch_padding": [3, 1],
                           "patch_prenorm": [False, True], "window_size": 3, "projection_dim": 16},
         "text_config": {"model_type": "bart", "d_model": 16, "encoder_layers": 2, "decoder_layers": 1,
                         "encoder_attention_heads": 2, "decoder_attention_heads": 2, "encoder_ffn_dim": 12,
                         "decoder_ffn_dim": 8, "vocab_size": 40, "max_position_embeddings": 20}}


def test_the_class_defaults_build_florence_2():
    """Florence2Config(): DaViT (128 … 1024 wide, depths 1/1/9/1), its projector, BART-large's encoder-decoder."""
    inventory = paramledger.inventory(paramledger.load({"model_type": "florence2"}))
    assert (len(inventory.tensors), inventory.total) == (916, 497_761_280)
    assert (inventory.components["vision"], inventory.components["projector"], inventory.components["encoder"]) == (
        90_368_000, 1_101_824, 152_207_360)
    assert inventory.tensors[0].name == "model.vision_tower.convs.0.conv.weight"
    assert inventory.aliases == {"lm_head.weight": "model.language_model.shared.weight",
                                 "model.language_model.encoder.embed_tokens.weight": "model.language_model.shared.weight",
                                 "model.language_model.decoder.embed_tokens.weight": "model.language_model.shared.weight"}


@pytest.mark.parametrize("tie", [None, True, False])
def test_the_whole_config_ties_the_head(tie):
    config = SMALL if tie is None else {**SMALL, "tie_word_embeddings": tie}
    result = verify(config)
    assert result.diff.matches
    assert ("lm_head.weight" in result.inventory.aliases) == (tie is not False)


def test_the_bart_decoder_alone_is_reachable():
    """--text-only counts text_config as BartForCausalLM builds it."""
    result = verify(SMALL, text_only=True)
    cfg = transformers.AutoConfig.for_model(**SMALL["text_config"])
    with torch.device("meta"):
        model = transformers.AutoModelForCausalLM.from_config(cfg)
    assert result.inventory.total == model.num_parameters() and not result.inventory.has_towers


def test_count_json_shows_the_parts_apart(cli, tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps(SMALL))
    code, out, _ = cli("count", str(path), "--json")
    assert code == 0
    data = json.loads(out)
    assert all(data["components"][part] > 0 for part in ("vision", "projector", "encoder"))
    assert data["total"] - sum(data["components"][part] for part in ("vision", "projector", "encoder")) == (
        data["text_decoder"])
    code, out, _ = cli("memory", str(path))
    assert code == 0 and "visual_temporal_embed" not in out  # (a buffer: in the bytes, never in the count)


@pytest.mark.parametrize(("config", "message"), [
    ({"vision_config": {"model_type": "davit", "dim_embed": [128, 256, 512, 1024]}},
     "vision_config.dim_embed: is the remote code's key"),
    ({"text_config": {"model_type": "florence2_language"}}, "text_config.model_type: 'florence2_language' is not"),
    ({"text_config": {"tie_word_embeddings": "no"}}, "text_config.tie_word_embeddings: must be true or false"),
    ({"vision_config": {"num_heads": [4, 8, 16]}}, "vision_config.num_heads: must list a positive whole number for "
                                                   "each of the 4 stages"),
    ({"vision_config": {"num_heads": [4, 8, 16, 32, 64]}}, "vision_config.num_heads: 5 entries and num_groups 4"),
    ({"vision_config": {"num_heads": [256, 8, 16, 32]}}, "vision_config.num_heads: 256 heads at stage 0 are more"),
    ({"vision_config": {"depths": [1, 1, 0, 1]}}, "vision_config.depths: must list a positive whole number"),
    ({"vision_config": {"depths": [1, 1, 20000, 1]}}, "vision_config.depths: 20,000 is beyond the bound"),
    ({"vision_config": {"depths": [9000, 9000, 1, 1]}}, "vision_config.depths: 18,002 blocks are beyond the bound"),
    ({"vision_config": {"patch_prenorm": [0, 1, 1, 1]}}, "vision_config.patch_prenorm: must list true or false"),
    ({"vision_config": {"patch_padding": [-1, 1, 1, 1]}}, "vision_config.patch_padding: must list a whole number"),
    ({"vision_config": {"embed_dim": []}}, "vision_config.embed_dim: must list a positive whole number"),
    ({"vision_config": {"mlp_ratio": 0.001}}, "vision_config.mlp_ratio: 0.001 gives stage 0 an FFN of 0 channels"),
    ({"vision_config": {"qkv_bias": None}}, "vision_config.qkv_bias: must be true or false"),
    ({"vision_config": {"projection_dim": 0}}, "vision_config.projection_dim: must be a positive whole number"),
    ({"vision_config": {"in_channels": -3}}, "vision_config.in_channels: must be a positive whole number"),
    ({"tie_word_embeddings": "yes"}, "tie_word_embeddings: must be true or false"),
])
def test_bad_input_is_refused_in_one_line_naming_the_key(config, message):
    with pytest.raises(ArchitectureError, match=message) as raised:
        paramledger.load({"model_type": "florence2", **config})
    assert "\n" not in str(raised.value)


def test_formula_reads_the_projector_from_vision_config(cli, tmp_path):
    """formula's projector_at hands the projector the first tower, which Whole.made's encoder precedes: the projector
    reads embed_dim from vision_config, and the closed form equals the count."""
    path = tmp_path / "config.json"
    path.write_text(json.dumps(SMALL))
    code, out, err = cli("formula", str(path))
    assert code == 0, err
    assert f"at the design: {paramledger.inventory(paramledger.load(SMALL)).total:,} (equal to the inventory total)" in out
