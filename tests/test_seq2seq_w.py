"""The sparse encoder-decoders counted whole (families/switch_transformers.py, families/nllb_moe.py): what
AutoModelForSeq2SeqLM builds for switch_transformers and nllb-moe, the sparse blocks where each class places them, one
module per expert, the active count (one expert a token for Switch, two for NLLB-MoE) against the modules transformers
builds, the caches against transformers' own after a real forward pass, and the refusals.  tests/test_families.py
checks every type's defaults and random configs (tests/_family_configs_w.py); these are the behaviours around them."""

from __future__ import annotations

import json

import pytest

import paramledger
from paramledger._exceptions import ArchitectureError
from paramledger.buffers import every_buffer
from paramledger.compute import matmul_parameters
from paramledger.reference import build_reference, default_config, diff

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

SWITCH = {"model_type": "switch_transformers", "vocab_size": 64, "d_model": 32, "d_kv": 8, "d_ff": 24,
          "num_layers": 4, "num_decoder_layers": 4, "num_heads": 4, "relative_attention_num_buckets": 16,
          "num_experts": 3, "num_sparse_encoder_layers": 2, "num_sparse_decoder_layers": 2, "pad_token_id": 0,
          "eos_token_id": 1, "decoder_start_token_id": 0}
NLLB = {"model_type": "nllb-moe", "vocab_size": 64, "d_model": 32, "encoder_layers": 4, "decoder_layers": 4,
        "encoder_attention_heads": 4, "decoder_attention_heads": 4, "encoder_ffn_dim": 24, "decoder_ffn_dim": 20,
        "max_position_embeddings": 32, "num_experts": 3, "encoder_sparse_step": 2, "decoder_sparse_step": 2,
        "pad_token_id": 1, "bos_token_id": 0, "eos_token_id": 2, "decoder_start_token_id": 2}
TYPES = ("switch_transformers", "nllb-moe")
TINY = {"switch_transformers": SWITCH, "nllb-moe": NLLB}
TOP_K = {"switch_transformers": 1, "nllb-moe": 2}


def _meta(config: dict):
    cfg = transformers.AutoConfig.for_model(**config)
    with torch.device("meta"):
        return transformers.AutoModelForSeq2SeqLM.from_config(cfg)


def _active_in(model, top_k: int) -> int:
    """The parameters one token reads in the modules transformers builds: every parameter but the experts', and
    ``top_k`` experts of each sparse block (each an nn.ModuleDict of like experts)."""
    total = sum(p.numel() for p in model.parameters())
    for module in model.modules():
        if type(module).__name__.endswith("Experts"):
            experts = list(module.values())
            total -= sum(p.numel() for p in module.parameters())
            total += top_k * sum(p.numel() for p in experts[0].parameters())
    return total


def assert_caches_equal_transformers(config: dict) -> None:
    """test_seq2seq_n's check (both caches as the EncoderDecoderCache holds them after a real forward pass), the
    forward called without use_cache: SwitchTransformersStack refuses use_cache=True in its encoder (5.24.0
    modeling_switch_transformers.py line 733, the model passes it to both stacks); the config's own use_cache (true)
    gives the decoder its cache."""
    from paramledger.kvcache import cross_attention_cache, kv_cache

    torch.manual_seed(0)
    model = transformers.AutoModelForSeq2SeqLM.from_config(transformers.AutoConfig.for_model(**config)).eval()
    generator = torch.Generator().manual_seed(1)
    batch, source, target = 2, 9, 4
    ids = torch.randint(2, 64, (batch, source), generator=generator)
    decoder_ids = torch.randint(2, 64, (batch, target), generator=generator)
    with torch.no_grad():
        cache = model(input_ids=ids, decoder_input_ids=decoder_ids).cache

    def held(part) -> int:
        return sum(layer.keys.nbytes + layer.values.nbytes for layer in part.layers
                   if getattr(layer, "keys", None) is not None)

    arch = paramledger.load(config)
    assert kv_cache(arch, context=target, batch=batch, dtype="fp32").bytes == held(cache.self_attention_cache) > 0
    assert cross_attention_cache(arch, encoder_length=source, batch=batch,
                                 dtype="fp32").bytes == held(cache.cross_attention_cache) > 0


def _sparse_blocks(inventory, stack: str) -> list[int]:
    """The blocks of ``stack`` ("encoder", "model.decoder" ...) that hold a router."""
    return sorted({int(t.name.removeprefix(stack + ".").split(".")[1]) for t in inventory.tensors
                   if t.name.startswith(stack + ".") and ".router." in t.name})


@pytest.mark.parametrize("model_type", TYPES)
def test_the_class_default_is_the_whole_model(model_type):
    config = default_config(model_type)
    inventory = paramledger.inventory(paramledger.load(config))
    whole = build_reference(config)
    assert whole.class_name == paramledger.families.get(model_type).seq2seq.whole_class
    assert diff(inventory, whole).matches
    assert [t.name for t in inventory.tensors] == [name for name, _ in whole.tensors]
    assert inventory.has_towers and inventory.component("encoder") + inventory.text_decoder == inventory.total


def test_switch_base_8_figures():
    """SwitchTransformersConfig's defaults are switch-base-8's sizes: 317,312,256 in the whole model, its sparse
    blocks 1, 5 and 9 of each stack (num_layers // num_sparse_*_layers = 4, block i sparse where i % 4 == 1), 8
    experts each; one expert a token: 185,191,680 active."""
    config = default_config("switch_transformers")
    inventory = paramledger.inventory(paramledger.load(config))
    assert inventory.total == 317_312_256
    assert _sparse_blocks(inventory, "encoder") == _sparse_blocks(inventory, "decoder") == [1, 5, 9]
    assert inventory.active == _active_in(_meta(config), 1) == 185_191_680
    assert inventory.aliases == {"lm_head.weight": "shared.weight", "encoder.embed_tokens.weight": "shared.weight",
                                 "decoder.embed_tokens.weight": "shared.weight"}


@pytest.mark.parametrize("model_type", TYPES)
@pytest.mark.parametrize("experts", [1, 3, 7])
def test_the_active_count_reads_top_k_experts_of_each_sparse_block(model_type, experts):
    """One expert's own tensors are 1/experts of each block's set, summed exactly (7 experts of a 24 × 32 Linear
    and its bias do not divide each tensor)."""
    config = {**TINY[model_type], "num_experts": experts}
    inventory = paramledger.inventory(paramledger.load(config))
    model = _meta(config)
    assert inventory.total == sum(p.numel() for p in model.parameters())
    assert inventory.active == _active_in(model, min(TOP_K[model_type], experts))
    assert inventory.active < inventory.total or experts == 1
    assert matmul_parameters(inventory) <= inventory.active


@pytest.mark.parametrize(("given", "encoder", "decoder"), [
    ({}, [1, 3], [1, 3]),  # 4 // 2: blocks 1 and 3
    ({"encoder_sparse_step": 1}, [0, 1, 2, 3], [1, 3]),  # every block
    ({"decoder_sparse_step": 3, "encoder_sparse_step": 0}, [], [1]),  # 0: none; 3: block 1 alone
    ({"num_sparse_encoder_layers": 0}, [1], [1, 3]),  # SwitchTransformersConfig's HACK: step = depth, block 1
    ({"num_sparse_decoder_layers": 9}, [1, 3], []),  # 4 // 9 = 0: none
    ({"num_layers": 1, "num_sparse_encoder_layers": 0}, [0], [1, 3]),  # step 1 at depth 1: sparse
], ids=["count", "step-1", "step-0-and-3", "hack", "more-than-depth", "hack-at-depth-1"])
def test_switch_places_its_sparse_blocks_as_its_stack_does(given, encoder, decoder):
    config = {**SWITCH, **given}
    inventory = paramledger.inventory(paramledger.load(config))
    assert (_sparse_blocks(inventory, "encoder"), _sparse_blocks(inventory, "decoder")) == (encoder, decoder)
    assert diff(inventory, build_reference(config)).matches


def test_switch_experts_are_one_module_each():
    inventory = paramledger.inventory(paramledger.load({**SWITCH, "router_bias": True}))
    names = [t.name for t in inventory.tensors if t.name.startswith("decoder.block.1.layer.2.")]
    assert names[:4] == ["decoder.block.1.layer.2.mlp.router.classifier.weight",
                         "decoder.block.1.layer.2.mlp.router.classifier.bias",
                         "decoder.block.1.layer.2.mlp.experts.expert_0.wi.weight",
                         "decoder.block.1.layer.2.mlp.experts.expert_0.wo.weight"]
    assert inventory["encoder.block.3.layer.1.mlp.experts.expert_2.wo.weight"].shape == (32, 24)
    assert inventory["decoder.block.0.layer.2.mlp.wi.weight"].shape == (24, 32)  # a dense block


@pytest.mark.parametrize("tie", [True, False])
def test_switch_ties_its_tables_as_the_config_says(tie):
    config = {**SWITCH, "tie_word_embeddings": tie}
    inventory = paramledger.inventory(paramledger.load(config))
    model = _meta(config)
    assert diff(inventory, build_reference(config)).matches
    assert (model.lm_head.weight is model.shared.weight) is tie
    assert len(inventory.aliases) == (3 if tie else 0)
    assert inventory.non_embedding("hf") == model.num_parameters(exclude_embeddings=True)


@pytest.mark.parametrize("config", [
    SWITCH, {**SWITCH, "num_decoder_layers": 3, "encoder_sparse_step": 1},
    {**SWITCH, "num_decoder_layers": 2, "num_sparse_decoder_layers": 1},
], ids=["4-over-4", "3-over-4", "2-over-4"])
def test_the_whole_models_caches_equal_transformers_after_a_forward_pass(config):
    assert_caches_equal_transformers(config)


def test_a_new_depth_places_the_sparse_blocks_as_the_config_would():
    """--set num_hidden_layers=N writes num_decoder_layers=N: the step is read from the config again."""
    arch = paramledger.load({**SWITCH, "decoder_sparse_step": 2}).replace(num_hidden_layers=6)
    inventory = paramledger.inventory(arch)
    assert _sparse_blocks(inventory, "decoder") == [1, 3, 5]
    config = {**SWITCH, "decoder_sparse_step": 2, "num_decoder_layers": 6}
    assert diff(inventory, build_reference(config)).matches


@pytest.mark.parametrize(("key", "value", "message"), [
    ("dense_act_fn", "swishy", "dense_act_fn: 'swishy' is not counted: one of"),
    ("dense_act_fn", "xielu", "dense_act_fn: 'xielu' is not counted"),
    ("dense_act_fn", "prelu", "dense_act_fn: 'prelu' is not counted"),
    ("dense_act_fn", "gated-gelu", "dense_act_fn: 'gated-gelu' is not counted"),
    ("num_experts", 0, "num_experts: must be a positive whole number, got 0"),
    ("encoder_sparse_step", None, "encoder_sparse_step: must be a whole number, got None"),
    ("decoder_sparse_step", "2", "decoder_sparse_step: must be a whole number, got '2'"),
    ("num_sparse_encoder_layers", 1.5, "num_sparse_encoder_layers: must be a whole number, got 1.5"),
    ("num_sparse_decoder_layers", None, "num_sparse_decoder_layers: must be a whole number, got None"),
])
def test_switch_refuses_a_bad_value_in_one_line_under_its_own_key(key, value, message):
    with pytest.raises(ArchitectureError, match=message.replace("(", r"\(").replace(")", r"\)")) as raised:
        paramledger.load({**SWITCH, key: value})
    assert "\n" not in str(raised.value)


def test_a_bad_value_exits_2_with_one_line(cli, tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps({**SWITCH, "encoder_sparse_step": None}))
    code, out, err = cli("count", str(path))
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "encoder_sparse_step" in err


def test_nllb_moe_figures():
    """NllbMoeConfig's defaults: 6,880,712,704 in the whole model, layers 3, 7 and 11 of each stack sparse ((i + 1) %
    4 == 0), 128 experts each; two experts a token: 535,054,336 active.  The sinusoidal positions are buffers."""
    config = default_config("nllb-moe")
    inventory = paramledger.inventory(paramledger.load(config))
    assert inventory.total == 6_880_712_704
    assert _sparse_blocks(inventory, "model.encoder") == _sparse_blocks(inventory, "model.decoder") == [3, 7, 11]
    assert inventory.active == _active_in(_meta(config), 2) == 535_054_336
    assert inventory.aliases == {"lm_head.weight": "model.shared.weight",
                                 "model.encoder.embed_tokens.weight": "model.shared.weight",
                                 "model.decoder.embed_tokens.weight": "model.shared.weight"}
    buffers = {b.name: (b.shape, b.persistent) for b in every_buffer(inventory)}
    assert buffers == {"model.encoder.embed_positions.weights": ((1026, 1024), False),
                       "model.decoder.embed_positions.weights": ((1026, 1024), False)}


@pytest.mark.parametrize(("given", "encoder", "decoder"), [
    ({}, [1, 3], [1, 3]),
    ({"encoder_sparse_step": 1, "decoder_sparse_step": 3}, [0, 1, 2, 3], [2]),
    ({"encoder_sparse_step": 0}, [], [1, 3]),  # a step of 0: none sparse
    ({"decoder_sparse_step": 5}, [1, 3], []),
], ids=["2", "1-and-3", "0", "past-the-depth"])
def test_nllb_moe_places_its_sparse_layers_as_its_stacks_do(given, encoder, decoder):
    config = {**NLLB, **given}
    inventory = paramledger.inventory(paramledger.load(config))
    assert (_sparse_blocks(inventory, "model.encoder"), _sparse_blocks(inventory, "model.decoder")) == (
        encoder, decoder)
    assert diff(inventory, build_reference(config)).matches


def test_nllb_moe_experts_are_one_biased_module_each():
    inventory = paramledger.inventory(paramledger.load({**NLLB, "router_bias": True}))
    names = [t.name for t in inventory.tensors if t.name.startswith("model.decoder.layers.1.")]
    first = names.index("model.decoder.layers.1.cross_attention_layer_norm.weight")
    assert names[first:first + 10] == [f"model.decoder.layers.1.{name}" for name in (
        "cross_attention_layer_norm.weight", "cross_attention_layer_norm.bias", "ffn.router.classifier.weight",
        "ffn.router.classifier.bias", "ffn.experts.expert_0.fc1.weight", "ffn.experts.expert_0.fc1.bias",
        "ffn.experts.expert_0.fc2.weight", "ffn.experts.expert_0.fc2.bias", "ffn.experts.expert_1.fc1.weight",
        "ffn.experts.expert_1.fc1.bias")]
    assert inventory["model.encoder.layers.3.ffn.experts.expert_2.fc1.weight"].shape == (24, 32)
    assert inventory["model.decoder.layers.0.ffn.fc1.weight"].shape == (20, 32)  # a dense layer


@pytest.mark.parametrize("tie", [True, False])
def test_nllb_moe_ties_its_tables_as_the_config_says(tie):
    config = {**NLLB, "tie_word_embeddings": tie}
    inventory = paramledger.inventory(paramledger.load(config))
    model = _meta(config)
    assert diff(inventory, build_reference(config)).matches
    assert (model.lm_head.weight is model.model.shared.weight) is tie
    assert inventory.non_embedding("hf") == model.num_parameters(exclude_embeddings=True)


@pytest.mark.parametrize("config", [
    NLLB, {**NLLB, "decoder_layers": 3, "decoder_sparse_step": 1}, {**NLLB, "decoder_layers": 2, "num_experts": 2},
], ids=["4-over-4", "3-over-4", "2-over-4-two-experts"])
def test_nllb_moe_caches_equal_transformers_after_a_forward_pass(config):
    assert_caches_equal_transformers(config)


@pytest.mark.parametrize(("key", "value", "message"), [
    ("activation_function", "xielu", "activation_function: 'xielu' is not counted"),
    ("activation_function", "prelu", "activation_function: 'prelu' is not counted"),
    ("num_experts", 0, "num_experts: must be a positive whole number, got 0"),
    # (NllbMoeConfig's encoder_sparse_step is an int: refused as a null the class takes none of, strict_nulls.py)
    ("encoder_sparse_step", None, "encoder_sparse_step: null, where its config class takes none"),
    ("decoder_sparse_step", 1.0, "decoder_sparse_step: must be a whole number, got 1.0"),
    ("encoder_layers", 0, "encoder_layers: must be a positive whole number, got 0"),
    ("decoder_sparse_step", -2, "decoder_sparse_step: must be zero or more, got -2"),  # (the config reader's check)
])
def test_nllb_moe_refuses_a_bad_value_in_one_line_under_its_own_key(key, value, message):
    with pytest.raises(ArchitectureError, match=message.replace("(", r"\(").replace(")", r"\)")) as raised:
        paramledger.load({**NLLB, key: value})
    assert "\n" not in str(raised.value)


@pytest.mark.parametrize("model_type", TYPES)
def test_formula_refuses_one_module_per_expert_in_one_line(model_type, cli, tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps(TINY[model_type]))
    code, out, err = cli("formula", str(path))
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "it names one module per expert (num_experts Linear pairs a sparse layer)" in err


@pytest.mark.parametrize("tie", [True, False])
@pytest.mark.parametrize("model_type", TYPES)
def test_lora_on_the_whole_model_matches_peft(model_type, tie):
    """PEFT's "all-linear" wraps each expert's own Linears and the router's classifier, as any nn.Linear."""
    pytest.importorskip("peft")
    from test_adapters import assert_matches_peft

    config = {**TINY[model_type], "tie_word_embeddings": tie}
    assert_matches_peft(config, r=2, target_modules="all-linear")
    assert_matches_peft(config, r=3, target_modules="all-linear", use_dora=True, bias="all")


@pytest.mark.parametrize("split", [["--tp", "2"], ["--ep", "2"], ["--tp", "2", "--ep", "2"]],
                         ids=["tp", "ep", "tp-and-ep"])
@pytest.mark.parametrize("model_type", TYPES)
def test_fit_shards_one_module_per_expert(model_type, split, cli, tmp_path):
    """Under tensor parallelism each expert's Linear is split as a dense one's width is; under expert parallelism
    a rank holds its experts' modules whole and no other's: the ranks' weights add up to the model's, and the
    replicated tensors and the vocabulary padding beyond it."""
    path = tmp_path / "config.json"
    path.write_text(json.dumps({**TINY[model_type], "num_experts": 4}))
    code, out, _ = cli("fit", str(path), "--gpu-memory", "80GB", "--gpus", "2", *split, "--json")
    assert code == 0
    plan = json.loads(out)
    held = sum(device["weights_bytes"] for device in plan["per_device"])
    assert held == plan["weights_bytes"] + sum(plan["weights_beyond_the_model_bytes"].values())


@pytest.mark.parametrize("model_type", ["switch_transformers", "nllb-moe"])
def test_experts_past_the_listed_bound_are_refused_in_one_line(tmp_path, cli, model_type):
    """Each expert is a module of its own, its tensors listed one by one: past 16,384 experts (Switch-C has 2,048)
    a count is refused rather than taking minutes (docs/limits.md), from the file and from --set alike."""
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"model_type": model_type, "num_experts": 16_385}))
    for argv in (["count", str(path)], ["count", str(path), "--set", "num_experts=1000000"]):
        status, _, err = cli(*argv)
        assert status == 2 and len(err.strip().splitlines()) == 1
        assert "num_experts: 16,385 experts, each a module of its own, are beyond the 16,384" in err
