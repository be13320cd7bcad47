"""Config vs checkpoint vs name: files written by the real libraries (transformers'
save_pretrained, safetensors, gguf, torch.save); the counts agree where they should and
every difference is named, with the differences adding up exactly (Report.balanced)."""

from __future__ import annotations

import json
import struct

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

torch = pytest.importorskip("torch")

import paramledger  # noqa: E402
from paramledger import families  # noqa: E402
from paramledger.checkpoints import read  # noqa: E402
from paramledger.checkpoints.inspection import inspect_path  # noqa: E402
from paramledger.checkpoints.name_size import parse_name_size  # noqa: E402
from paramledger.checkpoints.names import guess_component, kind_of, match_names  # noqa: E402
from paramledger.checkpoints.reconcile import reconcile  # noqa: E402
from paramledger.checkpoints._stored import Checkpoint, StoredTensor  # noqa: E402

TINY_LLAMA = {"model_type": "llama", "vocab_size": 128, "hidden_size": 32, "intermediate_size": 64,
              "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2,
              "tie_word_embeddings": False}


def llama_state(config: dict) -> dict:
    """A real LlamaForCausalLM's state dict (random init), its tensors independent."""
    from transformers import LlamaConfig, LlamaForCausalLM

    fields = {k: v for k, v in config.items() if k != "model_type"}
    torch.manual_seed(0)
    model = LlamaForCausalLM(LlamaConfig(**fields))
    return {k: v.detach().clone() for k, v in model.state_dict().items()}


def save(folder, tensors: dict, config: dict | None = None, name: str = "model.safetensors"):
    from safetensors.torch import save_file

    folder.mkdir(parents=True, exist_ok=True)
    save_file({k: v.contiguous() for k, v in tensors.items()}, str(folder / name), metadata={"format": "pt"})
    if config is not None:
        (folder / "config.json").write_text(json.dumps(config))
    return folder


def kinds(report) -> dict[str, int]:
    """Difference kind -> its summed contribution to (stored values - inventory total)."""
    out: dict[str, int] = {}
    for d in report.differences:
        out[d.kind] = out.get(d.kind, 0) + d.contribution
    return out


def test_tied_llama_sharded_by_save_pretrained_matches_the_inventory(tmp_path):
    from transformers import LlamaConfig, LlamaForCausalLM

    fields = {k: v for k, v in TINY_LLAMA.items() if k != "model_type"} | {"tie_word_embeddings": True}
    model = LlamaForCausalLM(LlamaConfig(**fields))
    model.save_pretrained(tmp_path, max_shard_size="16KB")
    report, label = inspect_path(tmp_path)
    assert label.endswith("config.json")
    assert report.checkpoint.format.startswith("safetensors (sharded")
    assert report.parameters == report.stored_values == report.inventory.total
    assert report.inventory.total == sum(p.numel() for p in model.parameters())
    assert kinds(report) == {"tied_head_not_stored": 0}
    assert report.balanced
    assert report.components() == report.inventory.components


def test_untied_config_with_the_head_omitted_is_a_missing_tensor(tmp_path):
    state = llama_state(TINY_LLAMA)
    del state["lm_head.weight"]
    report, _ = inspect_path(save(tmp_path, state, TINY_LLAMA))
    assert kinds(report) == {"missing": -128 * 32}
    message = report.differences[0].message
    assert "missing: 1 tensors of the config are not stored (-4,096 values): lm_head.weight" in message
    assert "is the head tied?" in message
    assert report.balanced


def test_tied_config_with_the_head_stored_twice(tmp_path):
    config = TINY_LLAMA | {"tie_word_embeddings": True}
    state = llama_state(TINY_LLAMA)  # an untied model's file: the head is its own tensor
    report, _ = inspect_path(save(tmp_path, state, config))
    assert kinds(report) == {"tied_head_stored_twice": 4096}
    assert "lm_head.weight (128, 32) is stored as its own tensor although the config ties it to " \
           "model.embed_tokens.weight: +4,096 stored values, no extra parameters" in report.differences[0].message
    assert report.parameters == report.inventory.total
    assert report.balanced


def test_gpt2_hub_layout_with_attention_mask_buffers(tmp_path):
    # The hub's gpt2 file (transformers 4.x): no "transformer." prefix, no lm_head (tied), and
    # every block's attn.bias causal mask (1, 1, n_positions, n_positions) saved as a tensor.
    if families.get("gpt2") is None:
        pytest.skip("gpt2 family not available")
    from transformers import GPT2Config, GPT2LMHeadModel

    config = {"model_type": "gpt2", "vocab_size": 100, "n_positions": 16, "n_embd": 8, "n_layer": 2, "n_head": 2}
    model = GPT2LMHeadModel(GPT2Config(**{k: v for k, v in config.items() if k != "model_type"},
                                       bos_token_id=0, eos_token_id=0))
    state = {k.removeprefix("transformer."): v.detach().clone() for k, v in model.state_dict().items()
             if k != "lm_head.weight"}
    for i in range(2):
        state[f"h.{i}.attn.bias"] = torch.tril(torch.ones(16, 16)).view(1, 1, 16, 16)
        state[f"h.{i}.attn.masked_bias"] = torch.tensor(-1e4)
    report, _ = inspect_path(save(tmp_path, state, config))
    expected = sum(p.numel() for p in model.parameters())
    assert report.inventory.total == report.parameters == expected
    assert report.stored_values == expected + 2 * 256 + 2
    assert kinds(report) == {"tied_head_not_stored": 0, "buffer": 514}
    assert {e.tensor.name for e in report.entries if e.kind == "buffer"} == {
        "h.0.attn.bias", "h.1.attn.bias", "h.0.attn.masked_bias", "h.1.attn.masked_bias"}
    assert report.balanced


def test_gpt2_full_size_hub_figures(tmp_path):
    """The seed's figures: the hub's gpt2 safetensors declares 137,022,720 values for
    124,439,808 parameters.  The header is laid out as that file's (float32, attn.bias
    masks, no head) and the data section is a sparse hole; safe_open agrees on every shape."""
    if families.get("gpt2") is None:
        pytest.skip("gpt2 family not available")
    from safetensors import safe_open

    inv = paramledger.inventory("gpt2")
    header, offset = {}, 0
    for t in inv.tensors:
        header[t.name.removeprefix("transformer.")] = t.shape
    for i in range(12):
        header[f"h.{i}.attn.bias"] = (1, 1, 1024, 1024)
    entries = {}
    for name, shape in header.items():
        size = 4 * int(np.prod(shape))
        entries[name] = {"dtype": "F32", "shape": list(shape), "data_offsets": [offset, offset + size]}
        offset += size
    raw = json.dumps({"__metadata__": {"format": "pt"}, **entries}).encode()
    raw += b" " * (-len(raw) % 8)
    path = tmp_path / "gpt2" / "model.safetensors"
    path.parent.mkdir()
    with open(path, "wb") as handle:
        handle.write(struct.pack("<Q", len(raw)) + raw)
        handle.truncate(8 + len(raw) + offset)
    with safe_open(str(path), "np") as handle:
        assert {k: tuple(handle.get_slice(k).get_shape()) for k in handle.keys()} == header
    report = reconcile(read(path), inv)
    assert report.stored_values == 137_022_720
    assert report.parameters == inv.total == 124_439_808
    assert kinds(report)["buffer"] == 12 * 1024 * 1024
    assert report.balanced


def test_extra_multi_token_prediction_layer(tmp_path):
    # DeepSeek-V3 ships model.layers.61.* (num_nextn_predict_layers=1) beyond its 61 layers.
    state = llama_state(TINY_LLAMA)
    for name in [n for n in state if n.startswith("model.layers.1.")]:
        state[name.replace("model.layers.1.", "model.layers.2.")] = state[name].clone()
    state["model.layers.2.eh_proj.weight"] = torch.zeros(32, 64)
    config = TINY_LLAMA | {"num_nextn_predict_layers": 1}
    report, _ = inspect_path(save(tmp_path, state, config))
    extra = sum(v.numel() for k, v in state.items() if k.startswith("model.layers.2."))
    assert kinds(report) == {"extra_modules": extra}
    assert f"extra modules: layer(s) 2 (10 tensors, +{extra:,} values) beyond num_hidden_layers=2: " \
           "multi-token-prediction layers (num_nextn_predict_layers=1)" in report.differences[0].message
    assert report.balanced


def test_gptq_packed_weights_scales_and_zero_points(tmp_path):
    # GPTQ (bits=4): each Linear becomes qweight int32 (in/8, out), qzeros (in/g, out/8), scales
    # (in/g, out) and g_idx (in,); the stored elements are not the parameters.
    state = llama_state(TINY_LLAMA)
    quantized = [n for n in state if n.endswith("_proj.weight")]
    for name in quantized:
        out_features, in_features = state.pop(name).shape
        stem = name.removesuffix(".weight")
        state[f"{stem}.qweight"] = torch.zeros(in_features // 8, out_features, dtype=torch.int32)
        state[f"{stem}.qzeros"] = torch.zeros(in_features // 16, out_features // 8, dtype=torch.int32)
        state[f"{stem}.scales"] = torch.zeros(in_features // 16, out_features, dtype=torch.float16)
        state[f"{stem}.g_idx"] = torch.zeros(in_features, dtype=torch.int32)
    config = TINY_LLAMA | {"quantization_config": {"quant_method": "gptq", "bits": 4, "group_size": 16}}
    report, _ = inspect_path(save(tmp_path, state, config))
    inv = report.inventory
    packed_params = sum(inv[n].count for n in quantized)
    packed_stored = packed_params // 8
    assert report.parameters == inv.total
    assert kinds(report)["packed"] == packed_stored - packed_params
    quant = [d for d in report.differences if d.kind == "quantization"][0]
    assert quant.contribution == sum(v.numel() for k, v in state.items() if k.endswith(("qzeros", "scales", "g_idx")))
    assert f"packed low-bit values: {len(quantized)} tensors store {packed_stored:,} I32 elements for " \
           f"{packed_params:,} parameters" in [d for d in report.differences if d.kind == "packed"][0].message
    assert report.balanced


def test_padded_vocabulary_rows_and_tokenizer(tmp_path):
    state = llama_state(TINY_LLAMA | {"vocab_size": 136})  # a file padded to a multiple of 8 more rows
    report, _ = inspect_path(save(tmp_path, state, TINY_LLAMA))
    assert kinds(report) == {"padded_vocabulary": 2 * 8 * 32}
    messages = [d.message for d in report.differences]
    assert "padded vocabulary: model.embed_tokens.weight stores 136 rows but vocab_size is 128 (+256 values)" \
        in messages
    assert "padded vocabulary: lm_head.weight stores 136 rows but vocab_size is 128 (+256 values)" in messages
    assert report.balanced


def test_vocabulary_padded_beyond_the_tokenizer(tmp_path):
    folder = save(tmp_path, llama_state(TINY_LLAMA), TINY_LLAMA)
    vocab = {f"t{i}": i for i in range(120)}
    (folder / "tokenizer.json").write_text(json.dumps({"model": {"type": "BPE", "vocab": vocab},
                                                       "added_tokens": [{"id": 120, "content": "<eos>"}]}))
    report, _ = inspect_path(folder)
    assert kinds(report) == {"padded_vocabulary": 0}
    assert "vocab_size 128 is 7 rows more than the tokenizer's 121 tokens (7 × 32 = 224 values" \
        in report.differences[0].message


def test_shape_mismatch(tmp_path):
    state = llama_state(TINY_LLAMA)
    state["model.layers.0.mlp.up_proj.weight"] = torch.zeros(48, 32)
    report, _ = inspect_path(save(tmp_path, state, TINY_LLAMA))
    assert kinds(report) == {"shape_mismatch": -16 * 32}
    assert "shape mismatch: model.layers.0.mlp.up_proj.weight is (48, 32), the config gives (64, 32) (-512 values)" \
        in report.differences[0].message


def test_fused_tensors_are_a_different_split_not_a_difference(tmp_path):
    state = llama_state(TINY_LLAMA)
    for i in range(2):
        p = f"model.layers.{i}.self_attn."
        state[p + "qkv_proj.weight"] = torch.cat([state.pop(p + x + "_proj.weight") for x in "qkv"])
    report, _ = inspect_path(save(tmp_path, state, TINY_LLAMA))
    assert list(kinds(report)) == ["split"]
    assert report.differences[0].message == ("attention: 2 stored tensors hold the same 4,096 values as the config's 6 "
                                             "(fused in the file, split apart in the config's inventory)")
    assert report.balanced


def test_inv_freq_buffers_in_a_pytorch_file(tmp_path):
    state = llama_state(TINY_LLAMA)
    state["model.layers.0.self_attn.rotary_emb.inv_freq"] = torch.zeros(4)  # older Llama .bin files kept it
    tmp_path.mkdir(exist_ok=True)
    torch.save(state, tmp_path / "pytorch_model.bin")
    (tmp_path / "config.json").write_text(json.dumps(TINY_LLAMA))
    report, _ = inspect_path(tmp_path)
    assert kinds(report) == {"buffer": 4}
    assert report.parameters == report.inventory.total


def test_gguf_with_llama_names_reconciles_through_the_family_naming(tmp_path):
    import gguf

    config = TINY_LLAMA | {"tie_word_embeddings": True}
    state = llama_state(config)
    to_gguf = {"model.embed_tokens.weight": "token_embd.weight", "model.norm.weight": "output_norm.weight"}
    names = {"self_attn.q_proj": "attn_q", "self_attn.k_proj": "attn_k", "self_attn.v_proj": "attn_v",
             "self_attn.o_proj": "attn_output", "mlp.gate_proj": "ffn_gate", "mlp.up_proj": "ffn_up",
             "mlp.down_proj": "ffn_down", "input_layernorm": "attn_norm", "post_attention_layernorm": "ffn_norm"}
    for i in range(2):
        for hf, gg in names.items():
            to_gguf[f"model.layers.{i}.{hf}.weight"] = f"blk.{i}.{gg}.weight"
    path = tmp_path / "tiny-llama-Q8_0.gguf"
    writer = gguf.GGUFWriter(str(path), "llama")
    writer.add_token_list([f"t{i}" for i in range(100)])
    for hf, gg in to_gguf.items():
        value = state[hf].numpy()
        if value.ndim == 2:
            block, block_bytes = gguf.GGML_QUANT_SIZES[gguf.GGMLQuantizationType.Q8_0]
            raw = np.zeros((value.shape[0], value.shape[1] // block * block_bytes), np.uint8)
            writer.add_tensor(gg, raw, raw_shape=raw.shape, raw_dtype=gguf.GGMLQuantizationType.Q8_0)
        else:
            writer.add_tensor(gg, value)
    writer.add_tensor("rope_freqs.weight", np.ones(4, np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    (tmp_path / "config.json").write_text(json.dumps(config))
    report, _ = inspect_path(path)
    assert report.parameters == report.inventory.total
    assert report.components() == report.inventory.components
    assert kinds(report) == {"tied_head_not_stored": 0, "buffer": 4, "padded_vocabulary": 0}
    assert "tokenizer's 100 tokens" in report.differences[-1].message
    assert report.balanced


def test_without_a_config_the_checkpoint_alone(tmp_path):
    state = llama_state(TINY_LLAMA)
    state["model.layers.0.self_attn.rotary_emb.inv_freq"] = torch.zeros(4)
    report, label = inspect_path(save(tmp_path, state))
    assert label is None and report.inventory is None and report.differences == ()
    assert report.parameters == report.stored_values - 4
    assert report.components()["embedding"] == 128 * 32


def test_unsupported_config_beside_the_weights_is_noted_not_fatal(tmp_path):
    folder = save(tmp_path, {"w": torch.zeros(2)}, {"model_type": "speecht5"})
    report, label = inspect_path(folder)
    assert label is None
    assert any("model_type 'speecht5' is not supported" in note for note in report.checkpoint.notes)


def test_explicit_unsupported_config_is_an_error(tmp_path):
    folder = save(tmp_path, {"w": torch.zeros(2)}, {"model_type": "speecht5"})
    with pytest.raises(paramledger.UnsupportedFamilyError, match="model_type 'speecht5' is not supported"):
        inspect_path(folder, config=folder / "config.json")


# ------------------------------------------------------------------ the size in the name


@pytest.mark.parametrize("name, total, experts, active", [
    ("meta-llama/Llama-2-7b-hf", 7 * 10**9, 1, None),
    ("google/gemma-3-270m", 270 * 10**6, 1, None),
    ("mistralai/Mixtral-8x7B-v0.1", 56 * 10**9, 8, None),
    ("Qwen/Qwen3-30B-A3B", 30 * 10**9, 1, 3 * 10**9),
    ("Qwen/Qwen2.5-0.5B", 5 * 10**8, 1, None),
    ("HuggingFaceTB/SmolLM2-1.7B-Instruct", 17 * 10**8, 1, None),
    ("openai/gpt-oss-20b", 20 * 10**9, 1, None),
])
def test_size_in_the_name(name, total, experts, active):
    size = parse_name_size(name)
    assert (size.total, size.experts, size.active) == (total, experts, active)


@pytest.mark.parametrize("name", ["gpt2", "microsoft/Phi-3-mini-4k-instruct", "deepseek-ai/DeepSeek-V3"])
def test_names_without_a_size(name):
    assert parse_name_size(name) is None  # "4k" is a context length, not a size


def test_name_lines_explain_rounding_experts_and_active_counts(tmp_path):
    path = save(tmp_path, {"w": torch.zeros(2)})
    checkpoint = read(path / "model.safetensors")
    llama = reconcile(checkpoint, paramledger.inventory("Llama-2-7b-hf"), name="Llama-2-7b-hf").name_lines
    assert llama == ("the name 'Llama-2-7b-hf' says 7b (7,000,000,000): the config counts 6,738,415,616 (3.74 % "
                     "below the name); names round",)
    mixtral = reconcile(checkpoint, paramledger.inventory("Mixtral-8x7B-v0.1"), name="Mixtral-8x7B-v0.1").name_lines
    assert "8 × 7,000,000,000 = 56,000,000,000): the config counts 46,702,792,704 (16.60 % below the name), " \
           "because the experts share attention, norms and embeddings" in mixtral[0]
    qwen = reconcile(checkpoint, paramledger.inventory("Qwen3-30B-A3B"), name="Qwen3-30B-A3B").name_lines
    assert "the name's A3B is the active count per token (3,000,000,000): the config gives 3,353,032,704 active" \
        in qwen[1]


# ------------------------------------------------------------------ the naming rules


@pytest.mark.parametrize("name, shape, dtype, kind", [
    ("h.0.attn.bias", (1, 1, 1024, 1024), "F32", "buffer"),
    ("h.0.attn.c_attn.bias", (2304,), "F32", "parameter"),
    ("model.rotary_emb.inv_freq", (64,), "F32", "buffer"),
    ("model.layers.0.mlp.down_proj.weight_scale_inv", (56, 144), "F32", "quantization"),
    ("model.layers.0.self_attn.q_proj.qweight", (512, 4096), "I32", "packed"),
    ("model.layers.0.mlp.experts.gate_up_proj_blocks", (32, 5760, 90, 16), "U8", "packed"),
    ("model.layers.0.mlp.experts.gate_up_proj_scales", (32, 5760, 90), "U8", "quantization"),
    ("rope_freqs.weight", (64,), "F32", "buffer"),
])
def test_kind_rules(name, shape, dtype, kind):
    assert kind_of(StoredTensor(name, dtype, shape, 0), frozenset({name}))[0] == kind


def test_bitsandbytes_4bit_weight_is_packed_only_beside_its_quant_state():
    weight = StoredTensor("m.q_proj.weight", "U8", (2048, 1), 2048)
    siblings = frozenset({"m.q_proj.weight", "m.q_proj.weight.absmax", "m.q_proj.weight.quant_state.bitsandbytes__nf4"})
    assert kind_of(weight, siblings)[0] == "packed"
    assert kind_of(weight, frozenset({"m.q_proj.weight"}))[0] == "parameter"


@pytest.mark.parametrize("name, component", [
    ("model.layers.0.input_layernorm.weight", "norm"), ("model.layers.0.self_attn.q_norm.weight", "norm"),
    ("model.layers.0.mlp.gate.weight", "router"), ("model.layers.0.mlp.gate_proj.weight", "ffn"),
    ("model.layers.0.mlp.experts.gate_up_proj", "experts"), ("model.layers.0.mlp.shared_experts.up_proj.weight",
                                                             "shared_experts"),
    ("transformer.wte.weight", "embedding"), ("transformer.wpe.weight", "positions"), ("lm_head.weight", "lm_head"),
    ("output.weight", "lm_head"), ("blk.0.ffn_gate_exps.weight", "experts"), ("something.else", "other"),
])
def test_component_rules(name, component):
    assert guess_component(name) == component


def test_match_names_adds_or_drops_a_leading_module_path():
    expected = ["transformer.h.0.ln_1.weight", "model.norm.weight"]
    assert match_names(["h.0.ln_1.weight", "model.model.norm.weight", "x"], expected) == {
        "h.0.ln_1.weight": "transformer.h.0.ln_1.weight", "model.model.norm.weight": "model.norm.weight"}


# ------------------------------------------------------------------ DeepSeek-V3 at full size


def _deepseek_v3_layout() -> dict[str, tuple[str, tuple[int, ...]]]:
    """The tensors of deepseek-ai/DeepSeek-V3's released checkpoint, laid out from the config
    inventory the way that checkpoint stores them: FP8 (F8_E4M3) Linear weights, each with a
    float32 weight_scale_inv per 128 × 128 block; each routed expert its own three tensors
    (transformers 5 fuses them); the router's float32 e_score_correction_bias; and the
    multi-token-prediction module as model.layers.61 (a MoE decoder layer plus embed_tokens,
    enorm, hnorm, eh_proj and shared_head)."""
    inv = paramledger.inventory("DeepSeek-V3")
    arch = inv.architecture
    stored: dict[str, tuple[str, tuple[int, ...]]] = {}

    def fp8(name: str, shape: tuple[int, ...]) -> None:
        stored[name] = ("F8_E4M3", shape)
        stored[name.removesuffix(".weight") + ".weight_scale_inv"] = ("F32", (-(-shape[0] // 128),
                                                                              -(-shape[1] // 128)))

    def copy_layer(source: int, target: int) -> None:
        for t in inv.select(layer=source):
            name = t.name.replace(f"model.layers.{source}.", f"model.layers.{target}.")
            if t.component == "experts":
                for j in range(t.shape[0]):
                    if name.endswith("gate_up_proj"):
                        half = (t.shape[1] // 2, t.shape[2])
                        fp8(name.replace("experts.gate_up_proj", f"experts.{j}.gate_proj.weight"), half)
                        fp8(name.replace("experts.gate_up_proj", f"experts.{j}.up_proj.weight"), half)
                    else:
                        fp8(name.replace("experts.down_proj", f"experts.{j}.down_proj.weight"), t.shape[1:])
            elif len(t.shape) == 2 and t.component != "router":
                fp8(name, t.shape)
            else:
                stored[name] = ("BF16", t.shape)
            if t.component == "router":
                stored[name.replace("gate.weight", "gate.e_score_correction_bias")] = ("F32", (t.shape[0],))

    for t in inv.select(layer=None):
        stored[t.name] = ("BF16", t.shape)
    for i in range(arch.num_hidden_layers):
        copy_layer(0 if i in arch.mlp_only_layers else 3, i)
    copy_layer(3, 61)
    d, vocab = arch.hidden_size, arch.vocab_size
    for name, shape in (("embed_tokens.weight", (vocab, d)), ("enorm.weight", (d,)), ("hnorm.weight", (d,)),
                        ("eh_proj.weight", (d, 2 * d)), ("shared_head.norm.weight", (d,)),
                        ("shared_head.head.weight", (vocab, d))):
        stored[f"model.layers.61.{name}"] = ("BF16", shape)
    return stored


def test_deepseek_v3_checkpoint_685b_against_its_671b_config(tmp_path):
    """The hub reports 684,531,386,000 stored values for deepseek-ai/DeepSeek-V3 (BF16
    3,918,786,560; F8_E4M3 680,571,043,840; F32 41,555,600: its safetensors metadata); the
    config's inventory is 671,026,404,352.  The header below, laid out as that checkpoint
    (91,991 tensors, data a sparse hole), reproduces the hub's figures by dtype, and the
    reconcile report explains the 13.5 B gap to the value."""
    bits = {"BF16": 16, "F8_E4M3": 8, "F32": 32}
    entries, offset = {}, 0
    for name, (dtype, shape) in _deepseek_v3_layout().items():
        size = int(np.prod(shape)) * bits[dtype] // 8
        entries[name] = {"dtype": dtype, "shape": list(shape), "data_offsets": [offset, offset + size]}
        offset += size
    raw = json.dumps(entries).encode()
    path = tmp_path / "DeepSeek-V3" / "model.safetensors"
    path.parent.mkdir()
    with open(path, "wb") as handle:
        handle.write(struct.pack("<Q", len(raw)) + raw)
        handle.truncate(8 + len(raw) + offset)
    checkpoint = read(path)
    assert len(checkpoint.tensors) == 91_991
    assert checkpoint.total_values == 684_531_386_000
    assert {dtype: values for dtype, (values, _) in checkpoint.by_dtype().items()} == {
        "BF16": 3_918_786_560, "F8_E4M3": 680_571_043_840, "F32": 41_555_600}
    config = json.loads(paramledger.sources.bundled_models()["DeepSeek-V3"].read_text())["config"]
    inv = paramledger.inventory("DeepSeek-V3")
    report = reconcile(checkpoint, inv, config=config)
    assert inv.total == 671_026_404_352
    assert report.balanced
    found = kinds(report)
    assert found["buffer"] == 59 * 256  # e_score_correction_bias, the MTP layer's included
    assert found["quantization"] == 41_555_600 - 59 * 256  # the weight_scale_inv blocks
    assert found["split"] == 0  # 58 layers × 256 experts × 3 stored, fused in the config's inventory
    mtp = found["extra_modules"]
    assert inv.total + mtp + found["buffer"] + found["quantization"] == 684_531_386_000
    assert report.parameters == inv.total + mtp
    split = next(d.message for d in report.differences if d.kind == "split")
    assert split == ("experts: 44,544 stored tensors hold the same 653,908,770,816 values as the config's 116 (split "
                     "apart in the file (per expert or per projection), fused in the config's inventory)")
    message = next(d.message for d in report.differences if d.kind == "extra_modules")
    assert message.startswith("extra modules: layer(s) 61 (787 tensors, +13,463,426,048 values)")
    assert "beyond num_hidden_layers=61: multi-token-prediction layers (num_nextn_predict_layers=1)" in message


def test_pytorch_file_with_a_tied_head_pickled_once(tmp_path):
    # save_pretrained(safe_serialization=False) on a tied model: both names reach one storage.
    from transformers import LlamaConfig, LlamaForCausalLM

    config = TINY_LLAMA | {"tie_word_embeddings": True}
    model = LlamaForCausalLM(LlamaConfig(**{k: v for k, v in config.items() if k != "model_type"}))
    state = model.state_dict()
    assert state["lm_head.weight"].data_ptr() == state["model.embed_tokens.weight"].data_ptr()
    torch.save(state, tmp_path / "pytorch_model.bin")
    (tmp_path / "config.json").write_text(json.dumps(config))
    report, _ = inspect_path(tmp_path)
    assert report.checkpoint.aliases == {"lm_head.weight": "model.embed_tokens.weight"}
    assert report.stored_values == report.parameters == report.inventory.total
    assert kinds(report) == {"tied_head_not_stored": 0}


def test_gguf_moe_experts_per_projection_against_fused_experts(tmp_path):
    import gguf

    config = {"model_type": "mixtral", "vocab_size": 64, "hidden_size": 16, "intermediate_size": 32,
              "num_hidden_layers": 1, "num_attention_heads": 2, "num_key_value_heads": 1, "num_local_experts": 4,
              "num_experts_per_tok": 2}
    tensors = {  # llama.cpp's names and numpy shapes (outermost first) for a Mixtral layer
        "token_embd.weight": (64, 16), "output.weight": (64, 16), "output_norm.weight": (16,),
        "blk.0.attn_q.weight": (16, 16), "blk.0.attn_k.weight": (8, 16), "blk.0.attn_v.weight": (8, 16),
        "blk.0.attn_output.weight": (16, 16), "blk.0.attn_norm.weight": (16,), "blk.0.ffn_norm.weight": (16,),
        "blk.0.ffn_gate_inp.weight": (4, 16), "blk.0.ffn_gate_exps.weight": (4, 32, 16),
        "blk.0.ffn_up_exps.weight": (4, 32, 16), "blk.0.ffn_down_exps.weight": (4, 16, 32),
    }
    path = tmp_path / "mixtral.gguf"
    writer = gguf.GGUFWriter(str(path), "llama")
    for name, shape in tensors.items():
        writer.add_tensor(name, np.zeros(shape, np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    inv = paramledger.inventory(config)
    report = reconcile(read(path), inv, naming=families.get("mixtral").naming)
    assert kinds(report) == {"split": 0}
    assert report.differences[0].message.startswith("experts: 3 stored tensors hold the same 6,144 values as the "
                                                    "config's 2 (GGUF's own split: split apart in the file")
    assert report.parameters == inv.total and report.balanced


@given(drop=st.sets(st.integers(0, 30), max_size=6), extra=st.integers(0, 3), buffers=st.integers(0, 3),
       reshape=st.sets(st.integers(0, 30), max_size=3))
def test_the_differences_always_add_up(drop, extra, buffers, reshape):
    """Whatever is dropped, added or reshaped, every value is accounted for exactly once."""
    inv = paramledger.inventory(TINY_LLAMA)
    stored = []
    for i, t in enumerate(inv.tensors):
        if i in drop:
            continue
        shape = (t.shape[0] + 1, *t.shape[1:]) if i in reshape else t.shape
        stored.append(StoredTensor(t.name, "F32", shape, 4 * int(np.prod(shape))))
    stored += [StoredTensor(f"model.extra.{j}.weight", "F32", (3, 5), 60) for j in range(extra)]
    stored += [StoredTensor(f"model.layers.{j}.rotary.inv_freq", "F32", (4,), 16) for j in range(buffers)]
    checkpoint = Checkpoint("synthetic.safetensors", "safetensors", tuple(stored))
    report = reconcile(checkpoint, inv)
    assert report.balanced
    assert sum(d.contribution for d in report.differences) == checkpoint.total_values - inv.total
