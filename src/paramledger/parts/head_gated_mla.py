"""Dots 3 Note's attention (transformers 5.24.0 modeling_dots3_note.py Dots3NoteTextAttention, lines 443-614):
DeepSeek-V3's latent attention (parts/latent.py) except: an RMSNorm over the shared rotary key
(``k_rope_only_layernorm``, qk_rope_head_dim) and a sigmoid gate per head from the layer's input (``g_proj``,
hidden -> heads, unbiased) on the attention's output before o_proj.  Both are registered after o_proj, then
DeepSeek-V3.2's lightning indexer (Dots3NoteTextIndexer) on the "indexed_attention" layers.  The latents' rescaling
(q_lora_scale, kv_lora_scale) holds no parameter.

Declared as a mixer kind (``head_gated_mla_layers``): the "full_attention" layers, at the design's own latent sizes,
without an indexer; parts/indexed_head_gated_mla.py declares the "indexed_attention" layers' (the same sizes and the
design's indexer), parts/sliding_head_gated_mla.py the sliding layers', whose sizes are their own
(Dots3NoteTextConfig's swa_* keys, per_layer_config).  The cache and FLOPs are the latent
attention's: its latent and rotary key per token, and the indexer's key on the indexed layers (DynamicIndexedLayer);
the gate adds its weights' FLOPs only."""

from __future__ import annotations

from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ._collector import Collector
from ._protocol import MixerKind, wrapping
from .latent import Indexer, LatentAttention

_new = tuple.__new__


@wrapping("latent")
class HeadGatedLatentAttention(NamedTuple):
    latent: LatentAttention  # its sizes and indexer (no sinks, no gate of its own)

    def tensors(self, c: Collector) -> None:
        n, attention = c.naming, self.latent
        attention._replace(indexer=None).tensors(c)  # q_a .. o_proj, as DeepseekV3Attention registers them
        c.norm(n.k_rope_norm, attention.qk_rope_head_dim)  # (qk_rope_head_dim,)
        c.linear(n.attn_gate, attention.num_heads, attention.hidden_size, "attention")  # g_proj: (heads, hidden)
        if attention.indexer is not None:
            attention.indexer.tensors(c, attention.hidden_size, attention.q_lora_rank)


class Keys:
    """The flat key: the layers of the design's own latent sizes without an indexer (Dots 3 Note's full layers)."""
    head_gated_mla_layers: tuple[int, ...] = ()


class Names:
    k_rope_norm: str = "self_attn.k_rope_only_layernorm"


def head_gated(arch: Any, heads: int, q_lora_rank: int, kv_lora_rank: int, nope: int, rope: int, v_head_dim: int,
               indexer: bool) -> HeadGatedLatentAttention:
    """The part at the given latent sizes (the design's, or the sliding layers' own)."""
    own = _new(Indexer, (arch.index_n_heads, arch.index_head_dim)) if indexer else None
    latent = _new(LatentAttention, (arch.hidden_size, heads, q_lora_rank, kv_lora_rank, nope, rope, v_head_dim,
                                    arch.attention_bias, arch.attention_output_bias, False, own,
                                    arch.index_topk if indexer else None, "none"))
    return _new(HeadGatedLatentAttention, (latent,))


def build(arch: Any, indexer: bool = False) -> HeadGatedLatentAttention:
    """The part at the design's own latent sizes, with its indexer or without."""
    return head_gated(arch, arch.num_attention_heads, arch.q_lora_rank, arch.kv_lora_rank, arch.qk_nope_head_dim,
                      arch.qk_rope_head_dim, arch.v_head_dim, indexer)


def check(arch: Any, where: str | None, key: str = "head_gated_mla_layers") -> None:
    """Refusals shared with the indexed layers' kind, ``key`` naming the layers' list."""
    # Dots3NoteTextAttention builds q_a_layernorm whatever q_lora_rank is (RMSNorm(None) fails), and
    # Dots3NoteTextConfig.validate_architecture requires it
    for size in ("kv_lora_rank", "q_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim"):
        if getattr(arch, size) is None:
            raise ArchitectureError(size, f"required with {key} (its latent attention's size)", where)


MIXER = MixerKind("head_gated_mla_layers", Keys, Names, build, lambda arch: bool(arch.head_gated_mla_layers), check)
