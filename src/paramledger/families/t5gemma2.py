"""T5Gemma 2 (transformers 5.24.0 models/t5gemma2/): T5Gemma's encoder-decoder with Gemma 3's layers and a SigLIP
vision tower inside the encoder, counted whole as T5Gemma2ForConditionalGeneration (modeling_t5gemma2.py lines
1156-1169).

Identical to t5gemma (families/t5gemma.py) except, as modular_t5gemma2.py writes it over T5Gemma and Gemma 3:
- each layer is Gemma 3's: q_norm and k_norm (head_dim wide) in the attention (T5Gemma2SelfAttention, lines 235-266);
- the decoder has no cross_attn of its own: T5Gemma2MergedAttention (lines 315-433) runs its self-attention's
  q/k/v/o_proj and k_norm over the encoder's states too, one softmax over both key sets; the cross cache stays
  (EncoderDecoderCache.cross_attention_cache: num_key_value_heads × head_dim keys and values per encoder token);
- the encoder (T5Gemma2Encoder, lines 829-842) is ``text_model`` (embed_tokens, norm, layers, rotary_emb), then
  ``vision_tower`` (AutoModel of vision_config: SigLIP's) and ``multi_modal_projector`` (Gemma 3's: a raw
  (vision, text) matrix and an RMSNorm over the vision width, lines 574-589);
- each table is a T5Gemma2TextScaledWordEmbedding (lines 610-625): an nn.Embedding with a hidden-wide
  ``eoi_embedding`` Parameter and a 0-D ``embed_scale`` buffer;
- tying (T5Gemma2Model and T5Gemma2ForConditionalGeneration._tied_weights_keys, honoured by the whole config's
  tie_word_embeddings, default true): the decoder's embed_tokens (weight and eoi_embedding) and lm_head.out_proj
  are the encoder's text_model.embed_tokens; untied, three tables and two eoi vectors;
- the sections are T5Gemma2EncoderConfig (text_config, vision_config, mm_tokens_per_image) and
  T5Gemma2DecoderConfig, with Gemma 3's defaults (every sixth layer full: sliding_window_pattern) and a rotary pair
  per layer type; T5Gemma2Config refuses an encoder and a decoder of other widths or vocabularies."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..naming import Naming
from ..towers import Projected, Whole, projectors, read
from ..towers.projectors import tensors as projector_tensors
from ..towers.encoder import Seq2Seq
from . import _rules as rules
from ._family import COUNT_NEUTRAL, Family
from .gemma import GEMMA3_SWITCHES
from .t5gemma import SECTION_KEYS, SECTION_NEUTRAL, _section

SOURCE = "transformers 5.24.0 models/t5gemma2/configuration_t5gemma2.py"
DECODER, ENCODER = "model.decoder", "model.encoder.text_model"
VISION, PROJECTOR = "model.encoder.vision_tower", "model.encoder.multi_modal_projector"
SIGLIP = "siglip_vision_model"
# T5Gemma2DecoderLayer's (and T5Gemma2EncoderLayer's) registration order
LAYER_ORDER = ("self_attn", "pre_self_attn_layernorm", "post_self_attn_layernorm", "mlp",
               "pre_feedforward_layernorm", "post_feedforward_layernorm")
NAMING = Naming(
    embed=f"{DECODER}.embed_tokens", model_vectors=(f"{DECODER}.embed_tokens.eoi_embedding",),
    layer=f"{DECODER}.layers.{{i}}", final_norm=f"{DECODER}.norm",
    attn_pre_norm="pre_self_attn_layernorm", attn_post_norm="post_self_attn_layernorm",
    ffn_pre_norm="pre_feedforward_layernorm", ffn_post_norm="post_feedforward_layernorm",
    lm_head="lm_head.out_proj", rotary=f"{DECODER}.rotary_emb", rotary_per_layer_type=True,
    model_buffers=((f"{DECODER}.embed_tokens.embed_scale", (), None, False),), layer_order=LAYER_ORDER,
    # (the encoder's vision tower and projector sit between its text model and the decoder: T5Gemma2Encoder)
    model_order=(VISION, PROJECTOR, f"{DECODER}.embed_tokens", f"{DECODER}.norm", f"{DECODER}.layers"))

# T5Gemma2TextConfig's and T5Gemma2DecoderConfig's defaults (configuration_t5gemma2.py lines 59-83), as spelt
TEXT_DEFAULTS: dict[str, Any] = {
    "vocab_size": 262208, "hidden_size": 2304, "intermediate_size": 9216, "num_hidden_layers": 26,
    "num_attention_heads": 8, "num_key_value_heads": 4, "head_dim": 256, "hidden_activation": "gelu_pytorch_tanh",
    "max_position_embeddings": 131072, "attention_bias": False, "sliding_window": 4096, "layer_types": None}
EVERY = 6  # __post_init__'s sliding_window_pattern default: every sixth layer full
SECTION_KNOWN = frozenset(SECTION_KEYS) | SECTION_NEUTRAL | COUNT_NEUTRAL | {"sliding_window_pattern"}
# T5Gemma2EncoderConfig's own keys beside its sub-configs: token ids, the image's soft-token count (the projector's
# pooling, no tensor), what T5Gemma2Config writes into it; the 270m-270m release's encoder also says dropout_rate
# and vocab_size (T5Gemma2Encoder reads text_config's)
ENCODER_KNOWN = frozenset({"text_config", "vision_config", "mm_tokens_per_image", "boi_token_index",
                           "eoi_token_index", "image_token_index", "tie_word_embeddings", "dropout_rate",
                           "vocab_size"}) | COUNT_NEUTRAL


def _encoder_text(config: Mapping[str, Any]) -> dict[str, Any]:
    """The encoder's text_config read as the design's fields, refused under "encoder.text_config.<key>"."""
    encoder = config.get("encoder")
    if encoder is None:
        encoder = {}
    if not isinstance(encoder, Mapping):
        raise ArchitectureError("encoder", f"must be a JSON object, got {encoder!r}")
    return _section({"encoder.text_config": encoder.get("text_config")}, "encoder.text_config", TEXT_DEFAULTS, EVERY)


def _decoder(config: Mapping[str, Any]) -> dict[str, Any]:
    """The decoder's design from the decoder section; its merged cross-attention caches its own KV heads."""
    decoder, text = _section(config, "decoder", TEXT_DEFAULTS, EVERY), _encoder_text(config)
    for key in ("hidden_size", "vocab_size"):  # T5Gemma2Config.validate_architecture
        if text[key] != decoder[key]:
            raise ArchitectureError(f"encoder.text_config.{key}", f"{text[key]} differs from decoder.{key}="
                                    f"{decoder[key]} (T5Gemma2Config refuses an imbalanced encoder-decoder)")
    return {**decoder, "cross_attention_kv_heads": decoder["num_key_value_heads"]}


def _encoder(config: Mapping[str, Any], where: str | None) -> dict[str, Any]:
    """The encoder's text model (Seq2Seq.encoder_variant): every size its text_config's, no cross-attention."""
    try:
        fields = _encoder_text(config)
    except ArchitectureError as error:
        raise ArchitectureError(error.key, error.message, where) from None
    return {"encoder_fields": {**fields, "cross_attention_hidden_size": None, "cross_attention_kv_heads": None,
                               "cross_attention_merged": False}}


def _projector(config: Mapping[str, Any], vision: Any, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """T5Gemma2MultiModalProjector: Gemma 3's; its class divides by int(mm_tokens_per_image ** 0.5) when built."""
    tokens = rules.positive("mm_tokens_per_image", config.get("mm_tokens_per_image", 256))
    del tokens  # (pooling only: no tensor)
    return projectors.gemma3(config, vision, hidden)


VISION_WHOLE = Whole({"model_type": SIGLIP}, _projector, vision_prefix=VISION + ".", projector_prefix=PROJECTOR + ".")


def _vision(config: Mapping[str, Any], hidden: int, where: str | None) -> tuple[Any, ...]:
    """The encoder's vision tower and projector (Seq2Seq.encoder_towers), read from the encoder section and
    refused under "encoder.<key>"."""
    encoder = config.get("encoder") or {}  # (an object: the decoder's rule has checked it)
    vision = encoder.get("vision_config")
    kind = vision.get("model_type", SIGLIP) if isinstance(vision, Mapping) else SIGLIP
    if kind != SIGLIP:
        raise ArchitectureError("encoder.vision_config.model_type", f"{kind!r} is not counted in t5gemma2 (it "
                                f"builds {SIGLIP}, the tower of its releases)", where)
    try:
        if type(hidden) is not int:  # (formula's symbol d: the tower as read, the projector made for d)
            tower = read(VISION_WHOLE, encoder, 1, where)[0]
            return tower, Projected(tuple(projector_tensors(PROJECTOR + ".", _projector(encoder, tower, hidden))))
        return read(VISION_WHOLE, encoder, hidden, where)
    except ArchitectureError as error:
        raise ArchitectureError(f"encoder.{error.key}", error.message, where) from None


def _encoder_decoder_only(config: Mapping[str, Any]) -> dict[str, Any]:
    """T5Gemma2Config.validate_architecture refuses is_encoder_decoder false (configuration_t5gemma2.py: ValueError
    "T5Gemma2Model only support encoder-decoder modeling."): no class of it builds a decoder alone."""
    if config.get("is_encoder_decoder") is False:
        raise ArchitectureError("is_encoder_decoder", "false is refused by transformers (T5Gemma2Config: "
                                "\"T5Gemma2Model only support encoder-decoder modeling.\")")
    return {}


T5GEMMA2 = Family(
    model_type="t5gemma2",
    causal_lm_class="T5Gemma2ForConditionalGeneration",  # (no CausalLM: the whole model is the reference)
    source=SOURCE,
    naming=NAMING,
    keys={"tie_word_embeddings": "tie_word_embeddings"},
    defaults={"tie_word_embeddings": True},
    # Gemma 3's layer (sandwich norms, q/k norms, a gated GeGLU MLP without bias), its cross-attention merged
    switches={**GEMMA3_SWITCHES, "mlp_bias": False, "add_cross_attention": True, "cross_attention_merged": True},
    # the sections (read by the rule and the encoder variant); the top-level vocab_size sizes nothing
    # (T5Gemma2ForConditionalGeneration reads config.decoder.vocab_size), nor do the image token ids
    count_neutral=frozenset({"encoder", "decoder", "vocab_size", "dropout_rate", "classifier_dropout_rate",
                             "image_token_index", "eoi_token_index"}),
    sections={"encoder": ENCODER_KNOWN, "decoder": SECTION_KNOWN},
    derive=(_encoder_decoder_only, _decoder),
    seq2seq=Seq2Seq("T5Gemma2ForConditionalGeneration", {}, {"tie_word_embeddings": True},
                    shared=f"{ENCODER}.embed_tokens", decoder=DECODER, encoder=ENCODER, head_buffers=(),
                    shared_if_tied=True, encoder_naming=(("rotary", f"{ENCODER}.rotary_emb"),),
                    encoder_variant=_encoder, encoder_towers=_vision),
)

FAMILIES = [T5GEMMA2]
