"""UDOP counted whole (transformers 5.24.0 models/udop: UdopForConditionalGeneration, registered as image-text-to-text;
no CausalLM), written as a difference from T5 (families/t5.py).

UdopForConditionalGeneration (modeling_udop.py lines 1409-1438) is T5ForConditionalGeneration's layout (``shared``,
``encoder``, ``decoder``, a ``lm_head`` tied to ``shared``; UdopBlock, UdopAttention, UdopLayerFF are "Copied from"
T5's) except:
- ``patch_embed`` (UdopPatchEmbeddings, lines 256-272: a biased Conv2d from num_channels to d_model, kernel and
  stride patch_size) registered after ``shared``, before the encoder;
- each UdopStack (lines 1066-1090) registers its own ``embed_patches`` (the same Conv2d) after ``embed_tokens``: the
  encoder's tied to ``patch_embed`` (_tied_weights_keys, lines 1410-1418), the decoder's its own;
- after its ``final_layer_norm`` the encoder registers ``cell_2d_embedding`` (UdopCellEmbeddings, lines 819-825:
  x_position_embeddings and y_position_embeddings, max_2d_position_embeddings × d_model each);
- then every stack its ``relative_bias`` (RelativePositionBiasAggregated, lines 1017-1064): one
  ``biases.{i}.relative_attention_bias`` nn.Embedding per entry of relative_bias_args (RelativePositionBiasBase,
  lines 896-899: the entry's relative_attention_num_buckets, 32 by default whatever the config's, plus 2 rows with
  prefix_bucket and not expand, × num_heads); the first entry of both stacks is tied to the encoder's first block's
  T5 table (_tied_weights_keys), whatever its own shape, and an empty list cannot be tied (transformers refuses it).
UdopConfig (configuration_udop.py) ties always, as T5Config does (tie_word_embeddings popped and set true)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Tensor
from ..limits import MAX_INTEGER, big
from ..naming import Naming
from ..towers._kind import TOWER_LAYERS
from ._family import derived_from
from .t5 import COUNT_NEUTRAL, DECODER, ENCODER, T5, T5_NAMING, TF, _defaults, _whole

_new = tuple.__new__
BIAS_TYPES = ("1d", "horizontal", "vertical")  # modeling_udop.py BIAS_CLASSES
# RelativePositionBiasBase's keywords (lines 875-885) that size nothing
BIAS_NEUTRAL = frozenset({"scaling_factor", "max_distance", "bidirectional", "level", "augmentation"})
ENCODER_TABLE = f"{ENCODER}.block.0.layer.0.SelfAttention.relative_attention_bias.weight"
DEFAULT_BIASES = ({"type": "1d"}, {"type": "horizontal"}, {"type": "vertical"})  # UdopConfig.__post_init__


class UdopExtras(NamedTuple):
    """What a UDOP stack holds beside T5's (a tower: tensors(), aliases(), embedding_tables(), buffers())."""
    listed: tuple[Tensor, ...]
    aliases_: tuple[tuple[str, str], ...]
    tables: tuple[str, ...]  # its nn.Embedding tables (the cell tables, the relative biases)
    # formula_towers.stand_in_towers: why the closed form is refused
    untraced = ("its relative_bias tables (families/udop.py) are tied to the encoder's first-block table, which the "
                "builder cannot trace symbolically beside the encoder's own")

    def tensors(self) -> list[Tensor]:
        return list(self.listed)

    def aliases(self) -> dict[str, str]:
        return dict(self.aliases_)

    def embedding_tables(self) -> list[str]:
        return list(self.tables)

    def buffers(self) -> list:
        return []


def _positive(key: str, value: Any, where: str | None) -> int:
    if type(value) is not int or value <= 0:
        raise ArchitectureError(key, f"must be a positive whole number, got {value!r}", where)
    if value > MAX_INTEGER:
        raise ArchitectureError(key, f"{big(value)} is beyond the bound of {MAX_INTEGER:,} (docs/limits.md)", where)
    return value


def _pair(key: str, value: Any, where: str | None) -> tuple[int, int]:
    """image_size / patch_size: one int, or [height, width] (UdopPatchEmbeddings reads either)."""
    if isinstance(value, (list, tuple)):
        if len(value) != 2:
            raise ArchitectureError(key, f"must be a whole number or [height, width], got {list(value)!r}", where)
        return _positive(key, value[0], where), _positive(key, value[1], where)
    size = _positive(key, value, where)
    return size, size


def _bias_rows(entries: Any, heads: int, where: str | None) -> list[int]:
    """Each relative_bias_args entry's table rows (create_relative_bias, lines 1044-1063), refused in one line."""
    key = "relative_bias_args"
    if not isinstance(entries, (list, tuple)) or not entries:
        raise ArchitectureError(key, "must be a non-empty list of objects (UdopForConditionalGeneration ties the "
                                "first to the encoder's relative_attention_bias)", where)
    if len(entries) > TOWER_LAYERS:
        raise ArchitectureError(key, f"{len(entries):,} entries: beyond the bound of {TOWER_LAYERS:,} tables a "
                                "stack's are named to (docs/limits.md)", where)
    rows = []
    for i, entry in enumerate(entries):
        at = f"{key}[{i}]"
        if not isinstance(entry, Mapping):
            raise ArchitectureError(at, f"must be an object, got {entry!r}", where)
        if entry.get("type") not in BIAS_TYPES:
            raise ArchitectureError(f"{at}.type", f"must be one of {', '.join(BIAS_TYPES)}, got "
                                    f"{entry.get('type')!r}", where)
        unknown = sorted(set(entry) - BIAS_NEUTRAL - {"type", "num_heads", "relative_attention_num_buckets",
                                                     "prefix_bucket", "expand"})
        if unknown:
            raise ArchitectureError(f"{at}.{unknown[0]}", "is no keyword of RelativePositionBiasBase", where)
        if "num_heads" in entry and entry["num_heads"] != heads:
            raise ArchitectureError(f"{at}.num_heads", f"must equal num_heads={heads} (create_relative_bias), got "
                                    f"{entry['num_heads']!r}", where)
        buckets = _positive(f"{at}.relative_attention_num_buckets", entry.get("relative_attention_num_buckets", 32),
                            where)
        flags = [entry.get(name, False) for name in ("prefix_bucket", "expand")]
        for name, flag in zip(("prefix_bucket", "expand"), flags):
            if type(flag) is not bool:
                raise ArchitectureError(f"{at}.{name}", f"must be true or false, got {flag!r}", where)
        rows.append(buckets + (2 if flags[0] and not flags[1] else 0))
    return rows


def _extras(config: Mapping[str, Any], hidden: Any, where: str | None) -> tuple[UdopExtras]:
    """The patch embeddings, the encoder's cell tables and both stacks' relative biases (Seq2Seq.encoder_towers)."""
    heads = _positive("num_heads", config.get("num_heads", 16), where)  # (UdopConfig's default)
    channels = _positive("num_channels", config.get("num_channels", 3), where)
    image = _pair("image_size", config.get("image_size", 224), where)
    patch = _pair("patch_size", config.get("patch_size", 16), where)
    if patch[0] > image[0] or patch[1] > image[1]:
        raise ArchitectureError("patch_size", f"{config.get('patch_size')!r} is larger than image_size="
                                f"{config.get('image_size', 224)!r}", where)
    cells = _positive("max_2d_position_embeddings", config.get("max_2d_position_embeddings", 1024), where)
    biases = config.get("relative_bias_args")
    rows = _bias_rows(list(DEFAULT_BIASES) if biases is None else biases, heads, where)
    listed: list[Tensor] = []

    def add(name: str, shape: tuple, component: str) -> None:
        listed.append(_new(Tensor, (name, shape, component, None, False, 0)))

    def patches(module: str) -> None:
        add(f"{module}.proj.weight", (hidden, channels, *patch), "vision")
        add(f"{module}.proj.bias", (hidden,), "vision")

    patches("patch_embed")
    add(f"{ENCODER}.cell_2d_embedding.x_position_embeddings.weight", (cells, hidden), "encoder")
    add(f"{ENCODER}.cell_2d_embedding.y_position_embeddings.weight", (cells, hidden), "encoder")
    aliases = [(f"{ENCODER}.embed_patches.proj.{v}", f"patch_embed.proj.{v}") for v in ("weight", "bias")]
    for stack, component in ((ENCODER, "encoder"), (DECODER, "positions")):
        if stack == DECODER:
            patches(f"{DECODER}.embed_patches")
        table = f"{stack}.relative_bias.biases.{{}}.relative_attention_bias.weight"
        aliases.append((table.format(0), ENCODER_TABLE))
        for i, count in enumerate(rows[1:], start=1):
            add(table.format(i), (count, heads), component)
    # its nn.Embedding tables outside the decoder's components (the decoder's biases are "positions" already)
    tables = tuple(t.name for t in listed if t.component == "encoder")
    return (UdopExtras(tuple(listed), tuple(aliases), tables),)


# the decoder's top modules in UdopStack's order (its embed_patches after embed_tokens, relative_bias last)
UDOP_NAMING = Naming(**{**vars(T5_NAMING), "model_order": (
    f"{DECODER}.embed_tokens", f"{DECODER}.embed_patches", f"{DECODER}.block", f"{DECODER}.final_layer_norm",
    f"{DECODER}.relative_bias")})

# identical to t5 except: UdopConfig's defaults (UDOP-large: a 33,201-token table, 24 layers of 16 heads at 1024
# wide), its class, the image and layout tables beside T5's (_extras) and the keys that size them.
UDOP = derived_from(
    T5, model_type="udop", causal_lm_class="UdopForConditionalGeneration", source=TF.format("udop"),
    naming=UDOP_NAMING,
    defaults={**_defaults(33201, 4096, 24, 16, "relu"), "d_model": 1024},
    count_neutral=COUNT_NEUTRAL | {"image_size", "patch_size", "num_channels", "max_2d_position_embeddings",
                                   "relative_bias_args",  # (read by _extras)
                                   "add_cross_attention"},  # (UdopBlock reads is_decoder, which the class sets)
    seq2seq=_whole("UdopForConditionalGeneration", 24)._replace(
        encoder_towers=_extras, after_shared=("patch_embed",),
        decoder_alone_refused="UdopStack's decoder holds patch embeddings and 2D relative biases of its own and is "
                              "no class transformers builds alone: count the whole model"),
)

FAMILIES = [UDOP]
