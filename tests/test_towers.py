"""Whole multimodal models (issue #16): the towers beside the decoder, the decoder alone with --text-only, and
one-line refusals for a vision_config paramledger cannot count.  Each family's whole model is checked tensor by
tensor against transformers in tests/test_families.py; these are the whole-model behaviours around it."""

from __future__ import annotations

import json
import re

import pytest

import paramledger
from paramledger._exceptions import ArchitectureError
from paramledger.towers import text_only


def test_gemma_3_4b_counts_whole_with_its_decoder_apart():
    arch = paramledger.load("gemma-3-4b-it")
    inv = paramledger.inventory(arch)
    assert inv.total == 4_300_079_472  # Gemma3ForConditionalGeneration, the hub's size label
    assert inv.components["vision"] == 416_866_032 and inv.components["projector"] == 2_950_272
    decoder = paramledger.inventory(text_only(arch))
    assert decoder.total == 3_880_263_168 == inv.total - inv.components["vision"] - inv.components["projector"]
    assert decoder.architecture.model_type == "gemma3_text"
    assert decoder.notes == ("gemma3 is multimodal: counting its text decoder (text_config) only",)
    assert inv.tensors[0].name == "model.vision_tower.embeddings.patch_embedding.weight"
    assert inv.aliases == {"lm_head.weight": "model.language_model.embed_tokens.weight"}


def test_a_design_copy_keeps_its_towers():
    arch = paramledger.load("gemma-3-4b-it")
    deeper = arch.replace(num_hidden_layers=40)
    assert deeper.towers == arch.towers
    assert "towers" not in arch.to_mapping() and "towers" not in paramledger.Architecture.field_names()


@pytest.mark.parametrize(("vision", "message"), [
    ([1, 2], "vision_config: must be a JSON object"),
    ({"model_type": "made_up_vision"},
     "vision_config.model_type: 'made_up_vision' is a vision tower paramledger does not build yet"),
    ({"model_type": "siglip_vision_model", "hidden_size": -1}, "vision_config.hidden_size: must be a positive"),
    ({"model_type": "siglip_vision_model", "hidden_size": 10, "num_attention_heads": 3},
     "vision_config.num_attention_heads: 3 heads do not divide hidden_size=10"),
    ({"model_type": "siglip_vision_model", "image_size": 8, "patch_size": 16},
     "vision_config.patch_size: 16 is larger than image_size=8"),
])
def test_a_vision_config_it_cannot_count_is_one_line(vision, message):
    with pytest.raises(ArchitectureError, match=message) as error:
        paramledger.load({"model_type": "gemma3", "vision_config": vision})
    assert "\n" not in str(error.value)


WHOLE = [family.model_type for family in paramledger.families.all_families() if family.whole is not None]


@pytest.mark.parametrize("model_type", WHOLE)
def test_a_whole_models_non_embedding_count_is_hugging_faces(model_type):
    """num_parameters(exclude_embeddings=True) drops every nn.Embedding: a tower's position table too."""
    import torch

    from paramledger.reference import auto_class, default_config, hf_config

    config = default_config(model_type)
    cfg = hf_config(config)
    with torch.device("meta"):
        model = auto_class(cfg).from_config(cfg)
    inv = paramledger.inventory(paramledger.load(config))
    assert inv.non_embedding("hf") == model.num_parameters(exclude_embeddings=True)
    assert inv.text_decoder == inv.total - sum(inv.component(c) for c in ("vision", "audio", "projector", "encoder",
                                                                          "talker", "vocoder"))


def test_count_gives_the_decoder_on_a_line_and_text_only_alone(cli):
    _, out, _ = cli("count", "gemma-3-4b-it")
    assert "total      4,300,079,472" in out
    assert "text decoder: 3,880,263,168 (3.88 B; the total less the towers; --text-only counts it alone)" in out
    _, out, _ = cli("count", "gemma-3-4b-it", "--json")
    view = json.loads(out)
    assert (view["total"], view["text_decoder"]) == (4_300_079_472, 3_880_263_168)
    assert view["components"]["vision"] == 416_866_032
    _, out, _ = cli("count", "gemma-3-4b-it", "--text-only", "--json")
    view = json.loads(out)
    assert view["total"] == view["text_decoder"] == 3_880_263_168 and "vision" not in view["components"]
    _, out, _ = cli("count", "Llama-3.2-1B")
    assert "text decoder:" not in out


def test_verify_compares_the_whole_model_or_the_decoder(cli):
    status, out, _ = cli("verify", "gemma-3-4b-it")
    assert status == 0 and "total 4,300,079,472" in out
    status, out, _ = cli("verify", "gemma-3-4b-it", "--text-only")
    assert status == 0 and "total 3,880,263,168" in out



def test_memory_adds_the_tokens_images_cost_the_decoder(cli):
    """Gemma 3: mm_tokens_per_image each; LLaVA: its patch grid less the class token; Qwen2-VL: its processor's
    smart_resize of the given size, then one token per 2 × 2 merged patches."""
    from paramledger.memory import memory_report

    plain = memory_report("gemma-3-4b-it", context=1_000 + 2 * 256)
    with_images = memory_report("gemma-3-4b-it", context=1_000, images=2)
    assert with_images.kv.bytes == plain.kv.bytes and with_images.image_tokens == 512
    assert memory_report("llava-1.5-7b-hf", context=10, images=1).image_tokens == 576  # (336 / 14)², no CLS
    smart_resize = pytest.importorskip("transformers.models.qwen2_vl.image_processing_pil_qwen2_vl").smart_resize
    config = {"model_type": "qwen2_vl", "vision_config": {"depth": 1, "embed_dim": 32, "num_heads": 2,
                                                          "hidden_size": 64}, "text_config": {"num_hidden_layers": 1}}
    for width, height in ((640, 480), (4000, 3000), (30, 20), (1000, 999)):
        h, w = smart_resize(height, width)
        got = memory_report(paramledger.load(config), context=1, images=3, image_size=(width, height)).image_tokens
        assert got == 3 * (h // 14) * (w // 14) // 4, (width, height)
    status, _, err = cli("memory", "gemma-2-2b", "--images", "1")
    assert status == 2 and err.count("\n") == 1 and "no towers" in err
    status, _, err = cli("memory", "gemma-3-4b-it", "--images", "1", "--image", "10")
    assert status == 2 and err.count("\n") == 1 and "WIDTHxHEIGHT" in err


@pytest.mark.parametrize("value", ["", None, -1, 2.5])
def test_an_image_token_count_it_cannot_read_is_one_line(value):
    """Found by the mangled-config fuzzer: Gemma 3's mm_tokens_per_image is read when the config is."""
    with pytest.raises(ArchitectureError, match=r"config: mm_tokens_per_image: must be a positive whole number") as e:
        paramledger.load({"model_type": "gemma3", "mm_tokens_per_image": value})
    assert "\n" not in str(e.value)


def test_every_view_gives_the_text_decoder_on_a_line(cli, tmp_path):
    """Issue #16: the text decoder's own total (the whole less the towers) is a line of every view."""
    from paramledger.server import api_view

    decoder, total = 3_880_263_168, 4_300_079_472
    report = tmp_path / "r.html"
    cli("report", "gemma-3-4b-it", "-o", str(report))
    assert f'<strong id="text-decoder">{decoder:,}</strong>' in report.read_text()
    _, out, _ = cli("memory", "gemma-3-4b-it", "--json")
    memory = json.loads(out)
    by = memory["weights_bytes_by_component"]
    assert memory["text_decoder_weights_bytes"] == memory["weights_bytes"] - by["vision"] - by["projector"]
    _, out, _ = cli("memory", "gemma-3-4b-it")
    assert f"text decoder: {memory['text_decoder_weights_bytes']:,} bytes" in out
    _, out, _ = cli("compare", "gemma-3-4b-it", "gemma-3-1b-it")
    assert f"{total:,} parameters (text decoder {decoder:,})" in out and "text decoder" in out.splitlines()[2]
    _, out, _ = cli("whatif", "gemma-3-4b-it", "--vary", "num_hidden_layers=34", "--json")
    row = json.loads(out)[0] if isinstance(json.loads(out), list) else json.loads(out)["rows"][0]
    assert (row["base_text_decoder"], row["text_decoder"]) == (decoder, decoder)
    assert f"text decoder: {decoder:,} (the total less the towers)" in api_view({"source": "gemma-3-4b-it"})["facts"]
    for argv in (("memory", "Llama-3.2-1B"), ("compare", "Llama-3.2-1B", "Qwen3-0.6B")):
        assert "text decoder" not in cli(*argv)[1]


def test_llava_over_a_tower_without_a_patch_grid_counts_and_says_its_images_are_unknown(cli, tmp_path):
    """Found by the slow config fuzzer: LLaVA's config may name any vision tower; a windowed Qwen3.5 tower has no
    fixed patch grid, and the image-token rule raised AttributeError where it should say the count is unknown."""
    config = {"model_type": "llava", "text_config": {"model_type": "llama", "vocab_size": 32064},
              "vision_config": {"model_type": "qwen3_5", "depth": 2, "hidden_size": 64, "intermediate_size": 64,
                                "num_heads": 2, "out_hidden_size": 128, "patch_size": 16, "spatial_merge_size": 2}}
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config))
    status, out, _ = cli("count", str(path))
    assert status == 0 and "llava" in out
    status, _, err = cli("memory", str(path), "--images", "1")
    assert status == 2 and err.count("\n") == 1 and "does not know how many tokens an image costs" in err


@pytest.mark.parametrize(("extra", "message"), [
    ({"spatial_merge_size": float("nan")}, "spatial_merge_size: must be a whole number, got nan"),
    ({"spatial_merge_size": float("inf")}, "spatial_merge_size: must be a whole number, got inf"),
    ({"spatial_merge_size": []}, r"spatial_merge_size: must be a whole number, got \[\]"),
    ({"multimodal_projector_bias": "false"}, "multimodal_projector_bias: must be true or false, got 'false'"),
    ({"tie_word_embeddings": "false"}, "tie_word_embeddings: must be true or false, got 'false'"),
])
def test_a_projector_or_tying_value_it_cannot_take_is_one_line(cli, tmp_path, extra, message):
    """Found by the slow config fuzzer on Mistral 3 (NaN, Infinity and a list raised ValueError, OverflowError and
    TypeError in its projector); a whole model's tying key is a boolean, as transformers' config classes read it."""
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"model_type": "mistral3", **extra}))
    status, out, err = cli("count", str(path))
    assert status == 2 and out == "" and err.count("\n") == 1
    assert re.search(f"config.json: {message}", err), err
