"""Set I's token mixers against transformers 5.24.0 after a real forward pass of a small random model: the fixed
recurrent state each holds per sequence (and the attention layers' keys and values beside it), byte for byte; and
the one-line refusals of their keys' bad values."""

from __future__ import annotations

import pytest
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


def _tokens(model, generator, length: int):
    return torch.randint(0, model.config.vocab_size, (BATCH, length), generator=generator)


def test_recurrent_gemmas_state_and_window_equal_what_transformers_holds():
    """A prompt of 5 tokens and 2 decoded, past the window of 4: the sliding layers' keys and values in the
    DynamicCache, and each recurrent block's conv1d_state and rg_lru.recurrent_states, which transformers keeps on
    the modules (RecurrentGemmaForCausalLM returns no cache, so the test hands it one)."""
    from transformers import DynamicCache

    model = _model(GRIFFIN)
    cache, generator = DynamicCache(config=model.config), torch.Generator().manual_seed(1)
    with torch.no_grad():
        model(_tokens(model, generator, PROMPT), cache=cache, use_cache=True)
        for _ in range(DECODED):
            model(_tokens(model, generator, 1), cache=cache, use_cache=True)
    blocks = [layer.temporal_block for layer in model.model.layers if hasattr(layer.temporal_block, "rg_lru")]
    held = sum(block.conv1d_state.nbytes + block.rg_lru.recurrent_states.nbytes for block in blocks)
    ours = kv_cache(paramledger.load(GRIFFIN), context=PROMPT + DECODED, batch=BATCH, dtype="fp32")
    assert len(blocks) == 3 and ours.sliding_layers == 2
    assert ours.bytes == _cache_bytes(cache) > 0
    assert ours.state_bytes == held > 0


RWKV = {"model_type": "rwkv", "vocab_size": 64, "hidden_size": 16, "num_hidden_layers": 3, "intermediate_size": 40}


def test_rwkvs_state_equals_what_transformers_holds():
    """RwkvModel's five (batch, hidden_size, layers) state tensors after a prompt and two decoded tokens: the two
    token shifts and the WKV numerator, denominator and maximum; no keys or values."""
    model = _model(RWKV)
    generator = torch.Generator().manual_seed(1)
    with torch.no_grad():
        state = model(_tokens(model, generator, PROMPT), use_cache=True).state
        for _ in range(DECODED):
            state = model(_tokens(model, generator, 1), state=state, use_cache=True).state
    ours = kv_cache(paramledger.load(RWKV), context=PROMPT + DECODED, batch=BATCH, dtype="fp32")
    assert ours.bytes == 0
    assert ours.state_bytes == sum(tensor.nbytes for tensor in state) > 0


@pytest.mark.parametrize(("changes", "message"), [
    ({"attention_hidden_size": 0}, r"attention_hidden_size: must be positive, got 0"),
    ({"attention_hidden_size": -3}, r"attention_hidden_size: must be zero or more, got -3"),
])
def test_bad_rwkv_keys_are_refused_in_one_line_naming_the_key(changes, message):
    with pytest.raises(ArchitectureError, match=message) as caught:
        paramledger.load({**RWKV, **changes})
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(("changes", "message"), [
    ({"block_types": ["recurrent", "mlp"]}, r"block_types: must be a non-empty list of 'recurrent' and 'attention'"),
    ({"block_types": []}, r"block_types: must be a non-empty list"),
    ({"block_types": ["recurrent"], "num_hidden_layers": 101}, r"block_types: repeats 100 times, 100 layers"),
    ({"lru_width": 13}, r"lru_width: 13 is not a multiple of num_attention_heads=2"),
    ({"lru_width": 0}, r"lru_width: must be positive, got 0"),
    ({"conv1d_width": 0}, r"conv1d_width: must be positive, got 0"),
])
def test_bad_recurrent_gemma_keys_are_refused_in_one_line_naming_the_key(changes, message):
    with pytest.raises(ArchitectureError, match=message) as caught:
        paramledger.load({**GRIFFIN, **changes})
    assert "\n" not in str(caught.value)


def test_a_bad_recurrent_gemma_key_exits_2_in_one_line(cli, tmp_path):
    path = tmp_path / "config.json"
    path.write_text('{"model_type": "recurrent_gemma", "conv1d_width": 0}')
    code, out, err = cli("count", str(path))
    assert code == 2 and err.strip().count("\n") == 0 and "conv1d_width" in err
