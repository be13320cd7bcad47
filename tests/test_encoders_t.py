"""Set T's encoders (XLM's code: xlm, flaubert) beyond tests/test_families.py's tensor-by-tensor check: Hugging Face's
own non-embedding count, the masked-LM mapping's class, the layers held as module lists (named and listed as
named_parameters() does), FlauBERT's pre_norm, and the refusals of what the family's table does not build."""

from __future__ import annotations

import json

import pytest
from _family_configs_t import CONFIGS_T
from hypothesis import given
from hypothesis import strategies as st
from test_encoders_k import masked_lm  # AutoModelForMaskedLM on the meta device

import paramledger
from paramledger import families
from paramledger._exceptions import ArchitectureError
from paramledger.reference import default_config, diff, reference_of

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

# xlm-mlm-xnli15-1024's sizes (15 languages, 1,024 wide, 8 heads, 95,000 words): a language table is built
MULTILINGUAL = {"n_langs": 15, "emb_dim": 1024, "n_heads": 8, "vocab_size": 95000}


@pytest.mark.parametrize("model_type", sorted(CONFIGS_T))
@pytest.mark.parametrize("extra", [{}, MULTILINGUAL], ids=["defaults", "multilingual"])
def test_hugging_face_non_embedding_count(model_type, extra):
    """num_parameters(exclude_embeddings=True) drops the three nn.Embedding tables (tokens, positions, languages)."""
    config = {**default_config(model_type), **extra}
    model = masked_lm(config)
    inventory = paramledger.inventory(paramledger.load(config))
    assert type(model).__name__ == families.get(model_type).causal_lm_class  # the one class both mappings name
    assert inventory.total == model.num_parameters()
    assert inventory.non_embedding("hf") == model.num_parameters(exclude_embeddings=True)


def test_defaults_total():
    """XLMConfig's defaults (2,048 wide, 12 layers, 30,145 words, tied): measured on the meta device."""
    assert paramledger.inventory(paramledger.load({"model_type": "xlm"})).total == 667_119_041


@pytest.mark.parametrize("model_type", sorted(CONFIGS_T))
@given(data=st.data())
def test_the_masked_lm_class_is_the_reference(model_type, data):
    config = data.draw(CONFIGS_T[model_type], label="config")
    assert diff(paramledger.inventory(paramledger.load(config)), reference_of(masked_lm(config), model_type)).matches


def test_layers_are_listed_per_module_list():
    """Every layer's attention before any layer's norm (XLMModel's ModuleLists), each tensor keeping its layer."""
    inventory = paramledger.inventory(paramledger.load({"model_type": "xlm", "n_layers": 3, "emb_dim": 8,
                                                        "n_heads": 2, "n_langs": 2}))
    names = [t.name for t in inventory.tensors]
    assert names[:5] == ["transformer.position_embeddings.weight", "transformer.lang_embeddings.weight",
                         "transformer.embeddings.weight", "transformer.layer_norm_emb.weight",
                         "transformer.layer_norm_emb.bias"]
    assert names.index("transformer.attentions.2.out_lin.bias") < names.index("transformer.layer_norm1.0.weight")
    assert names.index("transformer.layer_norm2.2.bias") == len(names) - 2  # then pred_layer.proj.bias
    assert inventory["transformer.ffns.1.lin1.weight"].layer == 1
    assert inventory.by_layer[2] == inventory.by_layer[0] == 4 * (8 * 8 + 8) + 2 * 8 * 32 + 32 + 8 + 4 * 8
    assert inventory.aliases == {"pred_layer.proj.weight": "transformer.embeddings.weight"}


def test_flaubert_pre_norm_moves_the_norms_not_the_tensors():
    post, pre = (paramledger.load({"model_type": "flaubert", "pre_norm": value}) for value in (False, True))
    assert (post.norm_placement, pre.norm_placement) == ("post", "pre")
    assert paramledger.inventory(post).tensors == paramledger.inventory(pre).tensors


@pytest.mark.parametrize("model_type", sorted(CONFIGS_T))
@pytest.mark.parametrize(("key", "value", "message"), [
    ("asm", True, "asm: true without asm_cutoffs: transformers cannot build it"),
    ("is_encoder", False, "is_encoder: false is refused by transformers"),
    ("n_langs", "3", "n_langs: must be a whole number, got '3'"),
    ("n_langs", 2**60, "n_langs: 1,152,921,504,606,846,976 is beyond the bound"),
    ("use_lang_emb", 1, "use_lang_emb: must be true or false, got 1"),
    ("gelu_activation", None, "gelu_activation: must be true or false, got None"),
])
def test_refusals_name_the_key(tmp_path, cli, model_type, key, value, message):
    config = {"model_type": model_type, key: value}
    with pytest.raises(ArchitectureError, match="config: " + message.format(model_type)):
        paramledger.load(config)
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config))
    status, out, err = cli("count", str(path))
    assert status == 2 and out == "" and err.count("\n") == 1 and f"{key}: " in err


def test_flaubert_pre_norm_must_be_a_bool():
    with pytest.raises(ArchitectureError, match="config: pre_norm: must be true or false, got 'yes'"):
        paramledger.load({"model_type": "flaubert", "pre_norm": "yes"})


@pytest.mark.parametrize("model_type", ["xlm", "flaubert"])
def test_a_depth_past_the_listed_bound_is_refused_in_one_line_and_the_bound_counts(tmp_path, cli, model_type):
    """XLM's module lists make one tuple per tensor: 10,000 layers count (a few seconds), 10,001 are refused rather than
    taking minutes and gigabytes at 10^6 (docs/limits.md); --set and --vary alike."""
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"model_type": model_type, "emb_dim": 8, "n_heads": 2, "n_words": 16}))
    status, out, _ = cli("count", str(path), "--set", "n_layers=10000", "--json")
    assert status == 0 and json.loads(out)["architecture"]["num_hidden_layers"] == 10_000
    for argv in (["count", str(path), "--set", "n_layers=10001"], ["whatif", str(path), "--vary", "n_layers=1000000"]):
        status, _, err = cli(*argv)
        assert status == 2 and len(err.strip().splitlines()) == 1
        assert "num_hidden_layers: " in err and "beyond the 10,000 paramledger lists one tensor at a time" in err
