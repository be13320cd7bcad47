"""EncoderDecoderModel's encoder: another family's base model (AutoModel) under "encoder." (issue #17).

transformers 5.24.0 models/encoder_decoder/modeling_encoder_decoder.py (EncoderDecoderModel.__init__): encoder =
AutoModel.from_config(config.encoder), decoder = AutoModelForCausalLM.from_config(config.decoder), registered in that
order, then enc_to_dec_proj, an nn.Linear(encoder hidden_size, decoder hidden_size) with a bias, where the two widths
differ and the decoder's config has no cross_attention_hidden_size.  The encoder here is its family's own count (the
family's masked-LM table, read from config.encoder) with that model's root moved to "encoder." and its head dropped,
plus the pooler AutoModel's base model holds (BertModel and RobertaModel build it: add_pooling_layer=True); the
decoder is read by its own family's table from config.decoder (families/encoder_decoder.py).  5.24.0 ties nothing
across the two: tie_encoder_decoder is read nowhere in it (each model ties its own head by its own config)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError, quoted
from ..inventory import Buffer, Tensor

PREFIX = "encoder."
PROJECTOR = "enc_to_dec_proj"
# model_type -> the root its family's own count names its base model under (modeling_bert.py BertForMaskedLM.bert,
# modeling_roberta.py RobertaForMaskedLM.roberta, ...) and whether AutoModel's base model holds a pooler (BertModel,
# RobertaModel and their copies do; BertGenerationEncoder has none); every other type is refused
ROOTS = {"bert": "bert.", "roberta": "roberta.", "xlm-roberta": "roberta.", "camembert": "roberta.",
         "data2vec-text": "data2vec_text.", "bert-generation": "bert."}
POOLED = frozenset(ROOTS) - {"bert-generation"}
_TABLES = ("embedding", "positions", "token_types")  # the components of its nn.Embedding tables


class BaseModel(NamedTuple):
    """The encoder, its tensors listed once in registration order (a tower: tensors(), buffers())."""
    listed: tuple[Tensor, ...]
    tables: tuple[str, ...]
    buffers_: tuple[Buffer, ...]

    def tensors(self) -> list[Tensor]:
        return list(self.listed)

    def buffers(self) -> list[Buffer]:
        return list(self.buffers_)

    def embedding_tables(self) -> list[str]:
        return list(self.tables)


def section(config: Mapping[str, Any], key: str, default: Mapping[str, Any], where: str | None,
            kinds: Mapping[str, Any] = ROOTS, whole: str = "encoder-decoder") -> Mapping[str, Any]:
    """config.encoder or config.decoder (the ``whole`` config class's sub-config default where absent or null:
    EncoderDecoderConfig's, VisionEncoderDecoderConfig's), its model_type one of ``kinds`` paramledger counts in this
    whole model (else refused, naming the key)."""
    given = config.get(key)
    given = default if given is None else given
    if not isinstance(given, Mapping):
        raise ArchitectureError(key, "must be a JSON object", where)
    kind = given.get("model_type", default["model_type"])
    if kind not in kinds:
        raise ArchitectureError(f"{key}.model_type", f"{quoted(kind)} is not counted in {whole} yet (paramledger "
                                f"counts {', '.join(kinds)} {key}s)", where)
    return {**given, "model_type": kind}


def encoder(config: Mapping[str, Any], where: str | None, decoder: Any = None) -> list[BaseModel]:
    """The encoder AutoModel builds from config.encoder (Whole.made: registered before the decoder)."""
    from .. import families
    from .._builder import build
    from ..buffers import every_buffer
    from ..hf_config import architecture_from_config

    given = section(config, "encoder", {"model_type": "bert"}, where)
    root = ROOTS[given["model_type"]]
    try:  # (untied: XLM-RoBERTa's count names a tied word table lm_head.decoder, outside its base model)
        arch = architecture_from_config({**given, "tie_word_embeddings": False}, where or "config.json")
    except ArchitectureError as error:  # its own table's refusal, said under encoder.
        raise ArchitectureError(f"encoder.{error.key}", error.message, where) from None
    counted = build(arch, families.naming_of(arch))
    moved = [Tensor(PREFIX + t.name.removeprefix(root), t.shape, "encoder", None, t.frozen, t.experts)
             for t in counted.tensors if t.name.startswith(root)]
    width = arch.hidden_size
    if given["model_type"] in POOLED:  # BertPooler / RobertaPooler: dense (d, d) and its bias, after the layers
        moved += [Tensor(f"{PREFIX}pooler.dense.weight", (width, width), "encoder"),
                  Tensor(f"{PREFIX}pooler.dense.bias", (width,), "encoder")]
    tables = tuple(PREFIX + t.name.removeprefix(root) for t in counted.tensors
                   if t.name.startswith(root) and t.component in _TABLES)
    held = tuple(b._replace(name=PREFIX + b.name.removeprefix(root)) for b in every_buffer(counted)
                 if b.name.startswith(root))
    return [BaseModel(tuple(moved), tables, held)]


def encoder_width(config: Mapping[str, Any]) -> int:
    """config.encoder's hidden_size, its family's class default where absent (a section already read)."""
    from .. import families

    given = config.get("encoder") or {"model_type": "bert"}
    kind = given.get("model_type", "bert")
    width = given.get("hidden_size")
    return families.get(kind).defaults["hidden_size"] if width is None else width


def enc_to_dec_proj(config: Mapping[str, Any], tower: Any, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """enc_to_dec_proj where the encoder's width is not the decoder's and the decoder's config has no
    cross_attention_hidden_size (EncoderDecoderModel.__init__)."""
    width = encoder_width(config)
    if width == hidden or (config.get("decoder") or {}).get("cross_attention_hidden_size") is not None:
        return []
    return [(f"{PROJECTOR}.weight", (hidden, width)), (f"{PROJECTOR}.bias", (hidden,))]
