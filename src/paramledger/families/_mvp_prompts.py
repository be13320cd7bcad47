"""MVP's prompts (transformers 5.24.0 models/mvp/modeling_mvp.py): with use_prompt, MvpForConditionalGeneration's
MvpModel builds MvpDecoder(config, use_prompt=True), which holds self_attn_prompt and cross_attn_prompt after its
layernorm_embedding (lines 665-681).  Each is an MvpPrompt (lines 432-447): prompt_embedding, an nn.Embedding of
prompt_length rows × d_model, and prompt_trans, nn.Sequential(Linear(d_model, prompt_mid_dim), GELU,
Linear(prompt_mid_dim, decoder_layers × 2 × d_model)), both Linears biased.  MvpModel also calls
MvpEncoder(config, config.use_prompt) (line 886), but MvpEncoder's second parameter is embed_tokens (line 490), so
the encoder's use_prompt stays False and its self_attn_prompt is never built.  MvpForCausalLM builds
MvpDecoder(config) without them: the decoder alone holds none.  Read as a tower beside the encoder
(Seq2Seq.encoder_towers), placed by the naming's model_order."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError, quoted
from ..inventory import Tensor
from ..limits import MAX_INTEGER

DECODER_PROMPTS = ("model.decoder.self_attn_prompt", "model.decoder.cross_attn_prompt")
DEFAULTS = {"use_prompt": False, "prompt_length": 100, "prompt_mid_dim": 800}  # (MvpConfig's)


class Prompts(NamedTuple):
    """The decoder's two MvpPrompt modules, in registration order (the naming's model_order places them after the
    decoder's layernorm_embedding)."""
    width: int  # d_model
    length: int  # prompt_length
    mid: int  # prompt_mid_dim
    decoder_layers: int

    def tensors(self) -> list[Tensor]:
        out: list[Tensor] = []
        wide = self.decoder_layers * 2 * self.width
        for prefix in DECODER_PROMPTS:  # (they feed the attentions their keys and values)
            component = "attention"
            out += [Tensor(f"{prefix}.prompt_embedding.weight", (self.length, self.width), component),
                    Tensor(f"{prefix}.prompt_trans.0.weight", (self.mid, self.width), component),
                    Tensor(f"{prefix}.prompt_trans.0.bias", (self.mid,), component),
                    Tensor(f"{prefix}.prompt_trans.2.weight", (wide, self.mid), component),
                    Tensor(f"{prefix}.prompt_trans.2.bias", (wide,), component)]
        return out

    def buffers(self) -> list[Any]:
        return []

    def embedding_tables(self) -> list[str]:  # (nn.Embedding: out of Hugging Face's non-embedding count)
        return [f"{prefix}.prompt_embedding.weight" for prefix in DECODER_PROMPTS]


def _size(config: Mapping[str, Any], key: str, where: str | None) -> int:
    value = config[key]
    if type(value) is not int or value <= 0:
        raise ArchitectureError(key, f"must be a positive whole number, got {quoted(value)}"[:200], where)
    if value > MAX_INTEGER:
        raise ArchitectureError(key, f"{value:,} is beyond the bound of {MAX_INTEGER:,} (docs/limits.md)", where)
    return value


def prompts(config: Mapping[str, Any], width: int, where: str | None) -> tuple[Prompts, ...]:
    """The whole model's prompts where use_prompt is true (none else); ``config`` the whole config with MvpConfig's
    defaults."""
    merged = {**DEFAULTS, **{key: value for key, value in config.items() if value is not None}}
    use = merged["use_prompt"]
    if not isinstance(use, bool):
        raise ArchitectureError("use_prompt", f"must be true or false, got {quoted(use)}"[:200], where)
    if not use:
        return ()
    return (Prompts(width, _size(merged, "prompt_length", where), _size(merged, "prompt_mid_dim", where),
                    _size(merged, "decoder_layers", where)),)
