"""The generic builder: one architecture plus one naming table gives the tensor list.

The arithmetic lives in the parts (parts/), one module per kind; the design's flat keys become
layers of parts in design/flat.py.  Here the model is put together: the tensors before the
layers, one block per distinct layer (shared by the layers alike), the tensors after.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from fnmatch import fnmatchcase

from ._exceptions import ArchitectureError
from .architecture import Architecture
from .design.flat import layer_plan
from .design.layers import Layer, LayerPlan
from .entity_tables import entity_embeddings, entity_head
from .inventory import Inventory, StampedTensors, Tensor, inventory_from_tensors
from .naming import Naming
from .parts._collector import Collector
from .perceiver_tables import latent_inputs, latent_outputs


def build(arch: Architecture, naming: Naming, source: str | None = None) -> Inventory:
    n = naming
    c = Collector(naming, arch.norm_type)
    d = arch.hidden_size
    width = arch.embedding_size or d  # the tables' width (ELECTRA's embedding_size), the head's too
    c.add(n.embed + ".weight", (arch.vocab_size, width), "embedding")
    if arch.pronunciation_vocab_size is not None:  # nn.Embedding tables indexed by the tokens' own ids (RoC-BERT)
        c.add(n.pronunciation_embed + ".weight", (arch.pronunciation_vocab_size, arch.pronunciation_embed_dim or 0),
              "embedding")
    if arch.shape_vocab_size is not None:
        c.add(n.shape_embed + ".weight", (arch.shape_vocab_size, arch.shape_embed_dim or 0), "embedding")
    if arch.map_inputs_width is not None:  # a dense matrix over the concatenated tables: HF's non-embedding keeps it
        c.linear(n.map_inputs, d, arch.map_inputs_width, "ffn", None, True)
    if n.mask_embedding is not None:  # a bare Parameter, no nn.Embedding: the HF non-embedding count keeps it
        c.add(n.mask_embedding, (1, 1, d), "attention")
    if arch.position_embedding_type == "learned" and not arch.axial_pos_embds_dim:  # (Reformer's: learned, by axes)
        across = d // arch.num_attention_heads if n.positions_head_wide else d if n.positions_hidden_wide else width
        offset = n.position_offset if arch.position_offset is None else arch.position_offset
        c.add(n.positions + ".weight", (arch.max_position_embeddings + offset, across), "positions")
    for axis, across in enumerate(arch.axial_pos_embds_dim):  # a ParameterList: HF's non-embedding count keeps it
        shape = tuple(rows if a == axis else 1 for a, rows in enumerate(arch.axial_pos_shape))
        c.add(f"{n.axial_positions}.weights.{axis}", (*shape, across), "positions")  # (Reformer's axes)
    if arch.max_2d_position_embeddings is not None:  # nn.Embedding tables: out of Hugging Face's non-embedding count
        for coordinate in "xyhw":
            c.add(n.box_positions.format(p=coordinate) + ".weight", (arch.max_2d_position_embeddings, width),
                  "positions")
    if arch.type_vocab_size is not None:  # (0 rows: an empty table, as BertEmbeddings builds it)
        c.add(n.token_types + ".weight", (arch.type_vocab_size, d if n.token_types_hidden_wide else width),
              "token_types")
    for t, rows in enumerate(arch.type_vocab_sizes):  # one table per token-type column (TAPAS), nn.Embeddings
        c.add(n.token_types.format(t=t) + ".weight", (rows, width), "token_types")
    if arch.task_type_vocab_size is not None:  # (an nn.Embedding: out of every non-embedding count, as token types)
        c.add(n.task_types + ".weight", (arch.task_type_vocab_size, width), "token_types")
    if n.embed_norm is not None and arch.layernorm_embedding:
        c.norm(n.embed_norm, width)
    # ElectraModel.embeddings_project (a dense matrix: Hugging Face's non-embedding count keeps it)
    if width != d and n.embed_unproject is not None:  # (OPT's project_out, back to the head's width)
        c.linear(n.embed_unproject, width, d, "ffn")
    if (width != d or n.embed_project_always) and arch.num_latents is None:  # (Perceiver's: a cross-attention)
        reads = 3 * width if arch.trigram_input else width  # (MobileBERT's 3-gram concatenation)
        c.linear(n.embed_project, d, reads, "ffn", None, n.embed_project_bias)
    if n.embed_project_norm is not None:  # MobileBertEmbeddings.LayerNorm: NoNorm registers its bias first
        for name in ("bias", "weight") if arch.no_norm else ("weight", "bias"):
            c.add(f"{n.embed_project_norm}.{name}", (d,), "norm")
    if arch.patch_stem_size is not None:  # NeoMMEPatchEmbeddings: an affine LayerNorm, up (no bias), down (biased)
        pixels = 3 * arch.patch_stem_size ** 2
        c.add(n.patch_stem + ".norm.weight", (pixels,), "vision")
        c.add(n.patch_stem + ".norm.bias", (pixels,), "vision")
        c.linear(n.patch_stem + ".up_proj", 2 * d, pixels, "vision")
        c.linear(n.patch_stem + ".down_proj", d, 2 * d, "vision", None, True)
    if arch.entity_vocab_size is not None:  # LUKE's entity tables, after the token embeddings
        entity_embeddings(c, arch)
    _model_extras(c, arch)
    if arch.num_latents is not None:  # Perceiver's latents and the cross-attention into them (perceiver_tables.py)
        latent_inputs(c, arch)
    # Every layer of a kind holds the same tensors under its own prefix: build each kind once and
    # share it between the layers (StampedTensors sums it once per kind).
    plan = layer_plan(arch)
    norm_type = arch.norm_type
    if len(plan.kinds) == 1:  # one kind of layer: no look-up per layer
        layer, layers = plan.kinds[0]
        block = layer.tensors(naming, norm_type)
        blocks, kinds = LayerBlocks(plan.layers, {id(layer): block}), [(block, layers)]  # no tuple per layer
        aliases: dict[str, str] = {}  # a layer aliases another's tensors only where another kind holds them
    else:
        block_of = {id(layer): layer.tensors(naming, norm_type) for layer, _ in plan.kinds}
        blocks = LayerBlocks(plan.layers, block_of)
        kinds = [(block_of[id(layer)], layers) for layer, layers in plan.kinds]
        # only a shared block's uses hold tensors through another layer: no other design looks
        aliases = _layer_aliases(plan, naming, norm_type) if arch.shared_block_layers else {}
    before, c = c.tensors, Collector(naming, norm_type)  # the tensors after the layers: a list of their own
    for j in range(arch.altup_num_inputs - 1):  # the extra AltUp streams, back to the hidden state
        c.linear(n.altup_unembed_projections.format(j=j), d, d, "ffn")
    if n.value_embeddings is not None:  # an nn.Embedding indexed by the tokens: out of HF's non-embedding count
        c.add(n.value_embeddings + ".weight", (arch.vocab_size, arch.kv_heads * arch.attention_head_dim), "embedding")
    if n.pooler is not None:  # held by the model its head class builds (BigBirdForCausalLM, LayoutLMForMaskedLM)
        c.linear(n.pooler, d, d, "ffn", None, True)
    if arch.relative_attention_num_buckets is not None:  # one table for every layer, an nn.Embedding after them
        c.add(n.relative_attention_bias + ("" if n.relative_attention_bias_raw else ".weight"),
              (arch.relative_attention_num_buckets, arch.num_attention_heads), "positions")
    if arch.relative_embeddings_size is not None:  # one hidden-wide nn.Embedding after the layers (DeBERTa-v2)
        c.add(n.relative_embeddings + ".weight", (arch.relative_embeddings_size, d), "positions")
    if arch.final_norm:
        c.norm(n.final_norm, arch.final_norm_width or d, offset=arch.final_norm_bias)
    if arch.encoder_conv_kernel_size is not None:  # DeBERTa-v2's ConvLayer after the layers (DebertaV2Encoder.conv)
        c.add(n.encoder_conv + ".conv.weight", (d, d // (arch.encoder_conv_groups or 1), arch.encoder_conv_kernel_size),
              "ffn")
        c.add(n.encoder_conv + ".conv.bias", (d,), "ffn")
        c.norm(n.encoder_conv + ".LayerNorm", d)
    if n.rotary_alpha is not None:  # the rotary module's one learned tensor, as long as its rope_type's inv_freq
        from .families.even_rotary import inv_freq_length

        head = arch.qk_rope_head_dim if arch.is_mla else arch.attention_head_dim  # (a symbolic design's: no int())
        c.add(n.rotary_alpha, (inv_freq_length(arch.rope_type, head, arch.partial_rotary_factor, default_whole=True),),
              "attention")  # (MistralLarge4TextRotaryEmbedding's default reads head_dim whole) not positions
    if n.hyper_mixer is not None and arch.hc_count:  # Qwen4-Exp's streams mixed into one (parts/hyper_residuals.py)
        from .parts.hyper_connection import GatedResidual

        GatedResidual(d, arch.hc_count, arch.hc_lowrank or 0, False, n.hyper_mixer).tensors(c)
    if n.hyper_head is not None:  # registered after the final norm (HYV4Model.hc_head), float32 matmul weights
        streams = arch.hc_mult
        c.add(n.hyper_head + ".hc_fn", (streams, streams * d), "ffn")
        c.add(n.hyper_head + ".hc_base", (streams,), "ffn")
        c.add(n.hyper_head + ".hc_scale", (1,), "ffn")
    if n.contact_head is not None:  # EsmContactPredictionHead.regression over every layer's attention maps
        c.linear(n.contact_head, 1, arch.num_hidden_layers * arch.num_attention_heads, "ffn", None, True)
    if arch.num_latents is not None:  # its decoder back from the latents
        latent_outputs(c, arch)
    head_width = arch.output_embedding_size or width  # the head's own width (RemBERT's output_embedding_size)
    transform_width = d if arch.lm_head_rest else head_width  # (MobileBERT's: hidden wide, the decoder the table's)
    if arch.lm_head_transform:  # a dense layer and a norm before the head (ModernBERT's, BERT's MLM head)
        c.linear(n.lm_head_dense, transform_width, d, "lm_head", None, arch.lm_head_transform_bias)
        c.norm(n.lm_head_norm, transform_width)
    if arch.lm_head_rest:  # an unbiased Linear(vocab -> hidden_size - width): weight (hidden_size - width, vocab)
        c.linear(n.lm_head_extra, d - width, arch.lm_head_rows, "lm_head")
    if arch.prediction_head_size is not None:  # UltrabertPredictionHead: linear1 and linear2, no biases
        c.linear(n.lm_head_in, arch.prediction_head_size, d, "lm_head")
        c.linear(n.lm_head_out, d, arch.prediction_head_size, "lm_head")
    if n.unembed_project is not None and arch.tie_word_embeddings:  # (NeoMMEForMaskedLM._tied_weights_keys)
        aliases[n.unembed_project + ".weight"] = n.embed_project + ".weight"
    elif n.unembed_project is not None:
        c.linear(n.unembed_project, d, width, "lm_head")  # (hidden, width)
    lm_head, rows = n.lm_head + ".weight", arch.lm_head_rows
    head_bias = n.lm_head_bias if arch.lm_head_bias else None  # held apart, registered before the head's Linear
    if head_bias is not None:
        c.add(head_bias, (rows,), "lm_head")
    if arch.num_latents is not None:  # PerceiverEmbeddingDecoder reads the token table in forward: no module
        pass
    elif not n.lm_head:  # no head at all (PI0ForConditionalGeneration's two GemmaModels: action_out_proj instead)
        pass
    elif arch.asm_cutoffs:  # an adaptive softmax in the head's place (XLM's asm: parts/adaptive_softmax.py)
        from .parts.adaptive_softmax import adaptive_softmax

        adaptive_softmax(c, arch, aliases)
    elif arch.tie_word_embeddings and n.tied_table_in_head:  # the table under the head's name, the embedding's an alias
        before[0] = before[0]._replace(name=lm_head)
        aliases[n.embed + ".weight"] = lm_head
    elif arch.tie_word_embeddings and not n.lm_head_weight_untied:
        aliases[lm_head] = n.embed + ".weight"
    else:
        c.add(lm_head, (rows, head_width), "lm_head")
    own_bias = arch.lm_head_bias and n.lm_head_linear_bias  # (ESM's decoder has none: the one held apart is all)
    if head_bias is not None and arch.tie_word_embeddings and own_bias:  # the Linear's own is the one held apart
        aliases[n.lm_head + ".bias"] = head_bias
    elif own_bias:
        c.add(n.lm_head + ".bias", (rows,), "lm_head")
    if arch.entity_vocab_size is not None:  # LUKE's entity head, after the LM head
        entity_head(c, arch, aliases)
    towers = 0  # a whole model's: its towers' tensors before the decoder's, their names for tensors held elsewhere
    if arch.towers:
        from .towers import outside_decoder

        own = len(before)
        before = outside_decoder(arch, before, aliases)
        towers = len(before) - own
    after, frozen = c.tensors, arch.frozen
    outside = frozen and _names_outside(frozen, before, after)
    if outside:  # whole names of tensors outside the layers (HRM-Text's z_L_init): the layers stay stamped
        before, after = ([t._replace(frozen=t.name in frozen) for t in ts] for ts in (before, after))
    tensors: StampedTensors | tuple[Tensor, ...] = StampedTensors(before, n.layer + ".", blocks, after, kinds,
                                                                  n.layer_order, n.model_order)
    if n.layer_lists:  # one ModuleList per kind of module (XLM): its names and order, as a flat list
        from .layer_lists import by_module_list

        tensors = by_module_list(tensors, arch)
    elif n.layer_blocks is not None:  # the first layers in blocks, the rest in a list of their own (Funnel)
        from .layer_blocks import in_blocks

        tensors = in_blocks(tensors, arch, n.layer_blocks)
    if frozen and not outside:  # patterns that may match a layer's full names: mark the expanded list (in order)
        tensors = tuple(t._replace(frozen=_frozen(t.name, frozen)) for t in tensors)
    try:
        return inventory_from_tensors(tensors, aliases, architecture=arch, source=source, notes=arch.notes,
                                      towers=towers)
    except ValueError as error:  # two roles of the family's naming at one path: Llama's norms made sandwich
        raise ArchitectureError("model_type", f"{arch.model_type} names two tensors alike in this design "
                                f"({str(error).removeprefix('duplicate tensor names: ')[:200]}): transformers "
                                "builds no such model of this family (a --set key its family does not build?)",
                                arch.source) from None


class LayerBlocks(Sequence[tuple[Tensor, ...]]):
    """Each layer's block, looked up in the layer plan when asked (a design of 10⁶ layers of a few kinds holds no
    list of 10⁶ blocks: a count sums the kinds, and only a view naming every layer walks them, at C speed)."""

    __slots__ = ("_block_of", "_layers")

    def __init__(self, layers: tuple[Layer, ...], block_of: dict[int, tuple[Tensor, ...]]) -> None:
        self._layers, self._block_of = layers, block_of  # plan.layers; id(Layer) -> its block

    def __len__(self) -> int:
        return len(self._layers)

    def __iter__(self) -> Iterator[tuple[Tensor, ...]]:
        return map(self._block_of.__getitem__, map(id, self._layers))

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            return tuple(map(self._block_of.__getitem__, map(id, self._layers[index])))
        return self._block_of[id(self._layers[index])]


def _layer_aliases(plan: LayerPlan, naming: Naming, norm_type: str) -> dict[str, str]:
    """The names of tensors a layer holds through another layer: a part whose tensors are another
    layer's (a tied later use of a shared block) emits none of them and answers ``aliases``, its names
    relative to its layer -> the full names of the holder's; each named under every layer of its kind."""
    declared: dict[int, dict[str, str]] = {}
    for layer, _ in plan.kinds:
        for held in layer.parts:
            if relative := held.aliases(Collector(naming, norm_type)):
                declared.setdefault(id(layer), {}).update(relative)
    if not declared:
        return {}
    aliases: dict[str, str] = {}
    for i, layer in enumerate(plan.layers):
        relative = declared.get(id(layer))
        if relative is not None:
            prefix = naming.layer.format(i=i) + "."
            aliases.update({prefix + name: target for name, target in relative.items()})
    return aliases


def _frozen(name: str, patterns: tuple[str, ...]) -> bool:
    return any(fnmatchcase(name, pattern) for pattern in patterns)


def _names_outside(patterns: tuple[str, ...], before: list[Tensor], after: list[Tensor]) -> bool:
    """Every pattern a whole name (no wildcard) of a tensor before or after the layers: names are unique, so none
    is a layer's, and marking the layers needs no expanded list (a design of 10⁷ layers stays a count of kinds)."""
    if any(char in pattern for pattern in patterns for char in "*?["):
        return False
    return set(patterns) <= {t.name for t in before} | {t.name for t in after}


def _model_extras(c: Collector, arch: Architecture) -> None:
    """Gemma 3n's model-level tensors before the layers (Gemma3nTextModel): the per-layer input
    table and the projection of the embeddings to every layer's input, then one d × d projection
    into each extra AltUp stream."""
    n, d = c.naming, arch.hidden_size
    for name in n.model_vectors:  # bare Parameters of the model's own (ZayaModel.input_hidden_states_scale)
        c.add(name, (d,), "norm")
    for name, shape in n.model_arrays:
        c.add(name, tuple(getattr(arch, size) if type(size) is str else size for size in shape), "norm")
    per_layer = arch.hidden_size_per_layer_input
    if per_layer:
        width = arch.per_layer_input_width  # every layer's input in one row
        c.add(n.embed_per_layer + ".weight", (arch.per_layer_input_rows, width), "embedding")
        c.linear(n.per_layer_model_projection, width, d, "ffn")
        c.norm(n.per_layer_projection_norm, per_layer)
    for j in range(arch.altup_num_inputs - 1):
        c.linear(n.altup_projections.format(j=j), d, d, "ffn")
