"""Llama 3.2 Vision counted whole (MllamaForConditionalGeneration, issue #16): the release's config, --text-only
(MllamaForCausalLM's decoder), memory --images refused for the cross-attention's figure, and one-line refusals of
a vision_config it cannot count.  The whole class is checked tensor by tensor in tests/test_families.py (strategy:
tests/_family_configs_mllama.py); docs/notes/multimodal-mllama.md says what it builds."""

from __future__ import annotations

import json

import pytest

import paramledger
from paramledger._exceptions import ArchitectureError
from paramledger.towers import text_only

ASPECT_RATIOS = [[1, 1], [1, 2], [1, 3], [1, 4], [2, 1], [2, 2], [3, 1], [4, 1]]
# meta-llama/Llama-3.2-11B-Vision's config.json (the keys that size something)
RELEASE = {
    "model_type": "mllama", "architectures": ["MllamaForConditionalGeneration"], "image_token_index": 128256,
    "torch_dtype": "bfloat16",
    "text_config": {"model_type": "mllama_text_model", "vocab_size": 128256, "hidden_size": 4096,
                    "intermediate_size": 14336, "num_hidden_layers": 40, "num_attention_heads": 32,
                    "num_key_value_heads": 8, "cross_attention_layers": [3, 8, 13, 18, 23, 28, 33, 38],
                    "pad_token_id": 128004, "rope_theta": 500000.0, "tie_word_embeddings": False,
                    "rope_scaling": {"factor": 8.0, "high_freq_factor": 4.0, "low_freq_factor": 1.0,
                                     "original_max_position_embeddings": 8192, "rope_type": "llama3"}},
    "vision_config": {"model_type": "mllama_vision_model", "attention_heads": 16, "hidden_size": 1280,
                      "image_size": 560, "intermediate_layers_indices": [3, 7, 15, 23, 30], "intermediate_size": 5120,
                      "max_num_tiles": 4, "num_channels": 3, "num_global_layers": 8, "num_hidden_layers": 32,
                      "patch_size": 14, "supported_aspect_ratios": ASPECT_RATIOS, "vision_output_dim": 7680},
}


def test_the_release_counts_whole_and_its_decoder_alone():
    arch = paramledger.load(RELEASE)
    inv = paramledger.inventory(arch)
    assert inv.total == 10_670_220_835  # the hub's 10.7 B: 906 tensors
    assert inv.components["vision"] == 863_567_379 and inv.components["projector"] == 31_461_376
    assert inv.tensors[0].name == "model.vision_model.class_embedding"
    assert [t.name for t in inv.tensors[-3:]] == ["model.multi_modal_projector.weight",
                                                  "model.multi_modal_projector.bias", "lm_head.weight"]
    assert inv.aliases == {}  # MllamaForConditionalGeneration ties nothing
    decoder = paramledger.inventory(text_only(arch))
    assert decoder.total == 9_775_192_080 == inv.text_decoder  # MllamaForCausalLM
    assert decoder.tensors[0].name == "model.embed_tokens.weight"
    assert not arch.notes[1:]  # every key understood


def test_the_head_is_never_tied():
    inv = paramledger.inventory(paramledger.load({**RELEASE, "tie_word_embeddings": True}))
    assert inv.total == 10_670_220_835 and inv.aliases == {}


def test_cli_counts_verifies_and_refuses_images_in_one_line(cli, tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps(RELEASE))
    status, out, _ = cli("count", str(path), "--json")
    view = json.loads(out)
    assert status == 0 and (view["total"], view["text_decoder"]) == (10_670_220_835, 9_775_192_080)
    status, out, _ = cli("count", str(path), "--text-only", "--json")
    assert status == 0 and json.loads(out)["total"] == 9_775_192_080
    status, out, _ = cli("verify", str(path), "--text-only")
    assert status == 0 and "MllamaForCausalLM" in out and "match: 395 tensors, total 9,775,192,080" in out
    # an image joins no decoder context: its vision states (4 tiles × (40² patches + 1)) are cross-attention keys
    status, _, err = cli("memory", str(path), "--images", "1")
    assert status == 2 and err.count("\n") == 1 and "--encoder-length 6404 per image" in err
    status, out, _ = cli("memory", str(path), "--encoder-length", "6404", "--context", "1024")
    # 8 cross-attention layers × 2 × 8 KV heads × 128 per vision state
    assert status == 0 and "cross-attention cache at bf16: 16,384 values per encoder token" in out


@pytest.mark.parametrize(("vision", "message"), [
    ({"hidden_size": 0}, r"vision_config.hidden_size: must be a positive whole number, got 0"),
    ({"image_size": [448, 448]}, r"vision_config.image_size: must be a positive whole number, got \[448, 448\]"),
    ({"image_size": 450}, r"vision_config.patch_size: 14 does not divide image_size=450: the patches would not tile"),
    ({"max_num_tiles": 0}, r"vision_config.max_num_tiles: must be a positive whole number, got 0"),
    ({"max_num_tiles": 2}, r"vision_config.max_num_tiles: must be 4 with the default supported_aspect_ratios, got 2"),
    ({"supported_aspect_ratios": [1, 2]}, r"vision_config.supported_aspect_ratios: must be a list of \[width, "),
    ({"intermediate_layers_indices": [3, 32]}, r"vision_config.intermediate_layers_indices: 32 is not a layer of "
                                               r"the 32 of num_hidden_layers"),
    ({"intermediate_layers_indices": [3]}, r"vision_config.vision_output_dim: 7680 is not hidden_size × \(1 \+ 1 "
                                           r"intermediate_layers_indices\) = 2,560"),
    ({"attention_heads": 7}, r"vision_config.attention_heads: 7 heads do not divide hidden_size=1280"),
    ({"num_attention_heads": -1}, r"vision_config.num_attention_heads: must be a positive whole number, got -1"),
    ({"num_global_layers": -1}, r"vision_config.num_global_layers: must be a whole number from 0, got -1"),
    ({"num_hidden_layers": 10**6}, r"vision_config.num_hidden_layers: 1,000,000 is beyond the bound of 10,000"),
    ({"hidden_size": 2**42, "attention_heads": 1, "vision_output_dim": 6 * 2**42},
     r"vision_config.max_num_tiles: the tile position table would be 4 × 1,025 × 4,398,046,511,104 wide, beyond"),
])
def test_a_vision_config_it_cannot_count_is_one_line_naming_the_key(vision, message):
    with pytest.raises(ArchitectureError, match=message) as error:
        paramledger.load({"model_type": "mllama", "vision_config": {"model_type": "mllama_vision_model", **vision}})
    assert "\n" not in str(error.value)


def test_negative_intermediate_layers_count_as_transformers_reads_them():
    # MllamaVisionModel reads output.hidden_states[i]: -1 is the last local layer
    vision = {"num_hidden_layers": 2, "num_global_layers": 1, "hidden_size": 8, "attention_heads": 2,
              "intermediate_size": 4, "intermediate_layers_indices": [-2, -1], "vision_output_dim": 24}
    inv = paramledger.inventory(paramledger.load({"model_type": "mllama", "vision_config": vision}))
    assert inv.components["projector"] == 24 * 4096 + 4096


def test_the_kv_cache_says_what_the_cross_attention_layers_hold():
    from paramledger.memory import memory_report

    report = memory_report(paramledger.load(RELEASE), context=1024, encoder_length=6404)
    assert report.kv.values_per_token == 32 * 2 * 8 * 128  # the 32 self-attention layers alone
    assert "8 cross-attention layers hold none of the tokens' keys and values" in report.kv.definition
    assert "reuse an earlier layer" not in report.kv.definition
    assert report.cross.values_per_token == 8 * 2 * 8 * 128 and report.cross.encoder_length == 6404
