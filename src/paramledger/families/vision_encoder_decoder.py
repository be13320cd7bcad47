"""VisionEncoderDecoderModel (transformers 5.24.0 models/vision_encoder_decoder: TrOCR, ViT-GPT2 captioning), counted
whole: identical to encoder-decoder (families/encoder_decoder.py) except:
- the encoder is an image encoder, config.encoder's ViTModel or DeiTModel (towers/vit.py, AutoModel's: with its
  pooler), registered first under "encoder.", the component "vision"; VisionEncoderDecoderConfig builds a ViT
  where a config gives no encoder (sub_configs_defaults, configuration_vision_encoder_decoder.py lines 65-70);
- the decoder may also be TrOCR's (TrOCRForCausalLM: model.decoder. and output_projection under "decoder.") or
  GPT-2's (GPT2LMHeadModel with add_cross_attention: transformer. and lm_head. under "decoder.");
- enc_to_dec_proj reads the image encoder's width (modeling_vision_encoder_decoder.py lines 134-138), and a
  decoder cross_attention_hidden_size other than it is refused as __init__ refuses it (lines 91-98).
The whole config's tie_word_embeddings is set False (line 102): the head is tied by the decoder's own config."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from functools import lru_cache, partial
from typing import Any

from .._exceptions import ArchitectureError, quoted
from ..naming import Naming
from ..towers import Whole
from ..towers._kind import depth_bounded
from ..towers.encoder_decoder import PROJECTOR, section
from ..towers import swin, vit
from ._family import multimodal
from .encoder_decoder import BERT, DECODER, encoder_first
from .encoder_decoder import DECODER_ROOTS as TEXT_DECODERS

PREFIX = "encoder."
# model_type -> its config class's defaults, the maker of its AutoModel (prefix, config, where), its width
ENCODERS = {"vit": (vit.VIT_DEFAULTS, vit.make, lambda config: config["hidden_size"]),
            "deit": (vit.DEIT_DEFAULTS, partial(vit.make, distilled=True), lambda config: config["hidden_size"]),
            "donut-swin": (swin.DONUT_SWIN_DEFAULTS, swin.make, swin.width),
            "swin": (swin.DONUT_SWIN_DEFAULTS, partial(swin.make, swin=True), swin.width)}
# the decoders AutoModelForCausalLM builds that paramledger reads with cross-attention, and their top modules:
# encoder-decoder's (BERT-code, GPT-2) and TrOCR's
VED = "vision-encoder-decoder"  # (the whole model named in a refusal of its sub-configs)
DECODER_ROOTS = {**TEXT_DECODERS, "trocr": ("model.", "output_projection"), "mbart": ("model.", "lm_head"),
                 "bart": ("model.", "lm_head")}


def encoder_config(config: Mapping[str, Any], where: str | None = None) -> dict[str, Any]:
    """config.encoder over its config class's defaults."""
    given = section(config, "encoder", {"model_type": "vit"}, where, ENCODERS, VED)
    return {**ENCODERS[given["model_type"]][0], **given}


def encoder_width(config: Mapping[str, Any]) -> Any:
    """config.encoder's hidden_size as its config class reads it (DonutSwinConfig computes its own)."""
    merged = encoder_config(config)
    return ENCODERS[merged["model_type"]][2](merged)


def vision_encoder(config: Mapping[str, Any], where: str | None, decoder: Any = None) -> list[Any]:
    """The encoder AutoModel builds from config.encoder (Whole.made: registered before the decoder)."""
    merged = encoder_config(config, where)
    depth_bounded(merged, "encoder", where)
    return [ENCODERS[merged["model_type"]][1](PREFIX, merged, where)]


def decoder_config(config: Mapping[str, Any], text: Mapping[str, Any]) -> Mapping[str, Any]:
    """config.decoder, the text decoder; a cross_attention_hidden_size other than the encoder's width refused as
    VisionEncoderDecoderModel.__init__ refuses it."""
    given = section(config, "decoder", DECODER, None, DECODER_ROOTS, VED)
    cross = given.get("cross_attention_hidden_size")
    if cross is not None:  # (the encoder's own refusal first: its width is read from it)
        vision_encoder(config, None)
    width = encoder_width(config)
    if cross is not None and cross != width:
        raise ArchitectureError("decoder.cross_attention_hidden_size", f"{quoted(cross)} must be the encoder's "
                                f"hidden_size ({quoted(width)}), as VisionEncoderDecoderModel requires")
    return given


def enc_to_dec_proj(config: Mapping[str, Any], tower: Any, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """enc_to_dec_proj, nn.Linear(encoder width, decoder width) with its bias, where the widths differ and the
    decoder's config has no cross_attention_hidden_size."""
    width = encoder_width(config)
    if width == hidden or (config.get("decoder") or {}).get("cross_attention_hidden_size") is not None:
        return []
    return [(f"{PROJECTOR}.weight", (hidden, width)), (f"{PROJECTOR}.bias", (hidden,))]


def _moved(value: Any) -> Any:
    """TrOCR's model.decoder. (moved to decoder.decoder. by the whole naming) at decoder.model.decoder."""
    if isinstance(value, str) and value.startswith("decoder.decoder."):
        return "decoder.model." + value.removeprefix("decoder.")
    if isinstance(value, tuple) and value and isinstance(value[0], tuple):  # model_buffers
        return tuple((_moved(entry[0]), *entry[1:]) for entry in value)
    if isinstance(value, tuple):
        return tuple(_moved(entry) for entry in value)
    return value


@lru_cache(maxsize=16)
def renamed(naming: Naming) -> Naming:
    """The decoder's naming in the whole model: TrOCR's wrapper kept (decoder.model.decoder.), then
    encoder-decoder's order (the encoder, the decoder, enc_to_dec_proj)."""
    changes = {f.name: _moved(getattr(naming, f.name)) for f in dataclasses.fields(naming)}
    return encoder_first(dataclasses.replace(naming, **{key: value for key, value in changes.items()
                                                        if value != getattr(naming, key)}))


FAMILIES = [multimodal(
    BERT, "vision-encoder-decoder", "transformers 5.24.0 models/vision_encoder_decoder/configuration_vision_encoder_"
    "decoder.py (VisionEncoderDecoderConfig: encoder and decoder sub-configs, vit and bert by default)",
    Whole({}, enc_to_dec_proj, projector_prefix="", decoder_prefix="decoder.",
          decoder_roots=tuple(dict.fromkeys(root for roots in DECODER_ROOTS.values() for root in roots
                                            if root != "model.")),
          tie_word_embeddings=False, tie_keys=(), tie_from_text=True, text_types=tuple(DECODER_ROOTS),
          text_config=DECODER, text_key="decoder", text_rewritten=decoder_config, made=vision_encoder, renamed=renamed,
          described="vision-encoder-decoder: counting the whole model (VisionEncoderDecoderModel: the image "
                    "encoder with AutoModel's pooler, the decoder and enc_to_dec_proj where their widths differ; "
                    "TrOCR's conversion script stored no pooler: transformers initialises encoder.pooler on load); "
                    "--text-only counts the decoder alone"),
    "VisionEncoderDecoderModel")]
