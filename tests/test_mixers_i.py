"""Set I's token mixers against transformers 5.24.0 after a real forward pass of a small random model: the fixed
recurrent state each holds per sequence (and the attention layers' keys and values beside it), byte for byte, after
a prompt of 5 tokens and 2 decoded; and the one-line refusals of their keys' bad values."""

from __future__ import annotations

import pytest
from _family_configs_i import xlstm
from hypothesis import given
from test_families import assert_matches_reference
from test_hybrids import _model
from test_kvcache import _cache_bytes

import paramledger
from paramledger._exceptions import ArchitectureError
from paramledger.kvcache import kv_cache

torch = pytest.importorskip("torch")

BATCH, PROMPT, DECODED = 2, 5, 2
GRIFFIN = {"model_type": "recurrent_gemma", "pad_token_id": 0, "vocab_size": 64, "hidden_size": 16,
           "num_hidden_layers": 5, "num_attention_heads": 2, "num_key_value_heads": 1, "intermediate_size": 24,
           "lru_width": 12, "conv1d_width": 3, "attention_window_size": 4, "block_types": ["recurrent", "attention"]}
RWKV = {"model_type": "rwkv", "vocab_size": 64, "hidden_size": 16, "num_hidden_layers": 3, "intermediate_size": 40}
# widths multiples of 64, as xLSTMCache sizes its state (qk 64, v 128)
XLSTM = {"model_type": "xlstm", "vocab_size": 64, "hidden_size": 128, "num_hidden_layers": 2, "num_heads": 2,
         "chunk_size": 4}


def _decode(model, held=None, keyword: str = "cache", returned: str | None = "cache"):
    """The prompt, then DECODED tokens one at a time, each passing on what the model returned as ``returned``
    under ``keyword`` (None: ``held``, which the model updates in place); what is held at the end."""
    generator = torch.Generator().manual_seed(1)
    with torch.no_grad():
        for length in (PROMPT,) + (1,) * DECODED:
            ids = torch.randint(0, model.config.vocab_size, (BATCH, length), generator=generator)
            out = model(ids, use_cache=True, **({} if held is None else {keyword: held}))
            held = held if returned is None else getattr(out, returned)
    return held


def _ours(config: dict):
    return kv_cache(paramledger.load(config), context=PROMPT + DECODED, batch=BATCH, dtype="fp32")


def test_recurrent_gemmas_state_and_window_equal_what_transformers_holds():
    """Past the window of 4: the sliding layers' keys and values in the DynamicCache, and each recurrent block's
    conv1d_state and rg_lru.recurrent_states, which transformers keeps on the modules (RecurrentGemmaForCausalLM
    returns no cache, so the test hands it one)."""
    from transformers import DynamicCache

    model = _model(GRIFFIN)
    cache = _decode(model, DynamicCache(config=model.config), returned=None)
    blocks = [layer.temporal_block for layer in model.model.layers if hasattr(layer.temporal_block, "rg_lru")]
    held = sum(block.conv1d_state.nbytes + block.rg_lru.recurrent_states.nbytes for block in blocks)
    ours = _ours(GRIFFIN)
    assert len(blocks) == 3 and ours.sliding_layers == 2
    assert ours.bytes == _cache_bytes(cache) > 0
    assert ours.state_bytes == held > 0


def test_rwkvs_state_equals_what_transformers_holds():
    """RwkvModel's five (batch, hidden_size, layers) state tensors: the two token shifts and the WKV numerator,
    denominator and maximum; no keys or values."""
    state = _decode(_model(RWKV), keyword="state", returned="state")
    assert _ours(RWKV).bytes == 0
    assert _ours(RWKV).state_bytes == sum(tensor.nbytes for tensor in state) > 0


def test_xlstms_state_equals_what_transformers_holds():
    """xLSTMCache.rnn_state: each layer's matrix memory, normalizer and maximum per head; no keys or values."""
    cache = _decode(_model(XLSTM))
    assert _ours(XLSTM).bytes == 0
    assert _ours(XLSTM).state_bytes == sum(t.nbytes for state in cache.rnn_state.values() for t in state) > 0


def _elementwise(config: dict, suffixes: tuple[str, ...]) -> int:
    """Twice the parameters of the tensors ending in ``suffixes``: weights of rank 2 or more that the model applies
    elementwise, which compute.py's MATMUL_DEFINITION counts as matmul weights (2 FLOPs a parameter) and torch's
    FlopCounterMode, seeing no matmul, does not."""
    inv = paramledger.inventory(paramledger.load(config))
    return 2 * sum(t.count for t in inv.tensors if t.name.endswith(suffixes))


@pytest.mark.parametrize(("config", "elementwise"), [
    (GRIFFIN, ("conv_1d.weight",)),  # decoding, the conv is sum(conv_state × weight): modeling lines 447-450
    (RWKV, ("time_mix_key", "time_mix_value", "time_mix_receptance")),  # the token shift's (1, 1, hidden) mixes
    (XLSTM, ()),
])
def test_a_decoding_steps_flops_equal_torch(config, elementwise):
    """One token decoded after a prompt of 5, eager attention (RecurrentGemma's window of 4 caps its keys): every
    matmul torch counts, the mLSTM step's bmm among them, against our forward FLOPs less the elementwise weights."""
    from torch.utils.flop_counter import FlopCounterMode
    from transformers import AutoModelForCausalLM, DynamicCache

    from paramledger.compute import forward_flops_per_token
    from paramledger.reference import hf_config

    torch.manual_seed(0)
    model = AutoModelForCausalLM.from_config(hf_config(config), attn_implementation="eager").eval()
    ids = torch.randint(0, model.config.vocab_size, (1, PROMPT + 1), generator=torch.Generator().manual_seed(2))
    with torch.no_grad():
        if config is GRIFFIN:
            held = {"cache": DynamicCache(config=model.config)}
            model(ids[:, :-1], use_cache=True, **held)
        else:
            out = model(ids[:, :-1], use_cache=True)
            held = {"state": out.state} if config is RWKV else {"cache": out.cache}
        with FlopCounterMode(display=False) as counter:
            model(ids[:, -1:], use_cache=True, **held)
    ours = forward_flops_per_token(paramledger.inventory(paramledger.load(config)), PROMPT + 1)
    assert counter.get_total_flops() == ours.total - _elementwise(config, elementwise)


def test_a_new_depth_repeats_recurrent_gemmas_block_types_as_transformers_builds_it():
    """design/values.py repeat_patterns repeats the lists by their smallest period (block_types' 3), not by the
    old depth (layer i holding what layer i mod 26 held gave 2,842,872,320 for recurrentgemma-2b at 28)."""
    from paramledger.reference import build_reference

    deeper = {**GRIFFIN, "num_hidden_layers": 26, "block_types": ["recurrent", "recurrent", "attention"]}
    ours = paramledger.inventory(paramledger.load(deeper, num_hidden_layers=28)).total
    assert ours == build_reference({**deeper, "num_hidden_layers": 28}).total


@given(config=xlstm("fused"))
def test_xlstms_fused_projections_match_transformers_on_random_configs(config):
    """weight_mode "fused" (qkv_opreact, ifgate_preact, proj_up_gate_z), which the family strategy leaves out
    because transformers cannot initialize it for real, against the meta device."""
    assert_matches_reference(config)


@pytest.mark.parametrize(("config", "changes", "message"), [
    (GRIFFIN, {"block_types": ["recurrent", "mlp"]},
     r"block_types: must be a non-empty list of 'recurrent' and 'attention'"),
    (GRIFFIN, {"block_types": []}, r"block_types: must be a non-empty list"),
    (GRIFFIN, {"block_types": ["recurrent"], "num_hidden_layers": 101}, r"block_types: repeats 100 times, 100 layers"),
    (GRIFFIN, {"lru_width": 13}, r"lru_width: 13 is not a multiple of num_attention_heads=2"),
    (GRIFFIN, {"lru_width": 0}, r"lru_width: must be positive, got 0"),
    (GRIFFIN, {"conv1d_width": 0}, r"conv1d_width: must be positive, got 0"),
    (RWKV, {"attention_hidden_size": 0}, r"attention_hidden_size: must be positive, got 0"),
    (RWKV, {"attention_hidden_size": -3}, r"attention_hidden_size: must be zero or more, got -3"),
    (XLSTM, {"weight_mode": "split"}, r"weight_mode: must be 'single' or 'fused', got 'split'"),
    (XLSTM, {"embedding_dim": 64}, r"embedding_dim: 64 is not hidden_size=128"),
    (XLSTM, {"qk_dim_factor": 0}, r"qk_dim_factor: must be a positive number, got 0"),
    (XLSTM, {"qk_dim_factor": 0.001}, r"qk_dim_factor: 0.001 × hidden_size=128 gives the mLSTM a width of 0"),
    (XLSTM, {"ffn_proj_factor": "wide"}, r"ffn_proj_factor: must be a positive number, got 'wide'"),
    (XLSTM, {"ffn_round_up_to_multiple_of": 0}, r"ffn_round_up_to_multiple_of: must be a positive whole number"),
    (XLSTM, {"num_heads": 0}, r"num_heads: must be positive, got 0"),
])
def test_bad_mixer_keys_are_refused_in_one_line_naming_the_key(config, changes, message):
    with pytest.raises(ArchitectureError, match=message) as caught:
        paramledger.load({**config, **changes})
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("config", ['{"model_type": "recurrent_gemma", "conv1d_width": 0}',
                                    '{"model_type": "rwkv", "attention_hidden_size": 0}',
                                    '{"model_type": "xlstm", "weight_mode": "split"}'])
def test_a_bad_mixer_key_exits_2_in_one_line(cli, tmp_path, config):
    path = tmp_path / "config.json"
    path.write_text(config)
    code, _, err = cli("count", str(path))
    assert code == 2 and err.strip().count("\n") == 0


def test_an_xlstm_block_refuses_a_layer_ffn_beside_its_own_in_one_line():
    import paramledger
    from paramledger._exceptions import ArchitectureError
    with pytest.raises(ArchitectureError, match=r"xlstm_layers: layer 1 holds an FFN beside the xLSTM block's own "
                                                r"\(list it in layers_without_ffn\)$"):
        paramledger.Architecture.from_mapping({"vocab_size": 8, "hidden_size": 8, "num_hidden_layers": 2,
                                               "num_attention_heads": 2, "xlstm_layers": (0, 1),
                                               "xlstm_num_heads": 2, "layers_without_ffn": (0,)})
