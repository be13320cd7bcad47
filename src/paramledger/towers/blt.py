"""BLT's stacks beside its local encoder (transformers 5.24.0 models/blt/modeling_blt.py, BltModel): the local
encoder's own patch projection and cross-attention, the global transformer over patches, the local decoder with its
cross-attention into the patches, the hash n-gram table and the entropy patcher, each read from its own sub-config
(configuration_blt.py) or, for the hash table and the global transformer's input projection, from the whole config.

BltForCausalLM registers (named_parameters() order): model.local_encoder (layers, patch_embedding_projection,
embed_tokens, cross_attn_layers), model.global_transformer (layers, token_embedding_projection), model.local_decoder
(layers, patch_embedding_projection, norm, cross_attn_layers), model.encoder_hash_tok_embedding, model.patcher
(layers, embed_tokens, norm, lm_head; requires_grad False: frozen) and lm_head.  The family's design is the local
encoder's embed_tokens and layers with the head (families/blt.py); everything else is here, made once per config
by ``stacks`` (Whole.made).  Every stack is BltTransformerLayer: Llama's layer, head_dim = hidden_size // heads
whatever head_dim says, no biases; a BltCrossAttention is q, k, v, o (the same widths) and a q_norm and k_norm
hidden_size wide."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError, quoted
from ..inventory import Buffer, Tensor
from ..limits import MAX_INTEGER, big
from ._kind import TOWER_LAYERS, depth_bounded

_new = tuple.__new__
TF = "transformers 5.24.0 models/blt/configuration_blt.py"

# The sub-config classes' defaults (configuration_blt.py); None: derived in __post_init__ (the KV heads are the
# heads, the encoder's intermediate_size int(8 × hidden_size / 3)), as a 0 is (``or``)
ENCODER = {"vocab_size": 260, "cross_attn_all_layers": False, "cross_attn_k": 2, "hidden_size_global": 2048,
           "hidden_size": 1024, "num_attention_heads": 16, "num_key_value_heads": None, "num_hidden_layers": 1,
           "max_position_embeddings": 24576, "intermediate_size": None, "hidden_act": "silu"}
DECODER = {"vocab_size": 260, "cross_attn_all_layers": True, "cross_attn_k": 2, "hidden_size_global": 2048,
           "hidden_size": 1024, "num_attention_heads": 16, "num_key_value_heads": None, "num_hidden_layers": 9,
           "max_position_embeddings": 24576, "intermediate_size": 2816, "hidden_act": "silu"}
GLOBAL = {"hidden_size": 2048, "num_attention_heads": 16, "num_key_value_heads": None, "num_hidden_layers": 25,
          "max_position_embeddings": 4096, "intermediate_size": 5632, "hidden_act": "silu"}
PATCHER = {"vocab_size": 260, "hidden_size": 768, "num_hidden_layers": 14, "num_attention_heads": 12,
           "num_key_value_heads": None, "max_position_embeddings": 8192, "intermediate_size": 2048,
           "sliding_window": 512}
# BltConfig's own keys and defaults
TOP = {"vocab_size": 260, "max_position_embeddings": 4096, "patch_in_forward": True, "patch_size": 4,
       "patching_mode": "entropy", "patching_threshold": 1.335442066192627, "patching_batch_size": 1,
       "max_patch_length": None, "local_attention_window_len": 512, "cross_attn_k": 2,
       "encoder_hash_byte_group_size": None, "encoder_hash_byte_group_vocab": 500002,
       "encoder_hash_byte_group_nb_functions": 1, "patcher_config": None, "encoder_config": None,
       "decoder_config": None, "global_config": None, "tie_word_embeddings": False}
SECTIONS = {"encoder_config": ENCODER, "decoder_config": DECODER, "global_config": GLOBAL, "patcher_config": PATCHER}
# Keys the sub-config classes hold that change no tensor (PreTrainedConfig's own, numerics, the windows)
NEUTRAL = frozenset({"rms_norm_eps", "dropout", "rope_parameters", "initializer_range", "sliding_window",
                     "tie_word_embeddings", "hidden_act", "max_position_embeddings", "pad_token_id", "bos_token_id",
                     "eos_token_id", "head_dim", "encoder_cross_output_size", "_attn_implementation_autoset"})
HASH_GROUPS = [3, 4, 5, 6, 7, 8]  # BltConfig.__post_init__: encoder_hash_byte_group_size or these


class Stack(NamedTuple):
    """One sub-config's sizes, as its class reads them."""
    hidden: int  # hidden_size
    heads: int  # num_attention_heads
    kv_heads: int  # num_key_value_heads or num_attention_heads
    layers: int  # num_hidden_layers
    inner: int  # intermediate_size (the encoder's: or int(8 × hidden_size / 3))
    section: Mapping[str, Any]  # the sub-config over its class's defaults

    @property
    def head_dim(self) -> int:
        return self.hidden // self.heads  # BltSelfAttention, BltCrossAttention: whatever head_dim says


def section(config: Mapping[str, Any], key: str) -> dict[str, Any]:
    """The sub-config ``key`` over its class's defaults (absent or null: the defaults), refused in one line unless
    a JSON object."""
    given = config.get(key)
    if given is None:
        given = {}
    if not isinstance(given, Mapping):
        raise ArchitectureError(key, f"must be a JSON object, got {quoted(given)}"[:200])
    return {**SECTIONS[key], **given}


def size(config: Mapping[str, Any], key: str, where: str, low: int = 1) -> int:
    """A whole number from ``low`` within the bound, refused in one line naming ``where`` (its section's key)."""
    value = config.get(key)
    if type(value) is not int or value < low:
        raise ArchitectureError(where, f"must be a whole number from {low}, got {quoted(value)}"[:200])
    if value > MAX_INTEGER:
        raise ArchitectureError(where, f"{big(value)} is beyond the bound of {MAX_INTEGER:,} (docs/limits.md)")
    return value


def _or(config: Mapping[str, Any], key: str, where: str, fallback: int) -> int:
    """A size its class derives where it is null or 0 (``x or fallback``), else a positive whole number."""
    value = config.get(key)
    if value is None or value == 0 and type(value) is int:
        return fallback
    return size(config, key, where)


def flag(config: Mapping[str, Any], key: str, where: str) -> bool:
    value = config.get(key)
    if not isinstance(value, bool):
        raise ArchitectureError(where, f"must be true or false, got {quoted(value)}"[:200])
    return value


def stack(config: Mapping[str, Any], key: str) -> Stack:
    """The sizes of sub-config ``key`` (encoder_config, decoder_config, global_config, patcher_config)."""
    inner = section(config, key)
    hidden = size(inner, "hidden_size", f"{key}.hidden_size")
    heads = size(inner, "num_attention_heads", f"{key}.num_attention_heads")
    if heads > hidden:  # hidden_size // heads = 0: projections 0 wide
        raise ArchitectureError(f"{key}.num_attention_heads", f"{heads} is more than hidden_size {hidden}: every "
                                "head would be 0 wide (head_dim is hidden_size // num_attention_heads)")
    # validate_rope in every sub-config but the local encoder's (BltLocalEncoderConfig makes one: measured), for an
    # odd head_dim over 4 (test checkpoints' 3 let through), as families/even_rotary.py
    if key != "encoder_config" and hidden // heads % 2 and hidden // heads > 4:
        raise ArchitectureError(f"{key}.num_attention_heads", f"gives an odd head_dim {hidden // heads} (hidden_size "
                                "// num_attention_heads): RoPE needs it even, and transformers 5.24.0 refuses it")
    kv_heads = _or(inner, "num_key_value_heads", f"{key}.num_key_value_heads", heads)
    if heads % kv_heads:
        raise ArchitectureError(f"{key}.num_key_value_heads", f"{kv_heads} does not divide num_attention_heads "
                                f"{heads}")
    layers = size(inner, "num_hidden_layers", f"{key}.num_hidden_layers", 0)
    depth_bounded(inner, key)  # a tower's layers, named one tensor at a time (the local encoder's cross-attention too)
    if key != "encoder_config" and inner.get("intermediate_size") is None:  # typed int there, null only here
        raise ArchitectureError(f"{key}.intermediate_size", "must be a whole number, got null")
    width = _or(inner, "intermediate_size", f"{key}.intermediate_size", int(8 * hidden / 3))  # __post_init__'s or
    return Stack(hidden, heads, kv_heads, layers, width, inner)


def _block(hidden: int, heads: int, kv_heads: int, inner: int) -> list[tuple[str, tuple[int, ...], str]]:
    """BltTransformerLayer: self_attn, mlp, then the two norms."""
    head_dim = hidden // heads
    return [("self_attn.q_proj.weight", (heads * head_dim, hidden), "attention"),
            ("self_attn.k_proj.weight", (kv_heads * head_dim, hidden), "attention"),
            ("self_attn.v_proj.weight", (kv_heads * head_dim, hidden), "attention"),
            ("self_attn.o_proj.weight", (hidden, heads * head_dim), "attention"),
            ("mlp.gate_proj.weight", (inner, hidden), "ffn"), ("mlp.up_proj.weight", (inner, hidden), "ffn"),
            ("mlp.down_proj.weight", (hidden, inner), "ffn"),
            ("input_layernorm.weight", (hidden,), "norm"), ("post_attention_layernorm.weight", (hidden,), "norm")]


def layers(prefix: str, s: Stack) -> list[tuple[str, tuple[int, ...], str]]:
    block = _block(s.hidden, s.heads, s.kv_heads, s.inner)
    return [(f"{prefix}layers.{i}.{name}", shape, component) for i in range(s.layers) for name, shape, component
            in block]


def cross_attention(prefix: str, s: Stack, count: int) -> list[tuple[str, tuple[int, ...], str]]:
    """``count`` BltCrossAttention modules (cross_attn_layers): q, k, v, o, then q_norm and k_norm."""
    head_dim, hidden = s.head_dim, s.hidden
    block = [("q_proj.weight", (s.heads * head_dim, hidden), "attention"),
             ("k_proj.weight", (s.kv_heads * head_dim, hidden), "attention"),
             ("v_proj.weight", (s.kv_heads * head_dim, hidden), "attention"),
             ("o_proj.weight", (hidden, s.heads * head_dim), "attention"),
             ("q_norm.weight", (hidden,), "norm"), ("k_norm.weight", (hidden,), "norm")]
    return [(f"{prefix}cross_attn_layers.{i}.{name}", shape, component) for i in range(count)
            for name, shape, component in block]


def rotary(prefix: str, head_dim: int) -> list[Buffer]:
    """BltRotaryEmbedding's inv_freq pair: torch.arange(0, head_dim, 2), float32, not persistent."""
    width = (head_dim + 1) // 2
    return [Buffer(f"{prefix}rotary_emb.{which}", (width,), "float32", False) for which in
            ("inv_freq", "original_inv_freq")]


class BltStack(NamedTuple):
    """Tensors beside the design, under their full names; ``buffers_`` their rotaries.  Its nn.Embedding tables
    (the hash table, the patcher's) are in the "embedding" component, as the design's own table is: what Hugging
    Face's num_parameters(exclude_embeddings=True) drops, so no embedding_tables() names them again."""
    tensors_: tuple[Tensor, ...]
    buffers_: tuple[Buffer, ...]
    # formula_towers.stand_in_towers: why the closed form is refused
    untraced = ("its stacks beside the local encoder (towers/blt.py) read the encoder's sizes by their own rule, "
                "which the builder cannot trace symbolically; --text-only is refused too (no class builds the local "
                "encoder alone)")

    def tensors(self) -> list[Tensor]:
        return list(self.tensors_)

    def buffers(self) -> list[Buffer]:
        return list(self.buffers_)


def _made(named: list[tuple[str, tuple[int, ...], str]], buffers: list[Buffer], frozen: bool = False) -> BltStack:
    tensors = tuple(_new(Tensor, (name, shape, component, None, frozen, 0)) for name, shape, component in named)
    return BltStack(tensors, tuple(buffers))


def hash_rows(config: Mapping[str, Any]) -> int:
    """BltModel.encoder_hash_tok_embedding's rows: encoder_hash_byte_group_vocab × nb_functions × the groups
    (encoder_hash_byte_group_size, or BltConfig's six where it is null or empty)."""
    groups = config.get("encoder_hash_byte_group_size")
    if groups is not None and not isinstance(groups, list):
        raise ArchitectureError("encoder_hash_byte_group_size", f"must be a list of group sizes, got "
                                f"{quoted(groups)}"[:200])
    vocab = size(config, "encoder_hash_byte_group_vocab", "encoder_hash_byte_group_vocab", 0)
    functions = size(config, "encoder_hash_byte_group_nb_functions", "encoder_hash_byte_group_nb_functions", 0)
    rows = vocab * functions * len(groups or HASH_GROUPS)
    if rows > MAX_INTEGER:
        raise ArchitectureError("encoder_hash_byte_group_vocab", f"gives a hash table of {big(rows)} rows, beyond "
                                f"the bound of {MAX_INTEGER:,} (docs/limits.md)")
    return rows


def stacks(config: Mapping[str, Any], where: str | None = None, design: Any = None) -> tuple[BltStack, ...]:
    """Everything BltForCausalLM builds beside the design (the local encoder's table and layers, the head), in
    registration order (the family's model_order sorts it around the design's).  The local encoder's sizes are the
    design's (``design``: a --set width or depth reaches its cross-attention, its patch projection, the hash
    table and the global transformer's input projection as transformers would build them); None: encoder_config's."""
    try:
        return _stacks({**TOP, **config}, design)
    except ArchitectureError as error:
        raise ArchitectureError(error.key, error.message, where) from None


def _encoder(config: Mapping[str, Any], design: Any) -> Stack:
    encoder = stack(config, "encoder_config")
    if design is None:
        return encoder
    every = flag(encoder.section, "cross_attn_all_layers", "encoder_config.cross_attn_all_layers")
    if every and design.num_hidden_layers > TOWER_LAYERS:  # (a --set depth: its cross-attention one per layer)
        raise ArchitectureError("num_hidden_layers", f"{big(design.num_hidden_layers)} is beyond the bound of "
                                f"{TOWER_LAYERS:,} a tower's layers are named to (docs/limits.md): the local "
                                "encoder's cross-attention is one per layer (encoder_config.cross_attn_all_layers)")
    return Stack(design.hidden_size, design.num_attention_heads, design.kv_heads, design.num_hidden_layers,
                 design.intermediate_size, encoder.section)


def _stacks(config: Mapping[str, Any], design: Any) -> tuple[BltStack, ...]:
    encoder, decoder = _encoder(config, design), stack(config, "decoder_config")
    glob = stack(config, "global_config")
    enc, dec = encoder.section, decoder.section
    e, d, g = "model.local_encoder.", "model.local_decoder.", "model.global_transformer."
    out = []
    # BltLocalEncoder: patch_embedding_projection hidden -> hidden × cross_attn_k, then (after the design's
    # embed_tokens) one cross-attention, or one per layer with cross_attn_all_layers
    k = size(enc, "cross_attn_k", "encoder_config.cross_attn_k")
    every = flag(enc, "cross_attn_all_layers", "encoder_config.cross_attn_all_layers")
    out.append(_made([(e + "patch_embedding_projection.weight", (encoder.hidden * k, encoder.hidden), "ffn"),
                      *cross_attention(e, encoder, encoder.layers if every else 1)], []))
    # BltGlobalTransformer: a Linear from the encoder's hidden_size × the whole config's cross_attn_k where that
    # differs from its own hidden_size (BltConfig.__post_init__: encoder_cross_output_size), else nn.Identity
    top_k = size(config, "cross_attn_k", "cross_attn_k")
    cross_out = encoder.hidden * top_k
    projection = [] if cross_out == glob.hidden else [(g + "token_embedding_projection.weight",
                                                        (glob.hidden, cross_out), "ffn")]
    out.append(_made([*layers(g, glob), *projection], rotary(g, glob.head_dim)))
    # BltLocalDecoder: patch_embedding_projection from its own hidden_size_global (not global_config's), its norm,
    # then one cross-attention, or one per layer (cross_attn_all_layers: its class default true)
    global_width = size(dec, "hidden_size_global", "decoder_config.hidden_size_global")
    k_dec = size(dec, "cross_attn_k", "decoder_config.cross_attn_k")
    every_dec = flag(dec, "cross_attn_all_layers", "decoder_config.cross_attn_all_layers")
    out.append(_made([*layers(d, decoder),
                      (d + "patch_embedding_projection.weight", (decoder.hidden * k_dec, global_width), "ffn"),
                      (d + "norm.weight", (decoder.hidden,), "norm"),
                      *cross_attention(d, decoder, decoder.layers if every_dec else 1)], rotary(d, decoder.head_dim)))
    table = "model.encoder_hash_tok_embedding.weight"
    out.append(_made([(table, (hash_rows(config), encoder.hidden), "embedding")], []))
    patch = config.get("patch_in_forward", True)
    if patch is not None and not isinstance(patch, bool):
        raise ArchitectureError("patch_in_forward", f"must be true, false or null, got {quoted(patch)}"[:200])
    if patch:  # BltPatcher, its parameters requires_grad False (BltModel.__init__); null builds none, as false
        patcher = stack(config, "patcher_config")
        p = "model.patcher."
        rows = size(patcher.section, "vocab_size", "patcher_config.vocab_size")
        out.append(_made([*layers(p, patcher), (p + "embed_tokens.weight", (rows, patcher.hidden), "embedding"),
                      (p + "norm.weight", (patcher.hidden,), "norm"),
                      (p + "lm_head.weight", (rows, patcher.hidden), "lm_head")],
                         rotary(p, patcher.head_dim), frozen=True))
    return tuple(out)
