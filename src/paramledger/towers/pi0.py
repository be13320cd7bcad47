"""PI0's action expert and its action and state projections (transformers 5.24.0 models/pi0/modeling_pi0.py).

PI0Model (lines 104-110) builds ``dit`` (AutoModel of dit_config: a GemmaModel, registered before the VLM) and
``vlm`` (a PaliGemmaModel, families/pi0.py); PI0ForConditionalGeneration (lines 220-232) adds ``embed_action_time``
(PI0ActionTimeEmbedding, lines 62-69: action_in_proj from max_action_dim, state_proj from max_state_dim,
action_time_mlp_in from twice the expert's width, action_time_mlp_out, all biased Linears to the expert's width, and
sinusoid_embeds.sinusoid_freq, a float32 buffer of hidden_size // 2, not persistent: lines 39-44) and
``action_out_proj`` (a biased Linear back to max_action_dim).  No LM head and nothing tied.

The expert is Gemma's decoder (families/gemma.py) read from dit_config over the class defaults (PI0Config's
sub_configs_defaults where dit_config is absent, GemmaConfig's where it is given), its vocab_size the VLM's text
vocabulary whatever dit_config says (PI0Config.__post_init__): counted by the gemma family's own table, its
tensors moved under ``model.dit.`` (its head, tied to its table, dropped: GemmaModel holds none), each in the
component its part is (attention, ffn, norm, embedding: a decoder, as BLT's stacks are), in no layer of the VLM's."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ._kind import depth_bounded, positive

_new = tuple.__new__
DIT = "model.dit."
# PI0Config.sub_configs_defaults["dit_config"] (configuration_pi0.py): what a config without dit_config builds
DIT_DEFAULTS = {"model_type": "gemma", "hidden_size": 1024, "num_hidden_layers": 18, "intermediate_size": 4096,
                "num_attention_heads": 8, "num_key_value_heads": 1, "head_dim": 256}


class ActionExpert(NamedTuple):
    """The expert's tensors and the action projections under their full names (a tower: tensors(), buffers())."""
    tensors_: tuple[Tensor, ...]
    buffers_: tuple[Buffer, ...]
    # formula_towers.stand_in_towers: why the closed form is refused
    untraced = ("its action expert (towers/pi0.py) is a second Gemma decoder read from dit_config, which the "
                "builder cannot trace symbolically; --text-only is refused too")

    def tensors(self) -> list[Tensor]:
        return list(self.tensors_)

    def buffers(self) -> list[Buffer]:
        return list(self.buffers_)


def _dit_config(config: Mapping[str, Any], vocab: int, where: str | None) -> dict[str, Any]:
    dit = config.get("dit_config")
    if dit is None:
        dit = DIT_DEFAULTS
    if not isinstance(dit, Mapping):
        raise ArchitectureError("dit_config", "must be a JSON object", where)
    kind = dit.get("model_type", "gemma")
    if kind != "gemma":
        raise ArchitectureError("dit_config.model_type", f"{kind!r} is not counted in pi0 (it builds gemma, the "
                                "expert of PI0Config and its releases)", where)
    depth_bounded(dit, "dit_config", where, learned=False)  # (gemma's table reads its hidden_act)
    hidden = dit.get("hidden_size", 3072)  # (GemmaConfig's default where dit_config is given without it)
    if type(hidden) is int and hidden % 2:
        raise ArchitectureError("dit_config.hidden_size", f"must be even (PI0Config.validate_architecture), got "
                                f"{hidden}", where)
    return {**dit, "model_type": "gemma", "vocab_size": vocab}


def expert(config: Mapping[str, Any], where: str | None, decoder: Any) -> tuple[ActionExpert]:
    """The action expert and the action projections (Whole.made), sized by dit_config and the action keys."""
    from .. import inventory
    from ..buffers import every_buffer
    from ..hf_config import architecture_from_config

    vocab = decoder.vocab_size  # the VLM's text vocabulary (PI0Config.__post_init__)
    try:
        arch = architecture_from_config(_dit_config(config, vocab, where), where or "config")
    except ArchitectureError as error:  # said under dit_config
        key = error.key if error.key.startswith("dit_config") else f"dit_config.{error.key}"
        raise ArchitectureError(key, error.message, where) from None
    dit = inventory(arch)
    listed = [_new(Tensor, (DIT + t.name.removeprefix("model."), t.shape, t.component, None, t.frozen, t.experts))
              for t in dit.tensors if t.name.startswith("model.")]
    buffers = [b._replace(name=DIT + b.name.removeprefix("model.")) for b in every_buffer(dit)]
    width = arch.hidden_size
    sized = {"max_action_dim": 32, "max_state_dim": 32, **config}  # (PI0Config's defaults)
    actions, states = (positive(sized, key, "", where) for key in ("max_action_dim", "max_state_dim"))

    def linear(name: str, out: int, into: int) -> None:
        listed.append(_new(Tensor, (name + ".weight", (out, into), "projector", None, False, 0)))
        listed.append(_new(Tensor, (name + ".bias", (out,), "projector", None, False, 0)))

    linear("embed_action_time.action_in_proj", width, actions)
    linear("embed_action_time.state_proj", width, states)
    linear("embed_action_time.action_time_mlp_in", width, 2 * width)
    linear("embed_action_time.action_time_mlp_out", width, width)
    linear("action_out_proj", actions, width)
    buffers.append(Buffer("embed_action_time.sinusoid_embeds.sinusoid_freq", (width // 2,), "float32", False))
    return (ActionExpert(tuple(listed), tuple(buffers)),)
