"""Set BLT (issue #15): BltForCausalLM beyond tests/test_families.py's tensor-by-tensor check against transformers
5.24.0: the patcher frozen where named_parameters() says requires_grad False, Hugging Face's non-embedding count, the
tied head, the KV cache refused in one line (transformers cannot keep one: pinned here), --text-only refused, and
the refusals of every key the family reads (one line naming the key, exit status 2)."""

from __future__ import annotations

import json

import pytest
from _cli_refusal import refused_by_the_cli

import paramledger
from paramledger._exceptions import ArchitectureError, OptionError
from paramledger.kvcache import cross_attention_cache, kv_cache, kv_values_per_token
from paramledger.memory import memory_report

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

SMALL = {"model_type": "blt", "vocab_size": 30, "cross_attn_k": 2, "encoder_hash_byte_group_vocab": 11,
         "encoder_config": {"vocab_size": 30, "hidden_size": 8, "num_attention_heads": 2, "num_hidden_layers": 2,
                            "cross_attn_all_layers": True},
         "decoder_config": {"hidden_size": 12, "num_attention_heads": 2, "num_key_value_heads": 1,
                            "num_hidden_layers": 2, "hidden_size_global": 16, "intermediate_size": 20},
         "global_config": {"hidden_size": 16, "num_attention_heads": 2, "num_hidden_layers": 1,
                           "intermediate_size": 24},
         "patcher_config": {"vocab_size": 30, "hidden_size": 8, "num_attention_heads": 2, "num_hidden_layers": 1,
                            "intermediate_size": 12}}


def _model(config: dict):
    hf = transformers.BltConfig(**{key: value for key, value in config.items() if key != "model_type"})
    with torch.device("meta"):
        return transformers.AutoModelForCausalLM.from_config(hf)


def _with(**changes) -> dict:
    """SMALL with sub-config keys given as section__key."""
    config = json.loads(json.dumps(SMALL))
    for key, value in changes.items():
        section, _, inner = key.partition("__")
        if inner:
            config[section][inner] = value
        else:
            config[section] = value
    return config


def test_the_patcher_is_frozen_as_transformers_builds_it():
    inv = paramledger.inventory(paramledger.load(SMALL))
    model = _model(SMALL)
    assert {t.name for t in inv.tensors if t.frozen} == {
        name for name, p in model.named_parameters() if not p.requires_grad}
    assert any(t.name.startswith("model.patcher.") for t in inv.tensors if t.frozen)


@pytest.mark.parametrize("config", [SMALL, {"model_type": "blt"}, _with(patch_in_forward=False)])
def test_non_embedding_count_is_hugging_faces(config):
    """Every nn.Embedding out (the local encoder's table, the hash table, the patcher's), as transformers drops."""
    inv = paramledger.inventory(paramledger.load(config))
    assert inv.non_embedding("hf") == _model(config).num_parameters(exclude_embeddings=True)


def test_a_tied_head_is_the_local_encoders_table():
    config = _with(tie_word_embeddings=True, decoder_config__hidden_size=8)
    inv = paramledger.inventory(paramledger.load(config))
    assert inv.aliases == {"lm_head.weight": "model.local_encoder.embed_tokens.weight"}
    assert inv.total == _model(config).num_parameters()


def test_transformers_keeps_no_cache_for_blt():
    """The reason kvcache.NO_CACHE gives: BltModel.forward's DynamicCache(config=BltConfig) fails (when this
    starts to pass, size the cache against it instead of refusing)."""
    runnable = _with(decoder_config__hidden_size=8)  # the local decoder reads the encoder's states: one width
    hf = transformers.BltConfig(**{key: value for key, value in runnable.items() if key != "model_type"})
    model = transformers.AutoModelForCausalLM.from_config(hf).eval()
    ids = torch.randint(0, 30, (1, 6))
    with torch.no_grad(), pytest.raises(AttributeError, match="num_hidden_layers"):
        model(ids, use_cache=True)
    with torch.no_grad():
        assert model(ids, use_cache=False).cache is None


@pytest.mark.parametrize("ask", [lambda arch: kv_cache(arch, 16), lambda arch: kv_values_per_token(arch),
                                 lambda arch: cross_attention_cache(arch, 16), lambda arch: memory_report(arch)])
def test_the_kv_cache_is_refused_in_one_line(ask):
    with pytest.raises(OptionError, match=r"^kv-cache: blt: transformers 5\.24\.0 keeps no KV cache for BLT \("
                                          r"BltModel\.forward's DynamicCache\(config=BltConfig\) fails"):
        ask(paramledger.load(SMALL))


def test_memory_refuses_in_one_line_and_the_report_answers(cli, tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps(SMALL))
    code, _, err = cli("memory", str(path))
    assert code == 2 and len(err.strip().splitlines()) == 1 and "kv-cache: blt: " in err
    code, _, _ = cli("report", str(path), "-o", str(tmp_path / "report.html"))
    assert code == 0
    assert "No KV cache: transformers 5.24.0 keeps no KV cache for BLT" in (tmp_path / "report.html").read_text()


def test_text_only_is_refused(cli, tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps(SMALL))
    code, _, err = cli("count", str(path), "--text-only")
    assert code == 2 and "its local encoder alone is no class transformers 5.24.0 builds" in err


REFUSALS = [
    (_with(encoder_config=[1]), "encoder_config: must be a JSON object"),
    (_with(encoder_config__hidden_size=0), "encoder_config.hidden_size: must be a whole number from 1, got 0"),
    (_with(decoder_config__hidden_size="12"), "decoder_config.hidden_size: must be a whole number from 1"),
    (_with(global_config__num_attention_heads=32), "global_config.num_attention_heads: 32 is more than hidden_size"),
    (_with(patcher_config__hidden_size=10), "patcher_config.num_attention_heads: gives an odd head_dim 5"),
    (_with(decoder_config__num_key_value_heads=3), "decoder_config.num_key_value_heads: 3 does not divide"),
    (_with(global_config__num_hidden_layers=-1), "global_config.num_hidden_layers: must be a whole number from 0"),
    (_with(encoder_config__num_hidden_layers=0), "encoder_config.num_hidden_layers: must be a whole number from 1"),
    (_with(patcher_config__num_hidden_layers=10**8), "patcher_config.num_hidden_layers: 100,000,000 is beyond the "
                                                     "bound of 10,000 a tower's layers are named to"),
    (_with(encoder_config__num_hidden_layers=10_001), "encoder_config.num_hidden_layers: 10,001 is beyond the bound"),
    (_with(decoder_config__intermediate_size=None), "decoder_config.intermediate_size: must be a whole number, got"),
    (_with(encoder_config__intermediate_size=-3), "encoder_config.intermediate_size: must be a whole number from 1"),
    (_with(encoder_config__cross_attn_k=0), "encoder_config.cross_attn_k: must be a whole number from 1, got 0"),
    (_with(decoder_config__cross_attn_k=None), "decoder_config.cross_attn_k: must be a whole number from 1"),
    (_with(cross_attn_k=0), "cross_attn_k: must be a whole number from 1, got 0"),
    (_with(encoder_config__cross_attn_all_layers="yes"), "encoder_config.cross_attn_all_layers: must be true or"),
    (_with(decoder_config__cross_attn_all_layers=None), "decoder_config.cross_attn_all_layers: must be true or"),
    (_with(decoder_config__hidden_size_global=0), "decoder_config.hidden_size_global: must be a whole number from"),
    (_with(encoder_hash_byte_group_size=3), "encoder_hash_byte_group_size: must be a list of group sizes, got 3"),
    (_with(encoder_hash_byte_group_vocab=None), "encoder_hash_byte_group_vocab: must be a whole number from 0"),
    (_with(encoder_hash_byte_group_nb_functions=-1), "encoder_hash_byte_group_nb_functions: must be a whole"),
    (_with(encoder_hash_byte_group_vocab=10**16), "encoder_hash_byte_group_vocab: 10,000,000,000,000,000 is beyond"),
    (_with(encoder_hash_byte_group_vocab=10**12, encoder_hash_byte_group_nb_functions=10**4),
     "encoder_hash_byte_group_vocab: gives a hash table of"),
    (_with(patch_in_forward="yes"), "patch_in_forward: must be true, false or null"),
    (_with(patcher_config__vocab_size=0), "patcher_config.vocab_size: must be a whole number from 1, got 0"),
    (_with(encoder_config__vocab_size=None), "encoder_config.vocab_size: must be a whole number from 1, got None"),
    (_with(vocab_size=31), "vocab_size: 31 is more than encoder_config.vocab_size 30"),
    (_with(tie_word_embeddings=True), "tie_word_embeddings: true ties lm_head (30 × 12) to the local encoder's "
                                      "embed_tokens (30 × 8), another shape"),
    (_with(encoder_config__max_position_embeddings=0), "encoder_config.max_position_embeddings: must be a whole"),
]


@pytest.mark.parametrize("config, message", REFUSALS)
def test_bad_values_are_refused_naming_the_key(config, message):
    with pytest.raises(ArchitectureError, match="^config: " + message.replace("(", r"\(").replace(")", r"\)")):
        paramledger.load(config)


@pytest.mark.parametrize("config, message", REFUSALS[:3] + REFUSALS[-4:])
def test_the_cli_refuses_in_one_line_with_status_2(tmp_path, config, message):
    refused_by_the_cli(tmp_path, json.dumps(config), message)


def test_unknown_sub_config_keys_are_reported():
    arch = paramledger.load(_with(decoder_config__frobnicate=1))
    assert any("decoder_config.frobnicate" in note for note in arch.notes)


def test_a_set_width_and_depth_reach_the_stacks_beside_the_design():
    """--set hidden_size and num_hidden_layers change the local encoder: its cross-attention (one per layer here),
    its patch projection, the hash table's width and the global transformer's input projection follow, as
    transformers builds the config with encoder_config so changed."""
    from paramledger.reference import build_reference, diff

    config = _with(encoder_config__intermediate_size=20)
    arch = paramledger.load(config).replace(hidden_size=16, num_hidden_layers=3)
    expected = _with(encoder_config__intermediate_size=20, encoder_config__hidden_size=16,
                     encoder_config__num_hidden_layers=3)
    inv, reference = paramledger.inventory(arch), build_reference(expected)
    assert diff(inv, reference).matches
    assert [t.name for t in inv.tensors] == [name for name, _ in reference.tensors]


def test_flops_per_token_are_refused_in_one_line():
    from paramledger.compute import forward_flops_per_token

    with pytest.raises(OptionError, match="^flops: blt: BLT's global transformer runs once a patch"):
        forward_flops_per_token(paramledger.load(SMALL), 16)


def test_the_closed_form_is_refused_in_one_line(cli, tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps(SMALL))
    code, _, err = cli("formula", str(path))
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "its stacks beside the local encoder (towers/blt.py) read the encoder's sizes by their own rule" in err


def test_a_set_depth_past_the_towers_bound_is_one_line():
    """The local encoder's cross-attention, one per layer, is named layer by layer as a tower's are."""
    with pytest.raises(ArchitectureError, match="^config: num_hidden_layers: 10,001 is beyond the bound of 10,000 a tower's "
                                                "layers are named to"):
        paramledger.load(SMALL).replace(num_hidden_layers=10_001)
    assert paramledger.inventory(paramledger.load(_with(encoder_config__cross_attn_all_layers=False))
                                 .replace(num_hidden_layers=10**6)).total > 0  # one cross-attention: the design's


@pytest.mark.parametrize("section", ["encoder_config", "decoder_config", "global_config", "patcher_config"])
@pytest.mark.parametrize("head_dim", [1, 3, 5, 7])
def test_an_odd_head_dim_is_refused_where_transformers_refuses_it(section, head_dim):
    """validate_rope runs in every sub-config but the local encoder's, and lets an odd head_dim up to 4 through:
    paramledger refuses exactly those transformers refuses, and counts the others as it builds them."""
    config = _with(**{f"{section}__hidden_size": 2 * head_dim})
    try:
        transformers.BltConfig(**{key: value for key, value in config.items() if key != "model_type"})
    except Exception as error:  # (StrictDataclassClassValidationError)
        assert "even rotary dimension" in str(error)
        with pytest.raises(ArchitectureError, match=f"{section}.num_attention_heads: gives an odd head_dim"):
            paramledger.load(config)
        return
    assert paramledger.inventory(config).total == sum(p.numel() for p in _model(config).parameters())
