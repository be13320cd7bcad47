"""What transformers holds in float32 when it loads a model at a half precision (families/kept_float32.py).

The reference is a real round trip: a small random model of each type that keeps something in float32 is saved
with save_pretrained (safetensors) and loaded again with from_pretrained at bf16 and at fp16; every parameter's
dtype as loaded is checked against the dtype memory prices it at, name by name, and the bytes against the total.
tests/test_families.py checks the table itself against every supported type's class.
"""

from __future__ import annotations

import contextlib
import io

import paramledger
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from paramledger.families.kept_float32 import CAST_TO_FLOAT32, KEPT, kept_in_float32
from paramledger.memory import weight_bytes

from _family_configs import CONFIGS

TORCH_NAMES = {"bf16": "bfloat16", "fp16": "float16"}
# kimi_k25: transformers 5.24.0 cannot load what its own save_pretrained wrote (the weight conversion of its
# DeepSeek-V3 decoder fails on load: "DeepseekV3Attention has no attribute k_proj"); its table entry is its decoder's
# inkling_mm_model: a drawn config asked torch for a 23.6 GB tensor on the real device (the whole suite was killed for
# memory), and a small one comes back from save_pretrained with its vision projections at other widths (its
# from_pretrained refuses the sizes); its count is checked on the meta device (test_families, test_towers_ink)
KEEPING = sorted((set(KEPT) | set(CAST_TO_FLOAT32)) & set(CONFIGS) - {"kimi_k25", "inkling_mm_model"})


def _round_trips(config: dict) -> dict:
    """nemo_speechlm: transformers 5.24.0 writes its encoders' q_proj, k_proj and v_proj under each other's names
    where grouped key-value heads or a head_dim of their own make them differ in shape (its from_pretrained then
    refuses the sizes or misses a key), so the round trip draws its three stacks with neither; the count itself is
    checked with both (test_families)."""
    if config["model_type"] != "nemo_speechlm":
        return config

    def plain(stack: dict) -> dict:
        return {key: value for key, value in stack.items() if key not in ("num_key_value_heads", "head_dim")}

    audio, diarization = config["audio_config"], config["audio_config"]["diarization_config"]
    return {**config, "word_timestamp_config": plain(config["word_timestamp_config"]),
            "audio_config": {**audio, "asr_config": plain(audio["asr_config"]),
                             "diarization_config": {**diarization, "audio_config": plain(diarization["audio_config"])}}}


def loaded_dtypes(config: dict, dtype: str, folder) -> dict[str, str]:
    """Each unique parameter's dtype after a save_pretrained and from_pretrained round trip at ``dtype``."""
    torch = pytest.importorskip("torch")
    from paramledger.reference import auto_class, hf_config

    cfg = hf_config(config)
    family = paramledger.families.get(config["model_type"])
    with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        torch.manual_seed(0)
        klass = auto_class(cfg, family.text_decoder_only)
        klass.from_config(cfg).save_pretrained(folder)
        torch.save({}, folder / "spk_dict.pt")  # (the whole Qwen2.5-Omni's from_pretrained loads its speakers too)
        model = klass.from_pretrained(folder, dtype=getattr(torch, TORCH_NAMES[dtype]))
    return {name: str(p.dtype).removeprefix("torch.") for name, p in model.named_parameters()}


@pytest.mark.parametrize("model_type", KEEPING)
@settings(max_examples=2, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_what_transformers_loads_in_float32_is_priced_so(model_type, data, tmp_path_factory):
    config = _round_trips(data.draw(CONFIGS[model_type], label="config"))
    dtype = data.draw(st.sampled_from(["bf16", "fp16"]), label="dtype")
    loaded = loaded_dtypes(config, dtype, tmp_path_factory.mktemp("model"))
    weights = weight_bytes(paramledger.inventory(paramledger.load(config)), dtype)
    priced = {t.name for t in weights.tensors if t.component != "buffers" and t.dtype == "fp32"}
    kept = [name for name, held in loaded.items() if held == "float32"]
    assert priced == set(kept)  # (a module creating its own at a dtype of its own, xIELU's bf16 alphas, is not here)
    assert weights.upcast == 4 * sum(t.count for t in paramledger.inventory(paramledger.load(config)).tensors
                                     if t.name in kept)


def test_t5_in_fp16_holds_every_wo_in_float32(cli):
    weights = weight_bytes(paramledger.inventory("t5-base"), "fp16")
    wo = 24 * 768 * 3072  # 12 encoder and 12 decoder layers' DenseReluDense.wo (T5PreTrainedModel)
    assert weights.upcast == 4 * wo and weights.total == 2 * paramledger.inventory("t5-base").total + 2 * wo
    assert weights.checkpoint == 2 * paramledger.inventory("t5-base").total  # the files hold them at fp16
    assert weight_bytes(paramledger.inventory("t5-base"), "bf16").upcast == 0  # _keep_in_fp32_modules: fp16 only
    status, out, _ = cli("memory", "t5-base", "--dtype", "fp16")
    assert status == 0 and "of them float32: transformers holds wo so when it loads t5 at fp16" in " ".join(out.split())


def test_a_component_kept_by_the_user_wins_over_transformers():
    weights = weight_bytes(paramledger.inventory("DeepSeek-V3"), "bf16", keep=["router=bf16"])
    assert weights.upcast == 0
    assert "fp32" not in {dtype for (component, dtype) in weights.sums if component != "buffers"}


def test_a_type_keeping_nothing_has_no_entry():
    assert kept_in_float32("llama") == ((), ())
    assert weight_bytes(paramledger.inventory("Llama-3.2-1B"), "fp16").upcast == 0
