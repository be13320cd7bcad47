"""DiffusionGemma's diffusion decoder (DiffusionGemmaDecoderModel, transformers 5.24.0
models/diffusion_gemma/modeling_diffusion_gemma.py lines 1181-1218): the encoder's text stack again under
"model.decoder." (embed_tokens, layers, norm: DiffusionGemmaDecoderTextLayer holds the tensors
DiffusionGemmaEncoderTextLayer holds, in the same order), then self_conditioning (DiffusionGemmaSelfConditioning,
lines 784-803: pre_norm, an RMSNorm without scale post_norm, a gated MLP at intermediate_size).

DiffusionGemmaModel._tied_weights_keys (lines 1468-1478) ties every decoder tensor but the self-conditioning block
to the encoder's language model (encoder.language_model.X is decoder.X, listed under the encoder's names, which
register first; its patterns leave the attention's biases out: with attention_bias each stack holds its own).  While
the whole config's tie_word_embeddings holds (its default; False "undoes all ties",
configuration_diffusion_gemma.py:209-210) the decoder's stack is aliases (its biases aside), else a second copy.
Buffers are never tied: the decoder holds its own embed_scale, layer_scalar and rotary tables either way.

The copy is the decoder design's own tensors, built by the builder under the family's names and moved: a count at
another depth (--set) makes it again.  Its tensors keep their components (attention, ffn, experts, norm,
embedding): they are the text model's, not a tower's; in no layer of the numbered stack."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError, quoted
from ..inventory import Buffer, Tensor
from ._kind import TOWER_LAYERS

ENCODER = "model.encoder.language_model."  # where the design's own stack sits (the family's names)
DECODER = "model.decoder."
SELF_CONDITIONING = DECODER + "self_conditioning."
_new = tuple.__new__
# What DiffusionGemmaModel._tied_weights_keys ties, by the name's last part: embed_tokens.weight, norm.weight and, in
# the layers, every tensor ending in weight, scale, per_expert_scale, gate_up_proj or down_proj (lines 1470-1477): not
# the attention's biases, which each stack holds of its own
TIED = frozenset({"weight", "scale", "per_expert_scale", "gate_up_proj", "down_proj"})


class DiffusionDecoder(NamedTuple):
    """The decoder beside the encoder: its own tensors (untied: the whole stack; tied: the attention biases and the
    self-conditioning block) and the names it gives the encoder's (tied)."""
    listed: tuple[Tensor, ...]
    aliases_: tuple[tuple[str, str], ...]  # (decoder name, encoder name), tied
    table: str  # its own nn.Embedding table, untied; "" tied
    design: Any  # the decoder's design (its buffers are found when asked, never on a count)

    @property
    def untraced(self) -> str:
        """Why formula.py has no closed form for it (its sizes are the design's numbers, not its symbols)."""
        return ("its diffusion decoder (the encoder's stack again where untied, a self-conditioning block at "
                "intermediate_size) is made from the design's numbers, which the builder cannot trace symbolically: "
                "no closed form")

    @property
    def copy_of(self) -> tuple[str, str] | None:
        """(its prefix, the stack's it ties to) where tied: LoRA places the modules that hold only aliases (PEFT
        wraps each again) where the decoder registers them."""
        return (DECODER, ENCODER) if self.aliases_ else None

    @property
    def shared_said(self) -> str:
        """Why its aliases are held once, for the count's line on shared tensors."""
        return "the diffusion decoder's stack is the encoder's own: DiffusionGemmaModel._tied_weights_keys"

    def tensors(self) -> list[Tensor]:
        return list(self.listed)

    def aliases(self) -> dict[str, str]:
        return dict(self.aliases_)

    def looked_up(self) -> dict[str, str]:
        """Of its aliases, the token table (a gather, not a matmul; the others are the stack's own weights)."""
        return {alias: target for alias, target in self.aliases_ if alias == DECODER + "embed_tokens.weight"}

    def embedding_tables(self) -> list[str]:
        return [self.table] if self.table else []

    def buffers(self) -> list[Buffer]:
        from ..buffers import every_buffer
        from .._builder import build
        from ..families import naming_of

        held = every_buffer(build(self.design, naming_of(self.design)))
        return [b._replace(name=DECODER + b.name.removeprefix(ENCODER)) for b in held if b.name.startswith(ENCODER)]


def tied(config: Mapping[str, Any], where: str | None) -> bool:
    """The whole config's tie_word_embeddings (DiffusionGemmaConfig's default True; text_config's is not read)."""
    tie = config.get("tie_word_embeddings")
    if tie is None:
        return True
    if not isinstance(tie, bool):
        raise ArchitectureError("tie_word_embeddings", f"must be true or false, got {quoted(tie)}", where)
    return tie


def decoder(config: Mapping[str, Any], where: str | None, design: Any) -> list[DiffusionDecoder]:
    """The diffusion decoder of ``design`` (the encoder's text stack, read from text_config)."""
    from .._builder import build
    from ..families import naming_of

    if design.num_hidden_layers > TOWER_LAYERS:
        raise ArchitectureError("text_config.num_hidden_layers", f"{design.num_hidden_layers:,} is beyond the bound "
                                f"of {TOWER_LAYERS:,}: the diffusion decoder's copy of the stack is named layer by "
                                "layer (docs/limits.md)", where)
    tie = tied(config, where)
    stack = design.with_fields(tie_word_embeddings=True)  # (no head: the whole model's lm_head is its own)
    built = build(stack, naming_of(stack)).tensors
    own = [t for t in built if t[0].startswith(ENCODER)]
    width, inner = design.hidden_size, design.intermediate_size
    conditioning = [_new(Tensor, (SELF_CONDITIONING + "pre_norm.weight", (width,), "norm", None, False, 0)),
                    *(_new(Tensor, (SELF_CONDITIONING + name, shape, "ffn", None, False, 0)) for name, shape in (
                        ("gate_proj.weight", (inner, width)), ("up_proj.weight", (inner, width)),
                        ("down_proj.weight", (width, inner))))]
    copied = [_new(Tensor, (DECODER + t[0].removeprefix(ENCODER), t[1], t[2], None, t[4], t[5])) for t in own
              if not tie or t[0].rpartition(".")[2] not in TIED]  # (tied: the biases stay the decoder's own)
    aliases = tuple((DECODER + t[0].removeprefix(ENCODER), t[0]) for t in own
                    if tie and t[0].rpartition(".")[2] in TIED)
    return [DiffusionDecoder((*copied, *conditioning), aliases, "" if tie else DECODER + "embed_tokens.weight",
                             design)]
