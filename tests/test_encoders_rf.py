"""Set RF's encoder, Reformer (ReformerModelWithLMHead where is_decoder, else ReformerForMaskedLM), beyond
tests/test_families.py's tensor-by-tensor check: the class counted, Hugging Face's own non-embedding count, the
head's two biases, the KV cache and FLOPs refused in one line (what ReformerDynamicCache holds after a real forward
pass), and the refusals of the keys its rule reads."""

from __future__ import annotations

import contextlib
import io
import json
import warnings

import pytest

import paramledger
from paramledger._exceptions import ArchitectureError, OptionError
from paramledger.kvcache import kv_cache, kv_values_per_token
from paramledger.reference import auto_class, build_reference, default_config, diff, hf_config

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

SMALL = {"model_type": "reformer", "vocab_size": 40, "hidden_size": 8, "num_attention_heads": 2,
         "attention_head_size": 4, "feed_forward_size": 16, "attn_layers": ["local", "lsh", "local"],
         "axial_pos_shape": [4, 8], "axial_pos_embds_dim": [4, 4], "max_position_embeddings": 32,
         "local_attn_chunk_length": 4, "lsh_attn_chunk_length": 4, "num_buckets": 2, "is_decoder": True}


def model_of(config: dict, device: str = "meta"):
    """The class reference.auto_class picks for ``config`` (on the meta device unless asked)."""
    transformers.logging.set_verbosity_error()
    cfg = hf_config(config)
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings(), torch.device(device):
        warnings.simplefilter("ignore")
        return auto_class(cfg).from_config(cfg)


def test_the_defaults_are_the_masked_lm_and_hugging_face_counts_agree():
    """ReformerConfig's defaults (is_decoder false): ReformerForMaskedLM, 5,976,192 in all; its non-embedding count
    drops only the word table (the axial weights are a ParameterList, no nn.Embedding): 5,894,272."""
    config = default_config("reformer")
    model = model_of(config)
    assert type(model).__name__ == "ReformerForMaskedLM"
    inventory = paramledger.inventory(paramledger.load(config))
    assert inventory.total == model.num_parameters() == 5_976_192
    assert inventory.non_embedding("hf") == model.num_parameters(exclude_embeddings=True) == 5_894_272
    assert any("counted as ReformerForMaskedLM" in note for note in inventory.architecture.notes)


def test_a_decoder_is_counted_as_the_causal_lm_with_two_head_biases():
    """is_decoder: ReformerModelWithLMHead, the same tensors; lm_head.bias and lm_head.decoder.bias are two
    parameters (ReformerOnlyLMHead), neither an alias; a plain position table where axial_pos_embds is false."""
    config = {**SMALL, "axial_pos_embds": False}
    reference = build_reference(config)
    assert reference.class_name == "ReformerModelWithLMHead"
    inventory = paramledger.inventory(paramledger.load(config))
    assert inventory.total == reference.total and not inventory.aliases
    names = [t.name for t in inventory.tensors]
    assert names[-3:] == ["lm_head.bias", "lm_head.decoder.weight", "lm_head.decoder.bias"]
    assert inventory["reformer.embeddings.position_embeddings.embedding.weight"].shape == (32, 8)
    assert inventory["reformer.encoder.layer_norm.weight"].shape == (16,)
    assert any("counted as ReformerModelWithLMHead" in note for note in inventory.architecture.notes)


def test_the_cache_transformers_keeps_is_no_keys_and_values():
    """A real forward pass with use_cache: ReformerDynamicCache holds each layer's input states (batch, tokens,
    hidden) and the LSH layer's int64 buckets, which is why paramledger refuses to size it."""
    model = model_of(SMALL, "cpu").eval()
    with torch.no_grad():
        cache = model(torch.randint(0, 40, (1, 8)), use_cache=True).past_buckets_states
    assert [tuple(states.shape) for states in cache.states_cache] == [(1, 8, 8)] * 3
    assert cache.buckets_cache[1].dtype == torch.int64 and cache.buckets_cache[0].numel() == 0


@pytest.mark.parametrize("ask", [lambda arch: kv_cache(arch, 16), lambda arch: kv_values_per_token(arch)])
def test_the_kv_cache_is_refused_in_one_line(ask):
    with pytest.raises(OptionError, match=r"^kv-cache: reformer: transformers 5\.24\.0's ReformerDynamicCache holds "
                                          r"each layer's input hidden states"):
        ask(paramledger.load(SMALL))


def test_flops_are_refused_in_one_line():
    from paramledger.compute import forward_flops_per_token

    with pytest.raises(OptionError, match="^flops: reformer: Reformer attends within chunks"):
        forward_flops_per_token(paramledger.load(SMALL), 16)


def test_axial_shapes_other_than_the_positions_count_as_transformers_builds_them():
    """AxialPositionEmbeddings checks the product only in training (against the sequence): [4, 4] beside 32
    positions builds, and is counted."""
    config = {**SMALL, "axial_pos_shape": [4, 4]}
    result = diff(paramledger.inventory(paramledger.load(config)), build_reference(config))
    assert result.matches, result.to_json()


@pytest.mark.parametrize(("change", "message"), [
    ({"attn_layers": []}, r"^config: attn_layers: \[\] is not a non-empty list"),
    ({"attn_layers": ["local", "global"]}, r"^config: attn_layers: 'global' is not 'local' or 'lsh'"),
    ({"axial_pos_embds_dim": [4, 5]}, r"^config: axial_pos_embds_dim: \[4, 5\] sums to 9, not hidden_size 8"),
    ({"axial_pos_embds_dim": [8]}, r"^config: axial_pos_embds_dim: 1 dims for the 2 axes"),
    ({"axial_pos_shape": [4, 0]}, r"^config: axial_pos_shape: \[4, 0\] is not a non-empty list of positive sizes"),
    ({"axial_pos_embds": "yes"}, r"^config: axial_pos_embds: must be true or false"),
    ({"is_decoder": 1}, r"^config: is_decoder: must be true or false"),
    ({"local_num_chunks_after": 1}, r"^config: local_num_chunks_after: must be 0 with is_decoder and 'local' layers"),
    ({"lsh_num_chunks_after": 2}, r"^config: lsh_num_chunks_after: must be 0 with is_decoder and 'lsh' layers"),
])
def test_reformer_refuses_what_transformers_refuses(change, message):
    with pytest.raises(ArchitectureError, match=message):
        paramledger.load({**SMALL, **change})


def test_later_chunks_are_counted_for_the_masked_lm():
    """ReformerForMaskedLM looks at later chunks: only the decoder refuses them."""
    config = {**SMALL, "is_decoder": False, "local_num_chunks_after": 1, "lsh_num_chunks_after": 1}
    assert paramledger.inventory(paramledger.load(config)).total == model_of(config).num_parameters()


def test_the_refusal_is_one_line_and_exit_status_2(cli, tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps({**SMALL, "attn_layers": ["lsh", "full"]}))
    code, _, err = cli("count", str(path))
    assert code == 2 and len(err.strip().splitlines()) == 1 and "attn_layers: 'full' is not 'local' or 'lsh'" in err
    path.write_text(json.dumps(SMALL))
    code, _, err = cli("memory", str(path))
    assert code == 2 and len(err.strip().splitlines()) == 1 and "kv-cache: reformer: " in err


@pytest.mark.parametrize("layers", [3, 8])
def test_another_depth_cycles_attn_layers(layers):
    """--set num_hidden_layers (Architecture.replace): the LSH layers repeat with the Reformer layers, as an
    attn_layers list cycled to that depth builds them."""
    deeper = paramledger.load(default_config("reformer")).replace(num_hidden_layers=layers)
    cycled = {**default_config("reformer"), "attn_layers": (["local", "lsh"] * 4)[:layers]}
    assert deeper.reformer_lsh_layers == tuple(range(1, layers, 2))
    assert paramledger.inventory(deeper).total == model_of(cycled).num_parameters()
